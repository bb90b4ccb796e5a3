"""Every command answers a user mistake with one `error:` line and status 2, never a traceback.

The commands are discovered from the app itself, so a new command or option is covered
without touching this file. For each command: an unknown option (and, for groups, an
unknown command), a missing argument, a wrong-typed value and out-of-range numbers. Every
case fails while the arguments are parsed, so no command body runs; all run in-process.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import typer.main

from epigames import cli

ROOT = typer.main.get_command(cli.app)
CTX = typer.Context(ROOT)
NUMERIC = ("<int>", "<float>", "<int range>", "<float range>")
GIANT = "1" + "0" * 30


@dataclass(frozen=True)
class Case:
    """One mistaken command line and what its error line must name."""

    kind: str
    args: tuple[str, ...]
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.kind}: epigames {' '.join(self.args)}"


def commands(
    command: Any = ROOT, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command and group under `command`, with the words that reach it."""
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from commands(sub, (*path, name))


def option_name(param: Any) -> str:
    return str(max(param.opts, key=len))


def is_flag(param: Any) -> bool:
    return bool(getattr(param, "is_flag", False))


def group_cases(path: tuple[str, ...]) -> list[Case]:
    return [
        Case("unknown command", (*path, "no-such-command"), ("no-such-command",)),
        Case("unknown option", (*path, "--no-such-option"), ("--no-such-option",)),
    ]


def command_cases(path: tuple[str, ...], command: Any) -> list[Case]:
    """The mistakes that apply to a command, derived from its parameters."""
    cases = [Case("unknown option", (*path, "--no-such-option"), ("--no-such-option",))]
    options = [p for p in command.params if p.param_type_name == "option"]
    required = [p for p in command.params if p.required]
    if required:
        first = required[0]
        name = option_name(first) if first.param_type_name == "option" else first.name
        cases.append(Case("missing argument", path, (name,)))
    for option in options:
        if not is_flag(option):
            # The option's value is missing: it is the last word.
            cases.append(Case("missing argument", (*path, option_name(option)), (option.opts[0],)))
    for param in command.params:
        numeric = param.display_type(CTX) in NUMERIC
        assert param.param_type_name == "option" or not numeric, (
            f"{path}: numeric argument {param.name}: add its cases here"
        )
        if param.param_type_name != "option":
            continue
        name = option_name(param)
        if is_flag(param):
            cases.append(Case("wrong type", (*path, f"{name}=abc"), (name,)))
        elif numeric:
            cases.append(Case("wrong type", (*path, name, "abc"), (name, "abc")))
            low, high = param.min, param.max
            assert low is not None and high is not None, (
                f"epigames {' '.join(path)} {name}: a numeric option needs min= and max= "
                "(typer.Option), so that a giant number gets a clean error"
            )
            allowed = f"{low}..{high}"
            below = str(low - 1)
            for value in (GIANT, f"-{GIANT}", below):
                cases.append(Case("out of range", (*path, name, value), (name, value, allowed)))
    return cases


def all_cases() -> list[Case]:
    cases: list[Case] = []
    for path, command in commands():
        if hasattr(command, "commands"):
            cases += group_cases(path)
        else:
            cases += command_cases(path, command)
    return cases


CASES = all_cases()


def test_every_command_is_covered() -> None:
    paths = [path for path, _ in commands()]
    assert {(), ("play",), ("tournament",), ("serve",), ("logic",), ("logic", "check")} <= set(
        paths
    )
    for path in paths:
        assert Case("unknown option", (*path, "--no-such-option"), ("--no-such-option",)) in CASES
    assert {case.kind for case in CASES} == {
        "unknown command",
        "unknown option",
        "missing argument",
        "wrong type",
        "out of range",
    }


@pytest.fixture(autouse=True)
def _no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail fast instead of serving forever if a case ever reached `epigames serve`'s body."""
    uvicorn = pytest.importorskip("uvicorn")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a mistaken command line started the server")

    monkeypatch.setattr(uvicorn, "run", refuse)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_mistake_gives_one_error_line_and_status_2(
    case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli.run(list(case.args))
    out, err = capsys.readouterr()
    assert status == 2, (out, err)
    assert "Traceback" not in out + err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    for name in case.names:
        assert name.lower() in lines[0].lower(), (name, err)


def test_group_without_command_shows_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(["logic"]) == 2
    out, err = capsys.readouterr()
    assert "check" in out + err and "Traceback" not in out + err


def test_domain_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(["play", "kwartet", "--players", "random,gredy,random,random"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: unknown strategy 'gredy'")
    assert len(err.splitlines()) == 1


def test_installed_entry_point_exits_2_without_traceback() -> None:
    """The same through `main()` in a real process: status 2 from `sys.exit`, stderr only."""
    proc = subprocess.run(
        [
            *(sys.executable, "-c", "from epigames.cli import main; main()"),
            *("tournament", "kwartet", "-p", "random", "--games", "99999999999999999999"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(
        "error: --games 99999999999999999999 is out of range; expected 1..100000000"
    )
    assert "Traceback" not in proc.stderr
