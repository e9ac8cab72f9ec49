#!/bin/sh
# Installs the Debian packages the project needs, only those that are missing.
# Off Debian it prints what to install and fails.
set -eu
# clang and libclang-rt-dev: the libFuzzer targets in fuzz/ (libFuzzer and the sanitizer
# runtimes for clang live in libclang-rt-*-dev on Debian)
PACKAGES="pkg-config libsqlite3-dev libncurses-dev libmicrohttpd-dev libjansson-dev libcriterion-dev tmux clang-format clang libclang-rt-dev"
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: not a Debian system; please install: C11 compiler, GNU make, pkg-config," >&2
    echo "      SQLite 3, ncursesw, GNU libmicrohttpd, jansson and Criterion (development files), tmux," >&2
    echo "      clang with libFuzzer (for make fuzz)" >&2
    exit 1
fi
missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
