"""Card knowledge as a knowledge structure: any epistemic formula about who holds which card.

`CardStructure.from_public` turns the public information of a card game (a `PublicInfo`,
plus Kemps's not-all facts) into a `logic.symbolic.KnowledgeStructure`:

* one atom ``holds(<holder>, <card>)`` per card in play and holder (one-hot: a card has
  exactly one holder); removed cards have no atoms, so atoms about them are false, as in
  `CardKnowledge.knows`;
* the state law is the set of deals consistent with the public facts: known holders,
  lacks, each holder's count (a cardinality constraint, built as a BDD by counting),
  at-least-one facts, the no-complete-group invariant and not-all facts;
* each seat observes its own atoms (its hand) and the atoms of public locations.

So a seat's possible states are exactly the deals `CardKnowledge` counts for it, and
nested formulas (``K_1 ~holds(2, 8♥) & ~K_2 K_1 ~holds(2, 8♥)``) are answered exactly.
Formulas name holders and seats by index or name (any case) and cards by their text;
`card_formula` also reads unquoted ``holds(…)`` atoms.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from epigames.cards.errors import UnknownCardError
from epigames.cards.formulas import holds_atom
from epigames.cards.layout import CardLayout
from epigames.cards.public import REMOVED, PublicInfo, iter_bits
from epigames.errors import FormulaSyntaxError, InputError
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from epigames.logic.symbolic.bdd import Manager, Node
from epigames.logic.symbolic.structure import KnowledgeStructure
from epigames.logic.syntax import parse, syntax_error

if TYPE_CHECKING:
    # `CardKnowledge.knows` builds structures for modal formulas: a runtime import would
    # be a circle.
    from epigames.cards.knowledge import CardKnowledge

__all__ = [
    "MAX_COMBINATIONS",
    "NODES_PER_COMBINATION",
    "CardStructure",
    "StructureTooLargeError",
    "card_formula",
]

#: A quoted name (passed on as it is, also unterminated: the parser says so) or the
#: opening of an unquoted ``holds(`` atom.
_QUOTED_OR_HOLDS = re.compile(
    r'(?P<quoted>"(?:[^"\\]|\\.)*(?:"|\\?\Z))|(?<!\w)holds\s*\(', re.DOTALL
)
#: What no holder or card name contains: where one stands, an open ``holds(`` lacks its
#: ``)`` (cards may be written ``<8,4>``, so ``<`` and ``>`` alone do not end it).
_NOT_IN_ATOM = re.compile(r'[&|~!()\[\]"¬∧∨→↔]|<?->|<?=>')


def card_formula(text: str) -> Formula:
    """Parse a formula in which ``holds(h, c)`` atoms may be written without quotes.

    Errors point into `text` as given (the quotes added around atoms are not shown), and
    a ``holds(`` left open is reported as a missing ``)`` where it belongs.

    Raises:
        FormulaSyntaxError: the text is no formula.
    """
    quoted, origin = _quote_holds(text)
    try:
        return parse(quoted)
    except FormulaSyntaxError as error:
        at = origin[_offset(quoted, error.line, error.column)]
        raise syntax_error(text, at, error.message, error.expected) from None


def _quote_holds(text: str) -> tuple[str, list[int]]:
    """The text with each unquoted ``holds(…)`` quoted, and per character of it (and its
    end) the offset in `text` it stands for.

    Raises:
        FormulaSyntaxError: a ``holds(`` whose ``)`` is missing.
    """
    parts: list[str] = []
    origin: list[int] = []

    def keep(start: int, stop: int) -> None:
        parts.append(text[start:stop])
        origin.extend(range(start, stop))

    last = 0
    for m in _QUOTED_OR_HOLDS.finditer(text):
        if m.start() < last:  # inside an atom quoted already
            continue
        keep(last, m.start())
        if m.group("quoted"):
            keep(m.start(), m.end())
            last = m.end()
            continue
        stop = _NOT_IN_ATOM.search(text, m.end())
        if stop is None or text[stop.start()] != ")":
            end = stop.start() if stop is not None else len(text)
            inside = text[m.end() : end].rstrip()
            raise syntax_error(
                text,
                m.end() + len(inside),
                f"{m.group()!r} is not closed",
                "')' after the holder and card, as in holds(West, ⟨8,4⟩)",
            )
        inner = text[m.end() : stop.start()]
        atom = f'"holds({inner.replace(chr(92), chr(92) * 2)})"'
        parts.append(atom)
        # The whole quoted atom stands for the text from `holds` to its `)`.
        origin.extend([m.start()] * (len(atom) - 1) + [stop.start()])
        last = stop.end()
    keep(last, len(text))
    origin.append(len(text))
    return "".join(parts), origin


def _offset(text: str, line: int, column: int) -> int:
    """The offset of a 1-based line and column (`line_and_column` the other way)."""
    lines = text.splitlines(keepends=True)
    return min(sum(len(x) for x in lines[: line - 1]) + column - 1, len(text))


def _exactly(manager: Manager, variables: Sequence[str], k: int) -> Node:
    """Exactly k of the variables (in BDD order) are true: a counting BDD, n·k nodes."""
    if k < 0 or k > len(variables):
        return manager.false
    # below[j]: exactly j of the variables after the current one are true.
    below = [manager.true] + [manager.false] * k
    for v in reversed(variables):
        x = manager.var(v)
        below = [
            manager.ite(x, below[j - 1] if j else manager.false, below[j]) for j in range(k + 1)
        ]
    return below[k]


#: The most hand-size combinations (`CardStructure.hand_size_combinations`) a structure is
#: built for unless asked otherwise (`CardStructure.build`). Kwartet for five players with
#: 13 kinds has 191,664 right after the deal (a law of 3.9 million nodes, about 12 s to
#: build); for six players 810,000 (minutes, gigabytes). See docs/logic.md, Limits.
MAX_COMBINATIONS = 200_000
#: Past its limit of hand-size combinations a structure is still built while its law stays
#: within this many BDD nodes per combination of the limit (`CardStructure.build` with
#: `nodes`), when no smaller exact model applies (`cards.quotient.evaluator`): facts often
#: keep a law far smaller than its combinations suggest (a six-player Kwartet state late
#: in a game, with 280,000 combinations, builds in a third of a second), while the
#: five-player Kwartet deal's law has about 20 nodes per combination (3.9 million).
NODES_PER_COMBINATION = 20


class StructureTooLargeError(InputError):
    """A state whose knowledge structure is too large to build (see `MAX_COMBINATIONS`)."""


@dataclass(frozen=True, eq=False)
class CardStructure:
    """The knowledge structure of a card game's public information.

    Attributes:
        layout: the cards and holders.
        atom: ``(card index, holder index)`` → its atom name, for cards in play.
        public: the public information.
        not_all: ``(holder, cards as a bitmask)``: the holder does not hold all of them.
    """

    layout: CardLayout
    atom: Mapping[tuple[int, int], str]
    public: PublicInfo
    not_all: tuple[tuple[int, int], ...] = ()
    # The structure once built (`build`): a list, as the dataclass is frozen.
    _built: list[KnowledgeStructure] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @classmethod
    def from_public(
        cls, public: PublicInfo, not_all: Iterable[tuple[int, int]] = ()
    ) -> CardStructure:
        """The structure whose states are the deals consistent with the public facts.

        The atoms are named at once (so formulas are checked before any work); the BDDs
        are built on the first question.

        Args:
            public: the public information.
            not_all: ``(holder, cards as a bitmask)``: the holder does not hold all of them.
        """
        layout = public.layout
        atom = {
            (c, h): holds_atom(layout.holders[h], layout.cards[c])
            for c in range(layout.n_cards)
            if not public.removed >> c & 1
            for h in range(layout.n_holders)
        }
        return cls(layout, atom, public, tuple(not_all))

    def hand_size_combinations(self) -> int:
        """How many combinations of the holders' numbers of unknown cards the law tracks.

        The counts tie every card to every other, so the law's BDD keeps, between one
        card and the next, how many unknown cards each holder has taken so far: its size
        grows with this product of (unknown cards + 1) over the holders (measured: 2 to
        15 nodes per combination on the full decks).
        """
        public = self.public
        combinations = 1
        for h, count in enumerate(public.counts):
            combinations *= count - public.holding[h].bit_count() + 1
        return combinations

    @property
    def structure(self) -> KnowledgeStructure:
        """The knowledge structure (`build` with the default limit).

        Raises:
            StructureTooLargeError: more than `MAX_COMBINATIONS` hand-size combinations.
            SymbolicUnavailableError: the package `dd` is not installed.
        """
        return self.build()

    @property
    def is_built(self) -> bool:
        """Whether the structure has been built."""
        return bool(self._built)

    def within(self, limit: int | None) -> bool:
        """Whether the structure is built, or has at most `limit` hand-size combinations."""
        return bool(self._built) or limit is None or self.hand_size_combinations() <= limit

    def build(
        self, limit: int | None = MAX_COMBINATIONS, nodes: int | None = None
    ) -> KnowledgeStructure:
        """The knowledge structure, built on first use; agents are the players' holder names.

        Args:
            limit: the most hand-size combinations to build it for; None for no limit
                (time and memory grow with them: see `MAX_COMBINATIONS`).
            nodes: past `limit`, build it anyway while the law stays within this many BDD
                nodes (checked after each holder's count; see `NODES_PER_COMBINATION`).

        Raises:
            StructureTooLargeError: more than `limit` hand-size combinations (and, with
                `nodes`, a law that grows past `nodes`).
            SymbolicUnavailableError: the package `dd` is not installed.
        """
        built = self._built
        if built:
            return built[0]
        combinations = self.hand_size_combinations()
        if limit is not None and combinations > limit and nodes is None:
            free = [
                f"{self.layout.holders[h]} {n - self.public.holding[h].bit_count()}"
                for h, n in enumerate(self.public.counts)
                if n > self.public.holding[h].bit_count()
            ]
            raise StructureTooLargeError(
                f"this state is too large for an exact answer: {len(free)} holders have "
                f"unknown cards ({', '.join(free)}), {combinations:,} combinations of their "
                f"numbers for the knowledge structure to track, more than the limit of "
                f"{limit:,} (docs/logic.md, Limits); ask at a later step, when fewer cards "
                "are unknown, or on a smaller deck or fewer players, or raise the limit "
                "(`epigames ask --limit`), which costs minutes and gigabytes"
            )
        public, layout, atom, not_all = self.public, self.layout, self.atom, self.not_all
        manager = Manager()
        holders = range(layout.n_holders)
        in_play = [c for c in range(layout.n_cards) if not public.removed >> c & 1]
        # Card-major order (as `atom` lists them) keeps each card's one-hot block together.
        atoms = {name: manager.new_var() for name in atom.values()}
        var = {key: atoms[name] for key, name in atom.items()}
        law = manager.true
        for c in in_play:
            where = public.where(c)
            allowed = (
                [where]
                if where >= 0
                else [
                    h for h in holders if not public.lacking[h] >> c & 1 and h not in layout.public
                ]
            )
            for h in holders:
                if h not in allowed:
                    law = law & ~manager.var(var[c, h])
            law = law & _exactly(manager, [var[c, h] for h in allowed], 1)
        for h, mask in public.constraints:
            some = manager.false
            for c in iter_bits(mask):
                some = some | manager.var(var[c, h])
            law = law & some
        facts = [(h, g) for g in public.groups for h in holders]
        for h, mask in (*facts, *not_all):
            every = manager.true
            for c in iter_bits(mask):
                # A removed card: the holder cannot hold all of them.
                every = every & manager.var(var[c, h]) if (c, h) in var else manager.false
            law = law & ~every
        # The counts last: they tie every card to every other, so the law grows large, and
        # each conjunction with it costs in proportion to its size.
        for h in holders:
            mine = [var[c, h] for c in in_play]
            law = law & _exactly(manager, mine, public.counts[h])
            if limit is not None and combinations > limit and nodes is not None:
                size = manager.size(law)
                if size > nodes:
                    raise StructureTooLargeError(
                        f"this state is too large for an exact answer: {combinations:,} "
                        f"combinations of the holders' numbers of unknown cards, and the "
                        f"knowledge structure's law grew past {nodes:,} BDD nodes "
                        f"({size:,}) before every count was in; no smaller exact model "
                        "applies to the formula's cards (docs/logic.md, Limits); ask at a "
                        "later step, or raise the limit (`epigames ask --limit 0`), which "
                        "costs minutes and gigabytes"
                    )
        shown = {var[c, h] for c in in_play for h in layout.public}
        observations = {
            layout.holders[p]: frozenset({var[c, p] for c in in_play} | shown)
            for p in sorted(layout.players)
        }
        built.append(KnowledgeStructure(manager, atoms, tuple(atoms.values()), law, observations))
        return built[0]

    @classmethod
    def from_knowledge(cls, knowledge: CardKnowledge) -> CardStructure:
        """The structure of the public part of a seat's knowledge (its hand left out).

        The last few are kept: every seat's questions on one state share its structure.
        """
        return _shared(knowledge.public, knowledge.not_all)

    # --- reading formulas -----------------------------------------------------------

    def agent(self, name: str) -> str:
        """The structure's agent for a seat given by index or name (any case).

        Raises:
            UnknownAgentError: no such seat.
        """
        return fm.named_agent([self.layout.holders[p] for p in sorted(self.layout.players)], name)

    def literal(self, name: str) -> tuple[int, int]:
        """The ``(card index, holder index)`` of an atom ``holds(holder, card)``.

        Raises:
            UnknownCardError: not such an atom, or an unknown holder or card.
        """
        m = re.fullmatch(r"\s*holds\(\s*([^,]*?)\s*,\s*(.*?)\s*\)\s*", name)
        if m is None:
            raise UnknownCardError(
                f"unknown atom {name!r}; atoms name who holds a card, like "
                f"{holds_atom(self.layout.holders[0], self.layout.cards[0])!r}"
            )
        who, card = m.groups()
        lowered = [h.lower() for h in self.layout.holders]
        if who.isdigit() and int(who) < self.layout.n_holders:
            h = int(who)
        elif who.lower() in lowered:
            h = lowered.index(who.lower())
        else:
            raise UnknownCardError(
                f"unknown holder {who!r} in {name!r}; choose 0..{self.layout.n_holders - 1} "
                f"or one of: {', '.join(self.layout.holders)}"
            )
        try:
            c = self.layout.parse_card(card)
        except UnknownCardError:
            few = ", ".join(str(x) for x in self.layout.cards[:6])
            raise UnknownCardError(
                f"unknown card {card!r} in {name!r}; cards are written like {few}, …"
            ) from None
        return c, h

    def canonical(self, formula: Formula) -> Formula:
        """The formula with its atoms and agents in the structure's own names.

        Atoms about removed cards become ⊥ (no deal puts them with anyone).

        Raises:
            UnknownCardError: an atom that is no ``holds`` atom of this layout.
            UnknownAgentError: a seat that does not exist.
        """
        names: dict[str, Formula] = {}
        for name in formula.atoms():
            key = self.literal(name)
            canon = self.atom.get(key)
            names[name] = fm.Bot() if canon is None else fm.Atom(canon)
        return fm.rename(formula, names.__getitem__, self.agent)

    # --- answers ----------------------------------------------------------------------

    def state(self, deal: Sequence[int]) -> frozenset[str]:
        """The true atoms of a deal given as one holder index per card (`REMOVED` for none)."""
        return frozenset(
            self.atom[c, h] for c, h in enumerate(deal) if h != REMOVED and (c, h) in self.atom
        )

    def holds(self, formula: Formula, deal: Sequence[int]) -> bool:
        """Whether the formula is true in the deal (one holder index per card).

        Raises:
            ModelError: the deal is not consistent with the public facts.
            UnknownCardError, UnknownAgentError: the formula names no such card or seat.
        """
        return self.structure.holds(self.canonical(formula), self.state(deal))

    def knows(self, knowledge: CardKnowledge, formula: Formula) -> bool:
        """Whether the seat of `knowledge` knows the formula (modal or not), from its view.

        Only the seat's hand is read besides the public facts, so the answer is the same
        in every deal the seat cannot tell from the true one.
        """
        if knowledge.agent is None:
            raise InputError("a public view is nobody's knowledge: ask a seat's")
        agent = self.layout.holders[knowledge.agent]
        return self._valid_for(knowledge, fm.K(agent, self.canonical(formula)))

    def possible_holders(self, knowledge: CardKnowledge, card: int) -> frozenset[int]:
        """The holders the seat considers possible for a card index (M_seat holds)."""
        if knowledge.agent is None:
            raise InputError("a public view is nobody's knowledge: ask a seat's")
        agent = self.layout.holders[knowledge.agent]
        return frozenset(
            h
            for h in range(self.layout.n_holders)
            if (card, h) in self.atom
            and self._valid_for(knowledge, fm.M(agent, fm.Atom(self.atom[card, h])))
        )

    def _valid_for(self, knowledge: CardKnowledge, canonical: Formula) -> bool:
        """Truth of a canonical formula at every state agreeing with the seat's hand."""
        s = self.structure
        assert knowledge.agent is not None
        hand = {
            s.atoms[name]: bool(knowledge.hand >> c & 1)
            for (c, h), name in self.atom.items()
            if h == knowledge.agent
        }
        at = s.law & s.manager.cube(hand)
        return at.implies(s.truth(canonical)) == s.manager.true

    def count_deals(self) -> int:
        """How many deals are consistent with the public facts."""
        return self.structure.count_states()


@functools.lru_cache(maxsize=4)
def _shared(public: PublicInfo, not_all: tuple[tuple[int, int], ...]) -> CardStructure:
    return CardStructure.from_public(public, not_all)
