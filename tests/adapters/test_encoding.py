"""The observation holds the public state: what tells observations apart, and the index map.

The public state of a position is read here without the encoder: what every seat's view
shows alike (`View.to_dict` without the log). Observations must tell apart any two
positions where it differs, or where the seat's own private items differ; the seat's
observation is equal on states it cannot tell apart (`test_pettingzoo.py`,
`test_observations_depend_only_on_what_the_seat_sees`, and the OpenSpiel tensors).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from epigames.adapters.encoding import RESERVED, Encoder, Vector, encoder
from epigames.cards import Play, Suit
from epigames.games import CHANCE, State, View, load_game, registered_games
from epigames.games.blufpoker import UndefinedBeliefError
from epigames.games.klaverjas.actions import BIDS
from epigames.games.observation import Part
from epigames.games.table import TableState
from tests.adapters.settings import small_games

GAMES = small_games()
KINDS = ["hand", "knowledge"]
DOCS = Path(__file__).parents[2] / "docs" / "adapters.md"


def _positions(game: str, seed: int, limit: int) -> Iterator[State]:
    """Every position after chance (decisions and ends) of seeded random games, up to `limit`."""
    rules = load_game(game)
    rng = random.Random(seed)
    seen = 0
    while True:
        state = rules.new_initial_state()
        while True:
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(outcomes[rng.randrange(len(outcomes))][0])
                continue
            yield state
            seen += 1
            if seen >= limit:
                return
            if state.is_terminal():
                break
            state.apply(rng.choice(list(state.legal_actions())))


def _public(state: State) -> str:
    """What every seat's view shows alike (without the log): the position's public state."""
    views = [
        state.observation(seat).to_dict(include_log=False) for seat in range(state.game.num_players)
    ]
    shared = {
        key: value
        for key, value in views[0].items()
        if key != "seat" and all(key in other and other[key] == value for other in views)
    }
    return json.dumps(shared, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("game", GAMES)
def test_observations_differ_where_the_public_state_does(game: str) -> None:
    """No two positions with different public states (or private items) look the same to a
    seat: after trump ♣ or ♦, or at any bid, the observations differ."""
    enc = encoder(game, "hand")
    seen: dict[bytes, tuple[int, str, frozenset[str]]] = {}
    states = set()
    for state in _positions(game, seed=0, limit=800):
        public = _public(state)
        states.add(public)
        for seat in range(enc.game.num_players):
            view = state.observation(seat)
            told = (seat, public, frozenset(map(str, view.private_items())))
            first = seen.setdefault(enc.encode(view).tobytes(), told)
            assert first == told, f"one observation for two positions:\n{first}\n{told}"
    assert len(states) > 100


@pytest.mark.parametrize("game", GAMES)
def test_states_a_seat_cannot_tell_apart_look_the_same(game: str) -> None:
    """A state redrawn from the seat's own knowledge (`State.resample`) gives the seat the
    same public state and observation (`test_pettingzoo.py` checks the knowledge kind)."""
    enc = encoder(game, "hand")
    rng = random.Random(3)
    for i, state in enumerate(_positions(game, seed=3, limit=60)):
        seat = i % enc.game.num_players
        other = state.resample(seat, rng)
        mine, theirs = state.observation(seat), other.observation(seat)
        assert _public(state) == _public(other)
        ours, redrawn = mine.public_state(), theirs.public_state()
        assert all(np.array_equal(ours[name], redrawn[name]) for name in ours)
        np.testing.assert_array_equal(enc.encode(mine), enc.encode(theirs))


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_has_the_same_public_state(game: str) -> None:
    """The public arrays hold nothing private: a table's spectators are shown seat 0's."""
    players = load_game(game).num_players
    for state in _positions(game, seed=5, limit=200):
        first = state.observation(0).public_state()
        for seat in range(1, players):
            other = state.observation(seat).public_state()
            assert all(np.array_equal(first[name], other[name]) for name in first)


def test_the_check_fails_without_the_public_state() -> None:
    """The check above finds what the seat and its cards alone (the old observation) miss."""
    game = "klaverjas(ranks=3,deals=1)"
    enc = encoder(game, "hand")
    seen: dict[bytes, str] = {}
    for state in _positions(game, seed=0, limit=400):
        view = state.observation(0)
        vector = enc.encode(view)[: enc.hand_size - sum(p.size for p in enc.game.public_parts())]
        public = _public(state) + str(sorted(map(str, view.private_items())))
        if seen.setdefault(vector.tobytes(), public) != public:
            return
    pytest.fail("the seat and its cards alone told every position apart")


def test_klaverjas_trump_reaches_the_next_movers_observation() -> None:
    """The issue's case: after trump ♣ or ♦ the next mover's observation was byte-identical."""
    enc = encoder("klaverjas", "hand")
    state = next(s for s in _positions("klaverjas", seed=3, limit=10) if s.current_player >= 0)
    clubs, diamonds = state.clone(), state.clone()
    clubs.apply(BIDS[Suit.CLUBS])
    diamonds.apply(BIDS[Suit.DIAMONDS])
    mover = clubs.current_player
    assert mover == diamonds.current_player
    one, other = (enc.encode(s.observation(mover)) for s in (clubs, diamonds))
    assert not np.array_equal(one, other)
    assert one[enc.index("trump", Suit.CLUBS)] == 1 == other[enc.index("trump", "♦")]


def test_blufpoker_bids_reach_the_hand_observation() -> None:
    """The issue's case: at call/believe decisions the hand observation took 3 values over
    40 games, whatever the bid."""
    enc = encoder("blufpoker", "hand")
    seen: dict[bytes, str] = {}
    for state in _positions("blufpoker", seed=1, limit=3000):
        view: Any = state.observation(max(state.current_player, 0))
        if view.phase == "decide":
            bid = str(view.bid)
            assert seen.setdefault(enc.encode(view).tobytes(), bid) == bid
    assert len(set(seen.values())) > 20


# --- the index map ------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_the_parts_tile_the_vector(game: str, kind: str) -> None:
    enc = encoder(game, kind)
    names = [part.name for part in enc.parts]
    assert names[:2] == ["seat", "private"] and "to_move" in names
    assert (names[-2:] == ["possible", "probability"]) == (kind == "knowledge")
    assert len(set(names)) == len(names)
    starts = [enc.starts[name] for name in names]
    sizes = [part.size for part in enc.parts]
    assert starts == [sum(sizes[:i]) for i in range(len(sizes))] and enc.size == sum(sizes)
    vector = np.arange(enc.size, dtype=np.float32)
    parts = enc.views(vector)
    assert np.concatenate([parts[name].ravel() for name in names]).tolist() == vector.tolist()
    assert all(parts[p.name].shape == p.shape for p in enc.parts)


@pytest.mark.parametrize("game", GAMES)
def test_every_index_has_one_label_and_back(game: str) -> None:
    """`label(i)` names the part and the item on each axis; `index(part, *items)` finds i
    again, by the items or by their labels."""
    enc = encoder(game, "knowledge")
    labels = enc.labels()
    assert len(labels) == enc.size == len(set(labels))
    for part in enc.parts:
        start = enc.starts[part.name]
        for offset, position in enumerate(np.ndindex(*part.shape)):
            items = [axis.items[i] for axis, i in zip(part.axes, position, strict=True)]
            texts = [axis.labels[i] for axis, i in zip(part.axes, position, strict=True)]
            assert enc.index(part.name, *items) == start + offset == enc.index(part.name, *texts)
            assert labels[start + offset] == (
                f"{part.name}[{', '.join(texts)}]" if texts else part.name
            )
    with pytest.raises(KeyError, match="no part"):
        enc.index("nothing")


@pytest.mark.parametrize("game", GAMES)
def test_spaces_are_sized_without_playing(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_game(game)

    def refuse(self: object) -> State:
        raise AssertionError("the encoder played")

    monkeypatch.setattr(type(rules), "new_initial_state", refuse)
    for kind in KINDS:
        assert Encoder(rules, kind).size == encoder(game, kind).size


def test_a_public_part_may_not_take_a_reserved_name(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_game(GAMES[0])
    clash = (Part("seat", (), "a second seat part"),)
    monkeypatch.setattr(type(rules), "public_parts", lambda self: clash)
    with pytest.raises(ValueError, match="repeat a name or take one of"):
        Encoder(rules, "hand")


def _scaled(enc: Encoder, name: str, array: Vector) -> Vector:
    part = next(p for p in enc.parts if p.name == name)
    return (array - np.float32(part.low)) / np.float32(part.high - part.low)


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_holds_the_views_parts(game: str) -> None:
    """Each part of the vector is the view's: its seat, its private items, its public
    state (declared shapes, scaled by the declared range to [0, 1]) and its knowledge."""
    hand, knowing = encoder(game, "hand"), encoder(game, "knowledge")
    public = [p for p in hand.parts if p.name not in RESERVED]
    checked = 0
    for i, state in enumerate(_positions(game, seed=5, limit=120)):
        seat = i % hand.game.num_players
        view = state.observation(seat)
        vector = hand.encode(view)
        parts = hand.views(vector)
        assert vector.min() >= 0.0 and vector.max() <= 1.0
        assert parts["seat"].tolist() == [float(s == seat) for s in range(len(parts["seat"]))]
        mine = {hand.items.index(item) for item in view.private_items()}
        assert set(np.flatnonzero(parts["private"]).tolist()) == mine
        arrays = view.public_state()
        assert list(arrays) == [p.name for p in public]
        for part in public:
            assert arrays[part.name].shape == part.shape
            np.testing.assert_allclose(
                parts[part.name], _scaled(hand, part.name, arrays[part.name]), rtol=1e-6
            )
        if i % 10 == 0:
            full = knowing.encode(view)
            np.testing.assert_array_equal(full[: hand.size], vector)
            checked += _check_knowledge(knowing, full, view)
    assert checked > 0


def _check_knowledge(enc: Encoder, vector: Vector, view: View) -> int:
    try:
        knowledge = view.knowledge
    except ValueError:
        return 0
    parts = enc.views(vector)
    for s, subject in enumerate(enc.subjects[:6]):
        possible = {enc.values[v] for v in np.flatnonzero(parts["possible"][s])}
        assert possible == set(knowledge.possible_holders(subject))
        for value in list(possible)[:3]:
            try:
                expected = float(knowledge.probability(subject, value))
            except UndefinedBeliefError:  # a cup being rolled: no probability, zeros
                expected = 0.0
            assert vector[enc.index("probability", subject, value)] == pytest.approx(expected)
    return 1


# What the issue names, read through the index map: each game's entries against its view.
Read = Callable[..., float]


def _kwartet(view: Any, read: Read) -> None:
    for seat, size in enumerate(view.hand_sizes):
        assert read("hand_sizes", seat) == size
        assert read("scores", seat) == view.scores[seat]
    for place, (kind, seat) in enumerate(view.laid_down, start=1):
        assert read("laid_down", seat, kind) == place


def _klaverjas(view: Any, read: Read) -> None:
    for suit in Suit:
        assert read("trump", suit) == (view.trump == suit)
    trick = view.trick
    plays = set(trick.plays) if trick is not None else set()
    for card in view.game.private_axis.items:
        for seat in range(4):
            assert read("trick", seat, card) == (Play(seat, card) in plays)
            assert read("played", seat, card) == (Play(seat, card) in view.deal_plays)
    for seat, size in enumerate(view.to_dict(include_log=False)["hand_sizes"]):
        assert read("hand_sizes", seat) == size
        assert read("chooser", seat) == (seat == view.trump_chooser)
    for team in (0, 1):
        assert read("points", team) == view.points[team]
        assert read("scores", team) == view.scores[team]


def _blufpoker(view: Any, read: Read) -> None:
    for roll in view.game.private_axis.items:
        assert read("bid", roll) == (view.bid == roll)
    assert read("phase", view.phase) == 1
    for seat, penalties in enumerate(view.penalties):
        assert read("penalties", seat) == penalties
    for die, face in enumerate(view.visible, start=1):
        assert read("visible", die, face) == 1


def _kemps(view: Any, read: Read) -> None:
    for slot, card in enumerate(view.table, start=1):
        assert read("table", slot, card) == 1
    for seat, size in enumerate(view.hand_sizes):
        assert read("hand_sizes", seat) == size
        assert read("scores", seat) == view.scores[seat]
    assert read("deck") == view.deck_size


def _table(view: Any, read: Read) -> None:
    """A location-table game (`games.table`): every holder's count and each face-up pile."""
    layout = view.game.card_layout
    for holder, count in enumerate(view.counts):
        assert read("counts", holder) == count
    for name, cards in view.piles.items():
        for card in layout.cards:
            assert read(name, card) == (card in cards)


NAMED: dict[str, Callable[[Any, Read], None]] = {
    "kwartet": _kwartet,
    "klaverjas": _klaverjas,
    "blufpoker": _blufpoker,
    "kemps": _kemps,
}


def named_check(name: str) -> Callable[[Any, Read], None] | None:
    """A game's own check of its named entries, or the table's for a table game."""
    if name in NAMED:
        return NAMED[name]
    state = load_game(name).new_initial_state()
    return _table if isinstance(state, TableState) else None


def test_every_game_has_named_entries_checked() -> None:
    assert all(named_check(name) for name in registered_games())


@pytest.mark.parametrize("game", GAMES)
def test_the_index_map_finds_what_the_view_shows(game: str) -> None:
    """Trump, the trick and who played it, bids, phase, scores, counts, the Kemps table:
    each entry found by `index(part, *items)` holds what the view says, in its units."""
    enc = encoder(game, "hand")
    check = named_check(enc.game.name)
    assert check is not None
    for i, state in enumerate(_positions(game, seed=7, limit=150)):
        view = state.observation(i % enc.game.num_players)
        vector = enc.encode(view)

        def read(name: str, *items: Hashable, vector: Vector = vector) -> float:
            part = next(p for p in enc.parts if p.name == name)
            # Every public number here is a whole count, place or score.
            return round(
                float(part.low + vector[enc.index(name, *items)] * (part.high - part.low)), 3
            )

        check(view, read)


_MARKER = re.compile(r"<!-- index map: (\S+) (hand|knowledge) -->\n((?:\|.*\n)+)")


def test_the_docs_show_the_index_maps() -> None:
    """docs/adapters.md shows `Encoder.table()` of each registered game, as generated."""
    text = DOCS.read_text(encoding="utf-8")
    maps = _MARKER.findall(text)
    assert {load_game(game).name for game, _, _ in maps} >= set(registered_games())
    for game, kind, table in maps:
        expected = encoder(game, kind).table()
        assert table.strip() == expected, f"docs/adapters.md, {game} {kind}; generated:\n{expected}"
