"""The values of a Kemps game, each kept once, and the rules' moves that change them.

The rules (`rules.KempsState`) keep the true table, hands, piles and scores here; there
is no second copy for the seats. `Records.apply` makes a move: it changes the values,
publishes the move's events in the state's shared log and says who moves next. Every
value a view shows is replaced, never changed in place (tuples, frozensets, ints), so a
view that keeps references holds a snapshot. The deck and the discard pile are lists,
changed in place: their order is hidden, and a view keeps only their sizes.

Besides the values, `absorb(event)` keeps what the seats' knowledge is derived from: every
public announcement in order (folded into card knowledge by `tracker` when a view asks),
and in the team game what each seat was told by its partner's signals, updated by each
public announcement.

mypyc compiles this module (`epigames.native.COMPILED`): a state's moves run here, in C,
as a native class's methods on its own fields; the state (a plain Python class, as its
framework bases are) only passes each move on. A move the rules refuse leaves everything
as it was and returns `REFUSED`; the state words the error.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final

from epigames.cards import Card, CardLayout
from epigames.games.events import Event
from epigames.games.kemps import events as ev
from epigames.games.kemps.actions import HAND_SIZE, Call, Done, Pass, Signal, Swap
from epigames.games.kemps.knowledge import HoldsAll, PublicTracker, signal_cases
from epigames.games.turn import CHANCE, TERMINAL

#: A state's shared log (`EventLog`): its events, their audiences and its actions.
Log = tuple[list[Event], list[int], list[Hashable]]
#: What a view keeps of the records besides its most read values (`views.KempsView`):
#: the hands, the deck's and the discard pile's sizes, the cards out, the scores, the
#: cards put down this turn and what the seat's partner's signals told it.
Rest = tuple[
    tuple[tuple[Card, ...], ...],
    int,
    int,
    tuple[Card, ...],
    tuple[int, ...],
    frozenset[Card],
    tuple[HoldsAll, ...],
]
#: What a view keeps (`Records.seen_by`): the hand, the table, the swaps, the turns, the
#: call window, the rest and how many public announcements there are.
Seen = tuple[tuple[Card, ...], tuple[Card, ...], int, int, tuple[int, ...], Rest, int]
#: The turn's markers and a hand's size as C statics (compiled, an imported name is a
#: dictionary lookup at every use).
_CHANCE: Final = CHANCE
_TERMINAL: Final = TERMINAL
_HAND: Final = HAND_SIZE
#: The classes of the moves told apart at every move, as statics.
_CARD: Final = Card
_SWAP: Final = Swap
_DONE: Final = Done
#: What `Records.apply` returns for a move the rules refuse (nothing changed).
REFUSED: Final = -100
#: A chance draw that goes to the table rather than to a seat.
TO_TABLE: Final = -1


class Records:
    """The game's values, true and public, and the moves; see the module docstring.

    Attributes:
        hands: `hands[s]` = seat `s`'s cards, in hand order (a card taken from the table
            takes the place of the card put down); a view shows its own seat's alone.
        table: the table's cards, slot by slot (public).
        deck: the deck's cards, in the order chance draws from (hidden).
        drawn: the cards drawn so far of a deal under way (hidden until it is announced).
        discard: the discard pile's cards (public, but only its size is shown).
        out: the cards out of the game, in order (public).
        scores: Kemps counts (public).
        swaps: swaps made in the turn under way (public).
        put_down: cards put down in the turn under way, which may not be taken back.
        turns: turns ended (public; counted when the turn's end is announced).
        window: the seats a call window still asks, in order (team game; empty: none open).
        signals: `signals[s]` = the live facts seat `s` was told by signals (team game).
        announcements: every public announcement so far, in order (append-only).
        layout: the game's card layout.
        tracker: folds `announcements` into card knowledge when a view asks for it.
        player: the seat to move, `CHANCE` or `TERMINAL`.
        queue: who gets each card of the deal under way (`TO_TABLE`: the table).
        capped: whether the game ended at the turn cap.
    """

    def __init__(
        self,
        game: Any,
        layout: CardLayout,
        deck: tuple[Card, ...],
        log: Log,
    ) -> None:
        players: int = game.players
        self.game = game
        self.players = players
        self.table_size: int = game.table
        self.max_swaps: int = game.max_swaps
        self.redeal_after: int = game.redeal_after
        self.max_turns: int = game.max_turns
        self.team_game: bool = game.team_game
        self.names: tuple[str, ...] = game.seat_names
        made = _MADE.get(self.names)
        if made is None:
            made = _MADE[self.names] = {}
        self.made = made
        # The state's shared log, extended here (`EventLog`): events, audiences, history.
        self.events: list[Event] = log[0]
        self.audience: list[int] = log[1]
        self.history: list[Hashable] = log[2]
        self.announcements: list[Event] = []
        self.layout = layout
        self.tracker = PublicTracker(layout)
        self.hands: list[tuple[Card, ...]] = [()] * players
        self.table: tuple[Card, ...] = ()
        self.deck: list[Card] = list(deck)
        self.drawn: list[Card] = []
        self.discard: list[Card] = []
        self.out: tuple[Card, ...] = ()
        self.scores: tuple[int, ...] = (0,) * players
        self.swaps = 0
        self.put_down: frozenset[Card] = _NONE
        self.turns = 0
        self.window: tuple[int, ...] = ()
        self.signals: list[tuple[HoldsAll, ...]] = [()] * players
        # Whether any seat holds a signal's fact: the 2023 game never does.
        self.told = False
        self.player = CHANCE
        self.capped = False
        self.queue: list[int] = [TO_TABLE] * self.table_size + [
            s for s in range(players) for _ in range(HAND_SIZE)
        ]
        self.seat = 0  # whose turn it is, or will be after the chance draws
        self.idle = 0
        self.completed = 0  # turns completed (in the team game, once the window closes)
        self.changed = False  # whether the turn whose new hand is being drawn swapped
        self.drawer = 0  # whose new hand is being drawn

    def copy(self, log: Log) -> Records:
        """An independent copy extending the log `log` (the immutable values are shared)."""
        other = _restored(self.game, self.layout, log, self._values())
        other.announcements = list(self.announcements)
        other.tracker = self.tracker.copy()
        other.hands = list(self.hands)
        other.deck, other.drawn = list(self.deck), list(self.drawn)
        other.discard = list(self.discard)
        other.signals = list(self.signals)
        other.queue = list(self.queue)
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled or deep-copied with its state: compiled, the class is made through its
        # `__init__`, so it is made from the game and then given the values.
        log = (self.events, self.audience, self.history)
        return (_restored, (self.game, self.layout, log, self._values()))

    def _values(self) -> tuple[Any, ...]:
        """Every value that changes in a game, in `_restored`'s order."""
        return (
            self.announcements,
            self.tracker,
            self.hands,
            self.table,
            self.deck,
            self.drawn,
            self.discard,
            self.out,
            self.scores,
            self.swaps,
            self.put_down,
            self.turns,
            self.window,
            self.signals,
            self.told,
            self.player,
            self.capped,
            self.queue,
            self.seat,
            self.idle,
            self.completed,
            self.changed,
            self.drawer,
        )

    @property
    def sizes(self) -> tuple[int, ...]:
        """Cards per seat (public)."""
        return tuple([len(hand) for hand in self.hands])

    @property
    def deck_size(self) -> int:
        """Cards in the deck (public): those of a deal under way count until it is announced."""
        return len(self.deck) + len(self.drawn)

    def seen_by(self, seat: int) -> Seen:
        """What a view of `seat` keeps, in one call (`views.KempsView`): the hand, the
        table, the swaps, the turns, the window, the rest and the announcements' count."""
        rest: Rest = (
            tuple(self.hands),  # copied: its items are replaced in place
            len(self.deck) + len(self.drawn),
            len(self.discard),
            self.out,
            self.scores,
            self.put_down,
            self.signals[seat],
        )
        return (
            self.hands[seat],
            self.table,
            self.swaps,
            self.turns,
            self.window,
            rest,
            len(self.announcements),
        )

    def absorb(self, event: Event) -> None:
        """Keep what knowledge is derived from: a public announcement, or a signal's fact."""
        if event.public:
            self.announcements.append(event)
            if self.told:
                self.update_signals(event)
        elif type(event) is ev.Signalled:
            assert isinstance(event, ev.Signalled)
            layout = self.layout
            public = layout.card_mask((*self.table, *self.out))
            for seat in event.seats - {event.seat}:
                seen = public | layout.card_mask(self.hands[seat])
                told = HoldsAll(event.seat, signal_cases(layout, seen))
                self.signals[seat] = (*self.signals[seat], told)
            self.told = True

    def update_signals(self, event: Event) -> None:
        """The signals' facts after a public announcement (while some seat holds one)."""
        layout = self.layout
        for seat, told in enumerate(self.signals):
            kept = []
            for fact in told:
                live: HoldsAll | None = fact
                for public in event.facts:
                    if live is None:
                        break
                    live = live.after(layout, public)
                if live is not None:
                    kept.append(live)
            self.signals[seat] = tuple(kept)
        self.told = any(self.signals)

    # --- the moves ---------------------------------------------------------------

    def apply(self, action: Any) -> int:
        """Make a move: a card drawn by chance, a swap, the end of a turn, a signal or a
        call window's answer. Returns the player to move next, or `REFUSED` (nothing
        changed) for a move the rules do not allow here."""
        p = self.player
        if p == _CHANCE:
            if type(action) is not _CARD:  # read as a card below
                return REFUSED
            deck = self.deck
            # The card's place by identity (a card's `==` is Python code).
            at = -1
            for i in range(len(deck)):
                if deck[i] is action:
                    at = i
                    break
            if at < 0:
                return REFUSED
            self.history.append(action)
            del deck[at]
            self.drawn.append(action)
            queue = self.queue
            queue.pop(0)
            if not queue:
                self._drawn()
            return self.player
        if p < 0:
            return REFUSED
        if self.window:
            return self._answer(p, action)
        # Told apart by class (compared as statics): `action` is read as that class.
        kind = type(action)
        if kind is _SWAP:
            slot: int = action.slot
            card: Card = action.card
            table, hand = self.table, self.hands[p]
            at = -1
            for i in range(len(hand)):
                if hand[i] is card:
                    at = i
                    break
            if (
                0 <= slot < len(table)
                and at >= 0
                and table[slot] not in self.put_down
                and self.swaps < self.max_swaps
            ):
                self.history.append(action)
                self._swap(p, slot, at, card)
                return self.player
            return REFUSED
        if kind is _DONE:
            self.history.append(action)
            self._end_turn(p, False)
            return self.player
        if kind is Signal and self.team_game:
            if not one_rank(self.hands[p]):
                return REFUSED
            self.history.append(action)
            self._end_turn(p, True)
            return self.player
        return REFUSED

    def _answer(self, p: int, action: object) -> int:
        """A seat's answer in a call window: pass, or a call that ends it."""
        if type(action) is Pass:
            self.history.append(action)
            self.window = self.window[1:]
            self._publish(ev.Passed(p, names=self.names))
            if self.window:
                self.player = self.window[0]
            else:
                self._after_turn(self.changed)
            return self.player
        if type(action) is Call:
            assert isinstance(action, Call)
            target: int = action.seat
            stop: bool = action.stop
            if 0 <= target < self.players:
                game = self.game
                opponent = game.team_of(target) != game.team_of(p)
                if (target == game.partner(p) and not stop) or (stop and opponent):
                    self.history.append(action)
                    self._call(p, target, stop)
                    return self.player
        return REFUSED

    def _publish(self, event: Event) -> None:
        """Log an event with its audience and keep what knowledge needs of it."""
        self.events.append(event)
        if event.public:
            self.audience.append(-1)
            self.announcements.append(event)
            if self.told:
                self.update_signals(event)
            return
        self.audience.append(event.audience())
        self.absorb(event)

    def _announce(self, event: Event) -> None:
        """`_publish` of a public announcement (most moves make one)."""
        self.events.append(event)
        self.audience.append(-1)
        self.announcements.append(event)
        if self.told:
            self.update_signals(event)

    def _drawn(self) -> None:
        """The last card of a deal is drawn: the first deal, a new table or a new hand,
        announced."""
        drawn = tuple(self.drawn)
        self.drawn = []
        names, n = self.names, self.players
        if not self.announcements:  # the first deal
            size = self.table_size
            self.table = drawn[:size]
            hands = self.hands
            for s in range(n):
                hands[s] = drawn[size + HAND_SIZE * s : size + HAND_SIZE * (s + 1)]
            sizes = tuple([len(hand) for hand in hands])
            self._publish(_GAME_DEALT(self.table, sizes, len(self.deck), names))
            for s in range(n):
                self._publish(_DEALT(s, hands[s], names))
            self.player = self.seat
        elif not self.table:  # a new table
            self.table = drawn
            self._publish(_TABLE_DEALT(drawn, n, names))
            self.player = self.seat
        else:  # a new hand after a Kemps
            s = self.drawer
            self.hands[s] = drawn
            self._publish(_NEW_HAND(s, len(drawn), n, names))
            self._publish(_DEALT(s, drawn, names))
            self._after_turn(self.changed)

    def _swap(self, p: int, slot: int, at: int, card: Card) -> None:
        hand, table = list(self.hands[p]), list(self.table)
        taken = table[slot]
        hand[at] = taken
        table[slot] = card
        self.hands[p] = tuple(hand)
        self.table = tuple(table)
        self.put_down = self.put_down | {card}
        self.swaps += 1
        # The team game's player still chooses between `done` and the signal.
        last = self.swaps >= self.max_swaps and not self.team_game
        # A move's event is shared by every game of these seats that makes the same move
        # (events are immutable values): making one costs about as much as the move.
        key = ((((p * 16 + slot) * 64 + taken.index) * 64 + card.index) * 2 + int(last)) * 4
        made = self.made
        event = made.get(key)
        if event is None:
            event = _SWAPPED(p, slot, taken, card, self.players, last, self.names)
            if len(made) < _MADE_MAX:
                made[key] = event
        self._announce(event)
        if last:
            self._end_turn(p, False)

    def _end_turn(self, p: int, signal: bool) -> None:
        swaps = self.swaps
        changed = swaps > 0
        # The turn's swaps are over once its end is announced.
        self.swaps, self.put_down = 0, _NONE
        self.turns += 1
        if self.team_game:
            n = self.players
            if signal:
                team = frozenset((p, (p + n // 2) % n))
                self._publish(ev.Signalled(team, p, names=self.names))
            # Every seat may call (public, so being asked shows nothing): docs/turns.md.
            self.window = tuple([(p + step) % n for step in range(1, n + 1)])
            self._publish(ev.TeamTurnEnded(p, swaps, names=self.names))
            self.changed = changed
            self.player = self.window[0]
            return
        hand = self.hands[p]
        if one_rank(hand):
            scores = list(self.scores)
            scores[p] += 1
            self.scores = tuple(scores)
            cards, more, reshuffled = self._out_of_game(p)
            n = self.players
            self._publish(_KEMPS(p, cards, scores[p], reshuffled, n, self.names))
            if more:
                self._new_hand(p, changed)
                return
            self._finish(False)
            return
        key = (p * 16 + swaps) * 4 + 1
        made = self.made
        event = made.get(key)
        if event is None:
            event = _TURN_ENDED(p, swaps, self.names)
            if len(made) < _MADE_MAX:
                made[key] = event
        self._announce(event)
        self._after_turn(changed)

    def _new_hand(self, seat: int, changed: bool) -> None:
        """Draw `seat` a new hand, then go on after the turn (`changed`: it swapped)."""
        self.changed = changed
        self.drawer = seat
        self.queue = [seat] * HAND_SIZE
        self.player = CHANCE

    def _out_of_game(self, seat: int) -> tuple[tuple[Card, ...], bool, bool]:
        """The seat's four cards leave the game: the cards, whether a new hand can be
        drawn, and whether the discard pile was shuffled into the deck for it."""
        cards = tuple(sorted(self.hands[seat], key=_index))
        self.hands[seat] = ()
        self.out = (*self.out, *cards)
        more = len(self.deck) + len(self.discard) >= HAND_SIZE
        reshuffled = more and len(self.deck) < HAND_SIZE
        if reshuffled:
            self._reshuffle()
        return cards, more, reshuffled

    def _reshuffle(self) -> None:
        """The discard pile goes under the deck."""
        self.deck.extend(self.discard)
        self.discard.clear()

    def _call(self, p: int, target: int, stop: bool) -> None:
        """Resolve a call by `p` against (Stop Kemps) or for (Kemps!) `target`."""
        game = self.game
        self.window = ()
        right = one_rank(self.hands[target])
        scores = list(self.scores)
        for seat in game.teams[game.team_of(p)]:
            scores[seat] += 1 if right else -1
        self.scores = tuple(scores)
        n = self.players
        if not right:
            self._publish(ev.Called(p, target, stop, (), self.scores, False, n, names=self.names))
            self._after_turn(self.changed)
            return
        cards, more, reshuffled = self._out_of_game(target)
        self._publish(
            ev.Called(p, target, stop, cards, self.scores, reshuffled, n, names=self.names)
        )
        if scores[p] >= game.target or not more:
            self._finish(False)
            return
        self._new_hand(target, self.changed)

    def _after_turn(self, changed: bool) -> None:
        """After a turn (and its new hand, or its call window): the next seat, a new
        table after `redeal_after` idle turns, or the end at the turn cap."""
        self.idle = 0 if changed else self.idle + 1
        self.completed += 1
        if self.completed >= self.max_turns:
            self._finish(True)
            return
        self.seat = (self.seat + 1) % self.players
        if self.idle < self.redeal_after:
            self.player = self.seat
            return
        self.idle = 0
        old, size = self.table, self.table_size
        self.discard.extend(old)
        self.table = ()
        reshuffled = len(self.deck) < size
        if reshuffled:
            self._reshuffle()
        self._publish(_TABLE_CLEARED(old, reshuffled, self.players, self.names))
        self.queue = [TO_TABLE] * size
        self.player = CHANCE

    def _finish(self, capped: bool) -> None:
        self.capped = capped
        self.player = TERMINAL
        self._publish(_GAME_OVER(self.scores, capped, self.names))


def _restored(game: Any, layout: CardLayout, log: Log, values: tuple[Any, ...]) -> Records:
    """Records of `game` extending `log`, with `Records._values` `values`."""
    made = Records(game, layout, (), log)
    (
        made.announcements,
        made.tracker,
        made.hands,
        made.table,
        made.deck,
        made.drawn,
        made.discard,
        made.out,
        made.scores,
        made.swaps,
        made.put_down,
        made.turns,
        made.window,
        made.signals,
        made.told,
        made.player,
        made.capped,
        made.queue,
        made.seat,
        made.idle,
        made.completed,
        made.changed,
        made.drawer,
    ) = values
    return made


def one_rank(hand: tuple[Card, ...]) -> bool:
    """Whether a hand is four of a kind."""
    if len(hand) != _HAND:
        return False
    rank = hand[0].rank
    return hand[1].rank is rank and hand[2].rank is rank and hand[3].rank is rank


def _index(card: Card) -> int:
    """Cards sort by their index (suit, then rank), as `Card.__lt__` does."""
    return card.index


#: No cards put down yet this turn.
_NONE: Final[frozenset[Card]] = frozenset()
# The events of every move, made without their dataclass `__init__` (`events.maker`).
_DEALT: Final[Callable[..., Event]] = ev.maker(ev.Dealt)
_SWAPPED: Final[Callable[..., Event]] = ev.maker(ev.Swapped)
_TURN_ENDED: Final[Callable[..., Event]] = ev.maker(ev.TurnEnded)
_TABLE_CLEARED: Final[Callable[..., Event]] = ev.maker(ev.TableCleared)
_TABLE_DEALT: Final[Callable[..., Event]] = ev.maker(ev.TableDealt)
_NEW_HAND: Final[Callable[..., Event]] = ev.maker(ev.NewHand)
_KEMPS: Final[Callable[..., Event]] = ev.maker(ev.Kemps)
_GAME_OVER: Final[Callable[..., Event]] = ev.maker(ev.GameOver)
_GAME_DEALT: Final[Callable[..., Event]] = ev.maker(ev.GameDealt)
#: Per seats' names, the events of swaps and turn ends made so far, by a key of their
#: fields (`Records._swap`, `Records._end_turn`), at most `_MADE_MAX` of them.
_MADE: Final[dict[tuple[str, ...], dict[int, Event]]] = {}
_MADE_MAX: Final = 1 << 18
