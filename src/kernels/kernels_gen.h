/*
** kernels/kernels_gen.h: the declarations of the kernels written once for
** both element types; kernels.h includes this file through generate.h, once
** for double (lak_gemm, lak_Attn, ...) and once for float (lak_sgemm,
** lak_sAttn, ...). "Elements" below are LAK_REAL's.
*/

/* An operand of a broadcasting operation: element (i,j) is p[i*rs + j*cs].
** A broadcast dimension has stride 0. */
typedef struct LAK(Arg) { const LAK_REAL *p; ptrdiff_t rs, cs; } LAK(Arg);

void LAK(ewise)(lak_Op op, int m, int n, LAK(Arg) a, LAK(Arg) b,
                LAK_REAL *c, int ldc);

/* C = alpha * op(A) * op(B) + beta * C, op chosen by ta/tb ('N' or 'T').
** Tiny products use a direct loop (the BLAS call overhead dominates there);
** everything else goes to cblas_?gemm / cblas_?gemv. */
void LAK(gemm)(char ta, char tb, int m, int n, int k, LAK_REAL alpha,
               const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb,
               LAK_REAL beta, LAK_REAL *C, int ldc);

/* A B where B (k x m) may hold A's transpose (A m x k): a product of a
** matrix and its own transpose (NumPy's X.T @ X, X @ X.T) goes to
** lak_gramt (up to LAK_GRAMT_MAX columns) or syrk, and its result is
** symmetric exactly (both triangles from one), at every size, as NumPy's;
** anything else to lak_gemm. Every square product is tested, with buf,
** lak_matmulbuf(m, n, k) entries of the caller's workspace (0: none
** needed, buf may be NULL; a NULL buf is always right, and slower past
** the small sizes). B is A's transpose when every entry has A's bits (NaN
** and -0 compare as bits): the test stops at the first entry that
** differs; it reads A and B once each, through panels of B transposed
** into buf. */
size_t LAK(matmulbuf)(int m, int n, int k);
void LAK(matmul)(int m, int n, int k, const LAK_REAL *A, int lda, const LAK_REAL *B,
                 int ldb, LAK_REAL *C, int ldc, LAK_REAL *buf);

/* op(A) op(B) (m x n, inner size k; ta, tb 'N' or 'T', at least one 'T'),
** each operand read in place: X^T r is one gemv over X. A matrix with its
** own transpose (B with A's bits, one of them transposed, a square result:
** X^T X, X X^T): X^T X of up to LAK_GRAMT_MAX columns by lak_gramt (syrk
** without AVX-512), wider ones and X X^T by syrk (NumPy's X.T @ X takes
** syrk); all symmetric bit for bit. Anything else to lak_gemm. */
void LAK(matmult)(char ta, char tb, int m, int n, int k, const LAK_REAL *A, int lda,
                  const LAK_REAL *B, int ldb, LAK_REAL *C, int ldc);

/* C's strict upper triangle from its lower one (C n x n): what syrk left */
void LAK(mirror)(int n, LAK_REAL *C, int ldc);

/* 1 when all m entries of x are finite (no NaN, no Inf) */
int LAK(allfinite)(int m, const LAK_REAL *x);
/* C(i, j) = C(i, j) / (u[i] v[j]) clamped to [-1, 1] (NaN stays): the
** cosines of cosine_matrix from the products of its rows */
void LAK(cosscale)(int m, int n, LAK_REAL *C, int ldc, const double *u, const double *v);
/* the same as C(i, j) / u[i] / v[j], NumPy's corrcoef's two divisions */
void LAK(corrscale)(int m, int n, LAK_REAL *C, int ldc, const double *u, const double *v);

/* Copy an m x n block between leading dimensions (optionally transposed). */
void LAK(copy)(int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb);
void LAK(transpose)(int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb);

/* Gram-Schmidt (see lak_GS in kernels.h); work: LAK_GS_WORK(k) elements. */
int LAK(gram_schmidt)(lak_GS method, int m, int k, LAK_REAL *W, int ldw,
                      LAK_REAL *R, int ldr, double tol, int drop, int *keep,
                      LAK_REAL *work, lak_GSFail *fail);

/* Scaled dot-product attention O = softmax(scale * Q K^T + bias, masked) V.
** Rows are tokens: Q nq x dk, K nk x dk, V nk x dv. mask (zero = masked)
** and bias may be NULL; entry (i, j) of each is at i * rs + j * cs, so an
** nq x nk matrix has rs = 1, cs = ld, a 1 x nk row rs = 0 and an nq x 1
** column cs = 0 (broadcasts). causal masks key j > query i + coff (coff 0:
** top-left aligned; nk - nq: bottom-right). A row with no unmasked key gets
** a zero output (and zero weights) and a log-sum-exp of -inf. */
typedef struct LAK(Attn) {
  int nq, nk, dk, dv;
  const LAK_REAL *Q, *K, *V;
  int ldq, ldk, ldv;
  LAK_REAL scale;
  int causal;
  long long coff;
  const LAK_REAL *mask, *bias;
  ptrdiff_t mrs, mcs, brs, bcs;
} LAK(Attn);

/* fused, streamed softmax on up to nthreads threads (the caller and helper
** threads it joins before returning); work: lak_attn_work(a, nthreads)
** elements; O nq x dv; lse (nq, may be NULL) receives each row's
** log-sum-exp of its scaled, masked scores. Work that produces no element
** returns at once, and so does dk = 0 without mask or bias (every score is
** 0: running means of V), whatever nq and nk are. */
size_t LAK(attn_work)(const LAK(Attn) *a, int nthreads);
void LAK(attention)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *lse,
                    LAK_REAL *work, int nthreads);
/* A list of attentions (a batch of heads: each head's Q, K, V, O and lse
** are column blocks of the caller's matrices, read through their ld's),
** run as lak_units' units on up to nthreads threads, each unit's result
** bitwise the same whatever nthreads is. work: lak_attn_units_work(u, n,
** nthreads) elements. */
typedef struct LAK(AttnUnit) {
  LAK(Attn) a;
  LAK_REAL *O, *lse;          /* lse may be NULL */
  int ldo;
} LAK(AttnUnit);
size_t LAK(attn_units_work)(const LAK(AttnUnit) *u, int n, int nthreads);
void LAK(attn_units)(const LAK(AttnUnit) *u, int n, LAK_REAL *work, int nthreads);
/* materialized: A (nq x nk, lda = nq) receives the weights; mx, sum (double): nq
** elements each; lse as above */
void LAK(attention_weights)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *A,
                            int lda, LAK_REAL *lse, LAK_REAL *mx, double *sum);
/* Attention over the union of two disjoint key sets from the results over
** each: O = (e1 O1 + e2 O2) / (e1 + e2), ek = exp(lsek - max), lse the
** union's; rows whose lse are both -inf get zeros and -inf. O may alias O1
** or O2 (same ld). All nq x dv, lse vectors nq. */
void LAK(attn_combine)(int nq, int dv, const LAK_REAL *O1, int ld1, const LAK_REAL *lse1,
                       const LAK_REAL *O2, int ld2, const LAK_REAL *lse2, LAK_REAL *O,
                       int ldo, LAK_REAL *lse);
/* x[i] = exp(x[i] - m[i]), sum[i] += x[i] for x[i] - m[i] <= 0; NaN stays
** NaN; 0 below LAK_EXPSUM_MIN (-708.39 for double, -87.33 for float: where
** the result would be subnormal). One softmax column step, vectorized with
** its own polynomial (attention.c gives the accuracy). */
void LAK(expsum)(LAK_REAL *x, const LAK_REAL *m, LAK_REAL *sum, int n);
/* x[i] = 2^x[i] for x[i] <= 0 by the AVX-512 attention kernel's method (0
** below -126 for float, -1022 for double; NaN stays NaN); returns 0 and
** leaves x alone when this CPU runs the other kernel. */
int LAK(simd_exp2)(LAK_REAL *x, int n);

/* Column softmax (or log-softmax) of the m x n matrix S in place, one
** column at a time: its max (NaN if it has one), exp(s - max), their sum in
** double (kernels/reduce.c), then a division (the log of the sum
** subtracted); a column of only -inf gives zeros (stays -inf); t: m
** entries of scratch (log-softmax's exps) */
void LAK(colsoftmax)(int m, int n, LAK_REAL *S, int lds, int logs, LAK_REAL *t);
/* Row softmax (or log-softmax) of the m x n matrix S into R (S itself, or
** apart from it), stable (max subtracted); a row of only -inf gives zeros
** (log: -inf). mx, sum: m each (the sums in double, also of floats). */
void LAK(softmax)(int m, int n, const LAK_REAL *S, int lds, LAK_REAL *R, int ldr, int logs,
                  LAK_REAL *mx, double *sum);

/* Elementwise math: B = f(A), A and B m x n (either may be a view; A == B
** in place is fine). The predicates give 1 / 0. */
void LAK(unary)(lak_Fn f, int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb);
LAK_REAL LAK(unary1)(lak_Fn f, LAK_REAL x);
/* B = A rounded to d decimals, half to even, by NumPy's steps in the
** element type: rint(x * 10^d) / 10^d for d >= 0, rint(x / 10^-d) * 10^-d
** for d < 0 (10^|d| from lak_pow10, rounded to the type) */
void LAK(round)(int d, int m, int n, const LAK_REAL *A, int lda, LAK_REAL *B, int ldb);

/* Broadcasting binary operations (operands as lak_ewise's): NaN-propagating
** maximum / minimum, comparisons giving 1 / 0, atan2, hypot. */
void LAK(binary)(lak_Bin op, int m, int n, LAK(Arg) a, LAK(Arg) b, LAK_REAL *c, int ldc);
/* the comparisons op (LAK_LT ... LAK_NE) into bytes 1 / 0 (bool matrices);
** the tests f (LAK_ISNAN, LAK_ISINF, LAK_ISFINITE) of A into bytes B */
void LAK(compare)(lak_Bin op, int m, int n, LAK(Arg) a, LAK(Arg) b, unsigned char *c, int ldc);
void LAK(test)(lak_Fn f, int m, int n, const LAK_REAL *A, int lda, unsigned char *B, int ldb);

/* Counts of A's nonzero entries (NaN included), into r: dim 1 per column
** (r[j], j < n), dim 2 per row (r[i], i < m), 0 over all (r[0]). */
void LAK(nonzeros)(int dim, int m, int n, const LAK_REAL *A, int lda, double *r);

/* c = a ~= 0 ? b : k (NumPy's where); c = min(max(a, b), k) (NumPy's clip) */
void LAK(where)(int m, int n, LAK(Arg) a, LAK(Arg) b, LAK(Arg) k, LAK_REAL *c, int ldc);
/* c = K ? a : b, K an m x n bool mask (bytes), a and b as lak_ewise's */
void LAK(bwhere)(int m, int n, const unsigned char *K, int ldk, LAK(Arg) a, LAK(Arg) b,
                 LAK_REAL *c, int ldc);
void LAK(clip)(int m, int n, LAK(Arg) a, LAK(Arg) b, LAK(Arg) k, LAK_REAL *c, int ldc);

/* Reductions of a line of n elements x[0], x[s], x[2s], ..., accumulated
** in double whatever the element type: sum, product, mean, min, max (the
** first NaN, else the extreme), variance and standard deviation with ddof
** subtracted from the count (two passes). n = 0: sum 0, product 1; the
** others need n > 0 (var and std n > ddof). lak_argext: the 0-based index
** of the smallest (wantmax: largest) entry, the first NaN winning, then the
** first of equal extremes. lak_scan: y[i ys] = running sum (LAK_CUMPROD:
** product) of x up to i, accumulated in double, stored as an element;
** LAK_CUMMIN / LAK_CUMMAX: the running extreme, NaN from the first NaN on
** (np.minimum.accumulate). */
double LAK(reduce)(lak_Red r, size_t n, const LAK_REAL *x, ptrdiff_t s, double ddof);
/* lak_reduce(LAK_SUM) of the entries of the m x n view a (lda), column by
** column, with the bits of the same call on its packed copy */
double LAK(viewsum)(size_t m, size_t n, const LAK_REAL *a, size_t lda);
/* lak_reduce (lak_vnorm of order p) of each of the n columns of the m x n
** a, into out[0..n-1]: the same bits, columns of up to 128 entries in one
** loop (dim 1 of a wide matrix) */
void LAK(colreduce)(lak_Red r, size_t m, size_t n, const LAK_REAL *a, size_t lda, double ddof,
                    double *out);
void LAK(colpnorms)(double p, size_t m, size_t n, const LAK_REAL *a, size_t lda, double *out);
size_t LAK(argext)(int wantmax, size_t n, const LAK_REAL *x, ptrdiff_t s);
/* lak_argext of each column of the m x n column-major a (lda), 1-based:
** out[j os] = 1 + column j's index (NumPy's argmax(a, axis=0) + 1) */
void LAK(colargext)(int wantmax, size_t m, size_t n, const LAK_REAL *a, size_t lda, double *out,
                    ptrdiff_t os);
/* lak_colargext of columns of 1..16 doubles (1..32 floats) in AVX-512
** vectors (kernels/colarg.c); returns 0, untouched, where it does not run */
int LAK(colargshort)(int wantmax, size_t m, size_t n, const LAK_REAL *a, size_t lda,
                     double *out, ptrdiff_t os);
/* y[i ys], i < n - order: the order-th differences of the line x of n >
** order (NumPy's diff: x[i + 1] - x[i], order times, each in the element
** type); w: n elements */
void LAK(diff)(int order, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys,
               LAK_REAL *w);
void LAK(scan)(lak_Scan op, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys);
/* The rows of the m x n column-major a (lda), a column at a time, in
** strips of at most LAK_RSTRIP rows: lak_rowsum's out[i] = op's sum (or product)
** along row i, in double (c: the m centres of LAK_RDEV; t: LAK_RSTRIP
** doubles of scratch); lak_rowext's val[i] = the largest (wantmax) or
** smallest entry of row i, n > 0, the first NaN winning, and idx[i] (when
** not NULL) its 0-based column, the first of equal extremes, as an element
** (float: exact for n <= 2^24). lak_fro:
** the Frobenius norm of the m x n a (column stride 1; or of one line of
** stride s when n = 1), without overflow or underflow. */
void LAK(rowsum)(lak_Rows op, size_t m, size_t n, const LAK_REAL *a, size_t lda, const double *c,
                 double *out, double *t);
/* out[i] = the variance of row i (sd: its square root) with ddof, as the
** two lak_rowsum passes give it, a strip at a time (t: LAK_RSTRIP doubles) */
void LAK(rowvar)(size_t m, size_t n, const LAK_REAL *a, size_t lda, double ddof, int sd,
                 double *out, double *t);
void LAK(rowext)(int wantmax, size_t m, size_t n, const LAK_REAL *a, size_t lda, LAK_REAL *val,
                 LAK_REAL *idx);
double LAK(fro)(size_t m, size_t n, const LAK_REAL *a, size_t lda, ptrdiff_t s);

/* The p-norm of a line for any p (NumPy's ord): 2 (BLAS's scaled nrm2 for
** double, a double sum of squares for float), +-inf (largest / smallest
** |x_i|, NaN winning), 1, 0 (the count of nonzeros), else (sum |x_i|^p)^(1/p),
** negative p included; in double. lak_dotd: the dot product of two lines of
** n, accumulated in double (ddot; for float, each product exact in double,
** summed in double by own loops). */
double LAK(vnorm)(size_t n, const LAK_REAL *x, ptrdiff_t s, double p);
double LAK(dotd)(size_t n, const LAK_REAL *x, ptrdiff_t s, const LAK_REAL *y, ptrdiff_t ys);
/* cos of the angle between two lines of n, scaled so that no square or
** product over- or underflows; *zero: 1 (x is zero) or 2 (y is), the
** result then NaN; NaN or Inf entries give NaN */
double LAK(cosine)(size_t n, const LAK_REAL *x, ptrdiff_t s, const LAK_REAL *y, ptrdiff_t ys,
                   int *zero);

/* 1 when every |a - b| <= atol + rtol |b| (NumPy's allclose; operands as
** lak_ewise's, broadcasting), compared in double; NaN is never close,
** equal infinities are */
int LAK(allclose)(int m, int n, LAK(Arg) a, LAK(Arg) b, double rtol, double atol);
/* c (bytes) = 1 where a and b are close by allclose's rule, else 0 (NumPy's
** isclose); equal_nan: two NaNs are close */
void LAK(isclose)(int m, int n, LAK(Arg) a, LAK(Arg) b, double rtol, double atol,
                  int equal_nan, unsigned char *c, int ldc);
