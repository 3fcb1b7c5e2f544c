/*
** spec/kernels/gram.c: lak_gramt and lak_sgramt, C = A^T A of a tall thin
** A (kernels/gram.c), against sums in long double: every shape from 1 to
** LAK_GRAMT_MAX columns, row counts around the vector width and the pass
** (GR_CHUNK rows), A a block of a larger matrix (lda > k); C symmetric bit
** for bit, nothing outside its n x n block written, each entry within the
** error bound of a sum of k products (floats: a double's sum rounded once;
** 1e6 rows of 0.1f), the same bits on a second call; the
** decline (no AVX-512F, 0 or too many columns) writes nothing. Data with
** products and sums exact in double (small integers) must come out exact.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"

#define KMAX 1100
#define LDA (KMAX + 5)
#define NMAX (LAK_GRAMT_MAX + 1)
#define LDC (NMAX + 3)
#define GUARD -7.25

static double A[LDA * NMAX], C[LDC * NMAX], C2[LDC * NMAX];
static float As[LDA * NMAX], Cs[LDC * NMAX], Cs2[LDC * NMAX];
static unsigned long long rng = 88172645463325252ULL;

static double unif(void) {             /* xorshift64, in [-1, 1) */
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static void fill(int integers) {
  int i;
  for (i = 0; i < LDA * NMAX; i++) {
    A[i] = integers ? (double)(int)(unif() * 8) : unif();
    As[i] = (float)A[i];
  }
}

/* C's n x n block against long double sums; the guard entries around it kept */
static void check_d(int k, int n, int off, int exact) {
  const double *a = A + off;
  int i, j, r, ran;
  for (i = 0; i < LDC * NMAX; i++) C[i] = C2[i] = GUARD;
  ran = lak_gramt(k, n, a, LDA, C, LDC);
  if (!ran) {
    for (i = 0; i < LDC * NMAX; i++) CHECK(C[i] == GUARD, "declined, yet C[%d] written", i);
    return;
  }
  lak_gramt(k, n, a, LDA, C2, LDC);
  CHECK(memcmp(C, C2, sizeof C) == 0, "k %d n %d: a second call differs", k, n);
  for (j = 0; j < NMAX; j++)
    for (i = 0; i < LDC; i++) {
      double c = C[i + j * LDC];
      if (i >= n || j >= n) { CHECK(c == GUARD, "k %d n %d: C(%d, %d) written", k, n, i, j); continue; }
      if (i > j) { CHECK(c == C[j + i * LDC], "k %d n %d: C(%d, %d) ~= C(%d, %d)", k, n, i, j, j, i); continue; }
      {
        long double s = 0, sa = 0;
        for (r = 0; r < k; r++) {
          long double p = (long double)a[r + i * LDA] * a[r + j * LDA];
          s += p; sa += p < 0 ? -p : p;
        }
        if (exact) CHECK(c == (double)s, "k %d n %d: C(%d, %d) %.17g, exact %.17Lg", k, n, i, j, c, s);
        else CLOSE(c, (double)s, (double)(sa * (k + 2) * 1.12e-16L));
      }
    }
}

static void check_s(int k, int n, int off) {
  const float *a = As + off;
  int i, j, r, ran;
  for (i = 0; i < LDC * NMAX; i++) Cs[i] = Cs2[i] = (float)GUARD;
  ran = lak_sgramt(k, n, a, LDA, Cs, LDC);
  if (!ran) {
    for (i = 0; i < LDC * NMAX; i++) CHECK(Cs[i] == (float)GUARD, "declined, yet Cs[%d] written", i);
    return;
  }
  lak_sgramt(k, n, a, LDA, Cs2, LDC);
  CHECK(memcmp(Cs, Cs2, sizeof Cs) == 0, "float k %d n %d: a second call differs", k, n);
  for (j = 0; j < NMAX; j++)
    for (i = 0; i < LDC; i++) {
      float c = Cs[i + j * LDC];
      if (i >= n || j >= n) { CHECK(c == (float)GUARD, "float k %d n %d: C(%d, %d) written", k, n, i, j); continue; }
      if (i > j) { CHECK(c == Cs[j + i * LDC], "float k %d n %d: C(%d, %d) ~= C(%d, %d)", k, n, i, j, j, i); continue; }
      {
        double s = 0, sa = 0;
        for (r = 0; r < k; r++) {
          double p = (double)a[r + i * LDA] * a[r + j * LDA];
          s += p; sa += fabs(p);
        }
        /* summed in double, rounded to float once */
        CLOSE(c, s, fabs(s) * 6.0e-8 + sa * (k + 2) * 1.12e-16);
      }
    }
}

int main(void) {
  static const int ks[] = {1, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 263, 511, 1000, 1031, 1100};
  int a, n;
  CHECK(lak_gramt(10, 0, A, LDA, C, LDC) == 0, "no columns: declined");
  CHECK(lak_gramt(10, LAK_GRAMT_MAX + 1, A, LDA, C, LDC) == 0, "too many columns: declined");
  CHECK(lak_sgramt(0, 4, As, LDA, Cs, LDC) == 0, "no rows: declined");
  fill(0);
  for (a = 0; a < (int)(sizeof ks / sizeof ks[0]); a++)
    for (n = 1; n <= LAK_GRAMT_MAX; n++) {
      check_d(ks[a], n, a % 3, 0);
      check_s(ks[a], n, a % 3);
    }
  fill(1);                               /* small integers: every sum exact */
  for (n = 1; n <= LAK_GRAMT_MAX; n += 3) check_d(1031, n, 2, 1);
  {                                      /* 1e6 rows of 0.1f: a float sum was far off */
    static float big[1000000 * 2];
    float c[4];
    double want = 1e6 * (double)0.1f * (double)0.1f;
    int i;
    for (i = 0; i < 2000000; i++) big[i] = 0.1f;
    if (lak_sgramt(1000000, 2, big, 1000000, c, 2))
      for (i = 0; i < 4; i++) CLOSE(c[i], want, want * 6.0e-8);
  }
  if (!lak_cpu_has(LAK_CPU_AVX512F)) printf("kernels/gram: no AVX-512F here: the declines checked\n");
  return ck_done("gram");
}
