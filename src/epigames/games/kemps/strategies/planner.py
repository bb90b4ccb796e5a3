"""The planning of the 2023 report's strategies (`greedy`): a turn's swaps from the hand,
the table and the seat's knowledge.

Plain functions on ints, tuples and lists, apart from the strategy classes (`greedy`),
so that mypyc can compile this module (a compiled class may not be the base of Python
ones such as registered strategies). See `greedy` for the strategies themselves.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple, Protocol

from epigames.cards import Card, Rank
from epigames.cards.public import iter_bits
from epigames.cards.slots import slot_maker
from epigames.games.kemps.actions import OF_A_KIND, Swap, kemps_deck, swap
from epigames.games.kemps.strategies.seedkb import SeedKnowledge
from epigames.games.kemps.views import KempsView
from epigames.games.strategy import Thought


class Plan(NamedTuple):
    """A turn's swaps and why: the ranks collected, blocked and avoided (a named tuple:
    one is made for every turn)."""

    swaps: tuple[Swap, ...]
    collect: tuple[Rank, ...]
    blocked: tuple[Card, ...] = ()
    avoided: tuple[Rank, ...] = ()

    def __str__(self) -> str:
        parts = []
        if self.avoided:
            parts.append(f"I avoid {_ranks(self.avoided)}: others may hold or collect them")
        if self.collect:
            parts.append(f"I collect {_ranks(self.collect)}")
        if self.blocked:
            parts.append(f"I block {' '.join(str(c) for c in self.blocked)}")
        if not self.swaps:
            parts.append("no swap helps")
        return "; ".join(parts) + "."

    def thought(self, template: str, *args: object) -> Thought:
        """A decision's thought: `template` over `args`."""
        return _thought(template, (), args)


#: Ranks per suit in `Card.index` (13 * suit + rank - 2), and each index's rank.
_RANKS: Final = 13
#: `OF_A_KIND` as a static (compiled, an imported name is a dictionary lookup at each use).
_KIND: Final = OF_A_KIND
_RANK: Final[tuple[Rank, ...]] = tuple(sorted(Rank, key=lambda r: r.value))


# A thought and a plan for every move, made without their `__init__` / `__new__`
# (Python code): `Thought(t, (), args)`, `Plan(...)`.
_thought: Final = slot_maker(Thought)


def _plan(
    swaps: tuple[Swap, ...],
    collect: tuple[Rank, ...],
    blocked: tuple[Card, ...],
    avoided: tuple[Rank, ...],
) -> Plan:
    """`Plan(swaps, collect, blocked, avoided)` without the named tuple's Python `__new__`."""
    return _new_tuple(Plan, (swaps, collect, blocked, avoided))


_new_tuple: Final = tuple.__new__


class TurnPlan(Protocol):
    """A turn planned at its first decision: its swaps, a `str()` saying why, and the
    thought of each decision."""

    @property
    def swaps(self) -> tuple[Swap, ...]:
        """The swaps, in order."""
        ...

    def thought(self, template: str, *args: object) -> Thought:
        """The thought of a decision: `template` over `args` (see `Thought`)."""
        ...


def _ranks(ranks: Sequence[Rank]) -> str:
    return ", ".join(f"{r.text}s" for r in ranks) or "nothing"


def seed_knowledge(view: KempsView, kept: SeedKnowledge | None = None) -> SeedKnowledge:
    """The program's knowledge base for the seat, replayed from its log (`kept` is
    brought up to date when it replays the same game)."""
    if kept is None or kept.seat != view.seat:
        kept = SeedKnowledge(view.seat, view.game.num_players, view.knowledge.layout.cards)  # type: ignore[arg-type]
    return kept.update(view.log)


def do_not_collect(view: KempsView, seed_compat: bool) -> set[Rank]:
    """The ranks the seat keeps off its collection (see the module docstring)."""
    if seed_compat:
        return set(seed_knowledge(view).do_not_collect)
    return _rank_set(known_elsewhere_ranks(view))


def maybe_elsewhere(view: KempsView) -> set[Rank]:
    """The ranks some card of which may be in another player's hand."""
    return _rank_set(maybe_elsewhere_ranks(view))


class _Elsewhere(Protocol):
    """What the planner reads of a seat's view (`KempsView` gives it)."""

    def elsewhere_cards(self) -> tuple[int, int]:
        """The cards only another seat may hold, and those another seat may hold (masks)."""
        ...


def _elsewhere_cards(view: KempsView) -> tuple[int, int]:
    """`view.elsewhere_cards()` (most often answered without making the knowledge)."""
    # Read as the protocol, not as `KempsView`: compiled, a read typed with that class
    # checks the object's class, and a test's view may be any object that answers.
    reader: _Elsewhere = view
    return reader.elsewhere_cards()


def known_elsewhere_ranks(view: KempsView) -> int:
    """`do_not_collect` on exact knowledge as a mask of rank indices (bit `r`: rank r + 2):
    the ranks with a card whose only possible holder is another seat."""
    return _card_ranks(_elsewhere_cards(view)[0])


def maybe_elsewhere_ranks(view: KempsView) -> int:
    """`maybe_elsewhere` as a mask of rank indices (bit `r`: rank r + 2)."""
    return _card_ranks(_elsewhere_cards(view)[1])


def _elsewhere_ranks(view: KempsView) -> tuple[int, int]:
    """`(known_elsewhere_ranks(view), maybe_elsewhere_ranks(view))`, from one read."""
    known, maybe = _elsewhere_cards(view)
    return _card_ranks(known), _card_ranks(maybe)


def _card_ranks(cards: int) -> int:
    """The ranks of a mask of layout cards, which list the deck rank by rank (four each)."""
    ranks = rank = 0
    while cards:
        if cards & 15:
            ranks |= 1 << rank
        cards >>= 4
        rank += 1
    return ranks


def _rank_set(mask: int) -> set[Rank]:
    return {_RANK[r] for r in iter_bits(mask)}


def _rank_bits(ranks: Iterable[Rank]) -> int:
    # `tuple.index` finds an enum member by identity first; its hash is Python code.
    bits = 0
    for rank in ranks:
        bits |= 1 << _RANK.index(rank)
    return bits


@dataclass
class SwapSheet:
    """The swaps of a turn being planned: each takes a table card for the first spare.

    `hand`, `table` and `spares` are the planner's own lists, updated in place.
    """

    hand: list[Card]
    table: list[Card]
    spares: list[Card]
    swaps: list[Swap] = field(default_factory=list)
    taken: list[Card] = field(default_factory=list)
    put_down: set[Card] = field(default_factory=set)

    def take(self, card: Card) -> Card:
        """Swap `card` from the table for the first spare; returns the spare put down."""
        put = self.spares.pop(0)
        slot = self.table.index(card)
        self.swaps.append(swap(slot, put))
        self.taken.append(card)
        self.hand[self.hand.index(put)] = card
        self.table[slot] = put
        self.put_down.add(put)
        return put


def plan_turn(
    view: KempsView,
    rng: random.Random,
    kb_based: bool,
    blocking: bool,
    seed_compat: bool,
    seed_kb: SeedKnowledge | None = None,
) -> Plan:
    """The report's plan for this turn, from the hand and table at its start.

    With `seed_compat`, `seed_kb` is the program's knowledge base for the seat, up to date
    (made from the log when not given).
    """
    hand, table = view.hand, view.table
    # Ranks as ints (`Card.index % 13`, found once per card in a dict: an enum's hash is
    # Python code, and so is a card's `==`), counted in the order they are first seen,
    # hand first: ties go to that order. Sets of ranks are masks of rank ints.
    rank_of = _RANK_OF
    hand_ranks = [rank_of[card] for card in hand]
    table_ranks = [rank_of[card] for card in table]
    counts = [0] * _RANKS
    order: list[int] = []
    for r in hand_ranks:
        if not counts[r]:
            order.append(r)
        counts[r] = counts[r] + 1
    for r in table_ranks:
        if not counts[r]:
            order.append(r)
        counts[r] = counts[r] + 1
    avoided: tuple[Rank, ...] = ()
    # The do-not-collect list and the ranks that may be in another hand (or, with
    # `seed_compat`, that the program's base says may be).
    dnc = elsewhere = 0
    if kb_based:
        if seed_compat:
            kb = seed_kb if seed_kb is not None else seed_knowledge(view)
            dnc = _rank_bits(kb.do_not_collect)
            elsewhere = _rank_bits(_RANK[r] for r in order if kb.may_be_elsewhere(_RANK[r]))
        else:
            dnc, elsewhere = _elsewhere_ranks(view)
        avoid = dnc | elsewhere
        if avoid:
            avoided = tuple([_RANK[r] for r in order if avoid >> r & 1])
            if avoided:
                order = [r for r in order if not avoid >> r & 1]
        if not order:
            return _plan((), (), (), avoided)
    # The most frequent ranks, as many as fit in four cards (at least one).
    if len(order) > 1:
        _by_count(order, counts)
    first = order[0]
    total = counts[first]
    chosen = 1 << first
    collect = [_RANK[first]]
    for i in range(1, len(order)):
        r = order[i]
        total += counts[r]
        if total > _KIND:
            break
        chosen |= 1 << r
        collect.append(_RANK[r])
    discards = []
    for i in range(len(hand)):
        if not chosen >> hand_ranks[i] & 1:
            discards.append(hand[i])
    if len(discards) > 1:
        _shuffle(discards, rng)
    if blocking:
        # The program's bug passes a card where a rank is expected: always false.
        blocks = dnc if seed_compat else dnc | elsewhere
        return _plan_blocking(
            (hand, table, hand_ranks, table_ranks),
            chosen,
            discards,
            blocks,
            tuple(collect),
            avoided,
        )
    # Each wanted table card is taken from its own slot, in table order.
    swaps = []
    if discards:
        for slot in range(len(table)):
            if chosen >> table_ranks[slot] & 1:
                swaps.append(_swap(slot, discards.pop(0)))
                if not discards:
                    break
    return _plan(tuple(swaps), tuple(collect), (), avoided)


def _by_count(order: list[int], counts: list[int]) -> None:
    """Sort the ranks of `order` by their counts, most first, equal counts in the order
    given (stable, as `Counter.most_common`): an insertion sort of at most ten ranks,
    cheaper compiled than `list.sort` with a key."""
    for i in range(1, len(order)):
        r = order[i]
        count = counts[r]
        j = i
        while j > 0 and counts[order[j - 1]] < count:
            order[j] = order[j - 1]
            j -= 1
        order[j] = r


#: What `_plan_blocking` plans on: the hand, the table and their cards' rank ints.
_InView = tuple[tuple[Card, ...], tuple[Card, ...], list[int], list[int]]


def _plan_blocking(
    seen: _InView,
    chosen: int,
    discards: list[Card],
    blocks: int,
    collect: tuple[Rank, ...],
    avoided: tuple[Rank, ...],
) -> Plan:
    """`plan_turn`'s blocking part: take the table cards of the `chosen` ranks, then
    block the ranks of `blocks` with the discards left (both masks of rank ints)."""
    # The turn's swaps as `SwapSheet` makes them, on the planner's lists (a card is found
    # by identity, not by its `==`); the hand is kept as a set.
    hand, table, hand_ranks, table_ranks = seen
    slots = list(table)
    planned: list[Swap] = []
    put_down: set[Card] = set()
    in_hand = set(hand)
    if discards:
        for i in range(len(table)):
            if chosen >> table_ranks[i] & 1:
                _take(table[i], slots, discards, planned, put_down, in_hand)
                if not discards:
                    break
    blocked: list[Card] = []
    if blocks:
        n = len(hand)
        for i in range(n + len(table)):
            if not discards:
                break
            card, r = (hand[i], hand_ranks[i]) if i < n else (table[i - n], table_ranks[i - n])
            if not blocks >> r & 1 or chosen >> r & 1:
                continue
            if card in in_hand:
                _remove(discards, card)  # it blocks already: keep it
            elif card not in put_down:  # no taking back a card put down this turn
                _take(card, slots, discards, planned, put_down, in_hand)
                blocked.append(card)
    return _plan(tuple(planned), collect, tuple(blocked), avoided)


def _take(
    card: Card,
    slots: list[Card],
    discards: list[Card],
    planned: list[Swap],
    put_down: set[Card],
    in_hand: set[Card],
) -> None:
    """Plan taking `card` from the table for the first discard (`SwapSheet.take`)."""
    put = discards.pop(0)
    slot = _find(slots, card)
    planned.append(_swap(slot, put))
    slots[slot] = put
    put_down.add(put)
    in_hand.discard(put)
    in_hand.add(card)


#: Each card's rank as an int, `Card.index % 13` (0 for 2s … 12 for aces).
_RANK_OF: Final[dict[Card, int]] = {card: card.index % _RANKS for card in kemps_deck(_RANKS)}
#: Per table slot (a table has at most 12), each card's `Swap` as `swap` makes it: a
#: dictionary read here costs a tenth of a call of that Python function.
_SWAPS_AT: Final[list[dict[Card, Swap]]] = [{} for _ in range(16)]


def _swap(slot: int, card: Card) -> Swap:
    """`swap(slot, card)`, the same value, kept per slot."""
    if slot >= len(_SWAPS_AT):
        return swap(slot, card)
    made = _SWAPS_AT[slot].get(card)
    if made is None:
        made = _SWAPS_AT[slot][card] = swap(slot, card)
    return made


def _find(cards: list[Card], card: Card) -> int:
    """`cards.index(card)` by identity (a card's `==` is Python code)."""
    for i in range(len(cards)):
        if cards[i] is card:
            return i
    raise ValueError(f"{card} is not in the list")


def _remove(cards: list[Card], card: Card) -> None:
    """`cards.remove(card)` by identity (a card's `==` is Python code)."""
    del cards[_find(cards, card)]


#: `m.bit_length()` of the lengths a shuffle of a hand's discards meets (compiled, the
#: method is a call).
_BIT_LENGTH: Final = tuple(m.bit_length() for m in range(9))


def _shuffle(cards: list[Card], rng: random.Random) -> None:
    """`rng.shuffle(cards)`, written out: the same draws (`getrandbits`, as `Random`'s
    `_randbelow` makes them), without a Python call per draw."""
    n = len(cards)
    if n < 2:
        return
    getrandbits = rng.getrandbits  # a `SeededOnUse` becomes a `Random` here
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    for i in range(n - 1, 0, -1):
        k = _BIT_LENGTH[i + 1] if i < len(_BIT_LENGTH) - 1 else (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
