/*
** spec/kernels/select.c: lak_select against qsort: for every length to 300
** and some to 200000, inputs random, with many ties (a few distinct
** values, mostly one value, all equal), sorted, reversed, organ-pipe and
** with infinities and signed zeros, and every k (short lines) or some:
** x[k] is the sorted line's entry k, entries before it are <= and after
** it >=, and the line holds the same entries as before (sorted again and
** compared). lak_minof against a loop.
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels.h"

static unsigned long long st = 88172645463325252ULL;
static unsigned rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (unsigned)(st >> 11); }

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* line of kind kind: 0 random, 1 three values, 2 mostly zeros, 3 all
** equal, 4 ascending, 5 descending, 6 organ pipe, 7 specials */
static void fill(double *x, size_t n, int kind) {
  static const double sp[] = {HUGE_VAL, -HUGE_VAL, 0.0, -0.0, 1e308, -1e308, 5e-324};
  size_t i;
  for (i = 0; i < n; i++) {
    switch (kind) {
      case 0: x[i] = (double)rnd() / 1024.0 - 2e6; break;
      case 1: x[i] = (double)(rnd() % 3); break;
      case 2: x[i] = rnd() % 10 == 0 ? (double)(rnd() % 100) - 50 : 0.0; break;
      case 3: x[i] = 7.5; break;
      case 4: x[i] = (double)i; break;
      case 5: x[i] = (double)(n - i); break;
      case 6: x[i] = (double)(i < n / 2 ? i : n - i); break;
      default: x[i] = rnd() % 2 ? sp[rnd() % 7] : (double)(rnd() % 5); break;
    }
  }
}

static int checks(const double *x, const double *sorted, size_t n, size_t k, double *again) {
  size_t i;
  int ok = x[k] == sorted[k];
  for (i = 0; i < k && ok; i++) ok = x[i] <= x[k];
  for (i = k + 1; i < n && ok; i++) ok = x[i] >= x[k];
  memcpy(again, x, n * sizeof *x);
  qsort(again, n, sizeof *again, cmp);
  for (i = 0; i < n && ok; i++) ok = again[i] == sorted[i];
  return ok;
}

static void run(size_t n, int kind, size_t kstep, double *x, double *w, double *s, double *t) {
  size_t k;
  fill(w, n, kind);
  memcpy(s, w, n * sizeof *w);
  qsort(s, n, sizeof *s, cmp);
  for (k = 0; k < n; k += kstep) {
    memcpy(x, w, n * sizeof *w);
    lak_select(x, n, k);
    CHECK(checks(x, s, n, k, t), "n %zu kind %d k %zu: x[k] = %.17g, sorted %.17g", n, kind, k,
          x[k], s[k]);
  }
  if (n > 0) {
    double m = w[0];
    for (k = 1; k < n; k++) m = w[k] < m ? w[k] : m;
    CHECK(lak_minof(w, n) == m, "minof n %zu kind %d", n, kind);
  }
}

int main(void) {
  size_t big = 200000, n;
  double *x = ck_alloc(big, sizeof *x), *w = ck_alloc(big, sizeof *w);
  double *s = ck_alloc(big, sizeof *s), *t = ck_alloc(big, sizeof *t);
  int kind;
  for (kind = 0; kind < 8; kind++) {
    for (n = 1; n <= 300; n++) run(n, kind, 1, x, w, s, t);
    run(1000, kind, 7, x, w, s, t);
    run(4097, kind, 401, x, w, s, t);
    run(big, kind, big / 5 + 1, x, w, s, t);
    run(big, kind, big - 1, x, w, s, t);    /* the first and the last */
  }
  free(x); free(w); free(s); free(t);
  return ck_done("select");
}
