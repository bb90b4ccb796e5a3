"""What a first visit reads from the API: a sentence per strategy, each game's showcase (a
short game that shows its agents at their best), and the subject of the last move."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.games import (
    game_class,
    play_match,
    registered_games,
    strategy_choices,
    strategy_description,
)
from epigames.web.builders import watch_session
from tests.web.test_leak import add


def games(client: TestClient) -> dict[str, dict[str, Any]]:
    return {g["name"]: g for g in client.get("/api/games").json()}


def built_in() -> list[str]:
    """The games of the library (not the tests' toy game)."""
    return [n for n in registered_games() if game_class(n).__module__.startswith("epigames.")]


def test_every_strategy_of_every_game_says_in_one_sentence_how_it_plays(
    client: TestClient,
) -> None:
    listed = games(client)
    assert set(built_in()) <= set(listed)
    for name, game in listed.items():
        about = game["strategy_about"]
        assert list(about) == game["strategies"] == strategy_choices(name)
        for strategy, sentence in about.items():
            assert sentence == strategy_description(name, strategy)
            where = f"{name} {strategy}: {sentence!r}"
            assert sentence.strip() and sentence.endswith("."), where
            assert "\n" not in sentence and "`" not in sentence and len(sentence) <= 160, where
            assert "partial(" not in sentence, where  # functools' docstring, not the strategy's
        # No two strategies of a game read alike (Blufpoker's 24 roll/bid/call ones included).
        assert len(set(about.values())) == len(about), name


def test_the_blufpoker_menu_spells_out_each_option() -> None:
    sentence = strategy_description("blufpoker", "lowest/overbid/never")
    assert sentence == (
        "Rolls its lowest die, bids one to three ranks above the bid, whatever it rolled, "
        "and calls every bid."
    )
    assert "never calls" in strategy_description("blufpoker", "greedy/truthful/believe")


def test_each_game_declares_a_showcase_the_page_starts_from(client: TestClient) -> None:
    listed = games(client)
    for name in built_in():
        cls = game_class(name)
        assert cls.showcase.startswith(f"{name}("), name
        show = listed[name]["showcase"]
        game, agents = cls.showcase_match()
        assert show["game"] == str(game)
        assert show["strategies"] == list(agents) and len(agents) == game.num_players
        assert set(agents) <= set(listed[name]["strategies"])
        params = {p["name"] for p in listed[name]["params"]}
        assert set(show["params"]) == params
        loaded = client.get("/api/game", params={"spec": show["game"]}).json()
        assert loaded["game"] == show["game"]


@pytest.mark.parametrize("name", built_in())
def test_a_showcase_ends_by_its_rules_and_lasts_long_enough_to_teach(name: str) -> None:
    """Ten seeds of each showcase, as the guided games play it: each game ends by its
    rules (no cap), after a dozen decisions at least (a whole Kwartet game, a whole
    Klaverjas deal) and at most 200."""
    game, agents = game_class(name).showcase_match()
    lengths = []
    for seed in range(10):
        result = play_match(game, list(agents), seed)
        assert not result.capped, (name, seed)
        lengths.append(len(result.transcript))
    assert min(lengths) >= 12 and max(lengths) <= 200, (name, lengths)


def frame(client: TestClient, sid: str, k: int, perspective: str) -> dict[str, Any]:
    response = client.get(f"/api/sessions/{sid}/frames/{k}", params={"perspective": perspective})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_picture_starts_at_the_subject_of_the_last_move(client: TestClient) -> None:
    """The frame names its focus: the card the last event names (the card asked for), from
    the perspective's own events; a seat's first focus is a card of its own deal."""
    session = watch_session("kwartet(players=4,kinds=5)", ["expert"] * 4, 3)
    sid = add(client, session)
    for k in range(1, 8):
        event = session.head.events[session.event_counts[k] - 1].to_dict()
        for perspective in ("spectator", "0", "2"):
            data = frame(client, sid, k, perspective)
            if event["kind"] == "ask":
                assert data["focus"] == str(event["card"]), (k, perspective)
            assert data["focus"] in data["subjects"]
    west = frame(client, sid, 0, "1")
    assert west["focus"] in west["table"]["views"]["1"]["hand"]
    cup = add(client, watch_session("blufpoker(players=3,penalties=2)", ["bayes"] * 3, 1))
    assert frame(client, cup, 2, "1")["focus"] == "cup"
