/*
** spec/kernels/numpy_rng.c: NumPy's streams (kernels/numpy_rng.c) without
** Lua. MT19937 against its authors' published outputs (mt19937ar.out);
** SeedSequence + PCG64 against NumPy 1.24.2's state and raw draws; the
** bounded integers' three paths and the kept 32-bit half; the fill order;
** the ziggurat normals' moments and tail.
*/
#include "check.h"
#include "kernels.h"

enum { N = 100000 };

/* the double NumPy makes of two 32-bit MT19937 outputs */
static double mtdouble(uint32_t a, uint32_t b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) / 9007199254740992.0;
}

/* mt19937ar.c's test output: init_genrand(5489) starts 3499211612,
** 581869302, 3890346734, 3586334585; init_by_array({0x123, 0x234, 0x345,
** 0x456}) starts 1067595299, 955945823, 477289528, 4107218783 */
static void mt_reference(void) {
  static const uint32_t key[4] = {0x123, 0x234, 0x345, 0x456};
  lak_NpMT s;
  double u;
  lak_npmt_seed(&s, 5489);
  u = lak_npmt_double(&s);
  CHECK(u == mtdouble(3499211612u, 581869302u), "init_genrand(5489): got %a", u);
  u = lak_npmt_double(&s);
  CHECK(u == mtdouble(3890346734u, 3586334585u), "init_genrand(5489), 2nd: got %a", u);
  lak_npmt_seed_array(&s, key, 4);
  u = lak_npmt_double(&s);
  CHECK(u == mtdouble(1067595299u, 955945823u), "init_by_array: got %a", u);
  u = lak_npmt_double(&s);
  CHECK(u == mtdouble(477289528u, 4107218783u), "init_by_array, 2nd: got %a", u);
}

/* the polar method keeps the pair's first variate; a reseed drops it
** (numpy 1.24.2: np.random.seed(42); np.random.randn(2)) */
static void mt_gauss(void) {
  lak_NpMT s;
  double a, b;
  lak_npmt_seed(&s, 42);
  a = lak_npmt_gauss(&s);
  CHECK(s.has_gauss == 1, "a variate kept after the first draw");
  b = lak_npmt_gauss(&s);
  CHECK(s.has_gauss == 0, "nothing kept after the second");
  CHECK(a == 0x1.fca2a28a9307cp-2 && b == -0x1.1b2a505de052ap-3, "seed 42: got %a %a", a, b);
  (void)lak_npmt_gauss(&s);
  lak_npmt_seed(&s, 42);
  CHECK(s.has_gauss == 0 && lak_npmt_gauss(&s) == a, "seed forgets the kept variate");
}

/* numpy 1.24.2: PCG64(0).state (state and inc as 128-bit integers) and
** PCG64(42).random_raw(3) */
static void pcg_reference(void) {
  static const uint32_t zero = 0, fortytwo = 42;
  static const uint64_t raw[3] = {0xc621fbcd16d92688ULL, 0x705a5661a791ffc1ULL,
                                  0xdbcd12c26eda1624ULL};
  lak_NpPCG g;
  int i;
  lak_nppcg_seed(&g, &zero, 1);
  CHECK(g.hi == 0x1aa1b5345996452dULL && g.lo == 0x09585eb7a69561e3ULL,
        "PCG64(0) state: %016llx%016llx", (unsigned long long)g.hi, (unsigned long long)g.lo);
  CHECK(g.inchi == 0x418ddadb3af71a82ULL && g.inclo == 0x588133bc447873a9ULL,
        "PCG64(0) inc: %016llx%016llx", (unsigned long long)g.inchi,
        (unsigned long long)g.inclo);
  lak_nppcg_seed(&g, &fortytwo, 1);
  for (i = 0; i < 3; i++) {
    uint64_t x = lak_nppcg_next64(&g);
    CHECK(x == raw[i], "PCG64(42) draw %d: %016llx", i + 1, (unsigned long long)x);
  }
}

/* numpy 1.24.2: g = Generator(PCG64(0)); g.integers(0, 2**40, 3) (64-bit
** Lemire), g.integers(0, 2**32, 2) (rng = 2^32-1: raw 32-bit draws),
** g.integers(0, 2**32 - 1, 1) (32-bit Lemire on a fresh 64-bit draw,
** whose high half is kept) */
static void bounded(void) {
  static const uint32_t zero = 0;
  static const uint64_t want[6] = {700346781657ULL, 296633628802ULL, 45050865998ULL,
                                   323153949ULL, 70985654ULL, 752767290ULL};
  static const uint64_t rng[6] = {(1ULL << 40) - 1, (1ULL << 40) - 1, (1ULL << 40) - 1,
                                  0xffffffffULL, 0xffffffffULL, 0xfffffffeULL};
  lak_NpPCG g;
  int i;
  lak_nppcg_seed(&g, &zero, 1);
  for (i = 0; i < 6; i++) {
    uint64_t x = lak_nppcg_bounded(&g, rng[i]);
    CHECK(x == want[i], "draw %d: expected %llu, got %llu", i + 1,
          (unsigned long long)want[i], (unsigned long long)x);
    if (i == 4) CHECK(g.has32 == 0, "two 32-bit draws used both halves of one");
  }
  CHECK(g.has32 == 1, "the last draw keeps a half");
  CHECK(lak_nppcg_bounded(&g, 0) == 0 && g.has32 == 1, "rng 0 draws nothing");
}

/* the fill walks rows first into a column-major matrix with ld > m, and
** float32 entries are the double draws rounded (numpy 1.24.2:
** Generator(PCG64(0)).standard_normal((2, 3))) */
static void fill_order(void) {
  static const uint32_t zero = 0;
  static const double want[2][3] = {
    {0x1.017ed89db8441p-3, -0x1.0e8cfe9bd45ccp-3, 0x1.47e57a468b06dp-1},
    {0x1.adabbec84d4f0p-4, -0x1.1243418e643edp-1, 0x1.7245f95ced1e6p-2}};
  double A[4 * 3];
  float F[4 * 3];
  lak_NpPCG g;
  int i, j, bad = 0, pad = 0;
  for (i = 0; i < 12; i++) A[i] = F[i] = -99.0;
  lak_nppcg_seed(&g, &zero, 1);
  lak_np_fill(&g, LAK_NP_PCG_NORMAL, 2, 3, A, NULL, 4, 0, 0);
  lak_nppcg_seed(&g, &zero, 1);
  lak_np_fill(&g, LAK_NP_PCG_NORMAL, 2, 3, NULL, F, 4, 0, 0);
  for (i = 0; i < 2; i++)
    for (j = 0; j < 3; j++) {
      bad += A[i + 4 * j] != want[i][j];
      bad += F[i + 4 * j] != (float)want[i][j];
    }
  for (j = 0; j < 3; j++) pad += A[2 + 4 * j] != -99.0 || A[3 + 4 * j] != -99.0;
  CHECK(bad == 0, "%d entries differ from NumPy's", bad);
  CHECK(pad == 0, "%d columns written below row m", pad);
}

/* ziggurat normals: mean 0, variance 1 within 4 sigma; the tail beyond r
** (P(|x| > r) = 2.58e-4) is reached and gives |x| > r */
static void normal_moments(void) {
  static const uint32_t seed = 8;
  lak_NpPCG g;
  double s = 0.0, s2 = 0.0, mean, var, p = 2.5806e-4;
  int i, tail = 0;
  lak_nppcg_seed(&g, &seed, 1);
  for (i = 0; i < N; i++) {
    double x = lak_nppcg_normal(&g);
    s += x; s2 += x * x;
    tail += fabs(x) > 3.6541528853610088;
  }
  mean = s / N;
  var = s2 / N - mean * mean;
  CLOSE(mean, 0.0, 4.0 / sqrt((double)N));
  CLOSE(var, 1.0, 4.0 * sqrt(2.0 / N));
  CLOSE((double)tail / N, p, 4.0 * sqrt(p / N));
}

int main(void) {
  mt_reference();
  mt_gauss();
  pcg_reference();
  bounded();
  fill_order();
  normal_moments();
  return ck_done("numpy_rng");
}
