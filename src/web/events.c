/* events.c: each game's server-sent events, fanned out to every viewer (see web_internal.h).
 *
 * A viewer is one event-stream response. Its content reader hands MHD what is queued for it
 * and, when nothing is, suspends the connection; publishing appends to every viewer's queue
 * and resumes the suspended ones, so no thread waits on an idle stream. The response's free
 * callback (MHD closes the connection) only marks the viewer dead; the hub frees dead viewers
 * under its own lock, so MHD's callbacks never wait for it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "web/web_internal.h"

/* A viewer that falls this far behind is dropped. */
#define VIEWER_MAX_QUEUE (1 << 20)
/* A queue grown past this (a stream's first state, a burst) is freed once it is sent. */
#define VIEWER_KEEP 4096

typedef struct viewer {
    struct MHD_Connection *conn;
    bool owner;
    int group;   /* hub_send_to's: which kind of viewer (0..31; a room's: seat + 1, 0) */
    bool tagged; /* hub_send_tag's: whose stream (the lobby's: a player's tag) */
    uint8_t tag[HUB_TAG_LEN];
    bool suspended; /* hub lock */
    bool closing;   /* hub lock: end the stream once the queue is sent */
    atomic_bool dead;
    void (*on_close)(void *ctx); /* called once when MHD closes the stream; may be NULL */
    void *close_ctx;
    char *buf; /* hub lock: bytes to send, from off to len */
    size_t off, len, cap;
    struct gmk_hub *hub;
    struct viewer *next;
} viewer;

struct gmk_hub {
    pthread_mutex_t mu;
    viewer *viewers;
    bool closed; /* the server is stopping: every stream ends */
};

gmk_hub *hub_new(void) {
    gmk_hub *h = calloc(1, sizeof *h);
    if (h) pthread_mutex_init(&h->mu, NULL);
    return h;
}

static void viewer_free(viewer *v) {
    free(v->buf);
    free(v);
}

/* Drops the dead viewers (hub lock held). */
static void sweep(gmk_hub *h) {
    viewer **pp = &h->viewers;
    while (*pp) {
        viewer *v = *pp;
        if (atomic_load(&v->dead)) {
            *pp = v->next;
            viewer_free(v);
        } else {
            pp = &v->next;
        }
    }
}

void hub_free(gmk_hub *h) {
    if (!h) return;
    viewer *v = h->viewers;
    while (v) {
        viewer *next = v->next;
        viewer_free(v);
        v = next;
    }
    pthread_mutex_destroy(&h->mu);
    free(h);
}

/* Appends text to v's queue (hub lock held); a viewer too far behind is closed. */
static void append(viewer *v, const char *text, size_t n) {
    if (v->closing) return;
    if (v->off > 0 && v->off == v->len) v->off = v->len = 0;
    if (v->len + n > v->cap) {
        if (v->len - v->off + n > VIEWER_MAX_QUEUE) {
            v->closing = true;
            return;
        }
        size_t cap = v->cap ? v->cap : 1024;
        while (cap < v->len + n) cap *= 2;
        char *b = realloc(v->buf, cap);
        if (!b) {
            v->closing = true;
            return;
        }
        v->buf = b;
        v->cap = cap;
    }
    memcpy(v->buf + v->len, text, n);
    v->len += n;
}

static void append_event(viewer *v, const char *event, const char *data) {
    append(v, "event: ", 7);
    append(v, event, strlen(event));
    append(v, "\ndata: ", 7);
    append(v, data, strlen(data));
    append(v, "\n\n", 2);
}

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    viewer *v = cls;
    gmk_hub *h = v->hub;
    pthread_mutex_lock(&h->mu);
    ssize_t n;
    if (v->len > v->off) {
        size_t k = v->len - v->off < max ? v->len - v->off : max;
        memcpy(buf, v->buf + v->off, k);
        v->off += k;
        n = (ssize_t)k;
        if (v->off == v->len && v->cap > VIEWER_KEEP) { /* a big start sent: give it back */
            free(v->buf);
            v->buf = NULL;
            v->off = v->len = v->cap = 0;
        }
    } else if (v->closing || h->closed) {
        n = MHD_CONTENT_READER_END_OF_STREAM;
    } else {
        v->suspended = true;
        MHD_suspend_connection(v->conn);
        n = 0;
    }
    pthread_mutex_unlock(&h->mu);
    return n;
}

static void reader_free(void *cls) {
    viewer *v = cls;
    if (v->on_close) v->on_close(v->close_ctx); /* before dead: the hub stays while it runs */
    atomic_store(&v->dead, true);
}

struct MHD_Response *hub_attach(gmk_hub *h, struct MHD_Connection *c, bool owner,
                                const char *first_event, const char *first_data) {
    return hub_attach_text(h, c, owner ? 1 : 0, first_event, first_data, NULL, NULL);
}

struct MHD_Response *hub_attach_text(gmk_hub *h, struct MHD_Connection *c, int group,
                                     const char *first_event, const char *first_text,
                                     void (*on_close)(void *ctx), void *close_ctx) {
    return hub_attach_tagged(h, c, group, NULL, first_event, first_text, on_close, close_ctx);
}

struct MHD_Response *hub_attach_tagged(gmk_hub *h, struct MHD_Connection *c, int group,
                                       const uint8_t *tag, const char *first_event,
                                       const char *first_text, void (*on_close)(void *ctx),
                                       void *close_ctx) {
    viewer *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    if (tag) {
        v->tagged = true;
        memcpy(v->tag, tag, HUB_TAG_LEN);
    }
    v->conn = c;
    v->owner = group == 1;
    v->group = group & 31;
    v->hub = h;
    append(v, "retry: 2000\n\n", 13);
    if (first_event)
        append_event(v, first_event, first_text);
    else
        append(v, first_text, strlen(first_text));
    if (v->closing) { /* out of memory already */
        viewer_free(v);
        return NULL;
    }
    v->on_close = on_close;
    v->close_ctx = close_ctx;
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, reader, v, reader_free);
    if (!r) {
        viewer_free(v);
        return NULL;
    }
    pthread_mutex_lock(&h->mu);
    sweep(h);
    v->next = h->viewers;
    h->viewers = v;
    pthread_mutex_unlock(&h->mu);
    return r;
}

/* Resumes the connections collected while the hub lock was held. A suspended connection
 * stays open (and its viewer alive) until it is resumed, so this is safe after unlocking. */
static void resume_all(struct MHD_Connection **conns, int n) {
    for (int i = 0; i < n; i++) MHD_resume_connection(conns[i]);
    free(conns);
}

/* Applies fn to every live viewer and resumes those that were waiting. */
static void each(gmk_hub *h, void (*fn)(viewer *, const void *), const void *arg) {
    pthread_mutex_lock(&h->mu);
    sweep(h);
    int n = 0;
    for (viewer *v = h->viewers; v; v = v->next) n++;
    struct MHD_Connection **conns = calloc((size_t)n + 1, sizeof *conns);
    int k = 0;
    for (viewer *v = h->viewers; v; v = v->next) {
        fn(v, arg);
        if (v->suspended && conns) {
            v->suspended = false;
            conns[k++] = v->conn;
        }
    }
    pthread_mutex_unlock(&h->mu);
    if (conns) resume_all(conns, k);
}

typedef struct {
    const char *event, *owner, *other;
} publish_args;

static void do_publish(viewer *v, const void *arg) {
    const publish_args *a = arg;
    append_event(v, a->event, v->owner ? a->owner : a->other);
}

void hub_publish(gmk_hub *h, const char *event, const char *data_owner, const char *data_other) {
    publish_args a = {event, data_owner, data_other ? data_other : data_owner};
    each(h, do_publish, &a);
}

static void do_send(viewer *v, const void *arg) {
    append(v, arg, strlen(arg));
}

void hub_send(gmk_hub *h, const char *text) {
    each(h, do_send, text);
}

typedef struct {
    const char *text;
    unsigned mask;
} send_to_args;

static void do_send_to(viewer *v, const void *arg) {
    const send_to_args *a = arg;
    if (a->mask & (1u << v->group)) append(v, a->text, strlen(a->text));
}

void hub_send_to(gmk_hub *h, const char *text, unsigned mask) {
    send_to_args a = {text, mask};
    each(h, do_send_to, &a);
}

typedef struct {
    const char *text;
    const uint8_t *tag;
} send_tag_args;

static void do_send_tag(viewer *v, const void *arg) {
    const send_tag_args *a = arg;
    if (v->tagged && memcmp(v->tag, a->tag, HUB_TAG_LEN) == 0) append(v, a->text, strlen(a->text));
}

void hub_send_tag(gmk_hub *h, const char *text, const uint8_t tag[HUB_TAG_LEN]) {
    send_tag_args a = {text, tag};
    each(h, do_send_tag, &a);
}

static void do_ping(viewer *v, const void *arg) {
    (void)arg;
    append(v, ": ping\n\n", 8);
}

void hub_ping(gmk_hub *h) {
    each(h, do_ping, NULL);
}

static void do_close(viewer *v, const void *arg) {
    (void)arg;
    v->closing = true;
}

void hub_close_all(gmk_hub *h) {
    pthread_mutex_lock(&h->mu);
    h->closed = true;
    pthread_mutex_unlock(&h->mu);
    each(h, do_close, NULL);
}

int hub_check_closed(gmk_hub *h) {
    pthread_mutex_lock(&h->mu);
    sweep(h);
    int n = 0, k = 0;
    for (viewer *v = h->viewers; v; v = v->next) n++;
    struct MHD_Connection **conns = calloc((size_t)n + 1, sizeof *conns);
    for (viewer *v = h->viewers; v && conns; v = v->next) {
        if (!v->suspended) continue; /* MHD itself is working on it */
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(v->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!ci) continue;
        char c;
        ssize_t r = recv(ci->connect_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
        bool gone = r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
        if (!gone) continue;
        v->closing = true; /* the reader ends the stream; MHD then closes the connection */
        v->suspended = false;
        conns[k++] = v->conn;
    }
    pthread_mutex_unlock(&h->mu);
    if (conns) resume_all(conns, k);
    return k;
}

int hub_viewers(gmk_hub *h) {
    pthread_mutex_lock(&h->mu);
    sweep(h);
    int n = 0;
    for (viewer *v = h->viewers; v; v = v->next) n++;
    pthread_mutex_unlock(&h->mu);
    return n;
}
