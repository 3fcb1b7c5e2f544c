/*
** kernels/reduce.c: reductions, running scans, p-norms and dot products of
** strided lines (no
** Lua here), written once in reduce_gen.h for double and float (see
** generate.h). Every accumulation is in double whatever the element type
** (float32 sums lose digits fast: 2^24 + 1 is not a float); a float line's
** scans are stored rounded to float. Vector norms and dot products: BLAS
** for double (scaled, so squares of huge doubles do not overflow), plain
** double sums for float (a float's square cannot overflow a double).
*/
#include <cblas.h>
#include <math.h>

#include "kernels.h"

#define LAK_GENERIC_FILE "reduce_gen.h"
#include "generate.h"
