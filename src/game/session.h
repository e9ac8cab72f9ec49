/* session.h: a game being played, the rules of play every front end shares.
 *
 * A session owns the board of the current game, an engine for the computer's moves and hints,
 * and (optionally) a store where the game is saved as it is played. It decides who moves, when
 * the computer thinks, what undo and redo take back in each mode, how a game ends and how the
 * result is recorded. Front ends (the terminal, the web page) only draw the state and turn the
 * player's input into calls here, so they behave the same.
 *
 * Threads: a session is used from one controlling thread. The engine thinks on its own thread
 * and never blocks the caller: after any call, the computer may have started thinking; the
 * front end calls gmk_session_poll regularly (or when the notify callback fires) and the move
 * is played inside that call. The notify callback is the only thing called from another
 * thread; it must only wake the controlling thread up.
 *
 * Saving: with a store, the game is recorded at its first move; every move, undo and redo is
 * committed as it happens and the result when the game ends (the store's scoreboard counts
 * it). If a write fails, the session keeps playing without saving and says why once
 * (gmk_session_take_store_message). A game left unfinished (quit or crash) is offered again by
 * gmk_session_find_unfinished. The session does no other I/O. */
#ifndef GMK_SESSION_H
#define GMK_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "core/rules.h"
#include "engine/engine.h"
#include "game/swap.h"
#include "store/store.h"

typedef enum {
    GMK_PLAY_HVC = 0, /* a human against the computer */
    GMK_PLAY_HVH = 1, /* two humans at one board */
    GMK_PLAY_CVC = 2, /* the computer against itself, to watch */
    GMK_PLAY_MODE_COUNT = 3
} gmk_play_mode;

/* What a new game is. */
typedef struct {
    gmk_play_mode mode;
    gmk_color human; /* HVC: the human's colour, GMK_BLACK (moves first) or GMK_WHITE */
    gmk_rule rule;
    int size;             /* GMK_MIN_SIZE..GMK_MAX_SIZE */
    int level;            /* level.h; ignored in HVH */
    int64_t top_level_ms; /* time per move at the top level (0: the level default) */
    const char *black;    /* player names for the record; NULL: "human" or "computer" */
    const char *white;
    bool online; /* HVH on two devices (game/room.h): recorded as GMK_STORE_MODE_ONLINE and
                    never offered by gmk_session_find_unfinished */
    /* The opening rule (game/swap.h). Under swap and swap2 the game starts with the first
     * player placing three stones, and `human` (HVC) says who that is: GMK_BLACK the human,
     * GMK_WHITE the computer; once the colours are chosen, the state's `human` is the colour
     * the human plays and the names follow the colours. */
    gmk_opening opening;
} gmk_game_config;

/* How the session behaves, fixed at creation. Zero means the default everywhere. */
typedef struct {
    size_t engine_memory_bytes; /* engine tables (0: 32 MB) */
    int64_t think_cap_ms;       /* caps every search, hints included (tests); 0: none */
    int64_t cvc_pace_ms;        /* CVC: at least this long between moves, to watch (0: 400;
                                   negative: no pause) */
    uint64_t seed;              /* varies the weaker levels' choices (0: from the clock) */
    int threads; /* search threads (Lazy SMP) for the searches bound only by time: the top
                    level and hints (0 or 1: one; at most GMK_MAX_THREADS) */
    /* Two ways to have no engine of one's own (when both are set, no_engine wins):
     * external_engine: each search the session wants is a job (gmk_session_pending_job) that
     * the caller runs on an engine of its choosing (the web server's pool) and hands back with
     * gmk_session_job_done. gmk_session_poll then never plays a move; move_now does nothing.
     * no_engine: no search at all, for two-human games only (online rooms): hints are refused
     * and a computer mode never moves. */
    bool external_engine;
    bool no_engine;
    /* Called from the engine's thread when a search has finished; may be NULL. */
    void (*notify)(void *ctx);
    void *notify_ctx;
} gmk_session_options;

typedef enum {
    GMK_SESSION_OK = 0,
    GMK_SESSION_BAD_CONFIG, /* a config value out of range */
    GMK_SESSION_NO_MEMORY,  /* the engine could not be allocated */
    GMK_SESSION_NOT_FOUND,  /* nothing to resume */
    GMK_SESSION_STORE,      /* the store failed; the message says why */
} gmk_session_status;

/* What happened in a call, as bits. */
enum {
    GMK_EV_NONE = 0,
    GMK_EV_MOVED = 1 << 0,     /* a move was played (the board changed) */
    GMK_EV_THINKING = 1 << 1,  /* the computer started thinking */
    GMK_EV_HINT = 1 << 2,      /* a hint is ready (gmk_session_state.hint) */
    GMK_EV_GAME_OVER = 1 << 3, /* the game has just ended */
};

/* Why a move was refused. */
typedef enum {
    GMK_PLAY_OK = 0,
    GMK_PLAY_OFF_BOARD,
    GMK_PLAY_OCCUPIED,
    GMK_PLAY_FORBIDDEN,     /* renju: black's foul; the kind comes back */
    GMK_PLAY_GAME_OVER,     /* the game has ended */
    GMK_PLAY_NOT_YOUR_TURN, /* the computer is to move */
    GMK_PLAY_CHOOSE,        /* swap opening: a colour is to be chosen first */
} gmk_play_verdict;

/* A snapshot of the game for drawing. */
typedef struct {
    gmk_play_mode mode;
    gmk_color human; /* HVC: the human's colour; otherwise GMK_EMPTY */
    gmk_rule rule;
    int size;
    int level;
    gmk_color to_move;
    bool human_to_move;  /* input is accepted (game on, a human is to move) */
    bool thinking;       /* the computer is thinking about its move (or its opening choice) */
    bool hinting;        /* the engine is looking for a hint */
    int64_t thinking_ms; /* how long the current search has run */
    gmk_pos hint;        /* the last hint, until the next move; GMK_POS_NONE if none */
    int hint_score;      /* the search's score of the hint, for the side to move */
    bool over;           /* the game has ended; result says how */
    gmk_result result;   /* outcome, reason, forbidden kind, deciding point, winning line */
    gmk_color resigned;  /* with GMK_REASON_RESIGN: who resigned */
    bool can_undo, can_redo;
    gmk_opening opening;  /* the opening rule */
    gmk_swap_phase phase; /* swap, swap2: the opening's step; GMK_SWAP_NONE once settled */
    bool human_chooses;   /* a human is to choose (gmk_session_swap_choose) */
    bool human_first;     /* HVC, during the opening: the human is the first player */
    int64_t game_id;      /* in the store; 0 while not saved (no store, or no move yet) */
    bool saving;          /* a store is attached and working */
} gmk_session_state;

typedef struct gmk_session gmk_session;

/* A session over store (NULL: play without saving; the session does not own it and it must
 * outlive the session). opts may be NULL. The session starts with a default game (HVC, human
 * black, freestyle 15x15, GMK_LEVEL_DEFAULT) that is not saved until a move is played. */
gmk_session_status gmk_session_create(gmk_store *store, const gmk_session_options *opts,
                                      gmk_session **out);

/* Stops the engine and frees everything. An unfinished game stays in the store, to resume. */
void gmk_session_free(gmk_session *s);

/* The defaults of a new game: HVC, human black, freestyle, 15x15, GMK_LEVEL_DEFAULT. */
gmk_game_config gmk_game_config_default(void);

/* Checks a config; writes why it is wrong into err. */
bool gmk_game_config_valid(const gmk_game_config *cfg, char *err, size_t errlen);

/* Starts a new game. The current one, if it has moves and has not ended, is abandoned in the
 * store (kept, not counted, not offered for resuming). If the computer moves first it starts
 * thinking (GMK_EV_THINKING in *events, which may be NULL). */
gmk_session_status gmk_session_new_game(gmk_session *s, const gmk_game_config *cfg, int *events,
                                        char *err, size_t errlen);

/* The game the store holds unfinished (the most recent), without changing anything.
 * GMK_SESSION_NOT_FOUND when there is none or no store. */
gmk_session_status gmk_session_find_unfinished(gmk_session *s, gmk_store_game *out, char *err,
                                               size_t errlen);

/* Resumes the store's unfinished game with all its moves; the session's current game is left
 * as it is in the store. Moves that the rules refuse (a damaged record) are dropped from the
 * store and the game goes on before them; a record that already holds the end of the game is
 * finished now. top_level_ms as in gmk_game_config. */
gmk_session_status gmk_session_resume(gmk_session *s, int64_t top_level_ms, int *events, char *err,
                                      size_t errlen);

/* Abandons the store's unfinished game (the player declined to resume it). */
gmk_session_status gmk_session_discard_unfinished(gmk_session *s, char *err, size_t errlen);

/* A human plays p for the side to move. FORBIDDEN (with *kind, may be NULL) when p is black's
 * foul in renju; with insist the foul is played and black loses by it. On success the
 * computer may start thinking (see *events). */
gmk_play_verdict gmk_session_play(gmk_session *s, gmk_pos p, bool insist, gmk_forbid_kind *kind,
                                  int *events);

/* Checks a move for the side to move without playing it (same verdicts as gmk_session_play). */
gmk_play_verdict gmk_session_check(const gmk_session *s, gmk_pos p, gmk_forbid_kind *kind);

/* Collects finished searches: plays the computer's move when its search has ended (and, in
 * CVC, the pace allows), keeps a finished hint, and starts the computer thinking when it is to
 * move. Returns GMK_EV_* bits. Cheap; call it often (every 50-100 ms) or when notified. */
int gmk_session_poll(gmk_session *s);

/* A key was pressed while the computer thinks: it stops and plays its best move so far (or,
 * for a hint, shows the best so far). Returns GMK_EV_* bits; nothing when idle. */
int gmk_session_move_now(gmk_session *s);

/* Asks the engine for a hint for the human to move (non-blocking: GMK_EV_HINT comes from a
 * later poll, or at once when it is cheap). False when no human is to move or the computer is
 * thinking. */
bool gmk_session_hint(gmk_session *s, int *events);

/* Undo and redo. HVC: back to before the human's last move, taking the computer's reply with
 * it, so that it is the human's turn (stopping the computer if it is thinking). HVH: one move.
 * CVC: nothing. A game that has ended: HVC only, when it ended with a result (the human's five,
 * the computer's, a foul, a full board or a resignation): the same take-back puts the game on
 * again and withdraws its result from the store (gmk_store_game_take_back), so the scoreboard
 * no longer counts it; other modes nothing. Redo replays what the last undo took back; a new
 * move forgets it. Return false when there is nothing to do. */
bool gmk_session_can_undo(const gmk_session *s);
bool gmk_session_can_redo(const gmk_session *s);
bool gmk_session_undo(gmk_session *s, int *events);
bool gmk_session_redo(gmk_session *s, int *events);

/* Swap and swap2: the choice of the side to choose (phase GMK_SWAP_CHOOSE: the second
 * player; GMK_SWAP_CHOOSE5: the first): take black, take white, or (swap2, three stones)
 * place two more stones. Taking a colour settles the colours (the names and, HVC, the human's
 * colour follow; the store is told) and play goes on with white to move; undo never goes back
 * before that point. False when no human is to choose now or the choice is not allowed.
 *
 * The computer's part (session_swap.c): as the first player it proposes the three-stone
 * opening the engine finds the most balanced among game/swap.c's candidates (one search
 * each, sharing a move's time); choosing, it searches the position and takes black when
 * black is better, else plays white at once with the search's move. It never places two more
 * stones (the choice the Gomocup brain does not make either). */
bool gmk_session_swap_choose(gmk_session *s, gmk_swap_choice c, int *events);

/* An online room reopening its game (gmk_session_open keeps no opening rule: the room's row
 * does): two humans (HVH) under opening o, at phase p of it, the colours settled at
 * settled_at stones (undo stops there). False, changing nothing, when that does not fit the
 * board (PLACE3 before three stones, CHOOSE at three, PLACE2 at three or four and CHOOSE5 at
 * five under swap2, settled_at at most the stones on the board). */
bool gmk_session_swap_resume(gmk_session *s, gmk_opening o, gmk_swap_phase p, int settled_at);

/* Resigns: HVC the human, HVH the side to move. The other side wins. False in CVC, during a
 * swap opening (no colours yet) or when the game is over. */
bool gmk_session_resign(gmk_session *s, int *events);

/* Ends a game that is on with a result decided off the board (online rooms), and records it:
 * a win (GMK_BLACK_WINS or GMK_WHITE_WINS) by GMK_REASON_TIME, GMK_REASON_RESIGN (the loser
 * resigned) or GMK_REASON_ABANDON, or GMK_DRAW by GMK_REASON_AGREEMENT. False when the game is
 * over or the arguments are not one of these. */
bool gmk_session_end(gmk_session *s, gmk_outcome outcome, gmk_reason reason, int *events);

/* The current state. */
void gmk_session_get_state(const gmk_session *s, gmk_session_state *out);
const gmk_board *gmk_session_board(const gmk_session *s);

/* Renju, black to move and a human to move: black's forbidden points with their kind (up to
 * cap). 0 otherwise. */
int gmk_session_forbidden_points(const gmk_session *s, gmk_pos *points, gmk_forbid_kind *kinds,
                                 int cap);

/* The scoreboard from the store (see gmk_store_scoreboard). */
gmk_session_status gmk_session_scoreboard(gmk_session *s, gmk_store_score *out, int cap, int *count,
                                          char *err, size_t errlen);

/* Settings in the store; false when there is no store, no such setting, or it failed. */
bool gmk_session_setting_get(gmk_session *s, const char *key, char *value, size_t valuelen);
bool gmk_session_setting_set(gmk_session *s, const char *key, const char *value);

/* A message about the store that the player has not seen yet (the first failure, after which
 * the session plays without saving); copies it into buf and forgets it. False when none. */
bool gmk_session_take_store_message(gmk_session *s, char *buf, size_t buflen);

/* --- for front ends that serve many games (the web server) ------------------------------ */

/* A search the session wants run (external_engine): the position, the limits, and a token
 * that names this request; any later change to the game makes the token stale. */
typedef struct {
    uint64_t token;
    bool hint; /* a hint for the human, not the computer's move */
    gmk_board board;
    gmk_limits limits;
} gmk_session_job;

/* With external_engine: true, filling *out (unless NULL), when the session is waiting for a
 * search (the computer is to move, or a hint was asked); false when it needs none. Calling it
 * again gives the same token until the result is handed back or the game changes. */
bool gmk_session_pending_job(const gmk_session *s, gmk_session_job *out);

/* Hands back the result of the search of job token: plays the computer's move (or keeps the
 * hint) exactly as a finished search of its own engine would. Returns GMK_EV_* bits; 0 when
 * the token is stale (the game changed meanwhile: the result is dropped). */
int gmk_session_job_done(gmk_session *s, uint64_t token, const gmk_search_result *r);

/* Makes sure the current game has a row in the store (normally written at the first move),
 * so that it has an id at once. GMK_SESSION_STORE when there is no store or it failed. */
gmk_session_status gmk_session_save(gmk_session *s, int64_t *id, char *err, size_t errlen);

/* Plays moves (black first) at the start of the current game, which must have none: a
 * position set up from a share link. Every move must be legal, a renju foul included (it
 * ends the game), and none may follow the end. On failure nothing is played and err says
 * which move is wrong. The computer may start thinking (see *events). */
gmk_session_status gmk_session_setup(gmk_session *s, const gmk_pos *moves, int count, int *events,
                                     char *err, size_t errlen);

/* Opens stored game id (any game: a web game by its id, a room's game after a restart),
 * replacing the session's current game, which is left as it is in the store. An unfinished game
 * resumes as gmk_session_resume does (moves the rules refuse end the replay); a finished one is
 * shown over with its stored result, and nothing is written. GMK_SESSION_NOT_FOUND when there
 * is no such game; GMK_SESSION_STORE when there is no store or it failed. */
gmk_session_status gmk_session_open(gmk_session *s, int64_t id, int64_t top_level_ms, int *events,
                                    char *err, size_t errlen);

/* Stops saving from now on, quietly (an online room whose own saving failed keeps its game
 * and its log in step this way). */
void gmk_session_stop_saving(gmk_session *s);

/* "human-computer", "human-human", "computer-computer". */
const char *gmk_play_mode_name(gmk_play_mode m);
bool gmk_play_mode_parse(const char *text, gmk_play_mode *out);

/* A move that another process has already stored in this game (a server of several keeping an
 * online game in step, game/room.c): played on the board and judged as gmk_session_play
 * would, nothing written. Verdicts as gmk_session_check (a renju foul is played, as stored). */
gmk_play_verdict gmk_session_play_stored(gmk_session *s, gmk_pos p, int *events);

#endif
