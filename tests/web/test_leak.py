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

from epigames.games import CHANCE, State, load_game, play_match, registered_games
from epigames.games.blufpoker import BlufpokerState
from epigames.games.blufpoker.events import CupSeen
from epigames.games.klaverjas import KlaverjasState
from epigames.games.kwartet import Card, KwartetGame, KwartetState
from epigames.games.picture import HasPictures
from epigames.logic import parse
from epigames.logic.syntax import atom_text
from epigames.web import views
from epigames.web.builders import replay_session, watch_session
from epigames.web.session import Session
from tests.conformance.helpers import rollout
from tests.conformance.oracles import with_showcases
from tests.web import toy

CONFIGS = [
    ("kwartet(players=3,kinds=4)", 0),
    ("kwartet(players=4,kinds=5)", 1),
    ("kwartet(players=5,kinds=6,ask_own=false)", 2),
    ("kwartet(players=4,kinds=3)", 3),
    ("kwartet(players=6,kinds=7)", 4),
    ("kwartet(players=4,kinds=13)", 5),
]


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
            in_play = set(state.picture_subjects())
            responses = seat_responses(client, sid, frame, seat, sorted(hidden & in_play))
            data = responses["frame"]
            assert set(data["table"]["views"]) == {str(seat)}
            # Left out of the scan, as they name cards without saying where they are: the
            # subjects (every card in play: the deck is public; the focus is one of them,
            # the card the last event the seat saw names) and the legal actions (every
            # card of the seat's kinds, from its own hand and the rules).
            view = dict(data["table"]["views"][str(seat)])
            legal = view.pop("legal_actions", [])
            assert legal == [str(a) for a in session.state_at(frame).observation(seat)
                             .legal_actions]  # fmt: skip
            assert data["focus"] in data["subjects"] or not data["subjects"]
            left_out = ("subjects", "focus", "legal_actions")
            shown = {k: v for k, v in data.items() if k not in left_out}
            shown["table"] = view
            text = json.dumps(shown, ensure_ascii=False)
            leaked = sorted(card for card in hidden if card in text)
            assert not leaked, f"seat {seat} frame {frame} of {game} sees {leaked}"
            for subject, pic in responses.items():
                if subject != "frame" and pic["true_world"] is not None:
                    # Marked only where the seat knows the holder: it considers one world
                    # (worlds it rules out may still be drawn, primed, for other seats).
                    considered = [w["name"] for w in pic["worlds"] if w["considered"]]
                    assert considered == [pic["true_world"]], (
                        f"{subject}: true world shown to seat {seat}"
                    )
            checked += bool(hidden)
    assert checked > 0  # the check had hidden cards to look for


def same_kind_swap(session: Session, frame: int, seat: int, rng: random.Random) -> list[Hashable]:
    """The history with two hidden same-kind cards of two other seats swapped in the deal."""
    game = session.game
    n = game.num_players
    assert isinstance(game, KwartetGame)
    deck = len(game.deck)
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
            subjects = true.head.picture_subjects()
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


#: Klaverjas settings for the scan below: (game, agents, seed); thoughts of every strategy.
KLAVERJAS_CONFIGS = [
    ("klaverjas(deals=1)", ("mc", "random", "mc", "random"), 0),
    ("klaverjas(ranks=4,rules=rotterdam,undertrump=force,trump=bidding,deals=2)", ("mc",) * 4, 1),
    ("klaverjas(deals=1)", ("tactics", "mc", "tactics2017", "random"), 0),
]


@pytest.mark.parametrize(("game", "agents", "seed"), KLAVERJAS_CONFIGS)
def test_no_hidden_klaverjas_card_in_any_seat_response(
    client: TestClient, game: str, agents: tuple[str, ...], seed: int
) -> None:
    """Klaverjas: no card another seat holds is in a seat's frame or marked in its matrix.

    Every frame and seat, over the current deal's part of the log. Left out of the scan, as
    they name cards without saying where they are: the subjects (the cards in play, and the
    `focus` among them, the one the last event the seat saw names) and each
    card play's `lacks` (cards the player has shown it does not hold, which another seat may
    well hold), and the seat's own thoughts, made from its own view, which may name cards
    it considers possible in another hand ("I cannot beat both 9♥ and A♥"). Another seat's
    decisions carry no thought at all: a thought is its thinker's private observation.
    """
    session = watch_session(game, agents, seed)
    sid = add(client, session)
    names = session.game.seat_names
    checked = 0
    for seat in range(4):
        for frame in range(session.last_frame + 1):
            state = session.state_at(frame)
            assert isinstance(state, KlaverjasState)
            hidden = {str(c) for s, hand in enumerate(state.hands()) if s != seat for c in hand}
            base = f"/api/sessions/{sid}/frames/{frame}"
            data = get(client, base, perspective=seat)
            assert set(data["table"]["views"]) == {str(seat)}
            # The focus is one of the subjects: the card the last event this seat saw names.
            assert data["focus"] in data["subjects"] or not data["subjects"]
            shown = {k: v for k, v in data.items() if k not in ("subjects", "focus")}
            # Only this deal's entries: earlier deals named the same 32 cards in public play.
            log = data["log"]
            starts = [i for i, e in enumerate(log) if e.get("kind") == "deal"]
            scanned: list[dict[str, Any]] = []
            others: list[dict[str, Any]] = []
            for e in log[starts[-1] if starts else 0 :]:
                if e["type"] == "event":
                    rest = dict(e["data"])
                    rest.pop("lacks", None)
                    scanned.append({**e, "data": rest})
                else:
                    if e["seat"] != seat:
                        others.append(e)
                    scanned.append({**e, "thought": ""})
            shown["log"] = scanned
            text = json.dumps(shown, ensure_ascii=False)
            leaked = sorted(card for card in hidden if card in text)
            assert not leaked, f"seat {seat} frame {frame} of {game} sees {leaked}"
            for e in others:
                assert e["thought"] == "", f"seat {seat} frame {frame} reads {e['thought']!r}"
            for row in get(client, base + "/matrix", perspective=seat)["rows"]:
                if row["subject"] in hidden and row["true_world"] is not None:
                    probs = row["probabilities"][names[seat]]
                    possible = [s for s, p in probs.items() if p > 0]
                    assert possible == [row["true_world"]], f"{row['subject']} shown to {seat}"
            checked += bool(hidden)
    assert checked > 0


# --- the generic no-peeking property: resampling what a seat cannot see ------------------

#: Every registered game, in settings small enough to check every frame, seat and subject:
#: (game, the agents that play it, how many seeded games).
RESAMPLE_SETTINGS = {
    "kwartet": [
        # Every card's picture is built for the matrix at every frame and seat: the most
        # costly check of the suite (some 3 minutes of its 15 at 22 games, so 15 now).
        ("kwartet(players=3,kinds=3)", ("expert", "greedy", "mixed"), 10),
        ("kwartet(players=4,kinds=3,ask_own=false)", ("owner", "random", "greedy", "silent"), 5),
    ],
    "blufpoker": [
        ("blufpoker(players=3,penalties=2)", ("knowledge", "bayes", "random"), 30),
        ("blufpoker(players=2,penalties=3)", ("bayes", "knowledge"), 20),
    ],
    "klaverjas": [
        ("klaverjas(ranks=4,trump=bidding,deals=1)", ("random",) * 4, 5),
        (
            "klaverjas(ranks=3,rules=rotterdam,undertrump=force,trump=random,deals=2)",
            ("random",) * 4,
            4,
        ),
    ],
    "kemps": [
        ("kemps(ranks=5,max_turns=30)", ("greedy", "kbgreedy", "blocking"), 3),
        ("kemps(players=2,table=4,ranks=5,max_turns=30)", ("greedy", "blocking2023"), 3),
    ],
}


def state_session(state: State) -> Session:
    """A watched one-frame session of a state, as the web app would serve it."""
    game = state.game
    session = Session(f"s{id(state)}", game, ("random",) * game.num_players, 0)
    session._head = state
    session.frames.append(len(state.history))
    session.event_counts.append(len(state.events))
    session._checkpoints[0] = state.clone()
    return session


def seat_answers(state: State, seat: int) -> dict[str, Any]:
    """Every response the web app makes for `seat` about a state, without the session id.

    The frame (table, transcript, legal actions), the knowledge matrix, each subject's
    picture with its probabilities, and formula answers: for every agent, `K` and `Kw` of
    each picture's first atom.
    """
    session = state_session(state)
    frame = views.frame_json(session, 0, seat)
    frame.pop("session")
    out: dict[str, Any] = {"frame": frame}
    subjects = frame["subjects"]
    if subjects:
        out["matrix"] = views.matrix_json(session, 0, seat)
    for subject in subjects:
        pic = views.get_picture(session, 0, subject, seat)
        out[subject] = views.picture_json(pic)
        atom = atom_text(min(pic.model.atoms))
        for agent in pic.model.agents:
            for op in ("K", "Kw"):
                text = f"{op}_{atom_text(agent)} {atom}"
                out[f"{subject}: {text}"] = views.formula_json(pic, parse(text))
    return out


def decision_states(spec: str, agents: tuple[str, ...], seed: int) -> list[State]:
    """Every frame of one seeded game between agents: each decision, and the end."""
    history = play_match(spec, agents, seed).history
    state = load_game(spec).new_initial_state()
    states: list[State] = []
    for action in [*history, None]:
        if state.current_player != CHANCE:
            states.append(state.clone())
        if action is not None:
            state.apply(action)
    return states


def resample_settings() -> dict[str, list[tuple[str, tuple[str, ...], int]]]:
    """`RESAMPLE_SETTINGS`, and the showcase of every other registered game (5 games)."""
    return with_showcases(RESAMPLE_SETTINGS, 5, toy.NAME)


def test_every_game_has_resample_settings() -> None:
    assert set(RESAMPLE_SETTINGS) <= set(registered_games())
    assert set(resample_settings()) == {g for g in registered_games() if g != toy.NAME}


@pytest.mark.parametrize(
    ("spec", "agents", "games"),
    [setting for settings in resample_settings().values() for setting in settings],
)
def test_seat_answers_are_the_same_on_every_resampled_state(
    spec: str, agents: tuple[str, ...], games: int
) -> None:
    """Sampled from a seat's own knowledge, the hidden part changes none of its answers.

    Over many seeded games, every frame and every seat: the state is resampled with the
    engine's sampler (`State.resample`), and every web response for the seat must be the
    same on both states. The check has teeth: the resampled truth differs in many states.
    """
    compared = differed = 0
    for seed in range(games):
        rng = random.Random(seed)
        for state in decision_states(spec, agents, seed):
            assert isinstance(state, HasPictures)
            for subject in state.picture_subjects():
                state.picture(subject, None)  # the spectator's
            for seat in range(state.game.num_players):
                other = state.resample(seat, rng)
                assert other.observation(seat).to_dict() == state.observation(seat).to_dict()
                compared += 1
                if other.to_json() == state.to_json() and truth(other) == truth(state):
                    continue  # the same state: the same answers, nothing to compare
                differed += 1
                mine, theirs = seat_answers(state, seat), seat_answers(other, seat)
                if mine != theirs:
                    diff = sorted(k for k in mine if mine.get(k) != theirs.get(k))
                    pytest.fail(
                        f"{spec} seed {seed} frame at {len(state.history)} seat "
                        f"{seat}: answers depend on hidden information: {diff[:5]}"
                    )
    assert compared > 0 and differed > compared // 10


def truth(state: State) -> object:
    """The hidden truth of a state, for counting states that the resampling changed."""
    if isinstance(state, KwartetState | KlaverjasState):
        return state.hands()
    assert isinstance(state, BlufpokerState)
    return state.cup


def test_former_bidder_knows_the_roll_in_the_cup_picture() -> None:
    """After Bob bids and Cas believes and takes the cup, Bob still knows what is in it."""
    game = load_game("blufpoker(players=3,penalties=2)")
    for seed in range(20):
        found = False

        def check(state: State) -> None:
            nonlocal found
            assert isinstance(state, BlufpokerState)
            last = state.events[-1] if state.events else None
            if not isinstance(last, CupSeen) or last.fresh or state.phase != "roll":
                return  # wanted: a believer has just looked under the cup
            bidder = state.observation(state.holder).bidder
            if state.observation(0).board.known is not None or bidder == state.holder:
                return
            names = game.seat_names
            cup = f'"cup_{state.cup}"'
            pic = state.picture("cup", None)
            assert pic.model.holds(parse(f"K_{names[bidder]} {cup}"), str(state.cup))
            assert pic.model.holds(parse(f"K_{names[state.holder]} {cup}"), str(state.cup))
            found = True

        rollout(str(game), seed, check)
        if found:
            return
    pytest.fail("no state where a seat believed a non-opening bid")
