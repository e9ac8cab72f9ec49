#!/bin/sh
# Runs every test against the build in $1 (default: build).
set -u
OUT=${1:-build}
status=0
"$OUT/unit-tests" --jobs 2 || status=1
exit $status
