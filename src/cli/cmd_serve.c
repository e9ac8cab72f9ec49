/* cmd_serve.c: gomoku serve: the game in a web page (src/web/, docs/web.md). */
#include <string.h>

#include "cli.h"
#include "engine/engine.h"
#include "web/web.h"

/* Splits HOST:PORT (HOST may be [v6]); host points into buf. */
static bool parse_listen(const char *text, char *buf, size_t cap, const char **host, long *port) {
    const char *colon = strrchr(text, ':');
    if (!colon || !cli_parse_int(colon + 1, 0, 65535, port)) return false;
    size_t len = (size_t)(colon - text);
    if (len >= 2 && text[0] == '[' && text[len - 1] == ']') {
        text++;
        len -= 2;
    }
    if (len == 0 || len >= cap) return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    *host = buf;
    return true;
}

int cmd_serve(int argc, char **argv) {
    const cli_command *self = cli_find("serve");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    gmk_web_options opt = {.host = "127.0.0.1", .port = 8080, .lang = "en"};
    char host[256];
    const char *value;
    for (int i = 1; i < argc; i++) {
        long n;
        if (cli_option(argc, argv, &i, "--listen", &value)) {
            if (!value || !parse_listen(value, host, sizeof host, &opt.host, &n))
                return cli_error("serve", "--listen needs HOST:PORT, such as 127.0.0.1:8080 "
                                          "(port 0: any free port)");
            opt.port = (int)n;
        } else if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error("serve", "--db needs a file name");
            opt.db = value;
        } else if (cli_option(argc, argv, &i, "--engines", &value)) {
            if (!cli_parse_int(value, 1, 64, &n))
                return cli_error("serve", "--engines needs a number from 1 to 64");
            opt.engines = (int)n;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (!cli_parse_int(value, 1, GMK_MAX_THREADS, &n))
                return cli_error("serve", "--threads needs a number from 1 to %d", GMK_MAX_THREADS);
            opt.threads = (int)n;
        } else if (cli_option(argc, argv, &i, "--queue", &value)) {
            if (!cli_parse_int(value, 0, 4096, &n))
                return cli_error("serve", "--queue needs a number from 0 to 4096");
            opt.queue = (int)n;
        } else if (cli_option(argc, argv, &i, "--engine-mb", &value)) {
            if (!cli_parse_int(value, 1, 4096, &n))
                return cli_error("serve", "--engine-mb needs a number from 1 to 4096");
            opt.engine_bytes = (size_t)n << 20;
        } else if (cli_option(argc, argv, &i, "--lang", &value)) {
            if (!value || (strcmp(value, "en") != 0 && strcmp(value, "zh") != 0))
                return cli_error("serve", "--lang needs en or zh");
            opt.lang = value;
        } else if (cli_option(argc, argv, &i, "--join-limit", &value)) {
            if (!value || !cli_parse_int(value, 1, 100000, &n))
                return cli_error("serve", "--join-limit needs a number from 1 to 100000");
            opt.join_limit = (int)n;
        } else if (cli_option(argc, argv, &i, "--write-limit", &value)) {
            if (!value || !cli_parse_int(value, 1, 100000, &n))
                return cli_error("serve", "--write-limit needs a number from 1 to 100000");
            opt.write_limit = (int)n;
        } else if (cli_option(argc, argv, &i, "--auth-limit", &value)) {
            if (!value || !cli_parse_int(value, 1, 100000, &n))
                return cli_error("serve", "--auth-limit needs a number from 1 to 100000");
            opt.auth_limit = (int)n;
        } else if (cli_option(argc, argv, &i, "--chat-limit", &value)) {
            if (!value || !cli_parse_int(value, 1, 100000, &n))
                return cli_error("serve", "--chat-limit needs a number from 1 to 100000");
            opt.chat_limit = (int)n;
        } else if (cli_option(argc, argv, &i, "--conn-limit", &value)) {
            if (!value || !cli_parse_int(value, 1, 8000, &n))
                return cli_error("serve", "--conn-limit needs a number from 1 to 8000");
            opt.conn_limit = (int)n;
        } else if (cli_option(argc, argv, &i, "--idle-timeout", &value)) {
            if (!value || !cli_parse_int(value, 1, 3600, &n))
                return cli_error("serve",
                                 "--idle-timeout needs a number of seconds from 1 to 3600");
            opt.idle_timeout = (int)n;
        } else if (cli_option(argc, argv, &i, "--rooms-max", &value)) {
            if (!value || !cli_parse_int(value, 1, 1000000, &n))
                return cli_error("serve", "--rooms-max needs a number from 1 to 1000000");
            opt.rooms_max = (int)n;
        } else if (strcmp(argv[i], "--trust-proxy") == 0) {
            opt.trust_proxy = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            opt.quiet = true;
        } else if (argv[i][0] == '-') {
            return cli_error("serve", "unknown option '%s'", argv[i]);
        } else {
            return cli_error("serve", "unexpected argument '%s'", argv[i]);
        }
    }
    return gmk_web_serve(&opt) == 0 ? CLI_OK : 1;
}
