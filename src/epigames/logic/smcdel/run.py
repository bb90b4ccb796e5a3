"""Answering the jobs of an SMCDEL file on its explicit model."""

from __future__ import annotations

import numpy as np

from epigames.logic.smcdel.errors import SmcdelModelError
from epigames.logic.smcdel.jobs import JobResult, state_text
from epigames.logic.smcdel.structure import SmcdelInput

__all__ = ["run_jobs"]


def run_jobs(data: SmcdelInput) -> list[JobResult]:
    """Answer every job of the input, in file order.

    Raises:
        SmcdelModelError: the LAW holds nowhere, or a TRUE? state does not satisfy it.
    """
    model, states = data.explicit()
    results: list[JobResult] = []
    for job in data.jobs:
        truth = model.truth_set(job.formula)
        answer: bool | list[frozenset[int]]
        if job.kind == "TRUE?":
            assert job.state is not None
            index = data.state_index(job.state)
            if index is None:
                raise SmcdelModelError(
                    f"state {state_text(job.state)} does not satisfy the LAW, so it is not a "
                    "state of this structure",
                    data.source,
                    job.state_line,
                    job.state_column,
                )
            answer = bool(truth[index])
        elif job.kind == "VALID?":
            answer = bool(truth.all())
        else:
            answer = [frozenset(states[i]) for i in np.flatnonzero(truth)]
        results.append(JobResult(job.kind, job.line, job.text, job.formula, job.state, answer))
    return results
