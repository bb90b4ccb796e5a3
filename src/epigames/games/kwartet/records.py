"""What the seats have observed, kept up to date event by event.

`Records.absorb(event)` reads nothing but the event. The public part (hand sizes, scores,
laid-down kinds) follows the public announcements; `hands[s]` is seat `s`'s own record of
its hand, following its private `Dealt` observation and the public moves that involve it.
Views are built from these records, so a view cannot contain what its seat never saw.

mypyc compiles this module (`epigames.native.COMPILED`): every event of a game is absorbed
here, in C.
"""

from __future__ import annotations

from typing import Any

from epigames.cards import CardLayout
from epigames.games.events import Event
from epigames.games.kwartet.cards import ASKS, CARDS, MEMBERS, Ask, Card
from epigames.games.kwartet.events import Asked, DealDone, Dealt, LaidDown
from epigames.games.kwartet.knowledge import PublicTracker


def _askable_mask(held: int, ask_own: bool) -> int:
    """The card indices, as a bitmask, that a player holding the cards of `held` (a
    bitmask) may ask for: its kinds, less its own cards unless `ask_own`."""
    kinds = 0
    rest = held
    while rest:
        low = rest & -rest
        rest ^= low
        kinds |= _KIND_BITS[low.bit_length() - 1]
    return kinds if ask_own else kinds & ~held


#: Per card index, the bitmask of its kind's cards.
_KIND_BITS = tuple([((1 << MEMBERS) - 1) << (c - c % MEMBERS) for c in range(len(CARDS))])


def legal_asks(targets: tuple[int, ...], cards: tuple[Card, ...]) -> tuple[Ask, ...]:
    """Every ask of a seat that may ask `targets` for `cards` (`Records.targets`,
    `Records.askable`): the one rule of Kwartet's moves, for the state and the views.

    The same arguments give the same tuple object: a seat's targets and kinds change
    seldom (about one list in fifteen is new in random play), and a reader that keeps what
    it made of a list by its identity (the adapters' action masks) finds it again.
    """
    # Keyed by the cards' identity (a seat's askable cards are one shared tuple per set
    # of kinds held): hashing them would hash every card in Python.
    key = (targets, id(cards))
    known = _LEGAL.get(key)
    if known is not None and known[0] is cards:
        return known[1]
    if len(_LEGAL) >= _LEGAL_LIMIT:
        _LEGAL.clear()
    asks = tuple([ASKS[t][c.index] for t in targets for c in cards])
    _LEGAL[key] = (cards, asks)  # the cards kept alive with it, so that their id stays theirs
    return asks


#: `legal_asks` by its targets and the identity of its cards, cleared when full.
_LEGAL: dict[tuple[tuple[int, ...], int], tuple[tuple[Card, ...], tuple[Ask, ...]]] = {}
_LEGAL_LIMIT = 4096


#: Askable cards by their bitmask: a seat's set recurs (its kinds held, less its own cards
#: when so ruled), and one tuple per set lets `legal_asks` find its asks by identity.
_BY_MASK: dict[int, tuple[Card, ...]] = {}
_BY_MASK_LIMIT = 4096


class Records:
    """Observation-derived records of every seat; all fields hold immutable tuples.

    The tuples are replaced, never changed, so a view may keep references as a snapshot.
    Derived tuples (`askable`, `targets`) are recomputed only when their source changes,
    which keeps building a view per move cheap.

    Attributes:
        hands: `hands[s]` = the card indices seat `s` knows it holds, sorted.
        hand_masks: `hand_masks[s]` = the same cards as a bitmask over card indices.
        askable: `askable[s]` = the cards seat `s` may ask for, derived from `hands[s]`.
        sizes: public hand sizes.
        targets: `targets[s]` = the seats other than `s` that have cards (public).
        scores: public points.
        down: public `(kind, seat)` pairs of laid-down kinds, in order.
        announcements: every public announcement so far, in order (append-only).
        tracker: folds `announcements` into card knowledge when a view asks for it.
    """

    def __init__(self, players: int, ask_own: bool, layout: CardLayout) -> None:
        self.ask_own = ask_own
        self.announcements: list[Event] = []
        self.tracker = PublicTracker(layout)
        self.hands: list[tuple[int, ...]] = [()] * players
        self.hand_masks: list[int] = [0] * players
        self.askable: list[tuple[Card, ...]] = [()] * players
        self.sizes: tuple[int, ...] = (0,) * players
        # The seats with cards, as a bitmask: `targets` changes only when this does.
        self._with_cards = 0
        self.targets: tuple[tuple[int, ...], ...] = ((),) * players
        self.scores: tuple[int, ...] = (0,) * players
        self.down: tuple[tuple[int, int], ...] = ()

    def copy(self) -> Records:
        """An independent copy (the tuples are shared: they never change)."""
        return _records(
            self.ask_own,
            self.tracker.copy(),
            list(self.announcements),
            (list(self.hands), list(self.hand_masks), list(self.askable)),
            (self.sizes, self._with_cards, self.targets, self.scores, self.down),
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # By its parts: pickle's default would call the compiled class's `__init__` bare.
        public = (self.sizes, self._with_cards, self.targets, self.scores, self.down)
        parts = (self.hands, self.hand_masks, self.askable)
        return _records, (self.ask_own, self.tracker, self.announcements, parts, public)

    def _set_hand(self, seat: int, hand: tuple[int, ...]) -> None:
        self.hands[seat] = hand
        held = 0
        for c in hand:
            held |= 1 << c
        self.hand_masks[seat] = held
        mask = _askable_mask(held, self.ask_own)
        cards = _BY_MASK.get(mask)
        if cards is None:
            if len(_BY_MASK) >= _BY_MASK_LIMIT:
                _BY_MASK.clear()
            found: list[Card] = []
            rest = mask
            while rest:
                low = rest & -rest
                found.append(CARDS[low.bit_length() - 1])
                rest ^= low
            cards = _BY_MASK[mask] = tuple(found)
        self.askable[seat] = cards

    def _set_sizes(self, sizes: tuple[int, ...]) -> None:
        # Targets change only when a seat runs out of cards (or gets its first ones).
        with_cards = 0
        for s in range(len(sizes)):
            if sizes[s]:
                with_cards |= 1 << s
        if with_cards != self._with_cards:
            self._with_cards = with_cards
            seats = range(len(sizes))
            self.targets = tuple([tuple([t for t in seats if t != s and sizes[t]]) for s in seats])
        self.sizes = sizes

    def absorb(self, event: Event) -> None:
        """Update the records with one event (called for every event, in order)."""
        if event.public:
            self.announcements.append(event)
        kind = type(event)
        if kind is Asked:
            assert isinstance(event, Asked)
            if event.success:
                card, asker, target = event.card.index, event.asker, event.target
                self._set_hand(target, tuple(c for c in self.hands[target] if c != card))
                self._set_hand(asker, tuple(sorted((*self.hands[asker], card))))
                sizes = list(self.sizes)
                sizes[asker] += 1
                sizes[target] -= 1
                self._set_sizes(tuple(sizes))
        elif kind is LaidDown:
            assert isinstance(event, LaidDown)
            seat, first = event.seat, (event.card_kind - 1) * MEMBERS
            self._set_hand(seat, tuple(c for c in self.hands[seat] if not first <= c < first + 4))
            sizes, scores = list(self.sizes), list(self.scores)
            sizes[seat] -= MEMBERS
            scores[seat] = event.points
            self._set_sizes(tuple(sizes))
            self.scores = tuple(scores)
            self.down = (*self.down, (event.card_kind, seat))
        elif kind is Dealt:
            assert isinstance(event, Dealt)
            self._set_hand(event.seat, tuple(sorted(c.index for c in event.cards)))
        elif kind is DealDone:
            assert isinstance(event, DealDone)
            self._set_sizes(event.hand_sizes)


def _records(
    ask_own: bool,
    tracker: PublicTracker,
    announcements: list[Event],
    private: tuple[list[tuple[int, ...]], list[int], list[tuple[Card, ...]]],
    public: tuple[
        tuple[int, ...],
        int,
        tuple[tuple[int, ...], ...],
        tuple[int, ...],
        tuple[tuple[int, int], ...],
    ],
) -> Records:
    """Records made of these parts (`Records.copy` and unpickling)."""
    records = Records(0, ask_own, tracker._layout)
    records.tracker, records.announcements = tracker, announcements
    records.hands, records.hand_masks, records.askable = private
    records.sizes, records._with_cards, records.targets, records.scores, records.down = public
    return records
