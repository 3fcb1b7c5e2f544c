/*
** spec/kernels/attention.c: lak_attention (fused, streamed; 1 and 2 threads)
** and lak_attention_weights against a naive reference written here, over
** sizes that cross the block sizes (nq 300 > LAK_ATTN_BQ, nk 700 >
** LAK_ATTN_BK), with causal masks (both alignments, and one that hides
** every key from the first rows), masks and biases (full matrices, rows and
** columns broadcast); lak_attn_combine of two key halves; lak_softmax; the
** seed text's one-query example.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"
#include "attnref.h"

/* max |x - y| over n, where equal infinities count as 0 apart */
static double lse_diff(int n, const double *x, const double *y) {
  double d = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    double e = x[i] == y[i] ? 0.0 : fabs(x[i] - y[i]);
    if (e > d || e != e) d = e;
  }
  return d;
}

static int count_neginf(int n, const double *x) {
  int i, c = 0;
  for (i = 0; i < n; i++) c += x[i] == -HUGE_VAL;
  return c;
}

/* the random problem: Q, K, V with leading dimensions past their rows */
typedef struct Prob {
  int nq, nk, dk, dv;
  double *Q, *K, *V, *mask, *bias, *maskrow, *maskcol, *biasrow;
} Prob;

static void prob_new(Prob *p, int nq, int nk, int dk, int dv, uint64_t seed) {
  lak_Rng r;
  int i;
  p->nq = nq; p->nk = nk; p->dk = dk; p->dv = dv;
  lak_rng_seed(&r, seed);
  p->Q = ck_alloc((size_t)(nq + 3) * dk, sizeof(double));
  p->K = ck_alloc((size_t)(nk + 5) * dk, sizeof(double));
  p->V = ck_alloc((size_t)(nk + 1) * dv, sizeof(double));
  p->mask = ck_alloc((size_t)nq * nk, sizeof(double));
  p->bias = ck_alloc((size_t)nq * nk, sizeof(double));
  p->maskrow = ck_alloc((size_t)nk, sizeof(double));
  p->maskcol = ck_alloc((size_t)nq, sizeof(double));
  p->biasrow = ck_alloc((size_t)nk, sizeof(double));
  mat_randn(&r, nq, dk, p->Q, nq + 3);
  mat_randn(&r, nk, dk, p->K, nk + 5);
  mat_randn(&r, nk, dv, p->V, nk + 1);
  for (i = 0; i < nq * nk; i++) {
    p->mask[i] = lak_rng_uniform(&r) < 0.3 ? 0.0 : 1.0;
    p->bias[i] = 0.5 * lak_rng_normal(&r);
  }
  for (i = 0; i < nk; i++) {
    p->maskrow[i] = lak_rng_uniform(&r) < 0.5 ? 0.0 : 1.0;
    p->biasrow[i] = lak_rng_normal(&r);
  }
  /* the column mask hides every key from rows 0, 7 and 299 */
  for (i = 0; i < nq; i++) p->maskcol[i] = (i == 0 || i == 7 || i == nq - 1) ? 0.0 : 2.0;
}

static void prob_free(Prob *p) {
  free(p->Q); free(p->K); free(p->V); free(p->mask); free(p->bias);
  free(p->maskrow); free(p->maskcol); free(p->biasrow);
}

static lak_Attn attn_of(const Prob *p) {
  lak_Attn a;
  memset(&a, 0, sizeof a);
  a.nq = p->nq; a.nk = p->nk; a.dk = p->dk; a.dv = p->dv;
  a.Q = p->Q; a.K = p->K; a.V = p->V;
  a.ldq = p->nq + 3; a.ldk = p->nk + 5; a.ldv = p->nk + 1;
  a.scale = 1.0 / sqrt((double)p->dk);
  return a;
}

/* The variants: what each sets on top of attn_of, and the rows it hides
** from every key (the reference decides; this is the count to expect). */
enum { PLAIN, CAUSAL_TL, CAUSAL_BR, CAUSAL_NEG, MASK_FULL, MASK_ROW_BIAS_ROW,
       MASK_COL_BIAS_FULL, NVARIANT };
static const char *const VNAME[NVARIANT] = {
  "plain", "causal top-left", "causal bottom-right", "causal coff -5",
  "mask nq x nk", "mask row + bias row", "mask column + bias nq x nk"};
static const int VHIDDEN[NVARIANT] = {0, 0, 0, 5, 0, 0, 3};

static lak_Attn variant(const Prob *p, int v) {
  lak_Attn a = attn_of(p);
  switch (v) {
    case CAUSAL_TL: a.causal = 1; break;
    case CAUSAL_BR: a.causal = 1; a.coff = p->nk - p->nq; break;
    case CAUSAL_NEG: a.causal = 1; a.coff = -5; break;
    case MASK_FULL: a.mask = p->mask; a.mrs = 1; a.mcs = p->nq; break;
    case MASK_ROW_BIAS_ROW:
      a.mask = p->maskrow; a.mrs = 0; a.mcs = 1;
      a.bias = p->biasrow; a.brs = 0; a.bcs = 1; break;
    case MASK_COL_BIAS_FULL:
      a.mask = p->maskcol; a.mrs = 1; a.mcs = 0;
      a.bias = p->bias; a.brs = 1; a.bcs = p->nq; break;
  }
  return a;
}

/* every variant: fused on 1 and 2 threads, materialized, all against the
** reference */
static void against_naive(void) {
  Prob p;
  int v, nt;
  prob_new(&p, 300, 700, 16, 8, 31);
  for (v = 0; v < NVARIANT; v++) {
    lak_Attn a = variant(&p, v);
    int ldo = a.nq + 2;
    double *Or = ck_alloc((size_t)a.nq * a.dv, sizeof(double));
    double *Ar = ck_alloc((size_t)a.nq * a.nk, sizeof(double));
    double *O = ck_alloc((size_t)ldo * a.dv, sizeof(double));
    double *A = ck_alloc((size_t)a.nq * a.nk, sizeof(double));
    double *lr = ck_alloc((size_t)a.nq, sizeof(double)), *lse = ck_alloc((size_t)a.nq, sizeof(double));
    double *mx = ck_alloc((size_t)a.nq, sizeof(double)), *sum = ck_alloc((size_t)a.nq, sizeof(double));
    double *work = ck_alloc(lak_attn_work(&a, 2), sizeof(double));
    naive(&a, Or, a.nq, lr, Ar);
    CHECK(count_neginf(a.nq, lr) == VHIDDEN[v], "%s: the reference hides %d rows, want %d",
          VNAME[v], count_neginf(a.nq, lr), VHIDDEN[v]);
    for (nt = 1; nt <= 2; nt++) {
      memset(O, 0xff, (size_t)ldo * a.dv * sizeof(double));   /* NaN: every entry is written */
      lak_attention(&a, O, ldo, lse, work, nt);
      CHECK(mat_maxdiff(a.nq, a.dv, O, ldo, Or, a.nq) <= 1e-13, "%s, %d thread(s): O off by %g",
            VNAME[v], nt, mat_maxdiff(a.nq, a.dv, O, ldo, Or, a.nq));
      CHECK(lse_diff(a.nq, lse, lr) <= 1e-12, "%s, %d thread(s): lse off by %g", VNAME[v], nt,
            lse_diff(a.nq, lse, lr));
    }
    memset(O, 0xff, (size_t)ldo * a.dv * sizeof(double));
    lak_attention_weights(&a, O, ldo, A, a.nq, lse, mx, sum);
    CHECK(mat_maxdiff(a.nq, a.dv, O, ldo, Or, a.nq) <= 1e-13, "%s, weights: O off by %g",
          VNAME[v], mat_maxdiff(a.nq, a.dv, O, ldo, Or, a.nq));
    CHECK(mat_maxdiff(a.nq, a.nk, A, a.nq, Ar, a.nq) <= 1e-14, "%s, weights: A off by %g",
          VNAME[v], mat_maxdiff(a.nq, a.nk, A, a.nq, Ar, a.nq));
    CHECK(lse_diff(a.nq, lse, lr) <= 1e-12, "%s, weights: lse off by %g", VNAME[v],
          lse_diff(a.nq, lse, lr));
    free(Or); free(Ar); free(O); free(A); free(lr); free(lse); free(mx); free(sum); free(work);
  }
  prob_free(&p);
}

/* A fully hidden row gives exact zeros and -inf (rows 0..4 under coff -5,
** rows 0, 7, nq - 1 under the column mask), on both paths. */
static void hidden_rows(void) {
  Prob p;
  int v, i, l;
  prob_new(&p, 300, 700, 16, 8, 32);
  for (v = CAUSAL_NEG; v <= MASK_COL_BIAS_FULL; v += MASK_COL_BIAS_FULL - CAUSAL_NEG) {
    lak_Attn a = variant(&p, v);
    static const int rows_neg[] = {0, 1, 2, 3, 4}, rows_col[] = {0, 7, 299};
    const int *rows = v == CAUSAL_NEG ? rows_neg : rows_col, nr = v == CAUSAL_NEG ? 5 : 3;
    double *O = ck_alloc((size_t)a.nq * a.dv, sizeof(double)), *lse = ck_alloc((size_t)a.nq, sizeof(double));
    double *A = ck_alloc((size_t)a.nq * a.nk, sizeof(double)), *mx = ck_alloc((size_t)a.nq, sizeof(double));
    double *sum = ck_alloc((size_t)a.nq, sizeof(double)), *work = ck_alloc(lak_attn_work(&a, 1), sizeof(double));
    int path;
    for (path = 0; path < 2; path++) {
      int bad = 0;
      memset(O, 0xff, (size_t)a.nq * a.dv * sizeof(double));
      memset(A, 0xff, (size_t)a.nq * a.nk * sizeof(double));
      if (path == 0) lak_attention(&a, O, a.nq, lse, work, 1);
      else lak_attention_weights(&a, O, a.nq, A, a.nq, lse, mx, sum);
      for (i = 0; i < nr; i++) {
        for (l = 0; l < a.dv; l++) bad += O[rows[i] + (size_t)l * a.nq] != 0.0;
        if (path == 1) for (l = 0; l < a.nk; l++) bad += A[rows[i] + (size_t)l * a.nq] != 0.0;
        bad += lse[rows[i]] != -HUGE_VAL;
      }
      CHECK(bad == 0, "%s, %s: %d entries of the hidden rows are not 0 / -inf", VNAME[v],
            path ? "weights" : "fused", bad);
      CHECK(count_neginf(a.nq, lse) == nr, "%s: %d rows with lse -inf, want %d", VNAME[v],
            count_neginf(a.nq, lse), nr);
    }
    free(O); free(lse); free(A); free(mx); free(sum); free(work);
  }
  prob_free(&p);
}

/* Keys split at nk1: each half attended on its own (causal offset and
** mask shifted to the half), then combined, equals the whole; also in
** place (O = O1). Under causal top-left the first 150 rows see nothing of
** the second half (lse2 = -inf there). */
static void combine(void) {
  Prob p;
  const int nk1 = 150;
  int v;
  prob_new(&p, 300, 700, 16, 8, 33);
  for (v = CAUSAL_TL; v <= MASK_FULL; v++) {
    lak_Attn a = variant(&p, v), a1 = a, a2 = a;
    int nq = a.nq, dv = a.dv;
    double *Ow = ck_alloc((size_t)nq * dv, sizeof(double)), *lw = ck_alloc((size_t)nq, sizeof(double));
    double *O1 = ck_alloc((size_t)nq * dv, sizeof(double)), *l1 = ck_alloc((size_t)nq, sizeof(double));
    double *O2 = ck_alloc((size_t)nq * dv, sizeof(double)), *l2 = ck_alloc((size_t)nq, sizeof(double));
    double *O = ck_alloc((size_t)nq * dv, sizeof(double)), *lse = ck_alloc((size_t)nq, sizeof(double));
    double *work = ck_alloc(lak_attn_work(&a, 1), sizeof(double));
    a1.nk = nk1;
    a2.nk = a.nk - nk1; a2.K = a.K + nk1; a2.V = a.V + nk1; a2.coff = a.coff - nk1;
    if (a.mask) a2.mask = a.mask + nk1 * a.mcs;
    naive(&a, Ow, nq, lw, NULL);
    lak_attention(&a1, O1, nq, l1, work, 1);
    lak_attention(&a2, O2, nq, l2, work, 1);
    lak_attn_combine(nq, dv, O1, nq, l1, O2, nq, l2, O, nq, lse);
    CHECK(mat_maxdiff(nq, dv, O, nq, Ow, nq) <= 1e-13, "%s: combined O off by %g", VNAME[v],
          mat_maxdiff(nq, dv, O, nq, Ow, nq));
    CHECK(lse_diff(nq, lse, lw) <= 1e-12, "%s: combined lse off by %g", VNAME[v],
          lse_diff(nq, lse, lw));
    lak_attn_combine(nq, dv, O1, nq, l1, O2, nq, l2, O1, nq, l1);     /* in place */
    CHECK(mat_maxdiff(nq, dv, O1, nq, O, nq) == 0.0 && lse_diff(nq, l1, lse) == 0.0,
          "%s: combining in place differs", VNAME[v]);
    if (v == CAUSAL_TL)
      CHECK(count_neginf(nq, l2) == nk1, "causal: %d rows see no key of the second half, want %d",
            count_neginf(nq, l2), nk1);
    free(Ow); free(lw); free(O1); free(l1); free(O2); free(l2); free(O); free(lse); free(work);
  }
  { /* both halves empty for a row: zeros and -inf */
    double o1 = 1.0, o2 = 2.0, o, l;
    double n1 = -HUGE_VAL, n2 = -HUGE_VAL;
    lak_attn_combine(1, 1, &o1, 1, &n1, &o2, 1, &n2, &o, 1, &l);
    CHECK(o == 0.0 && l == -HUGE_VAL, "two empty halves: o %g, lse %g", o, l);
  }
  prob_free(&p);
}

/* The seed text (000): Q = [1, 0], K rows [1, 0], [0, 1], [1, 1], V rows
** [1, 0], [0, 2], [1, 1], scale 1/sqrt(2). Scores e = [c, 0, c], c =
** 1/sqrt(2), so weights [w, 1 - 2w, w] with w = e^c / (2 e^c + 1) and o =
** [2w, 2(1 - 2w) + w]: 0.4011, 0.1978, 0.4011 and [0.8022, 0.7967] (the
** seeds' README corrects the text's rounded o). */
static void seed_example(void) {
  const double Q[2] = {1, 0}, K[6] = {1, 0, 1, 0, 1, 1}, V[6] = {1, 0, 1, 0, 2, 1};
  const double w = exp(sqrt(0.5)) / (2 * exp(sqrt(0.5)) + 1);
  double O[2], A[3], lse, mx, sum;
  lak_Attn a;
  memset(&a, 0, sizeof a);
  a.nq = 1; a.nk = 3; a.dk = 2; a.dv = 2; a.Q = Q; a.K = K; a.V = V;
  a.ldq = 1; a.ldk = 3; a.ldv = 3; a.scale = sqrt(0.5);
  lak_attention_weights(&a, O, 1, A, 1, &lse, &mx, &sum);
  CLOSE(A[0], w, 1e-15); CLOSE(A[1], 1 - 2 * w, 1e-15); CLOSE(A[2], w, 1e-15);
  CLOSE(A[0], 0.4011, 5e-5); CLOSE(A[1], 0.1978, 5e-5);
  CLOSE(O[0], 2 * w, 1e-15); CLOSE(O[1], 2 * (1 - 2 * w) + w, 1e-15);
  CLOSE(O[0], 0.8022, 5e-5); CLOSE(O[1], 0.7967, 5e-5);
  CLOSE(lse, log(2 * exp(sqrt(0.5)) + 1), 1e-15);
  {
    double *wk = ck_alloc(lak_attn_work(&a, 1), sizeof(double));
    O[0] = O[1] = NAN;
    lak_attention(&a, O, 1, &lse, wk, 1);
    CLOSE(O[0], 2 * w, 1e-15); CLOSE(O[1], 2 * (1 - 2 * w) + w, 1e-15);
    free(wk);
  }
}

/* naive softmax of row i of S (ld lds) into y */
static void softmax_row(int n, const double *S, int lds, int i, double *y, int logs) {
  double mx = -HUGE_VAL, sum = 0.0;
  int j;
  for (j = 0; j < n; j++) if (S[i + (size_t)j * lds] > mx) mx = S[i + (size_t)j * lds];
  for (j = 0; j < n; j++) sum += exp(S[i + (size_t)j * lds] - mx);
  for (j = 0; j < n; j++)
    y[j] = logs ? S[i + (size_t)j * lds] - mx - log(sum) : exp(S[i + (size_t)j * lds] - mx) / sum;
}

/* lak_softmax: rows sum to 1, match the formula (exp and log-softmax);
** large entries do not overflow; a row of -inf gives zeros (log: -inf);
** into another matrix, the bits of the in-place result. */
static void softmax(void) {
  const int m = 37, n = 600, lds = 40;
  double *S = ck_alloc((size_t)lds * n, sizeof(double)), *X = ck_alloc((size_t)lds * n, sizeof(double));
  double *Z = ck_alloc((size_t)(m + 1) * n, sizeof(double));
  double mx[37], sum[37], y[600];
  lak_Rng r;
  int i, j, logs;
  lak_rng_seed(&r, 34);
  mat_randn(&r, m, n, S, lds);
  for (j = 0; j < n; j++) {
    S[5 + (size_t)j * lds] *= 300.0;
    S[9 + (size_t)j * lds] = -HUGE_VAL;
    for (i = m; i < lds; i++) S[i + (size_t)j * lds] = 7.0;   /* the gap */
  }
  for (logs = 0; logs <= 1; logs++) {
    double dmax = 0.0, smax = 0.0;
    int bad9 = 0;
    int diff = 0;
    memcpy(X, S, (size_t)lds * n * sizeof(double));
    lak_softmax(m, n, X, lds, X, lds, logs, mx, sum);
    lak_softmax(m, n, S, lds, Z, m + 1, logs, mx, sum);             /* apart: the same bits */
    for (j = 0; j < n; j++)
      for (i = 0; i < m; i++)
        diff += memcmp(&Z[i + (size_t)j * (m + 1)], &X[i + (size_t)j * lds], sizeof(double)) != 0;
    CHECK(diff == 0, "softmax (log %d) into another matrix: %d entries differ from in place", logs, diff);
    for (i = 0; i < m; i++) {
      double s = 0.0;
      if (i == 9) {
        for (j = 0; j < n; j++) bad9 += X[9 + (size_t)j * lds] != (logs ? -HUGE_VAL : 0.0);
        continue;
      }
      softmax_row(n, S, lds, i, y, logs);
      for (j = 0; j < n; j++) {
        double x = X[i + (size_t)j * lds], e = fabs(x - y[j]);
        s += logs ? exp(x) : x;
        if (logs && x == y[j]) e = 0.0;          /* -inf == -inf */
        if (e > dmax || e != e) dmax = e;
      }
      if (fabs(s - 1.0) > smax) smax = fabs(s - 1.0);
    }
    CLOSE(dmax, 0.0, logs ? 1e-12 : 1e-15);
    CLOSE(smax, 0.0, 1e-13);
    CHECK(bad9 == 0, "softmax (log %d): %d entries of the -inf row are not %s", logs, bad9,
          logs ? "-inf" : "0");
    CHECK(X[m + 40 * lds] == 7.0, "softmax wrote into the gap below the rows (lds > m)");
  }
  { /* [1000, 1001]: e^1000 overflows, the stable form does not */
    double t[2] = {1000.0, 1001.0};
    lak_softmax(1, 2, t, 1, t, 1, 0, mx, sum);
    CLOSE(t[0], 1.0 / (1.0 + exp(1.0)), 1e-16);
    CLOSE(t[1], exp(1.0) / (1.0 + exp(1.0)), 1e-16);
  }
  free(S); free(X); free(Z);
}

int main(void) {
  against_naive();
  hidden_rows();
  combine();
  seed_example();
  softmax();
  return ck_done("attention");
}
