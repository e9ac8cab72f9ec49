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
    /* 5 -> 6: accounts (store/accounts.h, docs/accounts.md): a player's name as shown and its
     * key (case-folded and NFKC-normalised, unique), the Argon2id hash of the password (libsodium's
     * string, never the password); sessions by the SHA-256 of their random token, with expiry;
     * the games that follow an account (color 0: a game of the browser's own, 1 or 2: the
     * colour the account played in an online game); Glicko-2 ratings per rule and time-control
     * class, with one history row per rated game; a room's rated flag and each seat's account
     * (0: a guest). */
    "CREATE TABLE accounts (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL,\n"
    "  name_key TEXT NOT NULL UNIQUE,\n"
    "  pw_hash TEXT NOT NULL,\n"
    "  created_at INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE sessions (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  token_hash BLOB NOT NULL UNIQUE,\n"
    "  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,\n"
    "  created_at INTEGER NOT NULL,\n"
    "  seen_at INTEGER NOT NULL,\n"
    "  expires_at INTEGER NOT NULL,\n"
    "  agent TEXT NOT NULL DEFAULT ''\n"
    ");\n"
    "CREATE INDEX sessions_account ON sessions (account_id);\n"
    "CREATE TABLE account_games (\n"
    "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,\n"
    "  color INTEGER NOT NULL,\n"
    "  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,\n"
    "  PRIMARY KEY (game_id, color)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX account_games_account ON account_games (account_id, game_id);\n"
    "CREATE TABLE ratings (\n"
    "  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,\n"
    "  rule INTEGER NOT NULL,\n"
    "  tc INTEGER NOT NULL,\n"
    "  rating REAL NOT NULL,\n"
    "  deviation REAL NOT NULL,\n"
    "  volatility REAL NOT NULL,\n"
    "  games INTEGER NOT NULL DEFAULT 0,\n"
    "  wins INTEGER NOT NULL DEFAULT 0,\n"
    "  losses INTEGER NOT NULL DEFAULT 0,\n"
    "  draws INTEGER NOT NULL DEFAULT 0,\n"
    "  updated_at INTEGER NOT NULL,\n"
    "  PRIMARY KEY (account_id, rule, tc)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX ratings_board ON ratings (rule, tc, rating);\n"
    "CREATE TABLE rating_history (\n"
    "  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,\n"
    "  rule INTEGER NOT NULL,\n"
    "  tc INTEGER NOT NULL,\n"
    "  game_id INTEGER NOT NULL,\n"
    "  at INTEGER NOT NULL,\n"
    "  rating REAL NOT NULL,\n"
    "  deviation REAL NOT NULL,\n"
    "  PRIMARY KEY (account_id, rule, tc, game_id)\n"
    ") WITHOUT ROWID;\n"
    "ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE room_seats ADD COLUMN account_id INTEGER NOT NULL DEFAULT 0;\n",
    /* 6 -> 7: chat in rooms (game/room.h, docs/rooms.md "Chat"): a chat line is an event of
     * the room's log (kind 14) with its text and who is sent it (audience: 0 everyone, 1 the
     * players, 2 the spectators, 3 seat 0, 4 seat 1); rooms.muted has bit i set when seat i
     * has muted the other's chat. */
    "ALTER TABLE room_events ADD COLUMN audience INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE room_events ADD COLUMN text TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE rooms ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;\n",
    /* 7 -> 8: the lobby's seeks (store/lobby.h, docs/lobby.md): an open seek or a quick-pairing
     * entry (kind 0, 1), open or taken (state 0, 1), who posted it (a 16-byte digest of the
     * poster's identity) from which client address, the settings of the game, and the room it
     * opens (its code, the SHA-256 of the poster's seat token). Times are Unix ms. */
    "CREATE TABLE lobby_seeks (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  kind INTEGER NOT NULL,\n"
    "  state INTEGER NOT NULL DEFAULT 0,\n"
    "  poster BLOB NOT NULL,\n"
    "  client BLOB NOT NULL,\n"
    "  name TEXT NOT NULL,\n"
    "  account_id INTEGER NOT NULL DEFAULT 0,\n"
    "  rating INTEGER NOT NULL,\n"
    "  rule INTEGER NOT NULL,\n"
    "  size INTEGER NOT NULL,\n"
    "  clock_ms INTEGER NOT NULL,\n"
    "  increment_ms INTEGER NOT NULL,\n"
    "  rated INTEGER NOT NULL,\n"
    "  color INTEGER NOT NULL,\n"
    "  code TEXT NOT NULL,\n"
    "  token_sha256 BLOB NOT NULL,\n"
    "  created_ms INTEGER NOT NULL,\n"
    "  expires_ms INTEGER NOT NULL\n"
    ");\n"
    "CREATE INDEX lobby_seeks_client ON lobby_seeks (client, state);\n"
    "CREATE INDEX lobby_seeks_poster ON lobby_seeks (poster, state);\n",
    /* 8 -> 9: opening rules in rooms (game/room.h, docs/rooms.md "Opening rules"): the rule
     * (0 free, 1 swap, 2 swap2) and, during a game's swap opening, its step (0 settled, 1 place
     * three, 2 choose, 3 place two, 4 choose at five), the proposing seat, and the stones on the
     * board when the colours were settled. A choice is an event of kind 16 (count: 0 black, 1
     * white, 2 place two more; color: seat 0's colour afterwards, as for kind 3). */
    "ALTER TABLE rooms ADD COLUMN opening INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE rooms ADD COLUMN swap_phase INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE rooms ADD COLUMN swap_first INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE rooms ADD COLUMN swap_settled INTEGER NOT NULL DEFAULT 0;\n",
    /* 9 -> 10: the lobby's chat (store/lobby_chat.h, docs/lobby.md "Chat"): each line with when
     * it was said (Unix ms), who said it (the 16-byte digest of the lobby's player, its account
     * or 0 for a guest), the name shown and the text. Only the last lines are kept: each line
     * added deletes the older ones (gmk_store_lobby_chat_add). */
    "CREATE TABLE lobby_chat (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  at_ms INTEGER NOT NULL,\n"
    "  sender BLOB NOT NULL,\n"
    "  account_id INTEGER NOT NULL DEFAULT 0,\n"
    "  name TEXT NOT NULL,\n"
    "  text TEXT NOT NULL\n"
    ");\n",
};
