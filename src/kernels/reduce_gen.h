/*
** kernels/reduce_gen.h: reduce.c's kernels over LAK_REAL (included twice,
** see generate.h). A line is n elements x[0], x[s], x[2s], ...
*/

/* entry i of the line x at stride s */
#define LX(i) ((double)x[(ptrdiff_t)(i) * s])

#ifndef LAK_SUM4
/* return the sum of term(i) for i < n in double, with four running sums (a
** chain of dependent adds is latency-bound; four keep the adder busy) */
#define LAK_SUM4(term) do { \
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0; \
    size_t i = 0; \
    for (; i + 4 <= n; i += 4) { \
      a0 += term(i); a1 += term(i + 1); a2 += term(i + 2); a3 += term(i + 3); \
    } \
    for (; i < n; i++) a0 += term(i); \
    return (a0 + a1) + (a2 + a3); \
  } while (0)
#define LAK_SQ(i) (LX(i) * LX(i))
#define LAK_ABS(i) fabs(LX(i))
#endif

/* Each sum is inlined twice by its caller: a contiguous line gets its own
** copy of the loop with s = 1 known, which the compiler turns into paired
** vector adds (no index multiplications). */
static inline double LAK(sum4)(size_t n, const LAK_REAL *x, ptrdiff_t s) { LAK_SUM4(LX); }

static double LAK(lsum)(size_t n, const LAK_REAL *x, ptrdiff_t s) {
  return s == 1 ? LAK(sum4)(n, x, 1) : LAK(sum4)(n, x, s);
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

void LAK(diff)(int order, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys,
               LAK_REAL *w) {
  size_t i, len;
  for (i = 0; i < n; i++) w[i] = x[(ptrdiff_t)i * s];
  for (len = n; order > 0; order--, len--)
    for (i = 0; i + 1 < len; i++) w[i] = w[i + 1] - w[i];
  for (i = 0; i < len; i++) y[(ptrdiff_t)i * ys] = w[i];
}

void LAK(scan)(lak_Scan op, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys) {
  double acc = op == LAK_CUMPROD ? 1.0 : 0.0;
  LAK_REAL e = n > 0 ? *x : 0;
  size_t i;
  switch (op) {
    case LAK_CUMPROD: for (i = 0; i < n; i++, x += s, y += ys) *y = (LAK_REAL)(acc *= *x); break;
    case LAK_CUMSUM: for (i = 0; i < n; i++, x += s, y += ys) *y = (LAK_REAL)(acc += *x); break;
    case LAK_CUMMIN:   /* e stays NaN once it is; a NaN x fails x >= e */
      for (i = 0; i < n; i++, x += s, y += ys) { if (e == e && !(*x >= e)) e = *x; *y = e; }
      break;
    case LAK_CUMMAX:
      for (i = 0; i < n; i++, x += s, y += ys) { if (e == e && !(*x <= e)) e = *x; *y = e; }
      break;
  }
}

/* the 2-norm, the 1-norm and the dot product, accumulated in double */
#if LAK_DOUBLE
static double LAK(nrm2)(size_t n, const double *x, ptrdiff_t s) {
  return cblas_dnrm2((int)n, x, (int)s);
}
static double LAK(asum)(size_t n, const double *x, ptrdiff_t s) {
  return cblas_dasum((int)n, x, (int)s);
}
double LAK(dotd)(size_t n, const double *x, ptrdiff_t s, const double *y, ptrdiff_t ys) {
  return cblas_ddot((int)n, x, (int)s, y, (int)ys);
}
#else
static inline double LAK(sumsq4)(size_t n, const float *x, ptrdiff_t s) { LAK_SUM4(LAK_SQ); }
static inline double LAK(sumabs4)(size_t n, const float *x, ptrdiff_t s) { LAK_SUM4(LAK_ABS); }
static double LAK(nrm2)(size_t n, const float *x, ptrdiff_t s) {
  return sqrt(s == 1 ? LAK(sumsq4)(n, x, 1) : LAK(sumsq4)(n, x, s));
}
static double LAK(asum)(size_t n, const float *x, ptrdiff_t s) {
  return s == 1 ? LAK(sumabs4)(n, x, 1) : LAK(sumabs4)(n, x, s);
}
double LAK(dotd)(size_t n, const float *x, ptrdiff_t s, const float *y, ptrdiff_t ys) {
  return cblas_dsdot((int)n, x, (int)s, y, (int)ys);
}
#endif

/* the largest (p > 0) or smallest |x_i|; NaN wins; 0 for n = 0 */
static double LAK(absext)(size_t n, const LAK_REAL *x, ptrdiff_t s, int wantmax) {
  double e = wantmax ? 0.0 : HUGE_VAL;
  size_t i;
  for (i = 0; i < n; i++) {
    double a = fabs(LX(i));
    if (isnan(a)) return a;
    if (wantmax ? a > e : a < e) e = a;
  }
  return n ? e : 0.0;
}

double LAK(vnorm)(size_t n, const LAK_REAL *x, ptrdiff_t s, double p) {
  double a = 0.0;
  size_t i;
  if (p == 2) return LAK(nrm2)(n, x, s);
  if (isinf(p)) return LAK(absext)(n, x, s, p > 0);
  if (p == 1) return LAK(asum)(n, x, s);
  if (p == 0) { for (i = 0; i < n; i++) a += LX(i) != 0.0; return a; }
  for (i = 0; i < n; i++) a += pow(fabs(LX(i)), p);
  return pow(a, 1.0 / p);
}

/* cos of the angle between lines x and y of n entries (ys: y's stride),
** in double; *zero: 1 when x is zero, 2 when y is (the result is then
** NaN), else 0. Vectors whose largest |entry| is within 2^+-400 take the
** BLAS norms and dot product; beyond, a square or the product of two norms
** would overflow or underflow (entries of 3e154 or 1e-200), so each vector
** is scaled by 2^-e, e the exponent of its largest |entry| (exact), and
** the sums run in double. */
double LAK(cosine)(size_t n, const LAK_REAL *x, ptrdiff_t s, const LAK_REAL *y, ptrdiff_t ys,
                   int *zero) {
  double bx = LAK(absext)(n, x, s, 1), by = LAK(absext)(n, y, ys, 1);
  double d = 0.0, nx = 0.0, ny = 0.0;
  int ex, ey;
  size_t i;
  *zero = bx == 0.0 ? 1 : by == 0.0 ? 2 : 0;
  if (*zero) return NAN;
  if (!(isfinite(bx) && isfinite(by))) return NAN;
  ex = ilogb(bx); ey = ilogb(by);
  if (ex >= -400 && ex <= 400 && ey >= -400 && ey <= 400)
    return LAK(dotd)(n, x, s, y, ys) / (LAK(nrm2)(n, x, s) * LAK(nrm2)(n, y, ys));
  for (i = 0; i < n; i++) {
    double u = ldexp(LX(i), -ex), v = ldexp((double)y[(ptrdiff_t)i * ys], -ey);
    d += u * v; nx += u * u; ny += v * v;
  }
  return d / (sqrt(nx) * sqrt(ny));
}

#undef LX
