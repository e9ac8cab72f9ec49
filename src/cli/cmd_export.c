/* cmd_export.c: gomoku export: writes the record of a stored game as PSQ, SGF or a move string
 * (docs/formats.md). Reads the store only; never changes it. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/record.h"
#include "store/store.h"

/* Big enough for any record: 484 PSQ lines of at most ~25 bytes, or SGF with escaped names. */
#define EXPORT_BUF_BYTES (64 * 1024)

/* The stored game as a record (players, result, move times). */
static void store_to_record(const gmk_store_record *in, gmk_record *out) {
    const gmk_store_game *g = &in->game;
    gmk_record_init(out, g->size, g->rule);
    for (int i = 0; i < g->move_count; i++) {
        int64_t t = in->moves[i].time_ms;
        if (t < 0) t = 0;
        if (t > INT32_MAX) t = INT32_MAX;
        gmk_record_add(out, gmk_pos_xy(in->moves[i].x, in->moves[i].y), (int32_t)t);
    }
    snprintf(out->black, sizeof out->black, "%s", g->black);
    snprintf(out->white, sizeof out->white, "%s", g->white);
    if (g->finished && !g->abandoned) {
        out->outcome = g->outcome;
        out->reason = g->reason;
    }
}

/* Writes len bytes of text to path (or stdout when path is NULL). */
static bool write_out(const char *path, const char *text, size_t len, char *err, size_t errlen) {
    if (!path) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
            return false;
        }
        return true;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(text, 1, len, f) == len;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) snprintf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    return ok;
}

int cmd_export(int argc, char **argv) {
    const cli_command *self = cli_find("export");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    const char *db = NULL, *output = NULL, *value, *id_text = NULL;
    gmk_record_format format = GMK_RECORD_PSQ;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error("export", "--db needs a file name");
            db = value;
        } else if (cli_option(argc, argv, &i, "--format", &value)) {
            if (value && strcmp(value, "psq") == 0)
                format = GMK_RECORD_PSQ;
            else if (value && strcmp(value, "sgf") == 0)
                format = GMK_RECORD_SGF;
            else if (value && strcmp(value, "moves") == 0)
                format = GMK_RECORD_MOVES;
            else
                return cli_error("export", "--format needs psq, sgf or moves");
        } else if (cli_option(argc, argv, &i, "--output", &value)) {
            if (!value || !*value) return cli_error("export", "--output needs a file name");
            output = value;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error("export", "unknown option '%s'", argv[i]);
        } else if (id_text) {
            return cli_error("export", "unexpected argument '%s'", argv[i]);
        } else {
            id_text = argv[i];
        }
    }
    if (!id_text) return cli_error("export", "which game? give its id (gomoku stats lists them)");
    long id;
    if (!cli_parse_int(id_text, 1, LONG_MAX, &id))
        return cli_error("export", "'%s' is not a game id (a number from 1)", id_text);

    char err[600];
    gmk_store *s = NULL;
    gmk_store_status st = gmk_store_open(db, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err);
    if (st == GMK_STORE_READ_ONLY)
        st = gmk_store_open(db, GMK_STORE_OPEN_READONLY, &s, err, sizeof err);
    if (st == GMK_STORE_NOT_FOUND) return cli_error("export", "no game %ld: %s", id, err);
    if (st != GMK_STORE_OK) {
        cli_error("export", "%s", err);
        return CLI_FAIL;
    }

    int rc = CLI_FAIL;
    gmk_store_record *stored = malloc(sizeof *stored);
    gmk_record *rec = malloc(sizeof *rec);
    char *buf = malloc(EXPORT_BUF_BYTES);
    if (!stored || !rec || !buf) {
        cli_error("export", "out of memory");
        goto done;
    }
    st = gmk_store_game_load(s, (int64_t)id, stored, err, sizeof err);
    if (st == GMK_STORE_NOT_FOUND) {
        rc = cli_error("export", "no game %ld in %s (gomoku stats lists the games)", id,
                       gmk_store_path(s));
        goto done;
    }
    if (st != GMK_STORE_OK) {
        cli_error("export", "%s", err);
        goto done;
    }
    store_to_record(stored, rec);
    int len;
    if (format == GMK_RECORD_PSQ)
        len = gmk_record_write_psq(rec, buf, EXPORT_BUF_BYTES);
    else if (format == GMK_RECORD_SGF)
        len = gmk_record_write_sgf(rec, buf, EXPORT_BUF_BYTES);
    else {
        len = gmk_record_write_moves(rec, buf, EXPORT_BUF_BYTES - 1);
        if (len >= 0) buf[len++] = '\n';
    }
    if (len < 0) {
        cli_error("export", "game %ld: the record does not fit in %d bytes", id, EXPORT_BUF_BYTES);
        goto done;
    }
    if (!write_out(output, buf, (size_t)len, err, sizeof err)) {
        cli_error("export", "%s", err);
        goto done;
    }
    rc = CLI_OK;
done:
    free(buf);
    free(rec);
    free(stored);
    gmk_store_close(s);
    return rc;
}
