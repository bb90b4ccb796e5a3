"""Per-game knowledge the generic suite needs: parameter settings and no-peeking oracles.

A game whose state keeps its cards in a location table (`games.table.TableState`, as the
template game `sevens` does) needs nothing here: `hidden_oracle` and `sound_oracle` read
the table. Any other game adds a function to `HIDDEN` (else
`test_every_game_has_a_no_peeking_oracle` fails) and a referee to `SOUND` (else
`test_every_game_has_a_knowledge_referee` fails). `SETTINGS` lists game strings to test
beyond the defaults.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from epigames.games import State
from epigames.games.blufpoker import BlufpokerState
from epigames.games.blufpoker.dice import ROLLS, Roll
from epigames.games.blufpoker.events import CupSeen, DiceRolled, Opened
from epigames.games.kemps import KempsState
from epigames.games.klaverjas import Dealt as KlaverjasDealt, KlaverjasState
from epigames.games.klaverjas.strategies.mc import MonteCarlo
from epigames.games.kwartet import KwartetState
from epigames.games.table import TableState

SETTINGS: dict[str, list[str]] = {
    "kwartet": [
        "kwartet",
        "kwartet(players=3,kinds=5)",
        "kwartet(players=6,kinds=13,ask_own=false)",
        "kwartet(players=5,kinds=2,ask_own=false)",
    ],
    "blufpoker": [
        "blufpoker",
        "blufpoker(players=2,penalties=2)",
        "blufpoker(players=6,penalties=3)",
    ],
    "klaverjas": [
        "klaverjas",
        "klaverjas(rules=rotterdam,undertrump=force,trump=bidding,deals=2)",
        "klaverjas(preset=2017)",
        "klaverjas(ranks=4,undertrump=free,trump=random,deals=3,target=150,four_kind=false)",
    ],
    # Random players rarely end a turn early, so small caps keep the rollouts short.
    "kemps": [
        "kemps(ranks=5,max_turns=40)",
        "kemps(players=2,table=4,ranks=5,max_turns=60)",
        "kemps(players=4,table=3,ranks=6,max_swaps=1,redeal_after=1,max_turns=40)",
        "kemps(teams=true,ranks=6,max_turns=30)",
    ],
}


#: Strategy settings under which the suite plays (`lighten`; `conftest.py` sets them for
#: every test): (class, attribute, value). The suite plays every registered strategy, in
#: full 16-deal Klaverjas matches too; `mc` then samples its fewest deals per decision
#: (`MIN_SAMPLES`) instead of a budget's worth: the same code and the same draws from its
#: generator, so determinism is checked as well, at a fraction of the time.
LIGHT: list[tuple[type, str, object]] = [(MonteCarlo, "budget", 0)]


def lighten() -> None:
    """Apply `LIGHT` for good (in a subprocess that checks a match played here)."""
    for cls, name, value in LIGHT:
        setattr(cls, name, value)


def kwartet_hidden(state: State, seat: int) -> set[str]:
    """Card tokens `seat` must not see: others' cards never named in a public event so far."""
    assert isinstance(state, KwartetState)
    public = " ".join(json.dumps(e.to_dict(), ensure_ascii=False) for e in state.events if e.public)
    hidden: set[str] = set()
    for other, hand in enumerate(state.hands()):
        if other != seat:
            hidden.update(str(c) for c in hand if str(c) not in public)
    return hidden


def blufpoker_hidden(state: State, seat: int) -> set[str]:
    """The cup's roll, for a seat that has not seen this cup and while it is not public.

    The cup changes only when its holder rolls, so a seat's own look under the cup counts
    only if no one rolled after it; public events that name the roll (a true opening bid,
    a truthful bid, a lifted cup) make it known to everyone.
    """
    assert isinstance(state, BlufpokerState)
    cup = state.cup
    if cup is None:
        return set()
    token = str(cup)
    last_change = max(
        (i for i, e in enumerate(state.events) if isinstance(e, DiceRolled | Opened)), default=0
    )
    for i, event in enumerate(state.events):
        if event.public and token in json.dumps(event.to_dict(), ensure_ascii=False):
            return set()
        if isinstance(event, CupSeen) and event.seat == seat and i >= last_change - 1:
            return set()
    return {token}


def klaverjas_hidden(state: State, seat: int) -> set[str]:
    """Other seats' cards never named in a public event, and the text of their `Dealt`.

    Every card is named publicly once it is played (or ruled out, in a play's `lacks`),
    so after the first deal the cards alone are no test; the other seats' hands as dealt
    stay hidden in every deal.
    """
    assert isinstance(state, KlaverjasState)
    public = " ".join(json.dumps(e.to_dict(), ensure_ascii=False) for e in state.events if e.public)
    hidden = {e.text for e in state.events if isinstance(e, KlaverjasDealt) and e.seat != seat}
    for other, hand in enumerate(state.hands()):
        if other != seat:
            hidden.update(str(c) for c in hand if str(c) not in public)
    return hidden


def kemps_hidden(state: State, seat: int) -> set[str]:
    """Other seats' cards never named in a public event, and the text of every event the
    seat does not observe (other seats' `Dealt`, new hands, a team signal it is not shown).

    A card in a hand may have been on the table before (then everyone saw it), so only
    the cards never named publicly and the hands as dealt are tokens.
    """
    assert isinstance(state, KempsState)
    public = " ".join(json.dumps(e.to_dict(), ensure_ascii=False) for e in state.events if e.public)
    hidden = {e.text for e in state.events if not e.visible_to(seat)}
    for other, hand in enumerate(state.hands()):
        if other != seat:
            hidden.update(str(c) for c in hand if str(c) not in public)
    return hidden


#: game name -> (state, seat) -> strings that would reveal hidden information to the seat.
HIDDEN: dict[str, Callable[[State, int], set[str]]] = {
    "kwartet": kwartet_hidden,
    "blufpoker": blufpoker_hidden,
    "klaverjas": klaverjas_hidden,
    "kemps": kemps_hidden,
}


def kwartet_sound(state: State, seat: int) -> int:
    """Check that `seat`'s card knowledge is true of the real hands; returns claims checked.

    Every known holder must hold the card, and every card's true holder must be among its
    possible holders (so no "lacks" the seat knows is false either).
    """
    assert isinstance(state, KwartetState)
    knowledge = state.observation(seat).knowledge
    where = {card: s for s, hand in enumerate(state.hands()) for card in hand}
    claims = 0
    for card in state.game.deck:
        holder = knowledge.holder(card)
        if card not in where:  # laid down
            assert holder is None and not knowledge.possible_holders(card), card
            continue
        assert where[card] in knowledge.possible_holders(card), (seat, card)
        if holder is not None:
            assert holder == where[card], (seat, card, holder)
            claims += 1
    return claims


def blufpoker_sound(state: State, seat: int) -> int:
    """Check that `seat`'s knowledge of the cup is true of the real roll; returns claims."""
    assert isinstance(state, BlufpokerState)
    view = state.observation(seat)
    knowledge = view.knowledge
    cup = state.cup
    if view.phase.startswith("poker"):  # the open poker dice are the subject, not the cup
        dice = view.poker_dice
        cup = Roll(*sorted(dice, reverse=True)) if len(dice) == 3 else None
    if cup is None:  # nothing rolled yet, or the holder is mid-roll
        return 0
    claims = 0
    if knowledge.known is not None:
        assert knowledge.known == cup, (seat, knowledge.known, cup)
        claims += 1
    assert knowledge.considers_possible(cup), (seat, cup)
    for roll in ROLLS:
        if knowledge.knows_at_least(roll):
            assert cup.rank >= roll.rank, (seat, roll, cup)
            claims += 1
        if knowledge.knows_below(roll):
            assert cup.rank < roll.rank, (seat, roll, cup)
            claims += 1
    return claims


def klaverjas_sound(state: State, seat: int) -> int:
    """Check `seat`'s card knowledge of the current deal against the hands and the table.

    A card in no hand has been played this deal and lies on the table (holder 4). Returns
    the number of known holders checked.
    """
    assert isinstance(state, KlaverjasState)
    view = state.observation(seat)
    if view.table.deal_start < 0:
        return 0
    knowledge = view.knowledge
    where = {card: s for s, hand in enumerate(state.hands()) for card in hand}
    claims = 0
    for card in state.game.deck:
        truth = where.get(card, 4)
        assert truth in knowledge.possible_holders(card), (seat, card)
        holder = knowledge.holder(card)
        if holder is not None:
            assert holder == truth, (seat, card, holder)
            claims += 1
    return claims


def kemps_sound(state: State, seat: int) -> int:
    """Check `seat`'s knowledge of every card's location (a hand, the table, the deck, the
    discard pile, out of the game) against the true state; returns known locations checked.
    """
    assert isinstance(state, KempsState)
    if not state.observation(seat).log:
        return 0
    knowledge = state.observation(seat).knowledge
    claims = 0
    for card in state.game.deck:
        truth = state.location(card)
        assert truth in knowledge.possible_holders(card), (seat, card, truth)
        assert knowledge.probability(card, truth) > 0, (seat, card)
        holder = knowledge.holder(card)
        if holder is not None:
            assert holder == truth, (seat, card, holder)
            claims += 1
    return claims


#: game name -> (state, seat) -> checks the seat's `view.knowledge` against the true state
#: (asserting) and returns how many claims of knowledge it checked.
SOUND: dict[str, Callable[[State, int], int]] = {
    "kwartet": kwartet_sound,
    "blufpoker": blufpoker_sound,
    "klaverjas": klaverjas_sound,
    "kemps": kemps_sound,
}


def table_hidden(state: State, seat: int) -> set[str]:
    """Cards other seats hold (the location table says) that no event `seat` saw names."""
    assert isinstance(state, TableState)
    seen = " ".join(
        json.dumps(e.to_dict(), ensure_ascii=False) for e in state.events if e.visible_to(seat)
    )
    return {
        str(card)
        for other, hand in enumerate(state.hands())
        if other != seat
        for card in hand
        if str(card) not in seen
    }


def table_sound(state: State, seat: int) -> int:
    """Check `seat`'s knowledge of every card against the location table; returns claims.

    A known holder must be the card's holder, and the true holder must be possible.
    """
    assert isinstance(state, TableState)
    knowledge = state.observation(seat).knowledge
    layout = state.game.card_layout
    assert layout is not None
    claims = 0
    for card in layout.cards:
        where = state.location(card)
        assert where in knowledge.possible_holders(card), (seat, card, where)
        holder = knowledge.holder(card)
        if holder is not None:
            assert holder == where, (seat, card, holder, where)
            claims += 1
    return claims


def _table_game(name: str) -> bool:
    from epigames.games import load_game

    return isinstance(load_game(name).new_initial_state(), TableState)


def hidden_oracle(name: str) -> Callable[[State, int], set[str]] | None:
    """The no-peeking oracle of a game: its own, or the table's for a table game."""
    return HIDDEN.get(name) or (table_hidden if _table_game(name) else None)


def sound_oracle(name: str) -> Callable[[State, int], int] | None:
    """The knowledge referee of a game: its own, or the table's for a table game."""
    return SOUND.get(name) or (table_sound if _table_game(name) else None)


def showcase_lineup(name: str) -> tuple[str, tuple[str, ...]]:
    """A game's showcase setting and one agent per seat: the setting a per-game table of
    the tests falls back to for a game it does not list (the template game lists none)."""
    from epigames.games.core import game_class

    game, agents = game_class(name).showcase_match()
    return str(game), agents


def with_showcases(
    table: dict[str, list[tuple[str, tuple[str, ...], int]]], games: int, skip: str
) -> dict[str, list[tuple[str, tuple[str, ...], int]]]:
    """A per-game table of (setting, agents, games), with every registered game it does not
    list (but `skip`, the tests' toy game) played `games` times on its showcase."""
    from epigames.games import registered_games

    out = dict(table)
    for name in registered_games():
        if name not in out and name != skip:
            spec, agents = showcase_lineup(name)
            out[name] = [(spec, agents, games)]
    return out
