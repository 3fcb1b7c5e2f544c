/*
** spec/kernels/tsqr.c: the mergeable least-squares state. lak_lsq_add keeps
** R^T R = A^T A, R^T C = A^T B and rss + ||C||^2 = ||B||^2 (Q is
** orthogonal); split rows merged give the same state up to R's row signs;
** the serialized form round-trips exactly and its header rejects damage.
** The float kernels (lak_slsq_*, stpqrt) keep the same identities to
** float's precision: their states are widened to double and checked by the
** same functions with a tolerance scaled to FLT_EPSILON.
*/
#include <float.h>
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"

/* an empty state of either type (elements T, cleared by clear); freed by
** ST_FREE */
#define ST_NEW(s, n_, k_, T, clear) do { \
    (s)->n = (n_); (s)->k = (k_); \
    (s)->R = ck_alloc((size_t)(n_) * (n_), sizeof(T)); \
    (s)->C = ck_alloc((size_t)(n_) * (k_), sizeof(T)); \
    (s)->rss = ck_alloc((size_t)(k_), sizeof(T)); \
    clear(s); \
  } while (0)
#define ST_FREE(s) (free((s)->R), free((s)->C), free((s)->rss))

static void st_new(lak_Lsq *s, int n, int k) { ST_NEW(s, n, k, double, lak_lsq_clear); }
static void st_free(lak_Lsq *s) { ST_FREE(s); }

/* folds rows [i0, i1) of A (ld lda, n columns) and B (k columns) into s */
static int add_rows(lak_Lsq *s, int i0, int i1, const double *A, const double *B, int ld) {
  double *work = ck_alloc(lak_tsqr_work(i1 - i0, s->n, s->k), sizeof(double));
  int info = lak_lsq_add(s, i1 - i0, A + i0, ld, B + i0, ld, work);
  free(work);
  return info;
}

static int merge(lak_Lsq *s, const lak_Lsq *t) {
  double *work = ck_alloc(lak_lsq_merge_work(s->n, s->k), sizeof(double));
  int info = lak_lsq_merge(s, t, work);
  free(work);
  return info;
}

/* X^T Y (a x b, ld a; newly allocated) for X (m x a) and Y (m x b), both ld m */
static double *tmul(int m, int a, int b, const double *X, const double *Y) {
  double *P = ck_alloc((size_t)a * b, sizeof(double));
  mat_mul(1, 0, a, b, m, X, m, Y, m, P);
  return P;
}

static double maxabs(size_t len, const double *x) {
  double d = 0.0;
  size_t i;
  for (i = 0; i < len; i++) if (fabs(x[i]) > d || x[i] != x[i]) d = fabs(x[i]);
  return d;
}

/* R^T R = A^T A, R^T C = A^T B, rss_j + ||C_j||^2 = ||B_j||^2, R zero
** below its diagonal; tolerances relative to the largest entry */
static void check_state(const char *what, const lak_Lsq *s, int m, const double *A,
                        const double *B, double tol) {
  int n = s->n, k = s->k, i, j;
  double *AA = tmul(m, n, n, A, A), *AB = tmul(m, n, k, A, B), *BB = tmul(m, k, k, B, B);
  double *RR = tmul(n, n, n, s->R, s->R), *RC = tmul(n, n, k, s->R, s->C);
  double *CC = tmul(n, k, k, s->C, s->C), scale = maxabs((size_t)n * n, AA);
  int below = 0;
  CHECK(s->rows == m, "%s: rows %lld, want %d", what, (long long)s->rows, m);
  CLOSE(mat_maxdiff(n, n, RR, n, AA, n) / scale, 0.0, tol);
  CLOSE(mat_maxdiff(n, k, RC, n, AB, n) / scale, 0.0, tol);
  for (j = 0; j < k; j++)
    CLOSE((s->rss[j] + CC[j + (size_t)j * k]) / BB[j + (size_t)j * k], 1.0, tol);
  for (j = 0; j < n; j++)
    for (i = j + 1; i < n; i++) below += s->R[i + (size_t)j * n] != 0.0;
  CHECK(below == 0, "%s: %d nonzeros below R's diagonal", what, below);
  free(AA); free(AB); free(BB); free(RR); free(RC); free(CC);
}

/* two states hold the same fit: R^T R, R^T C, |R| (R is unique up to the
** signs of its rows), rss and rows */
static void check_same(const char *what, const lak_Lsq *s, const lak_Lsq *t, double tol) {
  int n = s->n, k = s->k;
  size_t c;
  double *R1 = tmul(n, n, n, s->R, s->R), *R2 = tmul(n, n, n, t->R, t->R);
  double *C1 = tmul(n, n, k, s->R, s->C), *C2 = tmul(n, n, k, t->R, t->C), d = 0.0;
  double scale = maxabs((size_t)n * n, R1);
  CLOSE(mat_maxdiff(n, n, R1, n, R2, n) / scale, 0.0, tol);
  CLOSE(mat_maxdiff(n, k, C1, n, C2, n) / scale, 0.0, tol);
  for (c = 0; c < (size_t)n * n; c++) {
    double e = fabs(fabs(s->R[c]) - fabs(t->R[c]));
    if (e > d) d = e;
  }
  CLOSE(d / sqrt(scale), 0.0, tol);
  for (c = 0; c < (size_t)k; c++) CLOSE(s->rss[c] / t->rss[c], 1.0, tol);
  CHECK(s->rows == t->rows, "%s: rows %lld and %lld", what, (long long)s->rows,
        (long long)t->rows);
  free(R1); free(R2); free(C1); free(C2);
}

/* one add, two adds, two states merged: n = 8, k = 2 (one row block) and
** n = 60, k = 4, m = 5000 (lak_tsqr_rows gives 2048: three blocks) */
static void add_and_merge(int m, int n, int k, int split, uint64_t seed) {
  double *A = ck_alloc((size_t)m * n, sizeof(double)), *B = ck_alloc((size_t)m * k, sizeof(double));
  lak_Lsq whole, twice, s1, s2;
  lak_Rng rng;
  lak_rng_seed(&rng, seed);
  mat_randn(&rng, m, n, A, m);
  mat_randn(&rng, m, k, B, m);
  st_new(&whole, n, k); st_new(&twice, n, k); st_new(&s1, n, k); st_new(&s2, n, k);
  CHECK(add_rows(&whole, 0, m, A, B, m) == 0, "add: info");
  check_state("one add", &whole, m, A, B, 1e-13);
  CHECK(add_rows(&twice, 0, split, A, B, m) == 0 && add_rows(&twice, split, m, A, B, m) == 0,
        "two adds: info");
  check_same("two adds", &twice, &whole, 1e-13);
  CHECK(add_rows(&s1, 0, split, A, B, m) == 0 && add_rows(&s2, split, m, A, B, m) == 0,
        "split: info");
  CHECK(merge(&s1, &s2) == 0, "merge: info");
  check_same("merged", &s1, &whole, 1e-13);
  check_state("merged", &s1, m, A, B, 1e-13);
  CHECK(lak_lsq_finite(&s1), "merged state not finite");
  st_free(&whole); st_free(&twice); st_free(&s1); st_free(&s2);
  free(A); free(B);
}

/* ------------------------------------------------------------ float */

static void fst_new(lak_sLsq *s, int n, int k) { ST_NEW(s, n, k, float, lak_slsq_clear); }
static void fst_free(lak_sLsq *s) { ST_FREE(s); }

static void widen(size_t len, const float *x, double *y) {
  size_t i;
  for (i = 0; i < len; i++) y[i] = x[i];
}

/* a double state holding the float state's values (st_free it) */
static lak_Lsq widened(const lak_sLsq *f) {
  lak_Lsq s;
  st_new(&s, f->n, f->k);
  widen((size_t)f->n * f->n, f->R, s.R);
  widen((size_t)f->n * f->k, f->C, s.C);
  widen((size_t)f->k, f->rss, s.rss);
  s.rows = f->rows;
  return s;
}

static int fadd_rows(lak_sLsq *s, int i0, int i1, const float *A, const float *B, int ld) {
  float *work = ck_alloc(lak_tsqr_work(i1 - i0, s->n, s->k), sizeof(float));
  int info = lak_slsq_add(s, i1 - i0, A + i0, ld, B + i0, ld, work);
  free(work);
  return info;
}

/* the float kernels on float data: one add, two adds, two states merged,
** against the identities in double on the same (float) numbers, within
** 4 n FLT_EPSILON; and a float state against the double state of the same
** rows */
static void fadd_and_merge(int m, int n, int k, int split, uint64_t seed) {
  size_t na = (size_t)m * n, nb = (size_t)m * k, i;
  double *A = ck_alloc(na, sizeof(double)), *B = ck_alloc(nb, sizeof(double));
  float *Af = ck_alloc(na, sizeof(float)), *Bf = ck_alloc(nb, sizeof(float));
  double tol = 4.0 * n * FLT_EPSILON;
  lak_sLsq whole, twice, s1, s2;
  lak_Lsq w, t, m1, d;
  lak_Rng rng;
  lak_rng_seed(&rng, seed);
  mat_randn(&rng, m, n, A, m);
  mat_randn(&rng, m, k, B, m);
  for (i = 0; i < na; i++) { Af[i] = (float)A[i]; A[i] = Af[i]; }
  for (i = 0; i < nb; i++) { Bf[i] = (float)B[i]; B[i] = Bf[i]; }
  fst_new(&whole, n, k); fst_new(&twice, n, k); fst_new(&s1, n, k); fst_new(&s2, n, k);
  CHECK(fadd_rows(&whole, 0, m, Af, Bf, m) == 0, "float add: info");
  w = widened(&whole);
  check_state("float one add", &w, m, A, B, tol);
  CHECK(fadd_rows(&twice, 0, split, Af, Bf, m) == 0 &&
        fadd_rows(&twice, split, m, Af, Bf, m) == 0, "float two adds: info");
  t = widened(&twice);
  check_same("float two adds", &t, &w, tol);
  CHECK(fadd_rows(&s1, 0, split, Af, Bf, m) == 0 && fadd_rows(&s2, split, m, Af, Bf, m) == 0,
        "float split: info");
  {
    float *work = ck_alloc(lak_lsq_merge_work(n, k), sizeof(float));
    CHECK(lak_slsq_merge(&s1, &s2, work) == 0, "float merge: info");
    free(work);
  }
  CHECK(lak_slsq_finite(&s1), "float merged state not finite");
  m1 = widened(&s1);
  check_same("float merged", &m1, &w, tol);
  check_state("float merged", &m1, m, A, B, tol);
  st_new(&d, n, k);                       /* the double kernels on the same numbers */
  CHECK(add_rows(&d, 0, m, A, B, m) == 0, "double add: info");
  check_same("float against double", &w, &d, tol);
  s1.R[n + 1] = NAN;
  CHECK(!lak_slsq_finite(&s1), "lak_slsq_finite missed a NaN in R");
  s1.R[n + 1] = 0; s1.rss[0] = INFINITY;
  CHECK(!lak_slsq_finite(&s1), "lak_slsq_finite missed an Inf in rss");
  fst_free(&whole); fst_free(&twice); fst_free(&s1); fst_free(&s2);
  st_free(&w); st_free(&t); st_free(&m1); st_free(&d);
  free(A); free(B); free(Af); free(Bf);
}

/* encode / header / decode: exact round trip; damage is refused */
static void bytes(void) {
  int n = 5, k = 3, n2 = -1, k2 = -1;
  size_t len = lak_lsq_bytes(n, k);
  double A[40 * 5], B[40 * 3];
  unsigned char *p = ck_alloc(len, 1), *q = ck_alloc(len, 1);
  lak_Lsq s, d;
  lak_Rng rng;
  lak_rng_seed(&rng, 99);
  mat_randn(&rng, 40, n, A, 40);
  mat_randn(&rng, 40, k, B, 40);
  st_new(&s, n, k); st_new(&d, n, k);
  add_rows(&s, 0, 40, A, B, 40);
  CHECK(len == 24 + 8 * (15 + 15 + 3) + 8, "lak_lsq_bytes(5, 3) = %zu", len);
  lak_lsq_encode(&s, p);
  CHECK(memcmp(p, "LSQS\1\0\0\0\5\0\0\0\3\0\0\0\50\0\0\0\0\0\0\0", 24) == 0,
        "header bytes: magic, version 1, n 5, k 3, rows 40, little-endian");
  CHECK(lak_lsq_header(p, len, &n2, &k2) == NULL && n2 == n && k2 == k,
        "header: %s, n %d, k %d", lak_lsq_header(p, len, &n2, &k2), n2, k2);
  CHECK(lak_lsq_decode(p, &d) == NULL, "decode: %s", lak_lsq_decode(p, &d));
  CHECK(memcmp(s.R, d.R, sizeof(double) * n * n) == 0 &&
        memcmp(s.C, d.C, sizeof(double) * n * k) == 0 &&
        memcmp(s.rss, d.rss, sizeof(double) * k) == 0 && d.rows == 40,
        "decoded state differs from the encoded one");
  /* a flipped bit anywhere in the data: the checksum */
  memcpy(q, p, len); q[24 + 8 * 7 + 3] ^= 0x10;
  CHECK(lak_lsq_header(q, len, &n2, &k2) != NULL, "a flipped data byte was accepted");
  memcpy(q, p, len); q[len - 1] ^= 1;
  CHECK(lak_lsq_header(q, len, &n2, &k2) != NULL, "a flipped checksum byte was accepted");
  memcpy(q, p, len); q[0] = 'X';
  CHECK(lak_lsq_header(q, len, &n2, &k2) != NULL, "a bad magic was accepted");
  memcpy(q, p, len); q[4] = 2;
  CHECK(lak_lsq_header(q, len, &n2, &k2) != NULL, "version 2 was accepted");
  /* truncated (by a double, by a byte) or padded */
  CHECK(lak_lsq_header(p, len - 8, &n2, &k2) != NULL, "a length 8 short was accepted");
  CHECK(lak_lsq_header(p, len - 1, &n2, &k2) != NULL, "a length 1 short was accepted");
  CHECK(lak_lsq_header(p, 20, &n2, &k2) != NULL, "a cut header was accepted");
  CHECK(lak_lsq_header(p, len - 8 * 5, &n2, &k2) != NULL, "a missing column was accepted");
  { /* padded by one double */
    unsigned char *big = ck_alloc(len + 8, 1);
    memcpy(big, p, len);
    CHECK(lak_lsq_header(big, len + 8, &n2, &k2) != NULL, "a padded length was accepted");
    free(big);
  }
  /* the values: a negative residual sum passes the checksum, not decode */
  s.rss[1] = -1.0;
  lak_lsq_encode(&s, q);
  CHECK(lak_lsq_header(q, len, &n2, &k2) == NULL, "re-encoded header refused");
  CHECK(lak_lsq_decode(q, &d) != NULL, "a negative residual sum was decoded");
  s.rss[1] = 1.0; s.R[n + 1] = NAN;
  CHECK(!lak_lsq_finite(&s), "lak_lsq_finite missed a NaN in R");
  lak_lsq_encode(&s, q);
  CHECK(lak_lsq_decode(q, &d) != NULL, "a NaN in R was decoded");
  st_free(&s); st_free(&d); free(p); free(q);
}

int main(void) {
  add_and_merge(500, 8, 2, 123, 5);
  add_and_merge(5000, 60, 4, 3100, 6);
  fadd_and_merge(500, 8, 2, 123, 7);
  fadd_and_merge(5000, 60, 4, 3100, 8);
  bytes();
  return ck_done("tsqr");
}
