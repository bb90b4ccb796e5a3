"""Kripke pictures of Kwartet cards: worlds, partitions, true world, probabilities, no peeking."""

from __future__ import annotations

import math
from typing import Any

import pytest

from epigames.errors import InputError
from epigames.games import load_game, play_match
from epigames.games.kwartet import Asked, Card, KwartetState
from epigames.games.picture import HasPictures, KripkePicture
from epigames.logic import Atom, K, Partition
from tests.games.kwartet.helpers import dealt

SPEC_2020 = "kwartet(players=4,kinds=9)"
HANDS_2020 = (
    "1.1 1.2 1.3 1.4 8.2 8.3 9.1 9.2 9.3",
    "2.1 2.2 2.3 2.4 3.1 3.2 3.3 3.4 8.1",
    "4.1 4.2 4.3 4.4 5.1 5.2 5.3 5.4 9.4",
    "6.1 6.2 6.3 6.4 7.1 7.2 7.3 7.4 8.4",
)


def play(state: KwartetState, *actions: str) -> KwartetState:
    for text in actions:
        state.apply(state.game.parse_action(text))
    return state


def blocks(picture: KripkePicture) -> dict[str, set[frozenset[str]]]:
    """Each seat's partition as sets of world names."""
    out: dict[str, set[frozenset[str]]] = {}
    model = picture.model
    for agent in model.agents:
        relation = model.relations[agent]
        assert isinstance(relation, Partition)
        groups: dict[int, set[str]] = {}
        for w, name in enumerate(model.worlds):
            groups.setdefault(int(relation.block[w]), set()).add(name)
        out[agent] = {frozenset(g) for g in groups.values()}
    return out


def content(picture: KripkePicture) -> dict[str, Any]:
    """Everything a picture shows, as comparable values."""
    model = picture.model
    return {
        "subject": picture.subject,
        "worlds": model.worlds,
        "atoms": [sorted(model.world_atoms(w)) for w in range(model.size)],
        "blocks": blocks(picture),
        "true": picture.true_world,
        "designated": model.designated,
        "probabilities": {a: dict(p) for a, p in picture.probabilities.items()},
        "perspective": picture.perspective,
    }


def test_state_draws_pictures_of_the_cards_in_play() -> None:
    state = load_game("kwartet(players=3,kinds=3)").new_initial_state()
    assert isinstance(state, HasPictures)
    assert state.picture_subjects() == []  # before the deal: no knowledge yet
    state = dealt(SPEC_2020, *HANDS_2020)
    assert state.picture_subjects() == [str(c) for c in state.game.deck if c.kind >= 8]
    with pytest.raises(InputError, match=r"no picture '⟨1,1⟩'.*⟨8,1⟩"):
        state.picture("⟨1,1⟩")  # laid down at the deal
    with pytest.raises(InputError, match="no picture 'queen'"):
        state.picture("queen")
    assert state.picture("8.4").subject == "⟨8,4⟩"  # ASCII spellings work too


def test_spectator_picture_of_the_2020_example() -> None:
    state = dealt(SPEC_2020, *HANDS_2020)
    picture = state.picture("⟨8,4⟩")
    names = state.game.seat_names
    assert picture.perspective is None and picture.true_world == "East"
    assert picture.model.worlds == names  # South may hold it for West and North
    assert picture.model.designated == (3,)
    assert sorted(picture.model.world_atoms(3)) == ["holds(East, ⟨8,4⟩)"]
    parts = blocks(picture)
    assert frozenset({"West", "North", "East"}) in parts["South"]
    # East tells only whether it holds the card: where it does not, it cannot tell who does.
    assert parts["East"] == {frozenset({"East"}), frozenset({"South", "West", "North"})}
    for seat, name in enumerate(names):
        probs = picture.probabilities[name]
        assert math.isclose(sum(probs.values()), 1.0)
        known = state.observation(seat).knowledge
        assert probs == {w: float(known.probability(Card(8, 4), i)) for i, w in enumerate(names)}


def test_a_failed_request_removes_the_world_from_every_picture() -> None:
    state = dealt(SPEC_2020, *HANDS_2020)
    card = "⟨8,4⟩"
    assert "West" in state.picture(card).model.worlds
    assert "West" in state.picture(card, 0).model.worlds
    play(state, "ask West 8.4")  # South asks West in vain
    for seat in (None, 0, 1, 2, 3):
        picture = state.picture(card, seat)
        assert "West" not in picture.model.worlds, seat
        for probs in picture.probabilities.values():
            assert math.isclose(sum(probs.values()), 1.0)
    play(state, "ask East 8.2", "ask South 9.1")
    south = state.picture(card, 0)
    assert south.considered == ("East",) and south.true_world == "East"
    assert south.model.holds(K("South", Atom("holds(East, ⟨8,4⟩)")))
    assert south.probabilities == {"South": {"East": 1.0}}


def test_failed_requests_remove_worlds_in_random_games() -> None:
    spec = "kwartet(players=4,kinds=4)"
    checked = 0
    for seed in range(4):
        result = play_match(spec, ["random"] * 4, seed)
        state = load_game(spec).new_initial_state()
        assert isinstance(state, KwartetState)
        for action in result.history:
            done = len(state.events)
            state.apply(action)
            asked = [e for e in state.events[done:] if isinstance(e, Asked)]
            if not asked or asked[0].success:
                continue
            event, target = asked[0], state.game.seat_names[asked[0].target]
            for seat in (None, *range(4)):
                picture = state.picture(str(event.card), seat)
                assert target not in picture.model.worlds
                assert (picture.true_world is None) == (
                    seat is not None and len(picture.considered) > 1
                )
                for probs in picture.probabilities.values():
                    assert math.isclose(sum(probs.values()), 1.0)
                checked += 1
    assert checked > 50


def test_a_seat_picture_comes_from_its_own_knowledge() -> None:
    state = dealt(SPEC_2020, *HANDS_2020)
    picture = state.picture("⟨8,4⟩", 0)
    assert picture.perspective == 0
    # South cannot tell who holds it; the drawing also holds South, whom West and North
    # cannot rule out (South knows it is not its own card).
    assert picture.considered == ("West", "North", "East")
    assert picture.model.worlds == ("South", "West", "North", "East")
    assert picture.true_world is None
    assert set(picture.probabilities) == {"South"}
    assert picture.probabilities["South"] == pytest.approx(
        {w: 1 / 3 for w in ("West", "North", "East")}
    )
    parts = blocks(picture)
    assert parts["South"] == {frozenset({"South"}), frozenset({"West", "North", "East"})}
    assert parts["West"] == {frozenset({"West"}), frozenset({"South", "North", "East"})}
    assert parts["East"] == {frozenset({"East"}), frozenset({"South", "West", "North"})}
    own = state.picture("⟨8,4⟩", 3)  # East holds it: it knows the true world
    assert own.true_world == "East" and own.considered == ("East",)


def test_a_seat_picture_does_not_depend_on_hidden_cards() -> None:
    """Two deals that agree on South's hand and on the public log give South equal pictures."""
    spec = "kwartet(players=3,kinds=3)"
    south = "1.1 1.2 2.1 3.1"
    first = dealt(spec, south, "1.3 2.2 2.3 3.2", "1.4 2.4 3.3 3.4")
    second = dealt(spec, south, "1.4 2.2 2.3 3.3", "1.3 2.4 3.2 3.4")
    moves = ("ask 1 2.2", "ask 2 3.4", "ask 1 1.1")  # same answers in both deals
    for state in (first, second):
        play(state, *moves)
    public = [[e.to_dict() for e in s.events if e.public] for s in (first, second)]
    assert public[0] == public[1]
    assert first.observation(0).hand == second.observation(0).hand
    assert first.picture_subjects() == second.picture_subjects()
    for subject in first.picture_subjects():
        assert content(first.picture(subject, 0)) == content(second.picture(subject, 0))
    # Not vacuous: the hidden cards differ, and a spectator sees it.
    assert first.hands() != second.hands()
    assert content(first.picture("⟨1,3⟩")) != content(second.picture("⟨1,3⟩"))
