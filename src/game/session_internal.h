/* session_internal.h: the inside of a game session, shared by session.c (turns, undo,
 * results, saving, the engine) and session_swap.c (the swap and swap2 openings). Nothing else
 * includes it; front ends use session.h. */
#ifndef GMK_SESSION_INTERNAL_H
#define GMK_SESSION_INTERNAL_H

#include "session.h"
#include "swap.h"

enum { DEFAULT_ENGINE_MEMORY = 32 << 20, DEFAULT_CVC_PACE_MS = 400, MSG_LEN = 320 };

/* What the engine is searching for: the computer's move, a hint, one of the three-stone
 * openings the computer may propose (session_swap.c), or the computer's choice of colour. */
typedef enum { THINK_NONE = 0, THINK_MOVE, THINK_HINT, THINK_PROPOSE, THINK_CHOOSE } think_kind;

struct gmk_session {
    gmk_store *store; /* NULL: not saving (none given, or it failed) */
    bool store_given;
    char store_msg[MSG_LEN];
    bool store_msg_pending;
    gmk_session_options opt;
    gmk_engine *engine;

    /* the game */
    gmk_game_config cfg;
    char black[GMK_STORE_NAME_MAX], white[GMK_STORE_NAME_MAX];
    gmk_board board;
    bool over;
    gmk_result result;
    gmk_color resigned;
    int64_t game_id;   /* 0 until saved */
    int64_t started_s; /* Unix seconds */
    int64_t turn_start_ms;
    uint64_t seed;

    /* the opening under swap or swap2 (session_swap.c) */
    gmk_swap_phase phase; /* GMK_SWAP_NONE once the colours are settled */
    bool human_first;     /* HVC: the human is the first player (places the first stones) */
    int settled_at;       /* stones when the colours were settled: undo stops there */
    gmk_pos cands[GMK_SWAP_CANDIDATES][3]; /* the computer's proposals, searched in turn */
    int ncands, cands_done;
    int cand_scores[GMK_SWAP_CANDIDATES];
    gmk_board search_board; /* the candidate being searched */

    /* redo: the undone moves, last undone on top, in groups as the undos took them */
    gmk_pos redo[GMK_MAX_MOVES];
    int redo_len;
    int redo_group[GMK_MAX_MOVES];
    int redo_groups;

    /* the engine */
    think_kind think;
    int64_t think_start_ms;
    gmk_pos hint;
    int hint_score;        /* of the hint, for the side to move */
    uint64_t job_token;    /* external engine: names the search wanted now */
    gmk_limits job_limits; /* external engine: its limits */

    gmk_store_record record; /* scratch for loading games (large) */
};

/* session.c: plays p (legal) for the side to move, records it and judges the result. */
void session_apply_move(gmk_session *s, gmk_pos p, bool record, int *ev);
/* session.c: starts the computer's search the game needs now, if any. */
void session_maybe_think(gmk_session *s, int *ev);
/* session.c: stops a search and forgets its result. */
void session_cancel_think(gmk_session *s);
/* session.c: the first store failure; the session plays on without saving. */
void session_store_failed(gmk_session *s, const char *err);

/* session_swap.c */
void session_swap_reset(gmk_session *s);               /* a new game's opening, from s->cfg */
bool session_swap_computer_acts(const gmk_session *s); /* in the opening, the computer acts */
bool session_swap_choosing(const gmk_session *s);      /* CHOOSE or CHOOSE5 */
void session_swap_after_stone(gmk_session *s);         /* a stone was placed */
/* The search for the opening's next step (THINK_PROPOSE or THINK_CHOOSE), with the board it
 * searches; limits adjusted (a proposal's candidates share the move's time). */
think_kind session_swap_search(gmk_session *s, const gmk_board **board, gmk_limits *limits);
/* The result of a THINK_PROPOSE or THINK_CHOOSE search. */
void session_swap_take(gmk_session *s, think_kind kind, const gmk_search_result *r, int *ev);

#endif
