"""One agent's knowledge of card locations: public information plus private observations.

A `CardKnowledge` is immutable. Nothing is computed when it is built; each query computes
what it needs once and caches it on the object:

1. *reduction* (`holder`, counting, and possible holders where step 2 cannot answer from
   the facts directly): the agent's hand and seen facts are overlaid on the public
   facts (including the no-complete-group invariant of `PublicInfo.groups`, which holds
   at the queried moment) and unit propagation runs (`epigames.cards.problem`). Cards
   it places are known, so `holder` answers them without further work.
2. *possible holders* (`possible_holders`, `known_holders`, `holder` of a still free
   card, `knows_*`): straight from the facts, Hall's condition when no fact ties cards
   together and one feasible flow and the reachability of its residual graph when each
   holder's facts cover disjoint sets of cards (`epigames.cards.flow`); else, on the
   reduced problem, reachability over constraint blocks plus Hall's condition over the
   interchangeable classes (`epigames.cards.feasibility`). No counting.
3. *counting* (`worlds_count`, `probability`, `marginals`, `sample_world`): forward and
   backward tables over packed capacity states (`epigames.cards.counting`); where the
   compiled modules run, the same passes in C (`_engine.c` `count_deals`) count the
   deals and marginals of problems within its limits, and the Python tables are built
   only for the others and to sample.

Steps 2 and 3 depend only on the reduced problem (free cards with allowed holders,
capacities, live constraints), so their results are shared through a bounded memo across
objects whose reduced problems are equal, e.g. successive states of one agent when the
last event only moved cards the agent already knew.

No step enumerates deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import reduce
from operator import or_
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from epigames import native
from epigames.cards.blocks import Decomposition, decompose
from epigames.cards.counting import CountTable, Rng
from epigames.cards.errors import InconsistentCardsError, UnknownCardError
from epigames.cards.feasibility import (
    possible_by_hall,
    possible_holders as _feasible_holders,
    transport_possible,
)
from epigames.cards.flow import groups_of, possible_by_flow, possible_from_facts
from epigames.cards.formulas import Term, dnf_terms
from epigames.cards.kripke import seat_picture
from epigames.cards.layout import CardLayout, HolderRef
from epigames.cards.problem import Problem, reduce_facts
from epigames.cards.public import REMOVED, PublicInfo, iter_bits, popcount
from epigames.cards.slots import rebuilt, slot_maker
from epigames.cards.symbolic import MAX_COMBINATIONS
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from epigames.logic.picture import KripkePicture

# Hits come from the same agent's recent states, so a small memo does; each entry may
# hold counting tables, so a large one costs memory that grows with the games played.
_MEMO_SIZE = 512
_HOLDER_SETS: dict[int, frozenset[int]] = {}

# The C counting (`_engine.c` `count_deals`), where the compiled modules run: the total
# and every marginal of a reduced problem of up to 64 cards, exactly, without the Python
# tables. Past its limits, and where no deal is consistent, it leaves the problem to
# `CountTable` (NotImplemented, or a total of 0: the Python path words the error).
_C_MODULE = native.c_module("epigames.cards._engine")
_C_COUNT: Final[Callable[..., Any] | None] = None if _C_MODULE is None else _C_MODULE.count_deals
# `count_deals` modes: the total; with the probabilities (float64 rows and the cards, as
# bytes); with the counts ({card: counts per holder}, as `CountTable.marginals`).
_TOTAL: Final = 0
_FLOATS: Final = 1
_COUNTS: Final = 2


def mask_columns(masks: Sequence[int], n: int) -> npt.NDArray[np.float64]:
    """Shape (n, len(masks)): 1.0 where card ``i`` is in ``masks[h]``, else 0.0.

    The bits are unpacked by numpy, not stored one card at a time.
    """
    width = (n + 7) // 8
    raw = b"".join([mask.to_bytes(width, "little") for mask in masks])
    packed = np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), width)
    bits = np.unpackbits(packed, axis=1, count=n, bitorder="little")
    return bits.T.astype(np.float64, order="C")


def _holder_set(mask: int) -> frozenset[int]:
    got = _HOLDER_SETS.get(mask)
    if got is None:
        got = _HOLDER_SETS[mask] = frozenset(iter_bits(mask))
    return got


class _Solved:
    """Answers that depend only on a reduced problem (shared through the memo)."""

    __slots__ = (
        "_counts", "_dec", "_matrix", "_names", "_possible", "_rows", "_table", "_total",
        "problem",
    )  # fmt: skip

    def __init__(self, problem: Problem, names: tuple[str, ...]) -> None:
        self.problem = problem
        self._names = names
        self._dec: Decomposition | None = None
        self._possible: tuple[int, ...] | None = None
        self._table: CountTable | None = None
        self._total: int | None = None
        self._counts: dict[int, tuple[int, ...]] | None = None
        self._matrix: tuple[tuple[int, ...], npt.NDArray[np.float64]] | None = None
        self._rows: tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]] | None = None

    def dec(self) -> Decomposition:
        if self._dec is None:
            self._dec = decompose(self.problem, self._names)
        return self._dec

    def possible(self) -> tuple[int, ...]:
        """Per holder, the free cards some consistent deal puts there."""
        if self._possible is None:
            problem = self.problem
            known = problem.known
            if not problem.free:
                got: list[int] | None = [0] * len(known)
            elif problem.constraints or problem.exclusions:
                groups = groups_of(
                    problem.caps, problem.may, problem.constraints, problem.exclusions
                )
                if groups is None:
                    got = _feasible_holders(self.dec(), len(known))
                else:
                    got = possible_by_flow(groups, problem.free, len(known))
            else:
                got = transport_possible(problem.caps, problem.may, problem.free)
            if got is None:
                raise InconsistentCardsError(
                    "no deal is consistent with these facts taken together"
                )
            self._possible = tuple(got)
        return self._possible

    def _c_count(self, mode: int) -> tuple[Any, ...] | None:
        """The C counting's answer in ``mode`` (see `_C_COUNT`), or None where the Python
        tables answer: no C module, past its limits, or no consistent deal."""
        if _C_COUNT is None:
            return None
        p = self.problem
        got: Any = _C_COUNT(p.caps, p.may, p.free, p.constraints, p.exclusions, mode)
        if got is NotImplemented or not got[0]:
            return None
        found: tuple[Any, ...] = got
        return found

    def total(self) -> int:
        """The number of consistent deals of the free cards (at least 1)."""
        if self._total is None:
            got = self._c_count(_TOTAL)
            self._total = self.table().total if got is None else got[0]
        return self._total

    def counts(self) -> dict[int, tuple[int, ...]]:
        """Per free card, per holder, the consistent deals putting it there."""
        if self._counts is None:
            got = self._c_count(_COUNTS)
            if got is None:
                table = self.table()
                self._total, self._counts = table.total, table.marginals()
            else:
                self._total, self._counts = got[0], got[1]
        return self._counts

    def table(self) -> CountTable:
        if self._table is None:
            table = CountTable(self.dec(), len(self.problem.caps))
            if table.total == 0:
                raise InconsistentCardsError(
                    "no deal is consistent with these facts taken together"
                )
            self._table = table
        return self._table

    def matrix(self, known: tuple[int, ...], n_cards: int) -> npt.NDArray[np.float64]:
        """The probabilities as a read-only array (see `CardKnowledge.marginals`), for the
        cards placed as in ``known`` (not part of the memo's key) and the free cards."""
        last = self._matrix
        if last is not None and last[0] == known and len(last[1]) == n_cards:
            return last[1]  # the seats' views of one state ask for the same one
        matrix = mask_columns(known, n_cards)
        if self.problem.free:
            cards, rows = self._free_rows()
            matrix[cards] = rows
        matrix.setflags(write=False)
        self._matrix = (known, matrix)
        return matrix

    def _free_rows(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """The free cards and their rows of probabilities (exact fractions, each rounded
        once to float64), made once: they do not depend on where the known cards are."""
        got = self._rows
        if got is None:
            found = self._c_count(_FLOATS)
            if found is not None:
                # Rounded in C as `n / total` rounds (`ratio` in `_engine.c`).
                self._total = found[0]
                rows = np.frombuffer(found[1], dtype=np.float64)
                rows = rows.reshape(-1, len(self.problem.caps))
                got = self._rows = (np.frombuffer(found[2], dtype=np.intp), rows)
                return got
            table = self.table()
            total = table.total
            counts = table.marginals()
            rows = np.array([[n / total for n in row] for row in counts.values()])
            # An index array, not a list: a memo's entries then hold no lists for the
            # garbage collector to walk.
            got = self._rows = (np.fromiter(counts, dtype=np.intp, count=len(counts)), rows)
        return got


_MEMO: dict[tuple[object, ...], _Solved] = {}


def memos() -> tuple[dict[Any, Any], ...]:
    """This module's memos (a test empties them to solve from scratch)."""
    return (_MEMO, _HOLDER_SETS)


def _solved(problem: Problem, names: tuple[str, ...]) -> _Solved:
    key = problem.key()
    got = _MEMO.get(key)
    if got is None:
        if len(_MEMO) >= _MEMO_SIZE:
            # Drop the oldest half; dicts keep insertion order.
            for old in list(_MEMO)[: _MEMO_SIZE // 2]:
                del _MEMO[old]
        got = _MEMO[key] = _Solved(problem, names)
    return got


@dataclass(frozen=True, slots=True, eq=False)
class CardKnowledge:
    """What one agent knows about where the cards are.

    Build it with `CardKnowledge.create` (an agent) or `CardKnowledge.public_view` (no
    private information). Holders are returned as indices into ``layout.holders``.

    Attributes:
        public: the public information.
        agent: the agent's holder index, or None for the public view.
        hand: bitmask of the cards the agent holds (all of them).
        seen_holds: extra private ``(card, holder)`` facts: holder has card.
        seen_lacks: extra private ``(card, holder)`` facts: holder lacks card.
        not_all: ``(holder, cards)`` pairs, cards as a bitmask: the holder does not hold
            all of them (Kemps: no four of a kind announced); kept by the game, which
            updates them as cards move.
    """

    public: PublicInfo
    agent: int | None
    hand: int
    seen_holds: tuple[tuple[int, int], ...] = ()
    seen_lacks: tuple[tuple[int, int], ...] = ()
    not_all: tuple[tuple[int, int], ...] = ()
    _problem: Problem | None = field(default=None, init=False, repr=False)
    _solution: _Solved | None = field(default=None, init=False, repr=False)
    _possible: tuple[int, ...] | None = field(default=None, init=False, repr=False)
    _known: tuple[int, ...] | None = field(default=None, init=False, repr=False)

    # -- construction ------------------------------------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    @classmethod
    def create(
        cls,
        public: PublicInfo,
        agent: HolderRef,
        hand: Iterable[Hashable],
        *,
        holds: Iterable[tuple[Hashable, HolderRef]] = (),
        lacks: Iterable[tuple[Hashable, HolderRef]] = (),
        not_all: Iterable[tuple[HolderRef, Iterable[Hashable]]] = (),
    ) -> CardKnowledge:
        """The knowledge of ``agent`` holding exactly ``hand`` (card objects).

        Args:
            public: the public information.
            agent: the agent's holder index or name.
            hand: every card the agent holds now.
            holds: extra ``(card, holder)`` pairs the agent saw: holder has card.
            lacks: extra ``(card, holder)`` pairs the agent saw: holder lacks card.
            not_all: ``(holder, cards)`` pairs: the holder does not hold all the cards.
        """
        layout = public.layout
        if holds == () and lacks == () and not_all == () and cls is CardKnowledge:
            # The usual case, a hand and nothing else seen, made as `_plain` makes it.
            return _plain(public, layout.holder_index(agent), layout.card_mask(hand))
        return cls(
            public,
            layout.holder_index(agent),
            layout.card_mask(hand),
            tuple((layout.card_index(c), layout.holder_index(h)) for c, h in holds),
            tuple((layout.card_index(c), layout.holder_index(h)) for c, h in lacks),
            tuple((layout.holder_index(h), layout.card_mask(cs)) for h, cs in not_all),
        )

    @classmethod
    def of_hand_mask(cls, public: PublicInfo, agent: int, hand: int) -> CardKnowledge:
        """The knowledge of seat index ``agent`` holding exactly the cards of bitmask
        ``hand`` (layout indices) and nothing else seen: `create` for a caller that keeps
        its hand as indices, without looking up each card."""
        return _plain(public, agent, hand)

    @classmethod
    def public_view(cls, public: PublicInfo) -> CardKnowledge:
        """What follows from the public information alone (an outside observer)."""
        return cls(public, None, 0)

    def with_public(
        self, public: PublicInfo, hand: Iterable[Hashable] | None = None
    ) -> CardKnowledge:
        """The same agent after public events; the hand follows the public moves unless given.

        Cards the public information shows with the agent join the hand; cards it shows
        elsewhere or removed leave it. Seen facts are kept only for cards whose holder is
        still publicly unknown, since a card's later public moves override them.
        """
        unknown = public.unknown
        if self.agent is None:
            mask = 0
        elif hand is not None:
            mask = public.layout.card_mask(hand)
        else:
            mask = (self.hand & unknown) | public.holding[self.agent]
        return CardKnowledge(
            public,
            self.agent,
            mask,
            tuple(f for f in self.seen_holds if unknown >> f[0] & 1),
            tuple(f for f in self.seen_lacks if unknown >> f[0] & 1),
        )

    @property
    def layout(self) -> CardLayout:
        """The layout of the public information."""
        return self.public.layout

    # -- reduction ---------------------------------------------------------------------

    def _reduced(self) -> Problem:
        problem = self._problem
        if problem is None:
            problem = self._reduce(self.public.constraints, (), ())
            object.__setattr__(self, "_problem", problem)
        return problem

    def _reduce(
        self,
        constraints: tuple[tuple[int, int], ...],
        holds: Iterable[tuple[int, int]],
        lacks: Iterable[tuple[int, int]],
    ) -> Problem:
        """Overlay the private facts (and extra ones) on the public facts and propagate."""
        public = self.public
        layout = public.layout
        holding = list(public.holding)
        lacking = list(public.lacking)
        agent = self.agent
        unknown = public.unknown
        if agent is not None:
            hand = self.hand
            if popcount(hand) != public.counts[agent]:
                raise InconsistentCardsError(
                    f"the hand of {layout.holders[agent]} has {popcount(hand)} cards but "
                    f"the public count is {public.counts[agent]}"
                )
            bad = hand & ~(unknown | holding[agent]) | hand & lacking[agent]
            if bad:
                raise InconsistentCardsError(
                    f"{_first(layout, bad)} is in the hand of {layout.holders[agent]} but "
                    "public facts say it cannot be"
                )
            if holding[agent] & ~hand:
                raise InconsistentCardsError(
                    f"{_first(layout, holding[agent] & ~hand)} is publicly with "
                    f"{layout.holders[agent]} but not in its hand"
                )
            holding[agent] = hand
            lacking[agent] |= ~hand
        for c, h in (*self.seen_holds, *holds):
            bit = 1 << c
            if lacking[h] & bit or not (unknown | holding[h]) & bit:
                raise InconsistentCardsError(
                    f"card {layout.card_name(c)} with {layout.holders[h]} contradicts the "
                    "other facts"
                )
            for g in range(len(holding)):
                if g != h and holding[g] & bit:
                    raise InconsistentCardsError(
                        f"card {layout.card_name(c)} with {layout.holders[h]} contradicts "
                        "the other facts"
                    )
            holding[h] |= bit
        for c, h in (*self.seen_lacks, *lacks):
            if holding[h] >> c & 1:
                raise InconsistentCardsError(
                    f"{layout.holders[h]} lacks card {layout.card_name(c)} contradicts the "
                    "other facts"
                )
            lacking[h] |= 1 << c
        return reduce_facts(
            layout,
            public.counts,
            holding,
            lacking,
            public.removed,
            constraints,
            public.groups,
            self.not_all,
        )

    def _solved(self) -> _Solved:
        solution = self._solution
        if solution is None:
            solution = _solved(self._reduced(), self.layout.holders)
            object.__setattr__(self, "_solution", solution)
        return solution

    def _possible_masks(self) -> tuple[int, ...]:
        masks = self._possible
        if masks is None:
            masks = self._direct_possible()
            if masks is None:
                known = self._reduced().known
                found = self._solved().possible()
                masks = tuple([known[h] | found[h] for h in range(len(known))])
            object.__setattr__(self, "_possible", masks)
        return masks

    def _direct_possible(self) -> tuple[int, ...] | None:
        """`_possible_masks` without propagating first, when the facts allow it.

        Without at-least-one facts, groups or not-all sets, the consistent deals are those
        of a transportation problem (each free card to a holder that may take it, each
        holder its count), and Hall's condition (`transport_possible`) decides every card
        and holder exactly; with them, where each holder's sets are disjoint, one feasible
        flow does (`flow.possible_from_facts`). Propagation would only place cards that
        these find forced anyway. None with seen facts, for sets of other shapes and when
        the facts admit no deal: the full path then answers, or raises the error that
        says why.
        """
        if self.seen_holds or self.seen_lacks:
            return None
        public = self.public
        holding = list(public.holding)
        lacking = public.lacking
        counts = public.counts
        # The cards in play nobody is publicly known to hold.
        free = (1 << len(public.layout.cards)) - 1 & ~reduce(or_, holding, public.removed)
        agent = self.agent
        if agent is not None:
            hand = self.hand
            mine = holding[agent]
            if (
                popcount(hand) != counts[agent]
                or hand & ~(free | mine)
                or hand & lacking[agent]
                or mine & ~hand
            ):
                return None
            holding[agent] = hand
            free &= ~hand
        found: Sequence[int] | None
        if public.constraints or public.groups or self.not_all:
            found = possible_from_facts(
                counts,
                holding,
                lacking,
                free,
                public.removed,
                public.constraints,
                public.groups,
                self.not_all,
            )
        else:
            found = self._by_hall(holding, free)
        if found is None:
            return None
        return tuple(map(or_, holding, found))

    def _by_hall(self, holding: list[int], free: int) -> list[int] | None:
        """`transport_possible` over the holders with room (see `_direct_possible`)."""
        public = self.public
        lacking = public.lacking
        active = []
        caps = []
        may = []
        for h, count in enumerate(public.counts):
            cap = count - popcount(holding[h])
            if cap:
                if cap < 0:
                    return None
                active.append(h)
                caps.append(cap)
                may.append(free & ~lacking[h])
        if free & ~reduce(or_, may, 0):
            return None
        return possible_by_hall(active, caps, may, free, len(public.counts))

    # -- queries -----------------------------------------------------------------------

    def is_removed(self, card: Hashable) -> bool:
        """Whether ``card`` has left play."""
        return bool(self.public.removed >> self.layout.card_index(card) & 1)

    def holder(self, card: Hashable) -> int | None:
        """The holder of ``card`` if the agent knows it, else None (also when removed).

        Cards placed by propagation are answered without solving the rest of the problem;
        the global consistency check then happens on the first query that needs it.
        """
        c = self.layout.card_index(card)
        problem = self._reduced()
        if not problem.free >> c & 1:
            where = problem.where(c)
            return where if where >= 0 else None
        found = None
        for h, cards in enumerate(self._possible_masks()):
            if cards >> c & 1:
                if found is not None:
                    return None
                found = h
        return found

    def known_holders(self) -> tuple[int, ...]:
        """Per card index, the holder the agent knows has it, or -1 (unknown or removed).

        One pass over the holders' bitmasks: cheaper than `holder` card by card when a
        caller wants many cards (e.g. a strategy scanning the cards it needs).
        """
        known = self._known
        if known is None:
            # A card's holder is known where one holder alone may have it; the masks
            # place the known and removed cards too, so no reduced problem is needed.
            masks = self._possible_masks()
            where = [-1] * self.layout.n_cards
            seen = twice = 0
            for cards in masks:
                twice |= seen & cards
                seen |= cards
            single = seen & ~twice
            for h, cards in enumerate(masks):
                rest = cards & single
                while rest:  # not `iter_bits`: a compiled generator costs more per card
                    low = rest & -rest
                    rest ^= low
                    where[low.bit_length() - 1] = h
            known = tuple(where)
            object.__setattr__(self, "_known", known)
        return known

    def known_values(self) -> dict[str, str]:
        """Card text → holder name, for every card the agent knows lies in a hand or a pile.

        Cards at a face-up location (the table) are left out: everyone sees them there. A
        face-down pile hides its cards, so knowing one lies there is knowledge.
        """
        layout = self.layout
        face_up = layout.public
        return {
            layout.card_name(c): layout.holders[h]
            for c, h in enumerate(self.known_holders())
            if h >= 0 and h not in face_up
        }

    def possible_masks(self) -> tuple[int, ...]:
        """Per holder, the cards some consistent deal puts there (a bitmask over indices).

        Known cards are with their holder, removed ones with nobody: every `possible_mask`
        at once, for callers that ask about many cards.
        """
        return self._possible_masks()

    def possible_mask(self, card: Hashable) -> int:
        """`possible_holders` as a bitmask over holder indices."""
        c = self.layout.card_index(card)
        mask = 0
        for h, cards in enumerate(self._possible_masks()):
            if cards >> c & 1:
                mask |= 1 << h
        return mask

    def possible_holders(self, card: Hashable) -> frozenset[int]:
        """The holders that some consistent deal puts ``card`` with (empty when removed)."""
        return _holder_set(self.possible_mask(card))

    def knows_holds(self, card: Hashable, holder: HolderRef) -> bool:
        """Whether the agent knows that ``holder`` has ``card``."""
        return self.holder(card) == self.layout.holder_index(holder)

    def knows_lacks(self, card: Hashable, holder: HolderRef) -> bool:
        """Whether the agent knows that ``holder`` does not have ``card``."""
        c = self.layout.card_index(card)
        h = self.layout.holder_index(holder)
        return not self._possible_masks()[h] >> c & 1

    def worlds_count(self) -> int:
        """The number of consistent deals of the cards whose holder is not known."""
        if not self._reduced().free:
            return 1
        return self._solved().total()

    def probability(self, card: Hashable, holder: HolderRef) -> Fraction:
        """Exact probability that ``holder`` has ``card``, consistent deals equally likely."""
        c = self.layout.card_index(card)
        h = self.layout.holder_index(holder)
        problem = self._reduced()
        if not problem.free >> c & 1:
            return Fraction(int(problem.where(c) == h))
        solved = self._solved()
        return Fraction(solved.counts()[c][h], solved.total())

    def chances(self, holder: int, cards: Sequence[int]) -> list[float]:
        """``marginals()[c, holder]`` for each card index ``c`` of ``cards``, no array made.

        The same floats as `marginals` (each exact fraction correctly rounded): a strategy
        that weighs a few cards for one holder reads the exact counts, not a whole matrix.
        """
        problem = self._reduced()
        free, mine = problem.free, problem.known[holder]
        found: list[float] = []
        counts: dict[int, tuple[int, ...]] | None = None
        total = 1
        for c in cards:
            if free >> c & 1:
                if counts is None:
                    solved = self._solved()
                    counts, total = solved.counts(), solved.total()
                found.append(counts[c][holder] / total)
            else:
                found.append(1.0 if mine >> c & 1 else 0.0)
        return found

    def probability_holds_all(self, holder: HolderRef, cards: Iterable[Hashable]) -> Fraction:
        """Exact probability that ``holder`` has every one of ``cards`` (consistent deals
        equally likely): the deals that give them all to it, over all deals."""
        return Fraction(self.deals_holding(holder, cards), self.worlds_count())

    def deals_holding(self, holder: HolderRef, cards: Iterable[Hashable]) -> int:
        """The consistent deals (as `worlds_count` counts them) in which ``holder`` has
        every one of ``cards``."""
        layout = self.layout
        h = layout.holder_index(holder)
        extra = tuple((layout.card_index(c), h) for c in cards)
        # The same knowledge told that the holder has them; none when it cannot.
        told = type(self)(
            self.public, self.agent, self.hand, self.seen_holds + extra, self.seen_lacks,
            self.not_all,
        )  # fmt: skip
        try:
            return told.worlds_count()
        except InconsistentCardsError:
            return 0

    def marginals(self) -> npt.NDArray[np.float64]:
        """All probabilities as a read-only float array of shape (cards, holders).

        Removed cards have a row of zeros. Each entry is the exact fraction correctly
        rounded to float64.
        """
        return self._solved().matrix(self._reduced().known, self.layout.n_cards)

    def matrices(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Shape (cards, holders) twice: 1 where a holder is possible for a card (a row
        of zeros for a removed card), then the exact probabilities (`marginals`)."""
        probability = self.marginals()
        # Counts are exact, so a holder is possible exactly where its probability is not 0
        # (no count is small enough against the total to round to 0.0).
        return (probability > 0.0).astype(np.float64), probability

    def sample_world(self, rng: Rng) -> tuple[int, ...]:
        """The holder of every card in a uniformly random consistent deal.

        Args:
            rng: a `random.Random` or a `numpy.random.Generator`; the draw is exact
                (uniform over deals) with either.

        Returns:
            One holder index per card; removed cards get `REMOVED` (-2).
        """
        problem = self._reduced()
        world = [REMOVED] * self.layout.n_cards
        for h, cards in enumerate(problem.known):
            for c in iter_bits(cards):
                world[c] = h
        if problem.free:
            for c, h in self._solved().table().sample(rng).items():
                world[c] = h
        return tuple(world)

    def knows(self, formula: Formula, *, limit: int | None = MAX_COMBINATIONS) -> bool:
        """Whether ``formula`` holds in every deal this agent considers possible.

        Atoms are ``holds(<holder>, <card>)`` (see `epigames.cards.formulas`), e.g.
        ``parse('holds(West, ⟨8,4⟩) | holds(2, ⟨8,4⟩)')``; atoms about removed cards are
        false. A propositional formula is decided by writing its negation in DNF and
        checking that no term is satisfiable together with the agent's facts (each term's
        literals are added as facts and the possible-holders solver looks for a deal). A
        formula with K, M, C, … (``K_East ~holds(South, J♥)``) is model checked as
        ``K_agent`` of it at a deal drawn from this agent's knowledge (every such deal
        gives the same answer, so no hidden card decides it), by `cards.quotient.evaluator`:
        on the knowledge structure of the public facts (`cards.symbolic.CardStructure`,
        BDDs) when it is built already, else on a smaller exact quotient model where one
        applies, else on the structure within `limit` hand-size combinations (None for no
        limit). Public knowledge (no agent) is checked on the structure at every deal.

        Raises:
            InputError: a modal formula asked of public knowledge (nobody's).
            SymbolicUnavailableError: a modal formula, and the package `dd` is missing.
            StructureTooLargeError: no exact model small enough (see `evaluator`).
        """
        while isinstance(formula, fm.K) and self._is_me(formula.agent):
            formula = formula.arg  # K_me K_me f is K_me f: the exact engine may answer f
        if formula.is_boolean():
            # The negation's terms, each literal of which some deal allows, made lazily:
            # the first satisfiable one answers, and a part no deal allows empties the rest.
            terms = dnf_terms(self.layout, formula, negate=True, keep=self._literals_possible)
            return not any(self._satisfiable(t) for t in terms)
        # Imported here: the structure needs `dd`, which propositional questions do not.
        from epigames.cards.quotient import evaluator
        from epigames.cards.symbolic import CardStructure

        cards = CardStructure.from_knowledge(self)
        if cards.is_built or self.agent is None:
            cards.build(limit)
            return cards.knows(self, formula)
        # Any deal the agent considers possible: `K_agent` has one truth on all of them.
        deal = self.sample_world(random.Random(0))
        truth = evaluator(cards, formula, deal, limit)
        return truth(fm.K(self.layout.holders[self.agent], formula))

    def picture(self, subject: str) -> KripkePicture:
        """The Kripke picture of one card in play (by its text) from this agent's view.

        Raises:
            UnknownCardError: no such card, or it has left play.
        """
        card = self.layout.cards[self.layout.parse_card(subject)]
        if self.is_removed(card):
            raise UnknownCardError(f"card {subject!r} has left play: it has no picture")
        return seat_picture(self, card)

    def _is_me(self, name: str) -> bool:
        """Whether a formula's agent name (a seat's name in any case, or its number) is
        this knowledge's agent."""
        if self.agent is None:
            return False
        me = self.layout.holders[self.agent]
        return name.lower() == me.lower() or name == str(self.agent)

    def _literals_possible(self, term: Term) -> bool:
        """Whether some deal makes each literal of `term` true (each on its own)."""
        positives, negatives = term
        masks = self._possible_masks()
        if any(not masks[h] >> c & 1 for c, h in positives):
            return False
        return not any(masks[h] >> c & 1 and self._holder_of(c) == h for c, h in negatives)

    def _satisfiable(self, term: Term) -> bool:
        """Whether some deal makes all of `term` true; each of its literals must already be
        possible on its own (`_literals_possible`, which `knows` prunes the terms with)."""
        positives, negatives = term
        masks = self._possible_masks()
        extra_pos = [(c, h) for c, h in positives if self._holder_of(c) != h]
        extra_neg = [(c, h) for c, h in negatives if masks[h] >> c & 1]
        if len(extra_pos) + len(extra_neg) <= 1:
            # One literal that some deal satisfies (the masks are exact), or none at all.
            return True
        try:
            sub = self._reduce(self.public.constraints, extra_pos, extra_neg)
            return not sub.free or _solved(sub, self.layout.holders).possible() is not None
        except InconsistentCardsError:
            return False

    def _holder_of(self, card: int) -> int | None:
        """`holder` for a card index."""
        return self.holder(self.layout.cards[card])


def _first(layout: CardLayout, cards: int) -> str:
    return f"card {layout.card_name((cards & -cards).bit_length() - 1)}"


_make = slot_maker(CardKnowledge)
#: The caches (`_problem` … `_known`: the fields `__init__` does not take) start empty.
_EMPTY_CACHES = (None,) * sum(not f.init for f in fields(CardKnowledge))


def _plain(public: PublicInfo, agent: int | None, hand: int) -> CardKnowledge:
    """`CardKnowledge(public, agent, hand)` made through the slots' own setters, at half
    the cost of the frozen dataclass's `__init__`: one is made for every decision."""
    return _make(public, agent, hand, (), (), (), *_EMPTY_CACHES)
