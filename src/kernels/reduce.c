/*
** kernels/reduce.c: reductions and running scans of one strided line (no
** Lua here), written once in reduce_gen.h for double and float (see
** generate.h). Every accumulation is in double whatever the element type
** (float32 sums lose digits fast: 2^24 + 1 is not a float); a float line's
** scans are stored rounded to float.
*/
#include <math.h>

#include "kernels.h"

#define LAK_GENERIC_FILE "reduce_gen.h"
#include "generate.h"
