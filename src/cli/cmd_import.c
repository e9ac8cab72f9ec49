/* cmd_import.c: gomoku import: reads a PSQ, SGF or move-string record, replays it under the
 * rules, and stores it as a finished two-human game (docs/formats.md). The whole file is read
 * and judged before the store is opened, so bad input never leaves anything behind. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/record.h"
#include "store/store.h"

/* Records larger than this are refused unread (a 22x22 PSQ is under 10 KB). */
#define IMPORT_MAX_BYTES (1024 * 1024)

/* Replaces control characters in an error message with '?', so that it stays one line. */
static void one_line(char *msg) {
    for (unsigned char *c = (unsigned char *)msg; *c; c++)
        if (*c < 0x20 || *c == 0x7f) *c = '?';
}

/* Control characters in a player's name (an SGF value may hold line breaks) become spaces. */
static void clean_name(char *name) {
    for (unsigned char *c = (unsigned char *)name; *c; c++)
        if (*c < 0x20 || *c == 0x7f) *c = ' ';
}

/* Reads the whole file (or stdin for "-") into a NUL-terminated buffer. */
static char *read_file(const char *path, size_t *out_len, char *err, size_t errlen) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = IMPORT_MAX_BYTES + 2, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    size_t n;
    while (len < cap - 1 && (n = fread(buf + len, 1, cap - 1 - len, f)) > 0) len += n;
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        goto fail;
    }
    if (len > IMPORT_MAX_BYTES) {
        snprintf(err, errlen, "%s is larger than 1 MB: not a game record", path);
        goto fail;
    }
    buf[len] = '\0';
    if (f != stdin) fclose(f);
    *out_len = len;
    return buf;
fail:
    free(buf);
    if (f != stdin) fclose(f);
    return NULL;
}

/* Refuses what cannot be a text record: nothing at all, or control bytes other than tabs and
 * line ends (binary files). */
static bool check_text(const char *path, const char *text, size_t len, char *err, size_t errlen) {
    size_t k = 0;
    while (k < len && strchr(" \t\r\n", text[k])) k++;
    if (k == len) {
        snprintf(err, errlen, "%s is empty", path);
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            snprintf(err, errlen, "%s is not a text file (byte 0x%02x at offset %zu)", path, c, i);
            return false;
        }
    }
    return true;
}

/* Reads the record in text, whatever its format. size 0: move strings use 15. */
static bool read_record(const char *text, gmk_rule rule, int size, gmk_record *rec, char *err,
                        size_t errlen) {
    if (strncmp(text, "\xEF\xBB\xBF", 3) == 0) text += 3; /* a UTF-8 byte order mark */
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n') text++;
    switch (gmk_record_detect(text)) {
    case GMK_RECORD_PSQ: return gmk_record_read_psq(text, rule, rec, err, errlen);
    case GMK_RECORD_SGF: {
        size_t used = 0;
        if (!gmk_record_read_sgf(text, rule, &used, rec, err, errlen)) return false;
        const char *rest = text + used;
        while (*rest == ' ' || *rest == '\t' || *rest == '\r' || *rest == '\n') rest++;
        if (*rest == '(') {
            snprintf(err, errlen, "the SGF file holds more than one game; import reads one");
            return false;
        }
        if (*rest) {
            snprintf(err, errlen, "at character %zu: unexpected text after the game",
                     (size_t)(rest - text) + 1);
            return false;
        }
        return true;
    }
    case GMK_RECORD_MOVES:
        return gmk_record_read_moves(text, size ? size : GMK_DEFAULT_SIZE, rule, rec, err, errlen);
    default:
        snprintf(err, errlen,
                 "not a game record (PSQ starts with 'Piskvorky', SGF with '(', a "
                 "move string with a point such as h8)");
        return false;
    }
}

/* Replays the record under its rule. Every move must be legal (on the board, on a free point,
 * not a renju foul) and none may follow the end of the game. On success *res is the result
 * of the board (GMK_ONGOING when it holds no end). */
static bool judge(const gmk_record *rec, gmk_result *res, char *err, size_t errlen) {
    gmk_board *b = malloc(sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = false;
    if (!gmk_record_to_board(rec, b, err, errlen)) goto done; /* size, off board, taken */
    gmk_board_init(b, rec->size, rec->rule);
    for (int i = 0; i < rec->count; i++) {
        gmk_pos p = rec->moves[i];
        char name[4];
        gmk_notation_point(p, rec->size, name);
        gmk_forbid_kind kind;
        gmk_move_verdict v = gmk_rules_check_move(b, p, &kind);
        if (v == GMK_MOVE_FORBIDDEN) {
            snprintf(err, errlen, "move %d (%s) is forbidden for black under renju rules (%s)",
                     i + 1, name, gmk_forbid_name(kind));
            goto done;
        }
        if (v != GMK_MOVE_LEGAL) {
            snprintf(err, errlen, "move %d (%s) is not a legal move", i + 1, name);
            goto done;
        }
        gmk_board_make(b, p);
        gmk_result now;
        gmk_rules_result_after_last(b, &now);
        if (now.outcome != GMK_ONGOING && i + 1 < rec->count) {
            char next[4];
            gmk_notation_point(rec->moves[i + 1], rec->size, next);
            snprintf(err, errlen,
                     "move %d (%s) comes after the end of the game (%s, %s, at move %d)", i + 2,
                     next, gmk_outcome_name(now.outcome), gmk_reason_name(now.reason), i + 1);
            goto done;
        }
    }
    gmk_rules_result(b, res, NULL);
    ok = true;
done:
    free(b);
    return ok;
}

/* The result to store: the board's when it shows the end (a five, a full board), else the
 * one the record states (resignation, time, an agreed draw). false when the record's claim
 * cannot be right. GMK_ONGOING when neither says. */
static bool decide(const gmk_record *rec, const gmk_result *board, gmk_outcome *outcome,
                   gmk_reason *reason, char *err, size_t errlen) {
    if (board->outcome != GMK_ONGOING) {
        *outcome = board->outcome;
        *reason = board->reason;
        return true;
    }
    *outcome = rec->outcome;
    *reason = rec->outcome == GMK_ONGOING ? GMK_REASON_NONE : rec->reason;
    if (*reason == GMK_REASON_FIVE || *reason == GMK_REASON_FORBIDDEN ||
        *reason == GMK_REASON_FULL_BOARD || *reason == GMK_REASON_NO_LEGAL_POINT) {
        snprintf(err, errlen, "the record says %s by %s, but the moves do not show it under %s",
                 gmk_outcome_name(*outcome), gmk_reason_name(*reason), gmk_rule_name(rec->rule));
        return false;
    }
    return true;
}

/* Stores the judged record as a finished two-human game, in one transaction: all of it or
 * nothing; *id gets its id. */
static gmk_store_status store_record(gmk_store *s, const gmk_record *rec, gmk_outcome outcome,
                                     gmk_reason reason, int64_t *id, char *err, size_t errlen) {
    gmk_store_new_game g = {
        .mode = GMK_STORE_MODE_HVH,
        .rule = rec->rule,
        .size = rec->size,
        .level = 0,
        .black = rec->black,
        .white = rec->white,
        .human = GMK_EMPTY,
        .started_s = 0,
    };
    gmk_store_status st = gmk_store_batch_begin(s, err, errlen);
    if (st != GMK_STORE_OK) return st;
    st = gmk_store_game_begin(s, &g, id, err, errlen);
    for (int i = 0; i < rec->count && st == GMK_STORE_OK; i++) {
        int64_t t = rec->time_ms[i] > 0 ? rec->time_ms[i] : 0;
        st = gmk_store_game_add_move(s, *id, i, gmk_pos_x(rec->moves[i]), gmk_pos_y(rec->moves[i]),
                                     t, err, errlen);
    }
    if (st == GMK_STORE_OK) {
        if (outcome == GMK_ONGOING)
            st = gmk_store_game_abandon(s, *id, 0, err, errlen);
        else
            st = gmk_store_game_finish(s, *id, outcome, reason, 0, err, errlen);
    }
    if (st == GMK_STORE_OK) return gmk_store_batch_end(s, true, err, errlen);
    /* never leave a half-imported game to be offered for resuming */
    gmk_store_batch_end(s, false, NULL, 0);
    return st;
}

bool cli_load_record_file(const char *path, gmk_rule rule, int size, gmk_record *rec, char *err,
                          size_t errlen) {
    size_t len = 0;
    char why[500];
    char *text = read_file(path, &len, err, errlen);
    bool ok = text && check_text(path, text, len, err, errlen);
    if (ok && !read_record(text, rule, size, rec, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        ok = false;
    }
    free(text);
    return ok;
}

int cmd_import(int argc, char **argv) {
    const cli_command *self = cli_find("import");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    const char *db = NULL, *path = NULL, *value;
    bool rule_given = false;
    gmk_rule rule = GMK_RULE_FREESTYLE;
    long size = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error("import", "--db needs a file name");
            db = value;
        } else if (cli_option(argc, argv, &i, "--rule", &value)) {
            if (!value || !gmk_rule_parse(value, &rule))
                return cli_error("import", "--rule needs freestyle, standard, renju or caro");
            rule_given = true;
        } else if (cli_option(argc, argv, &i, "--size", &value)) {
            if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &size))
                return cli_error("import", "--size needs a number from %d to %d", GMK_MIN_SIZE,
                                 GMK_MAX_SIZE);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error("import", "unknown option '%s'", argv[i]);
        } else if (path) {
            return cli_error("import", "unexpected argument '%s'", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path) return cli_error("import", "which file? give a PSQ, SGF or move-string record");

    char err[600], why[500];
    int rc = CLI_USAGE;
    size_t len = 0;
    gmk_result res;
    gmk_outcome outcome = GMK_ONGOING;
    gmk_reason reason = GMK_REASON_NONE;
    gmk_store_status st;
    int64_t id = 0;
    gmk_record *rec = malloc(sizeof *rec);
    char *text = rec ? read_file(path, &len, err, sizeof err) : NULL;
    gmk_store *s = NULL;
    if (!rec) snprintf(err, sizeof err, "out of memory");
    if (!text || !check_text(path, text, len, err, sizeof err)) goto bad;

    if (!read_record(text, rule, (int)size, rec, why, sizeof why)) {
        snprintf(err, sizeof err, "%s: %s", path, why);
        goto bad;
    }
    if (rule_given && rec->rule_known && rec->rule != rule) {
        snprintf(err, sizeof err, "%s: the record is a %s game, but --rule says %s", path,
                 gmk_rule_name(rec->rule), gmk_rule_name(rule));
        goto bad;
    }
    if (size && rec->size != size) {
        snprintf(err, sizeof err, "%s: the record is %dx%d, but --size says %ld", path, rec->size,
                 rec->size, size);
        goto bad;
    }
    clean_name(rec->black);
    clean_name(rec->white);
    if (rec->count == 0) {
        snprintf(err, sizeof err, "%s: the record holds no moves", path);
        goto bad;
    }
    if (!judge(rec, &res, why, sizeof why) ||
        !decide(rec, &res, &outcome, &reason, why, sizeof why)) {
        snprintf(err, sizeof err, "%s: %s", path, why);
        goto bad;
    }

    st = gmk_store_open(db, GMK_STORE_OPEN_DEFAULT, &s, err, sizeof err);
    if (st == GMK_STORE_OK) st = store_record(s, rec, outcome, reason, &id, err, sizeof err);
    if (st != GMK_STORE_OK) {
        one_line(err);
        cli_error("import", "%s", err);
        rc = CLI_FAIL;
        goto done;
    }
    printf("%lld\n", (long long)id);
    rc = CLI_OK;
    goto done;
bad:
    one_line(err);
    cli_error("import", "%s", err);
done:
    gmk_store_close(s);
    free(text);
    free(rec);
    return rc;
}
