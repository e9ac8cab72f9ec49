/* test_web.c: the parts of the web server below HTTP (hashing is libsodium's; test_room.c checks
 * the stored digest is SHA-256): the engine pool's bound, the session's external-engine jobs,
 * opening a stored game by id, setting up a position, and the store's web owners (a real
 * SQLite file in a temporary folder). The HTTP API itself is tested in tests/api/. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gmk.h"
#include "game/level.h"
#include "game/session.h"
#include "store/store.h"
#include "web/pool.h"

/* --- the pool ---------------------------------------------------------------------------- */

static atomic_int done_count, dropped_count;

static void on_done(void *ctx, uint64_t tag, const gmk_search_result *r) {
    (void)ctx;
    (void)tag;
    if (r)
        atomic_fetch_add(&done_count, 1);
    else
        atomic_fetch_add(&dropped_count, 1);
}

Test(pool, bounded_then_runs_and_frees) {
    char err[128];
    gmk_pool *p = gmk_pool_create(1, 1 << 20, 1, err, sizeof err);
    cr_assert_not_null(p, "%s", err);
    gmk_pool_job job = {.done = on_done};
    gmk_board_init(&job.board, 15, GMK_RULE_FREESTYLE);
    job.limits.turn_ms = 300;
    cr_assert(gmk_pool_submit(p, &job));  /* runs */
    cr_assert(gmk_pool_submit(p, &job));  /* waits */
    cr_assert(!gmk_pool_submit(p, &job)); /* full */
    cr_assert(!gmk_pool_reserve(p));
    gmk_pool_stats st;
    gmk_pool_get_stats(p, &st);
    cr_assert_eq(st.capacity, 2);
    cr_assert_geq(st.engine_bytes, (size_t)1);
    for (int i = 0; i < 200 && atomic_load(&done_count) < 2; i++) usleep(10000);
    cr_assert_eq(atomic_load(&done_count), 2);
    cr_assert(gmk_pool_reserve(p)); /* room again */
    gmk_pool_unreserve(p);
    cr_assert(gmk_pool_submit(p, &job));
    cr_assert(gmk_pool_submit(p, &job));
    gmk_pool_free(p); /* stops the running one, drops the waiting one */
    cr_assert_eq(atomic_load(&done_count) + atomic_load(&dropped_count), 4);
    cr_assert_geq(atomic_load(&dropped_count), 1);
}

/* --- the session with an external engine -------------------------------------------------- */

static char dir[64], db_path[128];
static gmk_store *store;

static void setup(void) {
    strcpy(dir, "/tmp/gmk-web-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(db_path, sizeof db_path, "%s/test.db", dir);
    char err[256] = "";
    cr_assert_eq(gmk_store_open(db_path, 0, &store, err, sizeof err), GMK_STORE_OK, "%s", err);
}

static void teardown(void) {
    gmk_store_close(store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static const gmk_session_options ext = {.external_engine = true, .seed = 3};

static gmk_pos pt(const char *name) {
    gmk_pos p;
    cr_assert(gmk_notation_parse_point(name, 15, &p, NULL, 0));
    return p;
}

static gmk_search_result result_at(const char *name) {
    gmk_search_result r;
    memset(&r, 0, sizeof r);
    r.best = pt(name);
    return r;
}

Test(session_jobs, computer_move_through_a_job, .init = setup, .fini = teardown) {
    gmk_session *s;
    cr_assert_eq(gmk_session_create(store, &ext, &s), GMK_SESSION_OK);
    gmk_session_job job;
    cr_assert(!gmk_session_pending_job(s, &job)); /* the human is to move */
    int ev;
    cr_assert_eq(gmk_session_play(s, pt("h8"), false, NULL, &ev), GMK_PLAY_OK);
    cr_assert(ev & GMK_EV_THINKING);
    cr_assert(gmk_session_pending_job(s, &job));
    cr_assert(!job.hint);
    cr_assert_eq(job.board.move_count, 1);
    gmk_session_job again;
    cr_assert(gmk_session_pending_job(s, &again));
    cr_assert_eq(again.token, job.token); /* the same request until answered */
    cr_assert_eq(gmk_session_poll(s), 0); /* polling never plays it */
    gmk_search_result r = result_at("i9");
    cr_assert_eq(gmk_session_job_done(s, job.token + 1, &r), 0); /* a wrong token is dropped */
    ev = gmk_session_job_done(s, job.token, &r);
    cr_assert(ev & GMK_EV_MOVED);
    cr_assert_eq(gmk_session_board(s)->move_count, 2);
    cr_assert_eq(gmk_session_board(s)->moves[1], pt("i9"));
    cr_assert(!gmk_session_pending_job(s, &job));
    cr_assert_eq(gmk_session_job_done(s, again.token, &r), 0); /* answered already */
    gmk_session_free(s);
}

Test(session_jobs, threads_go_to_the_top_level_only, .init = setup, .fini = teardown) {
    gmk_session_options opts = ext;
    opts.threads = 3;
    for (int level = gmk_level_count() - 1; level <= gmk_level_count(); level++) {
        gmk_session *s;
        cr_assert_eq(gmk_session_create(store, &opts, &s), GMK_SESSION_OK);
        gmk_game_config cfg = gmk_game_config_default();
        cfg.level = level;
        cr_assert_eq(gmk_session_new_game(s, &cfg, NULL, NULL, 0), GMK_SESSION_OK);
        cr_assert_eq(gmk_session_play(s, pt("h8"), false, NULL, NULL), GMK_PLAY_OK);
        gmk_session_job job;
        cr_assert(gmk_session_pending_job(s, &job));
        cr_assert_eq(job.limits.threads, level == gmk_level_count() ? 3 : 0, "level %d", level);
        gmk_session_free(s);
    }
}

Test(session_jobs, undo_makes_the_job_stale, .init = setup, .fini = teardown) {
    gmk_session *s;
    cr_assert_eq(gmk_session_create(store, &ext, &s), GMK_SESSION_OK);
    gmk_session_play(s, pt("h8"), false, NULL, NULL);
    gmk_session_job job;
    cr_assert(gmk_session_pending_job(s, &job));
    cr_assert(gmk_session_undo(s, NULL));
    gmk_search_result r = result_at("i9");
    cr_assert_eq(gmk_session_job_done(s, job.token, &r), 0);
    cr_assert_eq(gmk_session_board(s)->move_count, 0);
    gmk_session_free(s);
}

Test(session_jobs, save_setup_and_open_by_id, .init = setup, .fini = teardown) {
    gmk_session *s;
    cr_assert_eq(gmk_session_create(store, &ext, &s), GMK_SESSION_OK);
    gmk_game_config cfg = gmk_game_config_default();
    cfg.mode = GMK_PLAY_HVH;
    cr_assert_eq(gmk_session_new_game(s, &cfg, NULL, NULL, 0), GMK_SESSION_OK);
    int64_t id = 0;
    cr_assert_eq(gmk_session_save(s, &id, NULL, 0), GMK_SESSION_OK);
    cr_assert_gt(id, 0);
    /* a bad list plays nothing */
    gmk_pos bad[] = {pt("h8"), pt("h8")};
    char err[128];
    cr_assert_eq(gmk_session_setup(s, bad, 2, NULL, err, sizeof err), GMK_SESSION_BAD_CONFIG);
    cr_assert(strstr(err, "move 2") != NULL, "%s", err);
    cr_assert_eq(gmk_session_board(s)->move_count, 0);
    gmk_pos five[] = {pt("h8"), pt("a1"), pt("i8"), pt("a2"), pt("j8"),
                      pt("a3"), pt("k8"), pt("a4"), pt("l8"), pt("a5")};
    cr_assert_eq(gmk_session_setup(s, five, 10, NULL, err, sizeof err), GMK_SESSION_BAD_CONFIG);
    cr_assert(strstr(err, "after the end") != NULL, "%s", err);
    int ev;
    cr_assert_eq(gmk_session_setup(s, five, 9, &ev, err, sizeof err), GMK_SESSION_OK, "%s", err);
    cr_assert(ev & GMK_EV_GAME_OVER);
    gmk_session_free(s);

    /* a second session opens the finished game by its id: over, with its result */
    cr_assert_eq(gmk_session_create(store, &ext, &s), GMK_SESSION_OK);
    cr_assert_eq(gmk_session_open(s, id, 0, NULL, err, sizeof err), GMK_SESSION_OK, "%s", err);
    gmk_session_state st;
    gmk_session_get_state(s, &st);
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_BLACK_WINS);
    cr_assert_eq(st.result.reason, GMK_REASON_FIVE);
    cr_assert_eq(st.game_id, id);
    cr_assert_eq(gmk_session_board(s)->move_count, 9);
    cr_assert_eq(gmk_session_open(s, id + 100, 0, NULL, err, sizeof err), GMK_SESSION_NOT_FOUND);
    gmk_session_free(s);
}

Test(session_jobs, opened_resigned_game_shows_its_result, .init = setup, .fini = teardown) {
    gmk_session *s;
    cr_assert_eq(gmk_session_create(store, &ext, &s), GMK_SESSION_OK);
    gmk_session_play(s, pt("h8"), false, NULL, NULL);
    cr_assert(gmk_session_resign(s, NULL));
    gmk_session_state st;
    gmk_session_get_state(s, &st);
    int64_t id = st.game_id;
    gmk_session_free(s);
    cr_assert_eq(gmk_session_create(store, &ext, &s), GMK_SESSION_OK);
    cr_assert_eq(gmk_session_open(s, id, 0, NULL, NULL, 0), GMK_SESSION_OK);
    gmk_session_get_state(s, &st);
    cr_assert(st.over);
    cr_assert_eq(st.result.reason, GMK_REASON_RESIGN);
    cr_assert_eq(st.resigned, GMK_BLACK);
    gmk_session_job job;
    cr_assert(!gmk_session_pending_job(s, &job));
    gmk_session_free(s);
}

/* --- the store's web owners ---------------------------------------------------------------- */

Test(store_owners, set_get_and_not_offered_to_the_terminal, .init = setup, .fini = teardown) {
    char err[256];
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVH, .rule = GMK_RULE_FREESTYLE, .size = 15};
    int64_t terminal, web;
    cr_assert_eq(gmk_store_game_begin(store, &g, &terminal, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_add_move(store, terminal, 0, 7, 7, 0, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_begin(store, &g, &web, err, sizeof err), GMK_STORE_OK);
    uint8_t hash[GMK_STORE_OWNER_HASH], back[GMK_STORE_OWNER_HASH];
    for (int i = 0; i < GMK_STORE_OWNER_HASH; i++) hash[i] = (uint8_t)(i * 7);
    cr_assert_eq(gmk_store_owner_get(store, web, back, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_owner_set(store, web, hash, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_owner_get(store, web, back, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_arr_eq(hash, back, sizeof hash);
    cr_assert_eq(gmk_store_owner_set(store, 9999, hash, err, sizeof err), GMK_STORE_NOT_FOUND);
    /* an online game, newer still, belongs to its room */
    gmk_store_new_game online = {
        .mode = GMK_STORE_MODE_ONLINE, .rule = GMK_RULE_FREESTYLE, .size = 15};
    int64_t room_game;
    cr_assert_eq(gmk_store_game_begin(store, &online, &room_game, err, sizeof err), GMK_STORE_OK);
    /* the newest unfinished games are the web's and the room's; the terminal is offered its own */
    gmk_store_record *rec = malloc(sizeof *rec);
    cr_assert_eq(gmk_store_game_find_unfinished(store, rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec->game.id, terminal);
    free(rec);
    cr_assert_eq(gmk_store_schema_version(store), GMK_STORE_SCHEMA_VERSION);
}

/* --- group commit ------------------------------------------------------------------------- */

Test(store_sync, deferred_commits_are_seen_and_synced, .init = setup, .fini = teardown) {
    char err[256];
    cr_assert_eq(gmk_store_sync(store, err, sizeof err), GMK_STORE_OK); /* no-op before */
    cr_assert_eq(gmk_store_defer_sync(store, err, sizeof err), GMK_STORE_OK, "%s", err);
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVH, .rule = GMK_RULE_FREESTYLE, .size = 15};
    int64_t id;
    cr_assert_eq(gmk_store_game_begin(store, &g, &id, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_add_move(store, id, 0, 7, 7, 0, err, sizeof err), GMK_STORE_OK);
    /* committed: another handle (another process would be the same) sees it before the sync */
    gmk_store *other;
    cr_assert_eq(gmk_store_open(db_path, GMK_STORE_OPEN_EXISTING, &other, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    gmk_store_record *rec = malloc(sizeof *rec);
    cr_assert_eq(gmk_store_game_load(other, id, rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec->game.move_count, 1);
    free(rec);
    cr_assert_eq(gmk_store_sync(store, err, sizeof err), GMK_STORE_OK, "%s", err);
    gmk_store_close(other);
    /* a read-only handle cannot defer */
    gmk_store *ro;
    cr_assert_eq(gmk_store_open(db_path, GMK_STORE_OPEN_READONLY, &ro, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_neq(gmk_store_defer_sync(ro, err, sizeof err), GMK_STORE_OK);
    gmk_store_close(ro);
}
