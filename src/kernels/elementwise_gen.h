/*
** kernels/elementwise_gen.h: elementwise.c's kernels over LAK_REAL
** (included twice, see generate.h).
*/

/* ---------------------------------------------------------------- unary */

/* sign keeps NaN and gives +0 for either zero (NumPy's and Octave's
** sign(-0.0) is 0.0); round is half to even (NumPy's np.round, IEEE rint
** in the default rounding mode). */
static LAK_REAL LAK(sgn)(LAK_REAL x) { return x > 0 ? 1 : x < 0 ? -1 : x == x ? 0 : x; }

#if LAK_DOUBLE                   /* kernels/vecmath.c's where its AVX-512 loops run, else libmvec's */
UNARY(exp_m, exp(v))            UNARY(log_m, log(v))            UNARY(tanh_m, tanh(v))
UNARY(log10_m, log10(v))
#define LAK_VM(f) \
  static void lak_u_##f(const double *x, double *y, size_t n) { \
    if (lak_vecmath_native()) lak_v##f(x, y, n); else lak_u_##f##_m(x, y, n); }
LAK_VM(exp) LAK_VM(log) LAK_VM(tanh) LAK_VM(log10)
#undef LAK_VM
#else
UNARY(exp, LAK_M(exp)(v))       UNARY(log, LAK_M(log)(v))       UNARY(tanh, LAK_M(tanh)(v))
UNARY(log10, LAK_M(log10)(v))
#endif
UNARY(log1p, LAK_M(log1p)(v))   UNARY(expm1, LAK_M(expm1)(v))
UNARY(sqrt, LAK_M(sqrt)(v))     UNARYM(abs, LAK_M(fabs)(v))
UNARYM(sign, LAK(sgn)(v))       UNARYM(floor, LAK_M(floor)(v))
UNARYM(ceil, LAK_M(ceil)(v))    UNARYM(round, LAK_M(rint)(v))
UNARY(sin, LAK_M(sin)(v))       UNARY(cos, LAK_M(cos)(v))
UNARY(tan, LAK_M(tan)(v))
UNARY(sinh, LAK_M(sinh)(v))     UNARY(cosh, LAK_M(cosh)(v))
UNARY(asin, LAK_M(asin)(v))     UNARY(acos, LAK_M(acos)(v))
UNARY(atan, LAK_M(atan)(v))     UNARY(log2, LAK_M(log2)(v))
UNARYM(trunc, LAK_M(trunc)(v))
UNARYM(isnan, isnan(v) ? 1 : 0)
UNARYM(isinf, isinf(v) ? 1 : 0)
UNARYM(isfinite, isfinite(v) ? 1 : 0)

typedef void (*LAK(Unary))(const LAK_REAL *, LAK_REAL *, size_t);

/* in lak_Fn's order */
static const LAK(Unary) LAK(unaries)[LAK_NFN] = {
  LAK(u_exp), LAK(u_log), LAK(u_log1p), LAK(u_expm1), LAK(u_sqrt), LAK(u_abs),
  LAK(u_sign), LAK(u_floor), LAK(u_ceil), LAK(u_round), LAK(u_sin), LAK(u_cos),
  LAK(u_tan), LAK(u_tanh), LAK(u_sinh), LAK(u_cosh), LAK(u_asin), LAK(u_acos),
  LAK(u_atan), LAK(u_log2), LAK(u_log10), LAK(u_trunc), LAK(u_isnan), LAK(u_isinf),
  LAK(u_isfinite)
};

/* y = f(x) over nn entries, streamed out through an L1 buffer when y's
** block is cold (LAK_FLATRUN's way, loops.h) */
static void LAK(unaryflat)(lak_Fn f, size_t nn, const LAK_REAL *x, LAK_REAL *y) {
  size_t i = 0;
  if (lak_streams(y, nn * sizeof *y, 0)) {
    lak_Chunk2 raw;
    LAK_REAL *buf = (LAK_REAL *)lak_buffer((unsigned char *)&raw, y, x, x, x);
    const size_t k = LAK_CHUNK / sizeof *y;
    for (; i + k <= nn; i += k) {
      LAK(unaries)[f](x + i, buf, k);
      lak_stream(y + i, buf, LAK_CHUNK);
    }
    lak_sfence();
  }
  if (i < nn) LAK(unaries)[f](x + i, y + i, nn - i);
}

void LAK(unary)(lak_Fn f, int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb) {
  int j;
  if (m <= 0 || n <= 0) return;
  if (lda == m && ldb == m) { LAK(unaryflat)(f, (size_t)m * (size_t)n, A, B); return; }
  for (j = 0; j < n; j++)
    LAK(unaries)[f](A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, (size_t)m);
}

LAK_REAL LAK(unary1)(lak_Fn f, LAK_REAL x) {
  LAK_REAL y;
  LAK(unaries)[f](&x, &y, 1);
  return y;
}

/* b[i] = rint(a[i] * f) / f, or with mul 0 rint(a[i] / f) * f */
LAK_CLONES static void LAK(round_col)(size_t m, const LAK_REAL *restrict a, LAK_REAL *restrict b,
                                      LAK_REAL f, int mul) {
  size_t i;
  if (mul) for (i = 0; i < m; i++) { LAK_REAL y = a[i] * f; b[i] = LAK_M(rint)(y) / f; }
  else for (i = 0; i < m; i++) { LAK_REAL y = a[i] / f; b[i] = LAK_M(rint)(y) * f; }
}

/* float32 with 10^|d| past the largest float (|d| 39 to 308): NumPy 1.24
** multiplies (divides) by the double 10^|d| (a Python float out of
** float32's range promotes), stores the float, takes rint in float, and
** divides (multiplies) in double again: 1e-30 at 40 decimals is 1e-30,
** 1.5 is Inf; a float's 10^|d| had made every entry NaN */
static void LAK(round_wide)(size_t m, const LAK_REAL *a, LAK_REAL *b, double f, int mul) {
  size_t i;
  for (i = 0; i < m; i++) {
    LAK_REAL y = (LAK_REAL)(mul ? (double)a[i] * f : (double)a[i] / f);
    double r = (double)LAK_M(rint)(y);
    b[i] = (LAK_REAL)(mul ? r / f : r * f);
  }
}

void LAK(round)(int d, int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb) {
  double fd = lak_pow10(d < 0 ? -d : d);
  LAK_REAL f = (LAK_REAL)fd;
  int j;
  if (m <= 0 || n <= 0) return;
  if (!LAK_DOUBLE && isinf(f) && !isinf(fd)) {
    for (j = 0; j < n; j++)
      LAK(round_wide)((size_t)m, A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, fd, d >= 0);
    return;
  }
  if (lda == m && ldb == m) { LAK(round_col)((size_t)m * (size_t)n, A, B, f, d >= 0); return; }
  for (j = 0; j < n; j++)
    LAK(round_col)((size_t)m, A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, f, d >= 0);
}

/* ---------------------------------------------------------------- binary */

BINARY(max, BMAX(x, y))  BINARY(min, BMIN(x, y))
BINARY(lt, x < y)        BINARY(le, x <= y)       BINARY(gt, x > y)
BINARY(ge, x >= y)       BINARY(eq, x == y)       BINARY(ne, x != y)
LAK_COL2V(LAK(b_atan2), LAK_REAL, LAK_M(atan2)(x, y))

/* NumPy's remainder (npy_divmod's modulus): fmod, moved into the divisor's
** sign when the two differ; a zero result takes the divisor's sign;
** x % 0 is fmod's NaN. Lua's % on numbers gives the same. */
static inline LAK_REAL LAK(remof)(LAK_REAL r, LAK_REAL y) {
  if (y == 0) return r;
  if (r != 0) return (y < 0) != (r < 0) ? r + y : r;
  return LAK_M(copysign)(0, y);
}

/* fmod without libm's loop, exactly. With q = trunc(|x| / |y|) below
** 2^(p - 2) (p the type's significand bits), the division rounded once by
** at most 2^-3, so q is the true quotient's whole part or one more. The
** remainder is a number of the type, so one fma gives |x| - q |y| exactly:
** the remainder, or the remainder less |y| (then negative; exact too, as
** the remainder is at least 7/8 |y| there: Sterbenz), put back by adding
** |y| (exact, the sum being the remainder). The sign is x's, zero too.
** *slow is set for what is left to libm (NaN, infinities, y = 0, quotients
** from 2^(p - 2)), which the caller redoes: the same bits as fmod. */
#define LAK_FMODLIM LAK_PICK(0x1p51, 0x1p22f)
static inline LAK_REAL LAK(fmodq)(LAK_REAL x, LAK_REAL y, int *slow) {
  LAK_REAL ax = LAK_M(fabs)(x), ay = LAK_M(fabs)(y), q = LAK_M(trunc)(ax / ay);
  LAK_REAL r = LAK_M(fma)(-q, ay, ax);
  *slow |= !(q < LAK_FMODLIM) | !(ay < (LAK_REAL)HUGE_VAL);
  return LAK_M(copysign)(r < 0 ? r + ay : r, x);
}

static inline LAK_REAL LAK(modq)(LAK_REAL x, LAK_REAL y, int *slow) {
  return LAK(remof)(LAK(fmodq)(x, y, slow), y);
}
static inline LAK_REAL LAK(rem)(LAK_REAL x, LAK_REAL y) { return LAK(remof)(LAK_M(fmod)(x, y), y); }

/* hypot without libm's loop. Doubles: h = sqrt(a^2 + b^2) (a >= b), then
** one Newton step on h^2 = a^2 + b^2 with the residual h^2 - a^2 - b^2
** computed to about 2^-106 by fmas (Borges, "An Improved Algorithm for
** hypot(a, b)", 2019: the fused correction), which leaves h correctly
** rounded but for rare ties; for a in [2^-480, 2^500] (no square
** overflows, and the fmas' error terms stay normal) and no NaN, the rest
** libm's. Floats: the
** squares are exact in double, their sum rounded once, its square root
** rounded to float, as glibc's hypotf; NaN and infinities libm's (C99:
** hypot(inf, NaN) = inf). */
#if LAK_DOUBLE
static inline double LAK(hypotq)(double x, double y, int *slow) {
  double ax = fabs(x), ay = fabs(y), a = ax > ay ? ax : ay, b = ax > ay ? ay : ax;
  double h = sqrt(fma(a, a, b * b)), hh = h * h, aa = a * a;
  double c = (fma(-b, b, hh - aa) + fma(h, h, -hh)) - fma(a, a, -aa);
  *slow |= !(a >= 0x1p-480 && a <= 0x1p500 && b == b);      /* b: x's NaN */
  return h - c / (2 * h);
}
#else
static inline float LAK(hypotq)(float x, float y, int *slow) {
  double dx = x, dy = y;
  *slow |= !(fabsf(x) < HUGE_VALF && fabsf(y) < HUGE_VALF);
  return (float)sqrt(dx * dx + dy * dy);
}
#endif

/* The column loops of fmod, NumPy's remainder and hypot in loops.h's
** shapes: the fast function everywhere (fast(x, y, &slow)), then the exact
** one (libm's) where it flagged an entry. */
#define LAK_FASTLOOP(fast, xi, yi) \
  for (i = 0; i < m; i++) pc[i] = fast((xi), (yi), &slow);
#define LAK_FASTCOL(name, fast, exact) \
  LAK_CLONES_FMA static void name(size_t m, const LAK_REAL *restrict pa, ptrdiff_t ra, \
                                  const LAK_REAL *restrict pb, ptrdiff_t rb, \
                                  LAK_REAL *restrict pc) { \
    size_t i; \
    int slow = 0; \
    if (ra == 1 && rb == 1) { LAK_FASTLOOP(fast, pa[i], pb[i]) } \
    else if (ra == 1 && rb == 0) { LAK_FASTLOOP(fast, pa[i], *pb) } \
    else if (ra == 0 && rb == 1) { LAK_FASTLOOP(fast, *pa, pb[i]) } \
    else { LAK_FASTLOOP(fast, pa[(ptrdiff_t)i * ra], pb[(ptrdiff_t)i * rb]) } \
    if (slow) \
      for (i = 0; i < m; i++) { \
        LAK_REAL x = pa[(ptrdiff_t)i * ra], y = pb[(ptrdiff_t)i * rb]; \
        int s = 0; \
        (void)fast(x, y, &s); \
        if (s) pc[i] = exact(x, y); \
      } }
LAK_FASTCOL(LAK(b_fmod), LAK(fmodq), LAK_M(fmod))
LAK_FASTCOL(LAK(b_mod), LAK(modq), LAK(rem))
LAK_FASTCOL(LAK(b_hypot), LAK(hypotq), LAK_M(hypot))
#undef LAK_FASTLOOP
#undef LAK_FASTCOL
#undef LAK_FMODLIM

typedef void (*LAK(Binary))(size_t, const LAK_REAL *, ptrdiff_t, const LAK_REAL *, ptrdiff_t,
                            LAK_REAL *);

static const LAK(Binary) LAK(binaries)[LAK_NBIN] = {
  LAK(b_max), LAK(b_min), LAK(b_lt), LAK(b_le), LAK(b_gt), LAK(b_ge), LAK(b_eq),
  LAK(b_ne), LAK(b_atan2), LAK(b_hypot), LAK(b_fmod), LAK(b_mod)
};

void LAK(binary)(lak_Bin op, int m, int n, LAK(Arg) a, LAK(Arg) b, LAK_REAL *c, int ldc) {
  LAK(Binary) f = LAK(binaries)[op];
  if (m > 0 && n > 0) LAK_DRIVE2(f, m, n, a, b, c, ldc);
}

/* The comparisons and the tests isnan, isinf, isfinite into bytes, 1 or 0
** (bool matrices): each a compare and a pack, no branch. */
#define COMPARE(name, expr) LAK_COL2B(LAK(c_##name), LAK_REAL, unsigned char, expr)
COMPARE(lt, x < y)  COMPARE(le, x <= y)  COMPARE(gt, x > y)
COMPARE(ge, x >= y) COMPARE(eq, x == y)  COMPARE(ne, x != y)

typedef void (*LAK(Compare))(size_t, const LAK_REAL *, ptrdiff_t, const LAK_REAL *, ptrdiff_t,
                             unsigned char *);

static const LAK(Compare) LAK(compares)[LAK_NE - LAK_LT + 1] = {
  LAK(c_lt), LAK(c_le), LAK(c_gt), LAK(c_ge), LAK(c_eq), LAK(c_ne)
};

/* a column of comparison k (op - LAK_LT): the x86 code's multiple of 8
** entries when the operands move by one or stay, the loop above for the rest */
static void LAK(ccol)(int k, size_t m, const LAK_REAL *pa, ptrdiff_t ra, const LAK_REAL *pb,
                      ptrdiff_t rb, unsigned char *pc) {
  size_t i = 0;
#if LAK_CMPFAST
  LAK_REAL ta[16], tb[16];
  int j;
  if (m >= 8 && ((ra | rb) & ~(ptrdiff_t)1) == 0) {
    if (ra == 0) { for (j = 0; j < 16; j++) ta[j] = *pa; pa = ta; }
    if (rb == 0) { for (j = 0; j < 16; j++) tb[j] = *pb; pb = tb; }
    i = LAK_PICK(cmpfast_d, cmpfast_s)(k, m, pa, ra, pb, rb, pc);
  }
#endif
  if (i < m) LAK(compares)[k](m - i, pa + (ptrdiff_t)i * ra, ra, pb + (ptrdiff_t)i * rb, rb, pc + i);
}

void LAK(compare)(lak_Bin op, int m, int n, LAK(Arg) a, LAK(Arg) b, unsigned char *c, int ldc) {
  int k = op - LAK_LT;
#define LAK_CCOL(len, pa, ra, pb, rb, pc) LAK(ccol)(k, len, pa, ra, pb, rb, pc)
  if (m > 0 && n > 0) LAK_DRIVE2(LAK_CCOL, m, n, a, b, c, ldc);
#undef LAK_CCOL
}

#define TEST(name, expr) \
  LAK_CLONES static void LAK(t_##name)(const LAK_REAL *restrict x, unsigned char *restrict y, \
                                       size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) { LAK_REAL v = x[i]; y[i] = (unsigned char)(expr); } }
TEST(isnan, v != v)
TEST(isinf, LAK_M(fabs)(v) == (LAK_REAL)INFINITY)
TEST(isfinite, LAK_M(fabs)(v) < (LAK_REAL)INFINITY)

/* a column of test f: the x86 code's multiple of 64 entries, the loops
** above for the rest */
static void LAK(tcol)(lak_Fn f, const LAK_REAL *x, unsigned char *y, size_t n) {
  size_t i = 0;
#if LAK_CMPFAST
  i = LAK_PICK(testfast_d, testfast_s)((int)f, n, x, y);
#endif
  if (f == LAK_ISNAN) LAK(t_isnan)(x + i, y + i, n - i);
  else if (f == LAK_ISINF) LAK(t_isinf)(x + i, y + i, n - i);
  else LAK(t_isfinite)(x + i, y + i, n - i);
}

void LAK(test)(lak_Fn f, int m, int n, const LAK_REAL *A, int lda, unsigned char *B, int ldb) {
  int j;
  if (m <= 0 || n <= 0) return;
  if (lda == m && ldb == m) { LAK(tcol)(f, A, B, (size_t)m * (size_t)n); return; }
  for (j = 0; j < n; j++) LAK(tcol)(f, A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, (size_t)m);
}

/* ---------------------------------------------------------------- ternary */

/* c = x ~= 0 ? y : z (NaN counts as nonzero, as bool(nan) in NumPy) */
LAK_COL3(LAK(t_where), LAK_REAL, x != 0 ? y : z)
/* c = minimum(maximum(x, lo), hi): NumPy's clip (NaN propagates; lo > hi
** gives hi) */
static inline LAK_REAL LAK(clip1)(LAK_REAL x, LAK_REAL lo, LAK_REAL hi) {
  LAK_REAL t = x > lo ? x : lo, u;
  t = x != x ? x : t;                  /* BMAX(x, lo), BMIN(t, hi) as selects */
  u = t < hi ? t : hi;
  return t != t ? t : u;
}
LAK_COL3(LAK(t_clip), LAK_REAL, LAK(clip1)(x, y, z))

/* c = k ? x : y down a column, k a bool mask's bytes */
LAK_CLONES static void LAK(bwhere_col)(size_t m, const unsigned char *restrict k,
                                       const LAK_REAL *restrict pa, ptrdiff_t ra,
                                       const LAK_REAL *restrict pb, ptrdiff_t rb,
                                       LAK_REAL *restrict pc) {
  size_t i;          /* both read, then a select: a blend, not masked loads */
  if (ra == 1 && rb == 1)
    for (i = 0; i < m; i++) { LAK_REAL x = pa[i], y = pb[i]; pc[i] = k[i] ? x : y; }
  else if (ra == 1 && rb == 0) {     /* a number (where(M, A, 0)): the stride-0 */
    LAK_REAL y = *pb;                /* loop below was a branch an entry */
    for (i = 0; i < m; i++) { LAK_REAL x = pa[i]; pc[i] = k[i] ? x : y; }
  } else if (ra == 0 && rb == 1) {
    LAK_REAL x = *pa;
    for (i = 0; i < m; i++) { LAK_REAL y = pb[i]; pc[i] = k[i] ? x : y; }
  } else if (ra == 0 && rb == 0) {
    LAK_REAL x = *pa, y = *pb;
    for (i = 0; i < m; i++) pc[i] = k[i] ? x : y;
  } else
    for (i = 0; i < m; i++) {
      LAK_REAL x = pa[(ptrdiff_t)i * ra], y = pb[(ptrdiff_t)i * rb];
      pc[i] = k[i] ? x : y;
    }
}

void LAK(bwhere)(int m, int n, const unsigned char *K, int ldk, LAK(Arg) a, LAK(Arg) b,
                 LAK_REAL *c, int ldc) {
  int j;
  for (j = 0; j < n && m > 0; j++)
    LAK(bwhere_col)((size_t)m, K + (ptrdiff_t)j * ldk, a.p + j * a.cs, a.rs, b.p + j * b.cs,
                    b.rs, c + (ptrdiff_t)j * ldc);
}

void LAK(where)(int m, int n, LAK(Arg) a, LAK(Arg) b, LAK(Arg) k, LAK_REAL *c, int ldc) {
  if (m > 0 && n > 0) LAK_DRIVE3(LAK(t_where), m, n, a, b, k, c, ldc);
}

void LAK(clip)(int m, int n, LAK(Arg) a, LAK(Arg) b, LAK(Arg) k, LAK_REAL *c, int ldc) {
  if (m > 0 && n > 0) LAK_DRIVE3(LAK(t_clip), m, n, a, b, k, c, ldc);
}

/* ---------------------------------------------------------------- counts */

/* the nonzeros of a column, counted in an integer of the element's width:
** a compare and a subtract a lane, no branch */
LAK_CLONES static size_t LAK(nnz_col)(size_t m, const LAK_REAL *restrict a) {
  LAK_UINT c = 0;
  size_t i;
  for (i = 0; i < m; i++) c += a[i] != 0;
  return (size_t)c;
}

/* r[i] += (a[i] != 0), down a column */
LAK_CLONES static void LAK(nnz_add)(size_t m, const LAK_REAL *restrict a, double *restrict r) {
  size_t i;
  for (i = 0; i < m; i++) r[i] += a[i] != 0 ? 1.0 : 0.0;
}

void LAK(nonzeros)(int dim, int m, int n, const LAK_REAL *A, int lda, double *r) {
  size_t all = 0;
  int j;
  if (dim == 2) {
    for (j = 0; j < m; j++) r[j] = 0;
    for (j = 0; j < n && m > 0; j++) LAK(nnz_add)((size_t)m, A + (ptrdiff_t)j * lda, r);
    return;
  }
  if (m > 0 && dim == 0 && lda == m && (LAK_DOUBLE || (double)m * n < 2147483648.0)) all = LAK(nnz_col)((size_t)m * (size_t)n, A);
  else for (j = 0; j < n && m > 0; j++) {
    size_t c = LAK(nnz_col)((size_t)m, A + (ptrdiff_t)j * lda);
    if (dim == 1) r[j] = (double)c;
    all += c;
  }
  if (dim == 1 && m <= 0) for (j = 0; j < n; j++) r[j] = 0;
  if (dim == 0) r[0] = (double)all;
}

/* ---------------------------------------------------------------- tests */

/* NumPy's isclose of one pair, in double: equal (infinities of one sign
** included), or both finite with |x - y| <= atol + rtol |y|, or both NaN
** with equal_nan. An infinity is never close to a finite number, whatever
** rtol: rtol |inf| would be inf. */
static int LAK(close1)(double x, double y, double rtol, double atol, int equal_nan) {
  if (x == y) return 1;
  if (isfinite(x) && isfinite(y)) return fabs(x - y) <= atol + rtol * fabs(y);
  return equal_nan && isnan(x) && isnan(y);
}

int LAK(allclose)(int m, int n, LAK(Arg) a, LAK(Arg) b, double rtol, double atol) {
  int i, j;
  for (j = 0; j < n && m > 0; j++)
    for (i = 0; i < m; i++)
      if (!LAK(close1)(a.p[i * a.rs + j * a.cs], b.p[i * b.rs + j * b.cs], rtol, atol, 0))
        return 0;
  return 1;
}

/* close1 without a branch, for a column of pairs a[i * ra], b[i * rb] (ra,
** rb 0 or 1): |x| <= DBL_MAX is isfinite(x), both tested (an infinite
** tolerance, or rtol |y| overflowing, passes |Inf - y| = Inf) */
#define LAK_CLOSE(x, y) (((x) == (y)) | \
  ((fabs((x) - (y)) <= atol + rtol * fabs(y)) & (fabs(x) <= DBL_MAX) & (fabs(y) <= DBL_MAX)) | \
  (equal_nan & ((x) != (x)) & ((y) != (y))))
LAK_CLONES static void LAK(close_col)(size_t m, const LAK_REAL *restrict a, const LAK_REAL *restrict b,
                                      double rtol, double atol, int equal_nan,
                                      unsigned char *restrict c) {
  size_t i;
  for (i = 0; i < m; i++) {
    double x = a[i], y = b[i];
    c[i] = (unsigned char)LAK_CLOSE(x, y);
  }
}

void LAK(isclose)(int m, int n, LAK(Arg) a, LAK(Arg) b, double rtol, double atol,
                  int equal_nan, unsigned char *c, int ldc) {
  int i, j;
  for (j = 0; j < n && m > 0; j++) {
    const LAK_REAL *pa = a.p + j * a.cs, *pb = b.p + j * b.cs;
    unsigned char *pc = c + (ptrdiff_t)j * ldc;
    if (a.rs == 1 && b.rs == 1) { LAK(close_col)((size_t)m, pa, pb, rtol, atol, equal_nan, pc); continue; }
    for (i = 0; i < m; i++) {
      double x = pa[i * a.rs], y = pb[i * b.rs];
      pc[i] = (unsigned char)LAK_CLOSE(x, y);
    }
  }
}
#undef LAK_CLOSE
