/*
** kernels/tsqr_gen.h: the least-squares state's arithmetic written once for
** both element types (generate.h): lak_lsq_* over dtpqrt/dtpmqrt for
** double, lak_slsq_* over stpqrt/stpmqrt for float. The sizes
** (lak_tsqr_rows, lak_tsqr_work, lak_lsq_merge_work: counts of elements)
** and the bytes (double only) stay in tsqr.c.
*/

/* LAPACKE's routine r of this pass */
#define TP(r) LAK_PICK(LAPACKE_d##r##_work, LAPACKE_s##r##_work)

void LAK(lsq_clear)(LAK(Lsq) *s) {
  memset(s->R, 0, (size_t)s->n * (size_t)s->n * sizeof(LAK_REAL));
  memset(s->C, 0, (size_t)s->n * (size_t)s->k * sizeof(LAK_REAL));
  memset(s->rss, 0, (size_t)s->k * sizeof(LAK_REAL));
  s->rows = 0;
}

void LAK(lsq_copy)(const LAK(Lsq) *s, LAK(Lsq) *d) {
  memcpy(d->R, s->R, (size_t)s->n * (size_t)s->n * sizeof(LAK_REAL));
  memcpy(d->C, s->C, (size_t)s->n * (size_t)s->k * sizeof(LAK_REAL));
  memcpy(d->rss, s->rss, (size_t)s->k * sizeof(LAK_REAL));
  d->rows = s->rows;
}

static void LAK(copyrows)(int rows, int cols, const LAK_REAL *S, int lds, LAK_REAL *D,
                          int ldd) {
  int j;
  for (j = 0; j < cols; j++)
    memcpy(D + (ptrdiff_t)j * ldd, S + (ptrdiff_t)j * lds, (size_t)rows * sizeof(LAK_REAL));
}

/* rss[j] += squared norm of column j of the rows x k block D */
static void LAK(addsq)(int rows, int k, const LAK_REAL *D, int ldd, LAK_REAL *rss) {
  int i, j;
  for (j = 0; j < k; j++)
    for (i = 0; i < rows; i++) rss[j] += D[i + (ptrdiff_t)j * ldd] * D[i + (ptrdiff_t)j * ldd];
}

int LAK(lsq_add)(LAK(Lsq) *s, int m, const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb,
                 LAK_REAL *work) {
  int n = s->n, k = s->k, h = lak_tsqr_rows(m, n, k), nb = nbof(n), i0, rows;
  LAK_REAL *Ab = work, *Bb = Ab + (size_t)h * n, *T = Bb + (size_t)h * k;
  LAK_REAL *w = T + (size_t)nb * n;
  for (i0 = 0; i0 < m; i0 += rows) {
    int info;
    rows = m - i0 < h ? m - i0 : h;
    LAK(copyrows)(rows, k, B + i0, ldb, Bb, rows);
    if (n > 0) {
      LAK(copyrows)(rows, n, A + i0, lda, Ab, rows);
      info = TP(tpqrt)(LAPACK_COL_MAJOR, rows, n, 0, nb, s->R, n, Ab, rows, T, nb, w);
      if (info != 0) return info;
      if (k > 0) {
        info = TP(tpmqrt)(LAPACK_COL_MAJOR, 'L', 'T', rows, k, n, 0, nb, Ab, rows,
                          T, nb, s->C, n, Bb, rows, w);
        if (info != 0) return info;
      }
    }
    LAK(addsq)(rows, k, Bb, rows, s->rss);
  }
  s->rows += m;
  return 0;
}

int LAK(lsq_merge)(LAK(Lsq) *s, const LAK(Lsq) *t, LAK_REAL *work) {
  int n = s->n, k = s->k, nb = nbof(n), info;
  LAK_REAL *R2 = work, *C2 = R2 + (size_t)n * n, *T = C2 + (size_t)n * k;
  LAK_REAL *w = T + (size_t)nb * n;
  int j;
  if (n > 0) {
    memcpy(R2, t->R, (size_t)n * n * sizeof(LAK_REAL));
    memcpy(C2, t->C, (size_t)n * k * sizeof(LAK_REAL));
    info = TP(tpqrt)(LAPACK_COL_MAJOR, n, n, n, nb, s->R, n, R2, n, T, nb, w);
    if (info != 0) return info;
    if (k > 0) {
      info = TP(tpmqrt)(LAPACK_COL_MAJOR, 'L', 'T', n, k, n, n, nb, R2, n,
                        T, nb, s->C, n, C2, n, w);
      if (info != 0) return info;
    }
    LAK(addsq)(n, k, C2, n, s->rss);
  }
  for (j = 0; j < k; j++) s->rss[j] += t->rss[j];
  s->rows += t->rows;
  return 0;
}

static int LAK(lsq_allfinite)(size_t m, const LAK_REAL *x) {
  size_t i;
  for (i = 0; i < m; i++) if (!isfinite(x[i])) return 0;
  return 1;
}

int LAK(lsq_finite)(const LAK(Lsq) *s) {
  int j;
  for (j = 0; j < s->n; j++)
    if (!LAK(lsq_allfinite)((size_t)j + 1, s->R + (ptrdiff_t)j * s->n)) return 0;
  return LAK(lsq_allfinite)((size_t)s->n * (size_t)s->k, s->C) &&
         LAK(lsq_allfinite)((size_t)s->k, s->rss);
}

#undef TP
