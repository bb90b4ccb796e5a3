"""The reports' experiments, and `experiment(name)` to find one.

An `Experiment` (`base.py`) is one tournament with the numbers its report published:
`kwartet-2020` and `quartet-2023`, data in `experiments.toml`. A `Suite` is several
tournaments reported together, a module each: `blufpoker_2020`, `klaverjas_2017`,
`kemps_tom`, `kemps_teams`, `kemps_tom_teams`, `kemps_2023`. A `LearningExperiment`
trains learners instead (`rl_knowledge`). `epigames experiment NAME` runs any of them and
writes its Markdown report.
"""

from __future__ import annotations

from epigames.errors import UnknownNameError
from epigames.tournament.experiments import (
    blufpoker_2020,
    kemps_2023,
    kemps_teams,
    kemps_tom,
    kemps_tom_teams,
    klaverjas_2017,
    rl_knowledge,
)
from epigames.tournament.experiments.base import (
    Experiment,
    ExperimentDataError,
    ExperimentUnavailableError,
    Published,
    Suite,
    experiment_config,
    experiment_data,
    experiment_markdown,
    experiments_in,
    reading,
)
from epigames.tournament.experiments.rl_knowledge import LearningExperiment

EXPERIMENTS: dict[str, Experiment] = experiments_in(experiment_data())

SUITES: dict[str, Suite] = {
    s.name: s
    for s in (
        blufpoker_2020.SUITE,
        klaverjas_2017.SUITE,
        kemps_tom.SUITE,
        kemps_teams.SUITE,
        kemps_tom_teams.SUITE,
        kemps_2023.SUITE,
    )
}

LEARNING: dict[str, LearningExperiment] = {rl_knowledge.EXPERIMENT.name: rl_knowledge.EXPERIMENT}


def experiment(name: str) -> Experiment | Suite | LearningExperiment:
    """The experiment called `name`.

    Raises:
        UnknownNameError: no such experiment.
    """
    found = EXPERIMENTS.get(name) or SUITES.get(name) or LEARNING.get(name)
    if found is None:
        names = sorted([*EXPERIMENTS, *SUITES, *LEARNING])
        raise UnknownNameError(f"unknown experiment {name!r}; choose one of: {', '.join(names)}")
    return found


__all__ = [
    "EXPERIMENTS",
    "LEARNING",
    "SUITES",
    "Experiment",
    "ExperimentDataError",
    "ExperimentUnavailableError",
    "LearningExperiment",
    "Published",
    "Suite",
    "experiment",
    "experiment_config",
    "experiment_markdown",
    "reading",
]
