#!/usr/bin/env bash
# The browser tests, as CTest runs them: of the web board against a real `mancala serve`
# (board.test.mjs), or of the static board with no server (static.test.mjs) when its folder is
# given (the WebAssembly build's web-static); two CTest tests, so that they run side by side:
#   browser_test.sh MANCALA_BINARY WORK_DIR [STATIC_BOARD_DIR]
# Installs playwright-core into WORK_DIR (install-playwright.sh: it drives Debian's
# /usr/bin/chromium and never downloads a browser of its own), builds small Kalah and Oware tables
# (8 seeds) in WORK_DIR/db for the server, then runs the tests with node's test runner.
# MANCALA_SCREENSHOTS=DIR (from the caller's environment) saves the tests' screenshots there, for
# a person to open; CI's runs take none (a full-page one costs the browser 0.3-0.4 s of CPU).
# MANCALA_BROWSER_PART=K/N (CTest sets it) runs the K-th of N parts of board.test.mjs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
binary="$1"
work="$2"
static_board="${3:-}"
"$here/install-playwright.sh" "$work"
cp "$here/board.test.mjs" "$here/static.test.mjs" "$here/board-actions.mjs" "$work/"
cd "$work"
if [ -n "$static_board" ]; then
  tests=(static.test.mjs)
else
  tests=(board.test.mjs)
  for game in kalah oware; do
    "$binary" db build "$game" --max-seeds 8 --out "$work/db" --quiet >/dev/null
  done
fi
MANCALA_BINARY="$binary" MANCALA_WEB_DB="$work/db" MANCALA_SCREENSHOTS="${MANCALA_SCREENSHOTS:-}" \
  MANCALA_WEB_DIR="$here/../../tools/http/web" MANCALA_WEB_I18N="$here/../../tools/http/web/i18n" \
  MANCALA_WEB_STATIC="$static_board" \
  exec node --test --test-concurrency=1 --test-reporter=spec "${tests[@]}"
