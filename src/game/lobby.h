/* lobby.h: the rules of the lobby (docs/lobby.md): how long a seek waits, how many a client may
 * have open, the rating a player without one is given, and how close two ratings must be for
 * quick pairing ("play now"), a window that widens the longer a player waits, and how many chat
 * lines the lobby keeps (its chat's text follows a room's rules, game/room.h). The seeks
 * themselves are in the store (store/lobby.h); src/web/lobby.c applies these rules. */
#ifndef GMK_LOBBY_H
#define GMK_LOBBY_H

#include <stdbool.h>
#include <stdint.h>

#define GMK_LOBBY_SEEK_MS (15 * 60000LL) /* an open seek nobody takes goes after 15 minutes */
#define GMK_LOBBY_QUICK_MS (5 * 60000LL) /* a "play now" nobody fits goes after 5 minutes */
#define GMK_LOBBY_MAX_OPEN 3             /* open seeks (of both kinds) per client */
#define GMK_LOBBY_RATING 1500            /* a guest's rating, and anyone's without one */
#define GMK_LOBBY_WINDOW 150             /* ratings this close pair at once... */
#define GMK_LOBBY_WINDOW_PER_MS 100      /* ...and one point closer every 100 ms waited */
#define GMK_LOBBY_CHAT_KEEP 100          /* the lobby's chat: the last lines kept and shown */

/* How far apart two ratings may be for quick pairing when the one waiting longer has waited
 * waited_ms: GMK_LOBBY_WINDOW, plus a point per GMK_LOBBY_WINDOW_PER_MS (so 450 after 30 s). */
int gmk_lobby_window(int64_t waited_ms);

/* May two players of these ratings be paired, the first having waited waited_ms? */
bool gmk_lobby_fits(int rating_a, int rating_b, int64_t waited_ms);

#endif
