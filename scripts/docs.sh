#!/usr/bin/env bash
# The documentation site (mkdocs.yml: the guides of docs/, the results, the API reference
# from the docstrings), with the `docs` extra installed (`pip install -e ".[all]"`).
#
#   bash scripts/docs.sh                  serve it at http://127.0.0.1:8001, rebuilt on every edit
#                                         (warnings are shown, not fatal, while you write)
#   bash scripts/docs.sh --build [DIR]    build it into DIR (default site/) in strict mode:
#                                         any warning (a broken link, a missing reference) fails
#
# Port 8001, so that it runs beside the web app (`epigames serve`, port 8000).
set -euo pipefail
cd "$(dirname "$0")/.."
# The theme prints a notice about its future on every build; it says nothing about ours.
export NO_MKDOCS_2_WARNING=1

if [[ "${1:-}" == "--build" ]]; then
  exec python3 -m mkdocs build --strict --site-dir "${2:-site}"
else
  exec python3 -m mkdocs serve --dev-addr 127.0.0.1:8001 "$@"
fi
