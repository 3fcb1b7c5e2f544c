/*
** spec/kernels/attention_bwd.c: lak_attention_backward against the
** definition written here entry by entry (P from the scores, D = rowsum(dO
** .* O), dS = P .* (dO V^T - D), dQ = scale dS K, dK = scale dS^T Q, dV =
** P^T dO, dbias = dS or its sums), over sizes that cross the kernel's tiles
** (nq 300, nk 270) with every matrix read through a leading dimension past
** its rows; causal alignments (one that hides the first rows from every
** key: zero gradients), masks and biases of each shape and the three dbias
** forms; 1 and 3 threads bitwise the same.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"
#include "attnref.h"

enum { NQ = 300, NK = 270, DK = 16, DV = 7, PAD = 3 };   /* DK whole panels of 8 */

/* the reference gradients: dQ nq x dk, dK nk x dk, dV nk x dv (ld their
** rows), dS nq x nk; O (nq x dv) from P */
static void reference(const lak_Attn *a, const double *dO, const double *P, double *O,
                      double *dQ, double *dK, double *dV, double *dS) {
  int nq = a->nq, nk = a->nk, i, j, l;
  mat_mul(0, 0, nq, a->dv, nk, P, nq, a->V, a->ldv, O);
  mat_mul(1, 0, nk, a->dv, nq, P, nq, dO, nq, dV);
  for (i = 0; i < nq; i++) {
    double D = 0.0;
    for (l = 0; l < a->dv; l++) D += dO[i + (size_t)l * nq] * O[i + (size_t)l * nq];
    for (j = 0; j < nk; j++) {
      double dp = 0.0;
      for (l = 0; l < a->dv; l++) dp += dO[i + (size_t)l * nq] * a->V[j + (size_t)l * a->ldv];
      dS[i + (size_t)j * nq] = P[i + (size_t)j * nq] * (dp - D);
    }
  }
  mat_mul(0, 0, nq, a->dk, nk, dS, nq, a->K, a->ldk, dQ);
  mat_mul(1, 0, nk, a->dk, nq, dS, nq, a->Q, a->ldq, dK);
  for (i = 0; i < nq * a->dk; i++) dQ[i] *= a->scale;
  for (i = 0; i < nk * a->dk; i++) dK[i] *= a->scale;
}

/* max |got - want| / max |want| over an m x n block */
static double reldiff(int m, int n, const double *got, int ldg, const double *want, int ldw) {
  double big = 1e-300;
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) big = fmax(big, fabs(want[i + (size_t)j * ldw]));
  return mat_maxdiff(m, n, got, ldg, want, ldw) / big;
}

/* The gradients of one variant on nt threads into out (dQ, dK, dV, dbias
** back to back, each with ld rows + PAD), NaN-filled first: every entry is
** written. */
static void run(const lak_Attn *a, const double *dO, const double *O, const double *lse,
                int dbmode, int nt, double *out, double **parts) {
  lak_AttnGrad g;
  size_t n = (size_t)(NQ + PAD) * DK + (size_t)(NK + PAD) * (DK + DV) + (size_t)(NQ + PAD) * NK;
  double *work = ck_alloc(lak_attn_bwd_work(a, nt), sizeof(double));
  memset(out, 0xff, n * sizeof(double));
  memset(&g, 0, sizeof g);
  g.dO = dO; g.lddo = NQ; g.O = O; g.ldo = NQ; g.lse = lse;
  g.dQ = parts[0] = out; g.lddq = NQ + PAD;
  g.dK = parts[1] = out + (size_t)(NQ + PAD) * DK; g.lddk = NK + PAD;
  g.dV = parts[2] = parts[1] + (size_t)(NK + PAD) * DK; g.lddv = NK + PAD;
  g.dbias = parts[3] = parts[2] + (size_t)(NK + PAD) * DV;
  g.dbmode = dbmode;
  g.lddb = dbmode == LAK_DB_FULL ? NQ + PAD : 1;
  lak_attention_backward(a, &g, work, nt);
  free(work);
}

static void variants(void) {
  lak_Rng r;
  double *Q = ck_alloc((size_t)(NQ + PAD) * DK, sizeof(double));
  double *K = ck_alloc((size_t)(NK + PAD) * DK, sizeof(double));
  double *V = ck_alloc((size_t)(NK + PAD) * DV, sizeof(double));
  double *dO = ck_alloc((size_t)NQ * DV, sizeof(double)), *O = ck_alloc((size_t)NQ * DV, sizeof(double));
  double *P = ck_alloc((size_t)NQ * NK, sizeof(double)), *dS = ck_alloc((size_t)NQ * NK, sizeof(double));
  double *lse = ck_alloc(NQ, sizeof(double)), *mask = ck_alloc((size_t)NQ * NK, sizeof(double));
  double *bias = ck_alloc((size_t)NQ * NK, sizeof(double));
  double *dQ = ck_alloc((size_t)NQ * DK, sizeof(double)), *dK = ck_alloc((size_t)NK * DK, sizeof(double));
  double *dV = ck_alloc((size_t)NK * DV, sizeof(double)), *sums = ck_alloc(NQ + NK, sizeof(double));
  size_t n = (size_t)(NQ + PAD) * DK + (size_t)(NK + PAD) * (DK + DV) + (size_t)(NQ + PAD) * NK;
  double *out1 = ck_alloc(n, sizeof(double)), *out3 = ck_alloc(n, sizeof(double));
  static const char *const name[] = {"plain", "causal top-left", "causal bottom-right",
    "causal coff -5", "mask + bias, dbias full", "mask row + bias row, dbias row",
    "bias column, dbias column"};
  int v, i, j;
  lak_rng_seed(&r, 7);
  mat_randn(&r, NQ, DK, Q, NQ + PAD); mat_randn(&r, NK, DK, K, NK + PAD);
  mat_randn(&r, NK, DV, V, NK + PAD); mat_randn(&r, NQ, DV, dO, NQ);
  mat_randn(&r, NQ, NK, bias, NQ);
  for (i = 0; i < NQ * NK; i++) mask[i] = lak_rng_uniform(&r) < 0.3 ? 0.0 : 1.0;
  for (v = 0; v < 7; v++) {
    lak_Attn a;
    double *p1[4], *p3[4];   /* dQ, dK, dV, dbias in out1, out3 */
    int dbmode = v == 5 ? LAK_DB_ROW : v == 6 ? LAK_DB_COL : LAK_DB_FULL;
    memset(&a, 0, sizeof a);
    a.nq = NQ; a.nk = NK; a.dk = DK; a.dv = DV; a.Q = Q; a.K = K; a.V = V;
    a.ldq = NQ + PAD; a.ldk = NK + PAD; a.ldv = NK + PAD; a.scale = 0.3;
    if (v >= 1 && v <= 3) a.causal = 1;
    if (v == 2) a.coff = NK - NQ;
    if (v == 3) a.coff = -5;
    if (v == 4) { a.mask = mask; a.mrs = 1; a.mcs = NQ; a.bias = bias; a.brs = 1; a.bcs = NQ; }
    if (v == 5) { a.mask = mask; a.mrs = 0; a.mcs = NQ; a.bias = bias; a.brs = 0; a.bcs = NQ; }
    if (v == 6) { a.bias = bias; a.brs = 1; a.bcs = 0; }
    naive(&a, NULL, a.nq, lse, P);
    reference(&a, dO, P, O, dQ, dK, dV, dS);
    run(&a, dO, O, lse, dbmode, 1, out1, p1);
    run(&a, dO, O, lse, dbmode, 3, out3, p3);
    CHECK(reldiff(NQ, DK, p1[0], NQ + PAD, dQ, NQ) <= 1e-12, "%s: dQ off by %g", name[v],
          reldiff(NQ, DK, p1[0], NQ + PAD, dQ, NQ));
    CHECK(reldiff(NK, DK, p1[1], NK + PAD, dK, NK) <= 1e-12, "%s: dK off by %g", name[v],
          reldiff(NK, DK, p1[1], NK + PAD, dK, NK));
    CHECK(reldiff(NK, DV, p1[2], NK + PAD, dV, NK) <= 1e-12, "%s: dV off by %g", name[v],
          reldiff(NK, DV, p1[2], NK + PAD, dV, NK));
    if (dbmode == LAK_DB_FULL)
      CHECK(reldiff(NQ, NK, p1[3], NQ + PAD, dS, NQ) <= 1e-12, "%s: dbias off by %g", name[v],
            reldiff(NQ, NK, p1[3], NQ + PAD, dS, NQ));
    else {          /* sums of dS: over the queries (row), over the keys (column) */
      int m = dbmode == LAK_DB_ROW ? NK : NQ;
      for (i = 0; i < m; i++) sums[i] = 0;
      for (j = 0; j < NK; j++)
        for (i = 0; i < NQ; i++) sums[dbmode == LAK_DB_ROW ? j : i] += dS[i + (size_t)j * NQ];
      /* a column bias's gradient is 0 but for rounding: against dK's scale */
      CHECK(mat_maxdiff(m, 1, p1[3], m, sums, m) <= 1e-12 * (1 + fabs(dK[0])), "%s: dbias off by %g",
            name[v], mat_maxdiff(m, 1, p1[3], m, sums, m));
    }
    if (v == 3)     /* rows 0..4 see no key */
      for (i = 0; i < 5; i++)
        for (j = 0; j < DK; j++) CHECK(p1[0][i + (size_t)j * (NQ + PAD)] == 0.0, "%s: dQ(%d,%d) ~= 0", name[v], i, j);
    /* all four results and their padding (NaN in both), byte for byte */
    CHECK(memcmp(out1, out3, n * sizeof(double)) == 0, "%s: 1 and 3 threads differ", name[v]);
  }
  free(Q); free(K); free(V); free(dO); free(O); free(P); free(dS); free(lse); free(mask);
  free(bias); free(dQ); free(dK); free(dV); free(sums); free(out1); free(out3);
}

int main(void) {
  variants();
  return ck_done("attention_bwd");
}
