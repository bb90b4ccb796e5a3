"""Answering the jobs of an SMCDEL file, with the explicit or the symbolic engine."""

from __future__ import annotations

import numpy as np

from epigames.errors import ModelError
from epigames.logic.smcdel.engines import choose_engine, modal_quantifier
from epigames.logic.smcdel.errors import SmcdelModelError
from epigames.logic.smcdel.jobs import Job, JobResult, state_text
from epigames.logic.smcdel.structure import SmcdelInput, modal_quantifier_message

__all__ = ["run_jobs"]


def _outside_law(data: SmcdelInput, job: Job) -> SmcdelModelError:
    assert job.state is not None
    return SmcdelModelError(
        f"state {state_text(job.state)} does not satisfy the LAW, so it is not a "
        "state of this structure",
        data.source,
        job.state_line,
        job.state_column,
    )


def run_jobs(data: SmcdelInput, engine: str = "explicit") -> list[JobResult]:
    """Answer every job of the input, in file order.

    Args:
        data: the parsed file.
        engine: `explicit` (a Kripke model, at most `MAX_VARIABLES` variables),
            `symbolic` (BDDs, any number) or `auto` (by size, see `choose_engine`).

    Raises:
        SmcdelModelError: the LAW holds nowhere, or a TRUE? state does not satisfy it, or
            (explicit) there are too many variables or a quantifier over a modality.
        SymbolicUnavailableError: the symbolic engine without the package `dd`.
        InputError: an unknown engine.
    """
    modal = [(job, q) for job in data.jobs if (q := modal_quantifier(job.formula)) is not None]
    if choose_engine(len(data.variables), engine, modal_quantifiers=bool(modal)) == "symbolic":
        return _run_symbolic(data)
    if modal:
        job, q = modal[0]
        raise SmcdelModelError(modal_quantifier_message(q), data.source, job.line, job.column)
    model, states = data.explicit()
    results: list[JobResult] = []
    for job in data.jobs:
        truth = model.truth_set(job.formula)
        answer: bool | list[frozenset[int]]
        if job.kind == "TRUE?":
            assert job.state is not None
            index = data.state_index(job.state)
            if index is None:
                raise _outside_law(data, job)
            answer = bool(truth[index])
        elif job.kind == "VALID?":
            answer = bool(truth.all())
        else:
            answer = [frozenset(states[i]) for i in np.flatnonzero(truth)]
        results.append(JobResult(job.kind, job.line, job.text, job.formula, job.state, answer))
    return results


def _run_symbolic(data: SmcdelInput) -> list[JobResult]:
    structure = data.structure()
    results: list[JobResult] = []
    for job in data.jobs:
        answer: bool | list[frozenset[int]]
        if job.kind == "TRUE?":
            assert job.state is not None
            try:
                answer = structure.holds(job.formula, [str(v) for v in job.state])
            except ModelError:
                raise _outside_law(data, job) from None
        elif job.kind == "VALID?":
            answer = structure.valid(job.formula)
        else:
            answer = [frozenset(int(v) for v in s) for s in structure.where(job.formula)]
        results.append(JobResult(job.kind, job.line, job.text, job.formula, job.state, answer))
    return results
