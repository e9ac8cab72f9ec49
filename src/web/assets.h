/* assets.h: the web page's files, embedded in the binary at build time. The table is
 * generated from web/ by tools/embed_assets.sh (see the Makefile); the server reads no file
 * at run time. */
#ifndef GMK_WEB_ASSETS_H
#define GMK_WEB_ASSETS_H

#include <stddef.h>

typedef struct {
    const char *name; /* the file's name in web/, e.g. "index.html" */
    const unsigned char *data;
    size_t len;
} gmk_web_asset;

/* gmk_web_asset_count files, then an entry with a NULL name. */
extern const gmk_web_asset gmk_web_assets[];
extern const size_t gmk_web_asset_count;

#endif
