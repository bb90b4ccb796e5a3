"""What a tournament is: its configuration, the row each game leaves, and input checks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from epigames import __version__
from epigames.errors import InputError
from epigames.games.match import MatchSummary
from epigames.tournament.seeds import FIXED, ROTATE, SEAT_SCHEMES, Teams, cycle_sizes, solo_teams

if TYPE_CHECKING:
    from epigames.games import Game

#: The seed used when none is given; printed so that a run can be repeated.
DEFAULT_SEED = 20240401
#: The tournament name used when none is given.
DEFAULT_NAME = "default"
#: The most games in one tournament: `run_tournament` holds a done-mask and an index array
#: of this length in memory (about 1 GB at this size).
MAX_GAMES = 100_000_000
#: Seeds are stored as DuckDB BIGINT.
MAX_SEED = 2**63 - 1


class TournamentInputError(InputError):
    """A tournament that cannot be run as asked: bad size, names, seats or seed."""


def _int_in(value: object, low: int, high: int) -> bool:
    """Whether `value` is an `int` in `low..high`; a `bool` is not (True would pass as 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


class MatchOutcome(Protocol):
    """The part of a match result a tournament keeps (`epigames.games.MatchResult` fits)."""

    @property
    def returns(self) -> tuple[float, ...]: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def moves(self) -> int: ...


class MatchFunction(Protocol):
    """A pure, picklable `(game string, strategy per seat, seed) -> result` function."""

    def __call__(
        self, game_string: str, strategy_names: Sequence[str], seed: int, /
    ) -> MatchOutcome: ...


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything that determines a tournament's results.

    Attributes:
        name: the tournament's name inside its DuckDB file.
        game: the canonical game string.
        strategies: one strategy name per seat (the arrangement of game 0).
        games: how many games to play, `N`.
        seed: the tournament seed; game `i` plays with `game_seed(seed, i)`.
        seat_scheme: `"rotate"`, `"fixed"` or `"duplicate"` (see `seeds.seat_strategies`
            and `seeds.seed_index`).
        code_version: the epigames version that plays the games.
    """

    name: str
    game: str
    strategies: tuple[str, ...]
    games: int
    seed: int = DEFAULT_SEED
    seat_scheme: str = ROTATE
    code_version: str = __version__

    def __post_init__(self) -> None:
        if not _int_in(self.games, 1, MAX_GAMES):
            raise TournamentInputError(
                f"number of games {self.games!r} is out of range; expected 1..{MAX_GAMES}"
            )
        if not _int_in(self.seed, 0, MAX_SEED):
            raise TournamentInputError(
                f"seed {self.seed!r} is not an integer in 0..{MAX_SEED} (it is stored as BIGINT)"
            )
        if self.seat_scheme not in SEAT_SCHEMES:
            raise TournamentInputError(
                f"unknown seat scheme {self.seat_scheme!r}; "
                f"choose one of: {', '.join(SEAT_SCHEMES)}"
            )
        if not self.name.strip():
            raise TournamentInputError("tournament name is empty; give a name such as 'main'")
        if not self.strategies or any(not s for s in self.strategies):
            raise TournamentInputError(
                f"strategies {','.join(self.strategies)!r} has an empty name; "
                "expected one name per seat, e.g. random,random,random,random"
            )

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.strategies)

    @property
    def teams(self) -> Teams:
        """The game's teams (see `game_teams`); one seat each unless it has partners."""
        return game_teams(self.game, self.players)

    def has_partners(self) -> bool:
        """Whether some team of the game has more than one seat."""
        return any(len(team) > 1 for team in self.teams)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON values."""
        return {
            "name": self.name,
            "game": self.game,
            "strategies": list(self.strategies),
            "games": self.games,
            "seed": self.seed,
            "seat_scheme": self.seat_scheme,
            "code_version": self.code_version,
        }

    def differences(self, other: TournamentConfig) -> list[str]:
        """What differs between two configurations, ignoring the size `games`.

        The size is not part of the identity: games are independent by index, so a
        tournament can be extended (never shrunk) without changing its first games.
        """
        out = []
        for field in ("game", "strategies", "seed", "seat_scheme", "code_version"):
            mine, theirs = getattr(self, field), getattr(other, field)
            if mine != theirs:
                show = (lambda v: ",".join(v)) if field == "strategies" else str
                out.append(f"{field}: stored {show(mine)!s}, asked {show(theirs)!s}")
        return out

    def seat_balance_note(self) -> str:
        """Empty, or a sentence saying the rotation is not balanced at this size."""
        if self.seat_scheme == FIXED:
            return ""
        per_team, per_seat, full = cycle_sizes(self.teams)
        if self.games % full == 0:
            return ""
        if not self.has_partners():
            if self.games % per_seat == 0:
                return (
                    f"each strategy sat at each seat equally often, but {self.games} is not a "
                    f"multiple of {full}, so not every seat permutation occurred equally often"
                )
            return (
                f"{self.games} is not a multiple of {per_seat}: seats are not balanced "
                f"(use a multiple of {full} for every permutation equally often)"
            )
        if self.games % per_seat == 0:
            return (
                f"each strategy sat at each seat equally often, but {self.games} is not a "
                f"multiple of {full}, so not every team seating occurred equally often"
            )
        if self.games % per_team == 0:
            return (
                f"each team's strategies played for each team equally often, but {self.games} "
                f"is not a multiple of {per_seat}, so not at each seat (use a multiple of "
                f"{full} for every team seating equally often)"
            )
        return (
            f"{self.games} is not a multiple of {per_team}: teams are not balanced "
            f"(use a multiple of {full} for every team seating equally often)"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRow(MatchSummary):
    """The small record one finished game leaves: the match's summary (no transcript).

    Attributes:
        index: the game index `0..N-1`.
        seconds: wall time of the match function (the only field that varies by run).
    """

    index: int
    seconds: float

    def key(self) -> tuple[object, ...]:
        """Every field but `seconds`: equal keys, equal games."""
        return (
            self.index,
            self.seed,
            self.strategies,
            self.returns,
            self.winners,
            self.moves,
            self.capped,
        )


def game_teams(game: str, players: int) -> Teams:
    """The teams of the game called `game` (`Game.teams`), for a tournament's seats.

    A game string that names no registered game (the synthetic match of tests and
    benchmarks), or a game whose seats differ from `players`, has every seat alone:
    such a tournament is seated and summed up as before teams existed.
    """
    from epigames.games import load_game

    try:
        teams = load_game(game).teams
    except InputError:
        return solo_teams(players)
    if sum(len(team) for team in teams) != players:
        return solo_teams(players)
    return teams


def parse_strategies(text: str) -> tuple[str, ...]:
    """Split `a,b,c` into names, stripping spaces (commas inside parentheses stay).

    Raises:
        TournamentInputError: an empty name.
    """
    from epigames.games import split_strategy_names

    names = tuple(split_strategy_names(text))
    if not text.strip() or any(not n for n in names):
        raise TournamentInputError(
            f"cannot read players {text!r}; expected strategy names separated by commas, "
            "e.g. random,greedy,random,random"
        )
    return names


def checked_config(
    game: str,
    strategies: Sequence[str],
    games: int,
    *,
    seed: int = DEFAULT_SEED,
    seat_scheme: str = ROTATE,
    name: str = DEFAULT_NAME,
) -> TournamentConfig:
    """A configuration checked against the game registry: game string, seats, strategies.

    The game string is replaced by its canonical form, so `kwartet` and
    `kwartet(players=4)` are the same tournament. In a game with partners (`Game.teams`)
    the strategies may also be given one per team; each member of a team then plays its
    team's strategy.

    Raises:
        TournamentInputError: bad size, seed, scheme or number of strategies; rotated
            seats in a game whose teams differ in size.
        InputError: an unknown game or strategy, or a malformed game string.
    """
    from epigames.games import check_strategy, load_game

    loaded = load_game(game)
    names = _per_seat(loaded, tuple(strategies))
    teams = loaded.teams
    if seat_scheme != FIXED and len({len(team) for team in teams}) > 1:
        raise TournamentInputError(
            f"{loaded} has teams of different sizes ({_show_teams(teams)}), so partners "
            "cannot change places as a team; use fixed seats (--fixed-seats)"
        )
    for strategy in dict.fromkeys(names):
        check_strategy(loaded.name, strategy)
    return TournamentConfig(
        name=name,
        game=str(loaded),
        strategies=names,
        games=games,
        seed=seed,
        seat_scheme=seat_scheme,
    )


def _show_teams(teams: Teams) -> str:
    return " vs ".join("+".join(str(seat) for seat in team) for team in teams)


def _per_seat(game: Game, names: tuple[str, ...]) -> tuple[str, ...]:
    """One strategy per seat: `names` as given, or one per team spread over its members.

    Raises:
        TournamentInputError: neither one per seat nor (with partners) one per team.
    """
    if len(names) == game.num_players:
        return names
    teams = game.teams
    partners = len(teams) < game.num_players
    if partners and len(names) == len(teams):
        return tuple(names[game.team_of(seat)] for seat in range(game.num_players))
    if not partners:
        raise TournamentInputError(
            f"{game} has {game.num_players} seats but {len(names)} players were given "
            f"({', '.join(names)}); give one strategy per seat, or change the game's players"
        )
    raise TournamentInputError(
        f"{game} has {game.num_players} seats in {len(teams)} teams ({_show_teams(teams)}) "
        f"but {len(names)} players were given ({', '.join(names)}); give one strategy per "
        f"seat ({game.num_players}) or one per team ({len(teams)})"
    )
