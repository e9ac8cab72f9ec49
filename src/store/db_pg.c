/* db_pg.c: the PostgreSQL backend, through libpq: the statement calls of store_backend,
 * opening (connection, session settings, migrations under an advisory lock) and reconnecting.
 *
 * Statements: the shared SQL's ?N placeholders become $N (a character substitution: the SQL of
 * src/store has no '?' inside a literal), and each run is one PQexecParams round trip with the
 * parameters typed (int8, text, bytea) and results as text. Errors are mapped by SQLSTATE:
 * integrity violations to DB_CONSTRAINT; a lock or statement timeout, a deadlock or a
 * serialization failure to DB_BUSY; a lost connection, a server shutting down or starting to
 * DB_UNAVAILABLE. A lost connection is made again only at the start of a store call outside a
 * batch (store_check), at most once a second, so that no transaction is ever continued on a
 * new connection; a batch begun on a lost connection fails at its end (store.c). A COMMIT that
 * the server turned into a ROLLBACK (the transaction had failed) is reported as a failure.
 *
 * The password of a connection string never leaves this file: s->path holds the string
 * rebuilt from its parts without it, and libpq's own parse errors are shown only when the
 * string holds no password. */
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store/rooms.h"
#include "store/schema.h"
#include "store/store_internal.h"

enum {
    PG_MAX_PARAMS = 32,
    RECONNECT_MS = 1000,         /* after a failed reconnection, wait this long */
    DEFAULT_STATEMENT_MS = 5000, /* statement_timeout unless the connection string sets one */
    MIGRATION_LOCK = 0x676d6b31, /* pg_advisory_xact_lock key: "gmk1" */
    INT8OID = 20,
    TEXTOID = 25,
    BYTEAOID = 17,
    FLOAT8OID = 701,
};

typedef struct {
    store_q base;
    char *sql; /* with $N placeholders */
    int nparams;
    char *val[PG_MAX_PARAMS];
    int len[PG_MAX_PARAMS];
    int fmt[PG_MAX_PARAMS];
    Oid type[PG_MAX_PARAMS];
    PGresult *res;
    int row;
    int runs;                         /* times run: from the second, it runs prepared */
    char name[24];                    /* its prepared statement's name, once prepared... */
    unsigned prepared_conn;           /* ...on this connection (s->conn_no + 1; 0: not) */
    Oid prepared_type[PG_MAX_PARAMS]; /* with these parameter types */
    bool is_commit;
    unsigned char *blob; /* the last bytea read, unescaped */
} pg_q;

static PGconn *conn_of(gmk_store *s) {
    return (PGconn *)s->db;
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Keeps msg as the handle's last error, on one line. */
static void set_error(gmk_store *s, const char *msg) {
    snprintf(s->pg_error, sizeof s->pg_error, "%s", msg && msg[0] ? msg : "unknown error");
    for (char *c = s->pg_error; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
    size_t n = strlen(s->pg_error);
    while (n > 0 && s->pg_error[n - 1] == ' ') s->pg_error[--n] = '\0';
}

/* The DB_ code of a failed result (res may be NULL). */
static int code_of(gmk_store *s, const PGresult *res) {
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (!state || PQstatus(conn_of(s)) != CONNECTION_OK) {
        if (PQstatus(conn_of(s)) != CONNECTION_OK) return DB_UNAVAILABLE;
        return DB_ERROR;
    }
    if (strncmp(state, "23", 2) == 0) return DB_CONSTRAINT;
    if (strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0) return DB_UNAVAILABLE;
    if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 || strcmp(state, "55P03") == 0 ||
        strcmp(state, "57014") == 0)
        return DB_BUSY;
    if (strcmp(state, "53100") == 0) return DB_FULL;
    if (strcmp(state, "25006") == 0 || strcmp(state, "42501") == 0) return DB_READONLY;
    return DB_ERROR;
}

/* Checks a result: DB_OK, or the failure's code with the message kept. Clears a failed res. */
static int check(gmk_store *s, PGresult **res) {
    ExecStatusType t = *res ? PQresultStatus(*res) : PGRES_FATAL_ERROR;
    if (t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK) return DB_OK;
    set_error(s, *res ? PQresultErrorMessage(*res) : PQerrorMessage(conn_of(s)));
    if (!s->pg_error[0] || strcmp(s->pg_error, "unknown error") == 0)
        set_error(s, PQerrorMessage(conn_of(s)));
    int rc = code_of(s, *res);
    if (rc == DB_UNAVAILABLE) atomic_store(&s->down, true);
    PQclear(*res);
    *res = NULL;
    return rc;
}

static int pg_exec(gmk_store *s, const char *sql) {
    PGresult *res = PQexec(conn_of(s), sql);
    int rc = check(s, &res);
    if (rc == DB_OK && strcasecmp(sql, "COMMIT") == 0 &&
        strcmp(PQcmdStatus(res), "ROLLBACK") == 0) {
        set_error(s, "the transaction had failed and was rolled back");
        rc = DB_ERROR;
    }
    PQclear(res);
    return rc;
}

/* ?N -> $N, and plain ? -> $k in order; *n receives the highest parameter number. */
static char *convert(const char *sql, int *n) {
    size_t len = strlen(sql);
    char *out = malloc(2 * len + 1);
    if (!out) return NULL;
    char *o = out;
    int plain = 0, high = 0;
    for (const char *p = sql; *p; p++) {
        if (*p != '?') {
            *o++ = *p;
            continue;
        }
        if (p[1] >= '0' && p[1] <= '9') {
            int k = 0;
            *o++ = '$';
            while (p[1] >= '0' && p[1] <= '9') {
                k = k * 10 + (p[1] - '0');
                *o++ = *++p;
            }
            if (k > high) high = k;
        } else {
            o += sprintf(o, "$%d", ++plain);
            if (plain > high) high = plain;
        }
    }
    *o = '\0';
    *n = high;
    return out;
}

static store_q *pg_prepare(gmk_store *s, const char *sql, int *rc) {
    pg_q *q = calloc(1, sizeof *q);
    if (!q) {
        *rc = DB_ERROR;
        return NULL;
    }
    q->base.s = s;
    q->sql = convert(sql, &q->nparams);
    if (!q->sql || q->nparams > PG_MAX_PARAMS) {
        set_error(s, "a statement has too many parameters");
        free(q->sql);
        free(q);
        *rc = DB_ERROR;
        return NULL;
    }
    q->is_commit = strcasecmp(sql, "COMMIT") == 0 || strcasecmp(sql, "RELEASE gmk_step") == 0;
    q->row = -1;
    *rc = DB_OK;
    return &q->base;
}

static pg_q *pq(store_q *q) {
    return (pg_q *)q;
}

static int set_param(store_q *base, int i, const void *data, size_t len, int fmt, Oid type) {
    pg_q *q = pq(base);
    if (i < 1 || i > q->nparams) return DB_RANGE;
    char *copy = malloc(len + 1);
    if (!copy) return DB_ERROR;
    if (len) memcpy(copy, data, len);
    copy[len] = '\0';
    free(q->val[i - 1]);
    q->val[i - 1] = copy;
    q->len[i - 1] = (int)len;
    q->fmt[i - 1] = fmt;
    q->type[i - 1] = type;
    return DB_OK;
}

static int pg_bind_int64(store_q *q, int i, int64_t v) {
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)v);
    return set_param(q, i, buf, (size_t)n, 0, INT8OID);
}

static int pg_bind_text(store_q *q, int i, const char *t, size_t len) {
    if (memchr(t, '\0', len)) return DB_RANGE;
    return set_param(q, i, t, len, 0, TEXTOID);
}

static int pg_bind_blob(store_q *q, int i, const void *p, size_t len) {
    return set_param(q, i, p, len, 1, BYTEAOID);
}

static bool in_row(pg_q *q, int i);

static int pg_bind_double(store_q *q, int i, double v) {
    char buf[40];
    int n = snprintf(buf, sizeof buf, "%.17g", v);
    return set_param(q, i, buf, (size_t)n, 0, FLOAT8OID);
}

static double pg_column_double(store_q *base, int i) {
    pg_q *q = pq(base);
    if (!in_row(q, i) || PQgetisnull(q->res, q->row, i)) return 0;
    return strtod(PQgetvalue(q->res, q->row, i), NULL);
}

/* Prepares q on the connection (a second run of one statement object: one from the handle's
 * cache, src/store/statements.c), so that the server parses and plans it once, not at every
 * run; false when it cannot be (then it runs unprepared). */
static bool prepare_named(gmk_store *s, pg_q *q) {
    static atomic_uint next = 0;
    if (q->prepared_conn == s->conn_no + 1 &&
        memcmp(q->prepared_type, q->type, (size_t)q->nparams * sizeof q->type[0]) == 0)
        return true;
    snprintf(q->name, sizeof q->name, "gmk_%u", atomic_fetch_add(&next, 1) + 1);
    PGresult *res = PQprepare(conn_of(s), q->name, q->sql, q->nparams, q->type);
    bool ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    q->prepared_conn = ok ? s->conn_no + 1 : 0;
    if (ok) memcpy(q->prepared_type, q->type, (size_t)q->nparams * sizeof q->type[0]);
    return ok;
}

static int pg_step(store_q *base) {
    pg_q *q = pq(base);
    gmk_store *s = base->s;
    if (!q->res) {
        if (++q->runs >= 2 && prepare_named(s, q))
            q->res = PQexecPrepared(conn_of(s), q->name, q->nparams, (const char *const *)q->val,
                                    q->len, q->fmt, 0);
        else
            q->res = PQexecParams(conn_of(s), q->sql, q->nparams, q->type,
                                  (const char *const *)q->val, q->len, q->fmt, 0);
        int rc = check(s, &q->res);
        if (rc != DB_OK) return rc;
        if (q->is_commit && strcmp(PQcmdStatus(q->res), "ROLLBACK") == 0) {
            set_error(s, "the transaction had failed and was rolled back");
            return DB_ERROR;
        }
        q->row = 0;
    } else {
        q->row++;
    }
    return q->row < PQntuples(q->res) ? DB_ROW : DB_DONE;
}

static bool in_row(pg_q *q, int i) {
    return q->res && q->row >= 0 && q->row < PQntuples(q->res) && i >= 0 && i < PQnfields(q->res);
}

static int64_t pg_column_int64(store_q *base, int i) {
    pg_q *q = pq(base);
    if (!in_row(q, i) || PQgetisnull(q->res, q->row, i)) return 0;
    const char *v = PQgetvalue(q->res, q->row, i);
    if (v[0] == 't' && v[1] == '\0') return 1; /* a boolean */
    return strtoll(v, NULL, 10);
}

static const char *pg_column_text(store_q *base, int i) {
    pg_q *q = pq(base);
    if (!in_row(q, i) || PQgetisnull(q->res, q->row, i)) return NULL;
    return PQgetvalue(q->res, q->row, i);
}

static const void *pg_column_blob(store_q *base, int i, size_t *len) {
    pg_q *q = pq(base);
    *len = 0;
    if (!in_row(q, i) || PQgetisnull(q->res, q->row, i)) return NULL;
    if (q->blob) PQfreemem(q->blob);
    q->blob = PQunescapeBytea((const unsigned char *)PQgetvalue(q->res, q->row, i), len);
    return q->blob;
}

static bool pg_column_null(store_q *base, int i) {
    pg_q *q = pq(base);
    return !in_row(q, i) || PQgetisnull(q->res, q->row, i);
}

static int64_t pg_changes(store_q *base) {
    pg_q *q = pq(base);
    return q->res ? strtoll(PQcmdTuples(q->res), NULL, 10) : 0;
}

static void pg_reset(store_q *base) {
    pg_q *q = pq(base);
    PQclear(q->res);
    q->res = NULL;
    q->row = -1;
    if (q->blob) PQfreemem(q->blob);
    q->blob = NULL;
    for (int i = 0; i < q->nparams; i++) {
        free(q->val[i]);
        q->val[i] = NULL;
        q->len[i] = 0;
        q->fmt[i] = 0;
        q->type[i] = 0;
    }
}

static void pg_finalize(store_q *base) {
    if (!base) return;
    pg_q *q = pq(base);
    gmk_store *s = base->s;
    if (q->prepared_conn && q->prepared_conn == s->conn_no + 1 && s->db &&
        PQstatus(conn_of(s)) == CONNECTION_OK) { /* a cached statement: at close, or rarely */
        char sql[48];
        snprintf(sql, sizeof sql, "DEALLOCATE %s", q->name);
        PQclear(PQexec(conn_of(s), sql));
    }
    pg_reset(base);
    free(pq(base)->sql);
    free(base);
}

static const char *pg_errmsg(gmk_store *s) {
    return s->pg_error[0] ? s->pg_error : "unknown error";
}

static bool pg_in_transaction(gmk_store *s) {
    if (!s->db || PQstatus(conn_of(s)) != CONNECTION_OK) return false;
    PGTransactionStatusType t = PQtransactionStatus(conn_of(s));
    return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

/* Session settings on a new connection: a statement timeout unless the connection string
 * (options=-c statement_timeout=...) or the role set one, and read-only for a read-only
 * handle. */
static int session_setup(gmk_store *s) {
    PGresult *res = PQexec(conn_of(s), "SHOW statement_timeout");
    int rc = check(s, &res);
    if (rc != DB_OK) return rc;
    bool unset = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "0") == 0;
    PQclear(res);
    if (unset) {
        char sql[64];
        snprintf(sql, sizeof sql, "SET statement_timeout = %d", DEFAULT_STATEMENT_MS);
        rc = pg_exec(s, sql);
        if (rc != DB_OK) return rc;
    }
    if (rc == DB_OK && s->readonly) rc = pg_exec(s, "SET default_transaction_read_only = on");
    if (rc == DB_OK && s->deferred_sync) rc = pg_exec(s, "SET synchronous_commit = off");
    return rc;
}

static void pg_ensure(gmk_store *s) {
    if (!s->db || PQstatus(conn_of(s)) == CONNECTION_OK) return;
    int64_t now = now_ms();
    if (now < s->retry_ms) return;
    PQreset(conn_of(s));
    if (PQstatus(conn_of(s)) != CONNECTION_OK) {
        set_error(s, PQerrorMessage(conn_of(s)));
        atomic_store(&s->down, true);
        s->retry_ms = now_ms() + RECONNECT_MS; /* the server is still away: not before */
        return;
    }
    s->conn_no++;
    atomic_store(&s->down, false);
    session_setup(s); /* a failure here shows again on the call's first statement */
}

static void pg_close(gmk_store *s) {
    if (s->db) PQfinish(conn_of(s));
    s->db = NULL;
    if (s->sync_conn) {
        PQfinish((PGconn *)s->sync_conn);
        pthread_mutex_destroy(&s->sync_mu);
    }
    s->sync_conn = NULL;
}

/* --- group commit (sync.c) --------------------------------------------------------------- */

static PGconn *connect_to(const char *conninfo, const char *app) {
    const char *const keys[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
    const char *const vals[] = {"5", app, conninfo, NULL};
    return PQconnectdbParams(keys, vals, 1);
}

gmk_store_status store_pg_defer_sync(gmk_store *s, char *err, size_t errlen) {
    const char *what = "cannot defer syncing";
    PGconn *c = connect_to(s->conninfo, "gomoku-sync");
    if (!c || PQstatus(c) != CONNECTION_OK) {
        set_error(s, c ? PQerrorMessage(c) : "out of memory");
        PQfinish(c);
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "%s: cannot connect to %s: %s", what,
                          s->path, s->pg_error);
    }
    int rc = pg_exec(s, "SET synchronous_commit = off");
    if (rc != DB_OK) {
        PQfinish(c);
        return store_sql_fail(s, rc, what, err, errlen);
    }
    pthread_mutex_init(&s->sync_mu, NULL);
    s->sync_conn = c;
    s->deferred_sync = true;
    return GMK_STORE_OK;
}

gmk_store_status store_pg_sync(gmk_store *s, char *err, size_t errlen) {
    pthread_mutex_lock(&s->sync_mu);
    PGconn *c = s->sync_conn;
    PGresult *res = NULL;
    bool ok = false;
    for (int attempt = 0; attempt < 2 && !ok; attempt++) { /* again once on a new connection */
        if (PQstatus(c) != CONNECTION_OK) PQreset(c);
        PQclear(res);
        /* txid_current() gives the transaction an id, so its commit writes a record and waits
         * for the flush of the WAL up to it (synchronous_commit is on on this connection) */
        res =
            PQstatus(c) == CONNECTION_OK ? PQexec(c, "BEGIN; SELECT txid_current(); COMMIT") : NULL;
        ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
        if (!ok && PQstatus(c) == CONNECTION_OK) break; /* the server answered: no retry */
    }
    char msg[256];
    snprintf(msg, sizeof msg, "%s", res ? PQresultErrorMessage(res) : PQerrorMessage(c));
    PQclear(res);
    pthread_mutex_unlock(&s->sync_mu);
    if (ok) return GMK_STORE_OK;
    for (char *p = msg; *p; p++)
        if (*p == '\n') *p = ' ';
    return store_fail(err, errlen, GMK_STORE_UNAVAILABLE,
                      "cannot make the commits durable: %s (%s)", msg[0] ? msg : "no connection",
                      s->path);
}

const store_backend store_pg_backend = {
    .name = "PostgreSQL",
    .begin_write = "BEGIN", /* READ COMMITTED + row locks */
    .begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", /* one snapshot */
    .lock_game = "SELECT id FROM games WHERE id = ?1 FOR UPDATE",    /* one writer per game */
    .notify_room = "SELECT pg_notify('gomoku_rooms', ?1)",           /* delivered at commit */
    .exec = pg_exec,
    .prepare = pg_prepare,
    .bind_int64 = pg_bind_int64,
    .bind_text = pg_bind_text,
    .bind_blob = pg_bind_blob,
    .bind_double = pg_bind_double,
    .step = pg_step,
    .column_int64 = pg_column_int64,
    .column_double = pg_column_double,
    .column_text = pg_column_text,
    .column_blob = pg_column_blob,
    .column_null = pg_column_null,
    .changes = pg_changes,
    .reset = pg_reset,
    .finalize = pg_finalize,
    .errmsg = pg_errmsg,
    .in_transaction = pg_in_transaction,
    .ensure = pg_ensure,
    .close = pg_close,
};

/* --- names ---------------------------------------------------------------------------- */

bool store_pg_is_conninfo(const char *name) {
    if (!name) return false;
    if (strncmp(name, "postgresql://", 13) == 0 || strncmp(name, "postgres://", 11) == 0)
        return true;
    /* key=value: the first word is one of libpq's keywords, followed by '=' */
    const char *p = name;
    while (*p == ' ' || *p == '\t') p++;
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '_') n++;
    const char *q = p + n;
    while (*q == ' ' || *q == '\t') q++;
    if (n == 0 || *q != '=') return false;
    bool known = false;
    PQconninfoOption *opts = PQconndefaults();
    for (PQconninfoOption *o = opts; o && o->keyword; o++)
        if (strlen(o->keyword) == n && strncmp(o->keyword, p, n) == 0) known = true;
    PQconninfoFree(opts);
    return known;
}

/* Does the string hold a password (password=..., or user:password@ in a URI)? */
static bool has_secret(const char *conninfo) {
    if (strcasestr(conninfo, "password")) return true;
    const char *at = strchr(conninfo, '@');
    const char *scheme = strstr(conninfo, "://");
    if (scheme && at) {
        const char *colon = strchr(scheme + 3, ':');
        if (colon && colon < at) return true;
    }
    return false;
}

void store_pg_display(const char *conninfo, char *out, size_t outlen) {
    PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
    const char *user = "", *host = "", *port = "", *dbname = "";
    for (PQconninfoOption *o = opts; o && o->keyword; o++) {
        if (!o->val) continue;
        if (strcmp(o->keyword, "user") == 0) user = o->val;
        if (strcmp(o->keyword, "host") == 0) host = o->val;
        if (strcmp(o->keyword, "port") == 0) port = o->val;
        if (strcmp(o->keyword, "dbname") == 0) dbname = o->val;
    }
    bool socket = host[0] == '/';
    snprintf(out, outlen, "postgresql://%s%s%s%s%s/%s%s%s", user, user[0] ? "@" : "",
             socket ? "" : host, port[0] && !socket ? ":" : "", socket ? "" : port, dbname,
             socket ? "?host=" : "", socket ? host : "");
    if (socket && port[0] && strlen(out) + strlen(port) + 7 < outlen) {
        strcat(out, "&port=");
        strcat(out, port);
    }
    PQconninfoFree(opts);
}

/* --- opening -------------------------------------------------------------------------- */

/* The servers' working tables (store/presence.h): leases and the streams each server holds.
 * They hold no data that outlives the servers, so they are kept outside the versioned schema
 * (an older gomoku ignores them, a newer one may drop and create them again) and exist only
 * on a shared database; created when missing at each writable open, under the lock. */
#define WORKING_TABLES                                                                             \
    "SET LOCAL client_min_messages = warning; " /* no notice that they exist */                    \
    "CREATE TABLE IF NOT EXISTS gomoku_servers (id BIGINT PRIMARY KEY, "                           \
    "alive_until_ms BIGINT NOT NULL); "                                                            \
    "CREATE TABLE IF NOT EXISTS gomoku_presence (code TEXT NOT NULL REFERENCES rooms (code) "      \
    "ON DELETE CASCADE, seat INTEGER NOT NULL, server BIGINT NOT NULL, streams INTEGER NOT NULL, " \
    "since_ms BIGINT NOT NULL, PRIMARY KEY (code, seat, server))"

/* Reads, and creates or migrates, the schema under the migration lock, in one transaction. */
static gmk_store_status migrate(gmk_store *s, int flags, char *err, size_t errlen) {
    const char *what = "cannot read the database";
    int rc = pg_exec(s, s->readonly ? "BEGIN READ ONLY" : "BEGIN");
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT pg_advisory_xact_lock(%d)", MIGRATION_LOCK);
    if (rc == DB_OK) rc = pg_exec(s, sql);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    PGresult *res = PQexec(conn_of(s), "SELECT to_regclass('gomoku_schema') IS NOT NULL, "
                                       "to_regclass('games') IS NOT NULL");
    rc = check(s, &res);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    bool has_version = PQgetvalue(res, 0, 0)[0] == 't', has_games = PQgetvalue(res, 0, 1)[0] == 't';
    PQclear(res);
    int v = 0;
    if (has_version) {
        res = PQexec(conn_of(s), "SELECT max(version) FROM gomoku_schema");
        rc = check(s, &res);
        if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
        v = atoi(PQgetvalue(res, 0, 0));
        PQclear(res);
    } else if (has_games) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_CORRUPT,
                          "%s holds a table 'games' but is not a gomoku database; it was left "
                          "untouched",
                          s->path);
    }
    s->version = v;
    if (v > GMK_STORE_SCHEMA_VERSION) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_TOO_NEW,
                          "%s was written by a newer version of gomoku (schema %d, this one "
                          "knows up to %d); it was left untouched",
                          s->path, v, GMK_STORE_SCHEMA_VERSION);
    }
    if (v == 0 && (flags & (GMK_STORE_OPEN_READONLY | GMK_STORE_OPEN_EXISTING))) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s holds no games yet", s->path);
    }
    if (s->readonly && v < GMK_STORE_SCHEMA_VERSION) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_READ_ONLY,
                          "%s needs upgrading from schema %d to %d; open it once for writing",
                          s->path, v, GMK_STORE_SCHEMA_VERSION);
    }
    if (v == GMK_STORE_SCHEMA_VERSION) {
        rc = s->readonly ? DB_OK : pg_exec(s, WORKING_TABLES);
        if (rc == DB_OK) rc = pg_exec(s, "COMMIT");
        return rc == DB_OK ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
    }
    rc = pg_exec(s, "CREATE TABLE IF NOT EXISTS gomoku_schema (version INTEGER NOT NULL)");
    for (int from = v; rc == DB_OK && from < GMK_STORE_SCHEMA_VERSION; from++) {
        rc = pg_exec(s, store_pg_migrations[from]);
        if (rc != DB_OK) {
            gmk_store_status st = store_status_of(rc);
            if (st == GMK_STORE_OK) st = GMK_STORE_IO;
            store_fail(err, errlen, st,
                       "cannot upgrade %s from schema %d to %d: %s; it was left unchanged", s->path,
                       from, from + 1, pg_errmsg(s));
            store_rollback(s);
            return st;
        }
    }
    snprintf(sql, sizeof sql, "DELETE FROM gomoku_schema; INSERT INTO gomoku_schema VALUES (%d)",
             GMK_STORE_SCHEMA_VERSION);
    if (rc == DB_OK) rc = pg_exec(s, sql);
    if (rc == DB_OK) rc = pg_exec(s, WORKING_TABLES);
    if (rc == DB_OK) rc = pg_exec(s, "COMMIT");
    if (rc != DB_OK) return store_sql_fail(s, rc, "cannot upgrade the database", err, errlen);
    s->version = GMK_STORE_SCHEMA_VERSION;
    return GMK_STORE_OK;
}

gmk_store_status store_pg_open(gmk_store *s, const char *conninfo, int flags, char *err,
                               size_t errlen) {
    s->kind = STORE_PG;
    s->be = &store_pg_backend;
    s->readonly = flags & GMK_STORE_OPEN_READONLY;
    if (strlen(conninfo) >= sizeof s->conninfo)
        return store_fail(err, errlen, GMK_STORE_INVALID, "the connection string is too long");
    snprintf(s->conninfo, sizeof s->conninfo, "%s", conninfo);
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(conninfo, &perr);
    if (!opts) {
        gmk_store_status st =
            has_secret(conninfo) || !perr
                ? store_fail(err, errlen, GMK_STORE_INVALID,
                             "the PostgreSQL connection string is not valid")
                : store_fail(err, errlen, GMK_STORE_INVALID,
                             "the PostgreSQL connection string is not valid: %s", perr);
        PQfreemem(perr);
        return st;
    }
    PQconninfoFree(opts);
    store_pg_display(conninfo, s->path, sizeof s->path);
    /* later keywords win: the string's own connect_timeout overrides ours */
    const char *const keys[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
    const char *const vals[] = {"5", "gomoku", conninfo, NULL};
    s->db = PQconnectdbParams(keys, vals, 1);
    if (!s->db) return store_fail(err, errlen, GMK_STORE_IO, "out of memory");
    if (PQstatus(conn_of(s)) != CONNECTION_OK) {
        set_error(s, PQerrorMessage(conn_of(s)));
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "cannot connect to %s: %s", s->path,
                          s->pg_error);
    }
    int rc = session_setup(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, "cannot set up the connection", err, errlen);
    return migrate(s, flags, err, errlen);
}

/* --- the listener (store/rooms.h) -------------------------------------------------------- */

struct gmk_store_listener {
    PGconn *conn;
    char conninfo[1024];
    int64_t retry_ms;
};

/* Connects (again) and listens; false when the server cannot be reached. */
static bool listen_connect(gmk_store_listener *l) {
    if (l->conn) PQfinish(l->conn);
    l->conn = connect_to(l->conninfo, "gomoku-listener");
    if (!l->conn || PQstatus(l->conn) != CONNECTION_OK) return false;
    PGresult *res = PQexec(l->conn, "LISTEN gomoku_rooms");
    bool ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    return ok;
}

gmk_store_status gmk_store_listener_open(const gmk_store *s, gmk_store_listener **out, char *err,
                                         size_t errlen) {
    *out = NULL;
    if (!s || s->kind != STORE_PG)
        return store_fail(err, errlen, GMK_STORE_INVALID, "only a shared database has news");
    gmk_store_listener *l = calloc(1, sizeof *l);
    if (!l) return store_fail(err, errlen, GMK_STORE_IO, "out of memory");
    snprintf(l->conninfo, sizeof l->conninfo, "%s", s->conninfo);
    if (!listen_connect(l)) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", l->conn ? PQerrorMessage(l->conn) : "out of memory");
        for (char *c = msg; *c; c++)
            if (*c == '\n') *c = ' ';
        gmk_store_listener_close(l);
        return store_fail(err, errlen, GMK_STORE_UNAVAILABLE, "cannot listen on %s: %s", s->path,
                          msg);
    }
    *out = l;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_listener_wait(gmk_store_listener *l, int timeout_ms,
                                         char (*codes)[GMK_STORE_ROOM_CODE_MAX], int64_t *seqs,
                                         int cap, int *count, bool *lost) {
    *count = 0;
    *lost = false;
    if (!l->conn || PQstatus(l->conn) != CONNECTION_OK) {
        int64_t now = now_ms();
        if (now < l->retry_ms || !listen_connect(l)) {
            l->retry_ms = now + RECONNECT_MS;
            struct timespec ts = {.tv_sec = timeout_ms / 1000,
                                  .tv_nsec = (long)(timeout_ms % 1000) * 1000000};
            nanosleep(&ts, NULL);
            return GMK_STORE_UNAVAILABLE;
        }
        *lost = true; /* listening again: what was sent meanwhile is unknown */
    }
    struct pollfd pfd = {.fd = PQsocket(l->conn), .events = POLLIN};
    /* every call drains what was received, so nothing waits in libpq's buffer now */
    if (poll(&pfd, 1, timeout_ms) <= 0) return GMK_STORE_OK;
    if (!PQconsumeInput(l->conn) || PQstatus(l->conn) != CONNECTION_OK) {
        *lost = true;
        return GMK_STORE_UNAVAILABLE;
    }
    PGnotify *n;
    while ((n = PQnotifies(l->conn)) != NULL) {
        /* "CODE:SEQ" (SEQ missing or bad: 0, "read it to know") */
        char code[GMK_STORE_ROOM_CODE_MAX];
        size_t len = strcspn(n->extra, ":");
        long long seq = n->extra[len] == ':' ? strtoll(n->extra + len + 1, NULL, 10) : 0;
        if (seq < 0) seq = 0;
        if (len >= sizeof code) { /* not a room of ours */
            PQfreemem(n);
            continue;
        }
        memcpy(code, n->extra, len);
        code[len] = '\0';
        PQfreemem(n);
        int i = 0;
        while (i < *count && strcmp(codes[i], code) != 0) i++;
        if (i == *count && *count < cap) {
            snprintf(codes[(*count)++], GMK_STORE_ROOM_CODE_MAX, "%s", code);
            seqs[i] = seq;
        } else if (i == *count) {
            *lost = true; /* more rooms than room for them: have the caller check them all */
        } else if (seq > seqs[i]) {
            seqs[i] = seq;
        }
    }
    return GMK_STORE_OK;
}

void gmk_store_listener_close(gmk_store_listener *l) {
    if (!l) return;
    if (l->conn) PQfinish(l->conn);
    free(l);
}
