#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run all checks:
# ruff, mypy (strict on src/), and the whole pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh
python3 -m pip install --quiet --disable-pip-version-check -e ".[all,dev]"

python3 -m ruff check src tests benchmarks
python3 -m mypy
lint-imports --no-cache
# pytest exits 5 when it collects nothing; with `set -e` that fails the run, as it should.
# One worker per core (pytest-xdist): the tests are independent processes' work, and the
# suite takes about half the time on two cores. `-n 0` as an argument runs them in one.
# The slowest tests are listed at the end, to keep the suite well under 20 minutes.
python3 -m pytest -n auto --durations=30 "$@"
