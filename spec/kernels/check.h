/*
** spec/kernels/check.h: the kernel tests' checks. A failed check prints
** file:line, what was expected and what came, and the run goes on;
** ck_done prints the summary line and gives the exit status.
**   CHECK(cond, fmt, ...)   cond true, else printf(fmt, ...) explains
**   CLOSE(got, want, tol)   |got - want| <= tol (NaN never passes; equal
**                           infinities do)
*/
#ifndef SPEC_KERNELS_CHECK_H
#define SPEC_KERNELS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int ck_pass, ck_fail;

#define CHECK(cond, ...) do { \
    if (cond) ck_pass++; \
    else { \
      ck_fail++; \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__); \
      fputc('\n', stderr); \
    } \
  } while (0)

#define CLOSE(got, want, tol) do { \
    double ck_g = (got), ck_w = (want), ck_t = (tol); \
    CHECK(ck_g == ck_w || fabs(ck_g - ck_w) <= ck_t, \
          "%s: expected %.17g within %.3g, got %.17g (off by %.3g)", \
          #got, ck_w, ck_t, ck_g, fabs(ck_g - ck_w)); \
  } while (0)

/* the summary line; the program's exit status */
static inline int ck_done(const char *name) {
  if (ck_fail == 0) {
    printf("kernels/%s: %d checks passed\n", name, ck_pass);
    return 0;
  }
  printf("kernels/%s: %d of %d checks FAILED\n", name, ck_fail, ck_pass + ck_fail);
  return 1;
}

/* calloc that ends the run if memory is short (tests only) */
static inline void *ck_alloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
  return p;
}

#endif
