/* cmd_puzzle.c: gomoku puzzle: puzzle mode in the terminal (game/puzzle.h, docs/puzzles.md).
 * Shows a puzzle near the player's rating (or the puzzle of the day, or one by id), reads the
 * player's moves line by line, checks each with the solver and plays the opponent's answer;
 * "?" asks for a hint (the puzzle is then not rated), "n" goes to the next puzzle, "q" quits.
 * The rating (Glicko-2) and streak are kept in the database under the player "local". */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "game/puzzle.h"
#include "store/reviews.h"

typedef struct {
    bool zh;
    gmk_store *store;
    gmk_store_puzzle_player me;
} ctx_t;

static const char *tr(const ctx_t *c, const char *en, const char *zh) {
    return c->zh ? zh : en;
}

static void save(ctx_t *c) {
    char err[256];
    if (c->store && gmk_store_puzzle_player_put(c->store, &c->me, err, sizeof err) != GMK_STORE_OK)
        fprintf(stderr, "gomoku puzzle: not saved: %s\n", err);
}

/* Plays one puzzle; returns false when the player quits. */
static bool one(ctx_t *c, const gmk_puzzle *p, gmk_threat_ctx *tc) {
    gmk_board b;
    gmk_puzzle_board(p, &b);
    const char *side =
        gmk_board_side(&b) == GMK_BLACK ? tr(c, "Black", "黑方") : tr(c, "White", "白方");
    printf("\n%s #%d (%s, %s, %d)\n", tr(c, "Puzzle", "习题"), p->id, gmk_rule_name(p->rule),
           gmk_puzzle_grade(p->length), gmk_puzzle_rating(p));
    bool hinted = false;
    for (;;) {
        cli_draw_board(&b);
        if (p->kind == GMK_PUZZLE_DEFENCE)
            printf(tr(c, "%s to play: find the only defence.\n", "%s先走：找出唯一的防守。\n"),
                   side);
        else if (p->kind == GMK_PUZZLE_THREES)
            printf(tr(c, "%s to play and win by threes and fours.\n", "%s先走，以活三冲四取胜。\n"),
                   side);
        else
            printf(tr(c, "%s to play and win by fours.\n", "%s先走，连续冲四取胜。\n"), side);
        printf(tr(c, "Your move (a point; ? hint, n next, q quit): ",
                  "你的一手（输入坐标；? 提示，n 下一题，q 退出）："));
        fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof line, stdin)) return false;
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "q") == 0) return false;
        if (strcmp(line, "n") == 0) return true;
        if (strcmp(line, "?") == 0) {
            char h[4] = "-";
            gmk_pos hp = gmk_puzzle_hint(p, &b);
            if (hp != GMK_POS_NONE) gmk_notation_point(hp, 15, h);
            printf(
                tr(c, "Hint: %s (this puzzle is no longer rated)\n", "提示：%s（本题不再计分）\n"),
                h);
            hinted = true;
            continue;
        }
        gmk_pos m;
        char err[128];
        if (!gmk_notation_parse_point(line, 15, &m, err, sizeof err)) {
            printf("%s\n", err);
            continue;
        }
        gmk_pos before = gmk_puzzle_hint(p, &b), reply;
        gmk_puzzle_verdict v = gmk_puzzle_answer(p, &b, tc, m, &reply);
        if (v == GMK_PUZZLE_ILLEGAL) {
            printf(tr(c, "%s cannot be played here.\n", "%s 不能下。\n"), line);
            continue;
        }
        if (v == GMK_PUZZLE_GOOD) {
            char r[4];
            gmk_notation_point(reply, 15, r);
            printf(tr(c, "Good. The answer: %s\n", "好棋。对方应：%s\n"), r);
            continue;
        }
        if (v == GMK_PUZZLE_SOLVED) {
            printf("%s\n", tr(c, "Solved!", "解出来了！"));
        } else {
            char s[4] = "-";
            if (before != GMK_POS_NONE) gmk_notation_point(before, 15, s);
            printf(tr(c, "Not this one: the move was %s.\n", "不对：正解是 %s。\n"), s);
        }
        if (!hinted) {
            gmk_puzzle_rate(&c->me, gmk_puzzle_rating(p), v == GMK_PUZZLE_SOLVED);
            save(c);
        }
        printf(tr(c, "Your puzzle rating: %.0f, streak %d (best %d)\n",
                  "你的习题等级分：%.0f，连对 %d（最多 %d）\n"),
               c->me.rating, c->me.streak, c->me.best_streak);
        return true;
    }
}

int cmd_puzzle(int argc, char **argv) {
    const char *cmd = "puzzle";
    if (cli_wants_help(argc, argv, cli_find(cmd))) return CLI_OK;
    const char *db = NULL, *value;
    bool no_db = false, daily = false;
    long id = 0;
    int kind = -1, rule = -1;
    ctx_t c = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error(cmd, "--db needs a file name");
            db = value;
        } else if (strcmp(argv[i], "--no-db") == 0) {
            no_db = true;
        } else if (strcmp(argv[i], "--daily") == 0) {
            daily = true;
        } else if (cli_option(argc, argv, &i, "--id", &value)) {
            if (!cli_parse_int(value, 1, 1000000000, &id))
                return cli_error(cmd, "--id needs a number");
        } else if (cli_option(argc, argv, &i, "--lang", &value)) {
            if (!value || (strcmp(value, "en") != 0 && strcmp(value, "zh") != 0))
                return cli_error(cmd, "--lang needs en or zh");
            c.zh = strcmp(value, "zh") == 0;
        } else if (cli_option(argc, argv, &i, "--kind", &value)) {
            gmk_puzzle_kind k;
            if (value && gmk_puzzle_kind_parse(value, &k))
                kind = (int)k;
            else if (!value || strcmp(value, "any") != 0)
                return cli_error(cmd, "--kind needs any, fours, threes or defence");
        } else if (cli_option(argc, argv, &i, "--rule", &value)) {
            gmk_rule r;
            if (value && strcmp(value, "any") == 0)
                rule = -1;
            else if (value && gmk_rule_parse(value, &r) &&
                     (r == GMK_RULE_FREESTYLE || r == GMK_RULE_RENJU))
                rule = (int)r;
            else
                return cli_error(cmd, "--rule needs any, freestyle or renju");
        } else {
            return cli_error(cmd, "unknown argument '%s'", argv[i]);
        }
    }
    int n;
    const gmk_puzzle *all = gmk_puzzle_set(&n);
    if (!all || n == 0) return cli_error(cmd, "no puzzles in this build");
    const gmk_puzzle *first = NULL;
    if (id) {
        first = gmk_puzzle_by_id(id);
        if (!first) return cli_error(cmd, "no puzzle %ld", id);
    } else if (daily) {
        first = &all[gmk_puzzle_of_day((long)(time(NULL) / 86400))];
    }
    char err[600];
    gmk_puzzle_player_new(&c.me, "local");
    if (!no_db) {
        if (gmk_store_open(db, GMK_STORE_OPEN_DEFAULT, &c.store, err, sizeof err) != GMK_STORE_OK) {
            fprintf(stderr, "gomoku puzzle: %s; playing without saving\n", err);
            c.store = NULL;
        } else {
            gmk_store_puzzle_player_get(c.store, "local", &c.me, err, sizeof err);
        }
    }
    gmk_threat_ctx tc;
    if (!gmk_threat_ctx_init(&tc, 1 << 16)) {
        gmk_store_close(c.store);
        return cli_error(cmd, "out of memory");
    }
    srand((unsigned)time(NULL));
    const gmk_puzzle *p = first;
    for (;;) {
        if (!p) {
            int i = gmk_puzzle_pick(c.me.rating, kind, rule, (unsigned)rand());
            if (i < 0) {
                cli_error(cmd, "no puzzle of that kind");
                break;
            }
            p = &all[i];
        }
        if (!one(&c, p, &tc)) break;
        if (id || daily) break;
        p = NULL;
    }
    gmk_threat_ctx_free(&tc);
    gmk_store_close(c.store);
    return CLI_OK;
}
