/*
** spec/kernels/arith.c: lak_gemm (tiny loop, dgemv and dgemm paths, all four
** transpositions) against a naive triple loop; lak_matmul (syrk for a
** matrix times its own transpose, gemm otherwise); lak_matmult (operands
** read transposed in place); lak_ewise over contiguous,
** strided and broadcast operands; lak_copy, lak_transpose, lak_allfinite.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"

/* C = alpha op(A) op(B) + beta C0 through lak_gemm and through the naive
** loop, with leading dimensions padded past the rows; returns the max
** difference relative to max(1, |entries|) */
static double gemm_err(lak_Rng *r, char ta, char tb, int m, int n, int k, double alpha,
                       double beta) {
  int ar = ta == 'T' ? k : m, ac = ta == 'T' ? m : k;
  int br = tb == 'T' ? n : k, bc = tb == 'T' ? k : n;
  int lda = ar + 2, ldb = br + 1, ldc = m + 3, i, j;
  double *A = ck_alloc((size_t)lda * ac, sizeof(double)), *B = ck_alloc((size_t)ldb * bc, sizeof(double));
  double *C = ck_alloc((size_t)ldc * n, sizeof(double)), *P = ck_alloc((size_t)m * n, sizeof(double));
  double d = 0.0;
  mat_randn(r, ar, ac, A, lda);
  mat_randn(r, br, bc, B, ldb);
  mat_randn(r, m, n, C, ldc);
  for (j = 0; j < n; j++) C[m + (size_t)j * ldc] = 12345.0;     /* below the rows */
  mat_mul(ta == 'T', tb == 'T', m, n, k, A, lda, B, ldb, P);
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) P[i + (size_t)j * m] = alpha * P[i + (size_t)j * m] + beta * C[i + (size_t)j * ldc];
  lak_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  for (j = 0; j < n; j++) {
    if (C[m + (size_t)j * ldc] != 12345.0) d = HUGE_VAL;
    for (i = 0; i < m; i++) {
      double e = fabs(C[i + (size_t)j * ldc] - P[i + (size_t)j * m]) / fmax(1.0, fabs(P[i + (size_t)j * m]));
      if (e > d || e != e) d = e;
    }
  }
  free(A); free(B); free(C); free(P);
  return d;
}

static void gemm(void) {
  static const char tr[2] = {'N', 'T'};
  lak_Rng r;
  int a, b, m, n, k;
  lak_rng_seed(&r, 1);
  for (a = 0; a < 2; a++)
    for (b = 0; b < 2; b++) {
      double tiny = 0.0, e;
      for (m = 1; m <= 5; m++)
        for (n = 1; n <= 5; n++)
          for (k = 1; k <= 5; k++) {
            e = gemm_err(&r, tr[a], tr[b], m, n, k, 1.5, -0.5);
            if (e > tiny || e != e) tiny = e;
          }
      CHECK(tiny <= 1e-15, "gemm %c%c, sizes 1..5 (tiny loop): off by %g", tr[a], tr[b], tiny);
      e = gemm_err(&r, tr[a], tr[b], 40, 40, 40, 1.5, -0.5);             /* dgemm */
      CHECK(e <= 1e-13, "gemm %c%c, 40 x 40 x 40 (dgemm): off by %g", tr[a], tr[b], e);
      e = gemm_err(&r, tr[a], tr[b], 60, 1, 60, -2.0, 0.25);   /* past the tiny loop: dgemv for tb = N */
      CHECK(e <= 1e-13, "gemm %c%c, 60 x 1 x 60: off by %g", tr[a], tr[b], e);
      e = gemm_err(&r, tr[a], tr[b], 17, 29, 40, 1.0, 0.0);              /* beta 0 */
      CHECK(e <= 1e-13, "gemm %c%c, 17 x 29 x 40, beta 0: off by %g", tr[a], tr[b], e);
    }
  { /* k = 0: C = beta C; tiny with beta = 0 never reads C (NaN stays out) */
    double C[4] = {1, 2, 3, 4}, A[1] = {0}, B[1] = {0}, A2[4] = {1, 2, 3, 4}, I2[4] = {1, 0, 0, 1};
    lak_gemm('N', 'N', 2, 2, 0, 1.0, A, 2, B, 1, 3.0, C, 2);
    CHECK(C[0] == 3 && C[1] == 6 && C[2] == 9 && C[3] == 12, "k = 0: C = %g %g %g %g",
          C[0], C[1], C[2], C[3]);
    C[0] = C[1] = C[2] = C[3] = NAN;
    lak_gemm('N', 'N', 2, 2, 2, 1.0, A2, 2, I2, 2, 0.0, C, 2);
    CHECK(C[0] == 1 && C[1] == 2 && C[2] == 3 && C[3] == 4, "beta 0 over NaN: C = %g %g %g %g",
          C[0], C[1], C[2], C[3]);
  }
}

static double op_ref(lak_Op op, double x, double y) {
  switch (op) {
    case LAK_ADD: return x + y;
    case LAK_SUB: return x - y;
    case LAK_MUL: return x * y;
    case LAK_DIV: return x / y;
    case LAK_POW: return pow(x, y);
  }
  return NAN;
}

/* lak_ewise(op) on a and b against the elementwise formula, exactly (the
** kernel computes the same IEEE operation); pow, other than its exact
** cases, is libmvec's where glibc has it: within 1 ulp of libm's */
static int ewise_bad(lak_Op op, int m, int n, lak_Arg a, lak_Arg b, int ldc) {
  double *c = ck_alloc((size_t)ldc * n, sizeof(double));
  int i, j, bad = 0;
  lak_ewise(op, m, n, a, b, c, ldc);
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double want = op_ref(op, a.p[i * a.rs + j * a.cs], b.p[i * b.rs + j * b.cs]);
      double got = c[i + (size_t)j * ldc];
      int ulp = op == LAK_POW && (got == nextafter(want, INFINITY) ||
                                  got == nextafter(want, -INFINITY));
      bad += !(got == want || ulp || (got != got && want != want));
    }
  free(c);
  return bad;
}

/* contiguous (the flat loop), a view with gaps, and the three broadcasts:
** a 1 x n row (rs = 0), an m x 1 column (cs = 0), a scalar (both 0) */
static void ewise(void) {
  enum { M = 7, NC = 5, LD = 9 };
  double X[LD * NC], Y[LD * NC], row[NC], col[M], sc = 1.75;
  lak_Rng r;
  int op, i;
  lak_rng_seed(&r, 2);
  for (i = 0; i < LD * NC; i++) { X[i] = lak_rng_normal(&r); Y[i] = lak_rng_uniform(&r) + 0.5; }
  for (i = 0; i < NC; i++) row[i] = lak_rng_normal(&r);
  for (i = 0; i < M; i++) col[i] = lak_rng_normal(&r);
  for (op = LAK_ADD; op <= LAK_POW; op++) {
    lak_Arg x = {X, 1, M}, y = {Y, 1, M}, xv = {X, 1, LD}, yv = {Y, 1, LD};
    lak_Arg rw = {row, 0, 1}, cl = {col, 1, 0}, s = {&sc, 0, 0};
    int bad = ewise_bad((lak_Op)op, M, NC, y, x, M)          /* flat */
            + ewise_bad((lak_Op)op, M, NC, yv, xv, LD + 1)   /* views */
            + ewise_bad((lak_Op)op, M, NC, yv, rw, M)        /* row broadcast */
            + ewise_bad((lak_Op)op, M, NC, cl, xv, M)        /* column broadcast */
            + ewise_bad((lak_Op)op, M, NC, s, yv, M)         /* scalar on the left */
            + ewise_bad((lak_Op)op, M, NC, cl, rw, M);       /* outer: column op row */
    CHECK(bad == 0, "ewise op %d: %d wrong entries", op, bad);
  }
  { /* known values: 2 - [1 2 3] and [1 2 3] ^ 2 */
    double v[3] = {1, 2, 3}, two = 2.0, c[3];
    lak_Arg a = {&two, 0, 0}, b = {v, 1, 3};
    lak_ewise(LAK_SUB, 3, 1, a, b, c, 3);
    CHECK(c[0] == 1 && c[1] == 0 && c[2] == -1, "2 - [1 2 3] = %g %g %g", c[0], c[1], c[2]);
    lak_ewise(LAK_POW, 3, 1, b, a, c, 3);
    CHECK(c[0] == 1 && c[1] == 4 && c[2] == 9, "[1 2 3] ^ 2 = %g %g %g", c[0], c[1], c[2]);
  }
}

/* copy between leading dimensions; transpose across its 32 x 32 blocks */
static void copy_transpose(void) {
  enum { M = 70, NC = 45 };
  double *A = ck_alloc((size_t)(M + 1) * NC, sizeof(double));
  double *B = ck_alloc((size_t)(M + 4) * NC, sizeof(double));
  double *T = ck_alloc((size_t)(NC + 2) * M, sizeof(double));
  int i, j, bad = 0;
  for (i = 0; i < (M + 1) * NC; i++) A[i] = i;
  lak_copy(M, NC, A, M + 1, B, M + 4);
  lak_transpose(M, NC, A, M + 1, T, NC + 2);
  for (j = 0; j < NC; j++)
    for (i = 0; i < M; i++) {
      bad += B[i + (size_t)j * (M + 4)] != A[i + (size_t)j * (M + 1)];
      bad += T[j + (size_t)i * (NC + 2)] != A[i + (size_t)j * (M + 1)];
    }
  for (j = 0; j < NC; j++) bad += B[M + (size_t)j * (M + 4)] != 0.0;   /* gaps untouched */
  for (i = 0; i < M; i++) bad += T[NC + (size_t)i * (NC + 2)] != 0.0;
  CHECK(bad == 0, "copy / transpose of 70 x 45: %d wrong entries", bad);
  free(A); free(B); free(T);
}

/* lak_take and lak_put for each element size: B(i, j) = A(r[i], c[j])
** with repeated and reversed indices past a vector's lanes (37 rows), rows
** by index or as a contiguous run; put back, the last repeated index wins */
static void take_put(void) {
  enum { M = 41, N = 5, R = 37 };
  static const size_t es[] = {8, 4, 1};
  int r[R], c[3] = {4, 0, 4}, e, i, j, bad = 0;
  for (i = 0; i < R; i++) r[i] = (i * 7) % M;
  r[R - 1] = r[0];                                  /* repeated: the last wins */
  for (e = 0; e < 3; e++) {
    unsigned char *A = ck_alloc((size_t)(M + 2) * N, es[e]), *B = ck_alloc((size_t)(R + 1) * 3, es[e]);
    unsigned char *P = ck_alloc((size_t)(M + 2) * N, es[e]);
    size_t k;
    for (k = 0; k < (size_t)(M + 2) * N * es[e]; k++) A[k] = (unsigned char)(k * 13 + 1);
    lak_take(es[e], R, 3, A, M + 2, r, 0, c, B, R + 1);
    for (j = 0; j < 3; j++)
      for (i = 0; i < R; i++)
        bad += memcmp(B + ((size_t)i + (size_t)j * (R + 1)) * es[e],
                      A + ((size_t)r[i] + (size_t)c[j] * (M + 2)) * es[e], es[e]) != 0;
    lak_take(es[e], R, 3, A, M + 2, NULL, 3, c, B, R + 1);          /* rows 3..39 */
    for (j = 0; j < 3; j++)
      for (i = 0; i < R; i++)
        bad += memcmp(B + ((size_t)i + (size_t)j * (R + 1)) * es[e],
                      A + ((size_t)(3 + i) + (size_t)c[j] * (M + 2)) * es[e], es[e]) != 0;
    lak_put(es[e], R, 3, P, M + 2, r, 0, c, B, 1, R + 1);           /* P(r, c) = B */
    for (j = 0; j < 3; j++)
      for (i = 0; i < R; i++) {
        int last = i == 0 ? R - 1 : i, jl = c[j] == 4 ? 2 : j;       /* the last writer */
        bad += memcmp(P + ((size_t)r[i] + (size_t)c[j] * (M + 2)) * es[e],
                      B + ((size_t)last + (size_t)jl * (R + 1)) * es[e], es[e]) != 0;
      }
    for (k = 0; k < (size_t)(M + 2) * es[e]; k++) bad += P[(size_t)(M + 2) * es[e] * 1 + k] != 0;
    CHECK(bad == 0, "take / put of %d-byte elements: %d wrong entries", (int)es[e], bad);
    free(A); free(B); free(P);
  }
}

/* lak_transpose at shapes across its 64 x 64 tiles and 4 x 4 blocks (edges
** of 1 to 3 rows or columns, one tile, several), with leading dimensions
** past the rows (odd, so columns start off 32-byte lines), the gaps below
** each column of B left untouched */
static void transpose_shapes(void) {
  static const int shapes[][2] = {{1, 1}, {1, 9}, {9, 1}, {3, 5}, {4, 4}, {64, 64}, {65, 63},
                                  {130, 67}, {67, 130}, {200, 3}, {3, 200}, {257, 129}};
  int s, i, j, bad = 0;
  for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
    int m = shapes[s][0], n = shapes[s][1], lda = m + 3, ldb = n + 1;
    double *A = ck_alloc((size_t)lda * n, sizeof(double)), *T = ck_alloc((size_t)ldb * m, sizeof(double));
    for (i = 0; i < lda * n; i++) A[i] = i + 0.5;
    lak_transpose(m, n, A, lda, T, ldb);
    for (j = 0; j < n; j++)
      for (i = 0; i < m; i++) bad += T[j + (size_t)i * ldb] != A[i + (size_t)j * lda];
    for (i = 0; i < m; i++) bad += T[n + (size_t)i * ldb] != 0.0;
    CHECK(bad == 0, "transpose of %d x %d: %d wrong entries", m, n, bad);
    free(A); free(T);
  }
}

/* lak_matmul(A, B) against the naive loop, A m x k; B is A's transpose
** (copied, its leading dimension other than A's) but for the entry
** (bi, bj) set to x, when bi >= 0. Returns the max difference; *sym: the
** result is symmetric exactly */
static double matmul_err(lak_Rng *r, int m, int k, int bi, int bj, double x, int *sym) {
  int lda = m + 2, ldb = k + 3, ldc = m + 1, i, j;
  double *A = ck_alloc((size_t)lda * k, sizeof(double)), *B = ck_alloc((size_t)ldb * m, sizeof(double));
  double *C = ck_alloc((size_t)ldc * m, sizeof(double)), *P = ck_alloc((size_t)m * m, sizeof(double));
  double d = 0.0;
  mat_randn(r, m, k, A, lda);
  for (j = 0; j < k; j++)
    for (i = 0; i < m; i++) B[j + (size_t)i * ldb] = A[i + (size_t)j * lda];
  if (bi >= 0) B[bi + (size_t)bj * ldb] = x;
  mat_mul(0, 0, m, m, k, A, lda, B, ldb, P);
  double *W = ck_alloc(lak_matmulbuf(m, m, k) + 1, sizeof(double));
  lak_matmul(m, m, k, A, lda, B, ldb, C, ldc, W);
  free(W);
  *sym = 1;
  for (j = 0; j < m; j++)
    for (i = 0; i < m; i++) {
      double e = fabs(C[i + (size_t)j * ldc] - P[i + (size_t)j * m]);
      d = e > d || e != e ? e : d;
      if (memcmp(C + i + (size_t)j * ldc, C + j + (size_t)i * ldc, sizeof(double))) *sym = 0;
    }
  free(A); free(B); free(C); free(P);
  return d;
}

/* X^T X by syrk: the product's values, both triangles the same bits; a B
** that differs from A^T in one entry (the last one, or one inside the
** first panel) takes gemm and gives its own product */
static void matmul_gram(void) {
  lak_Rng r;
  int sym;
  double e;
  static const int ms[] = {1, 2, 5, 20, 32, 33, 50, 100, 128, 200}, ks[] = {1, 3, 10, 70};
  size_t a, b;
  lak_rng_seed(&r, 11);
  /* every size: the small ones tested in place (lak_matmulbuf 0), the
  ** others through the workspace; gramt's X^T X up to 32, syrk above */
  for (a = 0; a < sizeof ms / sizeof *ms; a++)
    for (b = 0; b < sizeof ks / sizeof *ks; b++) {
      e = matmul_err(&r, ms[a], ks[b], -1, 0, 0.0, &sym);
      CHECK(e <= 1e-12 && sym, "A A^T at %d x %d: off by %g, symmetric %d", ms[a], ks[b], e, sym);
    }
  e = matmul_err(&r, 5, 10, 9, 4, 7.0, &sym);
  CHECK(e <= 1e-12 && !sym, "A B, B = A^T but its last entry, 5 x 10 (in place): off by %g", e);
  e = matmul_err(&r, 20, 10, 0, 19, 7.0, &sym);
  CHECK(e <= 1e-12 && !sym, "A B, B = A^T but entry (0, 19), 20 x 10 (in place): off by %g", e);
  e = matmul_err(&r, 130, 300, 299, 129, 7.0, &sym);
  CHECK(e <= 1e-12 && !sym, "A B, B = A^T but its last entry, 130 x 300: off by %g", e);
  e = matmul_err(&r, 130, 300, 5, 3, 7.0, &sym);
  CHECK(e <= 1e-12 && !sym, "A B, B = A^T but entry (5, 3): off by %g", e);
}

/* lak_matmult(ta, tb) against the naive loop, A (ar x ac, leading
** dimension ar + 2) with itself (B = A, one of them transposed: gramt or
** syrk at every size) or with a copy of A (gemm); both
** transposed: A^T A^T, A square; same 2: B is A's first n - 10 columns
** (or rows, B transposed), one pointer but not the same matrix. Returns the max difference relative to
** max(1, |entry|); *sym: the
** result is symmetric exactly */
static double matmult_err(lak_Rng *r, char ta, char tb, int ar, int ac, int same, int *sym) {
  int lda = ar + 2, m = ta == 'T' ? ac : ar, k = ta == 'T' ? ar : ac;
  int n = (tb == 'T' ? ar : ac) - (same == 2 ? 10 : 0);   /* 2: a view from one entry */
  int ldc = m + 1, i, j;
  double *A = ck_alloc((size_t)lda * ac, sizeof(double)), *B = ck_alloc((size_t)lda * ac, sizeof(double));
  double *C = ck_alloc((size_t)ldc * n, sizeof(double)), *P = ck_alloc((size_t)m * n, sizeof(double));
  double d = 0.0;
  mat_randn(r, ar, ac, A, lda);
  memcpy(B, A, (size_t)lda * ac * sizeof(double));
  mat_mul(ta == 'T', tb == 'T', m, n, k, A, lda, B, lda, P);
  lak_matmult(ta, tb, m, n, k, A, lda, same ? A : B, lda, C, ldc);
  *sym = m == n;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double p = P[i + (size_t)j * m], e = fabs(C[i + (size_t)j * ldc] - p) / (fabs(p) > 1 ? fabs(p) : 1);
      d = e > d || e != e ? e : d;
      if (m == n && memcmp(C + i + (size_t)j * ldc, C + j + (size_t)i * ldc, sizeof(double))) *sym = 0;
    }
  free(A); free(B); free(C); free(P);
  return d;
}

/* X^T X and X X^T read in place: symmetric bits at every size (gramt up
** to 32 columns, syrk); the other transpositions (A^T B, A B^T of a copy)
** by gemm */
static void matmult(void) {
  static const struct { char ta, tb; int ar, ac, same, sym; } c[] = {
    {'T', 'N', 300, 60, 1, 1}, {'N', 'T', 60, 300, 1, 1}, {'T', 'N', 40000, 8, 1, 1},
    {'T', 'N', 300, 20, 1, 1}, {'T', 'N', 300, 60, 0, 0}, {'N', 'T', 60, 300, 0, 0},
    {'T', 'T', 50, 50, 0, 0}, {'T', 'N', 5, 3, 1, 1}, {'N', 'T', 5, 3, 1, 1},
    {'N', 'T', 40, 7, 1, 1}, {'T', 'N', 7, 40, 1, 1}, {'T', 'N', 300, 60, 2, 0},
    {'N', 'T', 60, 300, 2, 0}};
  lak_Rng r;
  int t, sym;
  lak_rng_seed(&r, 12);
  for (t = 0; t < (int)(sizeof c / sizeof c[0]); t++) {
    double e = matmult_err(&r, c[t].ta, c[t].tb, c[t].ar, c[t].ac, c[t].same, &sym);
    CHECK(e <= 1e-12 && (!c[t].sym || sym), "%c%c %d x %d (same %d): off by %g, symmetric %d",
          c[t].ta, c[t].tb, c[t].ar, c[t].ac, c[t].same, e, sym);
  }
}

static void allfinite(void) {
  double x[100];
  const double special[3] = {NAN, HUGE_VAL, -HUGE_VAL};
  int i, s, p, missed = 0;
  for (i = 0; i < 100; i++) x[i] = (i - 50) * 1e300;      /* large but finite */
  x[3] = -0.0; x[4] = 4.9406564584124654e-324; x[5] = 1.7976931348623157e308;
  CHECK(lak_allfinite(100, x) == 1, "finite vector reported not finite");
  CHECK(lak_allfinite(0, x) == 1, "empty vector reported not finite");
  for (s = 0; s < 3; s++)
    for (p = 0; p < 100; p += 33) {
      double keep = x[p];
      x[p] = special[s];
      missed += lak_allfinite(100, x) != 0;
      x[p] = keep;
    }
  CHECK(missed == 0, "lak_allfinite missed %d NaN / Inf entries", missed);
}

int main(void) {
  gemm();
  matmul_gram();
  matmult();
  ewise();
  copy_transpose();
  take_put();
  transpose_shapes();
  allfinite();
  return ck_done("arith");
}
