/*
** la_tsqr.c: sequential tall-skinny QR for least squares (no Lua here).
** LAPACK's dgeqrf on a tall, thin matrix streams the whole matrix through
** memory for every panel. Here rows are taken h at a time and folded into
** the running n x n triangle R with dtpqrt (the QR of [R; block], which
** uses R's structure: 2 h n^2 flops a step, as for one big QR), while
** dtpmqrt applies the same Q^T to the right-hand sides. The block's rows
** of the right-hand sides then hold what no x can reach: their squared
** norms add up to the residual.
*/
#include <lapacke.h>
#include <string.h>

#include "la_kernels.h"

#define NB 32   /* inner block size of dtpqrt */

/* Rows per step: the h x n block near 1 MiB (half an L2 here). */
int lak_tsqr_rows(int n) {
  int h = (int)(131072 / (n > 0 ? n : 1));
  return h > n ? h : n;
}

static int nbof(int n) { return n < NB ? (n > 0 ? n : 1) : NB; }

size_t lak_tsqr_work(int n, int k) {
  size_t h = (size_t)lak_tsqr_rows(n), nb = (size_t)nbof(n);
  size_t mx = (size_t)(n > k ? n : k);
  return h * (size_t)n + h * (size_t)k + nb * (size_t)n + nb * mx;
}

static void copyrows(int rows, int cols, const double *S, int lds, double *D, int ldd) {
  int j;
  for (j = 0; j < cols; j++)
    memcpy(D + (ptrdiff_t)j * ldd, S + (ptrdiff_t)j * lds, (size_t)rows * sizeof(double));
}

int lak_tsqr(int m, int n, int k, const double *A, int lda, const double *B, int ldb,
             double sqrt_ridge, double *R, double *C, double *work, double *rss) {
  int h = lak_tsqr_rows(n), nb = nbof(n), i0, i, j, rows;
  double *Ab = work, *Bb = Ab + (size_t)h * n, *T = Bb + (size_t)h * k;
  double *w = T + (size_t)nb * n;
  /* R starts as 0, or sqrt(lambda) I, which stacks the ridge rows */
  memset(R, 0, (size_t)n * n * sizeof(double));
  memset(C, 0, (size_t)n * k * sizeof(double));
  for (j = 0; j < n; j++) R[j + (ptrdiff_t)j * n] = sqrt_ridge;
  for (j = 0; j < k; j++) rss[j] = 0.0;
  for (i0 = 0; i0 < m; i0 += rows) {
    int info;
    rows = m - i0 < h ? m - i0 : h;
    copyrows(rows, n, A + i0, lda, Ab, rows);
    copyrows(rows, k, B + i0, ldb, Bb, rows);
    info = LAPACKE_dtpqrt_work(LAPACK_COL_MAJOR, rows, n, 0, nb, R, n, Ab, rows, T, nb, w);
    if (info != 0) return info;
    info = LAPACKE_dtpmqrt_work(LAPACK_COL_MAJOR, 'L', 'T', rows, k, n, 0, nb, Ab, rows,
                                T, nb, C, n, Bb, rows, w);
    if (info != 0) return info;
    for (j = 0; j < k; j++)
      for (i = 0; i < rows; i++) rss[j] += Bb[i + (ptrdiff_t)j * rows] * Bb[i + (ptrdiff_t)j * rows];
  }
  return 0;
}
