"""A thought is its thinker's private observation: no string sent to a seat tells more.

The property: what a seat is sent about a move (the log's lines, the move's entry with its
label and thought, the guide's explanations) may depend only on what the seat observes.
At every decision of seeded games between thinking agents, the state is resampled from
each other seat's knowledge (`State.resample`) and the mover decides on both states; when
the seat observes the same after either move, every string of its frame must be the same.
Agents' thoughts name probabilities, counts and legal moves that follow from their hands,
so a filter that looks only at the cards a thought names fails this (it did: the thoughts
below told how many cards of a kind West held, and that East had no other club).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import pytest

from epigames.games import CHANCE, State, TranscriptEntry, load_game, registered_games
from epigames.games.strategy import make_strategy
from epigames.web import views
from epigames.web.builders import play_session, watch_session
from epigames.web.session import Session
from tests.conformance.oracles import with_showcases
from tests.web import toy
from tests.web.test_leak import decision_states

#: Per game, settings whose agents think aloud about what they hold: (game, agents, games).
THINKERS = {
    "kwartet": [
        ("kwartet(players=3,kinds=4)", ("expert", "greedy", "mixed"), 6),
        (
            "kwartet(players=4,kinds=4,ask_own=false)",
            ("aggressive", "defensive", "owner", "expert"),
            3,
        ),
    ],
    "blufpoker": [("blufpoker(players=3,penalties=2)", ("knowledge", "bayes", "random"), 6)],
    "klaverjas": [("klaverjas(ranks=4,trump=bidding,deals=1)", ("tactics", "tactics2017") * 2, 3)],
    "kemps": [
        ("kemps(ranks=5,max_turns=20)", ("kbgreedy", "tom", "blocking"), 2),
        ("kemps(teams=true,ranks=6,max_turns=12)", ("tom", "kbgreedy", "greedy", "tom"), 2),
    ],
}


def thinkers() -> dict[str, list[tuple[str, tuple[str, ...], int]]]:
    """`THINKERS`, and the showcase of every other registered game (3 games)."""
    return with_showcases(THINKERS, 3, toy.NAME)


def test_every_game_has_thinkers() -> None:
    assert set(THINKERS) <= set(registered_games())
    assert set(thinkers()) == {g for g in registered_games() if g != toy.NAME}


def after_move(state: State, seat: int, action: Hashable, thought: Any) -> Session:
    """A watched session of `state` (frame 0) and one recorded move (frame 1)."""
    game = state.game
    session = Session(f"s{id(state)}", game, ("?",) * game.num_players, 0)
    session._head = state.clone()
    session.history = list(state.history)
    session._mark_frame()
    first = len(session.head.events)
    session._apply(action)
    session._record(TranscriptEntry(seat, action, thought, first))
    session._mark_frame()
    return session


def sent(session: Session, frame: int, seat: int) -> dict[str, Any]:
    """Every string of a frame made for `seat`, explanations included."""
    data = views.frame_json(session, frame, seat, guide=True)
    data.pop("session")
    return data


@pytest.mark.parametrize(
    ("spec", "agents", "games"),
    [setting for settings in thinkers().values() for setting in settings],
)
def test_what_a_seat_is_sent_about_a_move_depends_only_on_what_it_sees(
    spec: str, agents: tuple[str, ...], games: int
) -> None:
    game = load_game(spec)
    compared = thoughts_differed = 0
    for seed in range(games):
        rng = random.Random(seed)
        for k, state in enumerate(decision_states(spec, agents, seed)):
            if state.is_terminal():
                continue
            mover = state.current_player
            assert mover != CHANCE
            for seat in range(game.num_players):
                if seat == mover:
                    continue
                other = state.resample(seat, rng)
                # The mover decides on both states with the same generator: only what the
                # seat cannot see differs between the two.
                decided = []
                for world in (state, other):
                    agent = make_strategy(game.name, agents[mover], random.Random(k))
                    if hasattr(agent, "bind"):
                        agent.bind(lambda r, w=world, m=mover: w.resample(m, r))
                    decided.append(agent.choose(world.observation(mover)))
                (a, ta), (b, tb) = decided
                sessions = [after_move(state, mover, a, ta), after_move(other, mover, b, tb)]
                if (
                    sessions[0].head.observation(seat).to_dict()
                    != sessions[1].head.observation(seat).to_dict()
                ):
                    continue  # the seat sees a difference: the move itself tells it
                compared += 1
                thoughts_differed += ta.text != tb.text
                mine, theirs = (sent(s, 1, seat) for s in sessions)
                if mine != theirs:
                    diff = [
                        (x, y) for x, y in zip(mine["log"], theirs["log"], strict=False) if x != y
                    ]
                    pytest.fail(
                        f"{spec} seed {seed} decision {k}: {game.seat_names[seat]} is sent "
                        f"what {game.seat_names[mover]} alone knows: {diff[:2] or mine}"
                    )
    # Teeth: the mover's thoughts differed where the seat could not tell the states apart.
    assert compared > 0 and thoughts_differed > 0, (compared, thoughts_differed)


def play_through(session: Session, policy: random.Random) -> list[dict[str, Any]]:
    """Play the person's seat to the end; every frame the person was sent on the way."""
    seat = session.human
    assert seat is not None
    seen = []
    while True:
        seen.append(views.frame_json(session, -1, seat, guide=True))
        if session.finished:
            return seen
        legal = seen[-1]["legal_actions"]
        session.play(seat, policy.choice(legal))


#: The issue's two examples: (game, the person's seat, the agents' strategy, a sentence of
#: theirs that told the person what they held).
EXAMPLES = [
    ("kwartet", 0, "expert", "with probability"),  # how many of the kind the asker holds
    ("klaverjas(deals=1)", 2, "tactics", "my only legal card"),  # no other card of the suit
]


@pytest.mark.parametrize(("spec", "person", "agent", "telling"), EXAMPLES)
def test_a_person_playing_reads_no_agent_thought_until_the_review(
    spec: str, person: int, agent: str, telling: str
) -> None:
    n = load_game(spec).num_players
    strategies = ["human" if s == person else agent for s in range(n)]
    told = 0
    for seed in range(3):
        session = play_session(spec, strategies, person, seed=seed)
        for data in play_through(session, random.Random(seed)):
            for entry in data["log"]:
                if entry["type"] == "decision" and entry["seat"] != person:
                    assert entry["thought"] == entry["action"] == "", entry
                    assert telling not in entry["explain"]
        # After the end the review (the spectator) shows them all.
        review = views.frame_json(session, -1, None)
        said = [e["thought"] for e in review["log"] if e["type"] == "decision"]
        told += sum(telling in t for t in said)
    assert told > 0, f"no {agent} thought said {telling!r}: the check had nothing to hide"


def test_a_watched_seat_perspective_shows_only_that_seats_thoughts() -> None:
    session = watch_session("kwartet(players=4,kinds=5)", ["expert"] * 4, 2)
    last = session.last_frame
    for seat in range(4):
        log = views.frame_json(session, last, seat)["log"]
        own = [e for e in log if e["type"] == "decision" and e["seat"] == seat]
        assert own and all(e["thought"] and e["action"] for e in own)
        assert all(
            e["thought"] == e["action"] == ""
            for e in log
            if e["type"] == "decision" and e["seat"] != seat
        )
