/*
** kernels/kernels.h: numerical kernels with no Lua dependency.
** All matrices are column-major with a leading dimension; callers have
** validated shapes, so kernels never fail and never allocate unless noted.
*/
#ifndef LA_KERNELS_H
#define LA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Elementwise binary operations, see lak_ewise. */
typedef enum { LAK_ADD, LAK_SUB, LAK_MUL, LAK_DIV, LAK_POW } lak_Op;

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

/* 1 when all m entries of x are finite (no NaN, no Inf) */
int lak_allfinite(int m, const double *x);

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

/* Gram-Schmidt on the k columns of W (m x k, ldw), in place: the kept
** orthonormal columns end up compacted at the left of W. R (k x k, ldr,
** zeroed by the caller) receives row p for the p-th kept column, so that
** V = Q R with Q = W(:, 1..kept). A column whose remainder u satisfies
** ||u|| <= tol * ||v|| is dependent: with drop it is skipped (keep[j] = 0),
** otherwise the kernel stops and fills *fail. work: LAK_GS_WORK(k) doubles.
** Returns the number of kept columns, or -1 on a dependent column. */
typedef enum { LAK_MGS, LAK_CGS, LAK_CGS2 } lak_GS;
#define LAK_GS_NB 32                              /* panel width */
#define LAK_GS_WORK(k) ((size_t)(k) * (LAK_GS_NB + 2) + LAK_GS_NB * LAK_GS_NB)
typedef struct lak_GSFail { int col; double unorm, vnorm; } lak_GSFail;
int lak_gram_schmidt(lak_GS method, int m, int k, double *W, int ldw,
                     double *R, int ldr, double tol, int drop, int *keep,
                     double *work, lak_GSFail *fail);

/* Lawson-Hanson nonnegative least squares: w >= 0 minimising ||E w - f||,
** E p x n (lde). The inner least-squares problems use dgelsy (rank
** revealing, so dependent passive columns are harmless). Workspace sizes
** come from lak_nnls_work; lwork_ls from a dgelsy query on a p x n problem.
** Returns the number of outer iterations, or -1 if the cap (3n) was hit. */
size_t lak_nnls_work(int p, int n, int lwork_ls);
int lak_nnls(int p, int n, const double *E, int lde, const double *f,
             double *w, double *work, int lwork_ls, int *iwork);

/* The mergeable least-squares state (tsqr.c): for n unknowns and k
** right-hand sides, R (n x n, ld n, upper triangular, zero below), C = Q^T b
** (n x k, ld n), rss (k: squared norms of what no x reaches) and the row
** count. The caller owns the arrays. lak_lsq_add folds the m x n rows A and
** m x k rows B in (work: lak_tsqr_work(m, n, k) doubles); lak_lsq_merge
** folds t into s (work: lak_lsq_merge_work(n, k) doubles). Both return 0 or
** a LAPACK info; the caller checks s->rows stays <= INT64_MAX and, after,
** lak_lsq_finite (TSQR does not rescale: near DBL_MAX a norm overflows). */
typedef struct lak_Lsq {
  int n, k;
  int64_t rows;
  double *R, *C, *rss;
} lak_Lsq;
int lak_tsqr_rows(int64_t m, int n, int k);
size_t lak_tsqr_work(int64_t m, int n, int k);
size_t lak_lsq_merge_work(int n, int k);
void lak_lsq_clear(lak_Lsq *s);
void lak_lsq_copy(const lak_Lsq *s, lak_Lsq *d);   /* same n, k */
int lak_lsq_add(lak_Lsq *s, int m, const double *A, int lda, const double *B, int ldb,
                double *work);
int lak_lsq_merge(lak_Lsq *s, const lak_Lsq *t, double *work);
int lak_lsq_finite(const lak_Lsq *s);

/* Serialized states: lak_lsq_bytes(n, k) bytes, written by lak_lsq_encode.
** lak_lsq_header checks magic, version, n and k, the exact length and the
** checksum of len bytes, and gives n and k; lak_lsq_decode (after it, into
** a state of that n, k) checks the values. Both return NULL or a message. */
#define LAK_LSQ_VERSION 1
size_t lak_lsq_bytes(int n, int k);
void lak_lsq_encode(const lak_Lsq *s, unsigned char *p);
const char *lak_lsq_header(const unsigned char *p, size_t len, int *n, int *k);
const char *lak_lsq_decode(const unsigned char *p, lak_Lsq *s);

/* Scaled dot-product attention O = softmax(scale * Q K^T + bias, masked) V.
** Rows are tokens: Q nq x dk, K nk x dk, V nk x dv. mask (zero = masked)
** and bias may be NULL; entry (i, j) of each is at i * rs + j * cs, so an
** nq x nk matrix has rs = 1, cs = ld, a 1 x nk row rs = 0 and an nq x 1
** column cs = 0 (broadcasts). causal masks key j > query i + coff (coff 0:
** top-left aligned; nk - nq: bottom-right). A row with no unmasked key gets
** a zero output (and zero weights) and a log-sum-exp of -inf. */
typedef struct lak_Attn {
  int nq, nk, dk, dv;
  const double *Q, *K, *V;
  int ldq, ldk, ldv;
  double scale;
  int causal;
  long long coff;
  const double *mask, *bias;
  ptrdiff_t mrs, mcs, brs, bcs;
} lak_Attn;

#define LAK_ATTN_BQ 256   /* query rows per block */
#define LAK_ATTN_BK 512   /* key rows per block: the score tile is 1 MiB, half an L2 */

#define LAK_ATTN_MAXTHREADS 64

/* fused, streamed softmax on up to nthreads threads (the caller and helper
** threads it joins before returning); work: nthreads * lak_attn_work(a)
** doubles; O nq x dv; lse (nq, may be NULL) receives each row's
** log-sum-exp of its scaled, masked scores. Work that produces no element
** returns at once, and so does dk = 0 without mask or bias (every score is
** 0: running means of V), whatever nq and nk are. */
size_t lak_attn_work(const lak_Attn *a);
void lak_attention(const lak_Attn *a, double *O, int ldo, double *lse, double *work,
                   int nthreads);
/* materialized: A (nq x nk, lda = nq) receives the weights; mx, sum: nq
** doubles each; lse as above */
void lak_attention_weights(const lak_Attn *a, double *O, int ldo, double *A, int lda,
                           double *lse, double *mx, double *sum);
/* Attention over the union of two disjoint key sets from the results over
** each: O = (e1 O1 + e2 O2) / (e1 + e2), ek = exp(lsek - max), lse the
** union's; rows whose lse are both -inf get zeros and -inf. O may alias O1
** or O2 (same ld). All nq x dv, lse vectors nq. */
void lak_attn_combine(int nq, int dv, const double *O1, int ld1, const double *lse1,
                      const double *O2, int ld2, const double *lse2, double *O, int ldo,
                      double *lse);
/* fork: resets the thread bookkeeping in a child (registered once) */
void lak_attn_atfork(void);
/* x[i] = exp(x[i] - m[i]), sum[i] += x[i] for x[i] - m[i] <= 0 (0 below
** -708.39; NaN stays NaN): one softmax column step */
void lak_expsum(double *x, const double *m, double *sum, int n);

/* Row softmax (or log-softmax) of the m x n matrix S in place, stable (max
** subtracted); a row of only -inf gives zeros (log: -inf). mx, sum: m each. */
void lak_softmax(int m, int n, double *S, int lds, int logs, double *mx, double *sum);

/* Elementwise math (elementwise.c): B = f(A), A and B m x n (either may be a
** view; A == B in place is fine). The predicates give 1.0 / 0.0. */
typedef enum {
  LAK_EXP, LAK_LOG, LAK_LOG1P, LAK_EXPM1, LAK_SQRT, LAK_ABS, LAK_SIGN,
  LAK_FLOOR, LAK_CEIL, LAK_ROUND, LAK_SIN, LAK_COS, LAK_TAN, LAK_TANH,
  LAK_SINH, LAK_COSH, LAK_ASIN, LAK_ACOS, LAK_ATAN, LAK_LOG2, LAK_LOG10,
  LAK_ISNAN, LAK_ISINF, LAK_ISFINITE, LAK_NFN
} lak_Fn;
void lak_unary(lak_Fn f, int m, int n, const double *A, int lda, double *B, int ldb);
double lak_unary1(lak_Fn f, double x);

/* Broadcasting binary operations (operands as lak_ewise's): NaN-propagating
** maximum / minimum, comparisons giving 1.0 / 0.0, atan2, hypot. */
typedef enum {
  LAK_MAXIMUM, LAK_MINIMUM, LAK_LT, LAK_LE, LAK_GT, LAK_GE, LAK_EQ, LAK_NE,
  LAK_ATAN2, LAK_HYPOT, LAK_NBIN
} lak_Bin;
void lak_binary(lak_Bin op, int m, int n, lak_Arg a, lak_Arg b, double *c, int ldc);

/* c = a ~= 0 ? b : k (NumPy's where); c = min(max(a, b), k) (NumPy's clip) */
void lak_where(int m, int n, lak_Arg a, lak_Arg b, lak_Arg k, double *c, int ldc);
void lak_clip(int m, int n, lak_Arg a, lak_Arg b, lak_Arg k, double *c, int ldc);

#endif
