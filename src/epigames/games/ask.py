"""Any epistemic formula about card holders or dice on any game state, answered exactly.

`ask(state, formula)` translates the state's public information into a model and
evaluates the formula at the true state. How is the game's (`Game.asking`): for the card
games (`CARDS`, the default) a knowledge structure (`cards.symbolic.CardStructure`, atoms
``holds(holder, card)``); Blufpoker gives its own (the cup's exact Kripke model, atoms
``cup_653`` and ``atleast_653``). `games.steps.match_at(game, strategies, seed, step)`
replays a seeded match to the state after a number of decisions, as `epigames play` plays
it; `Match.ask` asks about a match's current state.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from epigames.cards import CardKnowledge
from epigames.cards.deal_count import count_deals
from epigames.cards.quotient import evaluator
from epigames.cards.symbolic import MAX_COMBINATIONS, CardStructure, card_formula
from epigames.errors import InputError
from epigames.games.core import State
from epigames.games.picture import true_deal
from epigames.logic import formula as fm
from epigames.logic.formula import Formula

__all__ = [
    "CARDS",
    "Answer",
    "Asking",
    "SeatAnswer",
    "StepError",
    "UnknownAtomError",
    "ask",
    "ask_seat",
    "asking",
    "card_structure",
    "read_formula",
    "seat_answer",
    "true_deal",
]


class StepError(InputError):
    """A step outside the match, or a state with no deal or roll yet."""


class UnknownAtomError(InputError):
    """An atom that is not one of the game's (a card atom on dice, or a malformed one)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A formula's truth at a state, and which seats know it there.

    Attributes:
        formula: the formula asked, as given.
        value: whether it is true at the true deal (or roll).
        knowers: the seats that know it (K_seat formula holds).
        worlds: how many deals (or rolls) are consistent with the public information.
        kind: what the worlds are: ``"deals"`` or ``"rolls"``.
    """

    formula: Formula
    value: bool
    knowers: tuple[int, ...]
    worlds: int
    kind: str = "deals"


def _knowledge(state: State) -> CardKnowledge:
    try:
        knowledge = state.observation(0).knowledge
    except ValueError as exc:  # before a deal is over
        raise StepError(f"no card knowledge at this point: {exc}") from None
    if not isinstance(knowledge, CardKnowledge):
        raise InputError(
            f"{state.game.name} has no cards: a card structure is built for the games with cards"
        )
    return knowledge


def card_structure(state: State) -> CardStructure:
    """The knowledge structure of a card game state's public information.

    Raises:
        InputError: the game has no cards; StepError: no deal is over yet.
    """
    return CardStructure.from_knowledge(_knowledge(state))


class Asking(Protocol):
    """How formulas are answered on a game's states (`Game.asking`)."""

    #: What the game's atoms say, for help and messages.
    atoms: str

    def ask(self, state: State, formula: Formula, limit: int | None) -> Answer:
        """The formula's truth at the true state, and who knows it (see `ask`)."""
        ...

    def ask_seat(self, state: State, seat: int, formula: Formula, limit: int | None) -> SeatAnswer:
        """What the seat can tell of the formula from its own view (see `ask_seat`)."""
        ...

    def read(self, state: State, formula: Formula, own: Collection[str]) -> Formula:
        """The formula in the game's canonical names, checked (see `read_formula`)."""
        ...


def asking(state: State) -> Asking:
    """How the state's game answers formulas: its own way, else about card holders."""
    return state.game.asking or CARDS


def ask(state: State, formula: Formula | str, limit: int | None = MAX_COMBINATIONS) -> Answer:
    """The formula's truth at the true deal (or roll) of a game state, and who knows it.

    Args:
        state: a state of Kwartet, Klaverjas or Kemps after a deal, or of Blufpoker
            after the first roll.
        formula: a `Formula` or its text; ``holds(h, c)`` atoms need no quotes.
        limit: the most hand-size combinations to build a card structure for
            (`CardStructure.build`) before a smaller exact model is tried
            (`cards.quotient.evaluator`); None for no limit.

    Raises:
        FormulaSyntaxError: bad formula text.
        UnknownCardError, UnknownAgentError: a card, holder or seat the game has not.
        UnknownAtomError: an atom that is not one of the game's.
        InputError: no cards or dice; StepError: no deal or roll yet.
        StructureTooLargeError: more hand-size combinations than `limit`, no quotient
            for the formula's cards, and a law past `NODES_PER_COMBINATION` × `limit`
            nodes.
    """
    f = card_formula(formula) if isinstance(formula, str) else formula
    return asking(state).ask(state, f, limit)


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    """What one seat can tell of a formula from its own view: no hidden part is read.

    Attributes:
        formula: the formula asked.
        seat: whose view.
        verdict: ``"true"`` (in every world the seat considers possible, so it knows
            it), ``"false"`` (in none) or ``"unknown"`` (it cannot tell).
        others: per seat, as this seat can tell: ``"knows"`` (the seat knows the
            formula), ``"does not know"`` or ``"cannot tell"``; its own entry says
            whether it knows it.
    """

    formula: Formula
    seat: int
    verdict: str
    others: tuple[str, ...]


def ask_seat(
    state: State, seat: int, formula: Formula | str, limit: int | None = MAX_COMBINATIONS
) -> SeatAnswer:
    """What `seat` can tell of a formula at a state, from its own knowledge alone.

    Unlike `ask`, the true deal (or roll) is never read, so a person playing the seat
    learns nothing it could not work out: two states the seat cannot tell apart give
    the same answer. `limit` is as for `ask`.

    Raises:
        as `ask`; SeatError: no such seat.
    """
    f = card_formula(formula) if isinstance(formula, str) else formula
    return asking(state).ask_seat(state, seat, f, limit)


def seat_answer(
    formula: Formula, seat: int, seats: int, knows: Callable[[Formula], bool]
) -> SeatAnswer:
    """The seat's answer, given whether it knows a formula (already in the game's names)."""

    def tell(g: Formula, yes: str, no: str, neither: str) -> str:
        if knows(g):
            return yes
        return no if knows(fm.Not(g)) else neither

    verdict = tell(formula, "true", "false", "unknown")
    others = tuple(
        ("knows" if verdict == "true" else "does not know")
        if s == seat
        else tell(fm.K(str(s), formula), "knows", "does not know", "cannot tell")
        for s in range(seats)
    )
    return SeatAnswer(formula, seat, verdict, others)


def read_formula(state: State, text: str, own: Collection[str] = ()) -> Formula:
    """Formula text in the game's own names, as `ask` and the pictures read it.

    Seats may be given by number or in any case; ``holds(h, c)`` atoms need no quotes and
    may name the seat by number and the card in ASCII; atoms in `own` (a picture's, such
    as Kemps's ``holds(nobody, c)``) are taken as they are. A game with neither cards nor
    dice reads the text as it stands.

    Raises:
        FormulaSyntaxError: bad formula text.
        UnknownCardError, UnknownAgentError, UnknownAtomError: names the game has not.
        StepError: no deal or roll yet.
    """
    return asking(state).read(state, card_formula(text), own)


class _CardAsking:
    """Formulas about card holders, on the card engine's knowledge structure."""

    atoms = "holds(HOLDER, CARD)"

    def ask(self, state: State, formula: Formula, limit: int | None) -> Answer:
        knowledge = _knowledge(state)
        cards = CardStructure.from_knowledge(knowledge)
        truth = evaluator(cards, formula, true_deal(state, knowledge), limit)
        value = truth(formula)
        # What is false no seat knows (K_s f implies f): those models are not checked.
        seats = range(state.game.num_players) if value else range(0)
        knowers = tuple(s for s in seats if truth(fm.K(str(s), formula)))
        # Counted in whole numbers, by items of alike cards or else by the card engine:
        # CUDD counts a structure's states in floating point, which rounds past 2^53 deals.
        worlds = count_deals(cards)
        if worlds is None:
            outside = CardKnowledge(knowledge.public, None, 0, (), (), knowledge.not_all)
            worlds = outside.worlds_count()
        return Answer(formula, value, knowers, worlds)

    def ask_seat(self, state: State, seat: int, formula: Formula, limit: int | None) -> SeatAnswer:
        knowledge = state.observation(seat).knowledge
        CardStructure.from_knowledge(_knowledge(state)).canonical(formula)  # names checked

        def knows(g: Formula) -> bool:
            if isinstance(knowledge, CardKnowledge):
                return knowledge.knows(g, limit=limit)
            return knowledge.knows(g)

        return seat_answer(formula, seat, state.game.num_players, knows)

    def read(self, state: State, formula: Formula, own: Collection[str]) -> Formula:
        try:
            knowledge = state.observation(0).knowledge
        except (NotImplementedError, ValueError):  # a game with no knowledge, or before a deal
            knowledge = None
        if not isinstance(knowledge, CardKnowledge):
            return formula  # no card engine: the picture's own names are the game's
        cards = CardStructure.from_knowledge(knowledge)
        return fm.rename(
            formula,
            lambda name: fm.Atom(name) if name in own else cards.canonical(fm.Atom(name)),
            cards.agent,
        )


#: The default `Asking`: formulas about card holders.
CARDS: Asking = _CardAsking()
