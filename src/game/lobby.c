/* lobby.c: the lobby's pairing window (see lobby.h). The store's match query
 * (gmk_store_seek_match) applies the same arithmetic in SQL with these constants. */
#include "game/lobby.h"

int gmk_lobby_window(int64_t waited_ms) {
    if (waited_ms < 0) waited_ms = 0;
    if (waited_ms > 3600000) waited_ms = 3600000; /* an hour: no limit left that matters */
    return GMK_LOBBY_WINDOW + (int)(waited_ms / GMK_LOBBY_WINDOW_PER_MS);
}

bool gmk_lobby_fits(int rating_a, int rating_b, int64_t waited_ms) {
    int d = rating_a > rating_b ? rating_a - rating_b : rating_b - rating_a;
    return d <= gmk_lobby_window(waited_ms);
}
