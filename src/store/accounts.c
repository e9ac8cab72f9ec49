/* accounts.c: accounts, sessions and the games of an account in the store (see accounts.h).
 * The SQL is shared by both backends; a write is one step (store_begin .. store_commit). */
#include <stdio.h>
#include <string.h>

#include "store/accounts.h"
#include "store/store_internal.h"

/* Copies text into out[cap], cut at a UTF-8 character boundary when too long. */
static void copy_text(char *out, size_t cap, const char *text) {
    size_t n = text ? strlen(text) : 0;
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    }
    if (n) memcpy(out, text, n);
    out[n] = '\0';
}

/* Runs one prepared write with up to three int64 parameters; a DB_ code (DB_DONE when run). */
static int run3(gmk_store *s, const char *sql, int n, int64_t a, int64_t b, int64_t c,
                int64_t *changed) {
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    const int64_t v[3] = {a, b, c};
    for (int i = 0; rc == DB_OK && i < n; i++) rc = q_int64(q, i + 1, v[i]);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_DONE && changed) *changed = s->be->changes(q);
    store_stmt_release(s, q);
    return rc;
}

/* --- accounts ---------------------------------------------------------------------------- */

gmk_store_status gmk_store_account_create(gmk_store *s, const char *name, const char *key,
                                          const char *pw_hash, int64_t created_s, int64_t *id,
                                          char *err, size_t errlen) {
    const char *what = "cannot create the account";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!name || !key || !pw_hash || !id || !*name || !*key || !*pw_hash ||
        strlen(name) >= GMK_STORE_NAME_MAX || strlen(key) >= 4 * GMK_STORE_NAME_MAX ||
        strlen(pw_hash) >= GMK_STORE_PWHASH_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s,
                            "INSERT INTO accounts (name, name_key, pw_hash, created_at) "
                            "VALUES (?1, ?2, ?3, ?4) RETURNING id",
                            &rc);
    if (rc == DB_OK) rc = q_text(q, 1, name, strlen(name));
    if (rc == DB_OK) rc = q_text(q, 2, key, strlen(key));
    if (rc == DB_OK) rc = q_text(q, 3, pw_hash, strlen(pw_hash));
    if (rc == DB_OK) rc = q_int64(q, 4, created_s);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        *id = q_col64(q, 0);
        rc = q_step(q);
    }
    store_stmt_release(s, q);
    if (rc == DB_CONSTRAINT) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: the name is taken", what);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

/* Reads id, name, created_at, pw_hash from a row. */
static void read_account(store_q *q, gmk_store_account *out, char *pw_hash) {
    if (out) {
        memset(out, 0, sizeof *out);
        out->id = q_col64(q, 0);
        copy_text(out->name, sizeof out->name, q_coltext(q, 1));
        out->created_s = q_col64(q, 2);
    }
    if (pw_hash) copy_text(pw_hash, GMK_STORE_PWHASH_MAX, q_coltext(q, 3));
}

static gmk_store_status find_account(gmk_store *s, const char *key, int64_t id,
                                     gmk_store_account *out, char *pw_hash, char *err,
                                     size_t errlen) {
    const char *what = "cannot read the account";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q;
    if (key) {
        q = store_stmt(s, "SELECT id, name, created_at, pw_hash FROM accounts WHERE name_key = ?1",
                       &rc);
        if (rc == DB_OK) rc = q_text(q, 1, key, strlen(key));
    } else {
        q = store_stmt(s, "SELECT id, name, created_at, pw_hash FROM accounts WHERE id = ?1", &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, id);
    }
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) read_account(q, out, pw_hash);
    store_stmt_release(s, q);
    if (rc == DB_DONE) return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such account");
    if (rc != DB_ROW) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_account_find(gmk_store *s, const char *key, gmk_store_account *out,
                                        char *pw_hash, char *err, size_t errlen) {
    if (!key) return store_fail(err, errlen, GMK_STORE_INVALID, "no name");
    return find_account(s, key, 0, out, pw_hash, err, errlen);
}

gmk_store_status gmk_store_account_get(gmk_store *s, int64_t id, gmk_store_account *out,
                                       char *pw_hash, char *err, size_t errlen) {
    return find_account(s, NULL, id, out, pw_hash, err, errlen);
}

gmk_store_status gmk_store_account_set_password(gmk_store *s, int64_t id, const char *pw_hash,
                                                int64_t keep_session, char *err, size_t errlen) {
    const char *what = "cannot change the password";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!pw_hash || !*pw_hash || strlen(pw_hash) >= GMK_STORE_PWHASH_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s, "UPDATE accounts SET pw_hash = ?1 WHERE id = ?2", &rc);
    int64_t changed = 0;
    if (rc == DB_OK) rc = q_text(q, 1, pw_hash, strlen(pw_hash));
    if (rc == DB_OK) rc = q_int64(q, 2, id);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_DONE) changed = s->be->changes(q);
    store_stmt_release(s, q);
    if (rc == DB_DONE && changed == 0) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such account");
    }
    if (rc == DB_DONE)
        rc = run3(s, "DELETE FROM sessions WHERE account_id = ?1 AND id <> ?2", 2, id, keep_session,
                  0, NULL);
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_account_delete(gmk_store *s, int64_t id, const char *neutral, char *err,
                                          size_t errlen) {
    const char *what = "cannot delete the account";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!neutral || !*neutral || strlen(neutral) >= GMK_STORE_NAME_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad neutral name", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    /* the names it played under: online games by colour, open rooms' seats and their log
     * (CREATED = 1, JOINED = 2 carry the seat's name) */
    static const char *const renames[] = {
        "UPDATE games SET black = ?1 WHERE id IN "
        "(SELECT game_id FROM account_games WHERE account_id = ?2 AND color = 1)",
        "UPDATE games SET white = ?1 WHERE id IN "
        "(SELECT game_id FROM account_games WHERE account_id = ?2 AND color = 2)",
        "UPDATE room_events SET name = ?1 WHERE kind IN (1, 2) AND EXISTS (SELECT 1 FROM "
        "room_seats s WHERE s.room_id = room_events.room_id AND s.seat = room_events.seat AND "
        "s.account_id = ?2)",
        "UPDATE room_seats SET name = ?1 WHERE account_id = ?2",
    };
    for (size_t i = 0; rc == DB_OK && i < sizeof renames / sizeof renames[0]; i++) {
        store_q *q = store_stmt(s, renames[i], &rc);
        if (rc == DB_OK) rc = q_text(q, 1, neutral, strlen(neutral));
        if (rc == DB_OK) rc = q_int64(q, 2, id);
        if (rc == DB_OK) rc = q_step(q);
        store_stmt_release(s, q);
        if (rc == DB_DONE) rc = DB_OK;
    }
    static const char *const deletes[] = {
        "UPDATE room_seats SET account_id = 0 WHERE account_id = ?1",
        "DELETE FROM sessions WHERE account_id = ?1",
        "DELETE FROM account_games WHERE account_id = ?1",
        "DELETE FROM rating_history WHERE account_id = ?1",
        "DELETE FROM ratings WHERE account_id = ?1",
    };
    for (size_t i = 0; rc == DB_OK && i < sizeof deletes / sizeof deletes[0]; i++) {
        rc = run3(s, deletes[i], 1, id, 0, 0, NULL);
        if (rc == DB_DONE) rc = DB_OK;
    }
    int64_t changed = 0;
    if (rc == DB_OK) rc = run3(s, "DELETE FROM accounts WHERE id = ?1", 1, id, 0, 0, &changed);
    if (rc == DB_DONE && changed == 0) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such account");
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

/* --- sessions ---------------------------------------------------------------------------- */

gmk_store_status gmk_store_session_create(gmk_store *s, int64_t account,
                                          const uint8_t hash[GMK_STORE_SESSION_HASH], int64_t now_s,
                                          int64_t expires_s, const char *agent, int64_t *session_id,
                                          char *err, size_t errlen) {
    const char *what = "cannot open a session";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (account <= 0 || !hash || !session_id || expires_s <= now_s)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    char ag[GMK_STORE_AGENT_MAX];
    copy_text(ag, sizeof ag, agent);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    rc = run3(s, "DELETE FROM sessions WHERE expires_at <= ?1", 1, now_s, 0, 0, NULL);
    store_q *q = NULL;
    if (rc == DB_DONE)
        q = store_stmt(s,
                       "INSERT INTO sessions (token_hash, account_id, created_at, seen_at, "
                       "expires_at, agent) VALUES (?1, ?2, ?3, ?3, ?4, ?5) RETURNING id",
                       &rc);
    if (q) {
        if (rc == DB_OK) rc = q_blob(q, 1, hash, GMK_STORE_SESSION_HASH);
        if (rc == DB_OK) rc = q_int64(q, 2, account);
        if (rc == DB_OK) rc = q_int64(q, 3, now_s);
        if (rc == DB_OK) rc = q_int64(q, 4, expires_s);
        if (rc == DB_OK) rc = q_text(q, 5, ag, strlen(ag));
        if (rc == DB_OK) rc = q_step(q);
        if (rc == DB_ROW) {
            *session_id = q_col64(q, 0);
            rc = q_step(q);
        }
        store_stmt_release(s, q);
    }
    if (rc == DB_CONSTRAINT) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no such account", what);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

static void read_session(store_q *q, int at, gmk_store_session *out) {
    memset(out, 0, sizeof *out);
    out->id = q_col64(q, at);
    out->created_s = q_col64(q, at + 1);
    out->seen_s = q_col64(q, at + 2);
    out->expires_s = q_col64(q, at + 3);
    copy_text(out->agent, sizeof out->agent, q_coltext(q, at + 4));
}

gmk_store_status gmk_store_session_find(gmk_store *s, const uint8_t hash[GMK_STORE_SESSION_HASH],
                                        int64_t now_s, gmk_store_account *acc,
                                        gmk_store_session *out, char *err, size_t errlen) {
    const char *what = "cannot read the session";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!hash) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no token", what);
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT a.id, a.name, a.created_at, a.pw_hash, s.id, s.created_at, "
                            "s.seen_at, s.expires_at, s.agent FROM sessions s JOIN accounts a "
                            "ON a.id = s.account_id WHERE s.token_hash = ?1 AND s.expires_at > ?2",
                            &rc);
    if (rc == DB_OK) rc = q_blob(q, 1, hash, GMK_STORE_SESSION_HASH);
    if (rc == DB_OK) rc = q_int64(q, 2, now_s);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        read_account(q, acc, NULL);
        if (out) read_session(q, 4, out);
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE) return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such session");
    if (rc != DB_ROW) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_session_touch(gmk_store *s, int64_t id, int64_t seen_s,
                                         int64_t expires_s, char *err, size_t errlen) {
    const char *what = "cannot note the session's use";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc = store_begin(s);
    if (rc == DB_OK)
        rc = run3(s, "UPDATE sessions SET seen_at = ?2, expires_at = ?3 WHERE id = ?1", 3, id,
                  seen_s, expires_s, NULL);
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_session_list(gmk_store *s, int64_t account, int64_t now_s,
                                        gmk_store_session *out, int cap, int *count, char *err,
                                        size_t errlen) {
    const char *what = "cannot list the sessions";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for them", what);
    *count = 0;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT id, created_at, seen_at, expires_at, agent FROM sessions "
                            "WHERE account_id = ?1 AND expires_at > ?2 "
                            "ORDER BY seen_at DESC, id DESC LIMIT ?3",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, account);
    if (rc == DB_OK) rc = q_int64(q, 2, now_s);
    if (rc == DB_OK) rc = q_int64(q, 3, cap);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        read_session(q, 0, &out[(*count)++]);
        rc = DB_OK;
    }
    store_stmt_release(s, q);
    if (rc != DB_DONE) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_session_end(gmk_store *s, int64_t account, int64_t id, int64_t keep,
                                       int *ended, char *err, size_t errlen) {
    const char *what = "cannot end the session";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (ended) *ended = 0;
    int rc = store_begin(s);
    int64_t changed = 0;
    if (rc == DB_OK)
        rc = id > 0 ? run3(s, "DELETE FROM sessions WHERE account_id = ?1 AND id = ?2", 2, account,
                           id, 0, &changed)
                    : run3(s, "DELETE FROM sessions WHERE account_id = ?1 AND id <> ?2", 2, account,
                           keep, 0, &changed);
    if (rc == DB_DONE && id > 0 && changed == 0) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such session");
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    if (ended) *ended = (int)changed;
    return GMK_STORE_OK;
}

/* --- the games of an account ------------------------------------------------------------- */

gmk_store_status gmk_store_account_link_game(gmk_store *s, int64_t account, int64_t game,
                                             gmk_color color, char *err, size_t errlen) {
    const char *what = "cannot link the game to the account";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (account <= 0 || game <= 0 || color < GMK_EMPTY || color > GMK_WHITE)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc == DB_OK)
        rc = run3(s,
                  "INSERT INTO account_games (game_id, color, account_id) VALUES (?1, ?2, ?3) "
                  "ON CONFLICT (game_id, color) DO UPDATE SET account_id = excluded.account_id",
                  3, game, color, account, NULL);
    if (rc == DB_CONSTRAINT) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: no such game or account", what);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_account_claim(gmk_store *s, int64_t account,
                                         const uint8_t owner[GMK_STORE_OWNER_HASH], int *claimed,
                                         char *err, size_t errlen) {
    const char *what = "cannot claim the browser's games";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (claimed) *claimed = 0;
    if (account <= 0 || !owner)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    store_q *q = NULL;
    if (rc == DB_OK)
        q = store_stmt(s,
                       "INSERT INTO account_games (game_id, color, account_id) "
                       "SELECT game_id, 0, ?1 FROM web_owners WHERE token_hash = ?2 "
                       "ON CONFLICT (game_id, color) DO NOTHING",
                       &rc);
    int64_t changed = 0;
    if (q) {
        if (rc == DB_OK) rc = q_int64(q, 1, account);
        if (rc == DB_OK) rc = q_blob(q, 2, owner, GMK_STORE_OWNER_HASH);
        if (rc == DB_OK) rc = q_step(q);
        if (rc == DB_DONE) changed = s->be->changes(q);
        store_stmt_release(s, q);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    if (claimed) *claimed = (int)changed;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_account_claim_seat(gmk_store *s, int64_t account, const char *code,
                                              const uint8_t hash[GMK_STORE_SESSION_HASH],
                                              int *linked, char *err, size_t errlen) {
    const char *what = "cannot claim the room's seat";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (linked) *linked = 0;
    if (account <= 0 || !code || !hash)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s,
                            "UPDATE room_seats SET account_id = ?1 WHERE account_id IN (0, ?1) "
                            "AND token_sha256 = ?2 AND room_id = (SELECT id FROM rooms WHERE "
                            "code = ?3) RETURNING room_id, seat",
                            &rc);
    int64_t room = 0, seat = -1;
    if (rc == DB_OK) rc = q_int64(q, 1, account);
    if (rc == DB_OK) rc = q_blob(q, 2, hash, GMK_STORE_SESSION_HASH);
    if (rc == DB_OK) rc = q_text(q, 3, code, strlen(code));
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        room = q_col64(q, 0);
        seat = q_col64(q, 1);
        rc = q_step(q);
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE && seat < 0) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such seat of a guest");
    }
    /* each game of the room by the last event that names it; seat 0's colour is the one of the
     * STARTED event (kind 3) or, after a swap opening, of the colour choice (kind 16) before it;
     * seat 1 has the other */
    int64_t changed = 0;
    if (rc == DB_DONE) {
        q = store_stmt(s,
                       "INSERT INTO account_games (game_id, color, account_id) "
                       "SELECT game_id, CASE ?2 WHEN 0 THEN c0 ELSE 3 - c0 END, ?3 FROM "
                       "(SELECT g.game_id, (SELECT st.color FROM room_events st WHERE "
                       "st.room_id = ?1 AND st.kind IN (3, 16) AND st.seq <= g.last "
                       "ORDER BY st.seq DESC LIMIT 1) AS c0 FROM (SELECT game_id, max(seq) AS "
                       "last FROM room_events WHERE room_id = ?1 AND game_id > 0 "
                       "GROUP BY game_id) g) x WHERE c0 IN (1, 2) "
                       "AND game_id IN (SELECT id FROM games) "
                       "ON CONFLICT (game_id, color) DO NOTHING",
                       &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, room);
        if (rc == DB_OK) rc = q_int64(q, 2, seat);
        if (rc == DB_OK) rc = q_int64(q, 3, account);
        if (rc == DB_OK) rc = q_step(q);
        if (rc == DB_DONE) changed = s->be->changes(q);
        store_stmt_release(s, q);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    if (linked) *linked = (int)changed;
    return GMK_STORE_OK;
}
