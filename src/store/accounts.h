/* accounts.h: players' accounts in the store: the account (a name as shown, its unique key,
 * the password's Argon2id hash string), its sessions, and the games that follow it.
 *
 * The store checks only what keeps the database sound (lengths, ids); what a valid name is, how
 * the key is made from it and how a password is hashed are game/account.h's. The key column is
 * UNIQUE, so two accounts whose names differ only by case or Unicode normalisation cannot both
 * be created, even by two servers at once. A session is kept only as the SHA-256 of its random
 * token, with the time it ends; a session past its end is never found and is deleted by the
 * next session created. Deleting an account deletes its sessions, ratings and links to games;
 * the games stay, and the names it played under in online games and open rooms become the
 * neutral name given. Times are Unix seconds. Errors as in store.h; called by src/web/ (one
 * handle, under the server's store lock) and game/rating.c. */
#ifndef GMK_STORE_ACCOUNTS_H
#define GMK_STORE_ACCOUNTS_H

#include "store/store.h"

/* The Argon2id hash string (libsodium's crypto_pwhash_STRBYTES), NUL included. */
#define GMK_STORE_PWHASH_MAX 128
/* A session's token hash (SHA-256) and what is kept of the browser's User-Agent. */
#define GMK_STORE_SESSION_HASH 32
#define GMK_STORE_AGENT_MAX 96

typedef struct {
    int64_t id; /* > 0 */
    char name[GMK_STORE_NAME_MAX];
    int64_t created_s;
} gmk_store_account;

typedef struct {
    int64_t id; /* > 0: how a player names one of its sessions to end it */
    int64_t created_s, seen_s, expires_s;
    char agent[GMK_STORE_AGENT_MAX];
} gmk_store_session;

/* Whose games: an account (account > 0), else the browser whose owner token hashes to owner
 * (the games of web_owners). */
typedef struct {
    int64_t account;
    const uint8_t *owner; /* GMK_STORE_OWNER_HASH bytes */
} gmk_store_whose;

/* --- accounts ---------------------------------------------------------------------------- */

/* Creates an account; *id receives its id. GMK_STORE_INVALID when key is taken (another
 * account's name has the same key) or a value is empty or too long. */
gmk_store_status gmk_store_account_create(gmk_store *s, const char *name, const char *key,
                                          const char *pw_hash, int64_t created_s, int64_t *id,
                                          char *err, size_t errlen);

/* The account whose name has key, with its password hash into pw_hash[GMK_STORE_PWHASH_MAX]
 * (may be NULL). GMK_STORE_NOT_FOUND when there is none. */
gmk_store_status gmk_store_account_find(gmk_store *s, const char *key, gmk_store_account *out,
                                        char *pw_hash, char *err, size_t errlen);

/* Account id, with its password hash as above. GMK_STORE_NOT_FOUND when there is none. */
gmk_store_status gmk_store_account_get(gmk_store *s, int64_t id, gmk_store_account *out,
                                       char *pw_hash, char *err, size_t errlen);

/* Replaces the password hash of account id and ends every session of it but keep_session (0:
 * all). GMK_STORE_NOT_FOUND when there is no such account. */
gmk_store_status gmk_store_account_set_password(gmk_store *s, int64_t id, const char *pw_hash,
                                                int64_t keep_session, char *err, size_t errlen);

/* Deletes account id with its sessions, ratings and links; its games stay, and the names of
 * its seats (online games, open rooms and their logs) become neutral. GMK_STORE_NOT_FOUND when
 * there is no such account. One transaction. */
gmk_store_status gmk_store_account_delete(gmk_store *s, int64_t id, const char *neutral, char *err,
                                          size_t errlen);

/* --- sessions ---------------------------------------------------------------------------- */

/* Records a session of account id ending at expires_s (deleting every session already past its
 * end); *session_id receives its id. agent may be NULL (cut to GMK_STORE_AGENT_MAX-1 bytes at a
 * character boundary). */
gmk_store_status gmk_store_session_create(gmk_store *s, int64_t account,
                                          const uint8_t hash[GMK_STORE_SESSION_HASH], int64_t now_s,
                                          int64_t expires_s, const char *agent, int64_t *session_id,
                                          char *err, size_t errlen);

/* The session whose token hashes to hash and its account, if it has not ended by now_s.
 * GMK_STORE_NOT_FOUND otherwise. */
gmk_store_status gmk_store_session_find(gmk_store *s, const uint8_t hash[GMK_STORE_SESSION_HASH],
                                        int64_t now_s, gmk_store_account *acc,
                                        gmk_store_session *out, char *err, size_t errlen);

/* Notes that session id was used at seen_s and now ends at expires_s. */
gmk_store_status gmk_store_session_touch(gmk_store *s, int64_t id, int64_t seen_s,
                                         int64_t expires_s, char *err, size_t errlen);

/* The sessions of account that have not ended by now_s, most recently used first; up to cap,
 * *count receives how many. */
gmk_store_status gmk_store_session_list(gmk_store *s, int64_t account, int64_t now_s,
                                        gmk_store_session *out, int cap, int *count, char *err,
                                        size_t errlen);

/* Ends sessions of account: session id only (id > 0), or every one but keep (id 0; keep 0:
 * all). *ended (may be NULL) receives how many. GMK_STORE_NOT_FOUND when id > 0 is not a
 * session of this account (another's session is never touched). */
gmk_store_status gmk_store_session_end(gmk_store *s, int64_t account, int64_t id, int64_t keep,
                                       int *ended, char *err, size_t errlen);

/* --- the games of an account ------------------------------------------------------------- */

/* Links game id to account: color 0 for a game of the browser's own (against the computer, two
 * at one board), GMK_BLACK or GMK_WHITE for the side it played online. Linking again is OK. */
gmk_store_status gmk_store_account_link_game(gmk_store *s, int64_t account, int64_t game,
                                             gmk_color color, char *err, size_t errlen);

/* Links every game of the browser whose owner token hashes to owner to account (a guest
 * signing up or logging in); *claimed (may be NULL) receives how many were new. */
gmk_store_status gmk_store_account_claim(gmk_store *s, int64_t account,
                                         const uint8_t owner[GMK_STORE_OWNER_HASH], int *claimed,
                                         char *err, size_t errlen);

/* Gives account the seat of the open room code whose token hashes to hash (a guest's seat,
 * or one it holds already) and links every game of the room to it with the colour that seat
 * played (the room's log says which); *linked (may be NULL) receives how many games were new.
 * GMK_STORE_NOT_FOUND when there is no such room or seat, or another account holds it. */
gmk_store_status gmk_store_account_claim_seat(gmk_store *s, int64_t account, const char *code,
                                              const uint8_t hash[GMK_STORE_SESSION_HASH],
                                              int *linked, char *err, size_t errlen);

/* The games of who, most recent first (as gmk_store_game_list). */
gmk_store_status gmk_store_game_list_of(gmk_store *s, const gmk_store_whose *who,
                                        gmk_store_game *out, int cap, int *count, char *err,
                                        size_t errlen);

/* The scoreboard of who's finished games (as gmk_store_scoreboard): wins and losses from its
 * side in games against the computer and online games. */
gmk_store_status gmk_store_scoreboard_of(gmk_store *s, const gmk_store_whose *who,
                                         gmk_store_score *out, int cap, int *count, char *err,
                                         size_t errlen);

#endif
