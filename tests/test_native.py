"""The compiled modules (`epigames.native`): used only when sound, and the same games."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from epigames import native
from tests.golden import knowledge_trace as kt

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "epigames"

#: Seeded games whose every seat's knowledge is traced at every step: every card game,
#: with strategies that read the knowledge (and Blufpoker, whose cup uses none of it).
TRACED = (
    ("kwartet(players=3,kinds=4,ask_own=true)", ("greedy", "silent", "mixed")),
    ("kwartet(players=4,kinds=6,ask_own=false)", ("owner", "defensive", "aggressive", "random")),
    ("kwartet(players=3,kinds=5,ask_own=true)", ("expert", "greedy", "expert")),
    ("klaverjas(ranks=4,deals=2)", ("tactics", "tactics2017", "tactics", "random")),
    ("kemps(ranks=5,max_turns=30)", ("kbgreedy", "blocking", "tom")),
    ("kemps(teams=true,ranks=6,max_turns=30)", ("tom", "kbgreedy", "tom", "kbgreedy")),
    ("sevens(players=3,ranks=7,suits=3)", ("blocker", "random", "blocker")),
)
SEEDS = range(6)


def _digests() -> str:
    lines = []
    for game, lineup in TRACED:
        h = hashlib.sha256()
        for seed in SEEDS:
            h.update(kt.game_trace(game, lineup, seed).encode() + b"\n--\n")
        lines.append(f"{game} {h.hexdigest()}")
    return "\n".join(lines)


def _package_copy(tmp_path: Path) -> Path:
    """The compiled modules' sources, laid out as in the package."""
    for module in native.BUILT:
        target = native.source_path(module, tmp_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(native.source_path(module, PACKAGE), target)
    return tmp_path


def _fake_builds(package: Path) -> list[Path]:
    made = []
    for module in native.BUILT:
        source = native.source_path(module, package)
        built = source.with_name(source.stem + importlib.machinery.EXTENSION_SUFFIXES[0])
        built.write_bytes(b"")
        made.append(built)
    return made


def test_a_build_is_used_only_with_the_sources_it_was_made_from(tmp_path: Path) -> None:
    package = _package_copy(tmp_path)
    assert native.status(package, {}).startswith("pure Python (not compiled")
    built = _fake_builds(package)
    assert "sources changed" in native.status(package, {})  # built, but no digest recorded
    (package / native.RECORD).write_text(native.sources_digest(package) + "\n")
    assert native.status(package, {}) == "compiled"
    assert native.status(package, {native.PURE_ENV: "0"}) == "compiled"
    assert native.status(package, {native.PURE_ENV: "1"}) == (
        f"pure Python ({native.PURE_ENV} is set)"
    )
    edited = native.source_path(native.COMPILED[-1], package)
    original = edited.read_bytes()
    edited.write_bytes(original + b"# an edit after the build\n")
    assert "sources changed" in native.status(package, {})
    edited.write_bytes(original)
    assert native.status(package, {}) == "compiled"
    built[0].unlink()
    assert native.status(package, {}).startswith("pure Python (not compiled")


def test_the_build_records_the_sources_mypyc_read_not_an_edit_made_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """setup.py takes the digest before compiling: an edit during the build means plain.

    The record goes into the source tree and, for a wheel, into its build folder too.
    """
    import setuptools
    from setuptools.command.build_ext import build_ext

    package = _package_copy(tmp_path / "src" / "epigames")
    shutil.copy(PACKAGE / "native.py", package / "native.py")
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    before = native.sources_digest(package)
    edited = native.source_path(native.COMPILED[-1], package)

    def mypycify(paths: list[str], **options: object) -> list[object]:
        # mypyc has read the sources; someone saves an edit before the build ends.
        edited.write_text(edited.read_text() + "# an edit during the build\n")
        return []

    fake_mypyc = type(sys)("mypyc.build")
    fake_mypyc.mypycify = mypycify  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mypyc.build", fake_mypyc)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    made: dict[str, object] = {}
    monkeypatch.setattr(setuptools, "setup", made.update)
    monkeypatch.setattr(build_ext, "run", lambda self: None)  # nothing to compile here
    spec = importlib.util.spec_from_file_location("_epigames_setup", tmp_path / "setup.py")
    assert spec is not None and spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    commands = made["cmdclass"]
    assert isinstance(commands, dict)
    # A wheel's build (not in place): the wheel is made from build_lib, copied already.
    command = commands["build_ext"](setuptools.Distribution())
    command.inplace, command.build_lib = False, str(tmp_path / "build")
    command.run()
    _fake_builds(package)
    assert (package / native.RECORD).read_text().strip() == before
    assert (tmp_path / "build" / "epigames" / native.RECORD).read_text().strip() == before
    assert "sources changed" in native.status(package, {})


def test_the_plain_modules_are_loaded_when_asked() -> None:
    code = (
        "import epigames, epigames.native as n, epigames.cards.feasibility as f; "
        "print(n.status()); print(f.__file__)"
    )
    env = {**os.environ, native.PURE_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    plain = str(PACKAGE / "cards" / "feasibility.py")
    assert out == [f"pure Python ({native.PURE_ENV} is set)", plain]


def test_plain_and_compiled_modules_know_and_play_the_same() -> None:
    """Every seat's knowledge at every step and every move, in this process (compiled
    where the install is) and in one that runs the plain sources."""
    code = "from tests.test_native import _digests; print(_digests())"
    env = {**os.environ, native.PURE_ENV: "1", "PYTHONPATH": str(ROOT)}
    plain = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert plain == _digests()


@pytest.mark.skipif(
    os.environ.get(native.PURE_ENV, "") not in ("", "0"), reason=f"{native.PURE_ENV} is set"
)
def test_the_install_is_compiled_where_it_can_be() -> None:
    """With a C compiler and mypyc at hand, `pip install -e .` compiles (see setup.py)."""
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler: the plain modules run, as designed")
    if importlib.util.find_spec("mypyc") is None:
        pytest.skip("no mypyc: the plain modules run, as designed")
    assert native.status() == "compiled"


def test_a_benchmark_says_whether_the_compiled_modules_ran(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from epigames import cli
    from epigames.bench import cards

    monkeypatch.setattr(cards, "run", lambda console, quick: console.print("a table"))
    assert cli.run(["bench", "cards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["a table", f"card engine: {native.running()}"]


def test_a_benchmark_names_what_ran_not_what_an_edit_meanwhile_makes_the_files_say(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from epigames import cli
    from epigames.bench import cards

    ran = native.running()
    edited = "pure Python (the sources changed since they were compiled: reinstall)"

    def run_while_edited(console: object, quick: bool) -> None:
        monkeypatch.setattr(native, "status", lambda *args, **kwargs: edited)
        assert native.status() == edited

    monkeypatch.setattr(cards, "run", run_while_edited)
    assert cli.run(["bench", "cards"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"card engine: {ran}"]
