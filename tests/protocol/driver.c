/* driver.c: runs one scripted Gomocup session against a brain and checks its replies.
 *
 * usage: driver SESSION.in EXPECTED.out -- COMMAND [ARGS...]
 *
 * SESSION.in holds the lines sent to the brain, one per line, and directives:
 *   #sleep MS            wait
 *   #mark NAME           remember this moment as NAME
 *   #await N [MS]        wait until N replies (not counting MESSAGE/DEBUG) have arrived
 *   #crlf / #lf          end the following lines with CR LF / LF (default)
 *   #raw TEXT            send TEXT as is; \r \n \t \\ and \xHH are escapes
 *   #repeat N TEXT       send TEXT N times, then a newline
 *   #flood N TEXT        send N lines of TEXT, reading replies meanwhile (a blocked pipe
 *                        does not stop the driver from reading)
 *   #max-rss NAME MB     the brain's peak memory (VmHWM) so far must stay under MB
 *   #close               close the brain's input
 *   #exit-within NAME MS the brain must exit within MS ms of mark NAME
 *   #keep-messages       compare MESSAGE and DEBUG lines too (dropped by default)
 *   # text               a comment
 * EXPECTED.out holds one expectation per reply line:
 *   text                 exactly this line (@@ at the start stands for a literal @)
 *   @move[?] SIZE [not X,Y...] [in X,Y...] [within NAME MS] [after NAME MS]
 *                        a point x,y on a SIZE board, not among / among the listed points,
 *                        arriving within MS ms of mark NAME (and not before MS ms after
 *                        mark NAME); with ? the line may be absent
 *   @error / @unknown    a line starting with ERROR / UNKNOWN
 *   @re REGEX            a line matching the POSIX extended REGEX
 *   @messages            one or more MESSAGE lines
 *   @unknown...          every remaining reply starts with UNKNOWN
 *   @any                 any one line
 * Lines starting with # in EXPECTED.out are comments. GMK_DRIVER_SLACK_MS (default 0) is
 * added to every "within" limit (tests/protocol/run.sh sets it for sanitizer builds). At the end of
 * the script the driver closes the input and waits up to 20 s for the brain to exit. Prints "ok" or
 * what differed; exits 0 when everything matched. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINES = 4096, MAX_MARKS = 32, LINE_LEN = 1 << 17 };

typedef struct {
    char *text;
    int64_t t_ms;
} reply_line;

static reply_line replies[MAX_LINES];
static int nreplies, nmoves; /* nmoves: replies that are not MESSAGE/DEBUG */
static char partial[LINE_LEN];
static size_t npartial;
static int out_fd = -1, in_fd = -1;
static pid_t child;
static bool child_exited;
static int child_status;
static int64_t exit_ms;
static struct {
    char name[64];
    int64_t t_ms;
} marks[MAX_MARKS];
static int nmarks;
static bool keep_messages;
static int failures;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("  FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures++;
}

static bool is_message(const char *s) {
    return strncmp(s, "MESSAGE", 7) == 0 || strncmp(s, "DEBUG", 5) == 0;
}

static void add_reply(void) {
    partial[npartial] = '\0';
    if (npartial > 0 && partial[npartial - 1] == '\r') partial[--npartial] = '\0';
    if (!is_message(partial)) nmoves++;
    if (nreplies < MAX_LINES && (keep_messages || !is_message(partial))) {
        replies[nreplies].text = strdup(partial);
        replies[nreplies].t_ms = now_ms();
        nreplies++;
    }
    npartial = 0;
}

static void check_exit(void) {
    if (child_exited) return;
    int st;
    if (waitpid(child, &st, WNOHANG) == child) {
        child_exited = true;
        child_status = st;
        exit_ms = now_ms();
    }
}

/* Reads whatever the brain has written, waiting at most wait_ms. */
static void pump(int wait_ms) {
    if (out_fd < 0) {
        check_exit();
        if (wait_ms > 0) usleep((useconds_t)wait_ms * 1000);
        return;
    }
    struct pollfd p = {out_fd, POLLIN, 0};
    int rc = poll(&p, 1, wait_ms);
    if (rc > 0) {
        char buf[8192];
        ssize_t n = read(out_fd, buf, sizeof buf);
        if (n <= 0) {
            close(out_fd);
            out_fd = -1;
            if (npartial) add_reply();
        } else {
            for (ssize_t k = 0; k < n; k++) {
                if (buf[k] == '\n')
                    add_reply();
                else if (npartial < LINE_LEN - 1)
                    partial[npartial++] = buf[k];
            }
        }
    }
    check_exit();
}

static void send_bytes(const char *s, size_t n) {
    if (in_fd < 0) return;
    while (n > 0) {
        ssize_t w = write(in_fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            close(in_fd);
            in_fd = -1;
            return;
        }
        s += w;
        n -= (size_t)w;
    }
}

/* Sends n lines of text without blocking on a full pipe: replies are read meanwhile. */
static void flood(long n, const char *text) {
    size_t tl = strlen(text), cap = 1 << 16;
    char *chunk = malloc(cap + tl + 1);
    if (!chunk || in_fd < 0) {
        free(chunk);
        return;
    }
    int flags = fcntl(in_fd, F_GETFL);
    fcntl(in_fd, F_SETFL, flags | O_NONBLOCK);
    long left = n;
    size_t len = 0, off = 0;
    while ((left > 0 || off < len) && in_fd >= 0) {
        if (off == len) {
            len = off = 0;
            while (left > 0 && len + tl + 1 <= cap) {
                memcpy(chunk + len, text, tl);
                chunk[len + tl] = '\n';
                len += tl + 1;
                left--;
            }
        }
        struct pollfd p[2] = {{in_fd, POLLOUT, 0}, {out_fd, POLLIN, 0}};
        int np = out_fd >= 0 ? 2 : 1;
        if (poll(p, (nfds_t)np, 1000) <= 0) {
            check_exit();
            if (child_exited) break;
            continue;
        }
        if (np == 2 && (p[1].revents & (POLLIN | POLLHUP))) pump(0);
        if (p[0].revents & (POLLERR | POLLHUP)) break;
        if (p[0].revents & POLLOUT) {
            ssize_t w = write(in_fd, chunk + off, len - off);
            if (w > 0)
                off += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR)
                break;
        }
    }
    if (in_fd >= 0) fcntl(in_fd, F_SETFL, flags);
    free(chunk);
}

/* The brain's peak resident memory in KiB (VmHWM), or -1. */
static long peak_kb(void) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)child);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &kb) == 1) break;
    fclose(f);
    return kb;
}

static void sleep_pumping(int ms) {
    int64_t until = now_ms() + ms;
    while (now_ms() < until) pump((int)(until - now_ms()));
}

static int64_t mark_time(const char *name) {
    for (int i = 0; i < nmarks; i++)
        if (strcmp(marks[i].name, name) == 0) return marks[i].t_ms;
    failf("no mark named '%s'", name);
    return now_ms();
}

static size_t unescape(const char *s, char *out) {
    size_t n = 0;
    for (; *s; s++) {
        if (*s != '\\' || !s[1]) {
            out[n++] = *s;
            continue;
        }
        s++;
        if (*s == 'r')
            out[n++] = '\r';
        else if (*s == 'n')
            out[n++] = '\n';
        else if (*s == 't')
            out[n++] = '\t';
        else if (*s == 'x' && s[1] && s[2]) {
            char hex[3] = {s[1], s[2], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            s += 2;
        } else
            out[n++] = *s;
    }
    return n;
}

static void run_script(FILE *f) {
    char line[LINE_LEN];
    bool crlf = false;
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\n");
        line[n] = '\0';
        if (line[0] != '#') {
            send_bytes(line, n);
            send_bytes(crlf ? "\r\n" : "\n", crlf ? 2 : 1);
            pump(0);
            continue;
        }
        char *arg = line + 1;
        char word[32] = "";
        sscanf(arg, "%31s", word);
        char *rest = arg + strlen(word);
        while (*rest == ' ') rest++;
        if (strcmp(word, "sleep") == 0) {
            sleep_pumping(atoi(rest));
        } else if (strcmp(word, "mark") == 0 && nmarks < MAX_MARKS) {
            snprintf(marks[nmarks].name, sizeof marks[nmarks].name, "%s", rest);
            marks[nmarks].t_ms = now_ms();
            nmarks++;
        } else if (strcmp(word, "await") == 0) {
            int want = 0, ms = 10000;
            sscanf(rest, "%d %d", &want, &ms);
            int64_t until = now_ms() + ms;
            while (nmoves < want && now_ms() < until && (out_fd >= 0)) pump(10);
            if (nmoves < want) failf("#await %d: only %d replies after %d ms", want, nmoves, ms);
        } else if (strcmp(word, "crlf") == 0) {
            crlf = true;
        } else if (strcmp(word, "lf") == 0) {
            crlf = false;
        } else if (strcmp(word, "raw") == 0) {
            char buf[LINE_LEN];
            size_t k = unescape(rest, buf);
            send_bytes(buf, k);
        } else if (strcmp(word, "repeat") == 0) {
            int times = atoi(rest);
            char *text = strchr(rest, ' ');
            text = text ? text + 1 : (char *)"";
            for (int k = 0; k < times; k++) send_bytes(text, strlen(text));
            send_bytes("\n", 1);
        } else if (strcmp(word, "flood") == 0) {
            long times = atol(rest);
            char *text = strchr(rest, ' ');
            text = text ? text + 1 : (char *)"";
            flood(times, text);
        } else if (strcmp(word, "max-rss") == 0) {
            char name[64];
            long mb = 0;
            if (sscanf(rest, "%63s %ld", name, &mb) != 2) {
                failf("bad directive '#%s'", arg);
                continue;
            }
            const char *factor = getenv("GMK_DRIVER_RSS_FACTOR"); /* sanitizer builds */
            if (factor && atol(factor) > 1) mb *= atol(factor);
            long kb = peak_kb();
            printf("  %s: peak memory %ld KB\n", name, kb);
            if (kb < 0)
                failf("%s: cannot read the brain's memory", name);
            else if (kb > mb * 1024)
                failf("%s: the brain's peak memory is %ld MB (limit %ld MB)", name, kb / 1024, mb);
        } else if (strcmp(word, "close") == 0) {
            if (in_fd >= 0) close(in_fd);
            in_fd = -1;
        } else if (strcmp(word, "exit-within") == 0) {
            char name[64];
            int ms = 0;
            if (sscanf(rest, "%63s %d", name, &ms) != 2) {
                failf("bad directive '#%s'", arg);
                continue;
            }
            int64_t t = mark_time(name), until = t + ms + 2000;
            while (!child_exited && now_ms() < until) pump(5);
            if (!child_exited)
                failf("the brain did not exit within %d ms of mark %s", ms, name);
            else if (exit_ms - t > ms)
                failf("the brain exited %lld ms after mark %s (limit %d)", (long long)(exit_ms - t),
                      name, ms);
        } else if (strcmp(word, "keep-messages") == 0) {
            keep_messages = true;
        } else if (word[0] == '\0' || arg[0] == ' ') {
            /* comment */
        } else {
            failf("unknown directive '#%s'", word);
        }
    }
}

static bool point_in(int x, int y, const char *list) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        int px, py;
        if (sscanf(tok, "%d,%d", &px, &py) == 2 && px == x && py == y) return true;
    }
    return false;
}

/* Checks reply r against an @move expectation; writes why not into why. */
static bool match_move(const char *spec, const reply_line *r, char *why, size_t cap) {
    int size = atoi(spec);
    char nots[4096] = "", ins[4096] = "", mark[64] = "";
    int within = -1, after = -1;
    char amark[64] = "";
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", spec);
    char *mode = NULL, *save = NULL;
    strtok_r(buf, " ", &save);
    for (char *tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (strcmp(tok, "not") == 0 || strcmp(tok, "in") == 0) {
            mode = tok;
        } else if (strcmp(tok, "within") == 0) {
            char *m = strtok_r(NULL, " ", &save), *ms = strtok_r(NULL, " ", &save);
            if (m && ms) {
                snprintf(mark, sizeof mark, "%s", m);
                within = atoi(ms);
            }
        } else if (strcmp(tok, "after") == 0) {
            char *m = strtok_r(NULL, " ", &save), *ms = strtok_r(NULL, " ", &save);
            if (m && ms) {
                snprintf(amark, sizeof amark, "%s", m);
                after = atoi(ms);
            }
        } else if (mode && strcmp(mode, "not") == 0) {
            strcat(strcat(nots, " "), tok);
        } else if (mode) {
            strcat(strcat(ins, " "), tok);
        }
    }
    int x, y;
    char extra;
    if (sscanf(r->text, "%d,%d%c", &x, &y, &extra) != 2 || strchr(r->text, ' ')) {
        snprintf(why, cap, "not a move x,y");
        return false;
    }
    if (x < 0 || y < 0 || x >= size || y >= size) {
        snprintf(why, cap, "off the %dx%d board", size, size);
        return false;
    }
    if (point_in(x, y, nots)) {
        snprintf(why, cap, "a point it must not be (%.200s)", nots + 1);
        return false;
    }
    if (ins[0] && !point_in(x, y, ins)) {
        snprintf(why, cap, "not one of%.200s", ins);
        return false;
    }
    if (within >= 0) {
        const char *slack = getenv("GMK_DRIVER_SLACK_MS");
        if (slack && atoi(slack) > 0) within += atoi(slack);
        int64_t dt = r->t_ms - mark_time(mark);
        if (dt > within) {
            snprintf(why, cap, "arrived %lld ms after mark %s (limit %d)", (long long)dt, mark,
                     within);
            return false;
        }
    }
    if (after >= 0) {
        int64_t dt = r->t_ms - mark_time(amark);
        if (dt < after) {
            snprintf(why, cap, "arrived %lld ms after mark %s (at least %d expected)",
                     (long long)dt, amark, after);
            return false;
        }
    }
    return true;
}

static void compare(FILE *f) {
    char line[LINE_LEN];
    int at = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        const char *e = line;
        bool optional = strncmp(e, "@move?", 6) == 0;
        if (strncmp(e, "@messages", 9) == 0) {
            if (at >= nreplies || strncmp(replies[at].text, "MESSAGE", 7) != 0) {
                failf("expected line %d (%s), got %s", lineno, e,
                      at < nreplies ? replies[at].text : "nothing");
                continue;
            }
            while (at < nreplies && strncmp(replies[at].text, "MESSAGE", 7) == 0) at++;
            continue;
        }
        if (strcmp(e, "@unknown...") == 0) {
            while (at < nreplies && strncmp(replies[at].text, "UNKNOWN ", 8) == 0) at++;
            continue;
        }
        if (at >= nreplies) {
            if (!optional)
                failf("expected line %d (%s), but the brain said nothing more", lineno, e);
            continue;
        }
        const reply_line *r = &replies[at];
        char why[256] = "different text";
        bool ok;
        if (strncmp(e, "@move", 5) == 0) {
            ok = match_move(e + (optional ? 6 : 5), r, why, sizeof why);
            if (!ok && optional) continue; /* absent: try the next expectation on this line */
        } else if (strcmp(e, "@error") == 0) {
            ok = strncmp(r->text, "ERROR ", 6) == 0;
        } else if (strcmp(e, "@unknown") == 0) {
            ok = strncmp(r->text, "UNKNOWN ", 8) == 0;
        } else if (strcmp(e, "@any") == 0) {
            ok = true;
        } else if (strncmp(e, "@re ", 4) == 0) {
            regex_t re;
            if (regcomp(&re, e + 4, REG_EXTENDED | REG_NOSUB) != 0) {
                failf("line %d: bad regular expression", lineno);
                at++;
                continue;
            }
            ok = regexec(&re, r->text, 0, NULL, 0) == 0;
            regfree(&re);
        } else {
            const char *lit = strncmp(e, "@@", 2) == 0 ? e + 1 : e;
            ok = strcmp(r->text, lit) == 0;
        }
        if (!ok)
            failf("reply %d '%.200s' does not match line %d '%s': %s", at + 1, r->text, lineno, e,
                  why);
        at++;
    }
    for (; at < nreplies; at++) failf("unexpected reply %d '%.200s'", at + 1, replies[at].text);
}

int main(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: driver SESSION.in EXPECTED.out -- COMMAND [ARGS...]\n");
        return 2;
    }
    FILE *script = fopen(argv[1], "r"), *expected = fopen(argv[2], "r");
    if (!script || !expected) {
        fprintf(stderr, "driver: cannot open %s\n", !script ? argv[1] : argv[2]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int to[2], from[2];
    if (pipe(to) || pipe(from)) return 2;
    child = fork();
    if (child < 0) return 2;
    if (child == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execvp(argv[4], argv + 4);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    in_fd = to[1];
    out_fd = from[0];
    fcntl(out_fd, F_SETFD, FD_CLOEXEC);
    fcntl(in_fd, F_SETFD, FD_CLOEXEC);
    printf("%s\n", argv[1]);
    run_script(script);
    if (in_fd >= 0) close(in_fd);
    in_fd = -1;
    int64_t until = now_ms() + 20000;
    while ((out_fd >= 0 || !child_exited) && now_ms() < until) pump(10);
    if (!child_exited) {
        failf("the brain did not exit within 20 s of the end of its input");
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    } else if (WIFSIGNALED(child_status)) {
        failf("the brain was killed by signal %d", WTERMSIG(child_status));
    } else if (WEXITSTATUS(child_status) != 0) {
        failf("the brain exited with status %d", WEXITSTATUS(child_status));
    }
    compare(expected);
    if (failures) {
        printf("  replies were:\n");
        for (int i = 0; i < nreplies; i++) printf("    %s\n", replies[i].text);
    }
    printf("  %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
