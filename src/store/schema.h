/* schema.h: the SQL of each schema version, as migrations, one array per backend.
 * store_migrations[v] brings a file from version v to v + 1 (version 0 is an empty file);
 * store_pg_migrations[v] does the same to a PostgreSQL database. The numbers stored in the columns
 * (mode, rule, human, outcome, reason) are those of store.h and core/defs.h, core/rules.h and
 * never change meaning; docs/store.md describes every table. Only src/store/ includes this. */
#ifndef GMK_STORE_SCHEMA_H
#define GMK_STORE_SCHEMA_H

#include "store/store.h"

extern const char *const store_migrations[GMK_STORE_SCHEMA_VERSION];    /* SQLite (schema.c) */
extern const char *const store_pg_migrations[GMK_STORE_SCHEMA_VERSION]; /* PostgreSQL */

#endif
