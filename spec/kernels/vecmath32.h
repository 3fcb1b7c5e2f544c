/*
** spec/kernels/vecmath32.h: kernels/vecmath.c's pow of floats (lak_vpowf),
** part of spec/kernels/vecmath.c (it sees vecmath.c's statics): the error
** in float ulp against powl (64 bits: the correctly rounded float is
** (float)powl but within 2^-40 ulp of a tie), the fraction of results not
** correctly rounded, C99's special cases (F.9.4.4), and the same bits on
** every path (AVX-512, the portable loops, one element, strided).
*/

static float fbits(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
static uint32_t bitsf(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static int samef(float a, float b) { return bitsf(a) == bitsf(b) || (isnan(a) && isnan(b)); }
static float unifp(double lo, double hi) { return (float)unif(lo, hi); }

/* |got - want| in float ulp of want (2^-149 below FLT_MIN); want beyond
** FLT_MAX: ulp of FLT_MAX */
static double ulperrf(float got, long double want) {
  int e;
  if ((isnan(got) && isnan((double)want)) || (long double)got == want) return 0;
  if (isinf(got) && (float)want == got) return 0;
  if (isnan(got) || isinf(got)) return INFINITY;
  frexpl(fabsl(want) < FLT_MAX ? want : (long double)FLT_MAX, &e);
  if (e < -125) e = -125;
  return (double)(fabsl((long double)got - want) / ldexpl(1.0L, e - 24));
}

/* pairs from gen, 5 N of them: the largest error (<= bound) and the
** results not correctly rounded (at most 1 in 10^5) */
static void powfsweep(const char *name, void (*gen)(float *, float *), double bound) {
  size_t n = 5 * N, i, wrong = 0;
  float *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y), *z = malloc(n * sizeof *z);
  double worst = 0;
  float ax = 0, ay = 0;
  for (i = 0; i < n; i++) gen(x + i, y + i);
  lak_vpowf(n, x, 1, y, 1, z);
  for (i = 0; i < n; i++) {
    long double w = powl(x[i], y[i]);
    double e = ulperrf(z[i], w);
    wrong += !samef(z[i], (float)w);
    if (e > worst) { worst = e; ax = x[i]; ay = y[i]; }
  }
  printf("  %-30s max %.7f ulp at powf(%.9g, %.9g), %zu of %zu not correctly rounded\n", name,
         worst, ax, ay, wrong, n);
  CHECK(worst <= bound, "%s: %.6f ulp at powf(%.9g, %.9g)", name, worst, ax, ay);
  CHECK(wrong <= n / 100000, "%s: %zu of %zu not correctly rounded", name, wrong, n);
  free(x); free(y); free(z);
}
static void f_bench(float *x, float *y) { *x = unifp(0.5, 4.5); *y = unifp(-8, 8); }
static void f_wide(float *x, float *y) {   /* every positive float, |y log2 x| to 160 */
  *x = fbits((uint32_t)(rnd64() % 0x7f800000u));
  *y = (float)(unif(-160, 160) / fabs(log2(*x) + 1e-30));
  if (rnd64() & 1) *y = unifp(-4, 4);
}
static void f_near1(float *x, float *y) {  /* x near 1, y large: y log2 x to +-150 */
  *x = 1 + unifp(-0x1p-8, 0x1p-8);
  *y = (float)(unif(-150, 150) / fabs(log2(*x) + 1e-30));
}
static void f_neg(float *x, float *y) {    /* x < 0, integer y */
  *x = -unifp(0.1, 10);
  *y = (float)((int)(rnd64() % 80) - 40);
}
static void f_edge(float *x, float *y) {   /* results near underflow, subnormal, overflow */
  int up = rnd64() & 1;
  *x = up ? unifp(1.1, 10) : unifp(0.1, 0.9);
  *y = (float)((up ? unif(120, 128.5) : unif(-151, -120)) / log2(*x));
}
static void f_fixed(float *x, float *y) {  /* the benchmark's exponents on [0, 1e4) */
  static const float ys[] = {2.5f, 1.7f, -0.3f, 3.0f, 7.0f, -2.0f};
  *x = unifp(0, 1e4);
  *y = ys[rnd64() % 6];
}

static float pwf(float x, float y) { float z; lak_vpowf(1, &x, 1, &y, 1, &z); return z; }

/* C99 F.9.4.4 */
static void powf_specials(void) {
  const float inf = INFINITY, nan_ = NAN, tiny = 0x1p-149f;
  CHECK(samef(pwf(nan_, 0), 1) && samef(pwf(inf, -0.0f), 1) && samef(pwf(-3, 0), 1), "powf(x, +-0) = 1");
  CHECK(samef(pwf(1, nan_), 1) && samef(pwf(1, inf), 1) && samef(pwf(1, -7.5f), 1), "powf(1, y) = 1");
  CHECK(isnan(pwf(nan_, 1)) && isnan(pwf(2, nan_)) && isnan(pwf(-1, nan_)), "NaN propagates");
  CHECK(isnan(pwf(-2, 0.5f)) && isnan(pwf(-0.5f, -1.5f)) && isnan(pwf(-tiny, 1e-30f)), "powf(x < 0, non-integer) is NaN");
  CHECK(samef(pwf(-1, inf), 1) && samef(pwf(-1, -inf), 1), "powf(-1, +-inf) = 1");
  CHECK(samef(pwf(0, -3), inf) && samef(pwf(-0.0f, -3), -inf) && samef(pwf(-0.0f, -2), inf) &&
        samef(pwf(0, -0.5f), inf) && samef(pwf(-0.0f, -inf), inf), "powf(+-0, y < 0)");
  CHECK(samef(pwf(0, 3), 0) && samef(pwf(-0.0f, 3), -0.0f) && samef(pwf(-0.0f, 2), 0) &&
        samef(pwf(-0.0f, 0.5f), 0) && samef(pwf(0, inf), 0), "powf(+-0, y > 0)");
  CHECK(samef(pwf(0.5f, -inf), inf) && samef(pwf(2, inf), inf) && samef(pwf(0.5f, inf), 0) &&
        samef(pwf(2, -inf), 0) && samef(pwf(-0.5f, inf), 0) && samef(pwf(-2, inf), inf), "powf(x, +-inf)");
  CHECK(samef(pwf(inf, -1), 0) && samef(pwf(inf, 0.5f), inf) && samef(pwf(-inf, 3), -inf) &&
        samef(pwf(-inf, 2), inf) && samef(pwf(-inf, 0.5f), inf) && samef(pwf(-inf, -3), -0.0f) &&
        samef(pwf(-inf, -2), 0) && samef(pwf(-inf, -0.5f), 0), "powf(+-inf, y)");
  CHECK(samef(pwf(-2, 3), -8) && samef(pwf(-2, -3), -0.125f) && samef(pwf(-3, 2), 9) &&
        samef(pwf(-2, 128), inf) && samef(pwf(-2, 127), -0x1p127f) && samef(pwf(-2, -149), -tiny),
        "powf(x < 0, integer y)");
  CHECK(samef(pwf(2, 128), inf) && samef(pwf(3e38f, 1.5f), inf) && samef(pwf(2, -150), 0) &&
        samef(pwf(2, -149), tiny) && samef(pwf(2, -149.5f), tiny) && samef(pwf(2, -149.6f), tiny) &&
        samef(pwf(2, -126), 0x1p-126f) && samef(pwf(0x1p-140f, 0.5f), 0x1p-70f) &&
        samef(pwf(tiny, 1), tiny) && samef(pwf(1e-30f, 1e9f), 0) && samef(pwf(10, 1e30f), inf),
        "overflow, underflow, subnormal results and arguments");
  CHECK(samef(pwf(3, 2.5f), (float)powl(3, 2.5L)) && samef(pwf(10, 7), 1e7f) &&
        samef(pwf(16, 0.25f), 2) && samef(pwf(2, 0.5f), (float)sqrtl(2)) && samef(pwf(1e4f, -0.5f), 0.01f),
        "exact and known values");
}

/* every position of a vector, a fixed x or y, strided (the scalar loop),
** AVX-512, the portable loops and one element: the same bits, on a mix of
** specials */
static void powf_paths(void) {
  enum { M = 100003 };
  float *x = malloc(M * sizeof *x), *y = malloc(M * sizeof *y), *a = malloc(M * sizeof *a);
  float *b = malloc(M * sizeof *b), *c = malloc(M * sizeof *c), two = 2.5f;
  static const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0x1p-149f, 3.0f, -2.0f};
  int i, bad = 0;
  for (i = 0; i < M; i++) {
    x[i] = i % 13 == 0 ? sp[i % 10] : i % 5 == 0 ? fbits((uint32_t)rnd64()) : unifp(-30, 30);
    y[i] = i % 11 == 0 ? sp[(i / 11) % 10] : i % 3 == 0 ? unifp(-30, 30) : i % 3 == 1 ? (float)(i % 11) - 5 : unifp(-200, 200);
  }
  vm32_powvv(M, x, y, a);
  for (i = 0; i < M; i++) bad += !samef(a[i], vm32_pow1(x[i], y[i]));
  lak_vpowf(M, x, 1, y, 1, b);
  for (i = 0; i < M; i++) bad += !samef(a[i], b[i]) + !samef(b[i], pwf(x[i], y[i]));
  lak_vpowf(M, x, 1, &two, 0, b);
  lak_vpowf((M + 1) / 2, x, 2, &two, 0, c);
  for (i = 0; i < M; i++) bad += !samef(b[i], vm32_pow1(x[i], two)) + (2 * i < M && !samef(c[i], b[2 * i]));
  lak_vpowf(M, &two, 0, y, 1, b);
  for (i = 0; i < M; i++) bad += !samef(b[i], vm32_pow1(two, y[i]));
  CHECK(bad == 0, "%d powf results differ between paths", bad);
  printf("  powf: %s, portable, scalar and strided loops compared\n",
         lak_vecmath_native() ? "AVX-512" : "(no AVX-512)");
  free(x); free(y); free(a); free(b); free(c);
}

static void powf_all(void) {
  printf("kernels/vecmath: powf against powl, %zu pairs a range\n", 5 * N);
  powfsweep("powf [0.5, 4.5] ^ [-8, 8]", f_bench, 0.5005);
  powfsweep("powf wide", f_wide, 0.5005);
  powfsweep("powf x near 1, y large", f_near1, 0.5005);
  powfsweep("powf x < 0, integer y", f_neg, 0.5005);
  powfsweep("powf near under/overflow", f_edge, 0.5005);
  powfsweep("powf [0, 1e4] ^ 2.5, 1.7 ...", f_fixed, 0.5005);
  powf_specials();
  powf_paths();
}
