/*
** kernels/transpose.c: B (n x m) = A^T (A m x n) for both element types,
** in 32 x 32 tiles so both sides stay in cache. Inside a tile, with GCC or
** Clang, 2 x 2 (double) or 4 x 4 (float) blocks go through 16-byte vectors:
** columns of A loaded whole, transposed by shuffles, stored as runs of B's
** columns (about twice as fast as one element at a time at 100 x 100 and
** at 1000 x 1000); elsewhere, and at the edges, one element at a time,
** each row of A written as a contiguous run of B.
*/
#include <string.h>

#include "kernels.h"

#if defined(__clang__)
#define LAK_VSHUF 1
#define SHUF2(a, b, i, j) __builtin_shufflevector(a, b, i, j)
#define SHUF4(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#elif defined(__GNUC__)
#define LAK_VSHUF 1
#define SHUF2(a, b, i, j) __builtin_shuffle(a, b, (I2){i, j})
#define SHUF4(a, b, i, j, k, l) __builtin_shuffle(a, b, (I4){i, j, k, l})
#else
#define LAK_VSHUF 0
#endif

#if LAK_VSHUF
typedef double V2 __attribute__((vector_size(16)));
typedef long long I2 __attribute__((vector_size(16)));
typedef float V4 __attribute__((vector_size(16)));
typedef int I4 __attribute__((vector_size(16)));

/* rows i, i+1 of A's columns j, j+1 (a = &A(i, j)) to b0 = &B(j, i), b1 = &B(j, i+1) */
static void block_d(const double *a, ptrdiff_t lda, double *b0, double *b1) {
  V2 c0, c1, r0, r1;
  memcpy(&c0, a, sizeof c0); memcpy(&c1, a + lda, sizeof c1);
  r0 = SHUF2(c0, c1, 0, 2); r1 = SHUF2(c0, c1, 1, 3);
  memcpy(b0, &r0, sizeof r0); memcpy(b1, &r1, sizeof r1);
}

/* rows i..i+3 of columns j..j+3 (a = &A(i, j)) to B(j..j+3, i..i+3) (b = &B(j, i)) */
static void block_s(const float *a, ptrdiff_t lda, float *b, ptrdiff_t ldb) {
  V4 c0, c1, c2, c3, t0, t1, t2, t3, r;
  memcpy(&c0, a, sizeof c0); memcpy(&c1, a + lda, sizeof c1);
  memcpy(&c2, a + 2 * lda, sizeof c2); memcpy(&c3, a + 3 * lda, sizeof c3);
  t0 = SHUF4(c0, c1, 0, 4, 1, 5); t1 = SHUF4(c0, c1, 2, 6, 3, 7);
  t2 = SHUF4(c2, c3, 0, 4, 1, 5); t3 = SHUF4(c2, c3, 2, 6, 3, 7);
  r = SHUF4(t0, t2, 0, 1, 4, 5); memcpy(b, &r, sizeof r);
  r = SHUF4(t0, t2, 2, 3, 6, 7); memcpy(b + ldb, &r, sizeof r);
  r = SHUF4(t1, t3, 0, 1, 4, 5); memcpy(b + 2 * ldb, &r, sizeof r);
  r = SHUF4(t1, t3, 2, 3, 6, 7); memcpy(b + 3 * ldb, &r, sizeof r);
}
#endif

/* one tile, rows i0..ie-1 and columns j0..je-1 of A, from row i of A on
** (the rows before it done by blocks) */
#define REST(T) \
  static void rest_##T(int i, int i0, int ie, int j0, int je, int jb, const T *A, \
                       ptrdiff_t lda, T *B, ptrdiff_t ldb) { \
    int ii, j; \
    for (ii = i0; ii < i; ii++)                 /* columns past the blocks */ \
      for (j = jb; j < je; j++) B[j + ii * ldb] = A[ii + j * lda]; \
    for (; i < ie; i++)                         /* rows past the blocks */ \
      for (j = j0; j < je; j++) B[j + i * ldb] = A[i + j * lda]; \
  }
REST(double)
REST(float)

/* the blocks of s x s (GCC / Clang) as BLOCK(a, b) with a = &A(i, j), b =
** &B(j, i), then the rest of each tile */
#if LAK_VSHUF
#define BLOCKS(s, BLOCK) \
  jb = j0 + ((je - j0) & ~(s - 1)); \
  for (; i + s <= ie; i += s) \
    for (j = j0; j < jb; j += s) BLOCK(A + i + (ptrdiff_t)j * lda, B + j + (ptrdiff_t)i * ldb);
#else
#define BLOCKS(s, BLOCK) (void)j;
#endif
#define TRANSPOSE(name, T, s, BLOCK) \
  void name(int m, int n, const T *A, int lda, T *B, int ldb) { \
    int i0, j0, i, j; \
    if (m <= 0 || n <= 0) return; \
    for (i0 = 0; i0 < m; i0 += 32) \
      for (j0 = 0; j0 < n; j0 += 32) { \
        int ie = i0 + 32 < m ? i0 + 32 : m, je = j0 + 32 < n ? j0 + 32 : n, jb = j0; \
        i = i0; \
        BLOCKS(s, BLOCK) \
        rest_##T(i, i0, ie, j0, je, jb, A, lda, B, ldb); \
      } \
  }
#define BLOCK_D(a, b) block_d(a, lda, b, (b) + ldb)
#define BLOCK_S(a, b) block_s(a, lda, b, ldb)

TRANSPOSE(lak_transpose, double, 2, BLOCK_D)
TRANSPOSE(lak_stranspose, float, 4, BLOCK_S)
