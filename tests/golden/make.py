"""Compute, and on request rewrite, the golden files of `tests/golden/`.

One file per game setting of `tests.conformance.oracles.SETTINGS`, named `<slug>.json`.
For every seed `0..SEEDS-1` it holds two SHA-256 digests:

* `transcript`: the exact bytes `epigames play GAME --players LINEUP --seed SEED --json`
  prints (JSON lines, one `json.dumps` per line, each ended by a newline), computed
  in-process with the function the command uses (`epigames.commands.play.json_lines`);
* `rows`: the row the tournament runner stores for game index SEED of the tournament
  `checked_config(GAME, LINEUP, SEEDS, seed=TOURNAMENT_SEED, name=TOURNAMENT_NAME)`
  (rotating seats), as produced by the runner's per-chunk function
  `epigames.tournament.runner.play_games`: the DuckDB `games` columns as a dict, without
  the wall-time column `seconds` (the only one that varies by run), serialised with
  `json.dumps(..., sort_keys=True)`. Note: that game's match seed is
  `game_seed(TOURNAMENT_SEED, SEED)`, not SEED.

For seed 0 the file also keeps both texts in full (as lists of lines, so that the files
diff well), so that a failure can be diffed.

When a change of behaviour is intended, regenerate (and review the diff of) the files:

    python -m tests.golden.make            # every setting
    python -m tests.golden.make kwartet    # only settings whose slug starts with this

or equivalently `EPIGAMES_REGENERATE_GOLDEN=1 python3 -m pytest tests/games/test_golden.py`.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from epigames.commands.play import json_lines
from epigames.games import Match, load_game, play_match, registered_games
from epigames.games.core import game_class
from epigames.tournament.config import TournamentConfig, checked_config
from epigames.tournament.runner import play_games
from tests.conformance.oracles import SETTINGS, showcase_lineup

#: Where the golden files live.
GOLDEN_DIR = Path(__file__).resolve().parent
#: Seeds `0..SEEDS-1` (and tournament game indices `0..SEEDS-1`) per setting.
SEEDS = 100
#: The tournament whose rows are kept: its seed and name.
TOURNAMENT_SEED = 20240401
TOURNAMENT_NAME = "golden"
#: Set to 1 to make `tests/games/test_golden.py` rewrite the files instead of checking.
REGENERATE_ENV = "EPIGAMES_REGENERATE_GOLDEN"
#: Bumped when the file layout (not the games) changes.
FORMAT = 1

#: One line-up (a strategy per seat, in seat order) per setting of `SETTINGS`: a mix of
#: the game's registered strategies, chosen among the fast ones so that the 100 seeds of
#: every setting replay in well under a minute in all. In the six-seat, 13-kind Kwartet
#: every knowledge-based strategy takes seconds per game (even one seat of them), so that
#: setting is played by `random` at every seat; `bayes` in three-seat Blufpoker takes
#: about a second per game, so it sits only at the two- and six-seat tables.
LINEUPS: dict[str, tuple[str, ...]] = {
    "kwartet": ("expert", "greedy", "defensive", "random"),
    "kwartet(players=3,kinds=5)": ("aggressive", "silent", "mixed"),
    "kwartet(players=6,kinds=13,ask_own=false)": ("random",) * 6,
    "kwartet(players=5,kinds=2,ask_own=false)": ("owner", "expert", "random", "silent", "greedy"),
    "blufpoker": ("knowledge", "random", "greedy/overbid/random"),
    "blufpoker(players=2,penalties=2)": ("bayes", "random-lowest/truthful/believe"),
    "blufpoker(players=6,penalties=3)": (
        "bayes",
        "knowledge",
        "random",
        "greedy/overbid/random",
        "lowest/truthful/never",
        "random/overbid/believe",
    ),
    "klaverjas": ("random",) * 4,
    "klaverjas(rules=rotterdam,undertrump=force,trump=bidding,deals=2)": ("random",) * 4,
    "klaverjas(preset=2017)": ("random",) * 4,
    "klaverjas(ranks=4,undertrump=free,trump=random,deals=3,target=150,four_kind=false)": (
        ("random",) * 4
    ),
    "kemps(ranks=5,max_turns=40)": ("greedy", "kbgreedy", "blocking"),
    "kemps(players=2,table=4,ranks=5,max_turns=60)": ("blocking2023", "random"),
    "kemps(teams=true,ranks=6,max_turns=30)": ("greedy", "random", "kbgreedy", "random"),
    "kemps(players=4,table=3,ranks=6,max_swaps=1,redeal_after=1,max_turns=40)": (
        "greedy",
        "kbgreedy2023",
        "random",
        "blocking",
    ),
}


@dataclass(frozen=True, slots=True)
class Setting:
    """One golden file: a game string as given in `SETTINGS` and its line-up."""

    given: str
    lineup: tuple[str, ...]

    @property
    def slug(self) -> str:
        """The file's stem, e.g. `kwartet-players-3-kinds-5`."""
        return re.sub(r"[^a-z0-9]+", "-", self.given.lower()).strip("-")

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.slug}.json"

    @property
    def game(self) -> str:
        """The canonical game string."""
        return str(load_game(self.given))

    def command(self, seed: int) -> list[str]:
        """The `epigames` arguments whose output is the transcript of `seed`."""
        return [
            "play",
            self.given,
            "--players",
            ",".join(self.lineup),
            "--seed",
            str(seed),
            "--json",
        ]

    def tournament(self) -> TournamentConfig:
        return checked_config(
            self.given, self.lineup, SEEDS, seed=TOURNAMENT_SEED, name=TOURNAMENT_NAME
        )


def settings() -> list[Setting]:
    """Every setting of `SETTINGS` with its line-up, in `SETTINGS` order.

    Raises:
        KeyError: a setting of `SETTINGS` has no line-up in `LINEUPS`.
    """
    out = []
    for given in (g for games in SETTINGS.values() for g in games):
        if given not in LINEUPS:
            raise KeyError(
                f"no golden line-up for setting {given!r}: add one to LINEUPS in "
                "tests/golden/make.py, then run `python -m tests.golden.make`"
            )
        out.append(Setting(given, LINEUPS[given]))
    # A built-in game with no settings here (the template game) keeps its showcase.
    for name in registered_games():
        if name not in SETTINGS and game_class(name).__module__.startswith("epigames."):
            out.append(Setting(*showcase_lineup(name)))
    return out


def transcript_text(setting: Setting, seed: int) -> str:
    """What `epigames play ... --seed SEED --json` prints, built in-process as it does."""
    match = Match(setting.game, setting.lineup, seed)
    return "".join(json.dumps(line) + "\n" for line in json_lines(match, None))


def stored_row(config: TournamentConfig, row: Any) -> dict[str, Any]:
    """A `GameRow` as the `games` table stores it (without `seconds`), as JSON values."""
    return {
        "tournament": config.name,
        "game_index": row.index,
        "game_seed": row.seed,
        "strategies": list(row.strategies),
        "returns": list(row.returns),
        "winners": list(row.winners),
        "moves": row.moves,
    }


def rows_text(config: TournamentConfig, rows: Sequence[Any]) -> str:
    """Stored rows as text: one `json.dumps(row, sort_keys=True)` per line."""
    return "".join(json.dumps(stored_row(config, r), sort_keys=True) + "\n" for r in rows)


def tournament_rows_text(setting: Setting, index: int) -> str:
    """The stored row of game `index` of the setting's tournament, as the runner plays it."""
    config = setting.tournament()
    return rows_text(config, play_games(config, [index], play_match))


def split_lines(text: str) -> list[str]:
    """A text of newline-ended lines as its lines (`join_lines` undoes it exactly)."""
    assert text.endswith("\n"), "every line printed ends with a newline"
    return text.split("\n")[:-1]


def join_lines(lines: Sequence[str]) -> str:
    return "".join(line + "\n" for line in lines)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute(setting: Setting, seeds: int = SEEDS) -> dict[str, Any]:
    """The golden file's content for a setting, from today's code."""
    digests: dict[str, dict[str, str]] = {}
    full: dict[str, list[str]] = {}
    for seed in range(seeds):
        transcript = transcript_text(setting, seed)
        rows = tournament_rows_text(setting, seed)
        digests[str(seed)] = {"transcript": sha256(transcript), "rows": sha256(rows)}
        if seed == 0:
            full = {"transcript": split_lines(transcript), "rows": split_lines(rows)}
    config = setting.tournament()
    return {
        "format": FORMAT,
        "setting": setting.given,
        "game": setting.game,
        "lineup": list(setting.lineup),
        "command": shlex.join(["epigames", *setting.command(0)]).replace(
            "--seed 0 ", "--seed SEED "
        ),
        "tournament": {k: v for k, v in config.to_dict().items() if k != "code_version"},
        "seeds": digests,
        "seed0": full,
    }


def dump(content: dict[str, Any]) -> str:
    """The golden file's text: keys as `compute` orders them (seeds in numeric order)."""
    return json.dumps(content, indent=1, ensure_ascii=False) + "\n"


def load(setting: Setting) -> dict[str, Any]:
    content: dict[str, Any] = json.loads(setting.path.read_text(encoding="utf-8"))
    return content


def write(setting: Setting) -> Path:
    setting.path.write_text(dump(compute(setting)), encoding="utf-8")
    return setting.path


def main(argv: Sequence[str]) -> int:
    prefixes = list(argv)
    for setting in settings():
        if prefixes and not any(setting.slug.startswith(p) for p in prefixes):
            continue
        path = write(setting)
        print(f"wrote {path.relative_to(GOLDEN_DIR.parent.parent)} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
