"""Running the `epigames` CLI in-process, as the command tests do."""

from __future__ import annotations

import sys

import pytest

from epigames import cli


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`epigames ARGS` in this process: the exit status, standard output and error."""
    old = sys.argv
    sys.argv = ["epigames", *args]
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = old
    out = capsys.readouterr()
    return code, out.out, out.err
