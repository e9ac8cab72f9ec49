/* coach.h: the coach in words, English and Chinese, generated from what the engine knows about
 * a position: the line patterns of every empty point (core/pattern.h), the threat-space solver
 * (engine/threat.h) and the exact renju check (core/renju.h). No sentence is written for one
 * position: each says what those find, with its stones.
 *
 *   gmk_coach_position   each side's fours and open threes with their stones, and the side to
 *                        move's forced win by fours (VCF) or by threes and fours (VCT);
 *   gmk_coach_forbidden  why a point is forbidden for black in renju: its two threes, its two
 *                        fours, or its overline, with their stones;
 *   gmk_coach_last_move  why the last move lost: the five it allowed, or the opponent's forced
 *                        win after it, and a defence that would have stopped it.
 *
 * Each writes one sentence a line (\n-terminated) into buf (cap bytes, NUL included; cut at a
 * line when full) and returns the number of sentences. The solvers are bounded (node limits),
 * so each call takes at most a fraction of a second; a forced win not found within them is not
 * claimed. Pure functions of the board (restored on return); any thread. Called by gomoku coach,
 * the web's /api/coach and the terminal's "why?" key. */
#ifndef GMK_COACH_H
#define GMK_COACH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/gmk.h"

int gmk_coach_position(const gmk_board *b, bool zh, char *buf, size_t cap);
int gmk_coach_forbidden(const gmk_board *b, gmk_pos p, bool zh, char *buf, size_t cap);
int gmk_coach_last_move(const gmk_board *b, bool zh, char *buf, size_t cap);

#endif
