/*
** spec/kernels/train.c: kernels/train.c without Lua. softmax_bwd on a view
** (ld > m) along both dims against hand-computed values (P = [0.5 0.5; 0.25
** 0.75], dP = [1 -1; 2 0]: row sums <P, dP> = 0 and 0.5), log form; absmax
** with NaN; sumpow's power-of-two scaling (entries near the largest and the
** smallest double give the exact sum the unscaled values would); scale on a
** strided block leaves the rows past m alone; float kernels alike.
*/
#include "check.h"
#include "train.h"

/* column-major 2x2 blocks in 3-row storage (row 3 is padding: 99) */
static const double P[6] = {0.5, 0.25, 99, 0.5, 0.75, 99};
static const double DP[6] = {1, 2, 99, -1, 0, 99};

static void softmax_bwd(void) {
  double dS[6] = {0}, acc[2];
  float pf[6], dpf[6], dSf[6] = {0};
  int i;
  /* dim 2: rows. dS = P .* (dP - s), s = (0, 0.5) */
  lak_softmax_bwd(0, 2, 2, 2, P, 3, DP, 3, dS, 3, acc);
  CLOSE(dS[0], 0.5, 0); CLOSE(dS[3], -0.5, 0);
  CLOSE(dS[1], 0.25 * 1.5, 0); CLOSE(dS[4], 0.75 * -0.5, 0);
  CLOSE(dS[2], 0, 0);                                   /* padding untouched */
  /* dim 1: columns. s = (0.5 + 0.5, -0.5 + 0) = (1, -0.5) */
  lak_softmax_bwd(0, 1, 2, 2, P, 3, DP, 3, dS, 3, acc);
  CLOSE(dS[0], 0, 0); CLOSE(dS[1], 0.25, 0); CLOSE(dS[3], 0.5 * -0.5, 0); CLOSE(dS[4], 0.75 * 0.5, 0);
  /* log form, dim 2, L = log P: dS = dP - P * rowsum(dP), rowsums (0, 2) */
  {
    double L[6];
    for (i = 0; i < 6; i++) L[i] = log(P[i]);
    lak_softmax_bwd(1, 2, 2, 2, L, 3, DP, 3, dS, 3, acc);
    CLOSE(dS[0], 1, 1e-15); CLOSE(dS[3], -1, 1e-15);
    CLOSE(dS[1], 2 - 0.25 * 2, 1e-15); CLOSE(dS[4], 0 - 0.75 * 2, 1e-15);
  }
  for (i = 0; i < 6; i++) { pf[i] = (float)P[i]; dpf[i] = (float)DP[i]; }
  lak_ssoftmax_bwd(0, 2, 2, 2, pf, 3, dpf, 3, dSf, 3, acc);
  CLOSE(dSf[1], 0.375, 0); CLOSE(dSf[4], -0.375, 0);
  lak_softmax_bwd(0, 2, 0, 2, P, 3, DP, 3, dS, 3, acc);   /* empty: nothing */
}

static void clipping(void) {
  double A[6] = {3, -4, 99, 0, 12, 99}, N[3] = {1, NAN, 2};
  double big[2] = {0x1p1020, 0x1p1020}, tiny[2] = {0x1p-1070, 0x1p-1070};
  float F[3] = {3, -4, 7};
  int e;
  CLOSE(lak_absmax(2, 2, A, 3), 12, 0);              /* the padding (99) is not read */
  CHECK(isnan(lak_absmax(3, 1, N, 3)), "NaN wins");
  CLOSE(lak_absmax(0, 5, A, 3), 0, 0);
  CLOSE(lak_sabsmax(2, 1, F, 3), 4, 0);
  CLOSE(lak_sumpow(2, 2, A, 3, 1, 1, 2), 169, 0);    /* 9 + 16 + 0 + 144 */
  CLOSE(lak_sumpow(2, 2, A, 3, 1, 1, 1), 19, 0);
  CLOSE(lak_sumpow(2, 2, A, 3, 1, 1, 3), 27 + 64 + 1728, 1e-12);
  CLOSE(lak_ssumpow(2, 1, F, 3, 1, 1, 2), 25, 0);
  /* 2^1020: scaled by 2^-1020 in two factors, the squares are 1 and 1 */
  e = ilogb(big[0]);
  CLOSE(lak_sumpow(2, 1, big, 2, ldexp(1, -(e / 2)), ldexp(1, e / 2 - e), 2), 2, 0);
  e = ilogb(tiny[0]);                                /* subnormal: 2^1070 is not a double */
  CLOSE(lak_sumpow(2, 1, tiny, 2, ldexp(1, -(e / 2)), ldexp(1, e / 2 - e), 2), 2, 0);
  lak_scale(2, 2, A, 3, 0.5);
  CLOSE(A[0], 1.5, 0); CLOSE(A[4], 6, 0); CLOSE(A[2], 99, 0); CLOSE(A[5], 99, 0);
  lak_sscale(1, 3, F, 1, 2.0f);
  CLOSE(F[2], 14, 0);
}

int main(void) {
  softmax_bwd();
  clipping();
  return ck_done("train");
}
