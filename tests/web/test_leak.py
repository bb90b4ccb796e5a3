"""No peeking: nothing a seat cannot see reaches a response made for that seat.

Two checks over many random games, every seat and every frame:

1. *Hidden cards never appear.* From the true state: a card is hidden from seat `s` when
   another seat holds it and no event `s` observed names it. No frame response for `s`
   (table, log, thoughts, legal actions) may contain a hidden card, and a seat's picture
   marks the true world only when the seat has a single world left (it knows).
2. *Non-interference.* Swap two hidden cards of the same kind between two other seats in
   the deal: the seat's observations stay the same, so every response for that seat
   (frame, pictures, matrix) must be byte-identical, though the true state differs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.games import load_game
from epigames.games.kwartet import Card, KwartetState
from epigames.web.sessions import Session, replay_session, watch_session

CONFIGS = [
    ("kwartet(players=3,kinds=4)", 0),
    ("kwartet(players=4,kinds=5)", 1),
    ("kwartet(players=5,kinds=6,ask_own=false)", 2),
    ("kwartet(players=4,kinds=3)", 3),
    ("kwartet(players=6,kinds=7)", 4),
    ("kwartet(players=4,kinds=13)", 5),
]
HAS_PICTURES = hasattr(KwartetState, "picture")


def add(client: TestClient, session: Session) -> str:
    store = client.app.state.sessions  # type: ignore[attr-defined]
    store.add(session)
    return session.id


def get(client: TestClient, url: str, **params: Any) -> dict[str, Any]:
    response = client.get(url, params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    data.pop("session", None)
    return data


def visible_texts(session: Session, frame: int, seat: int) -> str:
    events = session.head.events[: session.event_counts[frame]]
    return "\n".join(e.text for e in events if e.public or e.visible_to(seat))


def hidden_cards(session: Session, frame: int, seat: int) -> set[str]:
    """Cards other seats hold at the frame that no event the seat observed names."""
    state = session.state_at(frame)
    assert isinstance(state, KwartetState)
    seen = visible_texts(session, frame, seat)
    return {
        str(card)
        for other, hand in enumerate(state.hands())
        if other != seat
        for card in hand
        if str(card) not in seen
    }


def seat_responses(
    client: TestClient, sid: str, frame: int, seat: int, subjects: list[str] | None = None
) -> dict[str, Any]:
    """The seat's frame, and its pictures of `subjects` (default: every subject)."""
    base = f"/api/sessions/{sid}/frames/{frame}"
    out: dict[str, Any] = {"frame": get(client, base, perspective=seat)}
    if HAS_PICTURES:
        for subject in out["frame"]["subjects"] if subjects is None else subjects:
            out[subject] = get(client, base + "/picture", subject=subject, perspective=seat)
    return out


@pytest.mark.parametrize(("game", "seed"), CONFIGS)
def test_no_hidden_card_in_any_seat_response(client: TestClient, game: str, seed: int) -> None:
    session = watch_session(game, ["random"] * load_game(game).num_players, seed)
    sid = add(client, session)
    rng = random.Random(seed)
    frames = list(range(session.last_frame + 1))
    if len(frames) > 20:  # long games: the start, the end and a sample in between
        frames = sorted({0, 1, frames[-1], *rng.sample(frames, 12)})
    checked = 0
    for seat in range(session.game.num_players):
        for frame in frames:
            hidden = hidden_cards(session, frame, seat)
            # Pictures of the hidden cards: the ones whose true world must stay unmarked.
            state = session.state_at(frame)
            in_play = set(state.picture_subjects()) if HAS_PICTURES else set()
            responses = seat_responses(client, sid, frame, seat, sorted(hidden & in_play))
            data = responses["frame"]
            assert set(data["table"]["views"]) == {str(seat)}
            # Left out of the scan, as they name cards without saying where they are: the
            # subjects (every card in play: the deck is public) and the legal actions (every
            # card of the seat's kinds, from its own hand and the rules).
            view = dict(data["table"]["views"][str(seat)])
            legal = view.pop("legal_actions", [])
            assert legal == [str(a) for a in session.state_at(frame).observation(seat)
                             .legal_actions]  # fmt: skip
            shown = {k: v for k, v in data.items() if k not in ("subjects", "legal_actions")}
            shown["table"] = view
            text = json.dumps(shown, ensure_ascii=False)
            leaked = sorted(card for card in hidden if card in text)
            assert not leaked, f"seat {seat} frame {frame} of {game} sees {leaked}"
            for subject, pic in responses.items():
                if subject != "frame" and pic["true_world"] is not None:
                    assert pic["world_count"] == 1, f"{subject}: true world shown to seat {seat}"
            checked += bool(hidden)
    assert checked > 0  # the check had hidden cards to look for


def same_kind_swap(session: Session, frame: int, seat: int, rng: random.Random) -> list[Hashable]:
    """The history with two hidden same-kind cards of two other seats swapped in the deal."""
    game = session.game
    n = game.num_players
    deck = len(game.deck)  # type: ignore[attr-defined]
    deal = session.history[:deck]
    seen = visible_texts(session, frame, seat)
    hidden = [
        (i, c) for i, c in enumerate(deal) if i % n != seat and str(c) not in seen
    ]  # position i of the deal goes to seat i % n
    rng.shuffle(hidden)
    for a, (i, c) in enumerate(hidden):
        for j, d in hidden[a + 1 :]:
            assert isinstance(c, Card) and isinstance(d, Card)
            if c.kind == d.kind and i % n != j % n:
                swapped = list(session.history[: session.frames[frame]])
                swapped[i], swapped[j] = d, c
                return swapped
    return []


@pytest.mark.parametrize(("game", "seed"), CONFIGS[:5])
def test_seat_responses_do_not_depend_on_what_it_cannot_see(
    client: TestClient, game: str, seed: int
) -> None:
    session = watch_session(game, ["random"] * load_game(game).num_players, seed)
    rng = random.Random(seed)
    compared = 0
    for seat in range(session.game.num_players):
        # Early frames: fewer cards have been named, so more pairs can be swapped.
        early = range(max(8, session.last_frame // 3))
        for frame in sorted(rng.sample(early, min(8, len(early)))):
            swapped = same_kind_swap(session, frame, seat, rng)
            if not swapped:
                continue
            true = replay_session(game, session.history[: session.frames[frame]])
            alt = replay_session(game, swapped)
            assert true.last_frame == alt.last_frame == frame
            t_state, a_state = true.head, alt.head
            assert isinstance(t_state, KwartetState) and isinstance(a_state, KwartetState)
            assert t_state.hands() != a_state.hands()  # the true states differ...
            # Pictures of the swapped cards (and of a few others) must not differ either.
            moved = [str(c) for c, d in zip(true.history, alt.history, strict=True) if c != d]
            subjects = true.head.picture_subjects() if HAS_PICTURES else []  # type: ignore[attr-defined]
            some = sorted({*moved, *rng.sample(subjects, min(4, len(subjects)))} & set(subjects))
            mine = seat_responses(client, add(client, true), frame, seat, some)
            theirs = seat_responses(client, add(client, alt), frame, seat, some)
            assert mine == theirs, f"seat {seat} of {game} at frame {frame} tells them apart"
            spectator = get(client, f"/api/sessions/{true.id}/frames/{frame}")
            other = get(client, f"/api/sessions/{alt.id}/frames/{frame}")
            assert spectator["table"] != other["table"]  # ...and the spectator sees it
            compared += 1
    assert compared >= 2


def test_toy_game_pictures_do_not_depend_on_hidden_cards(client: TestClient) -> None:
    """The same with pictures, matrix and formulas (the toy game always draws pictures)."""
    history: list[Hashable] = ["A", "B", "C", "pass"]  # Ann passes with A hidden
    swapped: list[Hashable] = ["C", "B", "A", "pass"]  # Ann and Cy swap: Bob cannot tell
    sids = [add(client, replay_session("webtoy", h)) for h in (history, swapped)]
    answers = []
    for sid in sids:
        base = f"/api/sessions/{sid}/frames/1"
        got: dict[str, Any] = {"frame": get(client, base, perspective=1)}
        got["matrix"] = get(client, base + "/matrix", perspective=1)
        for card in "ABC":
            got[card] = get(client, base + "/picture", subject=card, perspective=1)
            r = client.post(f"/api/sessions/{sid}/formula", json={
                "frame": 1, "subject": card, "perspective": "Bob",
                "formula": f'K_Ann "holds(Ann,{card})"'})  # fmt: skip
            got["formula " + card] = r.json()
        answers.append(got)
    assert answers[0] == answers[1]
    spectator = [get(client, f"/api/sessions/{sid}/frames/1/picture", subject="A") for sid in sids]
    assert spectator[0]["true_world"] != spectator[1]["true_world"]


@pytest.mark.parametrize("seed", range(4))
def test_no_hidden_cup_in_any_seat_response(client: TestClient, seed: int) -> None:
    """Blufpoker: the roll under the cup reaches a seat only once it may know it."""
    import re

    from tests.conformance.oracles import blufpoker_hidden

    game = "blufpoker(players=3,penalties=2)"
    names = ["knowledge", "random", "bayes"]
    session = watch_session(game, [*names[seed % 3 :], *names][:3], seed)
    sid = add(client, session)
    checked = 0
    for seat in range(3):
        for frame in range(session.last_frame + 1):
            hidden = blufpoker_hidden(session.state_at(frame), seat)
            data = get(client, f"/api/sessions/{sid}/frames/{frame}", perspective=seat)
            view = dict(data["table"]["views"][str(seat)])
            view.pop("legal_actions", None)  # every bid above the last: rules, not the cup
            shown = {k: v for k, v in data.items() if k not in ("subjects", "legal_actions")}
            shown["table"] = view
            # The seat's own looks and thoughts may name an older cup with the same roll.
            shown["log"] = [
                e for e in data["log"]
                if not (e["type"] == "decision" and e["seat"] == seat)
                and not (e["type"] == "event" and not e["public"])
            ]  # fmt: skip
            text = json.dumps(shown, ensure_ascii=False)
            leaked = [t for t in hidden if re.search(rf"(?<!\d){t}(?!\d)", text)]
            assert not leaked, f"seat {seat} frame {frame} sees the cup {leaked}"
            if hidden and data["subjects"]:
                pic = get(client, f"/api/sessions/{sid}/frames/{frame}/picture",
                          subject="cup", perspective=seat)  # fmt: skip
                assert pic["true_world"] is None or pic["world_count"] == 1
            checked += bool(hidden)
    assert checked > 0
