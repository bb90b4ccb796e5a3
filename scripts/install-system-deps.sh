#!/usr/bin/env bash
# System packages the test suite needs: Debian's Chromium for the browser tests
# (Playwright drives it through executable_path; it never downloads a browser).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
