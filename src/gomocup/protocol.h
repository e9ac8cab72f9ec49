/* protocol.h: the Gomocup ("pbrain") protocol as text: parsing the manager's lines into
 * commands and formatting the brain's replies (../shared/docs/PROTOCOL.md, docs/protocol.md).
 *
 * Pure functions over strings: no I/O, no state, no game rules (the brain checks positions with
 * rules.h). A line may end with LF, CR or CRLF; command words and INFO keys are
 * case-insensitive. Coordinates are Gomocup "x,y" (0-based, y from the top); this module only
 * checks their form, the brain checks them against the board. Any thread may call these. */
#ifndef GMK_PROTOCOL_H
#define GMK_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/rules.h"
#include "engine/engine.h"

typedef enum {
    GMK_CMD_START,      /* START n */
    GMK_CMD_RECTSTART,  /* RECTSTART w,h (x = w, y = h) */
    GMK_CMD_RESTART,    /* RESTART */
    GMK_CMD_BEGIN,      /* BEGIN */
    GMK_CMD_TURN,       /* TURN x,y */
    GMK_CMD_BOARD,      /* BOARD, then stone lines, then DONE */
    GMK_CMD_YXBOARD,    /* like BOARD, but no move is wanted */
    GMK_CMD_SWAP2BOARD, /* SWAP2BOARD, then 0, 3 or 5 lines x,y, then DONE */
    GMK_CMD_DONE,       /* DONE (ends a BOARD-like block) */
    GMK_CMD_END,        /* END */
    GMK_CMD_ABOUT,      /* ABOUT */
    GMK_CMD_TAKEBACK,   /* TAKEBACK x,y */
    GMK_CMD_PLAY,       /* PLAY x,y */
    GMK_CMD_INFO,       /* INFO key value */
    GMK_CMD_STOP,       /* YXSTOP or STOP */
    GMK_CMD_SHOWFORBID, /* YXSHOWFORBID */
    GMK_CMD_HASHCLEAR,  /* YXHASHCLEAR */
    GMK_CMD_NBEST,      /* YXNBEST n */
    GMK_CMD_SHOWINFO,   /* YXSHOWINFO */
} gmk_proto_kind;

enum { GMK_PROTO_KEY_MAX = 40, GMK_PROTO_VALUE_MAX = 512, GMK_PROTO_WORD_MAX = 40 };

typedef struct {
    gmk_proto_kind kind;
    char word[GMK_PROTO_WORD_MAX];   /* the command word, upper-cased (possibly cut short) */
    int x, y;                        /* TURN, TAKEBACK, PLAY; RECTSTART width and height */
    int n;                           /* START size, YXNBEST count */
    char key[GMK_PROTO_KEY_MAX];     /* INFO: the key, lower-cased */
    char value[GMK_PROTO_VALUE_MAX]; /* INFO: the rest of the line, trimmed */
} gmk_proto_command;

typedef enum {
    GMK_PROTO_OK = 0,
    GMK_PROTO_EMPTY,     /* a blank line: ignore it */
    GMK_PROTO_UNKNOWN,   /* not a command we know: answer UNKNOWN */
    GMK_PROTO_MALFORMED, /* a known command with bad arguments: answer ERROR */
} gmk_proto_status;

/* Parses one line from the manager. On GMK_PROTO_UNKNOWN and GMK_PROTO_MALFORMED, err gets a
 * message for the UNKNOWN / ERROR reply (without the leading word). out->word is filled in
 * whenever the line has a first word. */
gmk_proto_status gmk_proto_parse(const char *line, gmk_proto_command *out, char *err,
                                 size_t errlen);

/* Parses a stone line of a BOARD or YXBOARD block: "x,y,f" with f 1 (own), 2 (opponent) or
 * 3 (a continuous-game marker). Returns false with a message on anything else. */
bool gmk_proto_parse_stone(const char *line, int *x, int *y, int *field, char *err, size_t errlen);

/* Parses a line of a SWAP2BOARD block: "x,y" (a trailing ",f" is accepted and ignored). */
bool gmk_proto_parse_point(const char *line, int *x, int *y, char *err, size_t errlen);

/* Parses an INFO value as an integer (the whole value, optional sign). */
bool gmk_proto_parse_int(const char *value, int64_t *out);

/* The rule of an INFO rule bitmask, as RULES.md section 1.1 recommends:
 * renju = (n & 4) || n == 2 (Yixin-Board's 2), else caro = n & 8, else exact five = n & 1,
 * else freestyle. Negative numbers are refused. */
bool gmk_proto_rule_from_mask(int64_t n, gmk_rule *out);

/* "x,y" of an on-board point. */
void gmk_proto_format_point(gmk_pos p, char out[8]);

/* The ABOUT reply. Returns the length, or -1 if cap is too small. */
int gmk_proto_format_about(char *out, size_t cap);

/* The YXSHOWFORBID reply: "FORBID " then two digits of x and two digits of y for each point,
 * then ".". Returns the length, or -1 if cap is too small. */
int gmk_proto_format_forbid(const gmk_pos *points, int count, char *out, size_t cap);

/* A MESSAGE line describing a search iteration: depth, eval, nodes, speed, time and PV in
 * Gomocup coordinates. line is -1 for the best line, otherwise the multi-PV index
 * (0-based) of r->lines to describe. Returns the length, or -1 if cap is too small. */
int gmk_proto_format_detail(const gmk_search_result *r, int line, char *out, size_t cap);

/* An eval as text: centi-stones ("35", "-120"), or "+W5" / "-L4" for a proved win or loss
 * in that many plies. */
void gmk_proto_format_eval(int score, char out[16]);

#endif
