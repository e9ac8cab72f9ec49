/* record.h: game records: PSQ (as Piskvork writes it), SGF with GM[4], and plain move strings
 * (RULES.md sections 5.2, 5.4, 5.6).
 *
 * A record is the list of moves of one game, black first and alternating, with the board
 * size, the rule when the format holds it, the players' names, the time each move took when
 * known, and the result as recorded. Readers are strict: any syntax error, any point off the
 * board or played twice, and anything the record type cannot hold (passes, setup stones that
 * do not alternate, rectangular boards) makes them fail with a message naming the line or the
 * character; they never leave a partial record behind. Writers fail only when the buffer is
 * too small. Pure functions over caller buffers; any thread. */
#ifndef GMK_RECORD_H
#define GMK_RECORD_H

#include <stddef.h>

#include "notation.h"
#include "rules.h"

#define GMK_RECORD_NAME_MAX 96
#define GMK_RECORD_NOTE_MAX 160

typedef struct {
    int size;
    gmk_rule rule;
    bool rule_known; /* false: the format did not say (PSQ never does) */
    int count;
    gmk_pos moves[GMK_MAX_MOVES];
    int32_t time_ms[GMK_MAX_MOVES]; /* -1 when unknown */
    char black[GMK_RECORD_NAME_MAX];
    char white[GMK_RECORD_NAME_MAX];
    gmk_outcome outcome;            /* GMK_ONGOING when the record holds no result */
    gmk_reason reason;              /* GMK_REASON_NONE when not known */
    char note[GMK_RECORD_NOTE_MAX]; /* free text about the result (SGF GC) */
    int psq_code;                   /* the last line of a PSQ file (0 if absent) */
} gmk_record;

typedef enum {
    GMK_RECORD_UNKNOWN = 0,
    GMK_RECORD_PSQ,
    GMK_RECORD_SGF,
    GMK_RECORD_MOVES,
} gmk_record_format;

/* An empty record for a size x size board (5..22) under rule. */
void gmk_record_init(gmk_record *r, int size, gmk_rule rule);

/* Appends a move (time_ms -1 when unknown). Returns false when the record is full. */
bool gmk_record_add(gmk_record *r, gmk_pos p, int32_t time_ms);

/* Copies the history of board b (times unknown). */
void gmk_record_from_board(gmk_record *r, const gmk_board *b);

/* Replays the moves on a fresh board with the record's rule. Fails when a move is off the
 * board or on a taken point; fouls and moves after the end are replayed as they are (judge
 * them with gmk_rules_result). */
bool gmk_record_to_board(const gmk_record *r, gmk_board *b, char *err, size_t errlen);

/* Guesses the format of a text: "Piskvorky" starts a PSQ file, "(" an SGF collection, a
 * letter a move string. */
gmk_record_format gmk_record_detect(const char *text);

/* PSQ: "Piskvorky NxN, 11:11, 0", one line "x,y,time_ms" per move with 1-based coordinates,
 * then the black and white players' names (when either is set) and the result code. Returns
 * the length written, or -1 when it does not fit in cap bytes. */
int gmk_record_write_psq(const gmk_record *r, char *out, size_t cap);
/* Reads a PSQ file. The rule is not part of the format: out->rule is `rule`. */
bool gmk_record_read_psq(const char *text, gmk_rule rule, gmk_record *out, char *err,
                         size_t errlen);

/* SGF: one game tree "(;GM[4]FF[4]...;B[hh];W[ih]...)" and a newline, with SZ, RU (the rule
 * name), PB, PW, RE (B+, W+, 0; B+T on time, B+R on resignation, W+F for a foul) and GC (the
 * note). Returns the length, or -1 when it does not fit. */
int gmk_record_write_sgf(const gmk_record *r, char *out, size_t cap);
/* Reads the first game tree of an SGF collection, following the first variation; *consumed
 * (may be NULL) gets the offset just past it, so that a caller can read a collection game by
 * game. GM must be 4 when present; SZ defaults to 15; RU is read with gmk_rule_parse (an
 * unknown or missing RU leaves rule_known false and the rule `rule`); AB/AW setup stones in
 * the root node become the first moves when they alternate (black first). */
bool gmk_record_read_sgf(const char *text, gmk_rule rule, size_t *consumed, gmk_record *out,
                         char *err, size_t errlen);

/* The moves as a renju-notation move string without separators ("h8i9j10"). Returns the
 * length, or -1 when it does not fit. */
int gmk_record_write_moves(const gmk_record *r, char *out, size_t cap);
/* Reads a move string (see notation.h) on a size x size board under rule. */
bool gmk_record_read_moves(const char *text, int size, gmk_rule rule, gmk_record *out, char *err,
                           size_t errlen);

#endif
