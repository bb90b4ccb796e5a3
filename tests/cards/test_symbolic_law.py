"""The law of `CardStructure`, built node by node, equals the conjunction of the facts.

The reference below conjoins every public fact as its own small diagram: a card has
exactly one of its allowed holders, a holder holds at least one of some cards, not all of
a group or of a not-all set, and exactly its count of cards. BDDs are canonical, so on the
same manager equal functions are the same node: the test compares them directly, at many
states of every card game on decks too large to list the deals of.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from epigames.cards.public import iter_bits
from epigames.cards.symbolic import CardStructure
from epigames.games import CHANCE, Match, load_game
from epigames.games.ask import card_structure
from epigames.games.kemps.knowledge import _no_kemps
from epigames.logic.symbolic.bdd import Manager, Node

pytest.importorskip("dd")

GAMES = [
    "kwartet(players=4,kinds=6)",
    "kwartet(players=5,kinds=4,ask_own=false)",
    "klaverjas(deals=1)",
    "klaverjas(rules=rotterdam,undertrump=force,deals=1)",
    "kemps(players=3,ranks=6)",
    "kemps(teams=true,ranks=5,max_turns=60)",
]


def exactly(manager: Manager, names: Sequence[str], k: int) -> Node:
    """Exactly k of the variables are true, by conjunction and disjunction only."""
    # ways[j]: exactly j of the variables seen so far are true.
    ways = [manager.true] + [manager.false] * k
    for name in names:
        x = manager.var(name)
        ways = [(ways[j] & ~x) | (ways[j - 1] & x if j else manager.false) for j in range(k + 1)]
    return ways[k]


def conjoined_law(cards: CardStructure) -> Node:
    """The consistent deals as the conjunction of one diagram per public fact."""
    s = cards.structure
    manager, public, layout = s.manager, cards.public, cards.layout
    holders = range(layout.n_holders)
    var = {key: s.atoms[name] for key, name in cards.atom.items()}
    in_play = [c for c in range(layout.n_cards) if not public.removed >> c & 1]
    law = manager.true
    for c in in_play:
        where = public.where(c)
        allowed = [
            h
            for h in holders
            if h == where
            or (where < 0 and h not in layout.public and not public.lacking[h] >> c & 1)
        ]
        law &= exactly(manager, [var[c, h] for h in allowed], 1)
        for h in holders:
            if h not in allowed:
                law &= ~manager.var(var[c, h])
    for h, mask in public.constraints:
        some = manager.false
        for c in iter_bits(mask):
            some |= manager.var(var[c, h])
        law &= some
    for h, mask in [*((h, g) for g in public.groups for h in holders), *cards.not_all]:
        if all((c, h) in var for c in iter_bits(mask)):
            every = manager.true
            for c in iter_bits(mask):
                every &= manager.var(var[c, h])
            law &= ~every
    for h in holders:
        law &= exactly(manager, [var[c, h] for c in in_play], public.counts[h])
    return law


@pytest.mark.parametrize("game", GAMES)
def test_the_law_is_the_conjunction_of_the_facts(game: str) -> None:
    seen: set[object] = set()
    kinds = set()
    for seed in range(2):
        match = Match(game, ["random"] * load_game(game).num_players, seed)
        made = 0
        match.run_chance()
        while not match.over and made < 240:
            if made % 15 == 0 and match.state.current_player != CHANCE:
                cards = card_structure(match.state)
                public = cards.public
                if game.startswith("kemps"):
                    # What no Kemps at each seat's turn would add (`_no_kemps`), at once.
                    more = [
                        f
                        for h in range(load_game(game).num_players)
                        for f in _no_kemps(public, h, [])
                    ]
                    cards = CardStructure.from_public(public, (*cards.not_all, *more))
                key = (public, cards.not_all)
                if key not in seen:
                    seen.add(key)
                    assert cards.structure.law == conjoined_law(cards)
                    kinds |= {
                        name
                        for name, present in (
                            ("lacks", any(public.lacking)),
                            ("at least one", public.constraints),
                            ("groups", public.groups),
                            ("not all", cards.not_all),
                        )
                        if present
                    }
            match.step()
            match.run_chance()
            made += 1
    assert len(seen) >= 3
    # Each game's facts are met: the test would catch a kind of fact built wrongly.
    expected = {
        "kwartet": {"lacks", "at least one", "groups"},
        "klaverjas": {"lacks"},
        "kemps": {"not all"},
    }[game.split("(")[0]]
    assert expected <= kinds
