/* lobby.c: the lobby in memory (docs/lobby.md): its viewers (one hub of event streams, each
 * tagged with its player), the open seeks known to this server (a copy of the store's, kept
 * up to date by this server's own changes and, on a shared database, by the other servers'
 * news), the players with a lobby stream open here, and the list of games in play. The
 * timer thread of rooms.c calls lobby_tick every turn: closed streams (a player who has left
 * loses its seeks), expired seeks, the games list, pings, the chat's news (lobby_chat.c). The rules
 * (how long a seek lasts, how close a pairing is) are game/lobby.h's; the routes are lobby_api.c's.
 *
 * Lock order: lobby.mu alone, or store_mu then nothing (lobby.mu is never held while the store
 * is used, and never taken under store_mu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "game/lobby.h"
#include "web/web_internal.h"

#define PING_EVERY_MS 15000
#define GAMES_EVERY_MS 2000
#define EXPIRE_EVERY_MS 5000
#define GAMES_SHOWN 50
#define PRESENT_BUCKETS 4096 /* a power of two */

typedef struct known_seek {
    int64_t id;
    bool listed; /* an open seek (shown), not a quick-pairing entry */
    uint8_t poster[HUB_TAG_LEN];
    char *json; /* the seek as the lobby shows it (listed ones) */
} known_seek;

typedef struct present {
    uint8_t tag[HUB_TAG_LEN];
    int streams;
    struct present *next;
} present;

typedef struct closed_stream {
    uint8_t tag[HUB_TAG_LEN];
    struct web_lobby *lobby;
    struct closed_stream *next;
} closed_stream;

struct web_lobby {
    gmk_web *web;
    pthread_mutex_t mu;
    gmk_hub *hub;
    known_seek *seeks; /* mu: by id, ascending */
    int nseeks, capseeks;
    present *present[PRESENT_BUCKETS]; /* mu */
    closed_stream *closed;             /* mu: streams closed, for the timer */
    char *games;                       /* mu: the last games list sent (JSON) */
    int64_t next_ping, next_games, next_expire;
    _Atomic bool reload; /* news was lost: read every seek again */
    atomic_bool ready;   /* the store is open and set up: the timer may use it */
};

/* --- JSON ---------------------------------------------------------------------------------- */

static json_t *clock_json(int64_t clock_ms, int64_t increment_ms) {
    if (clock_ms <= 0) return json_string("none");
    char buf[48];
    snprintf(buf, sizeof buf, "%lld+%lld", (long long)(clock_ms / 60000),
             (long long)(increment_ms / 1000));
    return json_string(buf);
}

json_t *lobby_seek_json(const gmk_store_seek *k) {
    static const char *const colors[] = {"random", "black", "white"};
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(k->id));
    json_object_set_new(j, "name", web_string(k->name));
    json_object_set_new(j, "rating", json_integer(k->rating));
    json_object_set_new(j, "account", json_boolean(k->account > 0));
    json_object_set_new(j, "rule", json_string(gmk_rule_name(k->rule)));
    json_object_set_new(j, "size", json_integer(k->size));
    json_object_set_new(j, "clock", clock_json(k->clock_ms, k->increment_ms));
    json_object_set_new(j, "rated", json_boolean(k->rated));
    json_object_set_new(j, "color",
                        json_string(colors[k->color >= 0 && k->color <= 2 ? k->color : 0]));
    json_object_set_new(j, "created_ms", json_integer(k->created_ms));
    json_object_set_new(j, "expires_ms", json_integer(k->expires_ms));
    return j;
}

static char *sse(const char *event, json_t *j) {
    char *data = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!data) return NULL;
    size_t cap = strlen(data) + strlen(event) + 32;
    char *text = malloc(cap);
    if (text) snprintf(text, cap, "event: %s\ndata: %s\n\n", event, data);
    free(data);
    return text;
}

/* --- the seeks known here -------------------------------------------------------------------- */

static int find(const web_lobby *l, int64_t id) {
    int lo = 0, hi = l->nseeks - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (l->seeks[mid].id == id) return mid;
        if (l->seeks[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Adds k (mu held); false when it was known already or memory is short. */
static bool add_known(web_lobby *l, const gmk_store_seek *k) {
    if (find(l, k->id) >= 0) return false;
    if (l->nseeks == l->capseeks) {
        int cap = l->capseeks ? 2 * l->capseeks : 256;
        known_seek *bigger = realloc(l->seeks, (size_t)cap * sizeof *bigger);
        if (!bigger) return false;
        l->seeks = bigger;
        l->capseeks = cap;
    }
    int at = l->nseeks;
    while (at > 0 && l->seeks[at - 1].id > k->id) at--;
    memmove(&l->seeks[at + 1], &l->seeks[at], (size_t)(l->nseeks - at) * sizeof *l->seeks);
    known_seek *s = &l->seeks[at];
    memset(s, 0, sizeof *s);
    s->id = k->id;
    s->listed = k->kind == GMK_SEEK_OPEN;
    memcpy(s->poster, k->poster, HUB_TAG_LEN);
    if (s->listed) {
        json_t *j = lobby_seek_json(k);
        s->json = json_dumps(j, JSON_COMPACT);
        json_decref(j);
    }
    l->nseeks++;
    return true;
}

/* What the store says of seek id now (k, or NULL when it is gone): the viewers are told once
 * of a new listed seek, of one gone, and its poster of the room it opened when it was taken.
 * Any server may call it any number of times for one change. */
static void seen(web_lobby *l, int64_t id, const gmk_store_seek *k) {
    char *text = NULL, *paired = NULL;
    uint8_t poster[HUB_TAG_LEN];
    pthread_mutex_lock(&l->mu);
    if (k && k->state == 0) {
        if (add_known(l, k) && k->kind == GMK_SEEK_OPEN) text = sse("seek", lobby_seek_json(k));
    } else {
        int i = find(l, id);
        if (i >= 0) {
            known_seek *s = &l->seeks[i];
            memcpy(poster, s->poster, HUB_TAG_LEN);
            if (s->listed) {
                json_t *j = json_object();
                json_object_set_new(j, "id", json_integer(id));
                text = sse("unseek", j);
            }
            if (k && k->state == 1) {
                json_t *j = json_object();
                json_object_set_new(j, "id", json_integer(id));
                json_object_set_new(j, "code", json_string(k->code));
                paired = sse("paired", j);
            }
            free(s->json);
            memmove(s, s + 1, (size_t)(l->nseeks - i - 1) * sizeof *s);
            l->nseeks--;
        }
    }
    pthread_mutex_unlock(&l->mu);
    if (text) hub_send(l->hub, text);
    if (paired) hub_send_tag(l->hub, paired, poster);
    free(text);
    free(paired);
}

void lobby_seen(gmk_web *w, int64_t id, const gmk_store_seek *k) {
    if (w->lobby) seen(w->lobby, id, k);
}

/* Reads seek id from the store and tells the viewers what became of it. */
static void read_one(gmk_web *w, int64_t id) {
    gmk_store_seek k;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st = gmk_store_seek_get(w->store, id, &k, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st == GMK_STORE_OK)
        seen(w->lobby, id, &k);
    else if (st == GMK_STORE_NOT_FOUND)
        seen(w->lobby, id, NULL);
}

/* Reads every open seek again: adds the new ones, drops the ones gone (news was lost). */
static void reload(gmk_web *w) {
    enum { CAP = 20000 };
    gmk_store_seek *all = malloc(CAP * sizeof *all);
    if (!all) return;
    int n = 0;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st = gmk_store_seeks_open(w->store, all, CAP, &n, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st == GMK_STORE_OK) {
        web_lobby *l = w->lobby;
        for (int i = 0; i < n; i++) seen(l, all[i].id, &all[i]);
        /* the known ones the store no longer has open: read each (taken, or gone) */
        pthread_mutex_lock(&l->mu);
        int k = l->nseeks;
        int64_t *ids = malloc((size_t)(k ? k : 1) * sizeof *ids);
        for (int i = 0; ids && i < k; i++) ids[i] = l->seeks[i].id;
        pthread_mutex_unlock(&l->mu);
        for (int i = 0, j = 0; ids && i < k; i++) {
            while (j < n && all[j].id < ids[i]) j++;
            if (j < n && all[j].id == ids[i]) continue;
            read_one(w, ids[i]);
        }
        free(ids);
    } else {
        atomic_store(&w->lobby->reload, true);
    }
    free(all);
}

void lobby_news(gmk_web *w, const char *news) {
    if (!w->lobby) return;
    if (news[1] == 'C') { /* a chat line: "~C" (its id was the news's number) */
        lobby_chat_news(w);
        return;
    }
    if (news[1] != 'L') return;
    char *end;
    long long id = strtoll(news + 2, &end, 10);
    if (*end != '\0' || id < 0) return;
    if (id == 0)
        atomic_store(&w->lobby->reload, true);
    else
        read_one(w, id);
}

void lobby_news_lost(gmk_web *w) {
    if (w->lobby) atomic_store(&w->lobby->reload, true);
    lobby_chat_news(w);
}

/* --- the start of a stream --------------------------------------------------------------- */

char *lobby_start_text(gmk_web *w, const uint8_t tag[HUB_TAG_LEN], json_t *you) {
    web_lobby *l = w->lobby;
    size_t cap = 4096, len = 0;
    pthread_mutex_lock(&l->mu);
    for (int i = 0; i < l->nseeks; i++)
        if (l->seeks[i].json) cap += strlen(l->seeks[i].json) + 1;
    if (l->games) cap += strlen(l->games);
    char *buf = malloc(cap + 256);
    json_t *mine = json_array();
    if (buf) {
        len += (size_t)snprintf(buf, cap, "event: lobby\ndata: {\"seeks\":[");
        bool first = true;
        for (int i = 0; i < l->nseeks; i++) {
            const known_seek *s = &l->seeks[i];
            if (memcmp(s->poster, tag, HUB_TAG_LEN) == 0)
                json_array_append_new(mine, json_integer(s->id));
            if (!s->json) continue;
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", first ? "" : ",", s->json);
            first = false;
        }
        len += (size_t)snprintf(buf + len, cap - len, "],\"games\":%s", l->games ? l->games : "[]");
    }
    pthread_mutex_unlock(&l->mu);
    char *chat = buf ? lobby_chat_array(w) : NULL;
    if (!chat) {
        free(buf);
        json_decref(mine);
        json_decref(you);
        return NULL;
    }
    json_object_set_new(you, "seeks", mine);
    char *y = json_dumps(you, JSON_COMPACT);
    json_decref(you);
    size_t need = len + (y ? strlen(y) : 2) + strlen(chat) + 48;
    char *out = realloc(buf, need);
    if (!out) {
        free(buf);
        free(y);
        free(chat);
        return NULL;
    }
    snprintf(out + len, need - len, ",\"chat\":%s,\"you\":%s}\n\n", chat, y ? y : "{}");
    free(y);
    free(chat);
    return out;
}

/* --- players present --------------------------------------------------------------------- */

static present **bucket(web_lobby *l, const uint8_t tag[HUB_TAG_LEN]) {
    uint32_t h;
    memcpy(&h, tag, sizeof h); /* the tag is a digest: its bytes are spread already */
    return &l->present[h & (PRESENT_BUCKETS - 1)];
}

void lobby_stream_opened(gmk_web *w, const uint8_t tag[HUB_TAG_LEN]) {
    web_lobby *l = w->lobby;
    pthread_mutex_lock(&l->mu);
    present **b = bucket(l, tag), *p = *b;
    while (p && memcmp(p->tag, tag, HUB_TAG_LEN) != 0) p = p->next;
    if (!p && (p = calloc(1, sizeof *p)) != NULL) {
        memcpy(p->tag, tag, HUB_TAG_LEN);
        p->next = *b;
        *b = p;
    }
    if (p) p->streams++;
    pthread_mutex_unlock(&l->mu);
}

void lobby_stream_closed(void *ctx) {
    closed_stream *c = ctx;
    web_lobby *l = c->lobby;
    pthread_mutex_lock(&l->mu);
    c->next = l->closed;
    l->closed = c;
    pthread_mutex_unlock(&l->mu);
}

void *lobby_close_ctx(gmk_web *w, const uint8_t tag[HUB_TAG_LEN]) {
    closed_stream *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    memcpy(c->tag, tag, HUB_TAG_LEN);
    c->lobby = w->lobby;
    return c;
}

gmk_hub *lobby_hub(gmk_web *w) {
    return w->lobby->hub;
}

/* Streams closed since the last turn: a player with no lobby stream left here loses its open
 * seeks (timer thread). */
static void leave_closed(gmk_web *w) {
    web_lobby *l = w->lobby;
    pthread_mutex_lock(&l->mu);
    closed_stream *c = l->closed;
    l->closed = NULL;
    pthread_mutex_unlock(&l->mu);
    while (c) {
        closed_stream *next = c->next;
        bool gone = false;
        pthread_mutex_lock(&l->mu);
        present **pp = bucket(l, c->tag);
        while (*pp && memcmp((*pp)->tag, c->tag, HUB_TAG_LEN) != 0) pp = &(*pp)->next;
        if (*pp && --(*pp)->streams <= 0) {
            present *p = *pp;
            *pp = p->next;
            free(p);
            gone = true;
        }
        pthread_mutex_unlock(&l->mu);
        if (gone) {
            int64_t ids[64];
            int n = 0;
            char err[256];
            pthread_mutex_lock(&w->store_mu);
            gmk_store_seeks_remove(w->store, c->tag, web_wall_ms(), ids, 64, &n, err, sizeof err);
            pthread_mutex_unlock(&w->store_mu);
            for (int i = 0; i < n; i++) seen(l, ids[i], NULL);
        }
        free(c);
        c = next;
    }
}

/* --- the games in play --------------------------------------------------------------------- */

static void refresh_games(gmk_web *w) {
    web_lobby *l = w->lobby;
    static gmk_store_live_game games[GAMES_SHOWN];
    int n = 0;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st =
        gmk_store_rooms_playing(w->store, games, GAMES_SHOWN, &n, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st != GMK_STORE_OK) return;
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        const gmk_store_live_game *g = &games[i];
        json_t *j = json_object();
        json_object_set_new(j, "code", json_string(g->code));
        json_object_set_new(j, "rule", json_string(gmk_rule_name(g->rule)));
        json_object_set_new(j, "size", json_integer(g->size));
        json_object_set_new(j, "clock", clock_json(g->clock_ms, g->increment_ms));
        json_object_set_new(j, "black", web_string(g->black));
        json_object_set_new(j, "white", web_string(g->white));
        json_array_append_new(arr, j);
    }
    char *text = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    if (!text) return;
    char *send = NULL;
    pthread_mutex_lock(&l->mu);
    if (!l->games || strcmp(l->games, text) != 0) {
        size_t cap = strlen(text) + 48;
        send = malloc(cap);
        if (send) snprintf(send, cap, "event: games\ndata: {\"games\":%s}\n\n", text);
        free(l->games);
        l->games = text;
        text = NULL;
    }
    pthread_mutex_unlock(&l->mu);
    if (send) hub_send(l->hub, send);
    free(send);
    free(text);
}

/* --- the timer ------------------------------------------------------------------------------ */

void lobby_tick(gmk_web *w, int64_t now, bool check_closed) {
    web_lobby *l = w->lobby;
    if (!l || !atomic_load(&l->ready)) return; /* the store opens after the timer starts */
    if (check_closed) hub_check_closed(l->hub);
    leave_closed(w);
    if (atomic_exchange(&l->reload, false)) reload(w);
    lobby_chat_tick(w);
    if (now >= l->next_expire) {
        int64_t ids[256];
        int n = 0;
        char err[256];
        pthread_mutex_lock(&w->store_mu);
        gmk_store_status st =
            gmk_store_seeks_remove(w->store, NULL, now, ids, 256, &n, err, sizeof err);
        pthread_mutex_unlock(&w->store_mu);
        for (int i = 0; i < n; i++) seen(l, ids[i], NULL);
        if (st == GMK_STORE_OK && n == 256) atomic_store(&l->reload, true);
        l->next_expire = now + EXPIRE_EVERY_MS;
    }
    if (now >= l->next_games && hub_viewers(l->hub) > 0) {
        refresh_games(w);
        l->next_games = now + GAMES_EVERY_MS;
    }
    if (now >= l->next_ping) {
        hub_ping(l->hub);
        l->next_ping = now + PING_EVERY_MS;
    }
}

bool lobby_start(gmk_web *w) {
    web_lobby *l = calloc(1, sizeof *l);
    if (!l) return false;
    l->web = w;
    l->hub = hub_new();
    if (!l->hub || !lobby_chat_start(w)) {
        if (l->hub) hub_free(l->hub);
        free(l);
        return false;
    }
    pthread_mutex_init(&l->mu, NULL);
    int64_t now = web_wall_ms();
    l->next_ping = now + PING_EVERY_MS;
    atomic_store(&l->reload, true); /* the seeks already in the store (another server's) */
    w->lobby = l;
    return true;
}

void lobby_ready(gmk_web *w) {
    if (!w->lobby) return;
    lobby_chat_load(w); /* before the first request: a stream starts with the stored lines */
    atomic_store(&w->lobby->ready, true);
}

void lobby_close_streams(gmk_web *w) {
    if (w->lobby) hub_close_all(w->lobby->hub);
}

void lobby_free(gmk_web *w) {
    web_lobby *l = w->lobby;
    if (!l) return;
    hub_free(l->hub);
    for (int i = 0; i < l->nseeks; i++) free(l->seeks[i].json);
    free(l->seeks);
    for (int b = 0; b < PRESENT_BUCKETS; b++) {
        present *p = l->present[b];
        while (p) {
            present *next = p->next;
            free(p);
            p = next;
        }
    }
    closed_stream *c = l->closed;
    while (c) {
        closed_stream *next = c->next;
        free(c);
        c = next;
    }
    free(l->games);
    pthread_mutex_destroy(&l->mu);
    free(l);
    w->lobby = NULL;
    lobby_chat_free(w);
}
