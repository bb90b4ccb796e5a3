"""Any epistemic formula about card holders or dice on any game state, answered exactly.

`ask(state, formula)` translates the state's public information into a model and
evaluates the formula at the true state: for the card games a knowledge structure
(`cards.symbolic.CardStructure`, atoms ``holds(holder, card)``), for Blufpoker the cup's
exact Kripke model (`blufpoker.knowledge.cup_model`, the one its picture draws; atoms
``cup_653`` and ``atleast_653``). `games.steps.match_at(game, strategies, seed, step)`
replays a seeded match to the state after a number of decisions, as `epigames play` plays
it; `Match.ask` asks about a match's current state.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from epigames.cards import CardKnowledge
from epigames.cards.deal_count import count_deals
from epigames.cards.quotient import evaluator
from epigames.cards.symbolic import MAX_COMBINATIONS, CardStructure, card_formula
from epigames.errors import InputError
from epigames.games.blufpoker.dice import Roll, RollError
from epigames.games.blufpoker.knowledge import cup_truth
from epigames.games.blufpoker.rules import BlufpokerState
from epigames.games.core import State
from epigames.games.picture import true_deal
from epigames.logic import formula as fm
from epigames.logic.formula import Formula

__all__ = [
    "DICE_ATOMS",
    "Answer",
    "SeatAnswer",
    "StepError",
    "UnknownAtomError",
    "ask",
    "ask_seat",
    "card_structure",
    "dice_formula",
    "read_formula",
    "true_deal",
]

#: What Blufpoker's atoms say, for help and messages.
DICE_ATOMS = "cup_653 (the cup holds 653) and atleast_653 (it holds 653 or higher)"


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
            f"{state.game.name} has no cards: a card structure is built for kwartet, "
            "klaverjas and kemps"
        )
    return knowledge


def card_structure(state: State) -> CardStructure:
    """The knowledge structure of a card game state's public information.

    Raises:
        InputError: the game has no cards; StepError: no deal is over yet.
    """
    return CardStructure.from_knowledge(_knowledge(state))


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
        UnknownAtomError: an atom that is not one of Blufpoker's.
        InputError: no cards or dice; StepError: no deal or roll yet.
        StructureTooLargeError: more hand-size combinations than `limit`, no quotient
            for the formula's cards, and a law past `NODES_PER_COMBINATION` × `limit`
            nodes.
    """
    f = card_formula(formula) if isinstance(formula, str) else formula
    if isinstance(state, BlufpokerState):
        return _ask_dice(state, f)
    knowledge = _knowledge(state)
    cards = CardStructure.from_knowledge(knowledge)
    truth = evaluator(cards, f, true_deal(state, knowledge), limit)
    knowers = tuple(s for s in range(state.game.num_players) if truth(fm.K(str(s), f)))
    # Counted in whole numbers, by items of alike cards or else by the card engine: CUDD
    # counts a structure's states in floating point, which rounds past 2^53 deals.
    worlds = count_deals(cards)
    if worlds is None:
        outside = CardKnowledge(knowledge.public, None, 0, (), (), knowledge.not_all)
        worlds = outside.worlds_count()
    return Answer(f, truth(f), knowers, worlds)


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
    seats = state.game.seat_names
    knowledge = state.observation(seat).knowledge
    if isinstance(state, BlufpokerState):
        if not state.picture_subjects():
            raise StepError("no die has been rolled yet: there is no cup to ask about")

        def prepared(g: Formula) -> Formula:
            return dice_formula(g, seats)
    else:
        cards = CardStructure.from_knowledge(_knowledge(state))
        cards.canonical(f)  # names checked first

        def prepared(g: Formula) -> Formula:
            return g

    def knows(g: Formula) -> bool:
        if isinstance(knowledge, CardKnowledge):
            return knowledge.knows(g, limit=limit)
        return knowledge.knows(g)

    def tell(g: Formula, yes: str, no: str, neither: str) -> str:
        if knows(prepared(g)):
            return yes
        return no if knows(prepared(fm.Not(g))) else neither

    verdict = tell(f, "true", "false", "unknown")
    others = tuple(
        ("knows" if verdict == "true" else "does not know")
        if s == seat
        else tell(fm.K(str(s), f), "knows", "does not know", "cannot tell")
        for s in range(len(seats))
    )
    return SeatAnswer(f, seat, verdict, others)


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
    f = card_formula(text)
    if isinstance(state, BlufpokerState):
        return dice_formula(f, state.game.seat_names)
    try:
        knowledge = state.observation(0).knowledge
    except (NotImplementedError, ValueError):  # a game with no knowledge, or before a deal
        knowledge = None
    if not isinstance(knowledge, CardKnowledge):
        return f  # no card engine: the picture's own names are the game's
    cards = CardStructure.from_knowledge(knowledge)
    return fm.rename(
        f,
        lambda name: fm.Atom(name) if name in own else cards.canonical(fm.Atom(name)),
        cards.agent,
    )


def dice_formula(formula: Formula, seats: Sequence[str]) -> Formula:
    """A Blufpoker formula with seats by name (given by number or any case) and atoms checked.

    Raises:
        UnknownAtomError: an atom other than ``cup_XYZ`` or ``atleast_XYZ`` of a roll.
        UnknownAgentError: no such seat.
    """

    def atom(name: str) -> Formula:
        kind, _, roll = name.partition("_")
        if kind not in ("cup", "atleast") or not roll:
            raise UnknownAtomError(
                f"unknown atom {name!r} for blufpoker; its atoms are about the roll under "
                f"the cup: {DICE_ATOMS}"
            )
        try:
            return fm.Atom(f"{kind}_{Roll.parse(roll)}")
        except RollError as exc:
            raise UnknownAtomError(f"unknown atom {name!r}: {exc}") from None

    return fm.rename(formula, atom, lambda name: fm.named_agent(seats, name))


def _ask_dice(state: BlufpokerState, formula: Formula) -> Answer:
    seats = state.game.seat_names
    f = dice_formula(formula, seats)
    if not state.picture_subjects():
        raise StepError("no die has been rolled yet: there is no cup to ask about")
    # The model and true world of the spectator's picture, so both give one answer.
    cup, world = cup_truth(state)
    value = cup.model.holds(f, world)
    knowers = tuple(s for s, name in enumerate(seats) if cup.model.holds(fm.K(name, f), world))
    return Answer(formula, value, knowers, len(set(cup.ranks)), "rolls")
