/* rooms.c: online rooms, their seats and event logs in the store (see rooms.h), and the
 * per-player scoreboard. */
#include "store/rooms.h"

#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

enum {
    OPENING_LAST = 2,
    SWAP_PHASE_LAST = 4,
    PHASE_LAST = 3,
    EVENT_KIND_MAX = 64,
    REASON_LAST = GMK_REASON_NO_LEGAL_POINT,
    AUDIENCE_LAST = 4
};
/* A clock of more than a day, or a time outside years 1970..~2500, is nobody's. */
#define CLOCK_MAX_MS (24LL * 3600 * 1000)
#define TIME_MAX_MS (16LL * 1000 * 1000 * 1000 * 1000)

static bool color_ok(gmk_color c) {
    return c == GMK_EMPTY || c == GMK_BLACK || c == GMK_WHITE;
}

static bool time_ok(int64_t t) {
    return t >= 0 && t <= TIME_MAX_MS;
}

/* Copies text into dst[cap], cut at a UTF-8 boundary. */
static void copy_text(char *dst, size_t cap, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80) n--;
    }
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Why a room cannot be stored, or NULL. */
static const char *room_invalid(const gmk_store_room *r) {
    if (!r) return "no room";
    size_t len = strnlen(r->code, GMK_STORE_ROOM_CODE_MAX);
    if (len == 0 || len >= GMK_STORE_ROOM_CODE_MAX) return "bad room code";
    if ((unsigned)r->rule >= GMK_RULE_COUNT) return "unknown rule";
    if (r->size < GMK_MIN_SIZE || r->size > GMK_MAX_SIZE) return "bad board size";
    if (r->clock_ms < 0 || r->clock_ms > CLOCK_MAX_MS || r->increment_ms < 0 ||
        r->increment_ms > CLOCK_MAX_MS)
        return "bad clock";
    if (r->black_ms < 0 || r->black_ms > 2 * CLOCK_MAX_MS || r->white_ms < 0 ||
        r->white_ms > 2 * CLOCK_MAX_MS)
        return "bad time left";
    if (!time_ok(r->created_ms) || !time_ok(r->touched_ms) || !time_ok(r->turn_start_ms))
        return "bad time";
    if (r->phase < 0 || r->phase > PHASE_LAST || r->game_id < 0 || r->game_no < 0)
        return "bad phase or game";
    if (!color_ok(r->draw_by) || !color_ok(r->undo_by) || !color_ok(r->rematch_by))
        return "bad offer";
    if ((unsigned)r->outcome > GMK_DRAW || (unsigned)r->reason > REASON_LAST) return "bad result";
    if (r->last_seq < 0) return "bad event number";
    if (r->muted < 0 || r->muted > 3) return "bad mute";
    if (r->opening < 0 || r->opening > OPENING_LAST || r->swap_phase < 0 ||
        r->swap_phase > SWAP_PHASE_LAST || r->swap_first < 0 || r->swap_first > 1 ||
        r->swap_settled < 0 || r->swap_settled > GMK_MAX_MOVES)
        return "bad opening";
    for (int i = 0; i < 2; i++)
        if (r->seat[i].taken && !color_ok(r->seat[i].color)) return "bad seat colour";
    return NULL;
}

static const char *event_invalid(const gmk_store_room_event *e) {
    if (e->kind < 0 || e->kind > EVENT_KIND_MAX) return "unknown event kind";
    if (e->seat < -1 || e->seat > 1 || !color_ok(e->color)) return "bad event seat";
    if (e->x < -1 || e->x >= GMK_MAX_SIZE || e->y < -1 || e->y >= GMK_MAX_SIZE) return "bad point";
    if (e->ply < 0 || e->ply > GMK_MAX_MOVES) return "bad ply";
    if ((unsigned)e->outcome > GMK_DRAW || (unsigned)e->reason > REASON_LAST) return "bad result";
    if (!time_ok(e->at_ms)) return "bad time";
    if (e->audience < 0 || e->audience > AUDIENCE_LAST) return "bad audience";
    return NULL;
}

static int bind_text(store_q *q, int i, const char *text, size_t cap) {
    return q_text(q, i, text, strnlen(text, cap - 1));
}

/* UPDATE (id > 0) or INSERT (id == 0, *new_id receives the id) the room row; returns a DB_
 * code. For an UPDATE, *changed says whether the row matched stored_seq. */
static int write_row(gmk_store *s, const gmk_store_room *r, int64_t stored_seq, bool *changed,
                     int64_t *new_id) {
    static const char insert[] =
        "INSERT INTO rooms (code, rule, size, clock_ms, increment_ms, created_ms, touched_ms, "
        "phase, game_id, game_no, black_ms, white_ms, turn_start_ms, draw_by, undo_by, "
        "rematch_by, outcome, reason, last_seq, muted, rated, opening, swap_phase, swap_first, "
        "swap_settled) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
        "?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25) RETURNING id";
    static const char update[] =
        "UPDATE rooms SET code = ?1, rule = ?2, size = ?3, clock_ms = ?4, increment_ms = ?5, "
        "created_ms = ?6, touched_ms = ?7, phase = ?8, game_id = ?9, game_no = ?10, "
        "black_ms = ?11, white_ms = ?12, turn_start_ms = ?13, draw_by = ?14, undo_by = ?15, "
        "rematch_by = ?16, outcome = ?17, reason = ?18, last_seq = ?19, muted = ?20, "
        "rated = ?23, opening = ?24, swap_phase = ?25, swap_first = ?26, swap_settled = ?27 "
        "WHERE id = ?21 AND last_seq = ?22";
    int rc;
    store_q *q = store_stmt(s, r->id ? update : insert, &rc);
    const int64_t v[] = {r->rule,       r->size,       r->clock_ms,   r->increment_ms,
                         r->created_ms, r->touched_ms, r->phase,      r->game_id,
                         r->game_no,    r->black_ms,   r->white_ms,   r->turn_start_ms,
                         r->draw_by,    r->undo_by,    r->rematch_by, r->outcome,
                         r->reason,     r->last_seq,   r->muted};
    if (rc == DB_OK) rc = bind_text(q, 1, r->code, sizeof r->code);
    for (int i = 0; i < (int)(sizeof v / sizeof v[0]) && rc == DB_OK; i++)
        rc = q_int64(q, i + 2, v[i]);
    if (r->id && rc == DB_OK) rc = q_int64(q, 21, r->id);
    if (r->id && rc == DB_OK) rc = q_int64(q, 22, stored_seq);
    if (rc == DB_OK) rc = q_int64(q, r->id ? 23 : 21, r->rated ? 1 : 0);
    const int64_t opening[] = {r->opening, r->swap_phase, r->swap_first, r->swap_settled};
    for (int i = 0; i < 4 && rc == DB_OK; i++) rc = q_int64(q, (r->id ? 24 : 22) + i, opening[i]);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW && !r->id) {
        *new_id = q_col64(q, 0);
        rc = q_step(q);
    }
    if (rc == DB_DONE && changed) *changed = s->be->changes(q) == 1;
    store_stmt_release(s, q);
    return rc == DB_DONE ? DB_OK : rc;
}

static int write_seats(gmk_store *s, int64_t id, const gmk_store_room *r) {
    int rc;
    if (r->seat[0].taken && r->seat[1].taken) { /* the usual case: both in one statement */
        store_q *q = store_stmt(s,
                                "INSERT INTO room_seats (room_id, seat, token_sha256, name, color, "
                                "account_id) VALUES (?1, 0, ?2, ?3, ?4, ?5), "
                                "(?1, 1, ?6, ?7, ?8, ?9) ON CONFLICT (room_id, seat) DO UPDATE "
                                "SET token_sha256 = excluded.token_sha256, name = excluded.name, "
                                "color = excluded.color, account_id = excluded.account_id",
                                &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, id);
        for (int i = 0; i < 2 && rc == DB_OK; i++) {
            const gmk_store_seat *st = &r->seat[i];
            rc = q_blob(q, 2 + 4 * i, st->token_sha256, GMK_STORE_HASH_LEN);
            if (rc == DB_OK) rc = bind_text(q, 3 + 4 * i, st->name, sizeof st->name);
            if (rc == DB_OK) rc = q_int64(q, 4 + 4 * i, (int)st->color);
            if (rc == DB_OK) rc = q_int64(q, 5 + 4 * i, st->account);
        }
        if (rc == DB_OK) rc = q_step(q);
        store_stmt_release(s, q);
        return rc == DB_DONE ? DB_OK : rc;
    }
    store_q *q = store_stmt(s,
                            "INSERT INTO room_seats (room_id, seat, token_sha256, name, color, "
                            "account_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (room_id, "
                            "seat) DO UPDATE SET token_sha256 = excluded.token_sha256, "
                            "name = excluded.name, color = excluded.color, "
                            "account_id = excluded.account_id",
                            &rc);
    for (int i = 0; i < 2 && rc == DB_OK; i++) {
        const gmk_store_seat *st = &r->seat[i];
        if (!st->taken) continue;
        s->be->reset(q);
        rc = q_int64(q, 1, id);
        if (rc == DB_OK) rc = q_int64(q, 2, i);
        if (rc == DB_OK) rc = q_blob(q, 3, st->token_sha256, GMK_STORE_HASH_LEN);
        if (rc == DB_OK) rc = bind_text(q, 4, st->name, sizeof st->name);
        if (rc == DB_OK) rc = q_int64(q, 5, (int)st->color);
        if (rc == DB_OK) rc = q_int64(q, 6, st->account);
        if (rc == DB_OK) rc = q_step(q);
        if (rc == DB_DONE) rc = DB_OK;
    }
    store_stmt_release(s, q);
    return rc;
}

static int write_events(gmk_store *s, int64_t id, const gmk_store_room_event *ev, int n) {
    int rc;
    store_q *q = store_stmt(s,
                            "INSERT INTO room_events (room_id, seq, at_ms, kind, seat, color, x, "
                            "y, ply, outcome, reason, count, black_ms, white_ms, game_id, "
                            "audience, name, text) "
                            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
                            "?15, ?16, ?17, ?18)",
                            &rc);
    for (int i = 0; i < n && rc == DB_OK; i++) {
        const gmk_store_room_event *e = &ev[i];
        const int64_t v[] = {id,          e->seq,      e->at_ms,   e->kind,    e->seat,   e->color,
                             e->x,        e->y,        e->ply,     e->outcome, e->reason, e->count,
                             e->black_ms, e->white_ms, e->game_id, e->audience};
        s->be->reset(q);
        for (int k = 0; k < (int)(sizeof v / sizeof v[0]) && rc == DB_OK; k++)
            rc = q_int64(q, k + 1, v[k]);
        if (rc == DB_OK) rc = bind_text(q, 17, e->name, sizeof e->name);
        if (rc == DB_OK) rc = bind_text(q, 18, e->text, sizeof e->text);
        if (rc == DB_OK) rc = q_step(q);
        if (rc == DB_DONE) rc = DB_OK;
    }
    store_stmt_release(s, q);
    return rc;
}

/* Tells the other servers that room r changed, up to its last event, at commit (PostgreSQL:
 * "CODE:SEQ"); a DB_ code. */
static int notify(gmk_store *s, const gmk_store_room *r) {
    if (!s->be->notify_room) return DB_OK;
    int rc;
    char news[GMK_STORE_ROOM_CODE_MAX + 24];
    int len = snprintf(news, sizeof news, "%.15s:%lld", r->code, (long long)r->last_seq);
    store_q *q = store_stmt(s, s->be->notify_room, &rc);
    if (rc == DB_OK) rc = q_text(q, 1, news, (size_t)len);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    return rc == DB_ROW || rc == DB_DONE ? DB_OK : rc;
}

/* Checks the events against the room: valid, consecutive, ending at r->last_seq. */
static const char *events_invalid(const gmk_store_room *r, const gmk_store_room_event *ev, int n) {
    if (n < 0 || (n > 0 && !ev)) return "no events";
    for (int i = 0; i < n; i++) {
        const char *why = event_invalid(&ev[i]);
        if (why) return why;
        if (i > 0 && ev[i].seq != ev[i - 1].seq + 1) return "events out of order";
    }
    if (n > 0 && ev[n - 1].seq != r->last_seq) return "the room's last event is not the last saved";
    return NULL;
}

gmk_store_status gmk_store_room_create(gmk_store *s, gmk_store_room *r,
                                       const gmk_store_room_event *ev, int n, char *err,
                                       size_t errlen) {
    const char *what = "cannot save the new room";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    const char *why = room_invalid(r);
    if (!why) why = events_invalid(r, ev, n);
    if (!why && n > 0 && ev[0].seq != 1) why = "the first event is not number 1";
    if (!why && n == 0 && r->last_seq != 0) why = "events are missing";
    if (why) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %s", what, why);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    gmk_store_room row = *r;
    row.id = 0;
    int64_t id = 0;
    rc = write_row(s, &row, 0, NULL, &id);
    if (rc == DB_CONSTRAINT) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: the code %s is taken", what,
                          r->code);
    }
    if (rc == DB_OK) rc = write_seats(s, id, r);
    if (rc == DB_OK) rc = write_events(s, id, ev, n);
    if (rc == DB_OK) rc = notify(s, r);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    r->id = id;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_room_save(gmk_store *s, const gmk_store_room *r,
                                     const gmk_store_room_event *ev, int n, char *err,
                                     size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot save room %s", r ? r->code : "?");
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    const char *why = room_invalid(r);
    if (!why && r->id <= 0) why = "the room was never created";
    if (!why) why = events_invalid(r, ev, n);
    if (why) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %s", what, why);
    int64_t stored_seq = n > 0 ? ev[0].seq - 1 : r->last_seq;
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    bool changed = false;
    rc = write_row(s, r, stored_seq, &changed, NULL);
    if (rc == DB_OK && !changed) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_BUSY,
                          "%s: it was changed elsewhere (or closed) since event %lld", what,
                          (long long)stored_seq);
    }
    if (rc == DB_OK) rc = write_seats(s, r->id, r);
    if (rc == DB_OK) rc = write_events(s, r->id, ev, n);
    if (rc == DB_OK) rc = notify(s, r);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

#define ROOM_COLUMNS                                                                               \
    "id, code, rule, size, clock_ms, increment_ms, created_ms, touched_ms, phase, game_id, "       \
    "game_no, black_ms, white_ms, turn_start_ms, draw_by, undo_by, rematch_by, outcome, reason, "  \
    "last_seq, muted, rated, opening, swap_phase, swap_first, swap_settled"

static void read_row(store_q *q, gmk_store_room *r) {
    memset(r, 0, sizeof *r);
    r->id = q_col64(q, 0);
    copy_text(r->code, sizeof r->code, q_coltext(q, 1));
    r->rule = (gmk_rule)q_colint(q, 2);
    r->size = q_colint(q, 3);
    r->clock_ms = q_col64(q, 4);
    r->increment_ms = q_col64(q, 5);
    r->created_ms = q_col64(q, 6);
    r->touched_ms = q_col64(q, 7);
    r->phase = q_colint(q, 8);
    r->game_id = q_col64(q, 9);
    r->game_no = q_colint(q, 10);
    r->black_ms = q_col64(q, 11);
    r->white_ms = q_col64(q, 12);
    r->turn_start_ms = q_col64(q, 13);
    r->draw_by = (gmk_color)q_colint(q, 14);
    r->undo_by = (gmk_color)q_colint(q, 15);
    r->rematch_by = (gmk_color)q_colint(q, 16);
    r->outcome = (gmk_outcome)q_colint(q, 17);
    r->reason = (gmk_reason)q_colint(q, 18);
    r->last_seq = q_col64(q, 19);
    r->muted = q_colint(q, 20);
    r->rated = q_col64(q, 21) != 0;
    r->opening = q_colint(q, 22);
    r->swap_phase = q_colint(q, 23);
    r->swap_first = q_colint(q, 24);
    r->swap_settled = q_colint(q, 25);
}

/* Reads the seats of room r->id into r (*ok false when one is damaged); a DB_ code. */
static int read_seats(gmk_store *s, gmk_store_room *r, bool *ok) {
    int rc;
    store_q *q = store_stmt(
        s, "SELECT seat, token_sha256, name, color, account_id FROM room_seats WHERE room_id = ?",
        &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, r->id);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        int i = q_colint(q, 0), color = q_colint(q, 3);
        size_t hash_len = 0;
        const void *hash = s->be->column_blob(q, 1, &hash_len);
        if (i < 0 || i > 1 || !hash || hash_len != GMK_STORE_HASH_LEN || color < GMK_EMPTY ||
            color > GMK_WHITE) {
            *ok = false;
            continue;
        }
        gmk_store_seat *st = &r->seat[i];
        st->taken = true;
        memcpy(st->token_sha256, hash, GMK_STORE_HASH_LEN);
        copy_text(st->name, sizeof st->name, q_coltext(q, 2));
        st->color = (gmk_color)color;
        st->account = q_col64(q, 4);
    }
    store_stmt_release(s, q);
    return rc == DB_DONE ? DB_OK : rc;
}

gmk_store_status gmk_store_room_find(gmk_store *s, const char *code, gmk_store_room *out, char *err,
                                     size_t errlen) {
    const char *what = "cannot read the room";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!code || !out) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no code", what);
    int rc = store_read_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = NULL;
    q = store_stmt(s, "SELECT " ROOM_COLUMNS " FROM rooms WHERE code = ?", &rc);
    if (rc == DB_OK) rc = q_text(q, 1, code, strlen(code));
    if (rc == DB_OK) rc = q_step(q);
    bool ok = true;
    if (rc == DB_ROW) {
        read_row(q, out);
        rc = read_seats(s, out, &ok);
        if (rc == DB_OK && (!ok || room_invalid(out)))
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: room %s is damaged (%s)", what,
                            code, s->path);
        else if (rc != DB_OK)
            st = store_sql_fail(s, rc, what, err, errlen);
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "there is no room %s", code);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    store_rollback(s);
    return st;
}

#define EVENT_COLUMNS                                                                              \
    "seq, at_ms, kind, seat, color, x, y, ply, outcome, reason, count, black_ms, white_ms, "       \
    "game_id, name, audience, text"

/* Reads the rows of q (EVENT_COLUMNS) into out[*count..cap); a store status. */
static gmk_store_status read_events(gmk_store *s, store_q *q, int rc, gmk_store_room_event *out,
                                    int cap, int *count, const char *what, char *err,
                                    size_t errlen) {
    gmk_store_status st = GMK_STORE_OK;
    while (rc == DB_OK && *count < cap && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        gmk_store_room_event *e = &out[*count];
        memset(e, 0, sizeof *e);
        e->seq = q_col64(q, 0);
        e->at_ms = q_col64(q, 1);
        e->kind = q_colint(q, 2);
        e->seat = q_colint(q, 3);
        e->color = (gmk_color)q_colint(q, 4);
        e->x = q_colint(q, 5);
        e->y = q_colint(q, 6);
        e->ply = q_colint(q, 7);
        e->outcome = (gmk_outcome)q_colint(q, 8);
        e->reason = (gmk_reason)q_colint(q, 9);
        e->count = q_colint(q, 10);
        e->black_ms = q_col64(q, 11);
        e->white_ms = q_col64(q, 12);
        e->game_id = q_col64(q, 13);
        copy_text(e->name, sizeof e->name, q_coltext(q, 14));
        e->audience = q_colint(q, 15);
        copy_text(e->text, sizeof e->text, q_coltext(q, 16));
        if (event_invalid(e)) {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: event %lld is damaged (%s)", what,
                            (long long)e->seq, s->path);
            break;
        }
        ++*count;
    }
    if (st == GMK_STORE_OK && rc != DB_DONE && rc != DB_OK)
        st = store_sql_fail(s, rc, what, err, errlen);
    return st;
}

gmk_store_status gmk_store_room_events(gmk_store *s, int64_t room_id, int64_t after,
                                       gmk_store_room_event *out, int cap, int *count, char *err,
                                       size_t errlen) {
    const char *what = "cannot read the room's events";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for them", what);
    *count = 0;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT " EVENT_COLUMNS " FROM room_events WHERE room_id = ? AND "
                            "seq > ? ORDER BY seq LIMIT ?",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, room_id);
    if (rc == DB_OK) rc = q_int64(q, 2, after);
    if (rc == DB_OK) rc = q_int64(q, 3, cap);
    st = read_events(s, q, rc, out, cap, count, what, err, errlen);
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_room_events_of_kind(gmk_store *s, int64_t room_id, int kind,
                                               int64_t before, gmk_store_room_event *out, int cap,
                                               int *count, char *err, size_t errlen) {
    const char *what = "cannot read the room's events";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for them", what);
    *count = 0;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT " EVENT_COLUMNS " FROM room_events WHERE room_id = ? AND "
                            "kind = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, room_id);
    if (rc == DB_OK) rc = q_int64(q, 2, kind);
    if (rc == DB_OK) rc = q_int64(q, 3, before);
    if (rc == DB_OK) rc = q_int64(q, 4, cap);
    st = read_events(s, q, rc, out, cap, count, what, err, errlen);
    store_stmt_release(s, q);
    for (int i = 0, j = *count - 1; i < j; i++, j--) { /* oldest first */
        gmk_store_room_event t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return st;
}

gmk_store_status gmk_store_room_close_idle(gmk_store *s, int64_t before_ms, int64_t now_ms,
                                           int *closed, char *err, size_t errlen) {
    const char *what = "cannot close idle rooms";
    if (closed) *closed = 0;
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!time_ok(before_ms) || !time_ok(now_ms))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad time", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    static const struct {
        const char *sql;
        int params; /* ?1 before_ms, ?2 now_ms */
    } steps[] = {
        {"UPDATE games SET outcome = 0, reason = 0, ended_at = ?2 / 1000 WHERE outcome IS NULL "
         "AND id IN (SELECT game_id FROM rooms WHERE touched_ms < ?1)",
         2},
        {"DELETE FROM room_events WHERE room_id IN (SELECT id FROM rooms WHERE touched_ms < ?1)",
         1},
        {"DELETE FROM room_seats WHERE room_id IN (SELECT id FROM rooms WHERE touched_ms < ?1)", 1},
        {"DELETE FROM rooms WHERE touched_ms < ?1", 1},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && rc == DB_OK; i++) {
        store_q *q = store_stmt(s, steps[i].sql, &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, before_ms);
        if (rc == DB_OK && steps[i].params >= 2) rc = q_int64(q, 2, now_ms);
        if (rc == DB_OK) rc = q_step(q);
        if (rc == DB_DONE) {
            rc = DB_OK;
            n = (int)s->be->changes(q);
        }
        store_stmt_release(s, q);
    }
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    if (closed) *closed = n;
    return GMK_STORE_OK;
}

/* Runs the scoreboard query q (bound, rc its binding's result so far) and reads its lines
 * (name, games, wins, losses, draws) into out, *count of them; releases q. */
static gmk_store_status read_scores(gmk_store *s, store_q *q, int rc, gmk_store_player_score *out,
                                    int *count, const char *what, char *err, size_t errlen) {
    gmk_store_status st = GMK_STORE_OK;
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        gmk_store_player_score *p = &out[*count];
        copy_text(p->name, sizeof p->name, q_coltext(q, 0));
        p->games = q_colint(q, 1);
        p->wins = q_colint(q, 2);
        p->losses = q_colint(q, 3);
        p->draws = q_colint(q, 4);
        ++*count;
    }
    if (rc != DB_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_seat_scores(gmk_store *s, gmk_store_player_score *out, int cap,
                                       int *count, char *err, size_t errlen) {
    const char *what = "cannot read the seats' scores";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad arguments", what);
    *count = 0;
    /* events: 3 started and 16 colours chosen (color: seat 0's colour), 10 over (outcome 1 black
     * wins, 2 white wins, 3 draw); colours 1 black, 2 white: a seat won when the outcome is its
     * colour */
    static const char sql[] =
        "WITH over AS (SELECT e.room_id, e.outcome, (SELECT st.color FROM room_events st "
        "  WHERE st.room_id = e.room_id AND st.kind IN (3, 16) AND st.seq < e.seq "
        "  ORDER BY st.seq DESC LIMIT 1) AS c0 "
        "  FROM room_events e WHERE e.kind = 10 AND e.outcome IN (1, 2, 3)), "
        "mine AS (SELECT s.room_id, s.seat, s.name, o.outcome, "
        "  CASE s.seat WHEN 0 THEN o.c0 ELSE 3 - o.c0 END AS color "
        "  FROM over o JOIN room_seats s ON s.room_id = o.room_id WHERE o.c0 IN (1, 2)) "
        "SELECT name, count(*), sum(CASE WHEN outcome = color THEN 1 ELSE 0 END), "
        "  sum(CASE WHEN outcome IN (1, 2) AND outcome <> color THEN 1 ELSE 0 END), "
        "  sum(CASE WHEN outcome = 3 THEN 1 ELSE 0 END) FROM mine GROUP BY room_id, seat, name "
        "ORDER BY 3 DESC, 2 DESC, name LIMIT ?1";
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, cap);
    return read_scores(s, q, rc, out, count, what, err, errlen);
}

gmk_store_status gmk_store_player_scores(gmk_store *s, gmk_store_mode mode,
                                         gmk_store_player_score *out, int cap, int *count,
                                         char *err, size_t errlen) {
    const char *what = "cannot read the players' scores";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out) || (unsigned)mode >= GMK_STORE_MODE_COUNT)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad arguments", what);
    *count = 0;
    /* outcome 1 black wins, 2 white wins, 3 draw: each game once from each side */
    static const char sql[] =
        "SELECT name, count(*), sum(win), sum(loss), sum(draw) FROM ("
        "  SELECT black AS name, CASE WHEN outcome = 1 THEN 1 ELSE 0 END AS win, "
        "  CASE WHEN outcome = 2 THEN 1 ELSE 0 END AS loss, "
        "  CASE WHEN outcome = 3 THEN 1 ELSE 0 END AS draw "
        "  FROM games WHERE mode = ?1 AND outcome IN (1, 2, 3) UNION ALL "
        "  SELECT white, CASE WHEN outcome = 2 THEN 1 ELSE 0 END, "
        "  CASE WHEN outcome = 1 THEN 1 ELSE 0 END, CASE WHEN outcome = 3 THEN 1 ELSE 0 END "
        "  FROM games WHERE mode = ?1 AND outcome IN (1, 2, 3)) AS sides "
        "GROUP BY name ORDER BY sum(win) DESC, count(*) DESC, name LIMIT ?2";
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, (int)mode);
    if (rc == DB_OK) rc = q_int64(q, 2, cap);
    return read_scores(s, q, rc, out, count, what, err, errlen);
}

gmk_store_status gmk_store_rooms_clocked(gmk_store *s, char (*codes)[GMK_STORE_ROOM_CODE_MAX],
                                         int cap, int *count, char *err, size_t errlen) {
    const char *what = "cannot list the rooms with a clock";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !codes))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad arguments", what);
    *count = 0;
    int rc = store_read_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = NULL;
    q = store_stmt(s,
                   "SELECT code FROM rooms WHERE phase = 1 AND clock_ms > 0 "
                   "ORDER BY id LIMIT ?",
                   &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, cap);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        const char *code = q_coltext(q, 0);
        if (!code || strlen(code) >= GMK_STORE_ROOM_CODE_MAX) continue;
        snprintf(codes[*count], GMK_STORE_ROOM_CODE_MAX, "%s", code);
        (*count)++;
    }
    if (rc != DB_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    store_stmt_release(s, q);
    store_rollback(s);
    return st;
}

gmk_store_status gmk_store_room_seq(gmk_store *s, const char *code, int64_t *last_seq, char *err,
                                    size_t errlen) {
    const char *what = "cannot read the room";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!code || !last_seq) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no code", what);
    int rc;
    store_q *q = store_stmt(s, "SELECT last_seq FROM rooms WHERE code = ?1", &rc);
    if (rc == DB_OK) rc = q_text(q, 1, code, strlen(code));
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW)
        *last_seq = q_col64(q, 0);
    else if (rc == DB_DONE)
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "there is no room %s", code);
    else
        st = store_sql_fail(s, rc, what, err, errlen);
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_rooms_overdue(gmk_store *s, int64_t now_ms, int64_t grace_ms,
                                         char (*codes)[GMK_STORE_ROOM_CODE_MAX], int cap,
                                         int *count, char *err, size_t errlen) {
    const char *what = "cannot list the rooms out of time";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !codes) || !time_ok(now_ms) || grace_ms < 0 ||
        grace_ms > CLOCK_MAX_MS)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad arguments", what);
    *count = 0;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT code FROM rooms WHERE phase = 1 AND clock_ms > 0 AND "
                            "turn_start_ms + CASE WHEN black_ms < white_ms THEN black_ms "
                            "ELSE white_ms END < ?1 ORDER BY turn_start_ms LIMIT ?2",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, now_ms - grace_ms);
    if (rc == DB_OK) rc = q_int64(q, 2, cap);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        const char *code = q_coltext(q, 0);
        if (!code || strlen(code) >= GMK_STORE_ROOM_CODE_MAX) continue;
        snprintf(codes[*count], GMK_STORE_ROOM_CODE_MAX, "%s", code);
        (*count)++;
    }
    if (rc != DB_DONE) st = store_sql_fail(s, rc, what, err, errlen);
    store_stmt_release(s, q);
    return st;
}
