/* gmk.h: the public umbrella of the core library (libgmk). Front ends include this. */
#ifndef GMK_GMK_H
#define GMK_GMK_H

#include "board.h"
#include "defs.h"
#include "notation.h"
#include "opening.h"
#include "pattern.h"
#include "renju.h"
#include "rules.h"
#include "scan.h"

#define GMK_VERSION "0.1.0"

#endif
