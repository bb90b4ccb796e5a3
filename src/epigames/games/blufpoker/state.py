"""A Blufpoker position and its rules (`BlufpokerState`; the game is in `rules.py`).

Its own module, apart from `BlufpokerGame`, so that mypyc compiles it with the hot modules
(`epigames.native.COMPILED`): the state is a native class whose fields are C slots, and
each rule is a native method, so a move reads and writes the record without dictionary
lookups. Its bases (`EventLog`, `State`, `HasPictures`) stay plain Python; their methods
reach its fields through the slots' descriptors. As plain Python it plays the same games.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final

from epigames.games.blufpoker.actions import (
    BID,
    DECIDE,
    OPEN,
    OVER,
    PHASES,
    POKER_KEEP,
    POKER_THROW,
    ROLL,
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
from epigames.games.blufpoker.tables import POKER_ROLLS
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.core import (
    CHANCE,
    TERMINAL,
    EventLog,
    State,
    by_fields,
    illegal_action,
    seat_error,
)
from epigames.games.events import Event
from epigames.games.outcomes import WeightedOutcomes
from epigames.games.picture import HasPictures, KripkePicture

if TYPE_CHECKING:
    from epigames.games.blufpoker.rules import BlufpokerGame

# The tables and numbers the rules read, as final globals: compiled, each is one C static
# read instead of a lookup in the module's dictionary.
_PARTS: Final = PARTS
_SORTED: Final = SORTED
_RANK_OF: Final = RANK_OF
_ROLLS: Final = ROLLS
_DICE: Final = DICE
_RANKS: Final = RANKS
_FIRST_POKER: Final = FIRST_POKER
_POKER_ROLLS: Final = POKER_ROLLS
_CHANCE: Final = CHANCE
_TERMINAL: Final = TERMINAL
_OPEN: Final = OPEN
_DECIDE: Final = DECIDE
_ROLL: Final = ROLL
_THROW: Final = THROW
_BID: Final = BID
_POKER_THROW: Final = POKER_THROW
_POKER_KEEP: Final = POKER_KEEP
_OVER: Final = OVER
_NO_DICE: Final[Dice] = ()
# The action types `apply` tells apart, as final globals too.
_THROW_TYPE: Final = Throw
_ROLL_DICE_TYPE: Final = RollDice
_STOP_TYPE: Final = Stop
_BELIEVE_TYPE: Final = Believe
_CALL_TYPE: Final = Call
_BID_TYPE: Final = Bid
_KEEP_TYPE: Final = Keep
_THROWS: Final = {count: WeightedOutcomes(throws(count)) for count in range(1, DICE + 1)}


class _Events:
    """Every event a game's rules publish, made once per game and shared by its states.

    Events are immutable values, so one instance serves every state of the game; the
    frequent ones are looked up by small ints or dice tuples, never built on the hot path.
    """

    def __init__(self, game: BlufpokerGame) -> None:
        self.names: tuple[str, ...] = game.seat_names
        names = self.names
        seats = range(game.players)
        #: The seat numbers: a view's seat check is one set lookup.
        self.seats: frozenset[int] = frozenset(seats)
        #: `rolled[seat][count]`: the holder rolls `count` dice under the cup.
        self.rolled: tuple[tuple[DiceRolled, ...], ...] = tuple(
            [tuple([DiceRolled(s, c, names=names) for c in range(DICE + 1)]) for s in seats]
        )
        #: Per seat, untouched → fresh → its look under the cup (two short keys: see
        #: `dice.PARTS`); every multiset of dice has its table from the start.
        self.seen: tuple[dict[Dice, dict[Dice, CupSeen]], ...] = tuple(
            [{dice: {} for dice in PARTS} for _ in seats]
        )
        #: Per seat, the dice left outside → the stop.
        self.stopped: tuple[dict[Dice, Stopped], ...] = tuple([{} for _ in seats])
        #: Per seat, `rank * RANKS + over` → the bid.
        self.bids: tuple[dict[int, BidMade], ...] = tuple([{} for _ in seats])
        #: Per seat, `bidder * RANKS + rank` → the belief.
        self.believed: tuple[dict[int, Believed], ...] = tuple([{} for _ in seats])
        #: (seat, round, rank) → the round's opening.
        self.openings: dict[tuple[int, int, int], Opened] = {}
        #: Per (caller, bidder, bid, roll, loser, penalties) as one int → the lifted cup.
        self.calls: dict[int, Called] = {}
        self.limit: int = game.penalties
        #: Rarer events (open poker rolls, the end), by their fields.
        self.other: dict[tuple[Any, ...], Event] = {}
        #: The returns with each seat the loser, and last (at "no loser yet", -1) all 0;
        #: the winners with each seat the loser.
        self.returns: tuple[tuple[float, ...], ...] = (
            *[tuple([-1.0 if s == loser else 0.0 for s in seats]) for loser in seats],
            (0.0,) * game.players,
        )
        self.winners: tuple[tuple[int, ...], ...] = tuple(
            [tuple([s for s in seats if s != loser]) for loser in seats]
        )

    def cup_seen(self, seat: int, untouched: Dice, fresh: Dice) -> CupSeen:
        table = self.seen[seat][untouched]
        event = table.get(fresh)
        if event is None:
            event = CupSeen(seat, untouched, fresh, names=self.names)
            table[fresh] = event
        return event

    def stopped_with(self, seat: int, visible: Dice) -> Stopped:
        table = self.stopped[seat]
        event = table.get(visible)
        if event is None:
            event = Stopped(seat, visible, names=self.names)
            table[visible] = event
        return event

    def bid(self, seat: int, rank: int, over: int) -> BidMade:
        table, key = self.bids[seat], rank * RANKS + over
        event = table.get(key)
        if event is None:
            event = BidMade(seat, ROLLS[rank], ROLLS[over], names=self.names)
            table[key] = event
        return event

    def belief(self, seat: int, bidder: int, rank: int) -> Believed:
        table, key = self.believed[seat], bidder * RANKS + rank
        event = table.get(key)
        if event is None:
            event = Believed(seat, bidder, ROLLS[rank], names=self.names)
            table[key] = event
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
            event = Opened(seat, round, ROLLS[rank], names=self.names)
            self.openings[key] = event
        return event

    def made(self, cls: type[Event], *fields: Any) -> Event:
        key = (cls, *fields)
        event = self.other.get(key)
        if event is None:
            event = cls(*fields, names=self.names)
            self.other[key] = event
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

    # The log's lists, declared here as well as in `EventLog`: compiled, they are then
    # slots of this class that the rules reach directly.
    game: BlufpokerGame
    _events: list[Event]
    _audience: list[int]
    _seen: list[list[Event]]
    _read: list[int]
    _history: list[Hashable]

    #: The seat to move, `CHANCE` while dice roll, `TERMINAL` at the end: a plain
    #: attribute, since the play loop reads it around every action.
    current_player: int = CHANCE

    def __init__(self, game: BlufpokerGame) -> None:
        n = game.players
        self.game = game
        self._made: _Events = _events_of(game)
        self._players = n
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
        self._public_penalties: tuple[int, ...] = (0,) * n
        # The poker phase: the rank chased (-1 outside it), the dice kept for the next open
        # roll, the open dice and the open rolls made.
        self._target = -1
        self._kept: Dice = ()
        self._open_dice: Dice = ()
        self._open_rolls = 0
        # Who saw the cup as it is: the holder, if it looked (`_looked`; its look is the
        # cup itself), and the previous holder until the new one rolls (`_before`, with
        # its last look). Nobody else can have seen this cup.
        self._looked = False
        self._before = -1
        self._before_look: tuple[Dice, Dice] = ((), ())
        self._loser = -1
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
        return legal_choices(self._phase, self._bid, self._untouched, self._fresh, self._open_dice)

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """While dice roll: every multiset of faces of the rolled dice, with its chance."""
        phase = self._phase
        if phase == _OPEN:
            return _THROWS[_DICE]
        if phase == _THROW:
            return _THROWS[len(self._pending)]
        if phase == _POKER_THROW:
            return _THROWS[_DICE - len(self._kept)]
        return ()

    def apply(self, action: Hashable) -> None:
        """Play an action or a chance outcome.

        Raises:
            IllegalActionError: not legal here (including another phase's action, a chance
                outcome at a player's turn, or a player action at a chance node); the state
                is unchanged.
        """
        # Per phase, the action types it allows (exact types, as values are compared);
        # each rule plays the action if it is legal and says whether it was.
        phase = self._phase
        if phase == _THROW:
            legal = type(action) is _THROW_TYPE and self._land(action)
        elif phase == _ROLL:
            if type(action) is _ROLL_DICE_TYPE:
                legal = self._roll(action)
            else:
                legal = type(action) is _STOP_TYPE and self._stop(action)
        elif phase == _DECIDE:
            if type(action) is _BELIEVE_TYPE:
                legal = self._believe(action)
            else:
                legal = type(action) is _CALL_TYPE and self._call(action)
        elif phase == _BID:
            legal = type(action) is _BID_TYPE and self._make_bid(action)
        elif phase == _OPEN:
            legal = type(action) is _THROW_TYPE and self._open(action)
        elif phase == _POKER_KEEP:
            legal = type(action) is _KEEP_TYPE and self._keep(action)
        elif phase == _POKER_THROW:
            legal = type(action) is _THROW_TYPE and self._poker_throw(action)
        else:
            legal = False
        if not legal:
            raise illegal_action(self, action)

    def returns(self) -> tuple[float, ...]:
        """-1 for the loser and 0 for the others once over; 0 for everyone before."""
        return self._made.returns[self._loser]

    def winners(self) -> tuple[int, ...]:
        """Every seat but the loser once over (the highest returns); none before."""
        loser = self._loser
        return () if loser < 0 else self._made.winners[loser]

    def clone(self) -> BlufpokerState:
        """An independent copy; events, dice and actions are shared immutable values."""
        other = BlufpokerState(self.game)
        other._phase, other.current_player, other._holder = (
            self._phase,
            self.current_player,
            self._holder,
        )
        other._untouched, other._fresh, other._pending = self._untouched, self._fresh, self._pending
        other._round, other._bid, other._bidder, other._over = (
            self._round,
            self._bid,
            self._bidder,
            self._over,
        )
        other._opening, other._visible, other._rolling = self._opening, self._visible, self._rolling
        other._known, other._public_penalties = self._known, self._public_penalties
        other._target, other._kept = self._target, self._kept
        other._open_dice, other._open_rolls = self._open_dice, self._open_rolls
        other._looked, other._before, other._before_look = (
            self._looked,
            self._before,
            self._before_look,
        )
        other._loser = self._loser
        self._clone_log(other)
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # By its fields (OpenSpiel's serialisation pickles states; `core.by_fields`).
        return by_fields(self, _FIELDS)

    def observation(self, seat: object) -> BlufpokerView:
        """The seat's view: the public record and the seat's own look under the cup.

        Raises:
            SeatError: no such seat.
        """
        if type(seat) is not int or seat not in self._made.seats:
            raise seat_error(self.game, seat)
        # What the seat saw under the cup, while the cup still holds it.
        if seat == self._holder and self._looked:
            look: tuple[Dice, Dice] | None = (self._untouched, self._fresh)
        elif seat == self._before:
            look = self._before_look
        else:
            look = None
        return BlufpokerView(
            seat, self.current_player, self._phase, self, len(self._events), look,
            self._round, self._bid, self._bidder, self._over, self._opening, self._visible,
            self._rolling, self._known, self._public_penalties,
            self._target, self._open_dice, self._open_rolls,
        )  # fmt: skip

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
            untouched, fresh = self._before_look
            other._before_look = _redrawn(untouched, fresh, visible, hidden, truth)
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

    # --- the rules: each plays its action if it is legal and returns whether it was ------

    def _penalise(self, loser: int) -> int:
        """Give `loser` a penalty; returns its count."""
        penalties = list(self._public_penalties)
        count = penalties[loser] + 1
        penalties[loser] = count
        self._public_penalties = tuple(penalties)
        return count

    def _end_round(self, starter: int) -> None:
        penalties = self._public_penalties
        worst = max(penalties)
        if worst >= self._made.limit:
            self._loser = penalties.index(worst)
            self._phase, self.current_player = _OVER, _TERMINAL
            self._events.append(self._made.made(GameOver, self._loser, penalties))
            self._audience.append(-1)
            return
        if starter != self._holder:
            # The cup goes to the starter, who has not seen it; the last holder still has.
            if self._looked:
                self._before, self._before_look = self._holder, (self._untouched, self._fresh)
            self._holder, self._looked = starter, False
        self._phase, self.current_player = _OPEN, _CHANCE

    def _open(self, action: Throw) -> bool:
        dice = action.dice
        if len(dice) != _DICE:
            return False
        self._history.append(action)
        seat = self._holder
        self._round += 1
        self._untouched, self._fresh = _NO_DICE, dice
        rank = _RANK_OF[dice]
        self._bid, self._bidder, self._over, self._opening = rank, seat, -1, True
        self._visible, self._rolling, self._known = _NO_DICE, False, _ROLLS[rank]
        self._target, self._kept, self._open_dice, self._open_rolls = -1, _NO_DICE, _NO_DICE, 0
        self._looked, self._before = True, -1
        made = self._made
        events, audience = self._events, self._audience
        events.append(made.cup_seen(seat, _NO_DICE, dice))
        events.append(made.opened(seat, self._round, rank))
        audience.append(1 << seat)
        audience.append(-1)
        self._phase = _DECIDE
        self.current_player = (seat + 1) % self._players
        return True

    def _call(self, action: Call) -> bool:
        self._history.append(action)
        caller, bidder = self.current_player, self._bidder
        roll = _ROLLS[_RANK_OF[_SORTED[self._untouched + self._fresh]]]
        loser = bidder if roll.rank < self._bid else caller
        count = self._penalise(loser)
        self._known = roll
        self._events.append(self._made.called(caller, bidder, self._bid, roll, loser, count))
        self._audience.append(-1)
        self._end_round(loser)
        return True

    def _believe(self, action: Believe) -> bool:
        self._history.append(action)
        seat, holder, bid = self.current_player, self._holder, self._bid
        made = self._made
        event = made.believed[seat].get(self._bidder * _RANKS + bid)
        if event is None:
            event = made.belief(seat, self._bidder, bid)
        # The old holder still knows the cup until the new one rolls.
        if self._looked:
            self._before, self._before_look = holder, (self._untouched, self._fresh)
        else:
            self._before = -1
        self._holder = seat
        if bid >= _FIRST_POKER:
            self._events.append(event)
            self._audience.append(-1)
            self._looked = False
            self._target, self._kept, self._open_dice, self._open_rolls = bid, (), (), 0
            self._phase, self.current_player = _POKER_THROW, _CHANCE
            return True
        self._looked = True
        cup = _SORTED[self._untouched + self._fresh]
        self._untouched = cup
        self._fresh = _NO_DICE
        seen = made.seen[seat][cup].get(_NO_DICE)
        if seen is None:
            seen = made.cup_seen(seat, cup, _NO_DICE)
        events, audience = self._events, self._audience
        events.append(event)
        events.append(seen)
        audience.append(-1)
        audience.append(1 << seat)
        self._phase = _ROLL
        return True

    def _roll(self, action: RollDice) -> bool:
        dice = action.dice
        if dice not in _PARTS[self._untouched]:  # not dice the holder may roll
            return False
        self._history.append(action)
        self._pending = dice
        self._events.append(self._made.rolled[self._holder][len(dice)])
        self._audience.append(-1)
        if not self._rolling:
            # The turn's first roll: the dice outside go back in, nothing is public.
            self._opening, self._visible, self._rolling, self._known = False, (), True, None
            self._before = -1  # the others' looks are out of date once the holder rolls
        self._phase, self.current_player = _THROW, _CHANCE
        return True

    def _land(self, action: Throw) -> bool:
        faces = action.dice
        pending = self._pending
        if len(faces) != len(pending):
            return False
        self._history.append(action)
        seat = self._holder
        untouched = _PARTS[self._untouched][pending]
        fresh = _SORTED[self._fresh + faces]
        self._untouched, self._fresh = untouched, fresh
        self._pending = _NO_DICE
        made = self._made
        seen = made.seen[seat][untouched].get(fresh)
        if seen is None:
            seen = made.cup_seen(seat, untouched, fresh)
        self._events.append(seen)
        self._audience.append(1 << seat)
        self.current_player = seat
        if untouched:
            self._phase = _ROLL
        else:
            self._stopped()  # nothing left to roll: the turn moves on to the bid
        return True

    def _stop(self, action: Stop) -> bool:
        if not self._fresh:
            return False
        self._history.append(action)
        self._stopped()
        return True

    def _stopped(self) -> None:
        visible, holder = self._untouched, self._holder
        made = self._made
        event = made.stopped[holder].get(visible)
        if event is None:
            event = made.stopped_with(holder, visible)
        self._events.append(event)
        self._audience.append(-1)
        # The first roll made the rest of the record plain: not an opening, nothing known.
        self._visible, self._rolling = visible, False
        self._phase = _BID

    def _make_bid(self, action: Bid) -> bool:
        rank, over = action.roll.rank, self._bid
        if rank <= over:
            return False
        self._history.append(action)
        seat = self._holder
        made = self._made
        event = made.bids[seat].get(rank * _RANKS + over)
        if event is None:
            event = made.bid(seat, rank, over)
        self._events.append(event)
        self._audience.append(-1)
        # A bid follows a stop, which left the rest of the record as a bid needs it.
        self._bid, self._bidder, self._over = rank, seat, over
        self._phase = _DECIDE
        self.current_player = (seat + 1) % self._players
        return True

    def _keep(self, action: Keep) -> bool:
        dice = action.dice
        if dice not in _PARTS[self._open_dice]:
            return False
        self._history.append(action)
        self._kept = dice
        self._phase, self.current_player = _POKER_THROW, _CHANCE
        return True

    def _poker_throw(self, action: Throw) -> bool:
        kept, faces = self._kept, action.dice
        if len(faces) != _DICE - len(kept):
            return False
        self._history.append(action)
        seat = self._holder
        dice = _SORTED[kept + faces]
        number = self._open_rolls + 1
        self._open_dice, self._open_rolls = dice, number
        made = self._made
        self._events.append(made.made(PokerThrow, seat, kept, dice, number))
        self._audience.append(-1)
        self._opening, self._visible, self._rolling = False, _NO_DICE, False
        self._known = _ROLLS[_RANK_OF[dice]]
        target = _ROLLS[self._bid].high
        poker = dice[0] == dice[2]
        if not ((poker and dice[0] >= target) or number == _POKER_ROLLS):
            self._phase, self.current_player = _POKER_KEEP, seat
            return True
        if poker and dice[0] > target:
            loser = self._bidder
        elif poker and dice[0] == target:
            loser = -1
        else:
            loser = seat
        count = self._penalise(loser) if loser >= 0 else 0
        bid = _ROLLS[self._bid]
        event = made.made(PokerDone, seat, self._bidder, bid, dice, loser, count, made.limit)
        self._untouched, self._fresh = _NO_DICE, dice
        self._events.append(event)
        self._audience.append(-1)
        self._end_round(seat if loser < 0 else loser)
        return True


#: Every field but the game's, in the order `__reduce__` gives them.
_FIELDS: Final = (
    *("_phase", "current_player", "_holder", "_untouched", "_fresh", "_pending", "_round"),
    *("_bid", "_bidder", "_over", "_opening", "_visible", "_rolling", "_known"),
    *("_public_penalties", "_target", "_kept", "_open_dice", "_open_rolls", "_looked"),
    *("_before", "_before_look", "_loser"),
    *("_events", "_audience", "_seen", "_read", "_history"),
)


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
