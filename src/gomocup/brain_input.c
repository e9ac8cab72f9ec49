/* brain_input.c: the brain's reader thread and its bounded line queue (see brain_internal.h).
 *
 * The reader splits the input into lines (LF, CR or CRLF) and queues them for the main thread.
 * The queue holds at most GMK_BRAIN_QUEUE_LINES lines and GMK_BRAIN_QUEUE_BYTES bytes: past
 * that the reader stops reading until the main thread catches up, so a flood of input costs
 * bounded memory. During a search the reader itself honours STOP, YXSTOP and END (and the end
 * of input) as they arrive, so handling a line never rescans the queue. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brain_internal.h"

/* STOP/YXSTOP (1) or END (2) or neither (0). */
static int control_kind(const char *text) {
    gmk_proto_command cmd;
    if (gmk_proto_parse(text, &cmd, NULL, 0) != GMK_PROTO_OK) return 0;
    if (cmd.kind == GMK_CMD_STOP) return 1;
    if (cmd.kind == GMK_CMD_END) return 2;
    return 0;
}

/* Honours a control line during a search. mu held. */
static void control_locked(gmk_brain *b, int kind) {
    b->ctl_stop = true;
    if (kind == 2) b->ctl_quit = true;
    if (b->engine) gmk_engine_stop(b->engine);
    pthread_cond_broadcast(&b->cv);
}

/* Queues one line (text is NUL-terminated at len), or handles it at once if it is a control
 * line during a search. Waits while the queue is full. */
static void push_line(gmk_brain *b, const char *text, size_t len, bool too_long, bool eof) {
    bool has_nul = memchr(text, '\0', len) != NULL;
    int kind = eof || too_long || has_nul ? 0 : control_kind(text);
    pthread_mutex_lock(&b->mu);
    while (
        !eof && !b->closing && !(kind && b->searching) &&
        (b->queued_lines >= GMK_BRAIN_QUEUE_LINES || b->queued_bytes + len > GMK_BRAIN_QUEUE_BYTES))
        pthread_cond_wait(&b->cv, &b->mu);
    if (b->closing) {
        pthread_mutex_unlock(&b->mu);
        return;
    }
    if (kind && b->searching) {
        control_locked(b, kind);
        pthread_mutex_unlock(&b->mu);
        return;
    }
    if (eof && b->searching && !b->opt.finish_on_eof) control_locked(b, 2);
    gmk_brain_line *n = malloc(sizeof *n + len + 1);
    if (n) {
        n->next = NULL;
        n->t_ms = gmk_brain_now_ms();
        n->eof = eof;
        n->too_long = too_long;
        n->has_nul = has_nul;
        n->len = len;
        memcpy(n->text, text, len);
        n->text[len] = '\0';
        if (b->tail)
            b->tail->next = n;
        else
            b->head = n;
        b->tail = n;
        b->queued_lines++;
        b->queued_bytes += len;
    }
    if (eof) b->reader_done = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

static bool closing(gmk_brain *b) {
    pthread_mutex_lock(&b->mu);
    bool c = b->closing;
    pthread_mutex_unlock(&b->mu);
    return c;
}

static void *reader_main(void *arg) {
    gmk_brain *b = arg;
    char *line = malloc(GMK_BRAIN_MAX_LINE + 1);
    size_t len = 0;
    bool too_long = false, after_cr = false;
    char buf[4096];
    while (line && !closing(b)) {
        /* the input, and the pipe gmk_brain_input_stop writes to when the brain ends */
        struct pollfd p[2] = {{b->in_fd, POLLIN, 0}, {b->wake[0], POLLIN, 0}};
        int rc = poll(p, 2, -1);
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0 || p[1].revents) continue;
        ssize_t n = read(b->in_fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;
        for (ssize_t k = 0; k < n; k++) {
            char c = buf[k];
            if (c == '\n' && after_cr) {
                after_cr = false;
                continue;
            }
            after_cr = c == '\r';
            if (c == '\n' || c == '\r') {
                line[len] = '\0';
                push_line(b, line, len, too_long, false);
                len = 0;
                too_long = false;
                continue;
            }
            if (len < GMK_BRAIN_MAX_LINE)
                line[len++] = c;
            else
                too_long = true;
        }
    }
    if (line && len > 0) {
        line[len] = '\0';
        push_line(b, line, len, too_long, false);
    }
    push_line(b, "", 0, false, true);
    free(line);
    return NULL;
}

bool gmk_brain_input_start(gmk_brain *b) {
    if (pipe(b->wake) != 0) return false;
    if (pthread_create(&b->reader, NULL, reader_main, b) == 0) return true;
    close(b->wake[0]);
    close(b->wake[1]);
    return false;
}

gmk_brain_line *gmk_brain_input_pop(gmk_brain *b) {
    pthread_mutex_lock(&b->mu);
    while (!b->head && !b->reader_done) pthread_cond_wait(&b->cv, &b->mu);
    gmk_brain_line *n = b->head;
    if (!n) { /* the input ended and its marker could not be allocated */
        pthread_mutex_unlock(&b->mu);
        return NULL;
    }
    b->head = n->next;
    if (!b->head) b->tail = NULL;
    b->queued_lines--;
    b->queued_bytes -= n->len;
    pthread_cond_broadcast(&b->cv); /* room for the reader */
    pthread_mutex_unlock(&b->mu);
    return n;
}

void gmk_brain_input_search_begins(gmk_brain *b) {
    pthread_mutex_lock(&b->mu);
    b->ctl_stop = b->ctl_quit = false;
    gmk_brain_line **link = &b->head, *prev = NULL;
    while (*link) {
        gmk_brain_line *n = *link;
        int kind = n->eof || n->too_long || n->has_nul ? 0 : control_kind(n->text);
        if (n->eof && !b->opt.finish_on_eof) kind = 2; /* leave it queued: the loop ends on it */
        if (kind) control_locked(b, kind);
        if (kind && !n->eof) {
            *link = n->next;
            if (b->tail == n) b->tail = prev;
            b->queued_lines--;
            b->queued_bytes -= n->len;
            free(n);
        } else {
            prev = n;
            link = &n->next;
        }
    }
    b->searching = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void gmk_brain_input_search_ends(gmk_brain *b) {
    pthread_mutex_lock(&b->mu);
    b->searching = false;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void gmk_brain_input_stop(gmk_brain *b) {
    pthread_mutex_lock(&b->mu);
    b->closing = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    ssize_t w = write(b->wake[1], "", 1); /* wakes a reader waiting in poll */
    (void)w;                              /* if it fails, the reader ends at its next line */
    pthread_join(b->reader, NULL);
    close(b->wake[0]);
    close(b->wake[1]);
    while (b->head) {
        gmk_brain_line *n = b->head;
        b->head = n->next;
        free(n);
    }
    b->tail = NULL;
}
