"""`play_match`: its argument checks, seed streams and the transcript."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

from epigames.games import MatchSetupError, UnknownStrategyError, load_game, play_match
from epigames.games.core import UniformOutcomes, cached_property
from epigames.games.match import SeededOnUse, sample_outcome, seed_streams, spawned_seeds


def test_play_match_checks_its_arguments() -> None:
    with pytest.raises(MatchSetupError, match="needs 3 strategies; got 2"):
        play_match("kwartet(players=3)", ["random", "random"], 0)
    with pytest.raises(MatchSetupError, match="seed -1"):
        play_match("kwartet", ["random"] * 4, -1)
    with pytest.raises(UnknownStrategyError):
        play_match("kwartet", ["random", "random", "random", "x"], 0)


def test_seed_streams_are_independent_and_reproducible() -> None:
    chance, seats = seed_streams(42, 4)
    draws = [g.random() for g in [chance, *seats]]
    assert len(set(draws)) == 5
    chance2, seats2 = seed_streams(42, 4)
    assert [g.random() for g in [chance2, *seats2]] == draws


@given(st.integers(min_value=0, max_value=2**130), st.sampled_from(["random", "getstate", "x"]))
def test_a_seat_generator_is_seeded_when_first_used(seed: int, first: str) -> None:
    """`SeededOnUse(s)` waits to be touched, then is `random.Random(s)` draw for draw, pickled
    or copied; a read of a missing attribute seeds it too, and still fails."""
    lazy = SeededOnUse(seed)
    assert type(lazy) is SeededOnUse and isinstance(lazy, random.Random)
    if first == "x":
        with pytest.raises(AttributeError):
            lazy.x  # type: ignore[attr-defined]  # noqa: B018
    else:
        getattr(lazy, first)
    assert type(lazy) is random.Random
    plain = random.Random(seed)
    assert lazy.getstate() == plain.getstate()
    assert [lazy.random() for _ in range(5)] == [plain.random() for _ in range(5)]
    assert (
        pickle.loads(pickle.dumps(SeededOnUse(seed))).getstate() == random.Random(seed).getstate()
    )
    assert copy.deepcopy(SeededOnUse(seed)).getstate() == random.Random(seed).getstate()


@given(st.integers(min_value=0, max_value=2**300), st.integers(min_value=0, max_value=9))
def test_spawned_seeds_are_numpys(seed: int, n: int) -> None:
    children = np.random.SeedSequence(seed).spawn(n)
    expected = [int.from_bytes(c.generate_state(4).tobytes(), "little") for c in children]
    assert spawned_seeds(seed, n) == expected


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**64, 2**127 + 5, 2**128, 10**60])
def test_spawned_seeds_at_word_boundaries(seed: int) -> None:
    children = np.random.SeedSequence(seed).spawn(5)
    expected = [int.from_bytes(c.generate_state(4).tobytes(), "little") for c in children]
    assert spawned_seeds(seed, 5) == expected


def test_uniform_outcomes_draw_as_their_pairs() -> None:
    for n in (1, 2, 3, 7, 10, 31, 32, 52):
        outcomes = UniformOutcomes([f"o{i}" for i in range(n)])
        pairs = [(f"o{i}", 1.0 / n) for i in range(n)]
        assert list(outcomes) == pairs and outcomes[1 % n] == pairs[1 % n]
        assert outcomes[1:3] == pairs[1:3] and len(outcomes) == n
        a, b = random.Random(n), random.Random(n)
        for _ in range(2000):
            assert sample_outcome(outcomes, a) == sample_outcome(pairs, b)
    # The edges: a draw just below each running total, at it, and the largest float below 1.
    pairs = [(i, 1.0 / 3) for i in range(3)]
    total = 0.0
    for _, p in pairs:
        total += p
        for r in (np.nextafter(total, 0.0), total, np.nextafter(1.0, 0.0)):
            fixed = _Fixed(float(r))
            assert sample_outcome(UniformOutcomes(range(3)), fixed) == sample_outcome(pairs, fixed)


class _Fixed(random.Random):
    """A generator that always draws `r`."""

    def __init__(self, r: float) -> None:
        super().__init__(0)
        self.r = r

    def random(self) -> float:
        return self.r


def test_cached_property_computes_once_per_instance() -> None:
    class Thing:
        calls = 0

        @cached_property
        def value(self) -> int:
            """The answer."""
            Thing.calls += 1
            return 42

    one, two = Thing(), Thing()
    assert one.value == one.value == two.value == 42 and Thing.calls == 2
    assert isinstance(Thing.__dict__["value"], cached_property)
    assert Thing.__dict__["value"].__doc__ == "The answer."


def test_transcript_records_decisions_and_their_events() -> None:
    result = play_match("kwartet(players=3,kinds=4)", ["random"] * 3, 5)
    game = load_game(result.game)
    for entry in result.transcript:
        event = result.events[entry.first_event]
        assert event.kind == "ask" and event.asker == entry.seat  # type: ignore[attr-defined]
        assert (
            entry.thought.text.startswith("I ask ") and str(entry.action.card) in entry.thought.text
        )  # type: ignore[attr-defined]
        assert game.seat_names[entry.action.target] in entry.thought.text  # type: ignore[attr-defined]
    assert result.events[-1].kind == "end"
