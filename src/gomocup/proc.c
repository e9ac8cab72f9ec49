/* proc.c: engine processes on pipes (see proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct gmk_proc {
    pid_t pid;
    int in_fd;  /* we write the engine's stdin */
    int out_fd; /* we read the engine's stdout */
    bool reaped;
    int status;
    char buf[8192];
    size_t start, len; /* unread bytes in buf */
};

int64_t gmk_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void gmk_proc_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

gmk_proc *gmk_proc_spawn(const char *command, const char *stderr_path, char *err, size_t errlen) {
    int to_child[2] = {-1, -1}, from_child[2] = {-1, -1};
    gmk_proc *p = calloc(1, sizeof *p);
    char *script = NULL;
    posix_spawn_file_actions_t fa;
    bool fa_ready = false;
    if (!p) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot create pipes: %s", strerror(errno));
        goto fail;
    }
    script = strdup(command);
    if (!script) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (posix_spawn_file_actions_init(&fa) != 0) {
        snprintf(err, errlen, "cannot prepare the engine process");
        goto fail;
    }
    fa_ready = true;
    posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
    if (stderr_path)
        posix_spawn_file_actions_addopen(&fa, 2, stderr_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    /* its own process group, so that killing it also kills what the shell started */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    char *argv[] = {"sh", "-c", script, NULL};
    int rc = posix_spawn(&p->pid, "/bin/sh", &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start '%s': %s", command, strerror(rc));
        goto fail;
    }
    posix_spawn_file_actions_destroy(&fa);
    free(script);
    close(to_child[0]);
    close(from_child[1]);
    p->in_fd = to_child[1];
    p->out_fd = from_child[0];
    return p;
fail:
    if (fa_ready) posix_spawn_file_actions_destroy(&fa);
    free(script);
    for (int k = 0; k < 2; k++) {
        if (to_child[k] >= 0) close(to_child[k]);
        if (from_child[k] >= 0) close(from_child[k]);
    }
    free(p);
    return NULL;
}

bool gmk_proc_write_line(gmk_proc *p, const char *line) {
    if (p->in_fd < 0) return false;
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (!msg) return false;
    memcpy(msg, line, n);
    msg[n++] = '\n';
    size_t off = 0;
    bool ok = true;
    while (off < n) {
        ssize_t w = write(p->in_fd, msg + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            ok = false;
            break;
        }
        off += (size_t)w;
    }
    free(msg);
    return ok;
}

/* Takes a complete line from the buffer, if there is one. */
static bool take_line(gmk_proc *p, char *line, size_t cap) {
    char *s = p->buf + p->start;
    char *nl = memchr(s, '\n', p->len);
    if (!nl && p->len < sizeof p->buf) return false;
    size_t n = nl ? (size_t)(nl - s) : p->len;
    size_t used = nl ? n + 1 : n;
    while (n > 0 && s[n - 1] == '\r') n--;
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(line, s, k);
    line[k] = '\0';
    p->start += used;
    p->len -= used;
    return true;
}

gmk_proc_status gmk_proc_read_line(gmk_proc *p, int64_t deadline_ms, char *line, size_t cap) {
    for (;;) {
        if (take_line(p, line, cap)) return GMK_PROC_LINE;
        if (p->out_fd < 0) {
            if (p->len > 0) { /* a last line without a newline */
                p->buf[p->start + p->len] = '\n';
                p->len++;
                continue;
            }
            return GMK_PROC_EOF;
        }
        if (p->start > 0) {
            memmove(p->buf, p->buf + p->start, p->len);
            p->start = 0;
        }
        int64_t wait = deadline_ms - gmk_now_ms();
        if (wait <= 0) return GMK_PROC_TIMEOUT;
        struct pollfd pfd = {p->out_fd, POLLIN, 0};
        int rc = poll(&pfd, 1, wait > 1000000 ? 1000000 : (int)wait);
        if (rc < 0 && errno == EINTR) continue;
        if (rc == 0) continue;
        ssize_t r = read(p->out_fd, p->buf + p->len, sizeof p->buf - 1 - p->len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            close(p->out_fd);
            p->out_fd = -1;
            continue;
        }
        p->len += (size_t)r;
    }
}

static void try_reap(gmk_proc *p, bool block) {
    if (p->reaped) return;
    int st;
    pid_t r;
    do r = waitpid(p->pid, &st, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == p->pid) {
        p->reaped = true;
        p->status = st;
    }
}

void gmk_proc_describe_exit(gmk_proc *p, char *out, size_t cap) {
    try_reap(p, false);
    if (!p->reaped)
        snprintf(out, cap, "running");
    else if (WIFEXITED(p->status))
        snprintf(out, cap, "exit status %d", WEXITSTATUS(p->status));
    else if (WIFSIGNALED(p->status))
        snprintf(out, cap, "killed by signal %d", WTERMSIG(p->status));
    else
        snprintf(out, cap, "ended");
}

void gmk_proc_finish(gmk_proc *p, int grace_ms) {
    if (!p) return;
    if (p->in_fd >= 0) close(p->in_fd);
    p->in_fd = -1;
    int64_t until = gmk_now_ms() + grace_ms;
    for (;;) {
        try_reap(p, false);
        if (p->reaped || gmk_now_ms() >= until) break;
        usleep(2000);
    }
    if (!p->reaped) kill(-p->pid, SIGKILL);
    try_reap(p, true);
    kill(-p->pid, SIGKILL); /* anything the shell left behind */
    if (p->out_fd >= 0) close(p->out_fd);
    free(p);
}
