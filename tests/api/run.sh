#!/bin/sh
# API tests of gomoku serve (docs/http-api.md): node's built-in test runner drives the real
# server ($GMK_BIN serve) on free loopback ports; see api.test.mjs.
set -u
cd "$(dirname "$0")" || exit 1
if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "api: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
if ! command -v node >/dev/null 2>&1; then
    sh ../../scripts/deps.sh || exit 1
fi
timeout 600 node --test --test-force-exit --test-reporter=spec --test-concurrency=1 api.test.mjs rooms.test.mjs accounts.test.mjs ratings.test.mjs chat.test.mjs opening.test.mjs lobby.test.mjs lobby_chat.test.mjs review.test.mjs puzzle.test.mjs harden.test.mjs
