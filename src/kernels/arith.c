/*
** kernels/arith.c: elementwise, copy and product kernels (no Lua here),
** written once in arith_gen.h for double and float (see generate.h).
*/
#include <cblas.h>
#include <string.h>

#include <math.h>

#include "kernels.h"

/* Below this many multiply-adds a plain loop beats the BLAS call overhead
** (measured with bench/tiny.lua: the crossover on x86-64 is near 3000). */
#define LAK_TINY_GEMM 2048

/* The switch sits outside the loops so each loop is a single operation. */
#define EWLOOP(expr) \
  for (j = 0; j < n; j++) { \
    const LAK_REAL *pa = a.p + j * a.cs, *pb = b.p + j * b.cs; \
    LAK_REAL *pc = c + (ptrdiff_t)j * ldc; \
    for (i = 0; i < m; i++) { \
      LAK_REAL x = pa[i * a.rs], y = pb[i * b.rs]; pc[i] = (expr); } }

/* All three contiguous (no broadcasting, no view gaps): one flat loop. */
#define FLATLOOP(expr) \
  for (k = 0; k < N; k++) { LAK_REAL x = a.p[k], y = b.p[k]; c[k] = (expr); }

/* one switch for both loop shapes */
#define EWSWITCH(LOOP) \
  switch (op) { \
    case LAK_ADD: LOOP(x + y); break; \
    case LAK_SUB: LOOP(x - y); break; \
    case LAK_MUL: LOOP(x * y); break; \
    case LAK_DIV: LOOP(x / y); break; \
    case LAK_POW: LOOP(LAK_M(pow)(x, y)); break; \
  }

#define LAK_GENERIC_FILE "arith_gen.h"
#include "generate.h"
