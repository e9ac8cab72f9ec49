/* proc.h: an engine process for the match runner: started from a shell command with its
 * standard input and output on pipes, spoken to one line at a time, and read with deadlines.
 *
 * A proc belongs to one thread. Pipes are close-on-exec, so engines started by concurrent
 * games never hold each other's pipes. Writing to an engine that has died fails (SIGPIPE must
 * be ignored by the caller, see gmk_proc_ignore_sigpipe). Used by match.c only. */
#ifndef GMK_PROC_H
#define GMK_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gmk_proc gmk_proc;

typedef enum {
    GMK_PROC_LINE = 0, /* a line was read */
    GMK_PROC_TIMEOUT,  /* the deadline passed first */
    GMK_PROC_EOF,      /* the engine closed its output (exited or crashed) */
} gmk_proc_status;

/* Milliseconds on a monotonic clock. */
int64_t gmk_now_ms(void);

/* Makes writes to dead engines fail with EPIPE instead of killing the process. */
void gmk_proc_ignore_sigpipe(void);

/* Starts `command` with /bin/sh -c in a process group of its own; its standard error goes to
 * stderr_path (appended) or to /dev/null when NULL. Returns NULL with a message on failure. */
gmk_proc *gmk_proc_spawn(const char *command, const char *stderr_path, char *err, size_t errlen);

/* Writes line and a newline. False when the engine is gone. */
bool gmk_proc_write_line(gmk_proc *p, const char *line);

/* Reads the next line (without its CR/LF) before deadline_ms (gmk_now_ms clock). Lines
 * longer than cap - 1 are cut. */
gmk_proc_status gmk_proc_read_line(gmk_proc *p, int64_t deadline_ms, char *line, size_t cap);

/* How the process ended, e.g. "exit status 1" or "killed by signal 11", if it has ended
 * (checked without waiting); "running" otherwise. */
void gmk_proc_describe_exit(gmk_proc *p, char *out, size_t cap);

/* Closes the engine's input, gives it grace_ms to exit, kills its process group if it has
 * not, reaps it and frees p. */
void gmk_proc_finish(gmk_proc *p, int grace_ms);

#endif
