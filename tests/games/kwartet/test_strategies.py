"""Kwartet strategies: each decision rule, legality, determinism, strength, the move limit."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from epigames.games import TERMINAL, load_game, make_strategy, play_match, strategies_for
from epigames.games.core import View
from epigames.games.kwartet import Ask, Card, GameOver, KwartetState, KwartetView
from epigames.games.match import sample_outcome, seed_streams
from epigames.games.strategy import Decision, Strategy, Thought
from tests.games.kwartet.helpers import dealt

REPORT = ("greedy", "silent", "mixed", "owner", "defensive", "aggressive")
ALL = ("random", *REPORT, "expert")


def decisions(
    strategy: str, spec: str = "kwartet(kinds=6)", games: int = 4
) -> Iterator[tuple[KwartetView, Decision]]:
    """Every decision of `games` games in which all seats play `strategy`."""
    game = load_game(spec)
    for seed in range(games):
        chance, seats = seed_streams(seed, game.num_players)
        players = [make_strategy("kwartet", strategy, r) for r in seats]
        state = game.new_initial_state()
        while state.current_player != TERMINAL:
            seat = state.current_player
            if seat < 0:
                state.apply(sample_outcome(state.chance_outcomes(), chance))
                continue
            view = state.observation(seat)
            assert isinstance(view, KwartetView)
            decision = players[seat].choose(view)
            yield view, decision
            state.apply(decision.action)


def known(view: KwartetView) -> dict[Ask, int]:
    """Sure asks: missing cards whose holder the seat knows."""
    own = set(view.hand)
    sure = {}
    for card in view.askable_cards:
        if card not in own:
            holder = view.knowledge.holder(card)
            if holder is not None:
                sure[Ask(holder, card)] = holder
    return sure


def missing(view: KwartetView) -> list[Card]:
    own = set(view.hand)
    return [c for c in view.askable_cards if c not in own]


def choose(strategy: str, state: KwartetState, seed: int = 0) -> tuple[KwartetView, Decision]:
    view = state.observation(state.current_player)
    decision = make_strategy("kwartet", strategy, random.Random(seed)).choose(view)
    assert decision.action in view.legal_actions
    return view, decision


def scripted() -> KwartetState:
    """South to move; Northwest has publicly taken ⟨1,4⟩ from Northeast."""
    state = dealt(
        "kwartet(players=3,kinds=3)",
        "1.1 1.2 2.1 3.1",
        "1.3 2.2 2.3 3.2",
        "1.4 2.4 3.3 3.4",
    )
    for move in ("ask 1 3.3", "ask 2 1.4", "ask 0 3.4", "ask 0 2.2"):
        state.apply(state.game.parse_action(move))
    assert state.current_player == 0
    return state


def test_all_strategies_are_registered() -> None:
    assert set(ALL) <= set(strategies_for("kwartet"))


def test_greedy_asks_the_known_holder_and_says_why() -> None:
    view, decision = choose("greedy", scripted())
    assert view.knowledge.holder(decision.action.card) == decision.action.target  # type: ignore[attr-defined]
    assert decision.thought.text.startswith("I know ")
    # ⟨1,4⟩ went to Northwest in public: the thought says so when greedy picks it.
    thoughts = {choose("greedy", scripted(), s)[1].thought.text for s in range(30)}
    assert (
        "I know Northwest holds ⟨1,4⟩: Northwest got it in an ask everyone saw; I ask for it."
        in thoughts
    )


@pytest.mark.parametrize("strategy", ["greedy", "owner", "defensive", "aggressive", "expert"])
def test_known_holder_first(strategy: str) -> None:
    seen = 0
    for view, decision in decisions(strategy):
        sure = known(view)
        if sure:
            seen += 1
            assert decision.action in sure, decision.thought.text
        else:
            assert re.match(r"I know \w+ holds", decision.thought.text) is None
    assert seen > 10


def test_greedy_asks_at_random_when_it_knows_nothing() -> None:
    targets = set()
    for view, decision in decisions("greedy"):
        if not known(view):
            assert "at random" in decision.thought.text
            targets.add(decision.action.target)  # type: ignore[attr-defined]
    assert len(targets) > 1


def test_silent_asks_known_cards_only_for_kinds_it_can_complete() -> None:
    for view, decision in decisions("silent"):
        sure = known(view)
        action = decision.action
        assert isinstance(action, Ask)
        kinds: dict[int, list[Card]] = {}
        for card in missing(view):
            kinds.setdefault(card.kind, []).append(card)
        sure_cards = {a.card for a in sure}
        whole = {k for k, cs in kinds.items() if all(c in sure_cards for c in cs)}
        if whole:
            assert action in sure and action.card.kind in whole
        else:
            assert "I know no whole kind yet" in decision.thought.text


def fresh(spec: str = "kwartet", seed: int = 0) -> KwartetState:
    """A state right after a random deal (nobody knows anything but its own hand)."""
    state = load_game(spec).new_initial_state()
    assert isinstance(state, KwartetState)
    rng = random.Random(seed)
    while state.current_player < 0:
        state.apply(sample_outcome(state.chance_outcomes(), rng))
    return state


def test_silent_decoys_only_when_asking_for_own_cards_is_allowed() -> None:
    state = fresh()
    decoys = 0
    for seed in range(60):
        view, decision = choose("silent", state, seed)
        if "which I hold myself" in decision.thought.text:
            decoys += 1
            assert decision.action.card in view.hand  # type: ignore[attr-defined]
    assert 8 < decoys < 35  # a third of 60, when no kind is complete
    for view, decision in decisions("silent", "kwartet(kinds=6,ask_own=false)", games=2):
        assert "which I hold myself" not in decision.thought.text
        assert decision.action.card not in view.hand  # type: ignore[attr-defined]


def test_mixed_uses_both_rules() -> None:
    thoughts = [d.thought.text for _, d in decisions("mixed", games=3)]
    assert any("I know no whole kind yet" in t for t in thoughts)  # silent's fallback
    assert any("I know no holder of a card I need" in t for t in thoughts)  # greedy's


def test_owner_asks_a_possible_holder() -> None:
    for view, decision in decisions("owner"):
        action = decision.action
        assert isinstance(action, Ask)
        assert action.target in view.knowledge.possible_holders(action.card)
        assert action.card not in view.hand


def test_defensive_picks_the_kind_needing_fewest_cards_then_the_surest_card() -> None:
    checked = 0
    for view, decision in decisions("defensive"):
        if known(view):
            continue
        checked += 1
        action = decision.action
        assert isinstance(action, Ask)
        held = {c.kind for c in view.hand}
        need = {k: 4 - sum(c.kind == k for c in view.hand) for k in held}
        assert need[action.card.kind] == min(need.values())
        close = [c for c in missing(view) if need[c.kind] == min(need.values())]
        fewest = min(len(view.knowledge.possible_holders(c)) for c in close)
        assert len(view.knowledge.possible_holders(action.card)) == fewest
        assert action.target in view.knowledge.possible_holders(action.card)
    assert checked > 10


def test_aggressive_asks_the_leader_for_its_most_probable_card() -> None:
    checked = 0
    for view, decision in decisions("aggressive", games=6):
        if known(view):
            continue
        action = decision.action
        assert isinstance(action, Ask)
        probs = view.knowledge.marginals()
        can = [t for t in view.targets if any(probs[c.index, t] > 0 for c in missing(view))]
        top = max(view.scores[t] for t in can)
        assert view.scores[action.target] == top
        best = max(probs[c.index, action.target] for c in missing(view))
        assert probs[action.card.index, action.target] == best
        checked += top > min(view.scores)
    assert checked > 5  # some decisions where the leader is not everyone


def test_expert_asks_the_surest_card_of_the_closest_kind_when_nothing_is_sure() -> None:
    checked = 0
    for view, decision in decisions("expert"):
        if known(view):
            continue
        checked += 1
        action = decision.action
        assert isinstance(action, Ask)
        need = {k: 4 - sum(c.kind == k for c in view.hand) for k in {c.kind for c in view.hand}}
        assert need[action.card.kind] == min(need.values())
        probs = view.knowledge.marginals()
        close = [c for c in missing(view) if need[c.kind] == min(need.values())]
        best = max(probs[c.index, t] for c in close for t in view.targets)
        assert probs[action.card.index, action.target] == best
    assert checked > 10


def test_known_holders_agrees_with_holder() -> None:
    for view, _ in decisions("random", "kwartet(players=3,kinds=5)", games=2):
        knowledge = view.knowledge
        where = knowledge.known_holders()
        for card in load_game("kwartet(kinds=5)").deck:  # type: ignore[attr-defined]
            holder = knowledge.holder(card)
            assert where[card.index] == (-1 if holder is None else holder)


@pytest.mark.parametrize(
    "spec",
    ["kwartet(players=3,kinds=4)", "kwartet(kinds=8,ask_own=false)", "kwartet(players=5,kinds=7)"],
)
def test_only_legal_actions_and_games_end(spec: str) -> None:
    n = load_game(spec).num_players
    rng = random.Random(spec)
    for seed in range(12):
        names = [rng.choice(ALL) for _ in range(n)]
        # play_match raises IllegalActionError on any illegal choice.
        result = play_match(spec, names, seed)
        assert sum(result.returns) == load_game(spec).kinds  # type: ignore[attr-defined]


@pytest.mark.parametrize("strategy", ALL)
def test_same_seed_same_game(strategy: str) -> None:
    names = [strategy, "random", strategy, "greedy"]
    first = play_match("kwartet(kinds=6)", names, 3)
    assert first.digest() == play_match("kwartet(kinds=6)", names, 3).digest()
    assert all(t.thought.text for t in first.transcript)


def test_expert_beats_random_by_a_wide_margin() -> None:
    wins = 0.0
    seats = ["expert", "random", "random", "random"]
    for seed in range(200):
        names = seats[-(seed % 4) :] + seats[: -(seed % 4)] if seed % 4 else seats
        result = play_match("kwartet(kinds=6)", names, seed)
        me = names.index("expert")
        if me in result.winners:
            wins += 1 / len(result.winners)
    assert wins > 140  # random play would give about 50


class _OwnCards(Strategy):
    """Asks only for cards it holds itself: alone with its kind, it never finishes a game."""

    def choose(self, view: View) -> Decision:
        assert isinstance(view, KwartetView)
        return Decision(Ask(view.targets[0], view.hand[0]), Thought("a decoy"))


def test_a_game_that_would_never_end_stops_at_max_moves() -> None:
    state = dealt("kwartet(players=3,kinds=2,max_moves=7)", "1.1 1.2 2.1", "1.3 2.2 2.3", "1.4 2.4")
    player = _OwnCards(random.Random(0))
    moves = 0
    while state.current_player != TERMINAL:
        state.apply(player.choose(state.observation(state.current_player)).action)
        moves += 1
    assert moves == 7
    assert isinstance(state.events[-1], GameOver)
    assert state.returns() == (0, 0, 0) and state.winners() == (0, 1, 2)
    with pytest.raises(ValueError, match="max_moves"):
        load_game("kwartet(max_moves=0)")


def test_the_move_limit_counts_asks_and_keeps_scores() -> None:
    result = play_match("kwartet(kinds=4,max_moves=30)", ["random"] * 4, 1)
    assert result.moves == 30
    full = play_match("kwartet(kinds=4)", ["random"] * 4, 1)
    assert full.moves > 30 and full.history[: len(result.history)] == result.history
