"""`tom`: deterministic, and what it says others know follows from the public log."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from epigames.cards import Card, Holds, Rank
from epigames.games import MatchResult, load_game, play_match
from epigames.games.events import Event, PublicAnnouncement
from epigames.games.kemps import Call, Called, Kemps, Swapped
from epigames.games.kemps.strategies.tom import STUCK_AFTER, Knows, PublicCollections, plan_tom
from tests.games.kemps.test_rules import cards, start

SMALL = "kemps(ranks=7)"


def taken_and_kept(events: Sequence[Event], card: Card) -> int | None:
    """The seat everybody saw take `card` from the table and not give it up since."""
    holder = None
    for event in events:
        if isinstance(event, Swapped):
            if event.taken == card:
                holder = event.seat
            elif event.put == card:
                holder = None
        elif isinstance(event, Kemps) and card in event.cards:
            holder = None
    return holder


def test_tom_is_deterministic_for_a_seed() -> None:
    lineup = ["tom", "greedy", "tom"]
    first, again = play_match(SMALL, lineup, 11), play_match(SMALL, lineup, 11)
    assert first.history == again.history
    assert [e.thought for e in first.transcript] == [e.thought for e in again.transcript]


def test_what_tom_says_others_know_follows_from_the_public_log() -> None:
    """Every `Holds` and `Knows` tom acts on is a card publicly taken and kept."""
    checked = {"knows": 0, "holds": 0}
    texts = []
    for seed in range(6):
        lineup = ["greedy", "blocking", "greedy"]
        lineup[seed % 3] = "tom"
        result = play_match(SMALL, lineup, seed)
        public = [e for e in result.events if isinstance(e, PublicAnnouncement)]
        for entry in result.transcript:
            if result.strategies[entry.seat] != "tom":
                continue
            before = [e for e in result.events[: entry.first_event] if e in public]
            texts.append(str(entry.thought))
            for fact in entry.thought.concluded:
                if isinstance(fact, Knows):
                    assert fact.agent != entry.seat
                    assert isinstance(fact.known, Holds) and fact.known.holder == entry.seat
                    assert taken_and_kept(before, fact.known.card) == entry.seat
                    checked["knows"] += 1
                else:
                    assert isinstance(fact, Holds) and fact.holder != entry.seat
                    assert taken_and_kept(before, fact.card) == fact.holder
                    checked["holds"] += 1
    assert checked["knows"] > 0 and checked["holds"] > 0
    # The thoughts say whose knowledge they use: the opponents' of tom, and tom's own.
    assert any("know I collect" in text for text in texts)
    assert any(text.startswith("I know") or " I know " in text for text in texts)


def test_tom_beats_kbgreedy_on_a_small_deck() -> None:
    """Over a few rotated games tom collects more Kemps than a kbgreedy player."""
    tom = other = 0.0
    for seed in range(9):
        lineup = ["kbgreedy"] * 3
        lineup[seed % 3] = "tom"
        returns = play_match(SMALL, lineup, seed).returns
        tom += returns[seed % 3]
        other += (sum(returns) - returns[seed % 3]) / 2
    assert tom > other


def test_tom_switches_when_an_opponent_blocks_its_rank() -> None:
    """West takes a 5 after South was seen to take one: South knows West knows, and
    leaves the 5s."""
    deal = "5♦ 5♠ 3♦ 3♣ 4♠ 6♣  2♥ 5♥ 4♥ 6♦  6♥ 2♠ 4♣ 3♥  2♣ 2♦ 3♠ 4♦"
    state = start("kemps(ranks=5)", cards(deal))
    for action in ("swap 1 2♥", "done", "swap 2 6♥", "done", "done"):
        state.apply(state.game.parse_action(action))
    view = state.observation(0)
    public = PublicCollections(0, 3).update(view.log)
    assert public.blockers[1] == {Rank.FIVE} and not public.blockers[2]
    plan = plan_tom(view, public)
    assert plan.collect is Rank.SIX
    assert (
        "West knows I collect 5s (I took 5♦) and took 5♠ anyway: it blocks me, so I "
        "switch to 6s." in str(plan)
    )
    assert Knows(1, Holds(0, Card.parse("5♦"))) in plan.concluded


# A turn cap, as a guard: two tom pairs that block and hide from each other would stall
# but for `STUCK_AFTER` (seed 2 of `tom` ×4 did before it).
TEAMS = "kemps(teams=true,ranks=7,max_turns=400)"
TEAM_LINEUPS = (
    ("tom", "greedy", "tom", "greedy"),
    ("tom",) * 4,
    ("random", "tom", "random", "tom"),
)


@functools.cache
def team_results() -> list[MatchResult]:
    """Seeded team games of tom with and against itself, greedy and random (made once)."""
    return [play_match(TEAMS, lineup, seed) for lineup in TEAM_LINEUPS for seed in range(6)]


def test_tom_calls_stop_kemps_on_what_it_knows_and_is_right() -> None:
    """Each Stop Kemps of `tom` is against an opponent, names as taken only cards
    everybody saw that opponent take and keep, and states a chance above 1/3 that is the
    card engine's for tom's own view; most calls are right."""
    outcomes = []
    for result in team_results():
        game = load_game(TEAMS)
        for entry in result.transcript:
            action = entry.action
            if result.strategies[entry.seat] != "tom" or not isinstance(action, Call):
                continue
            if not action.stop:
                continue
            before = result.events[: entry.first_event]
            text = str(entry.thought)
            assert "Stop Kemps!" in text
            chance = float(re.findall(r"(\d\.\d\d), above 1/3", text)[0])
            assert chance > 1 / 3 - 0.005
            for fact in entry.thought.concluded:
                assert isinstance(fact, Holds) and fact.holder == action.seat
                assert taken_and_kept(before, fact.card) == action.seat
            assert game.team_of(action.seat) != game.team_of(entry.seat)
            called = next(e for e in result.events[entry.first_event :] if isinstance(e, Called))
            outcomes.append(called.right)
    assert len(outcomes) >= 5 and outcomes.count(True) >= 3 * outcomes.count(False)


def test_tom_never_takes_its_partner_for_an_opponent() -> None:
    """In the team game tom neither blocks nor guards against its partner."""
    game = load_game(TEAMS)
    seen = 0
    for result in team_results():
        for entry in result.transcript:
            if result.strategies[entry.seat] != "tom":
                continue
            partner = game.partner(entry.seat)  # type: ignore[attr-defined]
            for fact in entry.thought.concluded:
                seen += 1
                assert (fact.agent if isinstance(fact, Knows) else fact.holder) != partner
    assert seen > 0


def test_tom_hides_a_four_of_a_kind_from_players_who_call_stop_kemps() -> None:
    """When tom leaves the last card of its rank on the table, the opponent it names has
    called Stop Kemps before and would have found the four of a kind likelier than 1/3:
    second-order reasoning about a player who acts on what it knows."""
    game = load_game(TEAMS)
    left = 0
    for result in team_results():
        for entry in result.transcript:
            text = str(entry.thought)
            if result.strategies[entry.seat] != "tom" or "I leave it" not in text:
                continue
            before = result.events[: entry.first_event]
            stoppers = {e.seat for e in before if isinstance(e, Called) and e.stop}
            found = re.search(r"(\w+) would give four \w+s in my hand (\d\.\d\d) if I took", text)
            assert found is not None and float(found.group(2)) > 1 / 3
            named = game.seat_names.index(found.group(1))
            assert named in stoppers and game.team_of(named) != game.team_of(entry.seat)
            left += 1
    assert left > 0


def test_a_game_stuck_without_a_score_gets_unstuck() -> None:
    """After `STUCK_AFTER` turns without a score tom says so and neither blocks nor hides
    nor keeps cards back; two tom pairs then finish every seeded game before the cap."""
    stuck = 0
    for result in team_results():
        if result.strategies == ("tom",) * 4:
            assert not result.capped, result.seed
        for entry in result.transcript:
            text = str(entry.thought)
            found = re.search(r"Nobody has scored for (\d+) turns", text)
            if result.strategies[entry.seat] != "tom" or found is None:
                continue
            stuck += 1
            assert int(found.group(1)) >= STUCK_AFTER
            assert "to block it" not in text and "I keep" not in text and "I leave it" not in text
    assert stuck > 0
