/*
** kernels/reverse.c: B = A with each column reversed (flip along dim 1,
** NumPy's flipud). The inner loop b[i] = a[-i] is one GCC vectorizes with
** a lane-reversing permute (vpermpd / vpermps) after each load; it is
** compiled for AVX-512, AVX2 and SSE2 and chosen at load time (LAK_CLONES,
** loops.h). The order of columns is unchanged, so both sides are walked
** in memory order. Exact: values are moved, never computed.
*/
#include "kernels.h"
#include "loops.h"

/* b[i] = e[-i], i = 0..m-1 (e: the last entry of a column of A) */
#define REVCOL(name, T) \
  LAK_CLONES static void name(size_t m, const T *restrict e, T *restrict b) { \
    size_t i; \
    for (i = 0; i < m; i++) b[i] = *(e - i); \
  }
REVCOL(revcol_d, double)
REVCOL(revcol_s, float)

#define FLIPUD(name, T, col) \
  void name(int m, int n, const T *A, int lda, T *B, int ldb) { \
    int j; \
    if (m <= 0 || n <= 0) return; \
    for (j = 0; j < n; j++) \
      col((size_t)m, A + (ptrdiff_t)j * lda + (m - 1), B + (ptrdiff_t)j * ldb); \
  }
FLIPUD(lak_flipud, double, revcol_d)
FLIPUD(lak_sflipud, float, revcol_s)
