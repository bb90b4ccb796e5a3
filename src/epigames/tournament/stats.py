"""Summary statistics of a tournament, per strategy and per seat, with 95% intervals.

Win rate counts a shared win as a fraction: a seat among `k` winners gets `1/k`, so the
win rates of a game's seats add up to one. Its interval is Wilson's score interval on
that fractional count; as each game's outcome lies in [0, 1] its variance is at most the
binomial one, so the interval is, if anything, conservative. Mean returns get the normal
interval `mean ± 1.96·s/√n`. Every sum runs over rows ordered by game index and seat, so
the same games give bit-identical numbers however they were played.

With partners (`Game.teams` with a team of several seats) a seat wins when its team
does (partners share one return), and a win shared by `k` teams counts `1/k` to each
member: the win rates of a game's teams add up to one. The summary then also has one
line per team line-up (the strategies of one team, `expert+greedy`) and per team.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from epigames.tournament.config import TournamentConfig
from epigames.tournament.seeds import DUPLICATE, duplicate_block

#: The 97.5% quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion `successes / n` (95% by default).

    Returns `(nan, nan)` for `n == 0`.
    """
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    # The interval always holds p; rounding could leave a bound a hair past it (at p = 0
    # the low bound came out 1e-17), which plots drew as a negative error bar.
    return min(max(0.0, center - half), p), max(min(1.0, center + half), p)


def mean_interval(values: np.ndarray[Any, Any], z: float = Z95) -> tuple[float, float, float]:
    """`(mean, low, high)`: the normal 95% interval of a mean; bounds nan below 2 values."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(np.mean(values))
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True, slots=True)
class Line:
    """The numbers of one strategy, seat, team line-up or team position.

    Attributes:
        label: the strategy name, the seat's display name (seat order), a team line-up
            (`a+b`: its strategies in the order of the tournament's line-up) or a team's
            seat names (`North+South`).
        games: games played (a strategy at two seats of a game counts twice; so does a
            team line-up on both teams).
        wins: outright wins.
        ties: shared wins (the seat or team was one of several winners).
        fractional_wins: `wins + Σ 1/k` over ties among `k` winners.
        win_rate: `fractional_wins / games`.
        win_low, win_high: Wilson 95% interval of the win rate.
        mean_return, return_low, return_high: mean return and its 95% interval.
        mean_length: mean game length (moves) of those games.
    """

    label: str
    games: int
    wins: int
    ties: int
    fractional_wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_return: float
    return_low: float
    return_high: float
    mean_length: float


@dataclass(frozen=True, slots=True)
class Difference:
    """One strategy's mean return minus another's on the same cards (duplicate seats).

    Attributes:
        label: `a − b`.
        blocks: the blocks of games compared, each one deal (seed) played once per
            seating of the block; a block's difference is `a`'s mean return over its
            seats in the block less `b`'s.
        mean, low, high: the mean of the blocks' differences and its 95% interval, over
            blocks: paired, so the luck of the cards, the same for both, is left out.
    """

    label: str
    blocks: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Summary:
    """What a tournament's stored games say.

    Attributes:
        config: the tournament.
        games: games stored (equals `config.games` once complete).
        mean_length, length_low, length_high: mean game length (moves) and its interval.
        tie_games: games with more than one winner (with partners: winning team).
        strategies: one line per strategy, in the order of `config.strategies`.
        seats: one line per seat.
        notes: remarks (incomplete tournament, unbalanced seats).
        team_lineups: with partners only: one line per team line-up, in the order of the
            teams in `config.strategies` (a line-up on both teams is one line).
        teams: with partners only: one line per team, in the order of `Game.teams`.
        capped_games: games that stopped at the game's cap (a turn limit) instead of
            finishing; their returns (the scores at the cap) are in the lines above.
        differences: with duplicate seats only: each pair of strategies compared on the
            same cards (`Difference`), in the order of `config.strategies`.
    """

    config: TournamentConfig
    games: int
    mean_length: float
    length_low: float
    length_high: float
    tie_games: int
    strategies: list[Line] = field(default_factory=list)
    seats: list[Line] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    team_lineups: list[Line] = field(default_factory=list)
    teams: list[Line] = field(default_factory=list)
    capped_games: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether every game of the tournament is stored."""
        return self.games == self.config.games

    def _repr_html_(self) -> str:
        """The summary's tables as HTML (`render.summary_html`): Jupyter shows it so."""
        # Here, not at the top: rich is loaded only when a summary is drawn.
        from epigames.tournament.render import summary_html

        return summary_html(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON values; nan (undefined interval) becomes null."""

        def clean(value: Any) -> Any:
            if isinstance(value, float) and math.isnan(value):
                return None
            if isinstance(value, dict):
                return {k: clean(v) for k, v in value.items()}
            if isinstance(value, list):
                return [clean(v) for v in value]
            return value

        raw: dict[str, Any] = {
            "tournament": self.config.to_dict(),
            "games": self.games,
            "complete": self.complete,
            "mean_length": self.mean_length,
            "length_interval": [self.length_low, self.length_high],
            "tie_games": self.tie_games,
            "capped_games": self.capped_games,
            "strategies": [asdict(line) for line in self.strategies],
            "seats": [asdict(line) for line in self.seats],
            "notes": list(self.notes),
        }
        # Only games with partners have team lines; others keep their JSON unchanged.
        if self.team_lineups or self.teams:
            raw["team_lineups"] = [asdict(line) for line in self.team_lineups]
            raw["teams"] = [asdict(line) for line in self.teams]
        if self.config.seat_scheme == DUPLICATE:
            raw["differences"] = [asdict(d) for d in self.differences]
        data: dict[str, Any] = clean(raw)
        return data


def _line(label: str, mask: np.ndarray[Any, Any], rec: dict[str, np.ndarray[Any, Any]]) -> Line:
    n = int(mask.sum())
    won = rec["won"][mask].astype(bool)
    n_winners = rec["n_winners"][mask]
    wins = int(np.count_nonzero(won & (n_winners == 1)))
    ties = int(np.count_nonzero(won & (n_winners > 1)))
    fractional = float(np.sum(np.where(won, 1.0 / np.maximum(n_winners, 1), 0.0)))
    # In field order: the two intervals unpack into their (low, high) and (mean, low, high).
    return Line(
        label,
        n,
        wins,
        ties,
        fractional,
        fractional / n if n else math.nan,
        *wilson_interval(fractional, n),
        *mean_interval(rec["ret"][mask].astype(np.float64)),
        float(np.mean(rec["moves"][mask])) if n else math.nan,
    )


def differences(
    config: TournamentConfig, rec: dict[str, np.ndarray[Any, Any]]
) -> tuple[list[Difference], int]:
    """Each pair of strategies compared block by block (duplicate seats), and the number
    of stored games left out because their block is not complete (an unfinished run)."""
    block = duplicate_block(config.teams)
    group = np.asarray(rec["game_index"]) // block
    size = int(group.max()) + 1 if len(group) else 0
    firsts = np.asarray(rec["seat"]) == 0
    complete = np.bincount(group[firsts], minlength=size) == block
    names = np.asarray(rec["strategy"]).astype(str)
    returns = np.asarray(rec["ret"]).astype(np.float64)
    means: dict[str, np.ndarray[Any, Any]] = {}
    for strategy in dict.fromkeys(config.strategies):
        mine = names == strategy
        total = np.bincount(group[mine], weights=returns[mine], minlength=size)
        count = np.bincount(group[mine], minlength=size)
        means[strategy] = (total / np.maximum(count, 1))[complete]
    blocks = int(np.count_nonzero(complete))
    out = []
    order = list(means)
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            mean, low, high = mean_interval(means[a] - means[b])
            out.append(Difference(f"{a} − {b}", blocks, mean, low, high))
    return out, int(np.count_nonzero(firsts)) - blocks * block


def seat_names(game: str, players: int) -> list[str]:
    """The seats' display names (`South`, `West`, …) when the game is known; else numbers."""
    try:
        from epigames.games import load_game

        names = list(load_game(game).seat_names)
    except Exception:  # an unknown game (e.g. synthetic tests): numbers will do
        names = []
    if len(names) != players:
        return [str(s) for s in range(players)]
    return names


def team_records(
    config: TournamentConfig, rec: dict[str, np.ndarray[Any, Any]]
) -> dict[str, np.ndarray[Any, Any]]:
    """One record per (game, team) from the seat records, ordered by game index then team.

    Columns: `game_index`, `team` (index into `config.teams`), `lineup` (index into
    `team_lineups(config)`; -1 for strategies not in the tournament's line-up), `ret`
    (the return of the team's first seat, which its members share), `won` (the team is
    among the winners), `n_winners` (how many teams won), `moves`.
    """
    teams = config.teams
    players = config.players
    games = len(rec["seat"]) // players
    firsts = [team[0] for team in teams]

    def grid(key: str) -> np.ndarray[Any, Any]:
        return np.asarray(rec[key]).reshape(games, players)

    won = grid("won")[:, firsts].astype(bool)
    lineups = team_lineups(config)
    codes = {name: code for code, name in enumerate(dict.fromkeys(config.strategies))}
    # Strategies as small integers, sorted within each team: a team's line-up does not
    # depend on which member sits where, and numpy compares integer rows at once.
    names, inverse = np.unique(np.asarray(rec["strategy"]).astype(str), return_inverse=True)
    lookup = np.array([codes.get(str(name), -1) for name in names], dtype=np.int64)
    seat_codes = lookup[inverse].reshape(games, players)
    lineup = np.full((games, len(teams)), -1, dtype=np.int64)
    for t, team in enumerate(teams):
        members = np.sort(seat_codes[:, list(team)], axis=1)
        for index, (_, strategies) in enumerate(lineups):
            if len(strategies) != len(team):
                continue
            key = np.sort(np.array([codes[name] for name in strategies], dtype=np.int64))
            lineup[np.all(members == key, axis=1), t] = index
    return {
        "game_index": grid("game_index")[:, firsts].reshape(-1),
        "team": np.tile(np.arange(len(teams)), games),
        "lineup": lineup.reshape(-1),
        "ret": grid("ret")[:, firsts].reshape(-1),
        "won": won.reshape(-1),
        "n_winners": np.repeat(won.sum(axis=1), len(teams)),
        "moves": grid("moves")[:, firsts].reshape(-1),
    }


def team_lineups(config: TournamentConfig) -> list[tuple[str, tuple[str, ...]]]:
    """`(label, strategies)` of each team line-up of the tournament, in team order.

    A team's line-up is the strategies its seats have in `config.strategies`; the label
    joins them with `+`. Line-ups of the same strategies (in any order) are one.
    """
    found: dict[tuple[str, ...], tuple[str, tuple[str, ...]]] = {}
    for team in config.teams:
        names = tuple(config.strategies[seat] for seat in team)
        found.setdefault(tuple(sorted(names)), ("+".join(names), names))
    return list(found.values())


def summarize(config: TournamentConfig, rec: dict[str, np.ndarray[Any, Any]]) -> Summary:
    """The summary of the games in `rec` (from `TournamentStore.seat_records`).

    With partners, a seat wins when its team does and a tie is a win shared by several
    teams: so the seat and strategy lines count a team's win as each member's, and a tie
    among `k` teams as `1/k` of a win.
    """
    players = config.players
    total_rows = len(rec["game_index"])
    games = total_rows // players
    labels = seat_names(config.game, players)
    by_lineup: list[Line] = []
    by_team: list[Line] = []
    if config.has_partners():
        teams = team_records(config, rec)
        by_lineup = [
            _line(label, teams["lineup"] == i, teams)
            for i, (label, _) in enumerate(team_lineups(config))
        ]
        by_team = [
            _line("+".join(labels[seat] for seat in team), teams["team"] == t, teams)
            for t, team in enumerate(config.teams)
        ]
        first_team = teams["team"] == 0
        rec = {**rec, "n_winners": np.repeat(teams["n_winners"][first_team], players)}
    first_seat = rec["seat"] == 0
    lengths = rec["moves"][first_seat].astype(np.float64)
    mean_length, length_low, length_high = mean_interval(lengths)
    tie_games = int(np.count_nonzero(rec["n_winners"][first_seat] > 1))
    capped = rec.get("capped")
    capped_games = 0 if capped is None else int(np.count_nonzero(capped[first_seat]))
    strategies = list(dict.fromkeys(config.strategies))
    names = rec["strategy"]
    by_strategy = [_line(s, names == s, rec) for s in strategies]
    by_seat = [_line(labels[s], rec["seat"] == s, rec) for s in range(players)]
    notes = []
    if games < config.games:
        notes.append(
            f"incomplete: {games} of {config.games} games stored; run the same command "
            "again to play the rest"
        )
    if capped_games:
        notes.append(
            f"{capped_games} of {games} games stopped at the turn cap instead of finishing; "
            "their scores at the cap count above"
        )
    balance = config.seat_balance_note() if games == config.games else ""
    if balance:
        notes.append(balance)
    paired: list[Difference] = []
    if config.seat_scheme == DUPLICATE:
        paired, apart = differences(config, rec)
        if apart:
            notes.append(
                f"{apart} stored games are not in a whole block of the same cards, so the "
                "differences leave them out"
            )
    return Summary(
        config=config,
        games=games,
        mean_length=mean_length,
        length_low=length_low,
        length_high=length_high,
        tie_games=tie_games,
        strategies=by_strategy,
        seats=by_seat,
        notes=notes,
        team_lineups=by_lineup,
        teams=by_team,
        capped_games=capped_games,
        differences=paired,
    )
