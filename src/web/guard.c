/* guard.c: what every request passes before its route (docs/http-api.md "Requests and
 * limits"), decided from the request line and the headers alone, so that a refusal comes before
 * any body is read (no 100 Continue for a body that would be refused): who the client is (the
 * peer's address, or with --trust-proxy the address the proxy appended to X-Forwarded-For and
 * the scheme of X-Forwarded-Proto), the URL's size and a NUL in it, the body's framing and size,
 * the origin of every request that may change something, and the content type of actions.
 * Called by server.c on the first call of a request; every refusal is the API's JSON error. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web/web_internal.h"

static const char *header(const web_request *rq, const char *name) {
    return MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, name);
}

/* The last entry of a comma-separated list, trimmed, into out; false when there is none. */
static bool last_entry(const char *list, char *out, size_t cap) {
    const char *comma = strrchr(list, ',');
    const char *p = comma ? comma + 1 : list;
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
    if (n == 0 || n >= cap) return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

void guard_client(web_request *rq) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!ci || !web_client_of(ci->client_addr, &rq->client))
        memset(&rq->client, 0, sizeof rq->client);
    if (!rq->web->opt.trust_proxy) return;
    /* the proxy appends the address it saw: the last entry is the one it vouches for */
    const char *xff = header(rq, "X-Forwarded-For");
    char addr[64];
    web_client c;
    if (xff && last_entry(xff, addr, sizeof addr) && web_client_parse(addr, &c)) rq->client = c;
    const char *proto = header(rq, "X-Forwarded-Proto");
    char last[16];
    rq->https = proto && last_entry(proto, last, sizeof last) && strcasecmp(last, "https") == 0;
}

bool guard_changes_state(const web_request *rq) {
    if (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0) return true;
    /* a seat's event stream marks the seat connected (and its absence lets the other claim);
     * the lobby's keeps its player's seeks (its end removes them) */
    if (strcmp(rq->path, "/api/lobby/events") == 0) return true;
    if (strncmp(rq->path, "/api/rooms/", 11) != 0) return false;
    size_t n = strlen(rq->path);
    return n > 7 && strcmp(rq->path + n - 7, "/events") == 0;
}

/* Does the request come from this server's own pages? A browser names the page's origin in
 * Origin on every request that may change something and in Sec-Fetch-Site; a request with
 * neither is not a browser's, so it cannot carry a victim's cookies from another site. */
static bool same_origin(const web_request *rq) {
    const char *site = header(rq, "Sec-Fetch-Site");
    if (site && strcasecmp(site, "same-origin") != 0 && strcasecmp(site, "none") != 0) return false;
    const char *origin = header(rq, "Origin");
    if (!origin) return true;
    const char *sep = strstr(origin, "://"); /* "null" (a sandbox, a file) has none */
    const char *host = header(rq, "Host");
    if (!sep || !host || !*host) return false;
    size_t scheme_len = (size_t)(sep - origin);
    const char *authority = sep + 3;
    if (strcasecmp(authority, host) != 0) return false; /* also refuses a path after it */
    if (!rq->web->opt.trust_proxy) return scheme_len == 4 || scheme_len == 5; /* http(s) */
    const char *want = rq->https ? "https" : "http";
    return scheme_len == strlen(want) && strncasecmp(origin, want, scheme_len) == 0;
}

/* Is the body's type application/json (with parameters or not)? */
static bool is_json(const char *ct) {
    if (!ct || strncasecmp(ct, "application/json", 16) != 0) return false;
    return ct[16] == '\0' || ct[16] == ';' || ct[16] == ' ';
}

enum MHD_Result guard_request(web_request *rq, bool *refused) {
    *refused = true;
    if (rq->url_nul) return web_error(rq, 400, "the URL holds a NUL byte (%00)");
    if (rq->url_long) return web_error(rq, 414, "the URL is too long");
    if (header(rq, "Transfer-Encoding"))
        return web_error(rq, 411, "send the body with a Content-Length, not in chunks");
    const char *cl = header(rq, "Content-Length");
    if (cl) {
        size_t n = strlen(cl), digits = strspn(cl, "0123456789");
        if (n == 0 || digits != n) return web_error(rq, 400, "Content-Length must be a number");
        if (n > 9 || strtoul(cl, NULL, 10) > GMK_WEB_MAX_BODY)
            return web_error(rq, 413, "the request body is over 64 KiB");
    }
    if (atomic_load(&rq->web->stopping)) return web_error(rq, 503, "the server is stopping");
    if (guard_changes_state(rq) && !same_origin(rq))
        return web_error(rq, 403, "this request must come from this server's own pages");
    if (strcmp(rq->method, "POST") == 0 && strncmp(rq->path, "/api/", 5) == 0) {
        const char *ct = header(rq, "Content-Type");
        bool text_record = strcmp(rq->path, "/api/records") == 0 && ct &&
                           strncasecmp(ct, "text/plain", 10) == 0; /* reads, changes nothing */
        if (!is_json(ct) && !text_record)
            return web_error(rq, 415, "the body must be application/json");
    }
    *refused = false;
    return MHD_YES;
}
