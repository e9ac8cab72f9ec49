/* games.c: games as they are played (begin, moves, undo, finish), reading them back, and the
 * scoreboard, which is a query over the finished games (nothing to keep in step). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/store_internal.h"

/* The file holds these numbers; core must not renumber them. */
_Static_assert(GMK_EMPTY == 0 && GMK_BLACK == 1 && GMK_WHITE == 2, "colours as stored");
_Static_assert(GMK_ONGOING == 0 && GMK_BLACK_WINS == 1 && GMK_WHITE_WINS == 2 && GMK_DRAW == 3,
               "outcomes as stored");
_Static_assert(GMK_RULE_FREESTYLE == 0 && GMK_RULE_STANDARD == 1 && GMK_RULE_RENJU == 2 &&
                   GMK_RULE_CARO == 3,
               "rules as stored");
_Static_assert(GMK_REASON_NONE == 0 && GMK_REASON_FIVE == 1 && GMK_REASON_FORBIDDEN == 2 &&
                   GMK_REASON_RESIGN == 3 && GMK_REASON_TIME == 4 && GMK_REASON_FULL_BOARD == 5 &&
                   GMK_REASON_AGREEMENT == 6 && GMK_REASON_ABANDON == 7,
               "reasons as stored");
enum { REASON_LAST = GMK_REASON_ABANDON, LEVEL_MAX = 1000 };

static int64_t now_or(int64_t t) {
    return t ? t : (int64_t)time(NULL);
}

/* Copies a name, cut to fit at a UTF-8 character boundary. */
static void copy_name(char dst[GMK_STORE_NAME_MAX], const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n >= GMK_STORE_NAME_MAX) {
        n = GMK_STORE_NAME_MAX - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80) n--;
    }
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

gmk_store_status gmk_store_game_begin(gmk_store *s, const gmk_store_new_game *g, int64_t *id,
                                      char *err, size_t errlen) {
    const char *what = "cannot save the new game";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!g || !id) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no game", what);
    *id = 0;
    if ((unsigned)g->mode >= GMK_STORE_MODE_COUNT)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: unknown mode %d", what, g->mode);
    if ((unsigned)g->rule >= GMK_RULE_COUNT)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: unknown rule %d", what, g->rule);
    if (g->size < GMK_MIN_SIZE || g->size > GMK_MAX_SIZE)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: board size %d", what, g->size);
    if (g->level < 0 || g->level > LEVEL_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: level %d", what, g->level);
    gmk_color human = GMK_EMPTY;
    if (g->mode == GMK_STORE_MODE_HVC) {
        if (g->human != GMK_BLACK && g->human != GMK_WHITE)
            return store_fail(err, errlen, GMK_STORE_INVALID,
                              "%s: the human must play black or white", what);
        human = g->human;
    }
    int level = g->mode == GMK_STORE_MODE_HVH || g->mode == GMK_STORE_MODE_ONLINE ? 0 : g->level;
    char black[GMK_STORE_NAME_MAX], white[GMK_STORE_NAME_MAX];
    copy_name(black, g->black);
    copy_name(white, g->white);

    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT INTO games (mode, rule, size, level, black, white, human, "
                                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 1, (int)g->mode);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 2, (int)g->rule);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 3, g->size);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 4, level);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 5, black, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 6, white, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 7, (int)human);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 8, now_or(g->started_s));
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_DONE) {
        *id = sqlite3_last_insert_rowid(s->db);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    sqlite3_finalize(q);
    return st;
}

/* Inside a transaction: the board size of game id, whether it is unfinished and how many
 * moves it has. */
static gmk_store_status game_state(gmk_store *s, int64_t id, const char *what, int *size,
                                   bool *unfinished, int *moves, char *err, size_t errlen) {
    gmk_store_status st = GMK_STORE_OK;
    int rc;
    sqlite3_stmt *q = store_stmt(s,
                                 "SELECT size, outcome IS NULL, "
                                 "(SELECT count(*) FROM moves WHERE game_id = ?1) "
                                 "FROM games WHERE id = ?1",
                                 &rc);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *size = sqlite3_column_int(q, 0);
        *unfinished = sqlite3_column_int(q, 1) != 0;
        *moves = sqlite3_column_int(q, 2);
    } else if (rc == SQLITE_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                        (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}

/* Runs one statement with n integer parameters; returns an SQLite code. */
static int exec_ints(gmk_store *s, const char *sql, int n, const int64_t *v) {
    int rc;
    sqlite3_stmt *q = store_stmt(s, sql, &rc);
    for (int i = 0; i < n && rc == SQLITE_OK; i++) rc = sqlite3_bind_int64(q, i + 1, v[i]);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    store_stmt_release(s, q);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

gmk_store_status gmk_store_game_add_move(gmk_store *s, int64_t id, int ply, int x, int y,
                                         int64_t time_ms, char *err, size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot save move %d of game %lld", ply + 1, (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (time_ms < 0) time_ms = 0;
    int rc = store_begin(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    int size, moves;
    bool unfinished;
    st = game_state(s, id, what, &size, &unfinished, &moves, err, errlen);
    if (st == GMK_STORE_OK && !unfinished)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: the game is over", what);
    else if (st == GMK_STORE_OK && ply != moves)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: the game has %d moves", what, moves);
    else if (st == GMK_STORE_OK && !gmk_xy_on_board(x, y, size))
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: (%d, %d) is off the %dx%d board", what,
                        x, y, size, size);
    else if (st == GMK_STORE_OK && moves >= size * size)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: the board is full", what);
    if (st != GMK_STORE_OK) {
        store_rollback(s);
        return st;
    }
    const int64_t v[] = {id, ply, x, y, time_ms};
    rc = exec_ints(s, "INSERT INTO moves (game_id, ply, x, y, time_ms) VALUES (?, ?, ?, ?, ?)", 5,
                   v);
    if (rc == SQLITE_OK) rc = store_commit(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_game_undo_moves(gmk_store *s, int64_t id, int n, char *err,
                                           size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot take back moves of game %lld", (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (n < 0) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %d moves", what, n);
    int rc = store_begin(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    int size, moves;
    bool unfinished;
    st = game_state(s, id, what, &size, &unfinished, &moves, err, errlen);
    if (st == GMK_STORE_OK && !unfinished)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: the game is over", what);
    else if (st == GMK_STORE_OK && n > moves)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: %d asked, the game has %d", what, n,
                        moves);
    if (st != GMK_STORE_OK) {
        store_rollback(s);
        return st;
    }
    const int64_t v[] = {id, moves - n};
    rc = exec_ints(s, "DELETE FROM moves WHERE game_id = ? AND ply >= ?", 2, v);
    if (rc == SQLITE_OK) rc = store_commit(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

/* Finish (outcome 1..3) or abandon (outcome 0) an unfinished game. */
static gmk_store_status end_game(gmk_store *s, int64_t id, int outcome, int reason, int64_t ended_s,
                                 const char *what, char *err, size_t errlen) {
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc = store_begin(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    int size, moves;
    bool unfinished;
    st = game_state(s, id, what, &size, &unfinished, &moves, err, errlen);
    if (st == GMK_STORE_OK && !unfinished)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: the game is already over", what);
    if (st != GMK_STORE_OK) {
        store_rollback(s);
        return st;
    }
    const int64_t v[] = {outcome, reason, now_or(ended_s), id};
    rc = exec_ints(s, "UPDATE games SET outcome = ?, reason = ?, ended_at = ? WHERE id = ?", 4, v);
    if (rc == SQLITE_OK) rc = store_commit(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_game_finish(gmk_store *s, int64_t id, gmk_outcome outcome,
                                       gmk_reason reason, int64_t ended_s, char *err,
                                       size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot save the result of game %lld", (long long)id);
    if (outcome != GMK_BLACK_WINS && outcome != GMK_WHITE_WINS && outcome != GMK_DRAW)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: outcome %d is not a result", what,
                          (int)outcome);
    if ((unsigned)reason > REASON_LAST)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: unknown reason %d", what,
                          (int)reason);
    return end_game(s, id, outcome, reason, ended_s, what, err, errlen);
}

gmk_store_status gmk_store_game_abandon(gmk_store *s, int64_t id, int64_t ended_s, char *err,
                                        size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot set aside game %lld", (long long)id);
    return end_game(s, id, GMK_ONGOING, GMK_REASON_NONE, ended_s, what, err, errlen);
}

/* --- reading -------------------------------------------------------------------------- */

#define GAME_COLUMNS                                                                               \
    "id, mode, rule, size, level, black, white, human, started_at, ended_at, outcome, reason, "    \
    "(SELECT count(*) FROM moves WHERE game_id = games.id)"

/* Fills g from a row of GAME_COLUMNS; false when a value is out of range. */
static bool read_game(sqlite3_stmt *q, gmk_store_game *g) {
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(q, 0);
    int mode = sqlite3_column_int(q, 1), rule = sqlite3_column_int(q, 2);
    int human = sqlite3_column_int(q, 7);
    g->size = sqlite3_column_int(q, 3);
    g->level = sqlite3_column_int(q, 4);
    copy_name(g->black, (const char *)sqlite3_column_text(q, 5));
    copy_name(g->white, (const char *)sqlite3_column_text(q, 6));
    g->started_s = sqlite3_column_int64(q, 8);
    g->ended_s = sqlite3_column_int64(q, 9); /* NULL (unfinished, or unknown) reads as 0 */
    g->finished = sqlite3_column_type(q, 10) != SQLITE_NULL;
    int outcome = sqlite3_column_int(q, 10), reason = sqlite3_column_int(q, 11);
    g->move_count = sqlite3_column_int(q, 12);
    if (mode < 0 || mode >= GMK_STORE_MODE_COUNT || rule < 0 || rule >= GMK_RULE_COUNT ||
        g->size < GMK_MIN_SIZE || g->size > GMK_MAX_SIZE || human < 0 || human > GMK_WHITE ||
        outcome < 0 || outcome > GMK_DRAW || reason < 0 || reason > REASON_LAST ||
        g->move_count > g->size * g->size)
        return false;
    g->mode = (gmk_store_mode)mode;
    g->rule = (gmk_rule)rule;
    g->human = (gmk_color)human;
    if (g->finished) {
        g->outcome = (gmk_outcome)outcome;
        g->reason = (gmk_reason)reason;
        g->abandoned = outcome == GMK_ONGOING;
    }
    return true;
}

/* Loads game id (id 0: the most recent unfinished game) with its moves, in one read
 * transaction so that the game and its moves agree. */
static gmk_store_status load(gmk_store *s, int64_t id, gmk_store_record *out, const char *what,
                             char *err, size_t errlen) {
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!out) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: nowhere to put it", what);
    memset(&out->game, 0, sizeof out->game);
    int rc = store_read_begin(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    sqlite3_stmt *q = NULL;
    const char *sql = id ? "SELECT " GAME_COLUMNS " FROM games WHERE id = ?"
                         : "SELECT " GAME_COLUMNS " FROM games WHERE outcome IS NULL AND mode <> 3 "
                           "AND id NOT IN (SELECT game_id FROM web_owners) "
                           "ORDER BY id DESC LIMIT 1";
    rc = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL);
    if (rc == SQLITE_OK && id) rc = sqlite3_bind_int64(q, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        if (!read_game(q, &out->game))
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: game %lld is damaged (%s)", what,
                            (long long)sqlite3_column_int64(q, 0), s->path);
    } else if (rc == SQLITE_DONE) {
        st = id ? store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                             (long long)id)
                : store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no unfinished game");
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    sqlite3_finalize(q);
    q = NULL;
    if (st != GMK_STORE_OK) goto done;

    rc = sqlite3_prepare_v2(
        s->db, "SELECT ply, x, y, time_ms FROM moves WHERE game_id = ? ORDER BY ply", -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 1, out->game.id);
    int n = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        int ply = sqlite3_column_int(q, 0), x = sqlite3_column_int(q, 1);
        int y = sqlite3_column_int(q, 2);
        if (n >= out->game.move_count || ply != n || !gmk_xy_on_board(x, y, out->game.size)) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT,
                            "%s: move %d of game %lld is damaged (%s)", what, n + 1,
                            (long long)out->game.id, s->path);
            goto done;
        }
        out->moves[n].x = x;
        out->moves[n].y = y;
        out->moves[n].time_ms = sqlite3_column_int64(q, 3);
        n++;
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE) {
        st = store_sql_fail(s, rc, what, err, errlen);
    } else if (n != out->game.move_count) {
        st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: moves of game %lld are missing (%s)",
                        what, (long long)out->game.id, s->path);
    }
done:
    sqlite3_finalize(q);
    store_rollback(s); /* ends the read transaction */
    return st;
}

gmk_store_status gmk_store_game_find_unfinished(gmk_store *s, gmk_store_record *out, char *err,
                                                size_t errlen) {
    return load(s, 0, out, "cannot read the unfinished game", err, errlen);
}

gmk_store_status gmk_store_game_load(gmk_store *s, int64_t id, gmk_store_record *out, char *err,
                                     size_t errlen) {
    char what[64];
    snprintf(what, sizeof what, "cannot read game %lld", (long long)id);
    if (id <= 0)
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                          (long long)id);
    return load(s, id, out, what, err, errlen);
}

gmk_store_status gmk_store_game_list(gmk_store *s, gmk_store_game *out, int cap, int *count,
                                     char *err, size_t errlen) {
    const char *what = "cannot list the games";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for them", what);
    *count = 0;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(
        s->db, "SELECT " GAME_COLUMNS " FROM games ORDER BY id DESC LIMIT ?", -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 1, cap);
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (!read_game(q, &out[*count])) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: game %lld is damaged (%s)", what,
                            (long long)sqlite3_column_int64(q, 0), s->path);
            break;
        }
        ++*count;
        rc = SQLITE_OK;
    }
    if (st == GMK_STORE_OK && rc != SQLITE_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    sqlite3_finalize(q);
    return st;
}

gmk_store_status gmk_store_scoreboard(gmk_store *s, gmk_store_score *out, int cap, int *count,
                                      char *err, size_t errlen) {
    const char *what = "cannot read the scoreboard";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for it", what);
    *count = 0;
    /* outcome 1 black wins, 2 white wins, 3 draw; human 1 black, 2 white. */
    static const char sql[] =
        "SELECT mode, level, count(*), sum(outcome = 1), sum(outcome = 2), sum(outcome = 3), "
        "  sum(mode = 0 AND outcome = human), sum(mode = 0 AND outcome IN (1, 2) AND "
        "  outcome <> human) "
        "FROM games WHERE outcome IN (1, 2, 3) GROUP BY mode, level ORDER BY mode, level "
        "LIMIT ?";
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 1, cap);
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        gmk_store_score *r = &out[*count];
        int mode = sqlite3_column_int(q, 0);
        if (mode < 0 || mode >= GMK_STORE_MODE_COUNT) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: a game has unknown mode %d (%s)",
                            what, mode, s->path);
            break;
        }
        r->mode = (gmk_store_mode)mode;
        r->level = sqlite3_column_int(q, 1);
        r->games = sqlite3_column_int(q, 2);
        r->black_wins = sqlite3_column_int(q, 3);
        r->white_wins = sqlite3_column_int(q, 4);
        r->draws = sqlite3_column_int(q, 5);
        r->wins = sqlite3_column_int(q, 6);
        r->losses = sqlite3_column_int(q, 7);
        ++*count;
        rc = SQLITE_OK;
    }
    if (st == GMK_STORE_OK && rc != SQLITE_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    sqlite3_finalize(q);
    return st;
}
