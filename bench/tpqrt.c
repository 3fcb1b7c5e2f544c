/* tpqrt: seconds for one LAPACKE_dtpqrt_work on two stacked n x n upper
** triangles (l = n, nb = 32), the floor of a state merge; median of reps.
** usage: tpqrt N REPS */
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100, reps = argc > 2 ? atoi(argv[2]) : 21, i, j, r;
  int nb = n < 32 ? n : 32;
  double *R1 = calloc((size_t)n * n, sizeof(double)), *R2 = calloc((size_t)n * n, sizeof(double));
  double *A = malloc((size_t)n * n * sizeof(double)), *B = malloc((size_t)n * n * sizeof(double));
  double *T = malloc((size_t)nb * n * sizeof(double)), *w = malloc((size_t)nb * n * sizeof(double));
  double *t = malloc((size_t)reps * sizeof(double));
  srand(1);
  for (j = 0; j < n; j++)
    for (i = 0; i <= j; i++) {
      R1[i + (size_t)j * n] = rand() / (double)RAND_MAX - 0.5 + (i == j ? n : 0);
      R2[i + (size_t)j * n] = rand() / (double)RAND_MAX - 0.5 + (i == j ? n : 0);
    }
  for (r = 0; r < reps; r++) {
    double t0;
    memcpy(A, R1, (size_t)n * n * sizeof(double));
    memcpy(B, R2, (size_t)n * n * sizeof(double));
    t0 = now();
    if (LAPACKE_dtpqrt_work(LAPACK_COL_MAJOR, n, n, n, nb, A, n, B, n, T, nb, w) != 0) return 1;
    t[r] = now() - t0;
  }
  printf("tpqrt_%d %.9g\n", n, median(t, reps));
  return 0;
}
