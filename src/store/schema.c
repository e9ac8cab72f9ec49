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
    /* 3 -> 4: online rooms (game/room.h, store/rooms.h, docs/rooms.md): a room with its
     * clocks and pending offers, its two seats (only the SHA-256 of each seat token), and its
     * ordered event log, which another process can read by (room_id, seq). Times are Unix
     * milliseconds. Colours, outcomes and reasons are numbered as in games; event kinds as
     * gmk_room_event_kind. */
    "CREATE TABLE rooms (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  code TEXT NOT NULL UNIQUE,\n"
    "  rule INTEGER NOT NULL,\n"
    "  size INTEGER NOT NULL,\n"
    "  clock_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  increment_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  created_ms INTEGER NOT NULL,\n"
    "  touched_ms INTEGER NOT NULL,\n"
    "  phase INTEGER NOT NULL DEFAULT 0,\n"
    "  game_id INTEGER NOT NULL DEFAULT 0,\n"
    "  game_no INTEGER NOT NULL DEFAULT 0,\n"
    "  black_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  white_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  turn_start_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  draw_by INTEGER NOT NULL DEFAULT 0,\n"
    "  undo_by INTEGER NOT NULL DEFAULT 0,\n"
    "  rematch_by INTEGER NOT NULL DEFAULT 0,\n"
    "  outcome INTEGER NOT NULL DEFAULT 0,\n"
    "  reason INTEGER NOT NULL DEFAULT 0,\n"
    "  last_seq INTEGER NOT NULL DEFAULT 0\n"
    ");\n"
    "CREATE INDEX rooms_touched ON rooms (touched_ms);\n"
    "CREATE TABLE room_seats (\n"
    "  room_id INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,\n"
    "  seat INTEGER NOT NULL,\n"
    "  token_sha256 BLOB NOT NULL,\n"
    "  name TEXT NOT NULL,\n"
    "  color INTEGER NOT NULL,\n"
    "  PRIMARY KEY (room_id, seat)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE room_events (\n"
    "  room_id INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,\n"
    "  seq INTEGER NOT NULL,\n"
    "  at_ms INTEGER NOT NULL,\n"
    "  kind INTEGER NOT NULL,\n"
    "  seat INTEGER NOT NULL DEFAULT -1,\n"
    "  color INTEGER NOT NULL DEFAULT 0,\n"
    "  x INTEGER NOT NULL DEFAULT -1,\n"
    "  y INTEGER NOT NULL DEFAULT -1,\n"
    "  ply INTEGER NOT NULL DEFAULT 0,\n"
    "  outcome INTEGER NOT NULL DEFAULT 0,\n"
    "  reason INTEGER NOT NULL DEFAULT 0,\n"
    "  count INTEGER NOT NULL DEFAULT 0,\n"
    "  black_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  white_ms INTEGER NOT NULL DEFAULT 0,\n"
    "  game_id INTEGER NOT NULL DEFAULT 0,\n"
    "  name TEXT NOT NULL DEFAULT '',\n"
    "  PRIMARY KEY (room_id, seq)\n"
    ") WITHOUT ROWID;\n",
    /* 4 -> 5: reviews of games (game/review.h, store/reviews.h): the engine's search of every
     * position, kept so that a game is reviewed once for a given move count and node budget
     * (data is game/review.c's own JSON; labels are derived from it when read); and the
     * puzzle players' Glicko-2 ratings (game/puzzle.h), by player key ("local" for the
     * terminal, the hex SHA-256 of a browser's owner token for the web). */
    "CREATE TABLE reviews (\n"
    "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,\n"
    "  moves INTEGER NOT NULL,\n"
    "  nodes INTEGER NOT NULL,\n"
    "  made_at INTEGER NOT NULL,\n"
    "  data TEXT NOT NULL,\n"
    "  PRIMARY KEY (game_id, moves, nodes)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE puzzle_players (\n"
    "  player TEXT PRIMARY KEY,\n"
    "  rating REAL NOT NULL,\n"
    "  deviation REAL NOT NULL,\n"
    "  volatility REAL NOT NULL,\n"
    "  streak INTEGER NOT NULL DEFAULT 0,\n"
    "  best_streak INTEGER NOT NULL DEFAULT 0,\n"
    "  solved INTEGER NOT NULL DEFAULT 0,\n"
    "  failed INTEGER NOT NULL DEFAULT 0,\n"
    "  updated_at INTEGER NOT NULL\n"
    ") WITHOUT ROWID;\n",
};
