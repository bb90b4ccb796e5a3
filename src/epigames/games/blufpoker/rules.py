"""The Blufpoker rules: game parameters and states (seat views are in `views.py`).

A round starts with its first player rolling all three dice under the cup and bidding
what it rolled (the rules make an opening bid true). The next player either calls (the cup
is lifted: a roll lower than the bid penalises the bidder, otherwise the caller) or
believes: it takes the cup, looks, rolls dice under it (at least one; each die at most
once a turn; it may stop after any roll), then bids strictly higher, truthfully or not.
The dice it did not roll go outside the cup for all to see. A believed poker bid starts
the poker phase instead: up to three open rolls, keeping dice between them, until a poker
at least as high appears: higher penalises the bidder, equal nobody, none the believer.
The penalised player starts the next round (after an equalled poker, the believer does);
the first to reach `penalties` penalties loses and every other seat wins.

Every round ends: bids strictly rise through 56 ranks, a turn rolls at most three dice,
and the poker phase at most three times. Only an equalled poker ends a round without a
penalty, so a game ends with probability 1.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from epigames.games.blufpoker import observation
from epigames.games.blufpoker.actions import (
    BELIEVE,
    BID,
    BIDS,
    CALL,
    DECIDE,
    OPEN,
    OVER,
    PHASES,
    POKER_KEEP,
    POKER_THROW,
    ROLL,
    STOP,
    THROW,
    Action,
    Believe,
    Bid,
    Call,
    Keep,
    RollDice,
    Stop,
    Throw,
    legal_choices,
    parse_action,
    throws,
)
from epigames.games.blufpoker.dice import (
    DICE,
    FIRST_POKER,
    RANK_OF,
    ROLLS,
    SORTED,
    Dice,
    Roll,
    contains,
    minus,
    multisets,
    sort_dice,
)
from epigames.games.blufpoker.events import (
    Believed,
    BidMade,
    Called,
    CupSeen,
    DiceRolled,
    GameOver,
    Opened,
    PokerDone,
    PokerThrow,
    Stopped,
)
from epigames.games.blufpoker.records import Board
from epigames.games.blufpoker.tables import POKER_ROLLS
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.core import (
    CHANCE,
    TERMINAL,
    EventLog,
    Game,
    State,
    illegal_action,
    register_game,
)
from epigames.games.events import Event
from epigames.games.observation import Axis, Part
from epigames.games.params import Param
from epigames.games.picture import HasPictures, KripkePicture

#: Display names of the seats (short, distinct, no digits: `--seat Bob`).
SEAT_NAMES = ("Ann", "Bob", "Cas", "Dee", "Eli", "Fay")


@register_game
@dataclass(frozen=True)
class BlufpokerGame(Game):
    """Blufpoker: bluff about three dice under a cup; the first to collect the penalties loses."""

    name: ClassVar[str] = "blufpoker"
    # Two penalties: a first game of 20 to 110 moves.
    showcase: ClassVar[str] = "blufpoker(players=3,penalties=2)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("bayes",)
    params: ClassVar[tuple[Param, ...]] = (
        Param("players", int, 3, min=2, max=len(SEAT_NAMES), help="number of seats"),
        Param("penalties", int, 5, min=1, max=26, help="penalties that lose the game"),
    )
    players: int = 3
    penalties: int = 5

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Ann, Bob, Cas, … in seat order (play passes to the next seat)."""
        return SEAT_NAMES[: self.players]

    @property
    def returns_range(self) -> tuple[float, float]:
        """-1 for the loser, 0 for every winner (and for everyone before the end)."""
        return (-1.0, 0.0)

    @property
    def max_game_length(self) -> int:
        """No rule bounds a game; this bound is exceeded with probability below 1e-12.

        A round takes at most `DICE + 2` decisions (believe, roll each die, bid) for each
        of the `FIRST_POKER` bids it can rise through below a poker, then a call, or a
        belief and the keeps of the poker phase. At most `players * (penalties - 1) + 1`
        rounds give a penalty. A round ending in an equalled poker gives none, and such
        rounds may follow each other without end, but each happens with probability at
        most q = (1 - (5/6) ** POKER_ROLLS) ** DICE (each die shows the bid's face within
        the throws, whatever is kept). With p penalised rounds at most, more than e
        equalled ones means e + 1 among the first p + e rounds: probability at most
        C(p + e, e + 1) q ** (e + 1), whatever the players do. The bound allows the
        smallest e that makes that below 1e-12.
        """
        per_round = FIRST_POKER * (DICE + 2) + POKER_ROLLS
        penalised = self.players * (self.penalties - 1) + 1
        q = (1 - (5 / 6) ** POKER_ROLLS) ** DICE
        equalled, tail = 0, penalised * q
        while tail >= 1e-12:
            equalled += 1
            # C(p + e, e + 1) q^(e + 1) from its value for e - 1.
            tail *= (penalised + equalled) / (equalled + 1) * q
        return per_round * (penalised + equalled)

    @property
    def private_axis(self) -> Axis:
        """The 56 rolls, lowest first: a seat's private item is the roll it saw under the cup."""
        return observation.ROLL_AXIS

    @property
    def knowledge_axes(self) -> tuple[Axis, Axis]:
        """One subject, the cup, and its 56 rolls (lowest first)."""
        return observation.CUP_AXIS, observation.ROLL_AXIS

    def public_parts(self) -> tuple[Part, ...]:
        """The phase, the bids, the dice outside and open, the penalties (`observation`)."""
        return observation.public_parts(self)

    def new_initial_state(self) -> BlufpokerState:
        """The state before the first roll (a chance node)."""
        return BlufpokerState(self)

    def distinct_actions(self) -> list[Action]:
        """Call, believe, stop, rolling each multiset of dice, each bid, and keeping each
        multiset of fewer than three dice (poker phase)."""
        rolls = [RollDice(dice) for size in range(1, DICE + 1) for dice in multisets(size)]
        keeps = [Keep(dice) for size in range(DICE) for dice in multisets(size)]
        return [CALL, BELIEVE, STOP, *rolls, *BIDS, *keeps]

    def distinct_chance_outcomes(self) -> list[Throw]:
        """The faces of each multiset of rolled dice."""
        return [Throw(dice) for size in range(1, DICE + 1) for dice in multisets(size)]

    def parse_action(self, text: str) -> Action | Throw:
        """Read an action (`call`, `bid 654`, …) or a chance outcome (`throw 6 4`)."""
        return parse_action(text)


@functools.cache
def _event_cache(game: BlufpokerGame) -> dict[tuple[Any, ...], Event]:
    """Events are immutable values: one shared instance per distinct event and game."""
    return {}


class BlufpokerState(EventLog, State, HasPictures):
    """A Blufpoker position. Rolls are ranks and dice are tuples inside; values at the edges."""

    def __init__(self, game: BlufpokerGame) -> None:
        n = game.players
        self.game: BlufpokerGame = game
        self._names = game.seat_names
        self._phase = OPEN
        self._player = CHANCE
        self._holder = 0  # the seat that has (or last had) the cup; seat 0 opens
        self._untouched: Dice = ()
        self._fresh: Dice = ()
        self._pending: Dice = ()  # the dice being rolled at a THROW node
        self._bid = -1
        self._bidder = -1
        self._poker_kept: Dice = ()
        self._poker_dice: Dice = ()
        self._poker_rolls = 0
        self._penalties = [0] * n
        self._loser = -1
        self._round = 0
        self._board = Board.start(n)
        self._notes: list[tuple[Dice, Dice] | None] = [None] * n
        self._start_log(n)
        self._cache = _event_cache(game)

    # --- the State interface -------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, `CHANCE` while dice roll, `TERMINAL` at the end."""
        return self._player

    @property
    def phase(self) -> str:
        """The phase name (see `PHASES`)."""
        return PHASES[self._phase]

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the player to move (empty at chance and terminal nodes)."""
        if self._player < 0:
            return ()
        return legal_choices(self._phase, self._bid, self._untouched, self._fresh, self._poker_dice)

    def chance_outcomes(self) -> tuple[tuple[Throw, float], ...]:
        """While dice roll: every multiset of faces of the rolled dice, with its chance."""
        phase = self._phase
        if phase == OPEN:
            return throws(DICE)
        if phase == THROW:
            return throws(len(self._pending))
        if phase == POKER_THROW:
            return throws(DICE - len(self._poker_kept))
        return ()

    def apply(self, action: Hashable) -> None:
        """Play an action or a chance outcome.

        Raises:
            IllegalActionError: not legal here (including another phase's action, a chance
                outcome at a player's turn, or a player action at a chance node); the state
                is unchanged.
        """
        rule = _RULES.get((type(action), self._phase))
        if rule is None or not rule[0](self, action):
            raise illegal_action(self, action)
        self._history.append(action)
        rule[1](self, action)

    def _keep(self, dice: Dice) -> None:
        self._poker_kept = dice
        self._phase, self._player = POKER_THROW, CHANCE

    def returns(self) -> tuple[float, ...]:
        """-1 for the loser and 0 for the others once over; 0 for everyone before."""
        loser = self._loser
        return tuple(-1.0 if s == loser else 0.0 for s in range(len(self._penalties)))

    def clone(self) -> BlufpokerState:
        """An independent copy; events, dice and actions are shared immutable values."""
        other = BlufpokerState.__new__(BlufpokerState)
        other.__dict__.update(self.__dict__)
        other._penalties = list(self._penalties)
        other._notes = list(self._notes)
        self._clone_log(other)
        return other

    def observation(self, seat: int) -> BlufpokerView:
        """The seat's view, built from the board and its own cup note.

        Raises:
            SeatError: no such seat.
        """
        log = self._seat_log(seat)
        return BlufpokerView(
            self.game, seat, self._player, self._phase, log, self._board, self._notes[seat]
        )

    @property
    def penalties(self) -> tuple[int, ...]:
        """Every seat's penalties (public)."""
        return tuple(self._penalties)

    @property
    def cup(self) -> Roll | None:
        """The true roll under the cup, None before the first roll: for referees and tests."""
        dice = self._untouched + self._fresh
        return ROLLS[RANK_OF[SORTED[dice]]] if len(dice) == DICE else None

    @property
    def holder(self) -> int:
        """The seat that has, or last had, the cup."""
        return self._holder

    def resample(self, seat: int, rng: random.Random) -> BlufpokerState:
        """The same game with other dice under the cup, as far as `seat` can tell.

        Only the cup's current content is redrawn (earlier cups are history). When the
        holder has stopped rolling, the roll is drawn from the seat's exact belief (the
        hidden dice given the visible ones) and every look of the seats that know the cup
        is changed to match; while the holder is still rolling, its unseen dice are drawn
        uniformly (the seat then considers every roll possible).
        """
        other = self.clone()
        knowledge = self.observation(seat).knowledge
        if knowledge.known is not None or self.cup is None:
            return other  # nothing about the cup is hidden from this seat
        if self._board.rolling:
            untouched = sort_dice(rng.randint(1, 6) for _ in self._untouched)
            kept = list(untouched)
            rng.shuffle(kept)
            other._pending = sort_dice(kept[: len(self._pending)])
            other._untouched = untouched
            other._fresh = sort_dice(rng.randint(1, 6) for _ in self._fresh)
            holder = self._holder
            if other._notes[holder] is not None:
                other._notes[holder] = (other._untouched, other._fresh)
            return other
        visible = self._board.visible
        hidden = minus(knowledge.sample_world(rng).dice, visible)
        truth = self.cup

        def redrawn(untouched: Dice, fresh: Dice) -> tuple[Dice, Dice]:
            # A look either saw the whole cup untouched (a believer before rolling) or the
            # visible dice untouched and the hidden ones freshly rolled (the bidder).
            assert ROLLS[RANK_OF[SORTED[untouched + fresh]]] == truth
            if not fresh:
                return SORTED[visible + hidden], ()
            assert untouched == visible
            return visible, hidden

        other._untouched, other._fresh = redrawn(self._untouched, self._fresh)
        other._notes = [None if n is None else redrawn(*n) for n in self._notes]
        return other

    # --- pictures --------------------------------------------------------------------

    def picture_subjects(self) -> list[str]:
        """`["cup"]` once the first roll is made, else none."""
        return ["cup"] if self._round else []

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        """The cup's Kripke model from a seat's view, or a spectator's (true world marked).

        Raises:
            InputError: the subject is not `cup` (or there is no cup yet).
        """
        from epigames.games.blufpoker.knowledge import cup_picture

        return cup_picture(self, subject, seat)

    # --- the rules ---------------------------------------------------------------------

    def _event(self, cls: type[Event], *fields: Any) -> Event:
        key = (cls, *fields)
        event = self._cache.get(key)
        if event is None:
            event = self._cache[key] = cls(*fields, names=self._names)
        return event

    def _publish(self, event: Event) -> None:
        """Log an event, hand it to the seats that observe it, update their records."""
        self._deliver(event)
        if type(event) is CupSeen:
            self._notes[event.seat] = (event.untouched, event.fresh)
        elif event.public:
            self._board = self._board.absorb(event)
            if type(event) is DiceRolled:
                # The others' looks under the cup are out of date once the holder rolls.
                holder = self._holder
                self._notes = [note if s == holder else None for s, note in enumerate(self._notes)]
        else:  # pragma: no cover - every private event of this game is a CupSeen
            raise AssertionError(f"unexpected private event {event!r}")

    def _open(self, dice: Dice) -> None:
        seat = self._holder
        self._round += 1
        self._untouched, self._fresh = (), dice
        self._bid, self._bidder = RANK_OF[dice], seat
        self._notes = [None] * len(self._notes)
        self._publish(self._event(CupSeen, seat, (), dice))
        self._publish(self._event(Opened, seat, self._round, ROLLS[self._bid]))
        self._pass_to_next(seat)

    def _pass_to_next(self, seat: int) -> None:
        self._phase = DECIDE
        self._player = (seat + 1) % len(self._penalties)

    def _call(self) -> None:
        caller, bidder = self._player, self._bidder
        roll = ROLLS[RANK_OF[SORTED[self._untouched + self._fresh]]]
        loser = bidder if roll.rank < self._bid else caller
        self._penalties[loser] += 1
        event = Called(
            caller, bidder, ROLLS[self._bid], roll, loser, self._penalties[loser],
            self.game.penalties, names=self._names,
        )  # fmt: skip
        self._publish(event)
        self._end_round(loser)

    def _believe(self) -> None:
        seat = self._player
        self._publish(self._event(Believed, seat, self._bidder, ROLLS[self._bid]))
        self._holder = seat
        if self._bid >= FIRST_POKER:
            self._poker_kept, self._poker_dice, self._poker_rolls = (), (), 0
            self._phase, self._player = POKER_THROW, CHANCE
            return
        self._untouched, self._fresh = SORTED[self._untouched + self._fresh], ()
        self._publish(self._event(CupSeen, seat, self._untouched, ()))
        self._phase = ROLL

    def _roll(self, dice: Dice) -> None:
        self._pending = dice
        self._publish(self._event(DiceRolled, self._holder, len(dice)))
        self._phase, self._player = THROW, CHANCE

    def _land(self, faces: Dice) -> None:
        seat = self._holder
        self._untouched = minus(self._untouched, self._pending)
        self._fresh = SORTED[self._fresh + faces]
        self._pending = ()
        self._publish(self._event(CupSeen, seat, self._untouched, self._fresh))
        self._player = seat
        if self._untouched:
            self._phase = ROLL
        else:
            self._stop()  # nothing left to roll: the turn moves on to the bid

    def _stop(self) -> None:
        self._publish(self._event(Stopped, self._holder, self._untouched))
        self._phase = BID

    def _make_bid(self, rank: int) -> None:
        seat = self._holder
        self._publish(self._event(BidMade, seat, ROLLS[rank], ROLLS[self._bid]))
        self._bid, self._bidder = rank, seat
        self._pass_to_next(seat)

    def _poker_throw(self, faces: Dice) -> None:
        seat = self._holder
        dice = SORTED[self._poker_kept + faces]
        self._poker_dice = dice
        self._poker_rolls += 1
        self._publish(self._event(PokerThrow, seat, self._poker_kept, dice, self._poker_rolls))
        target = ROLLS[self._bid].high
        poker = dice[0] == dice[2]
        if (poker and dice[0] >= target) or self._poker_rolls == POKER_ROLLS:
            if poker and dice[0] > target:
                loser = self._bidder
            elif poker and dice[0] == target:
                loser = -1
            else:
                loser = seat
            if loser >= 0:
                self._penalties[loser] += 1
            count = self._penalties[loser] if loser >= 0 else 0
            event = PokerDone(
                seat, self._bidder, ROLLS[self._bid], dice, loser, count, self.game.penalties,
                names=self._names,
            )  # fmt: skip
            self._untouched, self._fresh = (), dice
            self._publish(event)
            self._end_round(seat if loser < 0 else loser)
            return
        self._phase, self._player = POKER_KEEP, seat

    def _end_round(self, starter: int) -> None:
        if max(self._penalties) >= self.game.penalties:
            self._loser = self._penalties.index(max(self._penalties))
            self._phase, self._player = OVER, TERMINAL
            self._publish(GameOver(self._loser, tuple(self._penalties), names=self._names))
            return
        self._holder = starter
        self._bid, self._bidder = -1, -1
        self._phase, self._player = OPEN, CHANCE


__all__ = [
    "BID",
    "BIDS",
    "DECIDE",
    "OPEN",
    "PHASES",
    "POKER_KEEP",
    "POKER_THROW",
    "ROLL",
    "SEAT_NAMES",
    "THROW",
    "BlufpokerGame",
    "BlufpokerState",
]


# Per (action type, phase): when the action is legal (nothing changes if not), and what it
# does. A table, not a `match` over classes: it runs on every action and chance outcome.
_Rule = tuple[Callable[[BlufpokerState, Any], bool], Callable[[BlufpokerState, Any], None]]


def _always(state: BlufpokerState, action: Any) -> bool:
    return True


_RULES: dict[tuple[type, int], _Rule] = {
    (Believe, DECIDE): (_always, lambda s, a: s._believe()),
    (Call, DECIDE): (_always, lambda s, a: s._call()),
    (RollDice, ROLL): (
        lambda s, a: contains(s._untouched, a.dice),
        lambda s, a: s._roll(a.dice),
    ),
    (Stop, ROLL): (lambda s, a: bool(s._fresh), lambda s, a: s._stop()),
    (Bid, BID): (lambda s, a: a.roll.rank > s._bid, lambda s, a: s._make_bid(a.roll.rank)),
    (Keep, POKER_KEEP): (
        lambda s, a: contains(s._poker_dice, a.dice),
        lambda s, a: s._keep(a.dice),
    ),
    (Throw, OPEN): (lambda s, a: len(a.dice) == DICE, lambda s, a: s._open(a.dice)),
    (Throw, THROW): (
        lambda s, a: len(a.dice) == len(s._pending),
        lambda s, a: s._land(a.dice),
    ),
    (Throw, POKER_THROW): (
        lambda s, a: len(a.dice) == DICE - len(s._poker_kept),
        lambda s, a: s._poker_throw(a.dice),
    ),
}
