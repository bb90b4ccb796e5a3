"""A seat's view of Blufpoker, made by `BlufpokerState.observation` from the public record.

`state.py` imports this module to make views, so this module imports the state only for
type checking (a runtime import would be a circle); the phases and the legal actions per
phase come from `actions.py`, which both share.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from epigames.games.blufpoker import observation
from epigames.games.blufpoker.actions import PHASES, Action, legal_choices
from epigames.games.blufpoker.dice import RANK_OF, ROLLS, SORTED, Dice, Roll, dice_text
from epigames.games.blufpoker.records import Board
from epigames.games.core import EventLog, Game, SharedLogView, View
from epigames.games.events import Event
from epigames.games.observation import Arrays

if TYPE_CHECKING:
    from epigames.games.blufpoker.knowledge import CupKnowledge


# The roll of rank r at r + 1, None at 0 for the board's -1 (no such bid yet).
_ROLL_OR_NONE: tuple[Roll | None, ...] = (None, *ROLLS)


class BlufpokerView(SharedLogView, View):
    """A seat's view: the public board, the seat's own look under the cup, the log.

    Built from the seat's observations only: the public record every seat shares (the
    fields of a `Board`, made into one only when `board` is asked for) and the look what
    the seat itself saw under the cup (while the cup still holds it). Its other fields
    are read from those when asked for: a strategy reads few. Made by the state's
    `observation`, not by calling the class.

    Compiled with mypyc (`epigames.native`), a native class: the fields declared here are
    C slots, and the state makes one without a Python `__init__`. What it works out when
    first asked (the board, the log, the legal actions, the knowledge) is kept in slots
    of its own instead of by `cached_property` (a `__dict__` remains, from `View`'s plain
    base).
    """

    # Declared here as well as in the bases: compiled, they are then slots of this class.
    _seat: int
    _current_player: int
    _source: EventLog
    _stop: int

    def __init__(
        self,
        seat: int,
        current_player: int,
        phase: int,
        source: EventLog,
        stop: int,
        note: tuple[Dice, Dice] | None,
        round: int,
        bid: int,
        bidder: int,
        over: int,
        opening: bool,
        visible: Dice,
        rolling: bool,
        known: Roll | None,
        penalties: tuple[int, ...],
        target: int,
        poker_dice: Dice,
        poker_rolls: int,
    ) -> None:
        self._seat = seat
        self._current_player = current_player
        self._phase = phase
        self._source = source
        self._stop = stop
        self._note = note
        # The public record, `Board`'s fields in its order: strategies read them here,
        # and a `Board` is made of them only when asked for.
        self._round = round
        self._bid = bid
        self._bidder = bidder
        self._over = over
        self._opening = opening
        self._visible = visible
        self._rolling = rolling
        self._known = known
        self._penalties = penalties
        self._target = target
        self._poker_dice = poker_dice
        self._poker_rolls = poker_rolls
        self._board: Board | None = None
        self._seat_log: tuple[list[Event], int] | None = None
        self._log: tuple[Event, ...] | None = None
        self._legal: tuple[Action, ...] | None = None
        self._knowledge: CupKnowledge | None = None

    @property
    def board(self) -> Board:
        """The public record every seat shares, as it was when this view was made."""
        board = self._board
        if board is None:
            board = self._board = Board(
                self._round, self._bid, self._bidder, self._over, self._opening,
                self._visible, self._rolling, self._known, self._penalties,
                self._target, self._poker_dice, self._poker_rolls,
            )  # fmt: skip
        return board

    @property
    def _observed(self) -> tuple[list[Event], int]:
        """The seat's log (a list that only grows) and its length when the view was made."""
        observed = self._seat_log
        if observed is None:
            observed = self._seat_log = self._observe()
        return observed

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event this seat observed, in order: public ones and its own private ones."""
        log = self._log
        if log is None:
            seen, length = self._observed
            log = self._log = tuple(seen[:length])
        return log

    @property
    def _game(self) -> Game:  # type: ignore[override]
        # The state's game: one attribute less to fill in per view.
        return self._source.game

    @property
    def phase(self) -> str:
        """The phase name: `decide`, `roll`, `bid`, `poker-keep`, … (see `PHASES`)."""
        return PHASES[self._phase]

    @property
    def bid(self) -> Roll | None:
        """The bid to beat (None before the first)."""
        return _ROLL_OR_NONE[self._bid + 1]

    @property
    def bidder(self) -> int:
        """Who made the bid to beat (-1 before the first)."""
        return self._bidder

    @property
    def over(self) -> Roll | None:
        """The bid that the current bid beat (None for an opening bid)."""
        return _ROLL_OR_NONE[self._over + 1]

    @property
    def visible(self) -> Dice:
        """The dice outside the cup, high to low."""
        return self._visible

    @property
    def penalties(self) -> tuple[int, ...]:
        """Every seat's penalties."""
        return self._penalties

    @property
    def poker_dice(self) -> Dice:
        """The open dice of the poker phase."""
        return self._poker_dice

    @property
    def poker_target(self) -> Roll | None:
        """The poker chased in the poker phase, else None."""
        return _ROLL_OR_NONE[self._target + 1]

    @property
    def untouched(self) -> Dice:
        """While this seat holds the cup: its dice not rolled yet this turn."""
        note = self._note
        return () if note is None else note[0]

    @property
    def fresh(self) -> Dice:
        """While this seat holds the cup: the faces it rolled this turn."""
        note = self._note
        return () if note is None else note[1]

    @property
    def cup(self) -> Roll | None:
        """What this seat saw under the cup, while that is still what it holds; else None."""
        note = self._note
        return None if note is None else ROLLS[RANK_OF[SORTED[note[0] + note[1]]]]

    def private_items(self) -> frozenset[Hashable]:
        """The roll this seat saw under the cup, while the cup still holds it."""
        cup = self.cup
        return frozenset() if cup is None else frozenset([cup])

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions (empty when it is not its turn)."""
        legal = self._legal
        if legal is None:
            if self._current_player != self._seat:
                legal = ()
            else:
                legal = legal_choices(
                    self._phase, self._bid, self.untouched, self.fresh, self._poker_dice
                )
            self._legal = legal
        return legal

    @property
    def knowledge(self) -> CupKnowledge:
        """What this seat knows and believes about the cup (see `knowledge.CupKnowledge`)."""
        knowledge = self._knowledge
        if knowledge is None:
            from epigames.games.blufpoker.knowledge import CupKnowledge

            knowledge = self._knowledge = CupKnowledge.from_view(self)
        return knowledge

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
