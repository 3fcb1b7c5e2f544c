/*
** kernels/arith.c: elementwise, copy and product kernels (no Lua here),
** written once in arith_gen.h for double and float (see generate.h).
*/
#include <cblas.h>
#include <float.h>
#include <string.h>

#include <math.h>

#include "kernels.h"
#include "loops.h"
#include "vecmath.h"

/* Below this many multiply-adds a plain loop beats the BLAS call overhead
** (measured with bench/tiny.lua: the crossover on x86-64 is near 3000). */
#define LAK_TINY_GEMM 2048

/* Speed: each operation is a set of column loops (loops.h) that vectorize
** (the compiler may not contract a * b + c into an FMA: -ffp-contract=off,
** so results are those of the scalar code). pow of doubles is
** kernels/vecmath.c's where its AVX-512 loops run (within 1 ulp, C99's
** special cases, the same bits at every place); elsewhere, and for floats,
** libmvec's SIMD pow and powf
** (glibc >= 2.22 on x86-64, declared with the simd attribute, which glibc's
** headers only do under -ffast-math): within 1 ulp of libm's pow on
** ordinary arguments, exact where the power is an exactly representable
** integer (3^4, 2^-3), libm's scalar path for NaN, Inf and the other
** special values. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 22)
__attribute__((simd("notinbranch"))) extern double pow(double, double);
__attribute__((simd("notinbranch"))) extern float powf(float, float);
#endif
#endif

#define LAK_GENERIC_FILE "arith_gen.h"
#include "generate.h"
