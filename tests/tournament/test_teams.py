"""Tournaments of team games: partners stay together, per-team results from the stored rows.

No registered game has partners yet, so these tests play `teamtoy` (see `team_game.py`),
registered for this module only.
"""

from __future__ import annotations

import io
import itertools
import json
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from rich.console import Console

from epigames import cli as epigames_cli
from epigames.games import game_registered, register_strategy, registered_games
from epigames.tournament import (
    FIXED,
    ROTATE,
    GameRow,
    Summary,
    TournamentConfig,
    TournamentInputError,
    TournamentStore,
    checked_config,
    game_teams,
    mean_interval,
    rotation_cycle,
    run_tournament,
    seat_strategies,
    summarize,
    team_rotation_cycle,
    wilson_interval,
)
from epigames.tournament.render import summary_renderable
from epigames.tournament.seeds import Teams, cycle_sizes, solo_teams
from epigames.tournament.stats import Line
from tests.tournament.team_game import NAME, RandomPlayer, TeamGame, registered

LOPSIDED = "teamtoy_lopsided"


@dataclass(frozen=True)
class LopsidedGame(TeamGame):
    """One seat against three: teams of different sizes."""

    name: ClassVar[str] = LOPSIDED

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), tuple(range(1, self.num_players)))


register_strategy(LOPSIDED, "random")(RandomPlayer)


@pytest.fixture(autouse=True, scope="module")
def _team_games() -> Iterator[None]:
    with registered(), game_registered(LopsidedGame):
        yield
    assert NAME not in registered_games() and LOPSIDED not in registered_games()


def _teams(sides: int, size: int) -> Teams:
    """The teams of `teamtoy(sides, size)`: partners `sides` seats apart."""
    players = sides * size
    return tuple(tuple(range(j, players, sides)) for j in range(sides))


SHAPES = [(2, 1), (3, 1), (4, 1), (2, 2), (3, 2), (2, 3), (4, 2)]


# -- the rotation rule -------------------------------------------------------------------


@pytest.mark.parametrize(("sides", "size"), SHAPES)
def test_partners_stay_together_in_every_seating(sides: int, size: int) -> None:
    teams = _teams(sides, size)
    groups = {frozenset(team) for team in teams}
    cycle = team_rotation_cycle(teams)
    assert len(cycle) == math.factorial(sides) * size
    for order in cycle:
        assert sorted(order) == list(range(sides * size))
        for team in teams:
            # The line-up seats whose strategies play for this team are one whole team.
            assert frozenset(order[seat] for seat in team) in groups, (order, team)


@pytest.mark.parametrize(("sides", "size"), SHAPES)
def test_every_strategy_plays_each_team_and_seat_equally_often(sides: int, size: int) -> None:
    teams = _teams(sides, size)
    players = sides * size
    lineup = [f"s{seat}" for seat in range(players)]
    team_of_seat = {seat: t for t, team in enumerate(teams) for seat in team}
    group_of = {lineup[seat]: team_of_seat[seat] for seat in range(players)}
    per_team, per_seat, full = cycle_sizes(teams)
    assert (per_team, per_seat, full) == (sides, players, math.factorial(sides) * size)
    for start in range(0, 2 * full, per_team):
        # Any `k` games from a multiple of `k`: each group plays for each team once.
        games = [seat_strategies(lineup, start + i, ROTATE, teams) for i in range(per_team)]
        for t, team in enumerate(teams):
            played = sorted(group_of[game[team[0]]] for game in games)
            assert played == list(range(sides)), (start, t)
    for start in range(0, 2 * full, per_seat):
        # Any `k·m` games from a multiple of `k·m`: each strategy at each seat once.
        games = [seat_strategies(lineup, start + i, ROTATE, teams) for i in range(per_seat)]
        for seat in range(players):
            assert sorted(game[seat] for game in games) == sorted(lineup), (start, seat)
    # The whole cycle: every permutation of the teams `m` times.
    perms = Counter(
        tuple(group_of[game[team[0]]] for team in teams)
        for game in (seat_strategies(lineup, i, ROTATE, teams) for i in range(full))
    )
    assert set(perms) == set(itertools.permutations(range(sides)))
    assert set(perms.values()) == {size}


def test_two_teams_swap_their_pairs() -> None:
    teams = ((0, 2), (1, 3))
    games = [seat_strategies(["a", "b", "a", "b"], i, ROTATE, teams) for i in range(8)]
    assert games == [("a", "b", "a", "b"), ("b", "a", "b", "a")] * 4
    games = [seat_strategies(["a", "c", "b", "d"], i, ROTATE, teams) for i in range(4)]
    assert games == [
        ("a", "c", "b", "d"),
        ("c", "a", "d", "b"),
        ("b", "d", "a", "c"),
        ("d", "b", "c", "a"),
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_one_seat_teams_rotate_as_before(players: int) -> None:
    """Without partners the seating is exactly the old one (the golden rows depend on it)."""
    teams = solo_teams(players)
    assert team_rotation_cycle(teams) == rotation_cycle(players)
    names = [f"s{i}" for i in range(players)]
    for index in range(2 * math.factorial(players) + 3):
        assert seat_strategies(names, index, ROTATE, teams) == seat_strategies(names, index, ROTATE)


def test_fixed_seats_ignore_teams() -> None:
    assert seat_strategies(["a", "b", "c", "d"], 5, FIXED, ((0, 2), (1, 3))) == (
        "a",
        "b",
        "c",
        "d",
    )


def test_teams_of_different_sizes_cannot_rotate() -> None:
    with pytest.raises(ValueError, match="differ in size"):
        team_rotation_cycle(((0,), (1, 2)))
    with pytest.raises(ValueError, match="seats"):
        team_rotation_cycle(((0, 1), (3, 4)))


# -- checking a tournament ---------------------------------------------------------------


def test_game_teams_come_from_the_registry() -> None:
    assert game_teams("teamtoy(sides=2,size=2)", 4) == ((0, 2), (1, 3))
    assert game_teams("teamtoy(sides=3,size=1)", 3) == ((0,), (1,), (2,))
    assert game_teams("fake", 3) == ((0,), (1,), (2,))  # synthetic tournaments
    assert game_teams("kwartet", 4) == ((0,), (1,), (2,), (3,))


def test_one_strategy_per_team_is_spread_over_the_partners() -> None:
    config = checked_config("teamtoy", ["smart", "random"], 8)
    assert config.strategies == ("smart", "random", "smart", "random")
    assert config.game == "teamtoy(sides=2,size=2)"
    per_seat = checked_config("teamtoy", ["smart", "random", "shower", "random"], 8)
    assert per_seat.strategies == ("smart", "random", "shower", "random")


@pytest.mark.parametrize("lineup", [["smart"], ["smart", "random", "shower"], ["random"] * 5])
def test_a_lineup_that_fits_neither_seats_nor_teams_is_refused(lineup: list[str]) -> None:
    with pytest.raises(TournamentInputError) as caught:
        checked_config("teamtoy", lineup, 8)
    message = str(caught.value)
    assert f"but {len(lineup)} players were given" in message
    assert "4 seats in 2 teams (0+2 vs 1+3)" in message
    assert "one strategy per seat (4) or one per team (2)" in message


def test_solo_game_keeps_its_message() -> None:
    with pytest.raises(TournamentInputError, match="has 3 seats but 2 players were given"):
        checked_config("teamtoy(sides=3,size=1)", ["smart", "random"], 8)


def test_unequal_teams_need_fixed_seats() -> None:
    lineup = ["random"] * 4
    with pytest.raises(TournamentInputError, match=r"teams of different sizes .*--fixed-seats"):
        checked_config(LOPSIDED, lineup, 8)
    assert checked_config(LOPSIDED, lineup, 8, seat_scheme=FIXED).seat_scheme == FIXED


@pytest.mark.parametrize(
    ("game", "players", "games", "note"),
    [
        ("teamtoy", 4, 8, ""),
        ("teamtoy", 4, 6, "but 6 is not a multiple of 4, so not at each seat"),
        ("teamtoy", 4, 3, "3 is not a multiple of 2: teams are not balanced"),
        ("teamtoy(sides=3,size=2)", 6, 12, ""),
        ("teamtoy(sides=3,size=2)", 6, 6, "6 is not a multiple of 12, so not every team seating"),
        ("teamtoy(sides=3,size=1)", 3, 3, "not a multiple of 6, so not every seat permutation"),
    ],
)
def test_balance_notes_count_team_seatings(game: str, players: int, games: int, note: str) -> None:
    config = checked_config(game, ["random"] * players, games)
    if note:
        assert note in config.seat_balance_note()
    else:
        assert config.seat_balance_note() == ""


# -- a real tournament -------------------------------------------------------------------

LINEUP = ("smart", "random", "shower", "random")
GAMES = 40


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[TournamentConfig, Path]:
    path = tmp_path_factory.mktemp("teams") / "r.duckdb"
    config = checked_config("teamtoy", LINEUP, GAMES, seed=11, name="teams")
    with TournamentStore.open(path) as store:
        run_tournament(config, store, jobs=1)
    return config, path


def _rows(path: Path) -> list[GameRow]:
    with TournamentStore.open(path, read_only=True) as store:
        return store.rows("teams")


def _summary(config: TournamentConfig, path: Path) -> Summary:
    with TournamentStore.open(path, read_only=True) as store:
        return summarize(config, store.seat_records("teams"))


def test_stored_rows_keep_partners_together(played: tuple[TournamentConfig, Path]) -> None:
    _, path = played
    rows = _rows(path)
    assert [row.index for row in rows] == list(range(GAMES))
    pairs = Counter()
    for row in rows:
        north_south = tuple(sorted((row.strategies[0], row.strategies[2])))
        east_west = tuple(sorted((row.strategies[1], row.strategies[3])))
        assert {north_south, east_west} == {("shower", "smart"), ("random", "random")}, row
        pairs[north_south] += 1
        # Partners share one return and win together.
        assert row.returns[0] == row.returns[2] and row.returns[1] == row.returns[3], row
        assert set(row.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3}), row
    assert pairs == {("shower", "smart"): GAMES // 2, ("random", "random"): GAMES // 2}
    # Each strategy of the smart+shower pair sat at each of the four seats equally often.
    for seat in range(4):
        assert Counter(row.strategies[seat] for row in rows)["smart"] == GAMES // 4


def _by_hand(rows: list[GameRow], label_of: dict[tuple[str, ...], str]) -> dict[str, Line]:
    """Per team line-up lines computed directly from the rows, the slow obvious way."""
    teams = ((0, 2), (1, 3))
    values: dict[str, list[tuple[bool, int, float, int]]] = {}
    for row in rows:
        won = [team[0] in row.winners for team in teams]
        for t, team in enumerate(teams):
            key = tuple(sorted(row.strategies[seat] for seat in team))
            values.setdefault(label_of[key], []).append(
                (won[t], sum(won), row.returns[team[0]], row.moves)
            )
    lines = {}
    for label, entries in values.items():
        n = len(entries)
        fractional = sum(1 / k for w, k, _, _ in entries if w)
        mean, low, high = mean_interval(np.array([r for _, _, r, _ in entries]))
        win_low, win_high = wilson_interval(fractional, n)
        lines[label] = Line(
            label=label,
            games=n,
            wins=sum(1 for w, k, _, _ in entries if w and k == 1),
            ties=sum(1 for w, k, _, _ in entries if w and k > 1),
            fractional_wins=fractional,
            win_rate=fractional / n,
            win_low=win_low,
            win_high=win_high,
            mean_return=mean,
            return_low=low,
            return_high=high,
            mean_length=float(np.mean([m for _, _, _, m in entries])),
        )
    return lines


def test_team_lines_are_computed_from_the_stored_rows(
    played: tuple[TournamentConfig, Path],
) -> None:
    config, path = played
    summary = _summary(config, path)
    assert summary.games == GAMES and summary.notes == []
    labels = {("shower", "smart"): "smart+shower", ("random", "random"): "random+random"}
    expected = _by_hand(_rows(path), labels)
    assert [line.label for line in summary.team_lineups] == ["smart+shower", "random+random"]
    for line in summary.team_lineups:
        assert _same(line, expected[line.label]), (line, expected[line.label])
    both = summary.team_lineups
    assert both[0].games == both[1].games == GAMES
    # Every game has a winning team: the teams' fractional wins add up to the games.
    assert both[0].fractional_wins + both[1].fractional_wins == pytest.approx(GAMES)
    # smart+shower shows its high cards and beats random+random more often than not.
    assert both[0].win_rate > 0.5 > both[1].win_rate
    positions = summary.teams
    assert [line.label for line in positions] == ["seat 0+seat 2", "seat 1+seat 3"]
    assert [line.games for line in positions] == [GAMES, GAMES]
    assert positions[0].fractional_wins + positions[1].fractional_wins == pytest.approx(GAMES)


def _same(got: Line, want: Line) -> bool:
    """Equal fields; floats equal up to rounding (nan equals nan)."""
    for name in Line.__dataclass_fields__:
        a, b = getattr(got, name), getattr(want, name)
        if isinstance(a, float) and not (math.isclose(a, b) or (math.isnan(a) and math.isnan(b))):
            return False
        if not isinstance(a, float) and a != b:
            return False
    return True


def test_seats_win_with_their_team(played: tuple[TournamentConfig, Path]) -> None:
    config, path = played
    rows = _rows(path)
    summary = _summary(config, path)
    tied = sum(1 for row in rows if len(row.winners) == 4)
    assert summary.tie_games == tied  # games won by both teams, not by two partners
    seat0 = summary.seats[0]
    assert seat0.wins == sum(1 for row in rows if set(row.winners) == {0, 2})
    assert seat0.fractional_wins == pytest.approx(seat0.wins + tied / 2)


def test_summary_json_and_tables_show_the_teams(played: tuple[TournamentConfig, Path]) -> None:
    config, path = played
    summary = _summary(config, path)
    data = summary.to_dict()
    assert [line["label"] for line in data["team_lineups"]] == ["smart+shower", "random+random"]
    assert [line["label"] for line in data["teams"]] == ["seat 0+seat 2", "seat 1+seat 3"]
    narrow, wide = io.StringIO(), io.StringIO()
    Console(file=narrow, width=80).print(summary_renderable(summary))
    Console(file=wide, width=120).print(summary_renderable(summary))
    assert max(len(line) for line in narrow.getvalue().splitlines()) <= 80
    text = wide.getvalue()
    assert "per team line-up" in text and "per team position" in text
    assert "smart+shower" in text and "seat 1+seat 3" in text


def test_games_without_partners_have_no_team_lines(tmp_path: Path) -> None:
    config = checked_config("teamtoy(sides=3,size=1)", ["smart", "random", "shower"], 6)
    with TournamentStore.open(tmp_path / "r.duckdb") as store:
        run_tournament(config, store, jobs=1)
        rows = store.rows(config.name)
        summary = summarize(config, store.seat_records(config.name))
    assert summary.team_lineups == [] and summary.teams == []
    assert "teams" not in summary.to_dict() and "team_lineups" not in summary.to_dict()
    cycle = rotation_cycle(3)
    for row in rows:
        assert row.strategies == tuple(config.strategies[i] for i in cycle[row.index])


def test_cli_plays_a_team_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.duckdb")
    args = ["tournament", "teamtoy", "-p", "smart,random", "-n", "8", "-j", "1", "--db", db]
    assert epigames_cli.run([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tournament"]["strategies"] == ["smart", "random", "smart", "random"]
    assert [line["label"] for line in data["team_lineups"]] == ["smart+smart", "random+random"]
    assert sum(line["games"] for line in data["team_lineups"]) == 16


def test_cli_refuses_a_lineup_that_does_not_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.duckdb"
    args = ["tournament", "teamtoy", "-p", "smart,random,smart", "-n", "8", "--db", str(db)]
    assert epigames_cli.run(args) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "error: teamtoy(sides=2,size=2) has 4 seats in 2 teams" in err
    assert "one per team (2)" in err and "Traceback" not in err
    assert not db.exists()
