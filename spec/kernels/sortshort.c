/*
** spec/kernels/sortshort.c: lak_sortshort / lak_ssortshort (many short
** lines at once) against lak_sort / lak_ssort on each line, bit for bit,
** values and positions: lengths 2..128 (each to 24, then in steps; past
** LAK_SHORT the networks listed at run time), line counts around the
** vector widths (1..40, 1000), lines as the rows of a matrix (contiguous
** across lines) and as its columns, with leading dimensions past the
** extent (nothing written there), ascending and descending, entries from
** a pool with ties, -0.0, NaN and infinities (the scalar finish),
** distinct ones (the vector path) and ones apart only in their lowest
** bits (past LAK_SHORT, keys whose high bits tie: the runs put in order
** again), either output alone. Then the networks
** by the 0-1 principle: all 2^n lines of zeros and ones, n = 2..17.
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels.h"

/* the kernel's scratch, exactly as large as asked (ASan and valgrind see
** a write past it) */
static void *work2;

static unsigned long long st = 88172645463325252ULL;
static unsigned rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (unsigned)(st >> 11); }

static const double POOL[] = {-2, -1, -0.0, 0.0, 0.5, 1, 3, HUGE_VAL, -HUGE_VAL, NAN, -NAN,
                              4.9406564584124654e-324, -1.7976931348623157e308};

static double value(int kind) {
  if (kind == 0) return POOL[rnd() % (sizeof POOL / sizeof POOL[0])];
  if (kind == 2)      /* apart in the low bits alone: of a double, or of a float (keys' high bits tie) */
    return rnd() & 1 ? 1.0 + (double)(rnd() % 200) * 0x1p-52 : -1.0 - (double)(rnd() % 200) * 0x1p-23;
  return ((double)rnd() - 2147483648.0) / 1024;           /* distinct (almost surely) */
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
static int samef(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

#define SENT 12345.5

/* nl lines of n: rows (byrow) or columns of an ld-leading matrix */
static void one(int nl, int n, int kind, int desc, int byrow) {
  int m = byrow ? nl : n, c = byrow ? n : nl, ld = m + 3, i, l, j;
  size_t sz = (size_t)ld * c;
  double *x = malloc(sz * sizeof *x), *s = malloc(sz * sizeof *s), *ix = malloc(sz * sizeof *ix);
  float *xf = malloc(sz * sizeof *xf), *sf = malloc(sz * sizeof *sf);
  double rs[LAK_LONG], ri[LAK_LONG];
  float rsf[LAK_LONG];
  lak_SortItem work[LAK_SORT_WORK(LAK_LONG)];
  lak_Lines lx, ls, li;
  int bad = 0, badf = 0, badpad = 0, ran, mode;
  ptrdiff_t el = byrow ? 1 : ld, ej = byrow ? ld : 1;
  for (i = 0; i < (int)sz; i++) { x[i] = value(kind); xf[i] = (float)x[i]; }
  for (mode = 0; mode < 3; mode++) {          /* both outputs; values alone; positions alone */
    for (i = 0; i < (int)sz; i++) s[i] = ix[i] = sf[i] = SENT;
    lx.p = x; lx.l = el; lx.j = ej;
    ls.p = mode == 2 ? NULL : s; ls.l = el; ls.j = ej;
    li.p = mode == 1 ? NULL : ix; li.l = el; li.j = ej;
    ran = lak_sortshort(nl, n, desc, lx, ls, li, work2);
    if (!ran) { free(x); free(s); free(ix); free(xf); free(sf); return; }   /* no AVX-512F */
    for (l = 0; l < nl; l++) {
      lak_sort(n, x + l * el, ej, desc, rs, 1, ri, 1, work);
      for (j = 0; j < n; j++) {
        ptrdiff_t o = l * el + j * ej;
        if (mode != 2 && !same(s[o], rs[j])) bad++;
        if (mode != 1 && ix[o] != ri[j]) bad++;
      }
    }
    for (i = 0; i < (int)sz; i++)                 /* rows past the extent untouched */
      if (i % ld >= m) badpad += s[i] != SENT || ix[i] != SENT;
    CHECK(bad == 0 && badpad == 0, "double nl=%d n=%d kind=%d desc=%d byrow=%d mode=%d: %d wrong, %d pad",
          nl, n, kind, desc, byrow, mode, bad, badpad);
    lx.p = xf;
    ls.p = mode == 2 ? NULL : sf;
    for (i = 0; i < (int)sz; i++) ix[i] = SENT;
    lak_ssortshort(nl, n, desc, lx, ls, li, work2);
    for (l = 0; l < nl; l++) {
      lak_ssort(n, xf + l * el, ej, desc, rsf, 1, ri, 1, work);
      for (j = 0; j < n; j++) {
        ptrdiff_t o = l * el + j * ej;
        if (mode != 2 && !samef(sf[o], rsf[j])) badf++;
        if (mode != 1 && ix[o] != ri[j]) badf++;
      }
    }
    CHECK(badf == 0, "float nl=%d n=%d kind=%d desc=%d byrow=%d mode=%d: %d wrong",
          nl, n, kind, desc, byrow, mode, badf);
  }
  free(x); free(s); free(ix); free(xf); free(sf);
}

/* all 2^n lines of zeros and ones, as the rows of a matrix: sorted and
** stable (the positions of the zeros, then of the ones, ascending) */
static void zeroone(int n) {
  int nl = 1 << n, l, j, bad = 0;
  double *x = malloc((size_t)nl * n * sizeof *x), *s = malloc((size_t)nl * n * sizeof *s);
  double *ix = malloc((size_t)nl * n * sizeof *ix);
  lak_Lines lx, ls, li;
  for (l = 0; l < nl; l++)
    for (j = 0; j < n; j++) x[l + (size_t)j * nl] = (l >> j) & 1;
  lx.p = x; lx.l = 1; lx.j = nl;
  ls.p = s; ls.l = 1; ls.j = nl;
  li.p = ix; li.l = 1; li.j = nl;
  if (!lak_sortshort(nl, n, 0, lx, ls, li, work2)) { free(x); free(s); free(ix); return; }
  for (l = 0; l < nl; l++) {
    int z = 0, k = 0;
    for (j = 0; j < n; j++) z += !((l >> j) & 1);
    for (j = 0; j < n; j++) {                 /* zeros first, each group in input order */
      int want;
      for (; k < n && (((l >> k) & 1) != (j >= z)); k++) {}
      want = k++;
      if (j == z - 1) k = 0;
      bad += s[l + (size_t)j * nl] != (j >= z) || ix[l + (size_t)j * nl] != want + 1;
    }
  }
  CHECK(bad == 0, "0-1 lines of %d: %d wrong", n, bad);
  free(x); free(s); free(ix);
}

int main(void) {
  static const int counts[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 40, 1000};
  int n, c, kind, desc, byrow;
  for (n = 2; n <= LAK_LONG; n += n < 24 ? 1 : n < 40 ? 3 : 13) {
    work2 = malloc(LAK_SHORT_WORK(n));
    for (c = 0; c < (int)(sizeof counts / sizeof counts[0]); c++)
      for (kind = 0; kind < 3; kind++)
        for (desc = 0; desc < 2; desc++)
          for (byrow = 0; byrow < 2; byrow++) one(counts[c], n, kind, desc, byrow);
    free(work2);
  }
  work2 = malloc(LAK_SHORT_WORK(LAK_LONG));
  for (kind = 0; kind < 2; kind++) one(40, LAK_LONG, kind, kind, kind);
  CHECK(lak_sortshort(8, 1, 0, (lak_Lines){NULL, 1, 1}, (lak_Lines){NULL, 1, 1},
                      (lak_Lines){NULL, 1, 1}, NULL) == 0, "a line of 1 declined");
  CHECK(lak_sortshort(8, LAK_LONG + 1, 0, (lak_Lines){NULL, 1, 1}, (lak_Lines){NULL, 1, 1},
                      (lak_Lines){NULL, 1, 1}, NULL) == 0, "a line past LAK_LONG declined");
  for (n = 2; n <= 17; n++) zeroone(n);           /* 17: a network listed at run time */
  free(work2);
  return ck_done("sortshort");
}
