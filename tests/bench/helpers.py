"""Helpers for the tests of `epigames bench` rows that run a seed program beside ours."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rich.console import Console

R = TypeVar("R")


def fake_program(root: Path, program: str, script: str) -> Path:
    """`root` as a folder of seed programs holding `program/run.py` with `script`."""
    folder = root / program
    folder.mkdir(parents=True)
    (folder / "run.py").write_text(script)
    return root


def quick_run(run: Callable[..., R], seed_programs: Path | None = None) -> tuple[R, str]:
    """A benchmark's quick run (its `run`) and the text it printed."""
    out = io.StringIO()
    report = run(Console(file=out, width=200), quick=True, seed_programs=seed_programs)
    return report, out.getvalue()
