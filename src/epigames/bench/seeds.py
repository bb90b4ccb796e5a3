"""The seed programs' headless harnesses, run beside ours: finding one, reading its speed.

Each harness lies at a fixed place in the folder of seed programs (`--seed-programs DIR`
or `EPIGAMES_SEED_PROGRAMS`), runs N games in its own folder and prints a line such as
`klaverjas-2017: 600 hands in 6.083s = 98.64 games/s`; the benchmarks read the rate.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from epigames.errors import InputError

_TIMEOUT_S = 1800


class SeedProgramError(InputError):
    """A seed program cannot be found or run, or its output cannot be read."""


def find_harness(folder: Path, harness: Path, program: str) -> Path:
    """The harness at `harness` inside the folder of seed programs.

    Args:
        folder: the folder of seed programs.
        harness: where the harness lies in it, e.g. `klaverjas-2017/run.py`.
        program: the program's name for the message, e.g. `2017 Klaverjas program`.

    Raises:
        SeedProgramError: no such harness.
    """
    path = folder / harness
    if not path.is_file():
        raise SeedProgramError(
            f"no {program} at {path}; expected --seed-programs (or "
            f"EPIGAMES_SEED_PROGRAMS) to be a folder holding {harness}"
        )
    return path


def printed_rate(
    command: Sequence[str],
    harness: Path,
    program: str,
    n: int,
    unit: str,
    example: str,
    hint: str = "",
) -> float:
    """Run a harness (`command`, in the harness's folder) and return the rate it prints.

    Args:
        command: the command line, the harness and its arguments for `n` games.
        harness: the harness (for messages and its folder).
        program: the program's name for messages, e.g. `2017 program`.
        n: how many games (`unit`, e.g. `hands`) it plays: its line must say so.
        example: a line it prints, for the message when it prints none.
        hint: what the message of a failed run adds, e.g. what the program needs.

    Raises:
        SeedProgramError: it fails, or prints no `n <unit> in Ts = R games/s`.
    """
    try:
        done = subprocess.run(
            list(command),
            cwd=harness.parent,
            capture_output=True,
            text=True,
            timeout=_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SeedProgramError(f"the {program} {harness} did not run: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SeedProgramError(
            f"the {program} {harness} failed (exit status {done.returncode}): {last}{hint}"
        )
    output = done.stdout.strip()
    found = re.search(rf"(\d+) {unit} in ([0-9.]+)s = ([0-9.]+) games/s", output)
    if found is None or int(found.group(1)) != n:
        first = (output.splitlines() or [""])[0]
        raise SeedProgramError(
            f"cannot read the speed of {n} {unit} from the {program}'s output "
            f"{first[:120]!r}; expected e.g. {example!r}"
        )
    return float(found.group(3))
