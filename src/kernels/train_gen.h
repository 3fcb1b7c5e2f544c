/*
** kernels/train_gen.h: train.c's kernels, compiled once for double and once
** for float (generate.h). Sums run in double in both passes.
*/

/* dim 2: acc[i] = sum_j w_ij over row i, w = Y .* dY (softmax) or dY */
static void LAK(rowsums)(int logs, int m, int n, const LAK_REAL *restrict Y, int ldy,
                         const LAK_REAL *restrict dY, int lddy, double *restrict acc) {
  int i, j;
  for (i = 0; i < m; i++) acc[i] = 0.0;
  for (j = 0; j < n; j++) {
    const LAK_REAL *y = Y + (ptrdiff_t)j * ldy, *dy = dY + (ptrdiff_t)j * lddy;
    if (logs) for (i = 0; i < m; i++) acc[i] += (double)dy[i];
    else for (i = 0; i < m; i++) acc[i] += (double)y[i] * (double)dy[i];
  }
}

/* column j of dS given its line's sums: s[i] for row i (dim 2), or the one
** sum t of the column (dim 1); separate loops so that each vectorizes */
static void LAK(bwdrows)(int logs, int m, const LAK_REAL *restrict y, const LAK_REAL *restrict dy,
                         LAK_REAL *restrict ds, const double *restrict s) {
  int i;
  if (logs)
    for (i = 0; i < m; i++) ds[i] = (LAK_REAL)((double)dy[i] - exp((double)y[i]) * s[i]);
  else
    for (i = 0; i < m; i++) ds[i] = (LAK_REAL)((double)y[i] * ((double)dy[i] - s[i]));
}
static void LAK(bwdcol)(int logs, int m, const LAK_REAL *restrict y, const LAK_REAL *restrict dy,
                        LAK_REAL *restrict ds, double t) {
  int i;
  if (logs)
    for (i = 0; i < m; i++) ds[i] = (LAK_REAL)((double)dy[i] - exp((double)y[i]) * t);
  else
    for (i = 0; i < m; i++) ds[i] = (LAK_REAL)((double)y[i] * ((double)dy[i] - t));
}

void LAK(softmax_bwd)(int logs, int dim, int m, int n, const LAK_REAL *Y, int ldy,
                      const LAK_REAL *dY, int lddy, LAK_REAL *dS, int ldds, double *acc) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  if (dim == 2) LAK(rowsums)(logs, m, n, Y, ldy, dY, lddy, acc);
  for (j = 0; j < n; j++) {
    const LAK_REAL *y = Y + (ptrdiff_t)j * ldy, *dy = dY + (ptrdiff_t)j * lddy;
    LAK_REAL *ds = dS + (ptrdiff_t)j * ldds;
    double t = 0.0;
    if (dim == 2) { LAK(bwdrows)(logs, m, y, dy, ds, acc); continue; }
    if (logs) for (i = 0; i < m; i++) t += (double)dy[i];        /* the column's own sum */
    else for (i = 0; i < m; i++) t += (double)y[i] * (double)dy[i];
    LAK(bwdcol)(logs, m, y, dy, ds, t);
  }
}

double LAK(absmax)(int m, int n, const LAK_REAL *A, int lda) {
  double e = 0.0;
  int i, j;
  for (j = 0; j < n; j++) {
    const LAK_REAL *a = A + (ptrdiff_t)j * lda;
    for (i = 0; i < m; i++) {
      double x = fabs((double)a[i]);
      if (isnan(x)) return x;
      if (x > e) e = x;
    }
  }
  return e;
}

double LAK(sumpow)(int m, int n, const LAK_REAL *A, int lda, double s1, double s2, double p) {
  double t = 0.0;
  int i, j;
  for (j = 0; j < n; j++) {
    const LAK_REAL *a = A + (ptrdiff_t)j * lda;
    double c0 = 0.0, c1 = 0.0;      /* two chains: pairs of rows */
    for (i = 0; i + 1 < m; i += 2) {
      double x = (double)a[i] * s1 * s2, y = (double)a[i + 1] * s1 * s2;
      if (p == 2) { c0 += x * x; c1 += y * y; }
      else if (p == 1) { c0 += fabs(x); c1 += fabs(y); }
      else { c0 += pow(fabs(x), p); c1 += pow(fabs(y), p); }
    }
    if (i < m) {
      double x = (double)a[i] * s1 * s2;
      c0 += p == 2 ? x * x : p == 1 ? fabs(x) : pow(fabs(x), p);
    }
    t += c0 + c1;
  }
  return t;
}

void LAK(scale)(int m, int n, LAK_REAL *A, int lda, LAK_REAL c) {  /* one array: vectorizes as is */
  int i, j;
  for (j = 0; j < n; j++) {
    LAK_REAL *a = A + (ptrdiff_t)j * lda;
    for (i = 0; i < m; i++) a[i] *= c;
  }
}
