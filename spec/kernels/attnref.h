/*
** attnref.h: attention by its definition, for the kernel tests of the
** forward (attention.c) and the backward (attention_bwd.c).
*/
#ifndef ATTNREF_H
#define ATTNREF_H

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "kernels.h"

/* The definition: row i of O is sum_j w_j V_j / sum_j w_j with w_j =
** exp(s_j - max s) over the visible keys, s_j = scale Q_i . K_j + bias(i,
** j); lse_i = max s + log(sum w). No visible key: zeros and -inf. A (ld
** nq) receives the normalized weights; O may be NULL. */
static inline void naive(const lak_Attn *a, double *O, int ldo, double *lse, double *A) {
  double *s = ck_alloc((size_t)a->nk, sizeof(double));
  int i, j, l;
  for (i = 0; i < a->nq; i++) {
    double mx = -HUGE_VAL, sum = 0.0;
    for (j = 0; j < a->nk; j++) {
      int hidden = (a->causal && j > i + a->coff) ||
                   (a->mask && a->mask[i * a->mrs + j * a->mcs] == 0.0);
      double d = 0.0;
      for (l = 0; l < a->dk; l++)
        d += a->Q[i + (size_t)l * a->ldq] * a->K[j + (size_t)l * a->ldk];
      s[j] = hidden ? -HUGE_VAL : a->scale * d + (a->bias ? a->bias[i * a->brs + j * a->bcs] : 0.0);
      if (s[j] > mx) mx = s[j];
    }
    for (j = 0; j < a->nk; j++) {
      s[j] = s[j] == -HUGE_VAL ? 0.0 : exp(s[j] - mx);
      sum += s[j];
    }
    for (l = 0; O != NULL && l < a->dv; l++) {
      double o = 0.0;
      for (j = 0; j < a->nk; j++) o += s[j] * a->V[j + (size_t)l * a->ldv];
      O[i + (size_t)l * ldo] = sum == 0.0 ? 0.0 : o / sum;
    }
    lse[i] = sum == 0.0 ? -HUGE_VAL : mx + log(sum);
    if (A) for (j = 0; j < a->nk; j++) A[i + (size_t)j * a->nq] = sum == 0.0 ? 0.0 : s[j] / sum;
  }
  free(s);
}

#endif
