"""Settings for the whole suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests draw the same examples on every run and have no time limit per example:
# a run on a loaded 2-core CI machine must not fail where a quiet one passes.
settings.register_profile("epigames", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("epigames")
