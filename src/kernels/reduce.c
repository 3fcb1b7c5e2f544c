/*
** kernels/reduce.c: reductions, running scans, p-norms and dot products of
** strided lines and of the rows of a column-major matrix (no Lua here),
** written once in reduce_gen.h for double and float (see generate.h).
** Every accumulation is in double whatever the element type (float32 sums
** lose digits fast: 2^24 + 1 is not a float); a float line's scans are
** stored rounded to float.
**
** Speed (NumPy's loops_minmax / pairwise sum as the model): contiguous
** loops work on GNU C vectors of 64 bytes (8 doubles or 16 floats; one
** AVX-512 register, two AVX2 or four SSE2 ones), compiled for AVX-512,
** AVX2 and baseline SSE2 and chosen at load time (target_clones); the
** compare-and-select loops (argmin/argmax, rows' extremes) on vectors of
** the CPU's own width (64, 32 or 16 bytes, LAK_MULTI), with no branch in
** the body: extremes by compare-and-select with a NaN mask
** (the first NaN wins, found after the block that has one), sums with
** independent vector accumulators. Rows of a column-major matrix (dim 2)
** are reduced a column at a time, vectorized down the rows.
** Products of contiguous lines: 32 running products (lane i mod 32),
** multiplied pairwise at the end; the order is fixed, not by threads.
**
** Sums (sum, mean, the squares of var and the norms): fixed blocks of 128
** contiguous entries, each summed in 32 lanes (4 vectors of 8) that are
** then added pairwise, and the block sums combined as a pairwise tree (a
** binary counter of partial sums). The rounding error of a sum of n terms
** t_i is at most (ceil(log2(n / 128)) + 10) u sum |t_i| (u = 2^-53, first
** order), as NumPy's pairwise sum; a strided line (a row, a diagonal) is
** summed in four running sums, (n / 4 + 2) u sum |t_i|. Along dim 2 each
** row is summed in blocks of 128 columns, four columns at a time added
** pairwise, then to the block's sum (one load and store of the row sums
** for four columns): (34 + ceil(n / 128)) u sum |t_i|. A float32 row
** sum widens every entry to double before adding, as the other float32
** sums (README): adding four columns in float first was faster (1.4x ->
** ~1x NumPy's time at 1000 x 1000) but gave {2^24, 1, 1, 0} the sum
** 2^24, not its exact 2^24 + 2, unlike the same row as a column. The
** blocking is fixed (never by threads):
** results are identical run to run. Sums of integers stay exact while
** every partial sum is (below 2^53).
**
** 2-norms (norm, vecnorm, the Frobenius norm): one pass of the plain sum of
** squares (for a matrix, of all its entries taken as one line, as its sum
** is), and only when that overflowed or may have lost digits to
** underflow (beyond [2^-968, DBL_MAX]) a second pass on the entries scaled
** by 2^-e, e the exponent of the largest |entry| (exact): no division per
** entry (LAPACK's dlassq) and no overflow at 1e300 or underflow at
** 1e-300. Double products of floats cannot overflow: float lines take the
** first pass only.
*/
#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "vecmath.h"

#if LAK_GNU_X86
#define LAK_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
/* fused multiply-adds where they give the same bits (a product of two
** floats is exact in double): GCC's contraction, for one function */
#define LAK_FUSED __attribute__((optimize("fp-contract=fast")))
/* Loops whose vector width follows the CPU (GCC leaves a 64-byte compare
** and select scalar in an AVX2 or SSE2 clone): written once for W bytes,
** compiled for 64 (AVX-512), 32 (AVX2) and 16 (SSE2), one chosen per call */
#define LAK_MULTI 1
#define LAK_T512 __attribute__((target("arch=x86-64-v4")))
#define LAK_T256 __attribute__((target("avx2")))
/* 2: AVX-512 (x86-64-v4), 1: AVX2, 0: neither; set at load time */
static int lak_isa_cpu, lak_isa_now;
__attribute__((constructor)) static void lak_isa_init(void) {
  lak_isa_cpu = lak_cpu_has(LAK_CPU_V4) ? 2 : lak_cpu_has(LAK_CPU_AVX2) ? 1 : 0;
  lak_isa_now = lak_isa_cpu;
}
static int lak_isa(void) { return lak_isa_now; }
int lak_isa_cap(int level) {
  lak_isa_now = level < lak_isa_cpu ? (level < 0 ? 0 : level) : lak_isa_cpu;
  return lak_isa_now;
}
int lak_isa_level(void) { return lak_isa_now; }
#else
#define LAK_MULTI 0
#define LAK_FUSED
int lak_isa_cap(int level) { (void)level; return -1; }
int lak_isa_level(void) { return -1; }
#define LAK_CLONES
#endif

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9)
#define LAK_VEC 1
#if defined(__GNUC__)
/* vectors pass between inlined static functions only (clang reads this
** pragma too) */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
/* 8 doubles */
typedef double lak_vd __attribute__((vector_size(64)));
typedef int64_t lak_vl __attribute__((vector_size(64)));
/* 4 doubles */
typedef double lak_v4d __attribute__((vector_size(32)));
typedef int64_t lak_v4l __attribute__((vector_size(32)));
#else
#define LAK_VEC 0
#endif

/* 1, read where an fma by 1 is to replace an addition (reduce_gen.h's
** float blocks): GCC would fold a multiplication by a constant 1 away */
static volatile double lak_one_v = 1.0;

/* sum blocks: 128 entries */
#define LAK_BLOCK 128

#define LAK_GENERIC_FILE "reduce_gen.h"
#include "generate.h"

/* x[i] /= d: a row mean's last step, one vectorized pass where the
** binding's loop divided one entry at a time (T:mean(2), 100000 x 10: half
** its time) */
LAK_CLONES void lak_divby(double *x, size_t n, double d) {
  size_t i;
  for (i = 0; i < n; i++) x[i] /= d;
}
