/* schema.c: the migrations. Never edit a released step; add a new one and raise
 * GMK_STORE_SCHEMA_VERSION. */
#include "store/schema.h"

const char *const store_migrations[GMK_STORE_SCHEMA_VERSION] = {
    /* 0 -> 1: games and their moves. outcome NULL = unfinished, 0 = abandoned,
     * 1 black wins, 2 white wins, 3 draw (gmk_outcome). */
    "CREATE TABLE games (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  mode INTEGER NOT NULL,\n"
    "  rule INTEGER NOT NULL,\n"
    "  size INTEGER NOT NULL,\n"
    "  level INTEGER NOT NULL DEFAULT 0,\n"
    "  black TEXT NOT NULL DEFAULT '',\n"
    "  white TEXT NOT NULL DEFAULT '',\n"
    "  human INTEGER NOT NULL DEFAULT 0,\n"
    "  started_at INTEGER NOT NULL,\n"
    "  outcome INTEGER,\n"
    "  reason INTEGER\n"
    ");\n"
    "CREATE TABLE moves (\n"
    "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,\n"
    "  ply INTEGER NOT NULL,\n"
    "  x INTEGER NOT NULL,\n"
    "  y INTEGER NOT NULL,\n"
    "  PRIMARY KEY (game_id, ply)\n"
    ") WITHOUT ROWID;\n",

    /* 1 -> 2: when a game ended and how long each move took; settings; an index to find the
     * unfinished game. Games of version 1 keep ended_at NULL (unknown) and time_ms 0. */
    "ALTER TABLE games ADD COLUMN ended_at INTEGER;\n"
    "ALTER TABLE moves ADD COLUMN time_ms INTEGER NOT NULL DEFAULT 0;\n"
    "CREATE TABLE settings (\n"
    "  key TEXT PRIMARY KEY,\n"
    "  value TEXT NOT NULL\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX games_unfinished ON games (id) WHERE outcome IS NULL;\n",

    /* 2 -> 3: games started in the web page (gomoku serve) and the browser that owns each:
     * the SHA-256 of its secret token, never the token. The terminal game does not offer
     * these games for resuming. */
    "CREATE TABLE web_owners (\n"
    "  game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,\n"
    "  token_hash BLOB NOT NULL\n"
    ");\n",
};
