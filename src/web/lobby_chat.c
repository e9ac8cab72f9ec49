/* lobby_chat.c: the lobby's chat on this server (docs/lobby.md "Chat"): the last lines, the
 * same ones the store keeps, held as the JSON a lobby stream starts with; a line said here is
 * stored, then sent to every lobby viewer as `chat`. On a shared database a line said on
 * another server comes as news ("~C:<id>", lobby.c's lobby_news): the timer thread reads the
 * last lines again and sends those new here, so a line reaches every server's viewers once,
 * whatever order the commits arrive in. The route (who speaks, the checks, the limit) is
 * lobby_api.c's; the text rules are game/room.h's.
 *
 * Lock order: chat.mu alone, or store_mu then nothing (chat.mu is never held while the store
 * is used, and never taken under store_mu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/lobby.h"
#include "web/web_internal.h"

#define FROM_BYTES 6 /* a speaker's mark shown to the pages, from its tag (a digest) */

typedef struct {
    int64_t id;
    char *json; /* the line as the lobby shows it */
} known_line;

struct web_lobby_chat {
    pthread_mutex_t mu;
    known_line lines[GMK_LOBBY_CHAT_KEEP]; /* mu: by id, ascending */
    int count;
    atomic_bool reread; /* another server said something, or news was lost */
};

static json_t *line_json(const gmk_store_lobby_line *l) {
    char from[2 * FROM_BYTES + 1];
    for (int i = 0; i < FROM_BYTES; i++) snprintf(from + 2 * i, 3, "%02x", l->sender[i]);
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(l->id));
    json_object_set_new(j, "at_ms", json_integer(l->at_ms));
    json_object_set_new(j, "name", web_string(l->name));
    json_object_set_new(j, "text", web_string(l->text));
    json_object_set_new(j, "account", json_boolean(l->account > 0));
    json_object_set_new(j, "from", json_string(from));
    return j;
}

/* Adds line l unless it is known or older than every line kept while they are
 * GMK_LOBBY_CHAT_KEEP (mu held): the `chat` event to send, or NULL. */
static char *add_line(web_lobby_chat *c, const gmk_store_lobby_line *l) {
    int at = c->count;
    while (at > 0 && c->lines[at - 1].id > l->id) at--;
    if (at > 0 && c->lines[at - 1].id == l->id) return NULL;     /* known */
    if (c->count == GMK_LOBBY_CHAT_KEEP && at == 0) return NULL; /* older than all: pruned */
    json_t *j = line_json(l);
    char *data = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    size_t cap = data ? strlen(data) + 32 : 0;
    char *event = data ? malloc(cap) : NULL;
    if (!event) {
        free(data);
        return NULL;
    }
    snprintf(event, cap, "event: chat\ndata: %s\n\n", data);
    if (c->count == GMK_LOBBY_CHAT_KEEP) { /* the oldest goes, as in the store */
        free(c->lines[0].json);
        memmove(&c->lines[0], &c->lines[1], (size_t)(c->count - 1) * sizeof c->lines[0]);
        c->count--;
        at--;
    }
    memmove(&c->lines[at + 1], &c->lines[at], (size_t)(c->count - at) * sizeof c->lines[0]);
    c->lines[at].id = l->id;
    c->lines[at].json = data;
    c->count++;
    return event;
}

/* Tells every lobby viewer of line l, once. */
static void seen(gmk_web *w, const gmk_store_lobby_line *l) {
    web_lobby_chat *c = w->lobby_chat;
    pthread_mutex_lock(&c->mu);
    char *event = add_line(c, l);
    pthread_mutex_unlock(&c->mu);
    if (event) hub_send(lobby_hub(w), event);
    free(event);
}

void lobby_chat_load(gmk_web *w) {
    static __thread gmk_store_lobby_line recent[GMK_LOBBY_CHAT_KEEP]; /* 50 kB: not on the stack */
    int n = 0;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st =
        gmk_store_lobby_chat_recent(w->store, recent, GMK_LOBBY_CHAT_KEEP, &n, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st != GMK_STORE_OK) {
        atomic_store(&w->lobby_chat->reread, true); /* try again next turn */
        return;
    }
    for (int i = 0; i < n; i++) seen(w, &recent[i]);
}

void lobby_chat_news(gmk_web *w) {
    if (w->lobby_chat) atomic_store(&w->lobby_chat->reread, true);
}

void lobby_chat_tick(gmk_web *w) {
    if (w->lobby_chat && atomic_exchange(&w->lobby_chat->reread, false)) lobby_chat_load(w);
}

unsigned lobby_chat_say(gmk_web *w, const uint8_t tag[HUB_TAG_LEN], int64_t account,
                        const char *name, const char *text, json_t **line, uint64_t *seq, char *err,
                        size_t errlen) {
    gmk_store_lobby_line l;
    memset(&l, 0, sizeof l);
    memcpy(l.sender, tag, HUB_TAG_LEN);
    l.account = account;
    l.at_ms = web_wall_ms();
    snprintf(l.name, sizeof l.name, "%s", name);
    snprintf(l.text, sizeof l.text, "%s", text);
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st = gmk_store_lobby_chat_add(w->store, &l, GMK_LOBBY_CHAT_KEEP, err, errlen);
    *seq = st == GMK_STORE_OK ? web_wrote(w) : 0;
    pthread_mutex_unlock(&w->store_mu);
    if (st == GMK_STORE_UNAVAILABLE || st == GMK_STORE_BUSY) return 503;
    if (st != GMK_STORE_OK) return 500;
    seen(w, &l);
    *line = line_json(&l);
    return 0;
}

char *lobby_chat_array(gmk_web *w) {
    web_lobby_chat *c = w->lobby_chat;
    pthread_mutex_lock(&c->mu);
    size_t cap = 3;
    for (int i = 0; i < c->count; i++) cap += strlen(c->lines[i].json) + 1;
    char *out = malloc(cap);
    if (out) {
        size_t len = 0;
        out[len++] = '[';
        for (int i = 0; i < c->count; i++) {
            if (i) out[len++] = ',';
            size_t n = strlen(c->lines[i].json);
            memcpy(out + len, c->lines[i].json, n);
            len += n;
        }
        out[len++] = ']';
        out[len] = '\0';
    }
    pthread_mutex_unlock(&c->mu);
    return out;
}

bool lobby_chat_start(gmk_web *w) {
    web_lobby_chat *c = calloc(1, sizeof *c);
    if (!c) return false;
    pthread_mutex_init(&c->mu, NULL);
    w->lobby_chat = c;
    return true;
}

void lobby_chat_free(gmk_web *w) {
    web_lobby_chat *c = w->lobby_chat;
    if (!c) return;
    for (int i = 0; i < c->count; i++) free(c->lines[i].json);
    pthread_mutex_destroy(&c->mu);
    free(c);
    w->lobby_chat = NULL;
}
