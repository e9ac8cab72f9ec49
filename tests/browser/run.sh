#!/bin/sh
# The browser tests of the web game: type-checks web/*.js (tsc --checkJs, JSDoc types), then
# drives Debian's chromium (headless, Playwright) against the real `$GMK_BIN serve` on a free
# loopback port (test.mjs: the game; online.mjs: the online room page; people.mjs: accounts,
# ratings and players' pages). Screenshots go to
# build/screenshots/. Installs what is missing (chromium, node, the npm packages of the lock
# file) through scripts/deps.sh.
set -u
cd "$(dirname "$0")" || exit 1
if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "browser: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
if [ ! -x /usr/bin/chromium ] || ! command -v node >/dev/null 2>&1 ||
    [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    sh ../../scripts/deps.sh || exit 1
fi
echo "browser: tsc --noEmit --checkJs web/*.js"
timeout 300 node_modules/.bin/tsc -p tsconfig.json || { echo "browser: 0 passed, 1 failed (type check)"; exit 1; }
rc=0
timeout 600 node test.mjs "$(dirname "$GMK_BIN")/screenshots" || rc=1
timeout 300 node online.mjs "$(dirname "$GMK_BIN")/screenshots" || rc=1
timeout 300 node lobby.mjs "$(dirname "$GMK_BIN")/screenshots" || rc=1
timeout 300 node teach.mjs "$(dirname "$GMK_BIN")/screenshots" || rc=1
timeout 300 node people.mjs "$(dirname "$GMK_BIN")/screenshots" || rc=1
exit $rc
