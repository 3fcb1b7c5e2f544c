/*
** kernels/fill.c: arithmetic progressions, a + i * step for i = 0..n-1
** (arange, linspace): the same two roundings as the scalar expression (no
** FMA: -ffp-contract=off), vectorized at -O3 and compiled for AVX-512,
** AVX2 and SSE2, chosen at load time (LAK_CLONES, loops.h). The loop
** counter is an int so that its conversion to double is a vector
** instruction on every one of them (AVX2 has none from 64-bit integers).
*/
#include "kernels.h"
#include "loops.h"

LAK_CLONES static void prog_d(int i0, int n, double a, double step, double *restrict x) {
  int i;
  for (i = 0; i < n; i++) x[i] = a + (double)(i0 + i) * step;
}

LAK_CLONES static void prog_s(int i0, int n, double a, double step, float *restrict x) {
  int i;
  for (i = 0; i < n; i++) x[i] = (float)(a + (double)(i0 + i) * step);
}

void lak_progression_at(int i0, int n, double a, double step, double *x, float *xs) {
  if (n <= 0) return;
  if (x != NULL) prog_d(i0, n, a, step, x);
  else prog_s(i0, n, a, step, xs);
}

void lak_progression(int n, double a, double step, double *x, float *xs) {
  lak_progression_at(0, n, a, step, x, xs);
}
