/*
** kernels/train.h: the kernels of training (kernels/train.c, no Lua): the
** backward passes of softmax and log_softmax, and the pieces of gradient
** clipping (the largest magnitude, an overflow-safe sum of powers, an in-place
** scaling). Written once for both types (train_gen.h): lak_* take double,
** lak_s* float. Matrices are column-major m x n with a leading dimension.
*/
#ifndef LAK_TRAIN_H
#define LAK_TRAIN_H

/* dS (m x n) from the forward's output Y and the gradient dY along dim (2:
** each row, 1: each column), sums in double: logs = 0 (softmax, Y = P):
** dS = P .* (dP - sum(P .* dP, dim)); logs = 1 (log_softmax, Y = L):
** dS = dL - exp(L) .* sum(dL, dim). acc: m doubles (dim 2; unused for
** dim 1). dS may not alias Y or dY. */
void lak_softmax_bwd(int logs, int dim, int m, int n, const double *Y, int ldy,
                     const double *dY, int lddy, double *dS, int ldds, double *acc);
void lak_ssoftmax_bwd(int logs, int dim, int m, int n, const float *Y, int ldy,
                      const float *dY, int lddy, float *dS, int ldds, double *acc);

/* max |a_ij| of an m x n matrix, NaN winning; 0 when empty */
double lak_absmax(int m, int n, const double *A, int lda);
double lak_sabsmax(int m, int n, const float *A, int lda);

/* sum over the m x n entries of |a_ij * s1 * s2|^p, in double (p = 2 and
** p = 1 without pow). s1 and s2 are powers of two chosen by the caller so
** that the largest |a_ij| scaled lands near 1: every term is then at most
** 2^p, and the sum cannot overflow before the last 2^1000 terms. */
double lak_sumpow(int m, int n, const double *A, int lda, double s1, double s2, double p);
double lak_ssumpow(int m, int n, const float *A, int lda, double s1, double s2, double p);

/* A *= c, in place (A may be a view: ld > m) */
void lak_scale(int m, int n, double *A, int lda, double c);
void lak_sscale(int m, int n, float *A, int lda, float c);

#endif
