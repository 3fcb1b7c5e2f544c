/*
** kernels/arith_gen.h: arith.c's kernels over LAK_REAL (included twice, see
** generate.h).
*/

LAK_COL2(LAK(c_add), LAK_REAL, x + y)
LAK_COL2(LAK(c_sub), LAK_REAL, x - y)
LAK_COL2(LAK(c_mul), LAK_REAL, x * y)
/* division costs work (a 1000 x 1000 A / P, streamed: 446-493 us with
** AVX2, 392-452 with AVX-512's 8 lanes on AMD Zen 4): every clone */
LAK_COL2W(LAK(c_div), LAK_REAL, x / y)
/* kernels/vecmath.c's pow where its AVX-512 loops run, else libmvec's */
LAK_COL2V(LAK(c_pow_m), LAK_REAL, LAK_M(pow)(x, y))
static void LAK(c_pow)(size_t m, const LAK_REAL *pa, ptrdiff_t ra, const LAK_REAL *pb,
                       ptrdiff_t rb, LAK_REAL *pc) {
  if (lak_vecmath_native()) LAK_PICK(lak_vpow, lak_vpowf)(m, pa, ra, pb, rb, pc);
  else LAK(c_pow_m)(m, pa, ra, pb, rb, pc);
}
/* pow(x, 2) as x * x and pow(x, 0.5) as sqrt(x), both correctly rounded
** (NumPy's x ** 2 and x ** 0.5); pow's values kept where sqrt's differ:
** pow(-0, 0.5) = +0 (the + 0), pow(-inf, 0.5) = +inf */
LAK_COL2(LAK(c_square), LAK_REAL, ((void)y, x * x))
LAK_COL2W(LAK(c_sqrt), LAK_REAL,
         ((void)y, x == -(LAK_REAL)HUGE_VAL ? (LAK_REAL)HUGE_VAL : LAK_M(sqrt)(x) + 0))

/* pow(x, -1) as 1 / x (correctly rounded; C99's values at 0, inf and NaN),
** pow(x, 1) as x and pow(x, 0) as 1 (NaN included), as NumPy's fast
** scalar powers */
LAK_COL2W(LAK(c_recip), LAK_REAL, ((void)y, 1 / x))
LAK_COL2(LAK(c_ident), LAK_REAL, ((void)y, x))
LAK_COL2(LAK(c_one), LAK_REAL, ((void)x, (void)y, 1))

typedef void (*LAK(Col))(size_t, const LAK_REAL *, ptrdiff_t, const LAK_REAL *, ptrdiff_t,
                         LAK_REAL *);

/* y a power of two whose reciprocal r is one too (normal): then x / y is
** x * r exactly, for every x */
static int LAK(recip2)(LAK_REAL y, LAK_REAL *r) {
  int e;
  if (!(y != 0 && LAK_M(fabs)(y) < (LAK_REAL)HUGE_VAL) || LAK_M(frexp)(y, &e) != (y < 0 ? -0.5 : 0.5))
    return 0;
  *r = 1 / y;
  return LAK_M(fabs)(*r) >= LAK_PICK(DBL_MIN, FLT_MIN) && LAK_M(fabs)(*r) < (LAK_REAL)HUGE_VAL &&
         *r * y == 1;
}

void LAK(ewise)(lak_Op op, int m, int n, LAK(Arg) a, LAK(Arg) b,
                LAK_REAL *c, int ldc) {
  static const LAK(Col) cols[] = {LAK(c_add), LAK(c_sub), LAK(c_mul), LAK(c_div), LAK(c_pow)};
  LAK(Col) f = cols[op];
  LAK_REAL r;
  if (m <= 0 || n <= 0) return;       /* e.g. 0 x 2^31-1: no column loop at all */
  if (b.rs == 0 && b.cs == 0) {       /* a fixed right operand: a scalar */
    LAK_REAL y = *b.p;
    if (op == LAK_DIV && LAK(recip2)(y, &r)) { f = LAK(c_mul); b.p = &r; }
    else if (op == LAK_POW && y == 2) f = LAK(c_square);
    else if (op == LAK_POW && y == (LAK_REAL)0.5) f = LAK(c_sqrt);
    else if (op == LAK_POW && y == -1) f = LAK(c_recip);
    else if (op == LAK_POW && y == 1) f = LAK(c_ident);
    else if (op == LAK_POW && y == 0) f = LAK(c_one);
#if !LAK_DOUBLE
    else if (op == LAK_POW && halfpow_k(y) != 0) f = lak_s_halfpow;
#endif
  }
  LAK_DRIVE2(f, m, n, a, b, c, ldc);
}

#if LAK_DOUBLE
/* c = x op y down a column, x = d, y = s widened (x = s, y = d when
** s_first), in one loop: widening a piece first and adding it after read
** the two operands one after the other, and 1000 x 1000 A + B took 700 us
** against 360 for two float64 operands */
#define LAK_MIXCOL(name, expr) \
  LAK_CLONES static void name(size_t m, const double *restrict d, const float *restrict s, \
                              int s_first, double *restrict c) { \
    size_t i; \
    if (s_first) \
      for (i = 0; i < m; i++) { double x = s[i], y = d[i]; c[i] = (expr); } \
    else \
      for (i = 0; i < m; i++) { double x = d[i], y = s[i]; c[i] = (expr); } \
  }
LAK_MIXCOL(mix_add, x + y)
LAK_MIXCOL(mix_sub, x - y)
LAK_MIXCOL(mix_mul, x * y)
LAK_MIXCOL(mix_div, x / y)
typedef void (*lak_MixCol)(size_t, const double *, const float *, int, double *);

/* n entries of a row, d and s's ld apart, into the contiguous c: gathered
** into L1 buffers, as the float64 row loop reads them (an entry a call
** took scalar pow, whose bits are not the vector pow's of the widened row) */
static void mix_row(lak_MixCol f, size_t n, const double *d, ptrdiff_t ldd, const float *s,
                    ptrdiff_t lds, int s_first, double *c) {
  double bd[LAK_CHUNK / sizeof(double)];
  float bs[LAK_CHUNK / sizeof(double)];
  size_t j0, j, h;
  for (j0 = 0; j0 < n; j0 += h) {
    h = n - j0 < sizeof bd / sizeof *bd ? n - j0 : sizeof bd / sizeof *bd;
    for (j = 0; j < h; j++) {
      bd[j] = d[(ptrdiff_t)(j0 + j) * ldd];
      bs[j] = s[(ptrdiff_t)(j0 + j) * lds];
    }
    f(h, bd, bs, s_first, c + j0);
  }
}

/* c = D op S (S op D when s_first; op LAK_ADD to LAK_DIV) for a float64 D
** and a float32 S of one shape, without a widened copy of S (which made
** 1000 x 1000 A + B 1.4x NumPy's buffered cast); a large result is
** streamed out as LAK_FLATRUN's. The arithmetic is that of the widened
** operand, so the bits are too. Not pow: it takes libmvec's on machines
** without AVX-512 (LAK_COL2V), whose vector loop runs on the converted
** operands only after a widening pass here would. */
void lak_ewise_mixed(lak_Op op, int m, int n, const double *D, int ldd, const float *S,
                     int lds, int s_first, double *c, int ldc) {
  static const lak_MixCol cols[] = {mix_add, mix_sub, mix_mul, mix_div};
  lak_MixCol f = cols[op];
  size_t nn = (size_t)m * (size_t)n;
  int j;
  if (m <= 0 || n <= 0) return;
  if (ldd == m && lds == m && ldc == m) {
    LAK_FLATRUN(f, nn, c, sizeof(double), 1, D, S, S, D + i_, S + i_, s_first);
    return;
  }
  if (m == 1 && ldc == 1) {            /* a row of views: gathered a piece at a time */
    mix_row(f, (size_t)n, D, ldd, S, lds, s_first, c);
    return;
  }
  for (j = 0; j < n; j++)
    f((size_t)m, D + (ptrdiff_t)j * ldd, S + (ptrdiff_t)j * lds, s_first, c + (ptrdiff_t)j * ldc);
}
#endif

void LAK(copy)(int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  for (j = 0; j < n; j++) {
    const LAK_REAL *a = A + (ptrdiff_t)j * lda;
    LAK_REAL *b = B + (ptrdiff_t)j * ldb;
    for (i = 0; i < m; i++) b[i] = a[i];
  }
}

static LAK_REAL LAK(at)(const LAK_REAL *A, int ld, int trans, int i, int j) {
  return trans ? A[j + (ptrdiff_t)i * ld] : A[i + (ptrdiff_t)j * ld];
}

/* Direct triple loop for tiny sizes; beta == 0 never reads C. */
static void LAK(tiny_gemm)(int ta, int tb, int m, int n, int k, LAK_REAL alpha,
                           const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb,
                           LAK_REAL beta, LAK_REAL *C, int ldc) {
  int i, j, l;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      LAK_REAL s = 0;
      for (l = 0; l < k; l++) s += LAK(at)(A, lda, ta, i, l) * LAK(at)(B, ldb, tb, l, j);
      C[i + (ptrdiff_t)j * ldc] = alpha * s +
          (beta == 0 ? 0 : beta * C[i + (ptrdiff_t)j * ldc]);
    }
}

void LAK(gemm)(char ta, char tb, int m, int n, int k, LAK_REAL alpha,
               const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb,
               LAK_REAL beta, LAK_REAL *C, int ldc) {
  int tA = (ta == 'T'), tB = (tb == 'T');
  if (m == 0 || n == 0) return;
  if ((double)m * n * k <= LAK_TINY_GEMM || k == 0) {
    LAK(tiny_gemm)(tA, tB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  } else if (n == 1 && !tB) {
    LAK_CBLAS(gemv)(CblasColMajor, tA ? CblasTrans : CblasNoTrans,
                    tA ? k : m, tA ? m : k, alpha, A, lda, B, 1, beta, C, 1);
  } else {
    LAK_CBLAS(gemm)(CblasColMajor, tA ? CblasTrans : CblasNoTrans,
                    tB ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                    A, lda, B, ldb, beta, C, ldc);
  }
}

/* the bits of a[i] and b[i] that differ, over n entries */
LAK_CLONES_MEM static LAK_UINT LAK(xorcol)(size_t n, const LAK_REAL *restrict a,
                                           const LAK_REAL *restrict b) {
  LAK_UINT d = 0, x, y;
  size_t i;
  for (i = 0; i < n; i++) {
    memcpy(&x, a + i, sizeof x);
    memcpy(&y, b + i, sizeof y);
    d |= x ^ y;
  }
  return d;
}

/* B (k x m) holds A's transpose (A m x k), bit for bit. A's first column
** against B's first row first, entry by entry (a product of two other
** matrices stops there, at once); then B in panels of LAK_TBAND columns
** and LAK_TCHUNK rows, each transposed into buf and compared with A's
** rows as columns: B's strided reads one entry at a time took 2 ms at
** 1000 x 1000, a tenth of syrk's time. Without buf (a small product), B's
** rows are read in place. */
#define LAK_TBAND 64
#define LAK_TCHUNK 128
static int LAK(istrans)(int m, int k, const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb,
                        LAK_REAL *buf) {
  int i0, j0, j, i;
  for (i = 0; i < m && i < LAK_TBAND; i++)
    if (LAK(xorcol)(1, A + i, B + (ptrdiff_t)i * ldb) != 0) return 0;
  if (buf == NULL) {
    for (j = 0; j < k; j++) {
      LAK_UINT d = 0, x, y;
      for (i = 0; i < m; i++) {
        memcpy(&x, A + i + (ptrdiff_t)j * lda, sizeof x);
        memcpy(&y, B + j + (ptrdiff_t)i * ldb, sizeof y);
        d |= x ^ y;
      }
      if (d != 0) return 0;
    }
    return 1;
  }
  for (i0 = 0; i0 < m; i0 += LAK_TBAND) {
    int w = m - i0 < LAK_TBAND ? m - i0 : LAK_TBAND;
    for (j0 = 0; j0 < k; j0 += LAK_TCHUNK) {
      int h = k - j0 < LAK_TCHUNK ? k - j0 : LAK_TCHUNK;
      LAK_UINT d = 0;
      LAK(transpose)(h, w, B + j0 + (ptrdiff_t)i0 * ldb, ldb, buf, w);
      for (j = 0; j < h; j++)
        d |= LAK(xorcol)((size_t)w, A + i0 + (ptrdiff_t)(j0 + j) * lda, buf + (ptrdiff_t)j * w);
      if (d != 0) return 0;
    }
  }
  return 1;
}

/* each panel below a diagonal block transposed (lak_transpose) into the
** row beside it */
void LAK(mirror)(int n, LAK_REAL *C, int ldc) {
  int j0, i, j;
  for (j0 = 0; j0 < n; j0 += LAK_TBAND) {
    int w = n - j0 < LAK_TBAND ? n - j0 : LAK_TBAND;
    for (j = j0; j < j0 + w; j++)
      for (i = j + 1; i < j0 + w; i++) C[j + (ptrdiff_t)i * ldc] = C[i + (ptrdiff_t)j * ldc];
    if (j0 + w < n)
      LAK(transpose)(n - j0 - w, w, C + j0 + w + (ptrdiff_t)j0 * ldc, ldc,
                     C + j0 + (ptrdiff_t)(j0 + w) * ldc, ldc);
  }
}

/* X^T X of a k x m X (m <= LAK_GRAMT_MAX): lak_gramt, or where it
** declines (no AVX-512F) syrk, so the result is symmetric bit for bit on
** any CPU; matmult's and matmul's X^T X make this one call */
static void LAK(thingram)(int k, int m, const LAK_REAL *X, int ldx, LAK_REAL *C, int ldc) {
  if (LAK(gramt)(k, m, X, ldx, C, ldc)) return;
  LAK_CBLAS(syrk)(CblasColMajor, CblasLower, CblasTrans, m, k, 1, X, ldx, 0, C, ldc);
  LAK(mirror)(m, C, ldc);
}

/* Every square product is tested for A B = B^T B (X:t() * X, X * X:t(),
** S * S of a symmetric S), which then takes thingram or syrk and the
** mirror: symmetric bit for bit at every size, as NumPy's X.T @ X (syrk
** whenever both operands are one array). OpenBLAS 0.3.21, 1 thread,
** AVX-512 EPYC, X:t() * X against gemm (the test included; NumPy's X.T @ X
** beside): 100 x 100 40 us against 44 (NumPy 32), 1000 x 100 335 against
** 470 (305), 1000 x 64 153 against 205 (132), 8 x 1000 376 against 630
** (553), 4 x 50 2.1 against 1.4 (2.5); a product of two other matrices
** stops at the first entry. Up to LAK_TDIRECT entries the test reads B's
** rows in place, without a workspace (100 x 4: 0.45 us against gemm's
** 0.45, 0.76 with the workspace). */
#define LAK_TDIRECT 1024
size_t LAK(matmulbuf)(int m, int n, int k) {
  return m == n && (double)m * k > LAK_TDIRECT ? (size_t)LAK_TBAND * LAK_TCHUNK : 0;
}

void LAK(matmul)(int m, int n, int k, const LAK_REAL *A, int lda, const LAK_REAL *B,
                 int ldb, LAK_REAL *C, int ldc, LAK_REAL *buf) {
  if (m == n && m >= 1 && k >= 1 &&
      LAK(istrans)(m, k, A, lda, B, ldb, LAK(matmulbuf)(m, n, k) > 0 ? buf : NULL)) {
    if (m <= LAK_GRAMT_MAX) {           /* A B = B^T B: matmult's X^T X calls (its X X^T is syrk) */
      LAK(thingram)(k, m, B, ldb, C, ldc);
      return;
    }
    LAK_CBLAS(syrk)(CblasColMajor, CblasLower, CblasTrans, m, k, 1, B, ldb, 0, C, ldc);
    LAK(mirror)(m, C, ldc);
  } else {
    LAK(gemm)('N', 'N', m, n, k, 1, A, lda, B, ldb, 0, C, ldc);
  }
}

/* the r x c A and B hold the same bits (the first entry first: two
** different matrices stop there) */
static int LAK(samebits)(int r, int c, const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb) {
  int j;
  if (r <= 0 || c <= 0 || (A == B && lda == ldb)) return 1;     /* nothing to read */
  if (LAK(xorcol)(1, A, B) != 0) return 0;
  for (j = 0; j < c; j++)
    if (LAK(xorcol)((size_t)r, A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb) != 0) return 0;
  return 1;
}

/* A's transpose times B, or A times B's transpose: B with A's bits (the
** same matrix, or a copy: la.inner(X, X:copy())) makes it thingram (X^T X
** of up to LAK_GRAMT_MAX columns) or syrk, symmetric bit for bit at every
** size, as matmul's. OpenBLAS 0.3.21's syrk against gemm, 1 thread, the
** Haswell kernels on AMD EPYC (Zen 4): X^T X of 1000 x 50 94 us against
** 125, 1000 x 20 19-22 against 26-30; a thinner matrix past the L2 cache
** is read once, not twice (100000 x 4: 0.35 ms against 0.51). Below 20
** columns syrk is the slower (100 x 16: 2.4 us against 1.9; 1000 x 4: 3.4
** against 2.7), where lak_gramt does not take X^T X (no AVX-512F) and for
** X X^T: the price of the symmetry. */
void LAK(matmult)(char ta, char tb, int m, int n, int k, const LAK_REAL *A, int lda,
                  const LAK_REAL *B, int ldb, LAK_REAL *C, int ldc) {
  int sq = ta != tb && m == n && m >= 1 && k >= 1;
  if (sq && LAK(samebits)(ta == 'T' ? k : m, ta == 'T' ? m : k, A, lda, B, ldb)) {
    if (ta == 'T' && m <= LAK_GRAMT_MAX) {
      LAK(thingram)(k, m, A, lda, C, ldc);
      return;
    }
    LAK_CBLAS(syrk)(CblasColMajor, CblasLower, ta == 'T' ? CblasTrans : CblasNoTrans, m, k, 1,
                    A, lda, 0, C, ldc);
    LAK(mirror)(m, C, ldc);
  } else {
    LAK(gemm)(ta, tb, m, n, k, 1, A, lda, B, ldb, 0, C, ldc);
  }
}

/* Inf and NaN are exactly the numbers whose exponent bits are all ones (the
** bits of +inf); a count of those tests over the column has no branch, so it
** vectorizes, but only in the AVX2 and AVX-512 clones: SSE2 has no 64-bit
** compare, and the baseline build stayed a scalar loop at 14 GB/s (NumPy's
** isfinite().all() over 1000 x 1000 was 2.7x faster). */
LAK_CLONES int LAK(allfinite)(int m, const LAK_REAL *x) {
  const LAK_REAL inf = (LAK_REAL)HUGE_VAL;
  LAK_UINT e, bad = 0;
  int i;
  memcpy(&e, &inf, sizeof e);
  for (i = 0; i < m; i++) {
    LAK_UINT u;
    memcpy(&u, x + i, sizeof u);
    bad += (u & e) == e;
  }
  return bad == 0;
}

LAK_CLONES static void LAK(cosscol)(size_t m, LAK_REAL *restrict c, const double *restrict u,
                                    double v) {
  size_t i;
  for (i = 0; i < m; i++) {
    double x = c[i] / (u[i] * v);
    c[i] = (LAK_REAL)(x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x);
  }
}

void LAK(cosscale)(int m, int n, LAK_REAL *C, int ldc, const double *u, const double *v) {
  int j;
  for (j = 0; j < n; j++) LAK(cosscol)((size_t)m, C + (ptrdiff_t)j * ldc, u, v[j]);
}

LAK_CLONES static void LAK(corrscol)(size_t m, LAK_REAL *restrict c, const double *restrict u,
                                     double v) {
  size_t i;
  for (i = 0; i < m; i++) {
    double x = c[i] / u[i] / v;
    c[i] = (LAK_REAL)(x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x);
  }
}

void LAK(corrscale)(int m, int n, LAK_REAL *C, int ldc, const double *u, const double *v) {
  int j;
  for (j = 0; j < n; j++) LAK(corrscol)((size_t)m, C + (ptrdiff_t)j * ldc, u, v[j]);
}
