#!/bin/sh
# Installs what the project needs, only what is missing: Debian packages with apt-get (the C
# libraries, the sqlite3 shell for the API tests, the PostgreSQL server and nginx that the
# scale-out tests start privately (tests/pg/), tmux, clang-format, chromium (and a CJK font
# for its Chinese screenshots) for the browser
# tests, and Node.js with npm when no node is on the PATH), then the browser tests' npm
# packages (`npm ci` from the committed lock file in tests/browser/). Off Debian it prints what to install and fails.
set -eu
cd "$(dirname "$0")/.."
PACKAGES="pkg-config libsqlite3-dev sqlite3 libpq-dev postgresql nginx-light libncurses-dev libmicrohttpd-dev libsodium-dev libunistring-dev libjansson-dev libcriterion-dev tmux clang-format chromium fonts-wqy-microhei clang libclang-rt-dev"
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: not a Debian system; please install: C11 compiler, GNU make, pkg-config," >&2
    echo "      SQLite 3 (and its shell), libpq, the PostgreSQL server, nginx, ncursesw, GNU libmicrohttpd, libsodium, libunistring, jansson and Criterion (development files), tmux," >&2
    echo "      chromium and Node.js with npm (then run npm ci in tests/browser)," >&2
    echo "      clang with libFuzzer (for make fuzz)" >&2
    exit 1
fi
missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
    echo "deps: installing:$missing"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
# The browser tests' packages (playwright-core, typescript), pinned by the lock file.
if [ ! -f tests/browser/node_modules/.package-lock.json ] ||
    [ tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ]; then
    echo "deps: npm ci in tests/browser"
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
