"""A seat's view of Blufpoker, built by `BlufpokerState.observation` from board and cup note.

`rules.py` imports this module to build views, so this module imports `rules.py` only
for type checking (a runtime import would be a circle); the phases and the legal actions
per phase come from `actions.py`, which both share.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Final

from epigames.games.blufpoker import observation
from epigames.games.blufpoker.actions import PHASES, Action, legal_choices
from epigames.games.blufpoker.dice import RANK_OF, ROLLS, SORTED, Dice, Roll, dice_text
from epigames.games.blufpoker.records import Board
from epigames.games.core import View
from epigames.games.events import Event
from epigames.games.observation import Arrays

if TYPE_CHECKING:
    from epigames.games.blufpoker.knowledge import CupKnowledge
    from epigames.games.blufpoker.rules import BlufpokerGame


# The roll of rank r at r + 1, None at 0 for the board's -1 (no such bid yet).
_ROLL_OR_NONE: tuple[Roll | None, ...] = (None, *ROLLS)


class BlufpokerView(View):
    """A seat's view: the public board, the seat's own look under the cup, the log.

    Built from the seat's observations only: the board from public announcements, the
    cup note from the seat's private observations.
    """

    def __init__(
        self,
        game: BlufpokerGame,
        seat: int,
        current: int,
        phase: int,
        log: list[Event],
        board: Board,
        note: tuple[Dice, Dice] | None,
    ) -> None:
        # Set directly rather than through View.__init__: one view is built per decision.
        self._game, self._seat, self._current_player = game, seat, current
        self._log_source, self._log_length = log, len(log)
        self._phase = phase
        self.board = board
        #: The phase name: `decide`, `roll`, `bid`, `poker-keep`, … (see `PHASES`).
        self.phase: Final = PHASES[phase]
        #: The bid to beat (None before the first) and its bidder (-1 before the first).
        self.bid: Final = _ROLL_OR_NONE[board.bid + 1]
        self.bidder: Final = board.bidder
        #: The bid that the current bid beat (None for an opening bid).
        self.over: Final = _ROLL_OR_NONE[board.over + 1]
        #: The dice outside the cup, high to low.
        self.visible: Final = board.visible
        #: Every seat's penalties.
        self.penalties: Final = board.penalties
        #: The open dice of the poker phase, and the poker chased there (else None).
        self.poker_dice: Final = board.poker_dice
        self.poker_target: Final = _ROLL_OR_NONE[board.poker_target + 1]
        #: While this seat holds the cup: its dice not rolled yet this turn, and the faces
        #: it rolled this turn.
        self.untouched: Final[Dice] = note[0] if note is not None else ()
        self.fresh: Final[Dice] = note[1] if note is not None else ()
        #: What this seat saw under the cup, while that is still what it holds; else None.
        self.cup: Final[Roll | None] = (
            None if note is None else ROLLS[RANK_OF[SORTED[note[0] + note[1]]]]
        )

    def events_since(self, index: int) -> list[Event]:
        """The events this seat observed from position `index` of its log on (cheap)."""
        return self._log_source[index : self._log_length]

    def private_items(self) -> frozenset[Hashable]:
        """The roll this seat saw under the cup, while the cup still holds it."""
        cup = self.cup
        return frozenset() if cup is None else frozenset([cup])

    @functools.cached_property
    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions (empty when it is not its turn)."""
        if self._current_player != self._seat:
            return ()
        return legal_choices(
            self._phase, self.board.bid, self.untouched, self.fresh, self.poker_dice
        )

    @functools.cached_property
    def knowledge(self) -> CupKnowledge:
        """What this seat knows and believes about the cup (see `knowledge.CupKnowledge`)."""
        from epigames.games.blufpoker.knowledge import CupKnowledge

        return CupKnowledge.from_view(self)

    def write_public(self, arrays: Arrays) -> None:
        """The phase, the bids, the dice outside and open, the penalties (`observation`)."""
        observation.write_public(self, arrays)

    def _extra_dict(self) -> dict[str, Any]:
        cup = self.cup
        return {
            "phase": self.phase,
            "bid": None if self.bid is None else str(self.bid),
            "bidder": self.bidder,
            "visible": list(self.visible),
            "penalties": list(self.penalties),
            "cup": None if cup is None else str(cup),
            "poker_dice": list(self.poker_dice),
        }

    def summary(self) -> str:
        """E.g. `cup 6 5 3 · 6 5 outside · bid 654 · penalties 1 0 2`."""
        parts = []
        cup = self.cup
        if cup is not None:
            parts.append(f"cup {dice_text(cup.dice)}")
        parts.append(f"outside {dice_text(self.visible)}")
        if self.bid is not None:
            parts.append(f"bid {self.bid}")
        parts.append("penalties " + " ".join(map(str, self.penalties)))
        return " · ".join(parts)
