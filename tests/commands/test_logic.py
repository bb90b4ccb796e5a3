"""`epigames logic check|eval|parse`, in-process (CliRunner) and as a real subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from epigames.cli import app
from epigames.errors import FormulaSyntaxError, InputError, UnknownAgentError
from epigames.logic.smcdel import SmcdelModelError
from epigames.logic.symbolic import backend_name

EXAMPLES = Path(__file__).parent.parent.parent / "examples"
MUDDY = str(EXAMPLES / "muddy-children.smcdel.txt")
runner = CliRunner()


def epigames_command() -> list[str]:
    """The installed console script, or the same entry point through this interpreter."""
    exe = shutil.which("epigames")
    if exe:
        return [exe]
    return [sys.executable, "-c", "from epigames.cli import main; main()"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*epigames_command(), *args], input=stdin, capture_output=True, text=True, check=False
    )


# --- check ----------------------------------------------------------------------------


def test_check_prints_each_job_and_answer() -> None:
    result = runner.invoke(app, ["logic", "check", MUDDY])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("line 10")
    assert "TRUE? {1,2,3} alice knows that (2 & 3) & ~ alice knows whether 1" in lines[0]
    assert lines[0].endswith("→  True")
    assert lines[1].startswith("line 14") and lines[1].endswith("→  True")
    assert lines[2].startswith("line 17") and lines[2].endswith("→  [{1},{2},{3}]")
    assert "WHERE? < ! (1|2|3) > ( (alice knows whether 1)" in lines[2]
    assert len(lines) == 8


def test_check_json_lines() -> None:
    result = runner.invoke(app, ["logic", "check", "--json", MUDDY])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 8
    assert rows[0] == {
        "kind": "TRUE?",
        "line": 10,
        "formula": "alice knows that (2 & 3) & ~ alice knows whether 1",
        "state": [1, 2, 3],
        "answer": True,
    }
    assert rows[1]["answer"] is True and "state" not in rows[1]
    assert rows[2]["kind"] == "WHERE?"
    assert rows[2]["answer"] == [[1], [2], [3]]


def test_check_cheryl_json() -> None:
    result = runner.invoke(app, ["logic", "check", "--json", str(EXAMPLES / "cheryl.smcdel.txt")])
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["answer"] for r in rows[3:]] == [[[7, 16]], True, True]


def test_check_reads_stdin() -> None:
    text = "VARS 1,2 LAW Top OBS a: 1\nWHERE? a knows that 1\nVALID? 1 | ~1"
    result = runner.invoke(app, ["logic", "check", "-", "--json"], input=text)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows == [
        {"kind": "WHERE?", "line": 2, "formula": "a knows that 1", "answer": [[1], [1, 2]]},
        {"kind": "VALID?", "line": 3, "formula": "1 | ~1", "answer": True},
    ]


def test_check_without_jobs_says_so() -> None:
    result = runner.invoke(app, ["logic", "check", "-"], input="VARS 1 LAW Top OBS a: 1")
    assert result.exit_code == 0
    assert "no jobs" in result.output


def test_check_errors_are_domain_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["logic", "check", str(tmp_path / "missing.txt")])
    assert isinstance(result.exception, InputError)
    assert "no such file" in str(result.exception)
    result = runner.invoke(app, ["logic", "check", str(tmp_path)])
    assert isinstance(result.exception, InputError)
    assert "directory" in str(result.exception)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe VARS")
    result = runner.invoke(app, ["logic", "check", str(binary)])
    assert isinstance(result.exception, InputError)
    assert "UTF-8" in str(result.exception)
    result = runner.invoke(app, ["logic", "check", "-"], input="VARS 1 LAW 1 & ~1 OBS\nVALID? 1")
    assert isinstance(result.exception, SmcdelModelError)


def test_bad_file_exits_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.smcdel.txt"
    bad.write_text("VARS 1,2\nLAW Top\nOBS alice: 1\nVALID? alice knows that (1 &\n")
    proc = run("logic", "check", str(bad))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "line 5, column 1: unexpected end of input" in proc.stderr
    assert proc.stdout == ""


def test_unknown_agent_and_missing_file_exit_2() -> None:
    proc = run("logic", "check", "-", stdin="VARS 1 LAW Top OBS a: 1\nTRUE? {1} b knows that 1")
    assert proc.returncode == 2
    assert "unknown agent 'b'; the agents in OBS are: a" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = run("logic", "check", "/nonexistent/file.smcdel.txt")
    assert proc.returncode == 2
    assert "cannot read '/nonexistent/file.smcdel.txt': no such file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_check_subprocess_success() -> None:
    proc = run("logic", "check", "--json", str(EXAMPLES / "drinking-logicians.smcdel.txt"))
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert rows[4]["answer"] == [[1, 2, 3]]


# --- eval -----------------------------------------------------------------------------


def test_eval_valid_and_where() -> None:
    result = runner.invoke(app, ["logic", "eval", "alice knows whether 1 | 2", "--file", MUDDY])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["valid: False", "where: [{1,2},{1,2,3},{2},{2,3}]"]
    result = runner.invoke(app, ["logic", "eval", "1 | ~1", "-f", MUDDY])
    assert result.output.splitlines()[0] == "valid: True"


@pytest.mark.parametrize(
    ("state", "expected"),
    [("1,2", "{1,2}: True"), ("{1}", "{1}: False"), ("{}", "{}: False"), ("", "{}: False")],
)
def test_eval_at_a_state(state: str, expected: str) -> None:
    result = runner.invoke(app, ["logic", "eval", "alice knows that 2", "-f", MUDDY, "-s", state])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == expected


def test_eval_errors() -> None:
    bad_agent = runner.invoke(app, ["logic", "eval", "dave knows that 1", "-f", MUDDY])
    assert isinstance(bad_agent.exception, UnknownAgentError)
    bad_var = runner.invoke(app, ["logic", "eval", "1", "-f", MUDDY, "--state", "1,9"])
    assert isinstance(bad_var.exception, InputError)
    assert "variable 9 not in VARS" in str(bad_var.exception)
    bad_state = runner.invoke(app, ["logic", "eval", "1", "-f", MUDDY, "--state", "x"])
    assert isinstance(bad_state.exception, InputError)
    assert "bad state 'x'" in str(bad_state.exception)
    syntax = runner.invoke(app, ["logic", "eval", "1 &", "-f", MUDDY])
    assert isinstance(syntax.exception, FormulaSyntaxError)


# --- parse ----------------------------------------------------------------------------


def test_parse_normalises() -> None:
    result = runner.invoke(app, ["logic", "parse", "K_a   (p)∧¬ K_b p"])
    assert result.exit_code == 0, result.output
    assert result.output == "K_a p & ~K_b p\n"


def test_parse_latex() -> None:
    result = runner.invoke(app, ["logic", "parse", "K_a p", "--latex"])
    assert result.output.splitlines() == ["K_a p", r"K_{\mathit{a}} \mathit{p}"]


def test_parse_smcdel_syntax() -> None:
    text = "alice knows that (2 & 3) & ~ alice knows whether 1"
    result = runner.invoke(app, ["logic", "parse", "--smcdel", text])
    assert result.output == "K_alice (2 & 3) & ~Kw_alice 1\n"


def test_parse_error_shows_caret_and_exits_2() -> None:
    proc = run("logic", "parse", "K_a (p &")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "line 1, column 9: unexpected end of input" in proc.stderr
    assert proc.stderr.splitlines()[-1] == "          ^"


@pytest.mark.parametrize("command", ["check", "eval", "parse"])
def test_help(command: str) -> None:
    result = runner.invoke(app, ["logic", command, "--help"])
    assert result.exit_code == 0
    assert "Usage" in result.output


def test_logic_group_help_lists_commands() -> None:
    result = runner.invoke(app, ["logic", "--help"])
    assert result.exit_code == 0
    for command in ("check", "eval", "parse"):
        assert command in result.output


# --- engines ----------------------------------------------------------------------------


def json_answers(*args: str, stdin: str | None = None) -> list[object]:
    result = runner.invoke(app, ["logic", "check", "--json", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return [json.loads(line)["answer"] for line in result.output.splitlines()]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.smcdel.txt")), ids=lambda p: p.name)
def test_every_engine_answers_every_example_alike(path: Path) -> None:
    explicit = json_answers(str(path), "--engine", "explicit")
    assert explicit
    assert json_answers(str(path), "--engine", "symbolic") == explicit
    assert json_answers(str(path), "-e", "auto") == explicit
    assert json_answers(str(path)) == explicit


def many_children(n: int) -> str:
    """Muddy children as an SMCDEL file: the father, then "nobody knows" until all know."""
    children = range(1, n + 1)
    obs = "\n".join(f"c{i}: " + ",".join(str(j) for j in children if j != i) for i in children)
    nobody = " & ".join(f"~ c{i} knows whether {i}" for i in children)
    everyone = " & ".join(f"c{i} knows whether {i}" for i in children)
    prefix = "[! (" + "|".join(str(i) for i in children) + ")] " + f"[! ({nobody})] " * (n - 2)
    return (
        f"VARS {','.join(str(i) for i in children)}\nLAW Top\nOBS {obs}\n"
        f"TRUE? {{{','.join(str(i) for i in children)}}} {prefix}({nobody})\n"
        f"VALID? {prefix}[! ({nobody})] ({'&'.join(str(i) for i in children)} -> ({everyone}))\n"
    )


def test_auto_answers_files_too_big_for_the_explicit_engine() -> None:
    text = many_children(25)
    assert json_answers("-", stdin=text) == [True, True]
    result = runner.invoke(app, ["logic", "check", "-", "--engine", "explicit"], input=text)
    assert isinstance(result.exception, SmcdelModelError)
    assert "too many for an explicit model" in str(result.exception)


def test_small_files_agree_on_the_muddy_story() -> None:
    text = many_children(6)
    assert json_answers("-", "-e", "explicit", stdin=text) == [True, True]
    assert json_answers("-", "-e", "symbolic", stdin=text) == [True, True]


def test_unknown_engine_is_an_input_error() -> None:
    result = runner.invoke(app, ["logic", "check", MUDDY, "--engine", "bdd"])
    assert isinstance(result.exception, InputError)
    assert str(result.exception) == "unknown engine 'bdd'; choose one of: auto, explicit, symbolic"


@pytest.mark.parametrize("engine", ["explicit", "symbolic"])
def test_eval_with_either_engine(engine: str) -> None:
    args = ["logic", "eval", "alice knows whether 1 | 2", "-f", MUDDY, "--engine", engine]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["valid: False", "where: [{1,2},{1,2,3},{2},{2,3}]"]
    at = runner.invoke(app, [*args[:5], "-s", "1", "-e", engine])
    assert at.output.strip() == "{1}: False"
    outside = runner.invoke(app, ["logic", "eval", "1", "-f", MUDDY, "-s", "1,9", "-e", engine])
    assert "variable 9 not in VARS" in str(outside.exception)


# --- puzzle muddy ---------------------------------------------------------------------------


def test_puzzle_muddy_prints_rounds_and_answer() -> None:
    result = runner.invoke(app, ["logic", "puzzle", "muddy", "--children", "5", "-m", "2,4"])
    assert result.exit_code == 0, result.output
    backend = backend_name()
    assert result.output.splitlines() == [
        f"5 children, muddy: 2, 4 (symbolic engine, {backend})",
        "round 1: father: at least one of you is muddy; 31 states left; nobody knows",
        "round 2: everyone: nobody knows; 26 states left; children 2, 4 know",
        "answer: after 2 announcements, children 2, 4 know they are muddy",
    ]


@pytest.mark.parametrize("muddy", ["1", "1,2,3", "2,3,5,6"])
def test_puzzle_muddy_engines_tell_the_same_story(muddy: str) -> None:
    def story(engine: str) -> list[str]:
        args = ["logic", "puzzle", "muddy", "-n", "6", "-m", muddy, "-e", engine]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        return result.output.splitlines()[1:]

    assert story("symbolic") == story("explicit")
    assert len(story("symbolic")) == muddy.count(",") + 2


def test_puzzle_muddy_at_scale() -> None:
    result = runner.invoke(app, ["logic", "puzzle", "muddy", "--children", "40"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("40 children, muddy: 1-40 (symbolic engine")
    assert (
        lines[1]
        == "round 1: father: at least one of you is muddy; 1.1e+12 states left; nobody knows"
    )
    assert lines[40] == "round 40: everyone: nobody knows; 1 state left; children 1-40 know"
    assert lines[41] == "answer: after 40 announcements, children 1-40 know they are muddy"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "4", "-m", "0,x"], "bad list of muddy children '0,x'; expected numbers 1..4"),
        (["-n", "4", "-m", "7"], "muddy children [7] are not children 1..4"),
        (["-n", "4", "-m", ""], "nobody is muddy"),
        (["-n", "30", "-e", "explicit"], "at most 20 children (2^n worlds), got 30"),
        (["-e", "bdd"], "unknown engine 'bdd'; choose one of: symbolic, explicit"),
    ],
)
def test_puzzle_muddy_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["logic", "puzzle", "muddy", *args])
    assert isinstance(result.exception, InputError), result.output
    assert message in str(result.exception)


@pytest.mark.parametrize(("children", "bound"), [("0", "greater"), ("301", "less")])
def test_puzzle_muddy_children_out_of_range(children: str, bound: str) -> None:
    result = runner.invoke(app, ["logic", "puzzle", "muddy", "--children", children])
    assert result.exit_code == 2
    text = " ".join(result.output.replace("│", " ").split())
    assert "Invalid value for '--children'" in text
    assert f"should be {bound} than or equal to" in text


def test_puzzle_cheryl() -> None:
    result = runner.invoke(app, ["logic", "puzzle", "cheryl"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Cheryl's birthday: 10 possibilities"
    assert [line.rsplit("; ", 1)[1] for line in lines[1:4]] == ["5 left", "3 left", "1 left"]
    assert lines[-1] == "answer: July 16"


def test_puzzle_sum_and_product() -> None:
    result = runner.invoke(app, ["logic", "puzzle", "sum-and-product"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Sum and Product, x + y <= 100: 2,352 possibilities"
    assert lines[1] == '1. P: "I don\'t know the numbers"; 1,747 left'
    assert lines[-1] == "answer: x = 4, y = 13"
    small = runner.invoke(app, ["logic", "puzzle", "sum-and-product", "--limit", "10"])
    assert small.output.splitlines()[-1] == "answer: none; no possibility survives every statement"
    bad = runner.invoke(app, ["logic", "puzzle", "sum-and-product", "--limit", "4"])
    assert bad.exit_code == 2


def test_puzzle_drinking() -> None:
    result = runner.invoke(app, ["logic", "puzzle", "drinking", "-n", "5", "-t", "1,2,4,5"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "5 logicians, thirsty: 1, 2, 4, 5",
        'bartender: "Does everyone want a beer?"',
        'logician 1: "I don\'t know"; 16 states left',
        'logician 2: "I don\'t know"; 8 states left',
        'logician 3: "no"; 4 states left',
        "answer: no",
    ]
    default = runner.invoke(app, ["logic", "puzzle", "drinking"])
    assert default.output.splitlines()[-2:] == ['logician 3: "yes"; 1 state left', "answer: yes"]
    bad = runner.invoke(app, ["logic", "puzzle", "drinking", "-t", "x"])
    assert isinstance(bad.exception, InputError)
    assert "bad list of thirsty logicians 'x'" in str(bad.exception)


def test_puzzle_russian() -> None:
    result = runner.invoke(app, ["logic", "puzzle", "russian"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Russian cards: 140 deals; actual: Anne 012, Bob 345, Cath 6"
    assert lines[1].endswith("; 28 deals left")
    assert lines[2:5] == [
        "informative (Bob then knows Anne's hand, everywhere): yes",
        "safe (Cath learns no card she does not hold): yes",
        "common knowledge of both: yes",
    ]
    assert lines[-2:] == ['bob: "Cath holds 6"; 4 deals left', "answer: a good announcement"]
    unsafe = runner.invoke(app, ["logic", "puzzle", "russian", "--hands", "012,345"])
    assert "safe (Cath learns no card she does not hold): no" in unsafe.output
    assert unsafe.output.splitlines()[-1] == "answer: not a good announcement"
    # Card 0 in every hand named: Cath cannot hold it, and Bob still answers.
    shared = runner.invoke(app, ["logic", "puzzle", "russian", "--hands", "012,034"])
    assert shared.exit_code == 0, shared.output
    assert shared.output.splitlines()[-2:] == [
        'bob: "Cath holds 6"; 2 deals left',
        "answer: not a good announcement",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "0x"], "bad --hands '0x'; expected hands of cards 0..6"),
        (["--deal", "012,345"], "expected three hands"),
        (["--hands", "034,056"], "false at every designated world"),
        (["--deal", "012,013,6"], "is not a deal of cards 0..6"),
    ],
)
def test_puzzle_russian_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["logic", "puzzle", "russian", *args])
    assert isinstance(result.exception, InputError), result.output
    assert message in str(result.exception)


def test_puzzle_dining() -> None:
    result = runner.invoke(
        app, ["logic", "puzzle", "dining", "-n", "4", "-p", "0", "--coins", "0110"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "4 cryptographers; the NSA paid",
        'cryptographer 1: "same"',
        'cryptographer 2: "different"',
        'cryptographer 3: "same"',
        'cryptographer 4: "different"',
        "2 states left",
        "everyone knows whether one of them paid: yes",
        "answer: the NSA paid",
    ]
    paid = runner.invoke(app, ["logic", "puzzle", "dining", "-n", "5", "-p", "3"])
    assert paid.output.splitlines()[-1] == "answer: one of them paid; the payer stays anonymous"
    for args, message in [
        (["--coins", "01"], "bad --coins '01'; expected 3 digits 0 or 1"),
        (["-n", "4", "-p", "7"], "--paid 7: there are only 4 cryptographers"),
    ]:
        bad = runner.invoke(app, ["logic", "puzzle", "dining", *args])
        assert isinstance(bad.exception, InputError), bad.output
        assert message in str(bad.exception)
