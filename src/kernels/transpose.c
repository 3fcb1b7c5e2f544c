/*
** kernels/transpose.c: B (n x m) = A^T (A m x n) for both element types,
** in tiles (64 x 64 double, 32 x 32 float) so both sides stay in cache,
** each tile walked down A's columns (A read as a few streams, B written a
** block at a time). Inside a tile, with GCC or Clang, 4 x 4 blocks go
** through 32-byte (double) or 16-byte (float) vectors: columns of A loaded
** whole, transposed by permutes, stored as runs of B's columns; elsewhere,
** and at the edges, one element at a time. 1000 x 1000 double: 873 us with
** 2 x 2 blocks in 32 x 32 tiles, 480 now (NumPy 1.24's A.T.copy(order='F'):
** 640), sh bench/run.sh breadth.
*/
#include <string.h>

#include "kernels.h"
#include "loops.h"

#if defined(__clang__)
#define LAK_VSHUF 1
#define SHUF4D(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#define SHUF4(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#elif defined(__GNUC__)
#define LAK_VSHUF 1
#define SHUF4D(a, b, i, j, k, l) __builtin_shuffle(a, b, (I4D){i, j, k, l})
#define SHUF4(a, b, i, j, k, l) __builtin_shuffle(a, b, (I4){i, j, k, l})
#else
#define LAK_VSHUF 0
#endif

#if LAK_VSHUF
typedef double V4D __attribute__((vector_size(32)));
typedef long long I4D __attribute__((vector_size(32)));
/* rows i..i+3 of A's columns j..j+3 (a = &A(i, j)) to B(j..j+3, i..i+3)
** (b = &B(j, i)): four column loads, eight two-vector permutes, four
** stores. Inlined into each of lak_transpose's clones (LAK_CLONES), so the
** AVX2 and AVX-512 ones do each permute in one instruction. Measured
** against an 8 x 8 block of 512-bit vectors (24 permutes, which Zen 4
** does at half rate): as fast at 1000 x 1000, 0.3 us faster at 100 x 100. */
static inline __attribute__((always_inline)) void block4_d(const double *a, ptrdiff_t lda,
                                                          double *b, ptrdiff_t ldb) {
  V4D c0, c1, c2, c3, u0, u1, u2, u3, o;
  memcpy(&c0, a, 32); memcpy(&c1, a + lda, 32); memcpy(&c2, a + 2 * lda, 32); memcpy(&c3, a + 3 * lda, 32);
  u0 = SHUF4D(c0, c1, 0, 4, 2, 6); u1 = SHUF4D(c0, c1, 1, 5, 3, 7);
  u2 = SHUF4D(c2, c3, 0, 4, 2, 6); u3 = SHUF4D(c2, c3, 1, 5, 3, 7);
  o = SHUF4D(u0, u2, 0, 1, 4, 5); memcpy(b, &o, 32);
  o = SHUF4D(u1, u3, 0, 1, 4, 5); memcpy(b + ldb, &o, 32);
  o = SHUF4D(u0, u2, 2, 3, 6, 7); memcpy(b + 2 * ldb, &o, 32);
  o = SHUF4D(u1, u3, 2, 3, 6, 7); memcpy(b + 3 * ldb, &o, 32);
}

typedef float V4 __attribute__((vector_size(16)));
typedef int I4 __attribute__((vector_size(16)));

/* rows i..i+3 of columns j..j+3 (a = &A(i, j)) to B(j..j+3, i..i+3) (b = &B(j, i)) */
static inline __attribute__((always_inline)) void block_s(const float *a, ptrdiff_t lda, float *b, ptrdiff_t ldb) {
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
  { int ib = i0 + ((ie - i0) & ~(s - 1)), ii; \
  for (j = j0; j < jb; j += s) \
    for (ii = i0; ii < ib; ii += s) BLOCK(A + ii + (ptrdiff_t)j * lda, B + j + (ptrdiff_t)ii * ldb); \
  i = ib; }
#else
#define BLOCKS(s, BLOCK) (void)j;
#endif
#define TRANSPOSE(name, T, s, BLOCK, TILE) \
  LAK_CLONES void name(int m, int n, const T *A, int lda, T *B, int ldb) { \
    int i0, j0, i, j; \
    if (m <= 0 || n <= 0) return; \
    for (i0 = 0; i0 < m; i0 += TILE) \
      for (j0 = 0; j0 < n; j0 += TILE) { \
        int ie = i0 + TILE < m ? i0 + TILE : m, je = j0 + TILE < n ? j0 + TILE : n, jb = j0; \
        i = i0; \
        BLOCKS(s, BLOCK) \
        rest_##T(i, i0, ie, j0, je, jb, A, lda, B, ldb); \
      } \
  }
#define BLOCK_D(a, b) block4_d(a, lda, b, ldb)
#define BLOCK_S(a, b) block_s(a, lda, b, ldb)

TRANSPOSE(lak_transpose, double, 4, BLOCK_D, 64)
TRANSPOSE(lak_stranspose, float, 4, BLOCK_S, 32)
