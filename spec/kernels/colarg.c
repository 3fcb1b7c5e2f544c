/*
** spec/kernels/colarg.c: lak_colargshort / lak_scolargshort (argmax and
** argmin of short columns in AVX-512 vectors) against lak_argext on each
** column: heights 1..16 (floats 1..32), leading dimensions past the
** height, entries from a pool with ties, -0.0 and 0.0, NaN (the first
** wins), +-Inf and columns that are all -Inf or all +Inf (the padding's
** value), and the heights where the kernel declines.
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels.h"

static unsigned long long st = 88172645463325252ULL;
static unsigned rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (unsigned)(st >> 11); }

static const double POOL[] = {-2, -1, -0.0, 0.0, 0.5, 1, 3, HUGE_VAL, -HUGE_VAL, NAN};

static double value(int kind, int j) {
  if (kind == 0) return POOL[rnd() % (sizeof POOL / sizeof POOL[0] - (j % 3 ? 1 : 0))];
  if (kind == 1) return j % 2 ? -HUGE_VAL : HUGE_VAL;              /* a whole column of one */
  return ((double)rnd() - 2147483648.0) / 1024;
}

static void one(size_t m, size_t n, int kind) {
  size_t lda = m + 5, i, j;
  double *a = malloc(lda * n * sizeof *a), *out = malloc(2 * n * sizeof *out);
  float *af = malloc(lda * n * sizeof *af);
  int want, bad = 0, badf = 0, ran, ranf;
  for (j = 0; j < n; j++)
    for (i = 0; i < lda; i++) { a[i + j * lda] = value(kind, (int)j); af[i + j * lda] = (float)a[i + j * lda]; }
  for (want = 0; want < 2; want++) {
    ran = lak_colargshort(want, m, n, a, lda, out, 2);
    for (j = 0; ran && j < n; j++)
      bad += out[2 * j] != (double)lak_argext(want, m, a + j * lda, 1) + 1;
    CHECK(bad == 0, "double m=%zu n=%zu kind=%d max=%d: %d wrong", m, n, kind, want, bad);
    ranf = lak_scolargshort(want, m, n, af, lda, out, 1);
    for (j = 0; ranf && j < n; j++)
      badf += out[j] != (double)lak_sargext(want, m, af + j * lda, 1) + 1;
    CHECK(badf == 0, "float m=%zu n=%zu kind=%d max=%d: %d wrong", m, n, kind, want, badf);
    CHECK(!ran || m <= 16, "double m=%zu: runs only to 16", m);
    CHECK(!ranf || m <= 32, "float m=%zu: runs only to 32", m);
  }
  free(a); free(af); free(out);
}

int main(void) {
  size_t m;
  int kind;
  for (m = 1; m <= 34; m++)
    for (kind = 0; kind < 3; kind++) {
      one(m, 1, kind);
      one(m, 300, kind);
    }
  return ck_done("colarg");
}
