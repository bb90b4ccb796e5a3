"""Where a table game's cards are (`CardTable`) and the public facts of its log folded
(`PublicCards`): the parts of `games.table` that every move and view uses, compiled with
mypyc (`epigames.native`). `games.table` builds the states and views on them.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence
from itertools import compress
from typing import Any

from mypy_extensions import mypyc_attr

from epigames.cards import CardLayout, PublicInfo
from epigames.cards.errors import UnknownCardError
from epigames.cards.fact_types import (
    Count,
    Holds,
    HoldsAtLeastOne,
    Lacks,
    Moved,
    Removed,
    Reshuffled,
)
from epigames.cards.facts import apply_facts
from epigames.cards.public import REMOVED
from epigames.errors import EpigamesError
from epigames.games.events import Event

__all__ = ["CardTable", "PublicCards", "TableError"]


@mypyc_attr(native_class=False)  # its base, the package's error, is plain Python
class TableError(EpigamesError):
    """A published fact contradicts where the cards are: a bug in a game's rules."""


class CardTable:
    """Where every card is: one holder index per card, in the layout's order."""

    layout: CardLayout
    #: The face-up piles, `(name, holder)`: found once, every view lists them.
    face_up: tuple[tuple[str, int], ...]
    #: Each face-up pile's name and a `bytes.translate` table that turns the locations
    #: into its flags (1 where the card lies there, else 0): a view writes a pile so in C.
    pile_flags: tuple[tuple[str, bytes], ...]
    #: Signed bytes (holders and `REMOVED`): a view copies them in one call and reads its
    #: face-up piles from them with numpy, without listing their cards.
    where: array[int]
    #: How many cards each holder has, kept as cards move: every view shows them.
    counts: list[int]
    # Each holder's cards as card objects, kept until a move touches the holder: views
    # and legal moves ask for the same hands several times between two moves.
    _held: dict[int, tuple[Hashable, ...]]
    # The layout's card indices by the card object's id (`CardLayout.ids`): found here in
    # C, where `CardLayout.card_index` is a Python call, for every card dealt and played.
    _ids: dict[int, int]

    def __init__(self, layout: CardLayout, start: int) -> None:
        self.layout = layout
        self._ids = layout.ids
        self.face_up, self.pile_flags = _piles(layout)
        assert layout.n_holders < 128, "holder indices are stored as signed bytes"
        self.where = array("b", [start]) * layout.n_cards
        self.counts = [0] * layout.n_holders
        self.counts[start] = layout.n_cards
        self._held = {}

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Compiled, the class has no instance dict for pickle to copy.
        return (_table_of, (self.layout, self.where, self.counts, self._held))

    def copy(self) -> CardTable:
        """An independent table at the same point."""
        return _table_of(self.layout, self.where, self.counts, self._held)

    def cards_of(self, holder: int) -> tuple[Hashable, ...]:
        """The cards (objects) at a holder, in layout order."""
        held = self._held.get(holder)
        if held is None:
            # In C rather than a Python loop.
            held = tuple(compress(self.layout.cards, map(holder.__eq__, self.where)))
            self._held[holder] = held
        return held

    def _index(self, card: object) -> int:
        """`layout.card_index(card)`, found by the object's id first."""
        c = self._ids.get(id(card))
        return self.layout.card_index(card) if c is None else c

    def at(self, card: object, holder: int) -> bool:
        """Whether `card` is a card object of the layout lying at `holder` (False for any
        other object, its text included: a chance outcome or action to check)."""
        try:
            c = self._index(card)
        except UnknownCardError:
            return False
        if self.where[c] != holder:
            return False
        known = self.layout.cards[c]
        return known is card or known == card  # `is` first: `Card.__eq__` is Python code

    def apply(self, facts: Sequence[object]) -> None:
        """Move the cards the facts move; check the claims they make.

        Raises:
            TableError: a fact contradicts the table.
        """
        where, index, counts, held = self.where, self._index, self.counts, self._held
        for fact in facts:
            kind = type(fact)
            if kind is Moved:
                assert isinstance(fact, Moved)
                c = index(fact.card)
                src, dst = fact.src, fact.dst
                if where[c] != src:
                    raise self._contradiction(fact)
                # Both piles' cards stay listed, in order, the card taken from one and put
                # in the other (a deal takes the deck's cards one by one, a play adds one
                # to the table); its place is the count of the pile's cards before it.
                cards = held.pop(src, None)
                if cards is not None:
                    i = where[:c].count(src)
                    held[src] = cards[:i] + cards[i + 1 :]
                cards = held.pop(dst, None)
                if cards is not None:
                    i = where[:c].count(dst)
                    held[dst] = (*cards[:i], self.layout.cards[c], *cards[i:])
                where[c] = dst
                counts[src] -= 1
                counts[dst] += 1
            elif kind is Lacks:
                assert isinstance(fact, Lacks)
                self._expect(where[index(fact.card)] != fact.holder, fact)
            elif kind is Holds:
                assert isinstance(fact, Holds)
                self._expect(where[index(fact.card)] == fact.holder, fact)
            elif kind is HoldsAtLeastOne:
                assert isinstance(fact, HoldsAtLeastOne)
                self._expect(any(where[index(c)] == fact.holder for c in fact.cards), fact)
            elif kind is Count:
                assert isinstance(fact, Count)
                self._expect(counts[fact.holder] == fact.n, fact)
            elif kind is Removed:
                assert isinstance(fact, Removed)
                for card in fact.cards:
                    c = index(card)
                    if where[c] != REMOVED:
                        counts[where[c]] -= 1
                        where[c] = REMOVED
                self._held.clear()
            elif kind is Reshuffled:
                assert isinstance(fact, Reshuffled)
                self.where = where = array("b", [fact.dst if h == fact.src else h for h in where])
                if fact.src != fact.dst:
                    counts[fact.dst] += counts[fact.src]
                    counts[fact.src] = 0
                self._held.clear()
            # Other facts (a `Drew` is the public side of private `Moved` facts) move nothing.

    def _expect(self, holds: bool, fact: object) -> None:
        if not holds:
            raise self._contradiction(fact)

    def _contradiction(self, fact: object) -> TableError:
        return TableError(f"the fact {fact} contradicts the table {list(self.where)}")


#: `_piles` of each layout met, by its id (the layout kept, so that its id stays its own).
_PILES: dict[
    int, tuple[CardLayout, tuple[tuple[str, int], ...], tuple[tuple[str, bytes], ...]]
] = {}


def _piles(
    layout: CardLayout,
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, bytes], ...]]:
    """A layout's face-up piles and their flag tables (`CardTable.face_up`, `pile_flags`),
    made once: every table copied for a search makes them again otherwise."""
    known = _PILES.get(id(layout))
    if known is None or known[0] is not layout:
        face_up = tuple((layout.holders[h], h) for h in sorted(layout.public))
        flags = tuple((name, bytes(int(b == h) for b in range(256))) for name, h in face_up)
        known = _PILES[id(layout)] = (layout, face_up, flags)
    return known[1], known[2]


def _table_of(
    layout: CardLayout, where: array[int], counts: list[int], held: dict[int, tuple[Hashable, ...]]
) -> CardTable:
    """A table with copies of these locations, counts and listed hands."""
    table = CardTable(layout, 0)
    table.where, table.counts, table._held = where[:], list(counts), dict(held)
    return table


#: `PublicCards.start`'s folds by layout id and start pile, each with its layout.
_STARTS: dict[tuple[int, int], tuple[CardLayout, PublicInfo]] = {}


class PublicCards:
    """The public facts of a log folded into `PublicInfo`, on demand and incrementally.

    One fold serves every view of a state: all seats see the same public events. It starts
    from every card in the start pile and applies each public event's facts in order.
    """

    _first: PublicInfo
    _done: int
    _public: PublicInfo

    def __init__(self, first: PublicInfo, done: int = 0, public: PublicInfo | None = None) -> None:
        """The fold from `first` (`start`: every card in the start pile), with `public`
        after the first `done` entries of the log."""
        self._first, self._done = first, done
        self._public = first if public is None else public

    @staticmethod
    def start(layout: CardLayout, start: int) -> PublicCards:
        """The fold from every card in the pile `start`."""
        # One start per layout and pile, kept with its layout (so that its id stays its
        # own): a new game would make it again (some 6 µs), and it is immutable.
        known = _STARTS.get((id(layout), start))
        if known is None or known[0] is not layout:
            counts = [0] * layout.n_holders
            counts[start] = layout.n_cards
            known = _STARTS[id(layout), start] = (layout, PublicInfo.start(layout, counts))
        return PublicCards(known[1])

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (PublicCards, (self._first, self._done, self._public))

    def copy(self) -> PublicCards:
        """An independent fold at the same point (`PublicInfo` values are immutable)."""
        return PublicCards(self._first, self._done, self._public)

    def at(self, events: Sequence[Event], audience: Sequence[int], n: int) -> PublicInfo:
        """The public information after the first `n` entries of the log."""
        if n < self._done:
            self._done, self._public = 0, self._first
        public = self._public
        for i in range(self._done, n):
            if audience[i] == -1:
                public = apply_facts(public, events[i].facts)
        self._done, self._public = n, public
        return public
