#!/usr/bin/env bash
# Installs playwright-core, pinned in tests/web/package-lock.json, into DIR with npm ci, unless the
# same lock is installed there already. It drives Debian's /usr/bin/chromium and never downloads a
# browser of its own. Used by the browser tests and the web benchmarks.
# Usage: tests/web/install-playwright.sh DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$1"
mkdir -p "$work"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" ||
  [ ! -d "$work/node_modules/playwright-core" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
