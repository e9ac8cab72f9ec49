/* review_json.h: a review as a JSON object (jansson), for `gomoku review --json` and the web
 * API: {"rule", "size", "nodes", "complete", "searched", "positions", and once complete
 * "moves": [{"ply", "color", "move", "label", "best", "line", "before", "after", "lost",
 * "black_after", "score_best", "score_played", "turning"}], "summary": {"black": {label:
 * count}, "white": {...}}}. Win rates in percent, for the mover (black_after: for black). */
#ifndef GMK_REVIEW_JSON_H
#define GMK_REVIEW_JSON_H

#include <jansson.h>

#include "game/review.h"

/* A new reference, for the caller to json_decref. */
json_t *gmk_review_json(const gmk_review *rv);

#endif
