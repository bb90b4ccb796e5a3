"""The guided game's explanations: made from typed facts and thoughts, and no peeking.

`guide=true` on a frame adds `explain` to every log entry the perspective sees; nothing
else in the response may change, and no explanation may tell a seat what its log does not.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.cards.fact_types import Holds, Lacks, Moved, Removed
from epigames.games import load_game
from epigames.games.blufpoker.dice import Roll
from epigames.games.blufpoker.events import BidMade
from epigames.games.kwartet import Card
from epigames.games.kwartet.events import Asked
from epigames.web.builders import replay_session, watch_session
from epigames.web.guide import Guide
from tests.conformance.oracles import blufpoker_hidden
from tests.web.test_leak import CONFIGS, add, get, hidden_cards, same_kind_swap

NAMES = ("South", "West", "North", "East")
KWARTET = Guide.of(load_game("kwartet"))


def test_an_ask_in_plain_words() -> None:
    """What an answered ask tells everyone, from its facts (the example of issue 18)."""
    asked = Asked(1, 2, Card(8, 4), True, names=NAMES)
    assert KWARTET.event(asked) == (
        "West asks North for ⟨8,4⟩: North hands it over. Now everyone knows: West holds a "
        "card of kind 8; North holds ⟨8,4⟩; ⟨8,4⟩ goes from North's hand to West's hand."
    )
    refused = Asked(1, 3, Card(8, 3), False, own_allowed=False, names=NAMES)
    assert KWARTET.event(refused).endswith(
        "Now everyone knows: West holds a card of kind 8; West does not hold ⟨8,3⟩; "
        "East does not hold ⟨8,3⟩."
    )


def test_runs_of_cards_read_as_one_phrase_and_places_are_named() -> None:
    guide = Guide.of(load_game("kemps(players=3)"))
    out = guide.names.index("the pile out of play")
    cards = ("2♣", "2♦")
    facts = (*(Holds(0, c) for c in cards), *(Moved(c, 0, out) for c in cards), Removed(cards))
    assert guide.facts(facts) == (
        "South holds 2♣ and 2♦; 2♣ and 2♦ go from South's hand to the pile out of play; "
        "2♣ and 2♦ leave the game"
    )
    assert guide.facts((Lacks(1, "5♠"), Lacks(2, "5♠"))) == (
        "West does not hold 5♠; North does not hold 5♠"
    )


def test_a_bid_is_a_claim_not_a_fact() -> None:
    bid = BidMade(1, Roll.parse("654"), Roll.parse("653"), names=("Ann", "Bob", "Cas"))
    assert (
        Guide.of(load_game("blufpoker(players=3)"))
        .event(bid)
        .endswith("Now everyone knows: Bob claims the cup holds 654, which may be a bluff.")
    )


def test_a_thought_in_plain_words_and_another_seats_move() -> None:
    guide = KWARTET
    why = guide.thought(2, "ask 0 ⟨1,3⟩", "I know South holds ⟨1,3⟩.", (Holds(0, Card(1, 3)),),
                        human=False)  # fmt: skip
    assert why == (
        "North chose ask 0 ⟨1,3⟩. It thinks: “I know South holds ⟨1,3⟩.” What it concluded "
        "and acted on: South holds ⟨1,3⟩."
    )
    # Another seat's move: neither its label nor its reasons.
    assert guide.thought(2, None, "", (), human=False) == (
        "North moved; what you saw of the move follows. Its reasons stay its own."
    )
    assert guide.thought(0, "ask 1 ⟨2,2⟩", "", (), human=True) == ("South (you) chose ask 1 ⟨2,2⟩.")
    # A replayed game has no thoughts.
    assert guide.thought(1, "ask 2 ⟨2,2⟩", "", (), human=False) == "West chose ask 2 ⟨2,2⟩."


def without_explanations(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "log": [{k: v for k, v in e.items() if k != "explain"} for e in data["log"]]}


#: One game of each kind, with agents whose thoughts name hidden items and conclusions.
GAMES = [
    ("kwartet(players=4,kinds=4)", "expert", 1),
    ("blufpoker(players=3,penalties=2)", "knowledge", 2),
    ("klaverjas(deals=1)", "tactics", 0),
    ("kemps(ranks=5)", "kbgreedy", 3),
]


@pytest.mark.parametrize(("game", "agent", "seed"), GAMES)
def test_guided_frames_add_explanations_and_nothing_else(
    client: TestClient, game: str, agent: str, seed: int
) -> None:
    """Per seat and for the spectator, a guided frame is the frame plus `explain` on every
    entry; another seat's move is explained without its label or thought."""
    n = load_game(game).num_players
    session = watch_session(game, [agent] * n, seed)
    sid = add(client, session)
    rng = random.Random(seed)
    everything = range(session.last_frame + 1)
    frames = sorted({0, session.last_frame, *rng.sample(everything, min(6, len(everything)))})
    others = 0
    for perspective in ["spectator", *map(str, range(n))]:
        for frame in frames:
            url = f"/api/sessions/{sid}/frames/{frame}"
            plain = get(client, url, perspective=perspective)
            guided = get(client, url, perspective=perspective, guide="true")
            assert all(e["explain"] for e in guided["log"])
            assert without_explanations(guided) == plain
            for e in guided["log"]:
                if e["type"] == "decision" and perspective not in ("spectator", str(e["seat"])):
                    record = session.decisions[e["index"]]
                    assert record.thought.text not in e["explain"]
                    assert record.action not in e["explain"]
                    others += 1
    assert others > 0  # the check met other seats' moves


@pytest.mark.parametrize(("game", "seed"), CONFIGS[:4])
def test_no_hidden_kwartet_card_in_a_guided_frame(client: TestClient, game: str, seed: int) -> None:
    """As test_leak's scan: no card another seat holds unseen appears in the explanations."""
    n = load_game(game).num_players
    session = watch_session(game, (["expert", "aggressive"] * n)[:n], seed)
    sid = add(client, session)
    rng = random.Random(seed)
    frames = sorted({0, 1, session.last_frame, *rng.sample(range(session.last_frame + 1), 8)})
    checked = 0
    for seat in range(n):
        for frame in frames:
            hidden = hidden_cards(session, frame, seat)
            data = get(client, f"/api/sessions/{sid}/frames/{frame}", perspective=seat,
                       guide="true")  # fmt: skip
            text = json.dumps([e["explain"] for e in data["log"]], ensure_ascii=False)
            leaked = sorted(card for card in hidden if card in text)
            assert not leaked, f"seat {seat} frame {frame} of {game} is told {leaked}"
            checked += bool(hidden)
    assert checked > 0


@pytest.mark.parametrize("seed", range(2))
def test_no_hidden_cup_in_a_guided_frame(client: TestClient, seed: int) -> None:
    """Blufpoker: the explanations of the others' moves never name the roll under the cup."""
    game = "blufpoker(players=3,penalties=2)"
    session = watch_session(game, ["knowledge", "bayes", "knowledge"], seed)
    sid = add(client, session)
    rng = random.Random(seed)
    everything = range(session.last_frame + 1)
    frames = sorted(rng.sample(everything, min(30, len(everything))))
    checked = 0
    for seat in range(3):
        for frame in frames:
            hidden = blufpoker_hidden(session.state_at(frame), seat)
            data = get(client, f"/api/sessions/{sid}/frames/{frame}", perspective=seat,
                       guide="true")  # fmt: skip
            # The seat's own looks and thoughts may name an older cup with the same roll.
            told = [
                e["explain"] for e in data["log"]
                if not (e["type"] == "decision" and e["seat"] == seat)
                and not (e["type"] == "event" and not e["public"])
            ]  # fmt: skip
            text = json.dumps(told, ensure_ascii=False)
            leaked = [t for t in hidden if re.search(rf"(?<!\d){t}(?!\d)", text)]
            assert not leaked, f"seat {seat} frame {frame} is told the cup {leaked}"
            checked += bool(hidden)
    assert checked > 0


@pytest.mark.parametrize(("game", "seed"), CONFIGS[:3])
def test_guided_frames_do_not_depend_on_what_the_seat_cannot_see(
    client: TestClient, game: str, seed: int
) -> None:
    """As test_leak's non-interference check, on guided frames: two hidden cards of one kind
    swapped between two other seats in the deal leave the seat's explanations the same."""
    session = watch_session(game, ["random"] * load_game(game).num_players, seed)
    rng = random.Random(seed)
    compared = 0
    for seat in range(session.game.num_players):
        for frame in sorted(rng.sample(range(max(8, session.last_frame // 3)), 4)):
            swapped = same_kind_swap(session, frame, seat, rng)
            if not swapped:
                continue
            true = replay_session(game, session.history[: session.frames[frame]])
            alt = replay_session(game, swapped)
            seen = [
                get(client, f"/api/sessions/{add(client, s)}/frames/{frame}", perspective=seat,
                    guide="true")["log"]
                for s in (true, alt)
            ]  # fmt: skip
            assert seen[0] == seen[1], f"seat {seat} of {game} at frame {frame} tells them apart"
            compared += 1
    assert compared >= 2
