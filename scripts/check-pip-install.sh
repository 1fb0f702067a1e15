#!/usr/bin/env bash
# Checks `pip install --no-build-isolation .` as docs/python.md gives it: a virtual environment that
# sees Debian's packages (Debian's pip refuses the system Python), the install (CMake builds the
# module; nothing is downloaded), then the module's tests against the installed module.
# Usage: scripts/check-pip-install.sh [BUILD_DIR]  (BUILD_DIR: a build with tools/mancala for the
# tests' command-line comparisons; default build/). Takes a few minutes: not part of test.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$venv"
(cd "$root" && "$venv/bin/pip" install --no-build-isolation --no-index .)
cd "$venv"  # not the checkout: the module must come from the environment
"$venv/bin/python" -c "import mancala; print('installed', mancala.__file__)"
MANCALA_BINARY="$build/tools/mancala" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$root/tests/python"
