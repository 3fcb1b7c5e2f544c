/*
** spec/kernels/gram_schmidt.c: lak_gram_schmidt (MGS, CGS, CGS2), column by
** column and blocked (k > LAK_GS_NB without dropping): V = Q R with Q^T Q =
** I and R upper triangular; dependent columns dropped or reported; the seed
** text's nearly dependent V_bad.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"

static const char *const NAME[] = {"mgs", "cgs", "cgs2"};

typedef struct Run {
  int m, k, kept;
  double *V, *W, *R, *work;
  int *keep;
  lak_GSFail fail;
} Run;

static void run_free(Run *r) {
  free(r->V); free(r->W); free(r->R); free(r->work); free(r->keep);
}

/* Orthogonalizes a copy of V (m x k): W holds Q, R is zeroed first. */
static void run(Run *r, lak_GS method, int m, int k, const double *V, double tol, int drop) {
  r->m = m; r->k = k;
  r->V = ck_alloc((size_t)m * k, sizeof(double));
  r->W = ck_alloc((size_t)m * k, sizeof(double));
  r->R = ck_alloc((size_t)k * k, sizeof(double));
  r->work = ck_alloc(LAK_GS_WORK(k), sizeof(double));
  r->keep = ck_alloc((size_t)k, sizeof(int));
  memcpy(r->V, V, (size_t)m * k * sizeof(double));
  memcpy(r->W, V, (size_t)m * k * sizeof(double));
  r->fail.col = -7; r->fail.unorm = r->fail.vnorm = -1.0;
  r->kept = lak_gram_schmidt(method, m, k, r->W, m, r->R, k, tol, drop, r->keep,
                             r->work, &r->fail);
}

/* max |V - Q R| with Q the kept columns of W and R's first kept rows */
static double recon_err(const Run *r) {
  double *QR = ck_alloc((size_t)r->m * r->k, sizeof(double)), d;
  int i, j, l;
  for (j = 0; j < r->k; j++)
    for (i = 0; i < r->m; i++) {
      double s = 0.0;
      for (l = 0; l < r->kept; l++) s += r->W[i + (size_t)l * r->m] * r->R[l + (size_t)j * r->k];
      QR[i + (size_t)j * r->m] = s;
    }
  d = mat_maxdiff(r->m, r->k, QR, r->m, r->V, r->m);
  free(QR);
  return d;
}

/* entries of R below its diagonal that are not exactly zero */
static int below_diag(const Run *r) {
  int i, j, bad = 0;
  for (j = 0; j < r->k; j++)
    for (i = j + 1; i < r->k; i++) bad += r->R[i + (size_t)j * r->k] != 0.0;
  return bad;
}

/* smallest diagonal entry of R's first kept rows (the kept norms, > 0) */
static double min_diag(const Run *r) {
  double d = HUGE_VAL;
  int p, j = 0;
  for (p = 0; p < r->kept; p++, j++) {
    while (!r->keep[j]) j++;
    if (r->R[p + (size_t)j * r->k] < d) d = r->R[p + (size_t)j * r->k];
  }
  return d;
}

/* Random well-conditioned V: every method, unblocked (k = 8, and k = 70
** with drop) and blocked (k = 70). */
static void random_full_rank(void) {
  static const int ks[] = {8, 70};
  lak_Rng rng;
  int ki, method, drop;
  for (ki = 0; ki < 2; ki++) {
    int k = ks[ki], m = 3 * k;
    double *V = ck_alloc((size_t)m * k, sizeof(double));
    lak_rng_seed(&rng, 100 + k);
    mat_randn(&rng, m, k, V, m);
    for (method = LAK_MGS; method <= LAK_CGS2; method++)
      for (drop = 0; drop <= 1; drop++) {
        Run r;
        int j, kept = 0;
        double orth_tol = method == LAK_CGS ? 1e-13 : 1e-14;
        run(&r, (lak_GS)method, m, k, V, 1e-10, drop);
        CHECK(r.kept == k, "%s k=%d drop=%d: kept %d", NAME[method], k, drop, r.kept);
        for (j = 0; j < k; j++) kept += r.keep[j] == 1;
        CHECK(kept == k, "%s k=%d drop=%d: %d keep flags set", NAME[method], k, drop, kept);
        CLOSE(mat_orth(m, k, r.W, m), 0.0, orth_tol);
        CLOSE(recon_err(&r), 0.0, 1e-13);
        CHECK(below_diag(&r) == 0, "%s k=%d: R has %d nonzeros below its diagonal",
              NAME[method], k, below_diag(&r));
        CHECK(min_diag(&r) > 0.0, "%s k=%d: R's diagonal has %g", NAME[method], k,
              min_diag(&r));
        run_free(&r);
      }
    free(V);
  }
}

/* Blocked (drop = 0) and column-by-column (drop = 1) runs of one method
** compute the same Q and R up to rounding. */
static void blocked_matches_unblocked(void) {
  int m = 200, k = 90, method;
  double *V = ck_alloc((size_t)m * k, sizeof(double));
  lak_Rng rng;
  lak_rng_seed(&rng, 7);
  mat_randn(&rng, m, k, V, m);
  for (method = LAK_MGS; method <= LAK_CGS2; method += 2) {
    Run b, c;
    run(&b, (lak_GS)method, m, k, V, 1e-10, 0);
    run(&c, (lak_GS)method, m, k, V, 1e-10, 1);
    CLOSE(mat_maxdiff(m, k, b.W, m, c.W, m), 0.0, 1e-12);
    CLOSE(mat_maxdiff(k, k, b.R, k, c.R, k), 0.0, 1e-12);
    run_free(&b); run_free(&c);
  }
  free(V);
}

/* Column d of V (m x k) := column a + 2 column b (exactly dependent up to
** rounding); column z := 0. */
static double *dependent(int m, int k, int d, int a, int b, int z, uint64_t seed) {
  double *V = ck_alloc((size_t)m * k, sizeof(double));
  lak_Rng rng;
  int i;
  lak_rng_seed(&rng, seed);
  mat_randn(&rng, m, k, V, m);
  for (i = 0; i < m; i++) {
    V[i + (size_t)d * m] = V[i + (size_t)a * m] + 2.0 * V[i + (size_t)b * m];
    if (z >= 0) V[i + (size_t)z * m] = 0.0;
  }
  return V;
}

/* drop = 1 skips the dependent and the zero column (keep[] = 0), compacts
** the rest and still gives V = Q R; drop = 0 stops at the first one. */
static void dependent_columns(void) {
  int m = 12, k = 6, method;
  double *V = dependent(m, k, 2, 0, 1, 4, 11);   /* v2 = v0 + 2 v1, v4 = 0 */
  for (method = LAK_MGS; method <= LAK_CGS2; method++) {
    Run r, s;
    double vn = 0.0;
    int i;
    run(&r, (lak_GS)method, m, k, V, 1e-10, 1);
    CHECK(r.kept == 4, "%s: kept %d of 6 (columns 2 and 4 dependent)", NAME[method], r.kept);
    CHECK(r.keep[0] && r.keep[1] && !r.keep[2] && r.keep[3] && !r.keep[4] && r.keep[5],
          "%s: keep = %d %d %d %d %d %d, want 1 1 0 1 0 1", NAME[method], r.keep[0],
          r.keep[1], r.keep[2], r.keep[3], r.keep[4], r.keep[5]);
    CLOSE(mat_orth(m, 4, r.W, m), 0.0, 1e-14);
    CLOSE(recon_err(&r), 0.0, 1e-13);
    /* column 2's coefficients: 1 and 2 on q0, q1 after undoing R's scaling */
    CLOSE(r.R[0 + 2 * k], r.R[0 + 0 * k] + 2.0 * r.R[0 + 1 * k], 1e-13);
    CLOSE(r.R[1 + 2 * k], 2.0 * r.R[1 + 1 * k], 1e-13);
    run_free(&r);

    run(&s, (lak_GS)method, m, k, V, 1e-10, 0);
    for (i = 0; i < m; i++) vn += V[i + 2 * m] * V[i + 2 * m];
    CHECK(s.kept == -1, "%s drop=0: returned %d, want -1", NAME[method], s.kept);
    CHECK(s.fail.col == 2, "%s drop=0: fail.col = %d, want 2", NAME[method], s.fail.col);
    CLOSE(s.fail.vnorm, sqrt(vn), 1e-13 * sqrt(vn));
    CHECK(s.fail.unorm >= 0.0 && s.fail.unorm <= 1e-10 * s.fail.vnorm,
          "%s drop=0: unorm %g vs vnorm %g", NAME[method], s.fail.unorm, s.fail.vnorm);
    run_free(&s);
  }
  free(V);
}

/* The blocked paths report the column by its index in the whole matrix
** (panels start at multiples of LAK_GS_NB). */
static void dependent_blocked(void) {
  int m = 120, k = 80, method;
  double *V = dependent(m, k, 45, 3, 40, -1, 12);
  for (method = LAK_MGS; method <= LAK_CGS2; method += 2) {
    Run r;
    run(&r, (lak_GS)method, m, k, V, 1e-10, 0);
    CHECK(r.kept == -1 && r.fail.col == 45, "%s blocked: returned %d, fail.col %d, want -1, 45",
          NAME[method], r.kept, r.fail.col);
    run_free(&r);
  }
  free(V);
}

/* The seed text (004, "Modified Gram-Schmidt"): V_bad = [1 1 1; e e 0;
** 0 e e], e = 1e-8. Its NumPy gram_schmidt and modified_gram_schmidt, run
** with /usr/bin/python3 (NumPy 1.24), both give Q = [1 0 0; 1e-8 0 -1;
** 0 1 0] and max |Q^T Q - I| = 1e-08 exactly (q1 . q3 = -1e-8): 1 + e^2
** rounds to 1, so q1 keeps its e and q3 loses it. Twice is enough: CGS2
** reaches orthogonality to rounding. */
static void seed_v_bad(void) {
  const double e = 1e-8;
  const double V[9] = {1, e, 0, 1, e, e, 1, 0, e};          /* column-major */
  const double Qnp[9] = {1, 1e-8, 0, 0, 0, 1, 0, -1, 0};
  int method;
  for (method = LAK_MGS; method <= LAK_CGS; method++) {
    Run r;
    run(&r, (lak_GS)method, 3, 3, V, 1e-12, 0);
    CHECK(r.kept == 3, "%s V_bad: kept %d", NAME[method], r.kept);
    CLOSE(mat_maxdiff(3, 3, r.W, 3, Qnp, 3), 0.0, 1e-15);
    CLOSE(mat_orth(3, 3, r.W, 3), 1e-8, 1e-15);
    CLOSE(recon_err(&r), 0.0, 1e-15);
    run_free(&r);
  }
  {
    Run r;
    run(&r, LAK_CGS2, 3, 3, V, 1e-12, 0);
    CHECK(r.kept == 3, "cgs2 V_bad: kept %d", r.kept);
    CLOSE(mat_orth(3, 3, r.W, 3), 0.0, 1e-15);
    CLOSE(recon_err(&r), 0.0, 1e-15);
    run_free(&r);
  }
}

int main(void) {
  random_full_rank();
  blocked_matches_unblocked();
  dependent_columns();
  dependent_blocked();
  seed_v_bad();
  return ck_done("gram_schmidt");
}
