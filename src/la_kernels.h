/*
** la_kernels.h: numerical kernels with no Lua dependency.
** All matrices are column-major with a leading dimension; callers have
** validated shapes, so kernels never fail and never allocate unless noted.
*/
#ifndef LA_KERNELS_H
#define LA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Elementwise binary operations, see lak_ewise. */
typedef enum { LAK_ADD, LAK_SUB, LAK_MUL, LAK_DIV } lak_Op;

/* An operand of a broadcasting operation: element (i,j) is p[i*rs + j*cs].
** A broadcast dimension has stride 0. */
typedef struct lak_Arg { const double *p; ptrdiff_t rs, cs; } lak_Arg;

void lak_ewise(lak_Op op, int m, int n, lak_Arg a, lak_Arg b,
               double *c, int ldc);

/* C = alpha * op(A) * op(B) + beta * C, op chosen by ta/tb ('N' or 'T').
** Tiny products use a direct loop (the BLAS call overhead dominates there);
** everything else goes to cblas_dgemm / cblas_dgemv. */
void lak_gemm(char ta, char tb, int m, int n, int k, double alpha,
              const double *A, int lda, const double *B, int ldb,
              double beta, double *C, int ldc);

/* Copy an m x n block between leading dimensions (optionally transposed). */
void lak_copy(int m, int n, const double *A, int lda, double *B, int ldb);
void lak_transpose(int m, int n, const double *A, int lda, double *B, int ldb);

/* Random numbers: xoshiro256** seeded by splitmix64. Only integer and IEEE
** basic operations (no libm), so a seed gives the same numbers everywhere. */
typedef struct lak_Rng { uint64_t s[4]; } lak_Rng;
void lak_rng_seed(lak_Rng *r, uint64_t seed);
double lak_rng_uniform(lak_Rng *r);     /* [0, 1), 53 random bits */
double lak_rng_normal(lak_Rng *r);      /* standard normal, Marsaglia polar */
double lak_log(double x);               /* portable natural log, x > 0 */

#endif
