"""Klaverjas through the JSON API: a person plays a whole deal against three agents.

What the page draws comes from these frames: trump, the trick with its leader, the last
trick with who took it and its roem, hand sizes, scores, the legal cards (only for the
person, only at its turn) and the who-holds-what matrix; an illegal card is refused with
the game's reason and changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

from epigames.errors import InputError
from epigames.games.klaverjas import KlaverjasState
from epigames.web.builders import play_session, watch_session
from epigames.web.session import Session
from tests.web.conftest import new_game

DEAL = "klaverjas(deals=1)"
SUITS = "♣♦♥♠"


def frame(client: TestClient, sid: str, k: int, perspective: object) -> dict[str, Any]:
    response = client.get(f"/api/sessions/{sid}/frames/{k}", params={"perspective": perspective})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def stored(client: TestClient, sid: str) -> Session:
    session: Session = client.app.state.sessions.get(sid)  # type: ignore[attr-defined]
    return session


def add(client: TestClient, session: Session) -> str:
    client.app.state.sessions.add(session)  # type: ignore[attr-defined]
    return session.id


def others_cards(session: Session, frame_no: int, seat: int) -> set[str]:
    """The cards the other seats hold at a frame (from the true state: the test's oracle)."""
    state = session.state_at(frame_no)
    assert isinstance(state, KlaverjasState)
    return {str(c) for s, hand in enumerate(state.hands()) if s != seat for c in hand}


def shown_text(data: dict[str, Any]) -> str:
    """A frame's JSON without the parts that name cards without saying who holds them.

    The subjects are every card in play (the deck is public), and the focus is one of them
    (the card the last event the seat saw names); `lacks` lists cards a player has shown it
    does not hold, which another seat may well hold.
    """
    assert data["focus"] in data["subjects"] or not data["subjects"]
    shown = {k: v for k, v in data.items() if k not in ("subjects", "focus")}
    shown["log"] = [
        {**e, "data": {k: v for k, v in e["data"].items() if k != "lacks"}}
        if e["type"] == "event"
        else e
        for e in data["log"]
    ]
    return json.dumps(shown, ensure_ascii=False)


def check_matrix(client: TestClient, sid: str, k: int, seat: int, hidden: set[str]) -> None:
    """The seat's matrix: the cards in play, the seats, and no holder it cannot know."""
    response = client.get(f"/api/sessions/{sid}/frames/{k}/matrix", params={"perspective": seat})
    assert response.status_code == 200, response.text
    m = response.json()
    seats = ["North", "East", "South", "West"]
    name = seats[seat]
    # A seat that can hold none of the cards in play (it has played out) has no column.
    assert m["columns"] == [s for s in seats if s in m["columns"]] and m["agents"] == [name]
    view = frame(client, sid, k, seat)
    assert [r["subject"] for r in m["rows"]] == view["subjects"]
    for row in m["rows"]:
        probs = row["probabilities"][name]
        assert abs(sum(probs.values()) - 1) < 1e-9
        held = row["subject"] in view["table"]["views"][str(seat)]["hand"]
        assert (probs.get(name, 0) == 1) == held
        if row["subject"] in hidden and row["true_world"] is not None:
            possible = [s for s, p in probs.items() if p > 0]
            assert possible == [row["true_world"]], f"{row['subject']}: holder shown to {name}"


def test_play_a_whole_deal_as_north(client: TestClient) -> None:
    """North (the eldest hand of deal 1) names trump, then plays every trick."""
    info = new_game(client, game=DEAL, strategies=["random"] * 4, human_seat="North")
    sid = str(info["session"])
    assert info["human"] == 0
    session = stored(client, sid)
    rng = random.Random(13)
    seen_frames = 0
    trump = None
    while True:
        now = frame(client, sid, -1, 0)
        # Every frame the agents made since the person's last move: no legal actions for it.
        for k in range(seen_frames, now["frame"]):
            old = frame(client, sid, k, 0)
            assert old["legal_actions"] == []
            assert "legal_actions" not in old["table"]["views"]["0"] or old["current_player"] == 0
        seen_frames = now["frame"] + 1
        if now["finished"]:
            break
        assert now["current_player"] == 0 and now["legal_actions"]
        assert list(now["table"]["views"]) == ["0"]  # the person's own view only
        view = now["table"]["views"]["0"]
        assert view["legal_actions"] == now["legal_actions"]
        hidden = others_cards(session, now["frame"], 0)
        text = shown_text(now)
        assert not sorted(c for c in hidden if c in text), "another seat's card in North's frame"
        if view["trump"] is None:
            assert now["legal_actions"] == [f"trump {s}" for s in SUITS]
            action = rng.choice(now["legal_actions"])
            trump = action.split()[1]
        else:
            assert view["trump"] == trump
            hand = view["hand"]
            assert set(now["legal_actions"]) <= set(hand)
            assert view["hand_sizes"][0] == len(hand)
            trick = view["trick"]
            assert len(trick) < 4 and all(s != 0 for s, _ in trick)
            if trick:
                assert view["leader"] == trick[0][0]
            assert (view["trick_winning"] is None) == (not trick)
            sizes = view["hand_sizes"]
            for s in range(1, 4):  # one card fewer for each seat that played to this trick
                assert sizes[s] == len(hand) - any(p == s for p, _ in trick)
            illegal = [c for c in hand if c not in now["legal_actions"]]
            if illegal:
                response = client.post(
                    f"/api/sessions/{sid}/moves", json={"seat": 0, "action": illegal[0]}
                )
                assert response.status_code == 422, response.text
                assert (
                    "you must" in response.json()["detail"]
                    or "you may not" in (response.json()["detail"])
                )
                assert frame(client, sid, -1, 0) == now  # nothing changed
            check_matrix(client, sid, now["frame"], 0, hidden)
            action = rng.choice(now["legal_actions"])
        response = client.post(f"/api/sessions/{sid}/moves", json={"seat": 0, "action": action})
        assert response.status_code == 200, response.text
    end = frame(client, sid, -1, "spectator")  # open to every perspective once it is over
    assert end["terminal"] and len(end["table"]["views"]) == 4
    assert sum(end["table"]["views"]["0"]["tricks"]) == 8
    assert any(e["type"] == "event" and e["kind"] == "score" for e in end["log"])
    assert end["returns"][0] == end["returns"][2] == end["table"]["views"]["0"]["scores"][0]
    assert trump is not None


def overtrump_session(after_tricks: int = 0) -> tuple[Session, str, list[str]]:
    """A game South plays, at a turn of South's with a card the overtrump rule forbids.

    South plays its first legal card until such a turn comes, with at least `after_tricks`
    tricks taken before it. Returns the session, that card and the legal ones; searched
    over seeds so that it does not rest on one deal.
    """
    for seed in range(400):
        session = play_session(DEAL, ["random"] * 4, human=2, seed=seed)
        while not session.finished:
            state = session.head
            view = state.observation(2)
            legal = [str(a) for a in view.legal_actions]
            if sum(view.table.tricks) >= after_tricks:
                for card in view.hand:
                    if str(card) in legal:
                        continue
                    try:
                        state.clone().apply(card)
                    except InputError as refusal:
                        if "you must overtrump" in str(refusal):
                            return session, str(card), legal
            session.play(2, legal[0])
    raise AssertionError("no turn of South's with an overtrump in 400 deals")


def test_illegal_card_is_refused_with_the_reason_and_changes_nothing(client: TestClient) -> None:
    session, card, legal = overtrump_session()
    sid = add(client, session)
    before = frame(client, sid, -1, 2)
    history = list(session.history)
    response = client.post(f"/api/sessions/{sid}/moves", json={"seat": 2, "action": card})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert f"'{card}'" in detail
    assert f"you must overtrump: you hold {' '.join(legal)}" in detail
    assert frame(client, sid, -1, 2) == before and session.history == history
    # The person chooses again, and the game goes on.
    response = client.post(f"/api/sessions/{sid}/moves", json={"seat": 2, "action": legal[0]})
    assert response.status_code == 200, response.text
    assert response.json()["last_frame"] > before["frame"]


def test_frames_show_the_last_trick_with_its_taker_points_and_roem(client: TestClient) -> None:
    session = watch_session(DEAL, ["tactics"] * 4, 3)
    sid = add(client, session)
    tricks = 0
    for k in range(session.last_frame + 1):
        data = frame(client, sid, k, "spectator")
        views = data["table"]["views"]
        assert len(views) == 4
        north = views["0"]
        assert all(v["last_trick_won"] == north["last_trick_won"] for v in views.values())
        assert north["hand_sizes"] == [len(views[str(s)]["hand"]) for s in range(4)]
        won = [e for e in data["log"] if e["type"] == "event" and e["kind"] == "trick"]
        if north["last_trick"] is None:
            assert north["last_trick_won"] is None and not won
            continue
        last = won[-1]["data"]
        assert north["last_trick_won"] == {k: last[k] for k in ("winner", "points", "roem")}
        assert [c for _, c in north["last_trick"]] == last["cards"]
        assert north["leader"] == last["winner"]
        tricks += 1
    assert tricks > 0


def test_legal_cards_only_for_the_seat_to_move(client: TestClient) -> None:
    session = watch_session(DEAL, ["random"] * 4, 1)
    sid = add(client, session)
    for k in (1, 5, 9):
        data = frame(client, sid, k, "spectator")
        mover = data["current_player"]
        for seat, view in data["table"]["views"].items():
            assert ("legal_actions" in view) == (int(seat) == mover)
        assert data["legal_actions"] == []  # watched: nobody can move
