"""Tables: several people at one game, each seeing only their seat, kept across restarts."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from epigames.errors import InputError
from epigames.web import tables, views
from epigames.web.app import create_app
from epigames.web.builders import replay_session
from epigames.web.session import SessionError
from epigames.web.tables import PERSON, TableStore

KLAVERJAS = "klaverjas(deals=2)"


def open_table(client: TestClient, game: str, seats: list[str], seed: int) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def frame(client: TestClient, tid: str, token: str, at: int = -1) -> dict[str, Any]:
    response = client.get(f"/api/tables/{tid}/frames/{at}", params={"token": token})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


#: What differs between a table's frame and a watched replay's by design: the session's
#: id and seats' labels, the seed (kept from people while the game runs), who is a person.
BOOKKEEPING = ("session", "human", "strategies", "seed", "origin")


def as_replayed(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in BOOKKEEPING}
    out["log"] = [{k: v for k, v in e.items() if k != "human"} for e in data["log"]]
    return out


def play_to_the_end(
    client: TestClient, table: dict[str, Any], rng: random.Random, stop: int | None = None
) -> int:
    """Each person moves with a random legal action when it is their turn; every other
    person's view is checked against a replay of the same history at each move."""
    tid = table["table"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    moves = 0
    while True:
        status = client.get(f"/api/tables/{tid}", params={"token": tokens[min(tokens)]}).json()
        if status["finished"] or (stop is not None and moves >= stop):
            return moves
        seat = status["to_move"]
        assert seat in tokens, "the agents stop only at a person's turn"
        for other, token in tokens.items():
            data = frame(client, tid, token)
            assert data["perspective"] == other and "seed" not in data
            assert set(data["table"]["views"]) == {str(other)}
            for entry in data["log"]:  # a thought is its thinker's alone
                if entry["type"] == "decision" and entry["seat"] != other:
                    assert entry["thought"] == "" and entry["action"] == ""
            if other != seat:
                assert data["legal_actions"] == []
                refused = client.post(
                    f"/api/tables/{tid}/moves", json={"token": token, "action": "pass"}
                )
                assert refused.status_code == 409, refused.text
        data = frame(client, tid, tokens[seat])
        assert data["legal_actions"]
        action = rng.choice(data["legal_actions"])
        answer = client.post(
            f"/api/tables/{tid}/moves", json={"token": tokens[seat], "action": action}
        )
        assert answer.status_code == 200, answer.text
        moves += 1
        # What each person is sent is exactly their seat's view of the same game replayed.
        store: TableStore = client.app.state.tables  # type: ignore[attr-defined]
        live = store.get(tid).session
        replay = replay_session(str(live.game), live.history)
        for other, token in tokens.items():
            mine = as_replayed(frame(client, tid, token))
            if not live.finished:
                theirs = as_replayed(views.frame_json(replay, -1, other))
                assert mine == theirs
    return moves


def test_two_people_and_two_agents_play_a_whole_klaverjas_match(tclient: TestClient) -> None:
    table = open_table(tclient, KLAVERJAS, [PERSON, "tactics", PERSON, "tactics"], seed=5)
    assert [t["seat"] for t in table["tokens"]] == [0, 2]
    assert table["persons"] == [0, 2]
    moves = play_to_the_end(tclient, table, random.Random(1))
    assert moves > 8
    end = frame(tclient, table["table"], table["tokens"][0]["token"])
    assert end["finished"] and end["perspective"] is None and "seed" in end  # all shown now


def test_four_people_play_a_whole_klaverjas_match(tclient: TestClient) -> None:
    table = open_table(tclient, "klaverjas(deals=1)", [PERSON] * 4, seed=8)
    assert play_to_the_end(tclient, table, random.Random(2)) == 1 + 32  # trump, then the cards


def test_a_reopened_store_goes_on_where_it_stopped(tables_db: Path) -> None:
    """The server is stopped mid-deal and started again: no move is lost."""
    with TestClient(create_app(tables_db=tables_db)) as first:
        table = open_table(first, KLAVERJAS, [PERSON, "tactics", PERSON, "tactics"], seed=9)
        play_to_the_end(first, table, random.Random(3), stop=5)
        token = table["tokens"][0]["token"]
        before = frame(first, table["table"], token)
        history = list(first.app.state.tables.get(table["table"]).session.history)  # type: ignore[attr-defined]
    with TestClient(create_app(tables_db=tables_db)) as second:
        assert second.app.state.tables.get(table["table"]).session.history == history  # type: ignore[attr-defined]
        after = frame(second, table["table"], token)
        assert as_replayed(after) == as_replayed(before)
        play_to_the_end(second, table, random.Random(4))


def test_the_version_goes_on_after_a_restart(tables_db: Path) -> None:
    """A restarted store counts on from the stored moves, and a wait from a version it has
    not reached (a browser from before the restart) is answered at once."""
    with TestClient(create_app(tables_db=tables_db)) as first:
        table = open_table(first, KLAVERJAS, [PERSON, "tactics", PERSON, "tactics"], seed=9)
        play_to_the_end(first, table, random.Random(3), stop=5)
        seen = first.app.state.tables.get(table["table"]).version  # type: ignore[attr-defined]
    store = TableStore(tables_db)
    try:
        reopened = store.get(table["table"])
        assert reopened.version == reopened.moves == 5
        assert seen >= 5

        async def wait_then_change() -> int:
            # The wait runs first; had it not answered at once, the change would wake it.
            waiting = asyncio.ensure_future(reopened.wait(seen + 1, timeout=3600))
            await asyncio.sleep(0)
            reopened.changed()
            return await waiting

        assert asyncio.run(wait_then_change()) == 5
    finally:
        store.close()


def test_moves_are_pushed_over_the_websocket_and_the_long_poll(tclient: TestClient) -> None:
    table = open_table(tclient, "kwartet(players=3,kinds=4)", [PERSON, PERSON, "greedy"], seed=2)
    tid = table["table"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    with tclient.websocket_connect(f"/api/tables/{tid}/ws?token={tokens[1]}") as socket:
        first = socket.receive_json()
        assert first["seat"] == 1 and first["version"] == 0
        seat = first["to_move"]
        legal = frame(tclient, tid, tokens[seat])["legal_actions"]
        moved = tclient.post(
            f"/api/tables/{tid}/moves", json={"token": tokens[seat], "action": legal[0]}
        )
        assert moved.status_code == 200, moved.text
        pushed = socket.receive_json()
        assert pushed["version"] == 1 and pushed["last_frame"] > first["last_frame"]
        assert set(pushed) == set(first)  # the status only: nothing of anyone's hand
    polled = tclient.get(f"/api/tables/{tid}/changes", params={"token": tokens[0], "after": 0})
    assert polled.json()["version"] == 1


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"game": "kwartet(players=3)", "seats": ["random"] * 3}, "needs a person"),
        ({"game": "kwartet(players=3)", "seats": [PERSON, "gredy", "random"]}, "gredy"),
        ({"game": "kwartet(players=3)", "seats": [PERSON]}, "has 3 seats"),
        ({"game": "kwartet(players=99)", "seats": [PERSON]}, "players"),
    ],
)
def test_a_bad_table_is_refused_with_a_reason(
    tclient: TestClient, body: dict[str, Any], expected: str
) -> None:
    response = tclient.post("/api/tables", json=body)
    assert response.status_code == 422
    assert expected in response.json()["detail"]


def test_a_token_plays_its_own_table_and_seat_only(tclient: TestClient) -> None:
    a = open_table(tclient, "kwartet(players=3,kinds=4)", [PERSON, "greedy", "greedy"], seed=1)
    b = open_table(tclient, "kwartet(players=3,kinds=4)", [PERSON, "greedy", "greedy"], seed=1)
    token_b = b["tokens"][0]["token"]
    answer = tclient.get(f"/api/tables/{a['table']}/frames/0", params={"token": token_b})
    assert answer.status_code == 403
    assert tclient.get("/api/tables/nosuchtable", params={"token": token_b}).status_code == 404
    # A table's game is not reachable as a session: the seat token is the only way in.
    assert tclient.get(f"/api/sessions/{a['table']}").status_code == 404
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        tclient.websocket_connect(f"/api/tables/{a['table']}/ws?token={token_b}") as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 4403


def test_a_file_that_is_not_a_tables_database_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(InputError, match=r"notes\.sqlite"):
        TableStore(bad)
    assert bad.read_bytes().startswith(b"these are my notes")  # left as it was


def test_a_table_that_no_longer_replays_is_left_out_and_kept(tables_db: Path) -> None:
    store = TableStore(tables_db)
    good, _, _ = store.create("kwartet(players=3,kinds=4)", [PERSON, "greedy", "greedy"], seed=3)
    broken, _, _ = store.create("kwartet(players=3,kinds=4)", [PERSON, "greedy", "greedy"], 4)
    store.close()
    with sqlite3.connect(tables_db) as db:  # a move the game refuses, as if the rules changed
        db.execute(
            "INSERT INTO moves (table_id, n, seat, action) VALUES (?, 0, 0, 'no such move')",
            (broken.id,),
        )
    again = TableStore(tables_db)
    assert again.get(good.id).session.last_frame == good.session.last_frame
    with pytest.raises(SessionError, match="can no longer be replayed"):
        again.get(broken.id)
    again.close()
    with sqlite3.connect(tables_db) as db:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (1,)


def test_pictures_and_questions_are_answered_from_the_token_seat(tclient: TestClient) -> None:
    """The Kripke panel's requests: the seat's picture, matrix and answers, nobody else's."""
    table = open_table(tclient, "kwartet(players=3,kinds=4)", [PERSON, PERSON, "greedy"], seed=6)
    tid = table["table"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    live = tclient.app.state.tables.get(tid).session  # type: ignore[attr-defined]
    replay = replay_session(str(live.game), live.history)
    subject = frame(tclient, tid, tokens[1])["subjects"][0]
    for seat, token in tokens.items():
        base = f"/api/tables/{tid}/frames/0"
        pic = tclient.get(base + "/picture", params={"token": token, "subject": subject}).json()
        expected = views.picture_json(views.get_picture(replay, 0, subject, seat))
        assert pic == {**expected, "frame": 0}
        rows = tclient.get(base + "/matrix", params={"token": token}).json()["rows"]
        assert all(set(r["probabilities"]) == {live.game.seat_names[seat]} for r in rows)
        text = f"K_{seat} holds({seat}, {subject})"
        body = {"token": token, "frame": 0, "formula": text}
        answer = tclient.post(f"/api/tables/{tid}/ask", json=body).json()
        assert answer["perspective"] == live.game.seat_names[seat]
        assert "value" not in answer and "knowers" not in answer  # the truth stays hidden
        judged = tclient.post(
            f"/api/tables/{tid}/formula", json={**body, "subject": subject, "formula": text}
        )
        assert judged.status_code == 200, judged.text
    bad = {"token": tokens[0], "frame": 0, "formula": "K_0 (p &"}
    assert tclient.post(f"/api/tables/{tid}/ask", json=bad).status_code == 422


def test_a_finished_table_leaves_memory_and_comes_back_when_asked(
    tables_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finished games do not count against the limit nor stay in memory; their frames stay."""
    monkeypatch.setattr(tables, "ENDED_IN_MEMORY", 0)
    store = TableStore(tables_db)
    table, tokens, _ = store.create("kwartet(players=3,kinds=3)", [PERSON, "greedy", "greedy"], 7)
    session = table.session
    while not session.finished:
        action = session.head.observation(0).legal_actions[0]
        store.play(table.id, tokens[0], session.game.action_to_string(action))
    assert len(store) == 0 and table.id not in store._tables and table.id not in store._ended
    back = store.get(table.id)  # replayed from the database
    assert back is not table and back.session.history == session.history
    assert back.session.finished
    store.close()
    assert len(TableStore(tables_db)) == 0  # a restart replays only the games in progress
