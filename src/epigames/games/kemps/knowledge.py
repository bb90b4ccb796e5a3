"""Each seat's knowledge of where every Kemps card is: derived from the public log.

The card engine (`epigames.cards`) keeps the public facts: counts, the table's cards,
public moves, reshuffles (`Reshuffled`) and new hands drawn face down (`Drew`). One more
kind of fact is Kemps's own: a turn that ends without a Kemps shows that the player's
four cards are not four of a kind (`NoKemps`). That is kept here as *not-all* facts, one
per rank: "seat p does not hold all of these cards", which the engine takes as
`CardKnowledge.create(not_all=...)`.

A not-all fact is about the seat's hand when its turn ended. The seat's hand changes
only by public moves (its swaps, its Kemps) until it draws a new hand, so the fact stays
exact when updated move by move: a card the seat puts down was in that hand, and is
struck from the set; a card it takes was not, so the fact was satisfied and is dropped;
a new hand drops all of the seat's facts.

The team game adds a private fact: a partner's signal says "my four cards are of one
rank", a disjunction over the ranks, which the engine's conjunctive facts cannot hold.
The partner keeps it as a case split (`HoldsAll`: the signaller holds all of one of these
sets of cards), updated by the public moves as the not-all facts are, and its knowledge
(`SplitKnowledge`) combines one `KempsKnowledge` per case, each with the case's cards
held, weighted by its number of consistent deals. The cases are disjoint (the signaller's
hand was four cards of one rank), so counts, probabilities and samples stay exact.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from epigames.cards import (
    DECK,
    DISCARD,
    OUT,
    TABLE,
    CardKnowledge,
    CardLayout,
    Drew,
    HolderRef,
    Holds,
    Moved,
    PublicInfo,
)
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.facts import apply_facts, start_from_counts
from epigames.cards.feasibility import possible_by_hall
from epigames.cards.public import iter_bits, popcount, public_info
from epigames.cards.slots import rebuilt
from epigames.cards.symbolic import MAX_COMBINATIONS
from epigames.games.events import Event
from epigames.games.kemps.actions import HAND_SIZE, OF_A_KIND, kemps_deck
from epigames.games.kemps.events import (
    Called,
    GameDealt,
    GameOver,
    Kemps,
    NewHand,
    NoKemps,
    Passed,
    Places,
    Swapped,
    TableCleared,
    TableDealt,
    TeamTurnEnded,
    TurnEnded,
)
from epigames.games.kemps.makers import field_maker
from epigames.games.kemps.picture import nobody_as_places, report_picture
from epigames.logic.formula import Formula
from epigames.logic.picture import KripkePicture

#: `(seat, cards as a bitmask)`: the seat does not hold all of those cards.
NotAll = tuple[int, int]

#: `OF_A_KIND` as a static: compiled, a name imported from a plain module is looked up in
#: this module's dictionary at every use.
_KIND: Final = OF_A_KIND


@functools.cache
def layout_for(ranks: int, seat_names: tuple[str, ...]) -> CardLayout:
    """The seats, then the table (face up), the deck, the discard pile, out of the game."""
    return CardLayout.with_locations(kemps_deck(ranks), seat_names, (TABLE, DECK, DISCARD, OUT))


def rank_masks(layout: CardLayout) -> tuple[int, ...]:
    """The bitmask of each rank's four cards."""
    return _tables(layout)[0]


def card_bits(layout: CardLayout) -> dict[Hashable, int]:
    """Card → its bit in `layout` (the layout's `card_index`, as a dict read in C)."""
    return _tables(layout)[1]


#: A layout's `rank_masks`, `card_bits` and the mask of all its cards.
_Tables = tuple[tuple[int, ...], dict[Hashable, int], int]


def _tables(layout: CardLayout) -> _Tables:
    """`rank_masks`, `card_bits` and the mask of every card of `layout`."""
    # The last layout asked about, found by identity: a cache keyed by the layout would
    # hash it (a frozen dataclass's Python `__hash__` over every card), and every new
    # state's tracker and every decision's knowledge asks.
    last = _LAST_TABLES
    if last and last[0][0] is layout:
        return last[0][1]
    tables = _made_tables(layout)
    _LAST_TABLES[:] = [(layout, tables)]
    return tables


@functools.cache
def _made_tables(layout: CardLayout) -> _Tables:
    cards = layout.cards
    ranks = tuple(
        layout.card_mask(cards[i : i + OF_A_KIND]) for i in range(0, len(cards), OF_A_KIND)
    )
    return ranks, {card: 1 << i for i, card in enumerate(cards)}, (1 << len(cards)) - 1


#: `(layout, _tables(layout))` of the last layout asked about.
_LAST_TABLES: Final[list[tuple[CardLayout, _Tables]]] = []


@dataclass(frozen=True, slots=True)
class PublicKemps:
    """The public information of a Kemps game at one moment: the card engine's facts
    and the live not-all facts."""

    public: PublicInfo
    not_all: tuple[NotAll, ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def apply(self, event: Event) -> PublicKemps:
        """The public information after one public announcement: its facts applied.

        `PublicTracker` folds the events of every move without making their facts; this
        is the reference that the tests check it against.
        """
        public, not_all = self.public, list(self.not_all)
        # The card engine's facts go in as one batch (one check of the table at its end);
        # a not-all fact is about the hand at its moment, so it waits for the batch.
        batch: list[object] = []
        for fact in event.facts:
            kind = type(fact)
            if kind is NoKemps:
                assert isinstance(fact, NoKemps)
                if batch:
                    public, batch = apply_facts(public, batch), []
                not_all.extend(_no_kemps(public, fact.holder, not_all))
                continue
            batch.append(fact)
            if kind is Moved and not_all:
                assert isinstance(fact, Moved)
                not_all = _moved(public, not_all, fact.src, fact.dst, fact.card)
            elif kind is Drew:
                assert isinstance(fact, Drew)
                not_all = [(h, cards) for h, cards in not_all if h != fact.holder]
        if batch:
            public = apply_facts(public, batch)
        return PublicKemps(public, tuple(not_all))


def _no_kemps(public: PublicInfo, seat: int, known: Sequence[NotAll]) -> list[NotAll]:
    """The not-all facts a turn of `seat` ended without a Kemps adds (none already kept)."""
    return _no_kemps_in(public.layout, public.holding, public.lacking, public.removed, seat, known)


def _no_kemps_in(
    layout: CardLayout,
    holding: Sequence[int],
    lacking: Sequence[int],
    removed: int,
    seat: int,
    known: Sequence[NotAll],
) -> list[NotAll]:
    """`_no_kemps` over the public information's parts."""
    elsewhere = removed
    for h, mask in enumerate(holding):
        if h != seat:
            elsewhere |= mask
    found: list[NotAll] = []
    _no_kemps_facts(
        rank_masks(layout), holding[seat], elsewhere | lacking[seat], seat, list(known), found
    )
    return found


def _no_kemps_facts(
    ranks: tuple[int, ...],
    held: int,
    elsewhere: int,
    seat: int,
    known: list[NotAll],
    found: list[NotAll],
) -> int:
    """Append to `found` the not-all facts a turn of `seat` ended without a Kemps adds
    (none of `known`); the cards they name, as one mask.

    `held`: the seat's known cards; `elsewhere`: the cards known to be off its hand
    (elsewhere, out of play or lacked by it). `found` may be `known` itself: it is read
    before anything is appended.
    """
    # A rank with a card the seat is known not to have says nothing new.
    # So does one when the seat is known to hold a card of another rank: with a known
    # card, only that card's rank (the layout lists the deck rank by rank, four each).
    if held:
        mask = ranks[((held & -held).bit_length() - 1) // _KIND]
        if not held & ~mask and not mask & elsewhere and not _has(known, seat, mask):
            found.append((seat, mask))
            return mask
        return 0
    # The whole ranks the seat's facts already name, found in one pass over the facts
    # (rank masks are disjoint: a rank is kept iff it lies in this union).
    kept = 0
    for h, cards in known:
        if h == seat and cards == ranks[((cards & -cards).bit_length() - 1) // _KIND]:
            kept |= cards
    elsewhere |= kept
    named = 0
    for mask in ranks:
        if not mask & elsewhere:
            found.append((seat, mask))
            named |= mask
    return named


def _has(facts: list[NotAll], seat: int, cards: int) -> bool:
    """`(seat, cards) in facts`, compared as ints (compiled: no tuple made and compared)."""
    return any(h == seat and mask == cards for h, mask in facts)


def mask_other(public: PublicInfo, seat: int, mask: int) -> bool:
    """Whether `seat` is known to hold a card outside `mask`."""
    return bool(public.holding[seat] & ~mask)


def _moved(
    public: PublicInfo, not_all: list[NotAll], src: int, dst: int, card: Hashable
) -> list[NotAll]:
    return _moved_bit(public.layout, not_all, src, 1 << public.layout.card_index(card))


def _moved_bit(layout: CardLayout, not_all: list[NotAll], src: int, bit: int) -> list[NotAll]:
    """The not-all facts after a public move of the card `bit` from `src` (the same list
    when no fact names the card, as for most moves)."""
    for fact in not_all:
        if fact[1] & bit:
            break
    else:
        return not_all
    kept = []
    for fact in not_all:
        h, mask = fact
        if not mask & bit:
            kept.append(fact)
        elif h == src:
            rest = mask & ~bit
            if not rest:
                raise InconsistentCardsError(
                    f"{layout.holders[h]} held all of a set it was announced not to"
                )
            kept.append((h, rest))
        # A move to h or between others: the card was not with h, so the fact was satisfied.
    return kept


#: `object.__setattr__`, called through a name: mypyc compiles the direct call for the
#: class's own fields only, and fails on an inherited one (`CardKnowledge`'s caches).
_set_field: Final = object.__setattr__


class KempsKnowledge(CardKnowledge):
    """A seat's exact knowledge of where every card is (`CardKnowledge` with the game's
    not-all facts); its known values name places too, since in Kemps a card's place is
    the subject of the knowledge."""

    # No new fields, so no dataclass of its own: `CardKnowledge.__init__` sets every field
    # and cache. (Compiled with it, by `epigames.native`: no `__slots__` either.)

    @classmethod
    def of(cls, public: PublicKemps, seat: int, hand: Sequence[Hashable]) -> KempsKnowledge:
        """The knowledge of `seat` holding `hand` under the public facts."""
        info = public.public
        mask = info.layout.card_mask(hand)
        if cls is KempsKnowledge:
            return _new_kemps(info, seat, mask, public.not_all)
        return cls(info, seat, mask, not_all=public.not_all)

    def _possible_masks(self) -> tuple[int, ...]:
        # Where every not-all fact is a lack in disguise or can break no deal, the deals
        # are those of a transportation problem, which Hall's condition decides card by
        # card (`_by_hall`); the card engine's full path answers the rest (about one
        # decision in eight of a `kbblocking` game).
        masks = self._possible
        if masks is None:
            agent = self._agent_seat()
            if agent >= 0 and not self.seen_holds and not self.seen_lacks:
                masks = _by_hall(self.public, agent, self.hand, self.not_all)
            if masks is None:
                return CardKnowledge._possible_masks(self)
            _set_field(self, "_possible", masks)
        return masks

    def _agent_seat(self) -> int:
        agent = self.agent
        return -1 if agent is None else agent

    def picture(self, subject: str) -> KripkePicture:
        """A card's picture in the report's worlds: nobody holds it, or player i does
        (`kemps.picture.report_picture` of the card engine's picture by place).

        Raises:
            UnknownCardError: no such card, or it has left play.
        """
        layout = self.layout
        players = [layout.holders[p] for p in sorted(layout.players)]
        # Zero-argument super() fails in slotted dataclasses, hence the explicit base.
        return report_picture(CardKnowledge.picture(self, subject), players)

    def knows(self, formula: Formula, *, limit: int | None = MAX_COMBINATIONS) -> bool:
        """As `CardKnowledge.knows`; also reads the pictures' ``holds(nobody, c)``: the card
        is in no hand (on the table, in the deck, on the discard pile or out of the game)."""
        layout = self.layout
        places = [layout.holders[h] for h in range(layout.n_holders) if h not in layout.players]
        asked = nobody_as_places(formula, places)
        return CardKnowledge.knows(self, asked, limit=limit)

    def known_values(self) -> dict[str, str]:
        """Card text → the name of its holder (a seat or a place), for every known card.

        Unlike `CardKnowledge.known_values`, also the face-up table's cards: they are in
        play and have pictures here, and the protocol lists every known subject.
        """
        layout = self.layout
        return {
            layout.card_name(c): layout.holders[h]
            for c, h in enumerate(self.known_holders())
            if h >= 0
        }


#: `KempsKnowledge(*fields)`, every field of `CardKnowledge` in order, through their setters.
_make_kemps: Final = field_maker(KempsKnowledge, CardKnowledge)
#: The caches of a new knowledge (the fields `__init__` does not take): empty.
_NO_CACHES: Final = (None,) * sum(not f.init for f in dataclasses.fields(CardKnowledge))
#: Whether this module and the card engine run compiled by mypyc (`epigames.native`): then
#: a knowledge's fields are native attributes that code compiled with them sets directly.
_NATIVE: Final = hasattr(CardKnowledge, "__mypyc_attrs__")


def _new_kemps(
    public: PublicInfo, seat: int, hand: int, not_all: tuple[NotAll, ...]
) -> KempsKnowledge:
    """`KempsKnowledge(public, seat, hand, not_all=not_all)`, made for every decision of a
    strategy that reads knowledge: its dataclass `__init__` is Python code even compiled.

    Compiled, the fields are set directly (a few native stores, where the frozen
    dataclass's `__setattr__` would refuse them from Python); in plain Python, through
    the fields' own setters (`_make_kemps`).
    """
    if not _NATIVE:
        return _make_kemps(public, seat, hand, (), (), not_all, *_NO_CACHES)
    made = KempsKnowledge.__new__(KempsKnowledge)
    _fill(made, public, seat, hand, not_all)
    return made


def _new_public(
    layout: CardLayout,
    counts: tuple[int, ...],
    holding: tuple[int, ...],
    lacking: tuple[int, ...],
    not_all: tuple[NotAll, ...],
) -> PublicKemps:
    """`PublicKemps(PublicInfo(layout, counts, holding, lacking, 0, (), ()), not_all)`: the
    tracker's value, made for every decision that reads knowledge.

    Compiled, the `PublicKemps` is made by native stores, as `_new_kemps` makes a
    knowledge (its dataclass `__init__` is Python code), and the card engine's
    `public_info` makes the `PublicInfo` so.
    """
    public = public_info(layout, counts, holding, lacking, 0, (), ())
    if not _NATIVE:
        return PublicKemps(public, not_all)
    made = PublicKemps.__new__(PublicKemps)
    made.public = public  # type: ignore[misc]
    made.not_all = not_all  # type: ignore[misc]
    return made


def _fill(
    made: CardKnowledge, public: PublicInfo, seat: int, hand: int, not_all: tuple[NotAll, ...]
) -> None:
    """Set every field of a new knowledge (compiled: native stores past the frozen check)."""
    made.public = public  # type: ignore[misc]
    made.agent = seat  # type: ignore[misc]
    made.hand = hand  # type: ignore[misc]
    made.seen_holds = ()  # type: ignore[misc]
    made.seen_lacks = ()  # type: ignore[misc]
    made.not_all = not_all  # type: ignore[misc]
    made._problem = None  # type: ignore[misc]
    made._solution = None  # type: ignore[misc]
    made._possible = None  # type: ignore[misc]
    made._known = None  # type: ignore[misc]


def _by_hall(
    public: PublicInfo, agent: int, hand: int, facts: Sequence[NotAll]
) -> tuple[int, ...] | None:
    """Every holder's possible cards by Hall's condition, or None where that is not exact.

    The card engine's shortcut for facts without at-least-one sets or groups
    (`CardKnowledge._direct_possible`: each free card to a holder that does not lack it,
    each holder its count), over the public information's parts as Kemps has them, with
    the not-all facts as `_fact_lacks` reads them. None when a fact may bind, and where
    the facts admit no deal: the engine's full path then answers, or raises the error
    that says why.
    """
    if public.constraints or public.groups:
        return None
    ranks, _, every = _tables(public.layout)
    counts, holding = list(public.counts), list(public.holding)
    rooms = [counts[h] - popcount(holding[h]) for h in range(len(counts))]
    elsewhere = public.removed  # cards known to be off the agent's hand
    for h in range(len(counts)):
        if h != agent:
            elsewhere |= holding[h]
    return _hall_parts(
        ranks,
        every,
        counts,
        holding,
        list(public.lacking),
        rooms,
        list(facts),
        agent,
        hand,
        elsewhere,
    )


def _hall_parts(
    ranks: tuple[int, ...],
    every: int,
    counts: list[int],
    holding: list[int],
    lacking: list[int],
    rooms: list[int],
    facts: list[NotAll],
    agent: int,
    hand: int,
    elsewhere: int,
) -> tuple[int, ...] | None:
    """`_by_hall` over the parts (`rooms`: each holder's count less its known cards;
    `elsewhere`: the cards known to be off the agent's hand), as the tracker keeps them:
    nothing made but the answer."""
    if (
        popcount(hand) != counts[agent]
        or hand & (elsewhere | lacking[agent])
        or holding[agent] & ~hand
    ):
        return None
    free = every & ~(elsewhere | hand)
    extra = _fact_lacks(ranks, counts, holding, lacking, rooms, agent, hand, free, facts)
    if extra is None:
        return None
    return _hall_masks(counts, holding, lacking, rooms, agent, hand, free, extra)


def _hall_masks(
    counts: list[int],
    holding: list[int],
    lacking: list[int],
    rooms: list[int],
    agent: int,
    hand: int,
    free: int,
    extra: list[int],
) -> tuple[int, ...] | None:
    """`_hall_parts` once its checks pass: `free`, the cards of unknown place off the
    agent's hand; `extra`, the lacks the not-all facts add (`_fact_lacks`)."""
    n = len(counts)
    # Where no holder with room is kept off a free card (the usual case), each may take
    # every free card: nothing is tight (`possible_by_hall`'s first case), and no list
    # of what each may take is made.
    narrowed = any_room = False
    for h in range(n):
        if h != agent:
            cap = rooms[h]
            if cap:
                if cap < 0:
                    return None
                any_room = True
                if free & (lacking[h] | extra[h] if extra else lacking[h]):
                    narrowed = True
                    break
    if not narrowed:
        if free and not any_room:
            return None
        found = [0] * n
        for h in range(n):
            if h == agent:
                found[h] = hand
            elif rooms[h]:
                found[h] = holding[h] | free
            else:
                found[h] = holding[h]
        return tuple(found)
    active: list[int] = []
    caps: list[int] = []
    may: list[int] = []
    reach = 0
    for h in range(n):
        if h == agent:
            continue
        cap = rooms[h]
        if cap:
            if cap < 0:
                return None
            allowed = free & ~(lacking[h] | extra[h]) if extra else free & ~lacking[h]
            active.append(h)
            caps.append(cap)
            may.append(allowed)
            reach |= allowed
    if free & ~reach:
        return None
    result = possible_by_hall(active, caps, may, free, n)
    if result is None:
        return None
    for h in range(n):
        result[h] = result[h] | (hand if h == agent else holding[h])
    return tuple(result)


def _hall_elsewhere(
    ranks: tuple[int, ...],
    every: int,
    counts: list[int],
    holding: list[int],
    lacking: list[int],
    rooms: list[int],
    facts: list[NotAll],
    agent: int,
    hand: int,
    elsewhere: int,
    players: int,
) -> tuple[int, int] | None:
    """`elsewhere_of(_hall_parts(...), agent, players)`, or None where that is None.

    In Hall's first case (no holder with room kept off a free card) the free cards may go
    to every holder with room and nowhere else, and each known card only to its holder:
    the answer is read off the parts, with no masks made.
    """
    n = len(counts)
    if (
        popcount(hand) != counts[agent]
        or hand & (elsewhere | lacking[agent])
        or holding[agent] & ~hand
    ):
        return None
    free = every & ~(elsewhere | hand)
    extra = _fact_lacks(ranks, counts, holding, lacking, rooms, agent, hand, free, facts)
    if extra is None:
        return None
    with_room = 0
    for h in range(n):
        if h != agent:
            cap = rooms[h]
            if cap:
                if cap < 0:
                    return None
                with_room += 1
                if free & (lacking[h] | extra[h] if extra else lacking[h]):
                    masks = _hall_masks(counts, holding, lacking, rooms, agent, hand, free, extra)
                    return None if masks is None else elsewhere_of(masks, agent, players)
    if free and not with_room:
        return None
    others = 0
    for h in range(players):
        if h != agent:
            others |= (holding[h] | free) if rooms[h] else holding[h]
    # A free card has two possible holders or more unless only one holder has room.
    return (others & ~free if with_room > 1 else others), others


def elsewhere_of(masks: Sequence[int], seat: int, players: int) -> tuple[int, int]:
    """From every holder's possible cards: the cards whose only possible holder is another
    seat than `seat` (of the first `players` holders), and those another seat may hold."""
    once = twice = 0
    for mask in masks:
        twice |= once & mask
        once |= mask
    others = 0
    for h in range(players):
        if h != seat:
            others |= masks[h]
    return others & ~twice, others


#: No lacks beyond the public ones (`_fact_lacks`).
_NO_LACKS: Final[list[int]] = []


def _fact_lacks(
    ranks: tuple[int, ...],
    counts: list[int],
    holding: list[int],
    lacking: list[int],
    rooms: list[int],
    agent: int,
    hand: int,
    free: int,
    facts: list[NotAll],
) -> list[int] | None:
    """Per holder, the cards the not-all facts say it lacks; None where a fact may bind.

    A fact that no deal consistent with the rest can break rules out no deal: it names a
    card known to be elsewhere or lacked by its holder, or more unknown cards than its
    holder has room for (the agent's own: not all in its hand). A fact whose holder is
    known to hold all its cards but one says that the holder lacks that one. The others,
    each two or more unknown cards of one rank, rule out deals but no card's holder when
    the unknown cards may go to any holder with room (nobody lacks one, and no fact is a
    lack) and they have a rank for each such room of the facts' holders, plus one: put the
    card asked about where it is asked, give those holders cards of different ranks (none
    then holds two cards of one rank, so none holds all of a fact's), and the rest
    anywhere. An empty list: no lacks.
    """
    if not facts:
        return _NO_LACKS
    known = ~free  # known cards, and bits past the deck
    extra: list[int] = []
    bound = 0  # the holders of facts that deals may break
    for h, cards in facts:
        if h == agent:
            if not cards & ~hand:
                return None
            continue
        held = holding[h]
        if cards & (known & ~held | lacking[h]):
            continue
        unknown = cards & ~held
        size = popcount(unknown)
        if size > rooms[h]:
            continue
        if size == 1:
            if not extra:
                extra = [0] * len(counts)
            extra[h] = extra[h] | unknown
            continue
        # The layout lists the deck rank by rank, four cards each.
        rank = ranks[((unknown & -unknown).bit_length() - 1) // _KIND]
        if size < 2 or unknown & ~rank:
            return None
        bound |= 1 << h
    if not bound:
        return extra
    if extra:
        return None
    room = 0
    for h in range(len(counts)):
        space = rooms[h]
        if h == agent or space <= 0:
            continue
        if lacking[h] & free:
            return None
        if bound >> h & 1:
            room += space
    wanted = 0
    for rank in ranks:
        if rank & free:
            wanted += 1
    if wanted > room:
        return extra
    return None


@dataclass(frozen=True, slots=True)
class HoldsAll:
    """What a signal told the partner: `seat` holds all the cards of one of `cases`
    (bitmasks, disjoint ranks at first; cards leave a case as the seat puts them down)."""

    seat: int
    cases: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def after(self, layout: CardLayout, fact: object) -> HoldsAll | None:
        """The fact after a public fact; None once it says nothing more.

        Raises:
            InconsistentCardsError: no case is left (the log contradicts the signal).
        """
        kind, seat, cases = type(fact), self.seat, self.cases
        if kind is Moved:
            assert isinstance(fact, Moved)
            bit = 1 << layout.card_index(fact.card)
            # A card of the case leaving the seat was one of its cards; leaving another
            # holder, the case is wrong; a card outside it leaving a full hand of the case
            # (four cards) shows the case wrong too.
            cases = tuple(
                m & ~bit if m & bit else m
                for m in cases
                if (m & bit and fact.src == seat)
                or (not m & bit and not (fact.src == seat and _full(m)))
            )
        elif kind is Holds:
            assert isinstance(fact, Holds)
            bit = 1 << layout.card_index(fact.card)
            cases = tuple(
                m
                for m in cases
                if (fact.holder == seat and (m & bit or not _full(m)))
                or (fact.holder != seat and not m & bit)
            )
        elif kind is NoKemps:
            assert isinstance(fact, NoKemps)
            if fact.holder == seat:
                cases = tuple(m for m in cases if not _full(m))
        if not cases:
            raise InconsistentCardsError(
                f"{layout.holders[seat]} signalled four of a kind the log contradicts"
            )
        if 0 in cases:
            return None  # one case is satisfied whatever the seat holds now
        return HoldsAll(seat, cases)


def _full(mask: int) -> bool:
    return mask.bit_count() == HAND_SIZE


def signal_cases(layout: CardLayout, seen: int) -> tuple[int, ...]:
    """The ranks a signal may be about: those with no card in `seen` (bitmask of the cards
    the partner knows are not with the signaller)."""
    return tuple(m for m in rank_masks(layout) if not m & seen)


class SplitKnowledge(KempsKnowledge):
    """A seat's knowledge under signals: the union of disjoint cases, each a
    `KempsKnowledge` with a case's cards held, weighted by its consistent deals."""

    # Not a dataclass: a slotted dataclass would shadow the fields of a compiled base.
    cases: tuple[tuple[int, KempsKnowledge], ...]

    def __init__(
        self,
        public: PublicInfo,
        agent: int,
        hand: int,
        not_all: tuple[tuple[int, int], ...],
        cases: tuple[tuple[int, KempsKnowledge], ...],
    ) -> None:
        super().__init__(public, agent, hand, not_all=not_all)
        object.__setattr__(self, "cases", cases)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return SplitKnowledge, (self.public, self.agent, self.hand, self.not_all, self.cases)

    @classmethod
    def split(
        cls, public: PublicKemps, seat: int, hand: Sequence[Hashable], signals: Sequence[HoldsAll]
    ) -> KempsKnowledge:
        """The knowledge of `seat` holding `hand`, told `signals`: one case per choice of a
        case from each signal; a single consistent case is a plain `KempsKnowledge`."""
        layout = public.public.layout
        mask = layout.card_mask(hand)
        found: list[tuple[int, KempsKnowledge]] = []
        for choice in itertools.product(*(s.cases for s in signals)):
            holds = tuple(
                (c, s.seat) for s, m in zip(signals, choice, strict=True) for c in iter_bits(m)
            )
            case = KempsKnowledge(
                public.public, seat, mask, seen_holds=holds, not_all=public.not_all
            )
            try:
                weight = case.worlds_count()
                case.possible_masks()
            except InconsistentCardsError:
                continue
            if weight:
                found.append((weight, case))
        if not found:
            raise InconsistentCardsError(f"no deal fits what {layout.holders[seat]} was told")
        if len(found) == 1:
            return found[0][1]
        return cls(public.public, seat, mask, public.not_all, tuple(found))

    def worlds_count(self) -> int:
        """The number of consistent deals, over every case."""
        return sum(w for w, _ in self.cases)

    def _possible_masks(self) -> tuple[int, ...]:
        masks = [0] * self.layout.n_holders
        for _, case in self.cases:
            for h, cards in enumerate(case.possible_masks()):
                masks[h] |= cards
        return tuple(masks)

    def known_holders(self) -> tuple[int, ...]:
        """Per card index, the holder every case agrees on, or -1."""
        known = [list(case.known_holders()) for _, case in self.cases]
        return tuple(
            column[0] if all(h == column[0] for h in column) else -1
            for column in zip(*known, strict=True)
        )

    def holder(self, card: Hashable) -> int | None:
        """The holder of `card` if known in every case, else None."""
        h = self.known_holders()[self.layout.card_index(card)]
        return h if h >= 0 else None

    def probability(self, card: Hashable, holder: object) -> Fraction:
        """Exact: each case's probability weighted by its deals."""
        total = self.worlds_count()
        return sum(
            (Fraction(w, total) * case.probability(card, holder) for w, case in self.cases),  # type: ignore[arg-type]
            Fraction(0),
        )

    def marginals(self) -> npt.NDArray[np.float64]:
        """All probabilities (cards × holders), each case weighted by its deals."""
        total = self.worlds_count()
        matrix = sum(case.marginals() * (w / total) for w, case in self.cases)
        result = np.array(matrix, dtype=np.float64)
        result.setflags(write=False)
        return result

    def sample_world(self, rng: random.Random | np.random.Generator) -> tuple[int, ...]:
        """A uniformly random consistent deal: a case by its weight, then a deal of it."""
        total = self.worlds_count()
        if isinstance(rng, random.Random):
            pick = rng.randrange(total)
        else:
            pick = int(rng.integers(total)) if total < 2**63 else int(rng.random() * total)
        for weight, case in self.cases:
            if pick < weight:
                return case.sample_world(rng)
            pick -= weight
        raise AssertionError("the weights sum to the total")

    def knows(self, formula: object, *, limit: int | None = MAX_COMBINATIONS) -> bool:
        """Whether every case knows `formula` (modal ones: each case's structure)."""
        return all(case.knows(formula, limit=limit) for _, case in self.cases)  # type: ignore[arg-type]

    def deals_holding(self, holder: HolderRef, cards: Iterable[Hashable]) -> int:
        """The consistent deals in which `holder` has all of `cards`, summed over the cases."""
        listed = list(cards)
        return sum(case.deals_holding(holder, listed) for _, case in self.cases)


class PublicTracker:
    """Folds a log's public announcements into `PublicKemps`, on demand and incrementally.

    Every seat observes the same announcements in the same order, so one tracker serves
    all seats of a state. It keeps the public information's parts as lists of ints and
    changes them in place, event by event, without making the events' facts (a turn
    makes a `PublicInfo` per fact otherwise); it makes the `PublicKemps` value only when
    asked. The steps are `PublicInfo`'s (`move_all`, `holds`, `reshuffle`,
    `draw_unseen`) on the parts Kemps uses: nothing leaves play and no at-least-one facts
    are made. An event of another kind, or a step those methods would refuse, goes
    through `PublicKemps.apply`, which makes the facts and raises their errors; the tests
    check that both ways give the same value at any point.
    """

    def __init__(self, layout: CardLayout) -> None:
        self._layout = layout
        self._bits = card_bits(layout)
        # Read by every step: kept here rather than found through cached functions.
        tables = _tables(layout)
        self._ranks, self._all = tables[0], tables[2]
        self._public_holders = tuple(sorted(layout.public))
        # The piles' holder indices, as ints: `Places` is a Python object.
        at = Places.of(len(layout.players))
        self._table, self._deck, self._discard, self._out = at.table, at.deck, at.discard, at.out
        self._done = 0
        self._started = False
        self._counts: list[int] = []
        self._holding: list[int] = []
        self._lacking: list[int] = []
        # Per holder, its count less its known cards (the room for unknown cards), kept
        # along so that no step counts a mask's bits.
        self._rooms: list[int] = []
        self._not_all: list[NotAll] = []
        # The unions of `_holding`, of `_lacking` and of the not-all facts' cards, kept
        # along: every step reads them (a move of a card no fact names changes no fact).
        self._known = 0
        self._lacked = 0
        self._named = 0
        self._made: PublicKemps | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A pickled state (OpenSpiel's serialisation) gets a fresh tracker: it folds the
        # log again on demand, so the value it gives is the same.
        return (PublicTracker, (self._layout,))

    def copy(self) -> PublicTracker:
        """An independent tracker at the same point."""
        other = PublicTracker(self._layout)
        other._done, other._started, other._made = self._done, self._started, self._made
        other._counts, other._holding = list(self._counts), list(self._holding)
        other._lacking, other._not_all = list(self._lacking), list(self._not_all)
        other._rooms = list(self._rooms)
        other._known, other._lacked, other._named = self._known, self._lacked, self._named
        return other

    def at(self, events: Sequence[Event], n: int) -> PublicKemps:
        """The public information after the first `n` public announcements.

        Raises:
            ValueError: before the deal is announced.
        """
        if not self._advance(events, n):
            raise ValueError("there is no card knowledge before the deal is over")
        made = self._made
        if made is None:
            made = self._made = self._value()
        return made

    def _advance(self, events: Sequence[Event], n: int) -> bool:
        """Fold up to the first `n` announcements; False before the deal is announced."""
        if n < self._done:
            self._done, self._started, self._made = 0, False, None
        if n > self._done:
            for i in range(self._done, n):
                if not self._fold(events[i]):
                    self._refold(events, i + 1)
            self._done = n
            self._made = None
        return self._started

    def possible(
        self, events: Sequence[Event], n: int, seat: int, hand: tuple[Hashable, ...]
    ) -> tuple[int, ...] | None:
        """`self.knowledge(events, n, seat, hand).possible_masks()` where Hall's condition on
        the parts answers it (`_by_hall`), without making the knowledge; None elsewhere
        (before the deal, or where a not-all fact may bind: the knowledge answers then)."""
        if not self._advance(events, n):
            return None
        bits, mask = self._bits, 0
        for card in hand:
            mask |= bits[card]
        return _hall_parts(
            self._ranks,
            self._all,
            self._counts,
            self._holding,
            self._lacking,
            self._rooms,
            self._not_all,
            seat,
            mask,
            # The known cards less the agent's: the holders' known cards are disjoint.
            self._known & ~self._holding[seat],
        )

    def elsewhere(
        self, events: Sequence[Event], n: int, seat: int, hand: tuple[Hashable, ...], players: int
    ) -> tuple[int, int] | None:
        """`elsewhere_of(masks, seat, players)` of the masks `possible` gives, or None where
        it gives none; without making the masks where Hall's first case holds."""
        if not self._advance(events, n):
            return None
        bits, mask = self._bits, 0
        for card in hand:
            mask |= bits[card]
        return _hall_elsewhere(
            self._ranks,
            self._all,
            self._counts,
            self._holding,
            self._lacking,
            self._rooms,
            self._not_all,
            seat,
            mask,
            self._known & ~self._holding[seat],
            players,
        )

    def knowledge(
        self, events: Sequence[Event], n: int, seat: int, hand: tuple[Hashable, ...]
    ) -> KempsKnowledge:
        """`KempsKnowledge.of(self.at(events, n), seat, hand)` in one call: a view's
        knowledge, asked for at every decision of a strategy that reads it.

        Raises:
            ValueError: before the deal is announced.
        """
        public = self.at(events, n)
        bits, mask = self._bits, 0
        for card in hand:
            mask |= bits[card]
        return _new_kemps(public.public, seat, mask, public.not_all)

    def _value(self) -> PublicKemps:
        return _new_public(
            self._layout,
            tuple(self._counts),
            tuple(self._holding),
            tuple(self._lacking),
            tuple(self._not_all),
        )

    def _refold(self, events: Sequence[Event], n: int) -> None:
        """Fold the first `n` announcements through their facts (raising their errors)."""
        value: PublicKemps | None = None
        for event in events[:n]:
            if value is not None:
                value = value.apply(event)
            elif type(event) is GameDealt:
                value = PublicKemps(start_from_counts(self._layout, event.facts))
        assert value is not None
        self._load(value)

    def _load(self, value: PublicKemps) -> None:
        public = value.public
        self._counts, self._holding = list(public.counts), list(public.holding)
        self._lacking, self._not_all = list(public.lacking), list(value.not_all)
        self._known = self._lacked = 0
        for mask in self._holding:
            self._known |= mask
        for mask in self._lacking:
            self._lacked |= mask
        self._named = _named(self._not_all)
        counts, holding = self._counts, self._holding
        self._rooms = [counts[h] - popcount(holding[h]) for h in range(len(counts))]

    def _fold(self, event: Event) -> bool:
        """Fold one announcement; False when a step was refused (the parts may be half
        changed then: the caller folds the log again through the facts)."""
        kind = type(event)
        # Read as the kind just told apart: compiled, each `isinstance` check would look
        # the class up in the module's dictionary (the kinds are compared as statics).
        e: Any = event
        if not self._started:
            if kind is _GAME_DEALT:
                self._deal(e)
                self._started = True
            return True
        done = True
        if kind is _SWAPPED:
            done = self._swap(e.seat, e.taken, e.put)
        elif kind is _TURN_ENDED:
            self._no_kemps(e.seat)
            return True
        elif kind is _TABLE_DEALT:
            deck, table = self._deck, self._table
            done = self._move_all(e.cards, deck, table)
        elif kind is _TABLE_CLEARED:
            table, discard = self._table, self._discard
            done = self._move_all(e.cards, table, discard) and (
                not e.reshuffled or self._reshuffle(discard, self._deck)
            )
        elif kind is _KEMPS:
            done = self._leave(e.seat, e.cards, e.reshuffled)
        elif kind is _NEW_HAND:
            done = self._draw(e.seat, e.n, self._deck)
        elif kind is _CALLED:
            if not e.right:
                self._no_kemps(e.target)
                return True
            done = self._leave(e.target, e.cards, e.reshuffled)
        elif kind is _TEAM_TURN_ENDED or kind is _PASSED or kind is _GAME_OVER:
            return True  # no facts
        else:  # an event Kemps does not publish: through its facts
            self._load(self._value().apply(event))
            return True
        return done and self._checked()

    def _deal(self, event: GameDealt) -> None:
        """The first deal: `start_from_counts` of its facts (every count, the table's
        cards), which makes the facts only where they do not fit the layout and raises."""
        counts = [0] * self._layout.n_holders
        sizes = event.hand_sizes
        for s in range(len(sizes)):
            counts[s] = sizes[s]
        table = event.table
        counts[self._table] = len(table)
        counts[self._deck] = event.deck_size
        bits, cards = self._bits, 0
        for card in table:
            cards |= bits.get(card, 0)
        fits = len(sizes) == len(self._layout.players) and sum(counts) == len(bits)
        if not fits or min(counts) < 0 or cards.bit_count() != len(table):
            self._load(PublicKemps(start_from_counts(self._layout, event.facts)))
            return
        holding = [0] * len(counts)
        holding[self._table] = cards
        self._load(_new_public(self._layout, tuple(counts), tuple(holding), (0,) * len(counts), ()))

    # Each step below changes the parts as `PublicInfo`'s would, or returns False where
    # that would raise.

    def _move(self, card: Hashable, src: int, dst: int) -> bool:
        """`PublicInfo.move`, and the not-all facts after it."""
        bit = self._bits[card]
        holding, counts = self._holding, self._counts
        if self._lacked & bit and self._lacking[src] & bit:
            return False
        held = holding[src]
        if not held & bit:
            rooms = self._rooms
            room = rooms[src]
            if self._known & bit or room <= 0:
                return False
            self._known |= bit
            rooms[src] = room - 1
        if self._named & bit:
            self._not_all = _moved_bit(self._layout, self._not_all, src, bit)
            self._named = _named(self._not_all)
        # Written out: compiled, `holding[src] &= ~bit` on a list item is a generic
        # in-place operation, an assignment of the item's new value is native.
        holding[src] = held & ~bit
        holding[dst] = holding[dst] | bit
        counts[src] = counts[src] - 1
        counts[dst] = counts[dst] + 1
        if self._lacked & bit:
            self._unlack(bit)
        return True

    def _move_all(self, cards: tuple[Hashable, ...], src: int, dst: int) -> bool:
        """`_move` of each card in turn, made as one step (a table dealt or cleared, a
        Kemps's cards going out): each part is stored once, not once a card.

        The steps' checks read nothing an earlier card of the run changes (the cards
        differ), so they are made on the whole run at once; a run with a repeated or
        unknown card goes card by card, and a check that fails, or a not-all fact left
        without cards, refuses the step (the facts then say what is wrong).
        """
        bits, mask = self._bits, 0
        for card in cards:
            mask |= bits.get(card, 0)
        n = len(cards)
        if src == dst or popcount(mask) != n:
            return self._move_each(cards, src, dst)
        lacked = self._lacked & mask
        if lacked and self._lacking[src] & mask:
            return False
        holding, rooms = self._holding, self._rooms
        held = holding[src]
        unseen = mask & ~held  # cards not known to be with `src`: each takes up its room
        size = popcount(unseen)
        room = rooms[src]
        if self._known & unseen or room < size:
            return False
        if self._named & mask:
            kept = _moved_mask(self._not_all, src, mask)
            if kept is None:
                return False
            self._not_all = kept
            self._named = _named(kept)
        if size:
            self._known |= unseen
            rooms[src] = room - size
        holding[src] = held & ~mask
        holding[dst] = holding[dst] | mask
        counts = self._counts
        counts[src] = counts[src] - n
        counts[dst] = counts[dst] + n
        if lacked:
            self._unlack(lacked)
        return True

    # `all` of a generator over a typed tuple, not of a list: compiled, that is a loop,
    # where a list is made and `all` called generically. (Stopping at a refused step is as
    # good as going on: the caller folds again.)

    def _move_each(self, cards: tuple[Hashable, ...], src: int, dst: int) -> bool:
        """`_move` of each card in turn."""
        return all(self._move(card, src, dst) for card in cards)

    def _holds_all(self, cards: tuple[Hashable, ...], holder: int) -> bool:
        """`_holds` of each card in turn, made as one step as `_move_all` makes moves."""
        bits, mask = self._bits, 0
        for card in cards:
            mask |= bits.get(card, 0)
        if popcount(mask) != len(cards):
            return all(self._holds(card, holder) for card in cards)
        holding = self._holding
        held = holding[holder]
        new = mask & ~held
        if not new:
            return True
        rooms = self._rooms
        room = rooms[holder]
        size = popcount(new)
        if self._known & new or self._lacking[holder] & new or room < size:
            return False
        holding[holder] = held | new
        rooms[holder] = room - size
        self._known |= new
        lacked = self._lacked & new
        if lacked:
            self._unlack(lacked)
        return True

    def _swap(self, seat: int, taken: Hashable, put: Hashable) -> bool:
        """`_move(taken, table, seat)`, then `_move(put, seat, table)`.

        In one step where the table holds the card taken (every swap of a game): each of
        the two masks is stored once, and the counts do not change.
        """
        table, bits = self._table, self._bits
        took, gave = bits[taken], bits[put]
        holding = self._holding
        on_table = holding[table]
        both = took | gave
        if took == gave or seat == table or not on_table & took:
            return self._move(taken, table, seat) and self._move(put, seat, table)
        lacked = self._lacked & both
        if lacked:
            lacking = self._lacking
            if lacking[table] & took or lacking[seat] & gave:
                return False
        held = holding[seat]
        if not held & gave:
            # The card put down becomes known (as the second move makes it).
            rooms = self._rooms
            room = rooms[seat]
            if self._known & gave or room <= 0:
                return False
            self._known |= gave
            rooms[seat] = room - 1
        named = self._named
        if named & both:
            # Refused where a fact of the seat loses its last card: the facts raise.
            kept: list[NotAll] | None = self._not_all
            if named & took:
                kept = _moved_mask(self._not_all, table, took)
            if kept is not None and named & gave:
                kept = _moved_mask(kept, seat, gave)
            if kept is None:
                return False
            self._not_all = kept
            self._named = _named(kept)
        holding[table] = on_table & ~took | gave
        holding[seat] = (held | took) & ~gave
        if lacked:
            self._unlack(lacked)
        return True

    def _unlack(self, bits: int) -> None:
        """No holder lacks the cards of `bits` any more (they moved in public)."""
        lacking = self._lacking
        for h in range(len(lacking)):
            mask = lacking[h]
            if mask & bits:
                lacking[h] = mask & ~bits
        self._lacked &= ~bits

    def _holds(self, card: Hashable, holder: int) -> bool:
        """`PublicInfo.holds`."""
        bit = self._bits[card]
        holding = self._holding
        if holding[holder] & bit:
            return True
        rooms = self._rooms
        room = rooms[holder]
        if self._known & bit or self._lacking[holder] & bit or room <= 0:
            return False
        holding[holder] = holding[holder] | bit
        rooms[holder] = room - 1
        self._known |= bit
        if self._lacked & bit:
            self._unlack(bit)
        return True

    def _reshuffle(self, src: int, dst: int) -> bool:
        """`PublicInfo.reshuffle` of a pile whose cards are all known (as Kemps's are)."""
        holding, counts = self._holding, self._counts
        if self._rooms[src]:
            return False
        # Known cards with their count: the destination's room does not change.
        holding[dst] = holding[dst] | holding[src]
        holding[src] = 0
        counts[dst] = counts[dst] + counts[src]
        counts[src] = 0
        return True

    def _leave(self, seat: int, cards: tuple[Hashable, ...], reshuffled: bool) -> bool:
        """A Kemps or a right call: the seat held the cards, they go out, then a reshuffle."""
        out = self._out
        return (
            self._holds_all(cards, seat)
            and self._move_all(cards, seat, out)
            and (not reshuffled or self._reshuffle(self._discard, self._deck))
        )

    def _draw(self, seat: int, n: int, deck: int) -> bool:
        """`draw_unseen` from the deck, and the not-all facts after it."""
        counts, holding, lacking = self._counts, self._holding, self._lacking
        if counts[seat] or not 0 <= n <= counts[deck]:
            return False
        self._not_all = [(h, cards) for h, cards in self._not_all if h != seat]
        self._named = _named(self._not_all)
        if n:
            was_there = holding[deck]
            unknown = ((1 << len(self._bits)) - 1) & ~self._known
            lacked = lacking[deck]
            # Assignments, not `|=` on an item: compiled, that is a generic operation.
            for h in range(len(lacking)):
                lacking[h] = lacking[h] | was_there
            lacking[deck] = lacking[deck] & ~was_there
            lacking[seat] = lacked & unknown
            holding[deck] = 0
            counts[deck] = counts[deck] - n
            counts[seat] = n
            rooms = self._rooms
            rooms[deck] = counts[deck]
            rooms[seat] = n - popcount(holding[seat])
            self._known &= ~was_there
            self._lacked = 0
            for mask in lacking:
                self._lacked |= mask
        return True

    def _no_kemps(self, seat: int) -> None:
        # The cards off the seat's hand: the others' known cards are the known ones less
        # its own (nothing leaves play here).
        held, not_all = self._holding[seat], self._not_all
        elsewhere = self._known & ~held | self._lacking[seat]
        self._named |= _no_kemps_facts(self._ranks, held, elsewhere, seat, not_all, not_all)

    def _checked(self) -> bool:
        """`PublicInfo.check_public_locations` passes."""
        rooms = self._rooms
        return all(not rooms[h] for h in self._public_holders)


#: The kinds of event the tracker folds, as statics (see `PublicTracker._fold`).
_GAME_DEALT: Final = GameDealt
_SWAPPED: Final = Swapped
_TURN_ENDED: Final = TurnEnded
_TABLE_DEALT: Final = TableDealt
_TABLE_CLEARED: Final = TableCleared
_KEMPS: Final = Kemps
_NEW_HAND: Final = NewHand
_CALLED: Final = Called
_TEAM_TURN_ENDED: Final = TeamTurnEnded
_PASSED: Final = Passed
_GAME_OVER: Final = GameOver


def _moved_mask(facts: list[NotAll], src: int, cards: int) -> list[NotAll] | None:
    """The not-all facts after public moves of `cards` from `src`, one card after another
    (`_moved_bit` of each), or None where a fact of `src` would lose its last card."""
    kept: list[NotAll] = []
    for fact in facts:
        h, mask = fact
        if not mask & cards:
            kept.append(fact)
        elif h == src:
            rest = mask & ~cards
            if not rest:
                return None
            kept.append((h, rest))
        # Moved to h, or between others: satisfied (as in `_moved_bit`).
    return kept


def _named(facts: Iterable[NotAll]) -> int:
    """The cards the not-all facts name, as one mask."""
    cards = 0
    for _, mask in facts:
        cards |= mask
    return cards


__all__ = [
    "HoldsAll",
    "KempsKnowledge",
    "NotAll",
    "PublicKemps",
    "PublicTracker",
    "SplitKnowledge",
    "elsewhere_of",
    "layout_for",
    "rank_masks",
    "signal_cases",
]
