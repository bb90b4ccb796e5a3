"""Reading an SMCDEL file: VARS, LAW, OBS and the jobs, around its formulas."""

from __future__ import annotations

import re

from epigames.logic.smcdel.dialect import BREAK, SmcdelFormulaParser
from epigames.logic.smcdel.jobs import Job, JobKind, State
from epigames.logic.smcdel.structure import SmcdelInput
from epigames.logic.syntax import Token

__all__ = ["parse_smcdel"]

_JOBS = ("TRUE?", "VALID?", "WHERE?")
_STRUCTURE = {"VARS", "LAW", "OBS", *_JOBS}


class _FileParser(SmcdelFormulaParser):
    """The file's structure; the formulas in it are SMCDEL's dialect (the base class)."""

    def check_input(self) -> SmcdelInput:
        vars_tok = self.expect("VARS", "'VARS' (a file starts with VARS, LAW and OBS)")
        if self.tok.kind != "int":
            if self.at("LAW"):
                raise self.model_error("VARS declares no variable", self.tok)
            raise self.fail("a variable (a number)")
        variables = self.int_list(declare=True)
        self.variables = frozenset(variables)
        self.expect("LAW", "',' or 'LAW'")
        law_tok = self.tok
        self.boolean_only = True
        law = self.checked(self.formula(), law_tok.pos)
        self.boolean_only = False
        self.expect("OBS", "an operator or 'OBS'")
        observations: dict[str, tuple[int, ...]] = {}
        while self.tok.kind == "ident":
            name = self.advance()
            if name.raw in observations:
                raise self.model_error(f"agent {name.raw!r} is named twice in OBS", name)
            self.expect(":", f"':' after the agent name {name.raw!r}")
            observed = self.int_list() if self.tok.kind == "int" else []
            observations[name.raw] = tuple(dict.fromkeys(observed))
        self.agents = tuple(observations)
        jobs: list[Job] = []
        while self.tok.kind != "eof":
            jobs.append(self.job())
        line, col = self.where(law_tok)
        return SmcdelInput(
            tuple(variables), law, observations, tuple(jobs), self.text, (line, col),
            self.where(vars_tok),
        )  # fmt: skip

    def job(self) -> Job:
        t = self.tok
        if not (t.kind == "op" and t.value in _JOBS):
            raise self.fail("an operator or a job (TRUE?, VALID?, WHERE?)")
        self.advance()
        line, col = self.where(t)
        state: State | None = None
        sline = scol = 0
        kind: JobKind = "VALID?" if t.value == "VALID?" else "WHERE?"
        if t.value == "TRUE?":
            kind = "TRUE?"
            brace = self.expect("{", "'{' and the state's true variables, e.g. {1,2}")
            sline, scol = self.where(brace)
            values = [] if self.at("}") else self.int_list()
            self.expect("}", "',' or '}'")
            state = tuple(sorted(set(values)))
        start = self.tok
        if start.kind == "eof" or (start.kind == "op" and start.value in _STRUCTURE):
            raise self.fail("a formula")
        formula = self.checked(self.formula(), start.pos)
        return Job(kind, formula, self.source_text(start), line, col, state, sline, scol)

    def source_text(self, start: Token) -> str:
        """The source from `start` to the last token read, comments and extra space removed."""
        raw = self.text[start.pos : self.tokens[self.i - 1].end]
        return " ".join(re.sub(f"--[^{BREAK}]*", " ", raw).split())


def parse_smcdel(text: str) -> SmcdelInput:
    """Read an SMCDEL input file: VARS, LAW, OBS and the jobs.

    Raises:
        FormulaSyntaxError: the text does not parse (line, column, caret, what was expected),
            or a formula nests deeper than `epigames.logic.syntax.MAX_DEPTH` levels.
        SmcdelModelError: an empty or repeated VARS entry, an undeclared variable, an agent
            named twice in OBS, a LAW with a modality.
        SmcdelUnknownAgentError: a job names an agent that OBS does not list.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_smcdel() takes a string, got {type(text).__name__}")
    return _FileParser(text).check_input()
