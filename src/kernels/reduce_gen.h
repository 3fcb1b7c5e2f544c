/*
** kernels/reduce_gen.h: reduce.c's kernels over LAK_REAL (included twice,
** see generate.h). A line is n elements x[0], x[s], x[2s], ...
*/

/* entry i of the line x at stride s */
#define LX(i) ((double)x[(ptrdiff_t)(i) * s])

/* sum in double with four running sums (a chain of dependent adds is
** latency-bound; four keep the adder busy) */
static double LAK(lsum)(size_t n, const LAK_REAL *x, ptrdiff_t s) {
  double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    a0 += LX(i); a1 += LX(i + 1); a2 += LX(i + 2); a3 += LX(i + 3);
  }
  for (; i < n; i++) a0 += LX(i);
  return (a0 + a1) + (a2 + a3);
}

size_t LAK(argext)(int wantmax, size_t n, const LAK_REAL *x, ptrdiff_t s) {
  size_t i, at = 0;
  for (i = 0; i < n; i++) {
    LAK_REAL v = x[(ptrdiff_t)i * s];
    if (isnan(v)) return i;
    if (wantmax ? v > x[(ptrdiff_t)at * s] : v < x[(ptrdiff_t)at * s]) at = i;
  }
  return at;
}

/* two passes: the mean, then the squares of the deviations from it */
static double LAK(variance)(size_t n, const LAK_REAL *x, ptrdiff_t s, double ddof) {
  double mean = LAK(lsum)(n, x, s) / (double)n, ss = 0.0;
  size_t i;
  for (i = 0; i < n; i++) ss += (LX(i) - mean) * (LX(i) - mean);
  return ss / ((double)n - ddof);
}

double LAK(reduce)(lak_Red r, size_t n, const LAK_REAL *x, ptrdiff_t s, double ddof) {
  double p = 1.0;
  size_t i;
  switch (r) {
    case LAK_SUM: return LAK(lsum)(n, x, s);
    case LAK_MEAN: return LAK(lsum)(n, x, s) / (double)n;
    case LAK_PROD: for (i = 0; i < n; i++) p *= LX(i); return p;
    case LAK_MIN: return LX(LAK(argext)(0, n, x, s));
    case LAK_MAX: return LX(LAK(argext)(1, n, x, s));
    case LAK_VAR: return LAK(variance)(n, x, s, ddof);
    case LAK_STD: return sqrt(LAK(variance)(n, x, s, ddof));
  }
  return 0.0;
}

void LAK(scan)(int prod, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys) {
  double acc = prod ? 1.0 : 0.0;
  size_t i;
  for (i = 0; i < n; i++) {
    acc = prod ? acc * LX(i) : acc + LX(i);
    y[(ptrdiff_t)i * ys] = (LAK_REAL)acc;
  }
}

#undef LX
