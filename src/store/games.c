/* games.c: games as they are played (begin, moves, undo, finish), reading them back, and the
 * scoreboard, which is a query over the finished games (nothing to keep in step). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/accounts.h"
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
                   GMK_REASON_AGREEMENT == 6 && GMK_REASON_ABANDON == 7 &&
                   GMK_REASON_NO_LEGAL_POINT == 8,
               "reasons as stored");
enum { REASON_LAST = GMK_REASON_NO_LEGAL_POINT, LEVEL_MAX = 1000 };

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

    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s,
                            "INSERT INTO games (mode, rule, size, level, black, white, human, "
                            "started_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, (int)g->mode);
    if (rc == DB_OK) rc = q_int64(q, 2, (int)g->rule);
    if (rc == DB_OK) rc = q_int64(q, 3, g->size);
    if (rc == DB_OK) rc = q_int64(q, 4, level);
    if (rc == DB_OK) rc = q_text(q, 5, black, strlen(black));
    if (rc == DB_OK) rc = q_text(q, 6, white, strlen(white));
    if (rc == DB_OK) rc = q_int64(q, 7, (int)human);
    if (rc == DB_OK) rc = q_int64(q, 8, now_or(g->started_s));
    if (rc == DB_OK) rc = q_step(q);
    int64_t new_id = rc == DB_ROW ? q_col64(q, 0) : 0;
    if (rc == DB_ROW) rc = q_step(q); /* to the end of the statement */
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_DONE && rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    *id = new_id;
    return st;
}

/* Inside a transaction: the board size of game id, whether it is unfinished and how many
 * moves it has. */
static gmk_store_status game_state(gmk_store *s, int64_t id, const char *what, int *size,
                                   bool *unfinished, int *moves, char *err, size_t errlen) {
    gmk_store_status st = GMK_STORE_OK;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT size, CASE WHEN outcome IS NULL THEN 1 ELSE 0 END, "
                            "(SELECT count(*) FROM moves WHERE game_id = ?1) "
                            "FROM games WHERE id = ?1",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        *size = q_colint(q, 0);
        *unfinished = q_colint(q, 1) != 0;
        *moves = q_colint(q, 2);
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                        (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}

/* Runs one statement with n integer parameters; returns a DB_ code. */
static int exec_ints(gmk_store *s, const char *sql, int n, const int64_t *v) {
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    for (int i = 0; i < n && rc == DB_OK; i++) rc = q_int64(q, i + 1, v[i]);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    return rc == DB_DONE ? DB_OK : rc;
}

gmk_store_status gmk_store_game_add_move(gmk_store *s, int64_t id, int ply, int x, int y,
                                         int64_t time_ms, char *err, size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot save move %d of game %lld", ply + 1, (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (time_ms < 0) time_ms = 0;
    int rc = store_begin_game(s, id);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
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
    rc = exec_ints(s, "INSERT INTO moves (game_id, ply, x, y, time_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                   5, v);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_game_undo_moves(gmk_store *s, int64_t id, int n, char *err,
                                           size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot take back moves of game %lld", (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (n < 0) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %d moves", what, n);
    int rc = store_begin_game(s, id);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
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
    rc = exec_ints(s, "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2", 2, v);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_game_take_back(gmk_store *s, int64_t id, int n, char *err,
                                          size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot take back moves of game %lld", (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (n < 1) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %d moves", what, n);
    int rc = store_begin_game(s, id);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    int size, moves;
    bool unfinished;
    st = game_state(s, id, what, &size, &unfinished, &moves, err, errlen);
    if (st == GMK_STORE_OK && unfinished)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: the game is not over", what);
    else if (st == GMK_STORE_OK && n > moves)
        st = store_fail(err, errlen, GMK_STORE_INVALID, "%s: %d asked, the game has %d", what, n,
                        moves);
    if (st != GMK_STORE_OK) {
        store_rollback(s);
        return st;
    }
    /* an abandoned game (outcome 0) stays as it is: only a result is withdrawn */
    const int64_t g[] = {id};
    rc = exec_ints(s,
                   "UPDATE games SET outcome = NULL, reason = NULL, ended_at = NULL "
                   "WHERE id = ?1 AND outcome <> 0",
                   1, g);
    const int64_t v[] = {id, moves - n};
    if (rc == DB_OK) rc = exec_ints(s, "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2", 2, v);
    if (rc == DB_OK) rc = exec_ints(s, "DELETE FROM reviews WHERE game_id = ?1", 1, g);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_game_set_players(gmk_store *s, int64_t id, gmk_color human,
                                            const char *black, const char *white, char *err,
                                            size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot save the players of game %lld", (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (human != GMK_EMPTY && human != GMK_BLACK && human != GMK_WHITE)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: colour %d", what, (int)human);
    char b[GMK_STORE_NAME_MAX], w[GMK_STORE_NAME_MAX];
    copy_name(b, black);
    copy_name(w, white);
    int rc = store_begin_game(s, id);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    /* the human's colour only changes in a game against the computer */
    store_q *q = store_stmt(s,
                            "UPDATE games SET black = ?2, white = ?3, "
                            "human = CASE WHEN mode = 0 THEN ?4 ELSE human END WHERE id = ?1",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_text(q, 2, b, strlen(b));
    if (rc == DB_OK) rc = q_text(q, 3, w, strlen(w));
    if (rc == DB_OK) rc = q_int64(q, 4, (int)human);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_DONE && rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

/* Finish (outcome 1..3) or abandon (outcome 0) an unfinished game. */
static gmk_store_status end_game(gmk_store *s, int64_t id, int outcome, int reason, int64_t ended_s,
                                 const char *what, char *err, size_t errlen) {
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc = store_begin_game(s, id);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
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
    rc = exec_ints(s, "UPDATE games SET outcome = ?1, reason = ?2, ended_at = ?3 WHERE id = ?4", 4,
                   v);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
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
static bool read_game(store_q *q, gmk_store_game *g) {
    memset(g, 0, sizeof *g);
    g->id = q_col64(q, 0);
    int mode = q_colint(q, 1), rule = q_colint(q, 2);
    int human = q_colint(q, 7);
    g->size = q_colint(q, 3);
    g->level = q_colint(q, 4);
    copy_name(g->black, q_coltext(q, 5));
    copy_name(g->white, q_coltext(q, 6));
    g->started_s = q_col64(q, 8);
    g->ended_s = q_col64(q, 9); /* NULL (unfinished, or unknown) reads as 0 */
    g->finished = !q_colnull(q, 10);
    int outcome = q_colint(q, 10), reason = q_colint(q, 11);
    g->move_count = q_colint(q, 12);
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
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = NULL;
    const char *sql = id ? "SELECT " GAME_COLUMNS " FROM games WHERE id = ?"
                         : "SELECT " GAME_COLUMNS " FROM games WHERE outcome IS NULL AND mode <> 3 "
                           "AND id NOT IN (SELECT game_id FROM web_owners) "
                           "ORDER BY id DESC LIMIT 1";
    q = store_stmt(s, sql, &rc);
    if (rc == DB_OK && id) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        if (!read_game(q, &out->game))
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: game %lld is damaged (%s)", what,
                            (long long)q_col64(q, 0), s->path);
    } else if (rc == DB_DONE) {
        st = id ? store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                             (long long)id)
                : store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no unfinished game");
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    q = NULL;
    if (st != GMK_STORE_OK) goto done;

    q = store_stmt(s, "SELECT ply, x, y, time_ms FROM moves WHERE game_id = ? ORDER BY ply", &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, out->game.id);
    int n = 0;
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        int ply = q_colint(q, 0), x = q_colint(q, 1);
        int y = q_colint(q, 2);
        if (n >= out->game.move_count || ply != n || !gmk_xy_on_board(x, y, out->game.size)) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT,
                            "%s: move %d of game %lld is damaged (%s)", what, n + 1,
                            (long long)out->game.id, s->path);
            goto done;
        }
        out->moves[n].x = x;
        out->moves[n].y = y;
        out->moves[n].time_ms = q_col64(q, 3);
        n++;
        rc = DB_OK;
    }
    if (rc != DB_DONE) {
        st = store_sql_fail(s, rc, what, err, errlen);
    } else if (n != out->game.move_count) {
        st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: moves of game %lld are missing (%s)",
                        what, (long long)out->game.id, s->path);
    }
done:
    store_stmt_release(s, q);
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

/* The games of the filter's player (who NULL: everyone's), most recent first. */
static gmk_store_status list_games(gmk_store *s, const gmk_store_whose *who, gmk_store_game *out,
                                   int cap, int *count, char *err, size_t errlen) {
    const char *what = "cannot list the games";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for them", what);
    *count = 0;
    int rc;
    store_q *q;
    if (!who) {
        q = store_stmt(s, "SELECT " GAME_COLUMNS " FROM games ORDER BY id DESC LIMIT ?", &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, cap);
    } else if (who->account > 0) {
        q = store_stmt(s,
                       "SELECT " GAME_COLUMNS " FROM games WHERE id IN (SELECT game_id FROM "
                       "account_games WHERE account_id = ?1) ORDER BY id DESC LIMIT ?2",
                       &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, who->account);
        if (rc == DB_OK) rc = q_int64(q, 2, cap);
    } else {
        q = store_stmt(s,
                       "SELECT " GAME_COLUMNS " FROM games WHERE id IN (SELECT game_id FROM "
                       "web_owners WHERE token_hash = ?1) ORDER BY id DESC LIMIT ?2",
                       &rc);
        if (rc == DB_OK) rc = q_blob(q, 1, who->owner, GMK_STORE_OWNER_HASH);
        if (rc == DB_OK) rc = q_int64(q, 2, cap);
    }
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        if (!read_game(q, &out[*count])) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: game %lld is damaged (%s)", what,
                            (long long)q_col64(q, 0), s->path);
            break;
        }
        ++*count;
        rc = DB_OK;
    }
    if (st == GMK_STORE_OK && rc != DB_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_game_list(gmk_store *s, gmk_store_game *out, int cap, int *count,
                                     char *err, size_t errlen) {
    return list_games(s, NULL, out, cap, count, err, errlen);
}

gmk_store_status gmk_store_game_list_of(gmk_store *s, const gmk_store_whose *who,
                                        gmk_store_game *out, int cap, int *count, char *err,
                                        size_t errlen) {
    if (!who || (who->account <= 0 && !who->owner))
        return store_fail(err, errlen, GMK_STORE_INVALID, "cannot list the games: whose?");
    return list_games(s, who, out, cap, count, err, errlen);
}

/* The scoreboard of the filter's player (who NULL: everyone's). A player's own colour is the
 * human's in a game against the computer, the colour it played in an online game (color of
 * account_games), none in a game of two at one board. */
static gmk_store_status scoreboard(gmk_store *s, const gmk_store_whose *who, gmk_store_score *out,
                                   int cap, int *count, char *err, size_t errlen) {
    const char *what = "cannot read the scoreboard";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for it", what);
    *count = 0;
    /* outcome 1 black wins, 2 white wins, 3 draw; human 1 black, 2 white. */
#define SCORE_COLUMNS                                                                              \
    "SELECT mode, level, count(*), sum(CASE WHEN outcome = 1 THEN 1 ELSE 0 END), "                 \
    "  sum(CASE WHEN outcome = 2 THEN 1 ELSE 0 END), "                                             \
    "  sum(CASE WHEN outcome = 3 THEN 1 ELSE 0 END), "                                             \
    "  sum(CASE WHEN mine IN (1, 2) AND outcome = mine THEN 1 ELSE 0 END), "                       \
    "  sum(CASE WHEN mine IN (1, 2) AND outcome IN (1, 2) AND outcome <> mine THEN 1 ELSE 0 END) "
    static const char all[] =
        SCORE_COLUMNS "FROM (SELECT games.*, CASE WHEN mode = 0 THEN human ELSE 0 END AS mine "
                      "FROM games WHERE outcome IN (1, 2, 3)) g GROUP BY mode, level "
                      "ORDER BY mode, level LIMIT ?1";
    static const char by_account[] = SCORE_COLUMNS
        "FROM (SELECT games.*, CASE WHEN mode = 0 THEN human ELSE a.color END AS mine "
        "FROM games JOIN account_games a ON a.game_id = games.id "
        "WHERE a.account_id = ?2 AND outcome IN (1, 2, 3)) g "
        "GROUP BY mode, level ORDER BY mode, level LIMIT ?1";
    static const char by_owner[] =
        SCORE_COLUMNS "FROM (SELECT games.*, CASE WHEN mode = 0 THEN human ELSE 0 END AS mine "
                      "FROM games JOIN web_owners w ON w.game_id = games.id "
                      "WHERE w.token_hash = ?2 AND outcome IN (1, 2, 3)) g "
                      "GROUP BY mode, level ORDER BY mode, level LIMIT ?1";
#undef SCORE_COLUMNS
    int rc;
    store_q *q = store_stmt(s, !who ? all : who->account > 0 ? by_account : by_owner, &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, cap);
    if (rc == DB_OK && who && who->account > 0) rc = q_int64(q, 2, who->account);
    if (rc == DB_OK && who && who->account <= 0)
        rc = q_blob(q, 2, who->owner, GMK_STORE_OWNER_HASH);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        gmk_store_score *r = &out[*count];
        int mode = q_colint(q, 0);
        if (mode < 0 || mode >= GMK_STORE_MODE_COUNT) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: a game has unknown mode %d (%s)",
                            what, mode, s->path);
            break;
        }
        r->mode = (gmk_store_mode)mode;
        r->level = q_colint(q, 1);
        r->games = q_colint(q, 2);
        r->black_wins = q_colint(q, 3);
        r->white_wins = q_colint(q, 4);
        r->draws = q_colint(q, 5);
        r->wins = q_colint(q, 6);
        r->losses = q_colint(q, 7);
        ++*count;
        rc = DB_OK;
    }
    if (st == GMK_STORE_OK && rc != DB_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_scoreboard(gmk_store *s, gmk_store_score *out, int cap, int *count,
                                      char *err, size_t errlen) {
    return scoreboard(s, NULL, out, cap, count, err, errlen);
}

gmk_store_status gmk_store_scoreboard_of(gmk_store *s, const gmk_store_whose *who,
                                         gmk_store_score *out, int cap, int *count, char *err,
                                         size_t errlen) {
    if (!who || (who->account <= 0 && !who->owner))
        return store_fail(err, errlen, GMK_STORE_INVALID, "cannot read the scoreboard: whose?");
    return scoreboard(s, who, out, cap, count, err, errlen);
}
