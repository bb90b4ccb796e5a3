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
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

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
    PARTS,
    RANK_OF,
    RANKS,
    ROLLS,
    SORTED,
    Dice,
    Roll,
    minus,
    multisets,
    sort_dice,
)
from epigames.games.blufpoker.events import (
    EVENTS,
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
    check_seat,
    illegal_action,
    register_game,
)
from epigames.games.events import Event
from epigames.games.observation import Axis, Part
from epigames.games.outcomes import WeightedOutcomes
from epigames.games.params import Param
from epigames.games.picture import HasPictures, KripkePicture

if TYPE_CHECKING:
    from epigames.games.ask import Asking

#: Display names of the seats (short, distinct, no digits: `--seat Bob`).
SEAT_NAMES = ("Ann", "Bob", "Cas", "Dee", "Eli", "Fay")


@register_game
@dataclass(frozen=True)
class BlufpokerGame(Game):
    """Blufpoker: bluff about three dice under a cup; the first to collect the penalties loses."""

    name: ClassVar[str] = "blufpoker"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENTS
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
    def asking(self) -> Asking:
        """Formulas about the roll under the cup (`asking`: atoms ``cup_653``, ``atleast_653``)."""
        from epigames.games.blufpoker.asking import DICE  # it imports these rules

        return DICE

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


class _Events:
    """Every event a game's rules publish, made once per game and shared by its states.

    Events are immutable values, so one instance serves every state of the game; the
    frequent ones are looked up by small ints or dice tuples, never built on the hot path.
    """

    def __init__(self, game: BlufpokerGame) -> None:
        self.names = names = game.seat_names
        seats = range(game.players)
        #: The seat numbers: a view's seat check is one set lookup.
        self.seats = frozenset(seats)
        #: `rolled[seat][count]`: the holder rolls `count` dice under the cup.
        self.rolled = tuple(
            tuple(DiceRolled(s, c, names=names) for c in range(DICE + 1)) for s in seats
        )
        #: Per seat, untouched → fresh → its look under the cup (two short keys: see
        #: `dice.PARTS`); every multiset of dice has its table from the start.
        self.seen: tuple[dict[Dice, dict[Dice, CupSeen]], ...] = tuple(
            {dice: {} for dice in PARTS} for _ in seats
        )
        #: Per seat, the dice left outside → the stop.
        self.stopped: tuple[dict[Dice, Stopped], ...] = tuple({} for _ in seats)
        #: Per seat, `rank * RANKS + over` → the bid.
        self.bids: tuple[dict[int, BidMade], ...] = tuple({} for _ in seats)
        #: Per seat, `bidder * RANKS + rank` → the belief.
        self.believed: tuple[dict[int, Believed], ...] = tuple({} for _ in seats)
        #: (seat, round, rank) → the round's opening.
        self.openings: dict[tuple[int, int, int], Opened] = {}
        #: Per (caller, bidder, bid, roll, loser, penalties) as one int → the lifted cup.
        self.calls: dict[int, Called] = {}
        self.limit = game.penalties
        #: Rarer events (open poker rolls, the end), by their fields.
        self.other: dict[tuple[Any, ...], Event] = {}

    def cup_seen(self, seat: int, untouched: Dice, fresh: Dice) -> CupSeen:
        table = self.seen[seat][untouched]
        event = table.get(fresh)
        if event is None:
            event = table[fresh] = CupSeen(seat, untouched, fresh, names=self.names)
        return event

    def stopped_with(self, seat: int, visible: Dice) -> Stopped:
        table = self.stopped[seat]
        event = table.get(visible)
        if event is None:
            event = table[visible] = Stopped(seat, visible, names=self.names)
        return event

    def bid(self, seat: int, rank: int, over: int) -> BidMade:
        table, key = self.bids[seat], rank * RANKS + over
        event = table.get(key)
        if event is None:
            event = table[key] = BidMade(seat, ROLLS[rank], ROLLS[over], names=self.names)
        return event

    def belief(self, seat: int, bidder: int, rank: int) -> Believed:
        table, key = self.believed[seat], bidder * RANKS + rank
        event = table.get(key)
        if event is None:
            event = table[key] = Believed(seat, bidder, ROLLS[rank], names=self.names)
        return event

    def called(
        self, caller: int, bidder: int, rank: int, roll: Roll, loser: int, count: int
    ) -> Called:
        key = ((((caller * 8 + bidder) * RANKS + rank) * RANKS + roll.rank) * 8 + loser) * 32
        key += count
        event = self.calls.get(key)
        if event is None:
            bid = ROLLS[rank]
            event = Called(caller, bidder, bid, roll, loser, count, self.limit, names=self.names)
            self.calls[key] = event
        return event

    def opened(self, seat: int, round: int, rank: int) -> Opened:
        key = (seat, round, rank)
        event = self.openings.get(key)
        if event is None:
            event = self.openings[key] = Opened(seat, round, ROLLS[rank], names=self.names)
        return event

    def made(self, cls: type[Event], *fields: Any) -> Event:
        key = (cls, *fields)
        event = self.other.get(key)
        if event is None:
            event = self.other[key] = cls(*fields, names=self.names)
        return event


@functools.cache
def _events_of(game: BlufpokerGame) -> _Events:
    return _Events(game)


class BlufpokerState(EventLog, State, HasPictures):
    """A Blufpoker position. Rolls are ranks and dice are tuples inside; values at the edges.

    The state keeps each truth once, as ints and dice tuples: the cup (`_untouched`,
    `_fresh`), the public record (the bid, the dice outside, what is public about the
    cup, the poker phase, the penalties) and who has looked at the cup since it last
    changed. A seat's view reads them at `observation`; no seat keeps records of its own.
    """

    #: The seat to move, `CHANCE` while dice roll, `TERMINAL` at the end: a plain
    #: attribute, since the play loop reads it around every action.
    current_player: int = CHANCE

    def __init__(self, game: BlufpokerGame) -> None:
        n = game.players
        self.game: BlufpokerGame = game
        self._made = _events_of(game)
        self._phase = OPEN
        self.current_player = CHANCE
        self._holder = 0  # the seat that has (or last had) the cup; seat 0 opens
        self._untouched: Dice = ()
        self._fresh: Dice = ()
        self._pending: Dice = ()  # the dice being rolled at a THROW node
        # The public record: the bid to beat, its bidder, the bid it beat, whether it opened
        # the round; the dice outside; whether the holder rolls; the cup's roll when public.
        self._round = 0
        self._bid = -1
        self._bidder = -1
        self._over = -1
        self._opening = False
        self._visible: Dice = ()
        self._rolling = False
        self._known: Roll | None = None
        self._public_penalties = (0,) * n
        # The poker phase: the rank chased (-1 outside it), the dice kept for the next open
        # roll, the open dice and the open rolls made. One field: a state with fewer than
        # 30 attributes keeps them in CPython's fast inline layout (3.11: ~13% fewer
        # instructions per attribute access).
        self._poker: tuple[int, Dice, Dice, int] = _NO_POKER
        # Who saw the cup as it is: the holder, if it looked (`_looked`; its look is the
        # cup itself), and the previous holder until the new one rolls (`_before`, with
        # its last look). Nobody else can have seen this cup.
        self._looked = False
        self._before = -1
        self._before_look: tuple[Dice, Dice] = ((), ())
        self._loser = -1
        # The public record above as a `Board`, made when a view first needs it after the
        # record changed (a rule that changes it sets this to None): views share it.
        self._board: Board | None = None
        self._start_log(n)

    # --- the State interface -------------------------------------------------------

    @property
    def phase(self) -> str:
        """The phase name (see `PHASES`)."""
        return PHASES[self._phase]

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the player to move (empty at chance and terminal nodes)."""
        if self.current_player < 0:
            return ()
        return legal_choices(self._phase, self._bid, self._untouched, self._fresh, self._poker[2])

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """While dice roll: every multiset of faces of the rolled dice, with its chance."""
        phase = self._phase
        if phase == OPEN:
            return _THROWS[DICE]
        if phase == THROW:
            return _THROWS[len(self._pending)]
        if phase == POKER_THROW:
            return _THROWS[DICE - len(self._poker[1])]
        return ()

    def apply(self, action: Hashable) -> None:
        """Play an action or a chance outcome.

        Raises:
            IllegalActionError: not legal here (including another phase's action, a chance
                outcome at a player's turn, or a player action at a chance node); the state
                is unchanged.
        """
        if not _RULES[self._phase].get(type(action), _illegal)(self, action):
            raise illegal_action(self, action)

    def returns(self) -> tuple[float, ...]:
        """-1 for the loser and 0 for the others once over; 0 for everyone before."""
        return _RETURNS[len(self._public_penalties)][self._loser]

    def winners(self) -> tuple[int, ...]:
        """Every seat but the loser once over (the highest returns); none before."""
        loser = self._loser
        return () if loser < 0 else _WINNERS[len(self._public_penalties)][loser]

    def clone(self) -> BlufpokerState:
        """An independent copy; events, dice and actions are shared immutable values."""
        other = BlufpokerState.__new__(BlufpokerState)
        other.__dict__.update(self.__dict__)
        self._clone_log(other)
        return other

    def observation(self, seat: int) -> BlufpokerView:
        """The seat's view: the public record and the seat's own look under the cup.

        Raises:
            SeatError: no such seat.
        """
        if type(seat) is not int or seat not in self._made.seats:
            check_seat(self.game, seat)
        # What the seat saw under the cup, while the cup still holds it.
        if seat == self._holder and self._looked:
            look: tuple[Dice, Dice] | None = (self._untouched, self._fresh)
        elif seat == self._before:
            look = self._before_look
        else:
            look = None
        board = self._board
        if board is None:
            board = self._board = _new_board(
                Board,
                (
                    self._round, self._bid, self._bidder, self._over, self._opening,
                    self._visible, self._rolling, self._known, self._public_penalties,
                    self._poker[0], self._poker[2], self._poker[3],
                ),
            )  # fmt: skip
        # Filled in here, not by `__init__` or a helper: one view is made per decision, and
        # CPython 3.11 runs a Python `__init__` through a slow generic path (a third of a
        # view's cost), while these stores are specialised. The class call runs object's
        # `__init__` (see `BlufpokerView`): cheaper than `object.__new__(BlufpokerView)`.
        view: BlufpokerView = BlufpokerView()
        view._seat, view._current_player, view._phase = seat, self.current_player, self._phase
        view._source, view._stop, view.board, view._note = self, len(self._events), board, look
        return view

    @property
    def penalties(self) -> tuple[int, ...]:
        """Every seat's penalties (public)."""
        return self._public_penalties

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
        if self._rolling:
            untouched = sort_dice(rng.randint(1, 6) for _ in self._untouched)
            kept = list(untouched)
            rng.shuffle(kept)
            other._pending = sort_dice(kept[: len(self._pending)])
            other._untouched = untouched
            other._fresh = sort_dice(rng.randint(1, 6) for _ in self._fresh)
            return other
        visible = self._visible
        hidden = minus(knowledge.sample_world(rng).dice, visible)
        truth = self.cup
        other._untouched, other._fresh = _redrawn(
            self._untouched, self._fresh, visible, hidden, truth
        )
        if self._before >= 0:
            other._before_look = _redrawn(*self._before_look, visible, hidden, truth)
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

    # --- the rules (each a function of `_RULES` below) -----------------------------------

    def _log(self, event: Event, audience: int) -> None:
        self._events.append(event)
        self._audience.append(audience)

    def _penalise(self, loser: int) -> int:
        """Give `loser` a penalty; returns its count."""
        penalties = list(self._public_penalties)
        penalties[loser] += 1
        self._public_penalties = tuple(penalties)
        self._board = None
        return penalties[loser]

    def _end_round(self, starter: int) -> None:
        penalties = self._public_penalties
        worst = max(penalties)
        if worst >= self.game.penalties:
            self._loser = penalties.index(worst)
            self._phase, self.current_player = OVER, TERMINAL
            self._log(self._made.made(GameOver, self._loser, penalties), -1)
            return
        if starter != self._holder:
            # The cup goes to the starter, who has not seen it; the last holder still has.
            if self._looked:
                self._before, self._before_look = self._holder, (self._untouched, self._fresh)
            self._holder, self._looked = starter, False
        self._phase, self.current_player = OPEN, CHANCE


# Rules: per phase, per action type, a function that plays the action if it is legal and
# returns whether it was (the state is unchanged if not). One dict lookup per action.
_Rule = Callable[[BlufpokerState, Any], bool]
_new_board = tuple.__new__
_NO_POKER: tuple[int, Dice, Dice, int] = (-1, (), (), 0)
_THROWS = {count: WeightedOutcomes(throws(count)) for count in range(1, DICE + 1)}


def _open(s: BlufpokerState, action: Throw) -> bool:
    dice = action.dice
    if len(dice) != DICE:
        return False
    s._history.append(action)
    seat = s._holder
    s._round += 1
    s._untouched, s._fresh = (), dice
    rank = RANK_OF[dice]
    s._bid, s._bidder, s._over, s._opening = rank, seat, -1, True
    s._visible, s._rolling, s._known = (), False, ROLLS[rank]
    s._poker = _NO_POKER
    s._looked, s._before = True, -1
    s._board = None
    made = s._made
    s._events += (made.cup_seen(seat, (), dice), made.opened(seat, s._round, rank))
    s._audience += (1 << seat, -1)
    s._phase = DECIDE
    s.current_player = (seat + 1) % len(s._public_penalties)
    return True


def _call(s: BlufpokerState, action: Call) -> bool:
    s._history.append(action)
    caller, bidder = s.current_player, s._bidder
    roll = ROLLS[RANK_OF[SORTED[s._untouched + s._fresh]]]
    loser = bidder if roll.rank < s._bid else caller
    count = s._penalise(loser)
    s._known = roll
    s._board = None
    s._events.append(s._made.called(caller, bidder, s._bid, roll, loser, count))
    s._audience.append(-1)
    s._end_round(loser)
    return True


def _believe(s: BlufpokerState, action: Believe) -> bool:
    s._history.append(action)
    seat, holder, bid = s.current_player, s._holder, s._bid
    made = s._made
    event = made.believed[seat].get(s._bidder * RANKS + bid) or made.belief(seat, s._bidder, bid)
    # The old holder still knows the cup until the new one rolls.
    if s._looked:
        s._before, s._before_look = holder, (s._untouched, s._fresh)
    else:
        s._before = -1
    s._holder = seat
    if bid >= FIRST_POKER:
        s._events.append(event)
        s._audience.append(-1)
        s._looked = False
        s._poker = (bid, (), (), 0)
        s._board = None
        s._phase, s.current_player = POKER_THROW, CHANCE
        return True
    s._looked = True
    cup = s._untouched = SORTED[s._untouched + s._fresh]
    s._fresh = ()
    s._events += (event, made.seen[seat][cup].get(()) or made.cup_seen(seat, cup, ()))
    s._audience += (-1, 1 << seat)
    s._phase = ROLL
    return True


def _roll(s: BlufpokerState, action: RollDice) -> bool:
    dice = action.dice
    if dice not in PARTS[s._untouched]:  # not dice the holder may roll
        return False
    s._history.append(action)
    s._pending = dice
    s._events.append(s._made.rolled[s._holder][len(dice)])
    s._audience.append(-1)
    if not s._rolling:  # the turn's first roll: the dice outside go back in, nothing is public
        s._opening, s._visible, s._rolling, s._known = False, (), True, None
        s._board = None
        s._before = -1  # the others' looks are out of date once the holder rolls
    s._phase, s.current_player = THROW, CHANCE
    return True


def _land(s: BlufpokerState, action: Throw) -> bool:
    faces = action.dice
    pending = s._pending
    if len(faces) != len(pending):
        return False
    s._history.append(action)
    seat = s._holder
    untouched = s._untouched = PARTS[s._untouched][pending]
    fresh = s._fresh = SORTED[s._fresh + faces]
    s._pending = ()
    made = s._made
    s._events.append(made.seen[seat][untouched].get(fresh) or made.cup_seen(seat, untouched, fresh))
    s._audience.append(1 << seat)
    s.current_player = seat
    if untouched:
        s._phase = ROLL
    else:
        _stopped(s)  # nothing left to roll: the turn moves on to the bid
    return True


def _stop(s: BlufpokerState, action: Stop) -> bool:
    if not s._fresh:
        return False
    s._history.append(action)
    _stopped(s)
    return True


def _stopped(s: BlufpokerState) -> None:
    visible = s._untouched
    made = s._made
    s._events.append(made.stopped[s._holder].get(visible) or made.stopped_with(s._holder, visible))
    s._audience.append(-1)
    # The first roll made the rest of the record plain: not an opening, nothing known.
    s._visible, s._rolling = visible, False
    s._board = None
    s._phase = BID


def _make_bid(s: BlufpokerState, action: Bid) -> bool:
    rank, over = action.roll.rank, s._bid
    if rank <= over:
        return False
    s._history.append(action)
    seat = s._holder
    made = s._made
    s._events.append(made.bids[seat].get(rank * RANKS + over) or made.bid(seat, rank, over))
    s._audience.append(-1)
    # A bid follows a stop, which left the rest of the record as a bid needs it.
    s._bid, s._bidder, s._over = rank, seat, over
    s._board = None
    s._phase = DECIDE
    s.current_player = (seat + 1) % len(s._public_penalties)
    return True


def _keep(s: BlufpokerState, action: Keep) -> bool:
    dice = action.dice
    target, _, open_dice, number = s._poker
    if dice not in PARTS[open_dice]:
        return False
    s._history.append(action)
    s._poker = (target, dice, open_dice, number)
    s._phase, s.current_player = POKER_THROW, CHANCE
    return True


def _poker_throw(s: BlufpokerState, action: Throw) -> bool:
    target_rank, kept, _, number = s._poker
    faces = action.dice
    if len(faces) != DICE - len(kept):
        return False
    s._history.append(action)
    seat = s._holder
    dice = SORTED[kept + faces]
    number += 1
    s._poker = (target_rank, kept, dice, number)
    s._events.append(s._made.made(PokerThrow, seat, kept, dice, number))
    s._audience.append(-1)
    s._opening, s._visible, s._rolling, s._known = False, (), False, ROLLS[RANK_OF[dice]]
    s._board = None
    target = ROLLS[s._bid].high
    poker = dice[0] == dice[2]
    if not ((poker and dice[0] >= target) or number == POKER_ROLLS):
        s._phase, s.current_player = POKER_KEEP, seat
        return True
    if poker and dice[0] > target:
        loser = s._bidder
    elif poker and dice[0] == target:
        loser = -1
    else:
        loser = seat
    count = s._penalise(loser) if loser >= 0 else 0
    event = s._made.made(
        PokerDone, seat, s._bidder, ROLLS[s._bid], dice, loser, count, s._made.limit
    )
    s._untouched, s._fresh = (), dice
    s._events.append(event)
    s._audience.append(-1)
    s._end_round(seat if loser < 0 else loser)
    return True


#: Per number of seats, the returns with each seat the loser, and last (the index of
#: "no loser yet", -1) everyone's 0; and the winners with each seat the loser.
_RETURNS = {
    n: (*(tuple(-1.0 if s == loser else 0.0 for s in range(n)) for loser in range(n)), (0.0,) * n)
    for n in range(1, len(SEAT_NAMES) + 1)
}
_WINNERS = {
    n: tuple(tuple(s for s in range(n) if s != loser) for loser in range(n))
    for n in range(1, len(SEAT_NAMES) + 1)
}


def _redrawn(
    untouched: Dice, fresh: Dice, visible: Dice, hidden: Dice, truth: Roll | None
) -> tuple[Dice, Dice]:
    """A look at the cup of `truth`, redrawn with `hidden` dice under the `visible` ones.

    A look either saw the whole cup untouched (a believer before rolling) or the visible
    dice untouched and the hidden ones freshly rolled (the bidder).
    """
    assert ROLLS[RANK_OF[SORTED[untouched + fresh]]] == truth
    if not fresh:
        return SORTED[visible + hidden], ()
    assert untouched == visible
    return visible, hidden


def _illegal(s: BlufpokerState, action: object) -> bool:
    return False


_BY_PHASE: dict[int, dict[type, _Rule]] = {
    OPEN: {Throw: _open},
    DECIDE: {Believe: _believe, Call: _call},
    ROLL: {RollDice: _roll, Stop: _stop},
    THROW: {Throw: _land},
    BID: {Bid: _make_bid},
    POKER_THROW: {Throw: _poker_throw},
    POKER_KEEP: {Keep: _keep},
}
_RULES: tuple[dict[type, _Rule], ...] = tuple(_BY_PHASE.get(p, {}) for p in range(len(PHASES)))


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
