/* timing.h: the wall clock and the median the C peers (raw.c, tpqrt.c)
** share; static, each peer is one translation unit. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* the median of t[0..n-1] (sorts t) */
static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp);
  return t[n / 2];
}
#endif
