/* cmd_match.c: gomoku match: two Gomocup engines play each other; gomoku match --verify reads
 * game records back. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/record.h"
#include "gomocup/match.h"

static bool parse_ms(const char *text, int64_t *out) {
    long v;
    if (!cli_parse_int(text, 0, 1000L * 1000 * 1000, &v)) return false;
    *out = v;
    return true;
}

/* "elo0,elo1,alpha,beta" or "elo0=..,elo1=..,alpha=..,beta=.." (missing: 0,10,0.05,0.05). */
static bool parse_sprt(const char *text, gmk_match_options *o) {
    double v[4] = {0, 10, 0.05, 0.05};
    static const char *const keys[4] = {"elo0", "elo1", "alpha", "beta"};
    const char *s = text;
    int given = 0;
    bool keyed = false;
    for (int k = 0; k < 4 && s && *s; k++) {
        int slot = k;
        for (int j = 0; j < 4; j++) {
            size_t n = strlen(keys[j]);
            if (strncmp(s, keys[j], n) == 0 && s[n] == '=') {
                slot = j;
                s += n + 1;
                keyed = true;
            }
        }
        char *end;
        errno = 0;
        double d = strtod(s, &end);
        if (end == s || errno || !isfinite(d) || fabs(d) > 10000) return false;
        v[slot] = d;
        given++;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return false;
    }
    if (*s || (!keyed && given != 4)) return false; /* positional: all four values */
    if (v[2] <= 0 || v[2] >= 0.5 || v[3] <= 0 || v[3] >= 0.5 || v[0] >= v[1]) return false;
    o->sprt = true;
    o->elo0 = v[0];
    o->elo1 = v[1];
    o->alpha = v[2];
    o->beta = v[3];
    return true;
}

/* Matches "--engine1" / "--engine2" style options: returns 0 or 1, or -1 for no match. */
static int indexed_option(int argc, char **argv, int *i, const char *prefix, const char **v) {
    char name[32];
    for (int e = 0; e < 2; e++) {
        snprintf(name, sizeof name, "%s%d", prefix, e + 1);
        if (cli_option(argc, argv, i, name, v)) return e;
    }
    return -1;
}

static char *read_file(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
        if (len + 1 == cap) {
            if (cap >= (64u << 20)) {
                free(buf);
                buf = NULL;
                snprintf(err, errlen, "%s is too large", path);
                fclose(f);
                return NULL;
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %s", path);
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        snprintf(err, errlen, "%s holds a NUL byte", path);
        return NULL;
    }
    return buf;
}

/* Prints text with control characters (which could drive the terminal) shown as '?'. */
static void print_safe(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        putchar(*p < 0x20 || *p == 0x7f ? '?' : *p);
}

/* Prints "label: FAIL: why" safely. */
static void print_fail(const char *label, const char *why) {
    print_safe(label);
    fputs(": FAIL: ", stdout);
    print_safe(why);
    putchar('\n');
}

/* Replays one record; prints a line; false when it does not hold up. */
static bool verify_record(const char *label, const gmk_record *r) {
    static gmk_board b;
    char err[200];
    if (!gmk_record_to_board(r, &b, err, sizeof err)) {
        print_fail(label, err);
        return false;
    }
    gmk_result res;
    int after = 0;
    gmk_rules_result(&b, &res, &after);
    print_safe(label);
    printf(": %d moves, %s: rules say %s%s%s", r->count, gmk_rule_name(r->rule),
           gmk_outcome_name(res.outcome), res.reason ? " by " : "", gmk_reason_name(res.reason));
    if (r->outcome != GMK_ONGOING) printf("; recorded %s", gmk_outcome_name(r->outcome));
    if (after > 0) {
        printf(": FAIL: %d move%s after the end\n", after, after == 1 ? "" : "s");
        return false;
    }
    if (res.outcome != GMK_ONGOING && r->outcome != GMK_ONGOING && res.outcome != r->outcome) {
        printf(": FAIL: the recorded result differs\n");
        return false;
    }
    printf("\n");
    return true;
}

static int verify(int nfiles, char **files, gmk_rule rule) {
    int bad = 0, games = 0;
    for (int i = 0; i < nfiles; i++) {
        char err[200];
        char *text = read_file(files[i], err, sizeof err);
        if (!text) {
            print_fail(files[i], err);
            bad++;
            continue;
        }
        gmk_record *r = malloc(sizeof *r);
        if (!r) {
            free(text);
            return cli_error("match", "out of memory");
        }
        gmk_record_format fmt = gmk_record_detect(text);
        if (fmt == GMK_RECORD_PSQ) {
            if (gmk_record_read_psq(text, rule, r, err, sizeof err)) {
                games++;
                if (!verify_record(files[i], r)) bad++;
            } else {
                print_fail(files[i], err);
                bad++;
            }
        } else if (fmt == GMK_RECORD_SGF) {
            size_t off = 0;
            int k = 0;
            for (;;) {
                const char *s = text + off;
                while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t') s++;
                if (*s == '\0') break;
                size_t used;
                char label[4200];
                snprintf(label, sizeof label, "%s#%d", files[i], ++k);
                if (!gmk_record_read_sgf(s, rule, &used, r, err, sizeof err)) {
                    print_fail(label, err);
                    bad++;
                    break;
                }
                games++;
                if (!verify_record(label, r)) bad++;
                off = (size_t)(s - text) + used;
            }
        } else {
            print_fail(files[i], "neither a PSQ nor an SGF file");
            bad++;
        }
        free(r);
        free(text);
    }
    printf("verified %d game%s in %d file%s: %d problem%s\n", games, games == 1 ? "" : "s", nfiles,
           nfiles == 1 ? "" : "s", bad, bad == 1 ? "" : "s");
    return bad ? CLI_FAIL : CLI_OK;
}

int cmd_match(int argc, char **argv) {
    const cli_command *self = cli_find("match");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    gmk_match_options o;
    memset(&o, 0, sizeof o);
    o.rule = GMK_RULE_FREESTYLE;
    o.size = GMK_DEFAULT_SIZE;
    o.tolerance_ms = 1000;
    o.jobs = 1;
    const char *common_info[GMK_MATCH_MAX_INFO];
    int ncommon = 0;
    bool verify_mode = false;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    if (!files) return cli_error("match", "out of memory");
    int rc = CLI_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *v;
        long n;
        int e;
        if ((e = indexed_option(argc, argv, &i, "--engine", &v)) >= 0) {
            if (!v || !*v) {
                rc = cli_error("match", "--engine%d needs a command", e + 1);
                goto done;
            }
            o.engine[e].cmd = v;
        } else if ((e = indexed_option(argc, argv, &i, "--name", &v)) >= 0) {
            if (!v || !*v) {
                rc = cli_error("match", "--name%d needs a name", e + 1);
                goto done;
            }
            o.engine[e].name = v;
        } else if ((e = indexed_option(argc, argv, &i, "--info", &v)) >= 0) {
            if (!v || !strchr(v, ' ') || o.engine[e].ninfo >= GMK_MATCH_MAX_INFO) {
                rc = cli_error("match", "--info%d needs \"KEY VALUE\" (at most %d)", e + 1,
                               GMK_MATCH_MAX_INFO);
                goto done;
            }
            o.engine[e].info[o.engine[e].ninfo++] = v;
        } else if (cli_option(argc, argv, &i, "--info", &v)) {
            if (!v || !strchr(v, ' ') || ncommon >= GMK_MATCH_MAX_INFO) {
                rc = cli_error("match", "--info needs \"KEY VALUE\"");
                goto done;
            }
            common_info[ncommon++] = v;
        } else if (cli_option(argc, argv, &i, "--games", &v)) {
            if (!cli_parse_int(v, 1, 1000000, &n)) {
                rc = cli_error("match", "--games needs a number from 1 to 1000000");
                goto done;
            }
            o.games = (int)n;
        } else if (cli_option(argc, argv, &i, "--rounds", &v)) {
            if (!cli_parse_int(v, 1, 500000, &n)) {
                rc = cli_error("match", "--rounds needs a number from 1 to 500000");
                goto done;
            }
            o.rounds = (int)n;
        } else if (cli_option(argc, argv, &i, "--openings", &v)) {
            if (!v) {
                rc = cli_error("match", "--openings needs a file");
                goto done;
            }
            o.openings = v;
        } else if (cli_option(argc, argv, &i, "--opening-start", &v)) {
            if (!cli_parse_int(v, 1, 1000000, &n)) {
                rc = cli_error("match", "--opening-start needs a line number from 1");
                goto done;
            }
            o.opening_start = (int)n - 1;
        } else if (cli_option(argc, argv, &i, "--rule", &v)) {
            if (!v || !gmk_rule_parse(v, &o.rule)) {
                rc = cli_error("match", "--rule must be freestyle, standard, renju or caro");
                goto done;
            }
        } else if (cli_option(argc, argv, &i, "--size", &v)) {
            if (!cli_parse_int(v, GMK_MIN_SIZE, GMK_MAX_SIZE, &n)) {
                rc = cli_error("match", "--size needs a number from %d to %d", GMK_MIN_SIZE,
                               GMK_MAX_SIZE);
                goto done;
            }
            o.size = (int)n;
        } else if (cli_option(argc, argv, &i, "--turn", &v)) {
            if (!parse_ms(v, &o.turn_ms)) {
                rc = cli_error("match", "--turn needs milliseconds");
                goto done;
            }
        } else if (cli_option(argc, argv, &i, "--game-time", &v)) {
            if (!parse_ms(v, &o.match_ms)) {
                rc = cli_error("match", "--game-time needs milliseconds");
                goto done;
            }
        } else if (cli_option(argc, argv, &i, "--increment", &v)) {
            if (!parse_ms(v, &o.increment_ms)) {
                rc = cli_error("match", "--increment needs milliseconds");
                goto done;
            }
        } else if (cli_option(argc, argv, &i, "--tolerance", &v)) {
            if (!parse_ms(v, &o.tolerance_ms)) {
                rc = cli_error("match", "--tolerance needs milliseconds");
                goto done;
            }
        } else if (cli_option(argc, argv, &i, "--max-memory", &v)) {
            if (!cli_parse_int(v, 0, 1L << 40, &n)) {
                rc = cli_error("match", "--max-memory needs bytes");
                goto done;
            }
            o.max_memory = n;
        } else if (cli_option(argc, argv, &i, "--jobs", &v) ||
                   cli_option(argc, argv, &i, "-j", &v)) {
            if (!cli_parse_int(v, 1, 256, &n)) {
                rc = cli_error("match", "--jobs needs a number from 1 to 256");
                goto done;
            }
            o.jobs = (int)n;
        } else if (cli_option(argc, argv, &i, "--draw-after", &v)) {
            if (!cli_parse_int(v, 1, GMK_MAX_MOVES, &n)) {
                rc = cli_error("match", "--draw-after needs a number of moves");
                goto done;
            }
            o.draw_after = (int)n;
        } else if (cli_option(argc, argv, &i, "--sprt", &v)) {
            if (!v || !parse_sprt(v, &o)) {
                rc = cli_error("match", "--sprt needs elo0,elo1,alpha,beta with elo0 < elo1 and "
                                        "0 < alpha, beta < 0.5");
                goto done;
            }
        } else if (cli_option(argc, argv, &i, "--psq", &v)) {
            if (!v) {
                rc = cli_error("match", "--psq needs a directory");
                goto done;
            }
            o.psq_dir = v;
        } else if (cli_option(argc, argv, &i, "--sgf", &v)) {
            if (!v) {
                rc = cli_error("match", "--sgf needs a file");
                goto done;
            }
            o.sgf_path = v;
        } else if (cli_option(argc, argv, &i, "--log", &v)) {
            if (!v) {
                rc = cli_error("match", "--log needs a file");
                goto done;
            }
            o.log_path = v;
        } else if (cli_option(argc, argv, &i, "--engine-stderr", &v)) {
            if (!v) {
                rc = cli_error("match", "--engine-stderr needs a file");
                goto done;
            }
            o.stderr_path = v;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o.quiet = true;
        } else if (strcmp(argv[i], "--verify") == 0) {
            verify_mode = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rc = cli_error("match", "unknown option '%s'", argv[i]);
            goto done;
        } else if (verify_mode) {
            files[nfiles++] = argv[i];
        } else {
            rc = cli_error("match", "unexpected argument '%s'", argv[i]);
            goto done;
        }
    }
    if (verify_mode) {
        if (nfiles == 0) {
            rc = cli_error("match", "--verify needs PSQ or SGF files");
            goto done;
        }
        rc = verify(nfiles, files, o.rule);
        goto done;
    }
    for (int e = 0; e < 2; e++) {
        if (!o.engine[e].cmd) {
            rc = cli_error("match", "missing --engine%d (see gomoku match --help)", e + 1);
            goto done;
        }
        for (int k = 0; k < ncommon; k++) {
            if (o.engine[e].ninfo >= GMK_MATCH_MAX_INFO) {
                rc = cli_error("match", "too many INFO settings");
                goto done;
            }
            /* common settings first, so that per-engine ones override them */
            memmove(&o.engine[e].info[1], &o.engine[e].info[0],
                    (size_t)o.engine[e].ninfo * sizeof o.engine[e].info[0]);
            o.engine[e].info[0] = common_info[ncommon - 1 - k];
            o.engine[e].ninfo++;
        }
    }
    if (o.games == 0 && o.rounds == 0) o.games = 2;
    if (o.engine[0].name && o.engine[1].name && strcmp(o.engine[0].name, o.engine[1].name) == 0) {
        rc = cli_error("match", "the two engines need different names");
        goto done;
    }
    gmk_match_summary sum;
    char err[300];
    if (!gmk_match_run(&o, stdout, &sum, err, sizeof err)) {
        rc = cli_error("match", "%s", err);
        goto done;
    }
    rc = CLI_OK;
done:
    free(files);
    return rc;
}
