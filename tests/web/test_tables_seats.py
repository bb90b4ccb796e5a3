"""Tables beyond moves: spectators, the coach, a seat handed to an agent, the turn clock."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.errors import InputError
from epigames.web import views
from epigames.web.builders import replay_session
from epigames.web.tables import PERSON, TableStore
from tests.web.test_tables import as_replayed, frame, open_table

KWARTET = "kwartet(players=3,kinds=4)"


def store_of(client: TestClient) -> TableStore:
    store: TableStore = client.app.state.tables  # type: ignore[attr-defined]
    return store


def status(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{tid}", params={"token": token})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def move_first(client: TestClient, tid: str, tokens: dict[int, str], rng: random.Random) -> None:
    """The person to move plays a random legal action."""
    seat = status(client, tid, tokens[min(tokens)])["to_move"]
    action = rng.choice(frame(client, tid, tokens[seat])["legal_actions"])
    answer = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "action": action})
    assert answer.status_code == 200, answer.text


def stored_moves(db: Path, tid: str) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as conn:
        query = "SELECT seat, by FROM moves WHERE table_id = ? ORDER BY n"
        return [(seat, by) for seat, by in conn.execute(query, (tid,))]


def test_a_spectator_sees_the_public_part_while_the_game_runs_and_all_after(
    tclient: TestClient,
) -> None:
    table = open_table(tclient, KWARTET, [PERSON, PERSON, "greedy"], seed=11)
    tid, watch = table["table"], table["watch"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    assert watch not in tokens.values()
    assert status(tclient, tid, watch)["seat"] is None
    rng = random.Random(4)
    live = store_of(tclient).get(tid).session
    seen = 0
    while not live.finished:
        data = frame(tclient, tid, watch)
        assert data["perspective"] == views.PUBLIC and "seed" not in data
        assert data["table"]["views"] == {} and data["subjects"] == []
        assert data["legal_actions"] == []
        for entry in data["log"]:
            if entry["type"] == "decision":
                assert entry["action"] == "" and entry["thought"] == ""
            else:
                assert entry["public"], entry  # nobody's private observation
        # The public arrays are the same from every seat: none of them is private.
        head = live.head
        publics = [head.observation(s).public_state() for s in range(live.game.num_players)]
        for arrays in publics[1:]:
            assert all((arrays[k] == publics[0][k]).all() for k in arrays)
        replay = replay_session(str(live.game), live.history)
        assert as_replayed(data) == as_replayed(views.frame_json(replay, -1, views.PUBLIC))
        for path in ("/frames/-1/picture", "/frames/-1/matrix"):
            asked = {"token": watch, "subject": "x"}
            refused = tclient.get(f"/api/tables/{tid}{path}", params=asked)
            assert refused.status_code == 403 and "spectators" in refused.json()["detail"]
        ask = {"token": watch, "frame": -1, "formula": "K_0 p"}
        assert tclient.post(f"/api/tables/{tid}/ask", json=ask).status_code == 403
        played = tclient.post(f"/api/tables/{tid}/moves", json={"token": watch, "action": "x"})
        assert played.status_code == 403 and "spectator" in played.json()["detail"]
        move_first(tclient, tid, tokens, rng)
        seen += 1
    assert seen > 3
    end = frame(tclient, tid, watch)
    assert end["perspective"] is None and "seed" in end and len(end["table"]["views"]) == 3


def test_the_coach_answers_from_the_seat_view_at_its_turn(tclient: TestClient) -> None:
    table = open_table(tclient, KWARTET, [PERSON, PERSON, "greedy"], seed=12)
    tid, watch = table["table"], table["watch"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    to_move = status(tclient, tid, watch)["to_move"]
    waiting = next(s for s in tokens if s != to_move)

    def coach(token: str, strategy: str) -> Any:
        return tclient.get(
            f"/api/tables/{tid}/coach", params={"token": token, "strategy": strategy}
        )

    answer = coach(tokens[to_move], "greedy")
    assert answer.status_code == 200, answer.text
    advice = answer.json()
    assert advice["strategy"] == "greedy" and advice["thought"]
    assert advice["action"] in frame(tclient, tid, tokens[to_move])["legal_actions"]
    assert coach(tokens[to_move], "greedy").json() == advice  # the same question, same answer
    # A seat's coach reads that seat's view only: the advice is what the strategy would
    # choose there, not something drawn from the true state.
    live = store_of(tclient).get(tid)
    again = live.stand_in(to_move, "greedy", f"coach {live.session.last_frame}")
    view = live.session.head.observation(to_move)
    assert live.session.game.action_to_string(again.choose(view).action) == advice["action"]
    assert coach(tokens[waiting], "greedy").status_code == 409
    seen = frame(tclient, tid, tokens[to_move])["strategies"]
    assert seen[to_move] == "you" and seen[waiting] == "a person" and seen[2] == "greedy"
    assert coach(watch, "greedy").status_code == 403
    unknown = coach(tokens[to_move], "gredy")
    assert unknown.status_code == 422 and "gredy" in unknown.json()["detail"]
    assert status(tclient, tid, watch)["to_move"] == to_move  # asking moved nothing


def test_a_seat_handed_to_an_agent_plays_on_and_is_taken_back(
    tclient: TestClient, tables_db: Path
) -> None:
    table = open_table(tclient, KWARTET, [PERSON, PERSON, "greedy"], seed=13)
    tid = table["table"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    bad = tclient.post(f"/api/tables/{tid}/agent", json={"token": tokens[1], "strategy": "gredy"})
    assert bad.status_code == 422 and "gredy" in bad.json()["detail"]
    left = tclient.post(f"/api/tables/{tid}/agent", json={"token": tokens[1], "strategy": "greedy"})
    assert left.status_code == 200, left.text
    assert left.json()["agents"] == {"1": "greedy"}
    refused = tclient.post(f"/api/tables/{tid}/moves", json={"token": tokens[1], "action": "x"})
    assert refused.status_code == 409 and "take it back" in refused.json()["detail"]
    rng = random.Random(5)
    for _ in range(3):  # only seat 0 is ever to move now: seat 1 is the agent's
        if status(tclient, tid, tokens[0])["finished"]:
            break
        assert status(tclient, tid, tokens[0])["to_move"] == 0
        move_first(tclient, tid, {0: tokens[0]}, rng)
    assert (1, "agent") in stored_moves(tables_db, tid)
    back = tclient.post(f"/api/tables/{tid}/back", json={"token": tokens[1]})
    assert back.status_code == 200 and back.json()["agents"] == {}
    # A server started again replays the agent's moves from the file and knows who plays.
    live = store_of(tclient).get(tid).session
    again = TableStore(tables_db)
    assert again.get(tid).session.history == live.history
    assert again.get(tid).agents == {}
    again.close()


def test_a_stand_in_to_move_when_the_server_stopped_plays_on_after_it_starts(
    tables_db: Path,
) -> None:
    store = TableStore(tables_db)
    table, tokens, _ = store.create(KWARTET, [PERSON, PERSON, "greedy"], seed=14)
    store.hand_over(table.id, tokens[1], "random")
    frames = table.session.last_frame
    store.close()
    again = TableStore(tables_db)
    reopened = again.get(table.id)
    assert reopened.agents == {1: "random"}
    assert reopened.session.last_frame == frames
    assert reopened.session.finished or reopened.session.head.current_player != 1
    again.close()


def test_a_turn_clock_that_runs_out_plays_the_move(tables_db: Path) -> None:
    store = TableStore(tables_db)
    with pytest.raises(InputError, match="clock 5 s"):
        store.create(KWARTET, [PERSON, "greedy", "greedy"], seed=15, clock=5)
    table, _, _ = store.create(KWARTET, [PERSON, PERSON, "greedy"], seed=15, clock=30)
    info = table.status()
    assert info["clock"] == 30 and info["deadline"] is not None
    to_move = table.session.head.current_player
    frames = table.session.last_frame
    assert store.expire(info["deadline"] - 1) == 0  # not yet
    assert table.session.last_frame == frames
    assert store.expire(info["deadline"]) == 1
    assert table.session.last_frame > frames
    assert stored_moves(tables_db, table.id)[0] == (to_move, "clock")
    # The next person's clock starts; a move in time stops it.
    assert table.deadline is not None and table.deadline > info["deadline"] - 30
    store.close()
    again = TableStore(tables_db)
    assert again.get(table.id).session.history == table.session.history
    assert again.get(table.id).clock == 30
    again.close()


def test_a_clock_out_of_range_is_refused_over_http(tclient: TestClient) -> None:
    body = {"game": KWARTET, "seats": [PERSON, "greedy", "greedy"], "clock": 1}
    answer = tclient.post("/api/tables", json=body)
    assert answer.status_code == 422 and "clock" in answer.json()["detail"]


def test_a_tables_file_from_before_clocks_and_stand_ins_opens(tables_db: Path) -> None:
    """A file written before the clock, the watch token and stand-ins gets their columns."""
    with sqlite3.connect(tables_db) as db:
        db.executescript(
            """
            CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL,
                strategies TEXT NOT NULL, seed TEXT NOT NULL,
                finished INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL,
                token_hash TEXT NOT NULL UNIQUE, PRIMARY KEY (table_id, seat));
            CREATE TABLE moves (table_id TEXT NOT NULL, n INTEGER NOT NULL,
                seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, n));
            INSERT INTO tables VALUES ('old', 'kwartet(players=3,kinds=4)',
                '["human", "greedy", "greedy"]', '16', 0);
            INSERT INTO seats VALUES ('old', 0, 'abc');
            """
        )
    store = TableStore(tables_db)
    old = store.get("old")
    assert old.clock is None and old.agents == {} and old.watch == ""
    store.close()


def test_a_seat_whose_person_is_away_may_be_handed_to_an_agent(tclient: TestClient) -> None:
    """Not while its person holds a WebSocket or polls; once nobody holds it, yes."""
    table = open_table(tclient, KWARTET, [PERSON, PERSON, "greedy"], seed=17)
    tid = table["table"]
    tokens = {t["seat"]: t["token"] for t in table["tokens"]}
    hand = {"token": tokens[0], "strategy": "greedy", "seat": 1}
    with tclient.websocket_connect(f"/api/tables/{tid}/ws?token={tokens[1]}") as ws:
        ws.receive_json()
        assert status(tclient, tid, tokens[0])["away"] == [0]  # seat 0 only asks
        refused = tclient.post(f"/api/tables/{tid}/agent", json=hand)
        assert refused.status_code == 409 and "still at the table" in refused.json()["detail"]
    assert status(tclient, tid, tokens[0])["away"] == [0, 1]
    answer = tclient.post(f"/api/tables/{tid}/agent", json=hand)
    assert answer.status_code == 200 and answer.json()["agents"] == {"1": "greedy"}
    not_a_person = tclient.post(f"/api/tables/{tid}/agent", json={**hand, "seat": 2})
    assert not_a_person.status_code == 409
    back = tclient.post(f"/api/tables/{tid}/back", json={"token": tokens[1]})
    assert back.status_code == 200 and back.json()["agents"] == {}
    # A long poll keeps a seat at the table as a WebSocket does.
    tclient.post(f"/api/tables/{tid}/agent", json={"token": tokens[0], "strategy": "greedy"})
    polled = tclient.get(f"/api/tables/{tid}/changes", params={"token": tokens[1], "after": 0})
    assert polled.status_code == 200 and 1 not in polled.json()["away"]
    leaves = tclient.post(f"/api/tables/{tid}/agent", json={**hand, "token": tokens[1]})
    assert leaves.status_code == 200  # its own seat: a person may always leave
