/*
** kernels/vecmath.h: exp, log, log10, tanh and pow of doubles, pow of floats, for SIMD loops
** (kernels/vecmath.c): the same bits on every path (AVX-512, AVX2, scalar).
** Errors against a correctly rounded result (spec/kernels/vecmath.c): see
** vecmath.c's header.
*/
#ifndef LAK_VECMATH_H
#define LAK_VECMATH_H

#include <stddef.h>

/* 1 when the AVX-512 loops run: then they are faster than glibc's libmvec;
** elsewhere the portable loops give the same bits but slower (gathers are
** emulated), and callers may prefer libmvec's speed (elementwise.c, arith.c) */
int lak_vecmath_native(void);

/* y[i] = f(x[i]), i < n; y may be x */
void lak_vexp(const double *x, double *y, size_t n);
void lak_vlog(const double *x, double *y, size_t n);
void lak_vlog10(const double *x, double *y, size_t n);
void lak_vtanh(const double *x, double *y, size_t n);
/* z[i] = pow(x[i rx], y[i ry]), i < m (rx, ry 0 or any stride); C99's pow
** special cases; z overlaps neither */
void lak_vpow(size_t m, const double *x, ptrdiff_t rx, const double *y, ptrdiff_t ry,
              double *z);
/* the same for floats (computed in double, rounded once: see vecmath.c) */
void lak_vpowf(size_t m, const float *x, ptrdiff_t rx, const float *y, ptrdiff_t ry, float *z);

#endif
