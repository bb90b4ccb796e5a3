"""Any epistemic formula about card holders on any state of a card game, answered exactly.

`ask(state, formula)` translates the state's public information into a knowledge
structure (`cards.symbolic.CardStructure`) and evaluates the formula at the true deal;
`match_at(game, strategies, seed, step)` replays a seeded match to the state after a
number of decisions, as `epigames play` plays it. Card games only: Blufpoker's dice have
no structure yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from epigames.cards import CardKnowledge
from epigames.cards.public import UNKNOWN
from epigames.cards.symbolic import CardStructure, card_formula
from epigames.errors import InputError
from epigames.games.core import Game, State
from epigames.games.match import Match
from epigames.logic import formula as fm
from epigames.logic.formula import Formula

__all__ = ["Answer", "StepError", "ask", "card_structure", "match_at", "true_deal"]


class StepError(InputError):
    """A step outside the match, or a state whose cards have no knowledge yet."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A formula's truth at a state, and which seats know it there.

    Attributes:
        formula: the formula asked, as given.
        value: whether it is true at the true deal.
        knowers: the seats that know it (K_seat formula holds).
        deals: how many deals are consistent with the public information.
    """

    formula: Formula
    value: bool
    knowers: tuple[int, ...]
    deals: int


def _knowledge(state: State, seat: int) -> CardKnowledge:
    try:
        knowledge = state.observation(seat).knowledge
    except ValueError as exc:  # before a deal is over
        raise StepError(f"no card knowledge at this point: {exc}") from None
    if not isinstance(knowledge, CardKnowledge):
        raise InputError(
            f"{state.game.name} has no cards: 'ask' answers formulas about card holders "
            "(kwartet, klaverjas, kemps)"
        )
    return knowledge


def card_structure(state: State) -> CardStructure:
    """The knowledge structure of a card game state's public information.

    Raises:
        InputError: the game has no cards; StepError: no deal is over yet.
    """
    return CardStructure.from_knowledge(_knowledge(state, 0))


def true_deal(state: State, knowledge: CardKnowledge) -> tuple[int, ...]:
    """The true holder index of every card (`REMOVED` for cards out of play)."""
    layout = knowledge.layout
    public = knowledge.public
    deal = list(public.location)
    hands = getattr(state, "hands", None)
    if callable(hands):
        for seat, hand in enumerate(hands()):
            for card in hand:
                deal[layout.card_index(card)] = seat
    locate = getattr(state, "location", None)
    for c, h in enumerate(deal):
        if h == UNKNOWN:
            if not callable(locate):
                raise InputError(f"the holder of {layout.card_name(c)} is not known")
            deal[c] = locate(layout.cards[c])
    return tuple(deal)


def ask(state: State, formula: Formula | str) -> Answer:
    """The formula's truth at the true deal of a card game state, and who knows it.

    Args:
        state: a state of Kwartet, Klaverjas or Kemps after a deal.
        formula: a `Formula` or its text; ``holds(h, c)`` atoms need no quotes.

    Raises:
        FormulaSyntaxError: bad formula text.
        UnknownCardError, UnknownAgentError: a card, holder or seat the game has not.
        InputError: not a card game; StepError: no deal yet.
    """
    f = card_formula(formula) if isinstance(formula, str) else formula
    knowledge = _knowledge(state, 0)
    cards = CardStructure.from_knowledge(knowledge)
    cards.canonical(f)  # a bad name is reported before the structure is built
    deal = true_deal(state, knowledge)
    value = cards.holds(f, deal)
    knowers = tuple(
        seat for seat in range(state.game.num_players) if cards.holds(fm.K(str(seat), f), deal)
    )
    return Answer(f, value, knowers, cards.count_deals())


def match_at(game: Game | str, strategies: Sequence[str], seed: int, step: int) -> Match:
    """A seeded match played to the state after `step` decisions (and the chance after them).

    Step 0 is the first decision point (the deal done); the last step is the end.

    Raises:
        StepError: the match ends before `step`.
    """
    match = Match(game, strategies, seed)
    if step < 0:
        raise StepError(f"step {step} is negative; steps count decisions from 0")
    for done in range(step):
        match.run_chance()
        if match.over:
            raise StepError(
                f"step {step} is past the end: this match has {done} decisions (steps 0..{done})"
            )
        match.step()
    match.run_chance()
    return match
