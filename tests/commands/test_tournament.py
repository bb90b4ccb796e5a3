"""The commands as a user runs them: bad input, refusal, kill -9 and resume, plots."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from epigames import cli as epigames_cli
from epigames.tournament import StoreError, TournamentStore
from epigames.tournament.runner import FAULT_ENV
from tests.tournament.helpers import SMALL_GAME, cli

PLAYERS = "random,random,random"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "0"], "--games 0 is out of range; expected 1..100000000"),
        (["-n", "-5"], "--games -5 is out of range; expected 1..100000000"),
        (["-n", "99999999999999999999"], "--games 99999999999999999999 is out of range"),
        (["-n", "5", "-j", "-1"], "--jobs -1 is out of range; expected 0..1024"),
        (["-n", "5", "-p", "random,gredy,random"], "unknown strategy 'gredy' for kwartet; choose"),
        (["-n", "5", "-p", "random,random"], "has 3 seats but 2 players were given"),
        (["-n", "5", "-p", "random,,random"], "cannot read players"),
        (["-n", "5", "--backend", "spark"], "unknown backend 'spark'"),
    ],
)
def test_bad_input_exits_2(tmp_path: Path, args: list[str], message: str) -> None:
    full = ["tournament", SMALL_GAME, "-p", PLAYERS, "--db", str(tmp_path / "r.duckdb"), *args]
    result = cli(*full)
    assert result.returncode == 2, result.stderr
    assert message in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "r.duckdb").exists()


def test_unknown_game_exits_2(tmp_path: Path) -> None:
    result = cli("tournament", "chess", "-p", PLAYERS, "-n", "5", "--db", str(tmp_path / "r"))
    assert result.returncode == 2 and "unknown game 'chess'" in result.stderr


def test_mismatch_and_foreign_file_refused_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    ok = cli("tournament", SMALL_GAME, "-p", PLAYERS, "-n", "12", "-j", "1", "--db", str(db))
    assert ok.returncode == 0, ok.stderr
    before = db.read_bytes()
    bad = cli("tournament", SMALL_GAME, "-p", PLAYERS, "-n", "12", "--seed", "9", "--db", str(db))
    assert bad.returncode == 2
    assert "another configuration (seed: stored 20240401, asked 9)" in " ".join(bad.stderr.split())
    fixed = cli(
        "tournament", SMALL_GAME, "-p", PLAYERS, "-n", "12", "--fixed-seats", "--db", str(db)
    )
    assert fixed.returncode == 2 and "seat_scheme: stored rotate, asked fixed" in fixed.stderr
    assert db.read_bytes() == before
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n")
    foreign = cli("tournament", SMALL_GAME, "-p", PLAYERS, "-n", "3", "--db", str(text))
    assert foreign.returncode == 2 and "is not a DuckDB file" in foreign.stderr
    assert text.read_text() == "my notes\n"


def _summary(db: Path) -> dict[str, object]:
    result = cli("report", str(db), "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def _run_until_fault(args: list[str], fault: str) -> subprocess.CompletedProcess[str]:
    """Run `epigames ARGS` until the runner's test hook stops it (see `FAULT_ENV`).

    The process leads a new process group, as a shell job does, so the hook's signal
    reaches its workers too, as a terminal's Ctrl-C or a `kill -9` of the job would.
    """
    proc = subprocess.Popen(
        [sys.executable, "-c", "from epigames.cli import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, FAULT_ENV: fault},
        # A shell's background jobs ignore SIGINT; a terminal's Ctrl-C does not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    stdout, stderr = proc.communicate()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # no worker may outlive the test
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def test_ctrl_c_keeps_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    n = 100_000  # far more than can finish after the interrupt (chunks in flight, buffer)
    args = ["tournament", "kwartet(players=3,kinds=6)", "-p", PLAYERS, "-n", str(n), "-j", "2"]
    result = _run_until_fault([*args, "--db", str(db)], "300:INT")
    assert result.returncode == 130, result.stderr
    with TournamentStore.open(db, read_only=True) as store:
        stored = store.count("default")
    text = " ".join(result.stderr.split())
    # The 300 committed before the interrupt, plus the chunks that were still running.
    assert 300 <= stored < n
    assert f"interrupted: {stored} of {n} games of 'default' are stored" in text
    assert f"play the remaining {n - stored}" in text


def test_kill_9_then_resume_equals_uninterrupted_run(tmp_path: Path) -> None:
    n = 1000
    partial = 250
    game = "kwartet(players=3,kinds=6)"
    args = ["tournament", game, "-p", PLAYERS, "-n", str(n), "-j", "2", "--seed", "11"]
    killed = tmp_path / "killed.duckdb"
    # The parent and its workers die right after game 250 is committed, as in a crash.
    crash = _run_until_fault([*args, "--db", str(killed)], str(partial))
    assert crash.returncode == -signal.SIGKILL, crash.stderr
    with TournamentStore.open(killed, read_only=True) as store:
        assert store.count("default") == partial

    resumed = cli(*args, "--db", str(killed))
    assert resumed.returncode == 0, resumed.stderr
    assert f"played {n - partial} games" in resumed.stderr
    whole = tmp_path / "whole.duckdb"
    assert cli(*args, "--db", str(whole)).returncode == 0
    with (
        TournamentStore.open(killed, read_only=True) as a,
        TournamentStore.open(whole, read_only=True) as b,
    ):
        assert a.count("default") == n
        assert [r.key() for r in a.rows("default")] == [r.key() for r in b.rows("default")]
    assert _summary(killed) == _summary(whole)
    again = cli(*args, "--db", str(whole))
    assert again.returncode == 0
    assert f"All {n} games of tournament 'default' are stored" in " ".join(again.stderr.split())


def test_fault_hook_stops_a_serial_run_at_the_exact_game(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    args = ["tournament", SMALL_GAME, "-p", PLAYERS, "-n", "40", "-j", "1", "--db", str(db)]
    crash = _run_until_fault(args, "7")
    assert crash.returncode == -signal.SIGKILL
    with TournamentStore.open(db, read_only=True) as store:
        assert store.count("default") == 7


def test_report_and_plot(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    run = cli(
        "tournament", SMALL_GAME, "-p", PLAYERS, "-n", "30", "-j", "1", "--db", str(db), "--json"
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == _summary(db)
    table = cli("report", str(db))
    assert "per strategy" in table.stdout and "random" in table.stdout
    out = tmp_path / "plots"
    plot = cli("plot", str(db), "--out", str(out))
    assert plot.returncode == 0, plot.stderr
    for stem in ("win_rates", "returns", "lengths", "seat_advantage"):
        for ext in ("png", "svg"):
            path = out / f"{stem}.{ext}"
            assert path.stat().st_size > 1000
    assert (out / "win_rates.png").read_bytes()[:4] == b"\x89PNG"
    missing = cli("report", str(tmp_path / "none.duckdb"))
    assert missing.returncode == 2 and "no results file" in missing.stderr


def test_cli_limits_agree_with_the_library() -> None:
    """The CLI repeats the limits (to start without numpy); they must not drift apart."""
    from epigames import tournament
    from epigames.commands import tournament as command

    assert (command.MAX_GAMES, command.MAX_SEED) == (tournament.MAX_GAMES, tournament.MAX_SEED)


def test_complete_tournament_in_read_only_file_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.duckdb"
    args = ["tournament", SMALL_GAME, "-p", PLAYERS, "-j", "1", "--db", str(db), "--json"]
    assert epigames_cli.run([*args, "-n", "12"]) == 0
    first = json.loads(capsys.readouterr().out)
    db.chmod(0o444)  # read-only for a normal user; root ignores modes, hence also:
    real_open = TournamentStore.open.__func__  # type: ignore[attr-defined]

    def read_only_open(cls: type[TournamentStore], path: Path, *, read_only: bool = False) -> Any:
        if not read_only:
            raise StoreError(f"cannot open {path}: Permission denied")
        return real_open(cls, path, read_only=True)

    monkeypatch.setattr(TournamentStore, "open", classmethod(read_only_open))
    assert epigames_cli.run([*args, "-n", "12"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == first
    assert "nothing left to play" in " ".join(err.split())
    # More games must be written: a clean refusal, not a traceback.
    assert epigames_cli.run([*args, "-n", "24"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "\nerror: cannot open" in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["report"], ["plot", "--out", "plots"]])
def test_report_and_plot_name_no_option_they_lack(tmp_path: Path, command: list[str]) -> None:
    damaged = tmp_path / "r.duckdb"
    damaged.write_bytes(b"not a database at all")
    result = cli(command[0], str(damaged), *command[1:], cwd=tmp_path)
    assert result.returncode == 2
    assert "is not a DuckDB file" in result.stderr and "Traceback" not in result.stderr
    assert "--db" not in result.stderr
