/*
** kernels/kernels.h: numerical kernels with no Lua dependency.
** All matrices are column-major with a leading dimension; callers have
** validated shapes, so kernels never fail and never allocate unless noted.
**
** Two element types, one source: the kernels declared in kernels_gen.h
** (arithmetic, products, elementwise math, Gram-Schmidt, softmax and
** attention, reductions) are written once over LAK_REAL and compiled for double and for
** float through generate.h, like LAPACK's d/s pairs. The double kernels
** keep their names (lak_gemm, lak_Attn, lak_unary, ...); the float ones
** put an s after the prefix (lak_sgemm, lak_sAttn, lak_sunary, ...).
** The least-squares state (TSQR) is written once too, in its own pair of
** files (tsqr_decl_gen.h, tsqr_gen.h); its serialized form is double only.
** NNLS and the random numbers are double only: float32 callers convert to
** double there (NNLS needs double to be reliable, and random numbers are
** generated in double).
*/
#ifndef LA_KERNELS_H
#define LA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The two x86 conditions every kernel file tests, written once here:
** LAK_GNU_X86: GCC 11 or later on x86-64 with glibc. Functions there carry
** target_clones, one clone per instruction set that glibc's ifunc picks at
** load time (musl has no ifunc; clang spells clones differently; GCC 11
** is the first to name the x86-64-v3 and -v4 levels the clones use), and
** libm's functions have libmvec's vector versions.
** LAK_X86: GCC or clang on x86-64. Kernels there carry AVX-512 or AVX2
** code behind target attributes and pick it after a CPU probe. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__GLIBC__) && __GNUC__ >= 11
#define LAK_GNU_X86 1
#else
#define LAK_GNU_X86 0
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LAK_X86 1
#else
#define LAK_X86 0
#endif

/* The CPU's vector features (kernels/cpu.c), read once: lak_cpu() gives
** the LAK_CPU_ bits (0 off x86-64), lak_cpu_has(w) whether all of w's are
** there. LAK_CPU_V4: what code built for target("arch=x86-64-v4") may use
** (its AVX-512 set, and AVX2, FMA and BMI2 of x86-64-v3 under it). */
#define LAK_CPU_AVX2     1u
#define LAK_CPU_AVX512F  2u
#define LAK_CPU_AVX512BW 4u
#define LAK_CPU_AVX512DQ 8u
#define LAK_CPU_AVX512VL 16u
#define LAK_CPU_AVX512CD 32u
#define LAK_CPU_FMA      64u
#define LAK_CPU_BMI2     128u
#define LAK_CPU_V4 (LAK_CPU_AVX512F | LAK_CPU_AVX512BW | LAK_CPU_AVX512DQ | LAK_CPU_AVX512VL | \
                    LAK_CPU_AVX512CD | LAK_CPU_AVX2 | LAK_CPU_FMA | LAK_CPU_BMI2)
unsigned lak_cpu(void);
int lak_cpu_has(unsigned want);

/* per-thread storage for kernels and bindings alike (several lua_States
** may run on several threads) */
#if defined(__GNUC__)
#define LAK_THREAD __thread
#else
#define LAK_THREAD _Thread_local
#endif

/* Elementwise binary operations, see lak_ewise. */
typedef enum { LAK_ADD, LAK_SUB, LAK_MUL, LAK_DIV, LAK_POW } lak_Op;

/* caps the vector width of reduce.c's width-following loops (2: AVX-512,
** 1: AVX2, 0: SSE2) at the CPU's, for tests; returns the level in force
** (-1 where loops have one width) */
int lak_isa_cap(int level);
/* the level in force (2, 1, 0; -1 where loops have one width): sortnet.c's
** AVX-512 networks decline below 2, so a capped test reaches the radix and
** merge sorts a CPU without AVX-512 takes (sortshort.c ignores the cap;
** nzidx.c's steps decline below 2 too) */
int lak_isa_level(void);
/* x[i] /= d (kernels/reduce.c) */
void lak_divby(double *x, size_t n, double d);

/* Copies of m x n matrices of elements of es bytes (8: double, 4: float, 1: bool)
** column by column, B not overlapping A (kernels/copy.c): B = A
** (lak_copycols), B(:, j) = A(:, n-1-j) (lak_fliplr), B(i, j) = A(m-1-i, j)
** (lak_flipud), B(i, j) = A((i - s) mod m, j) for 0 <= s < m (lak_rollud) */
void lak_copycols(size_t es, int m, int n, const void *A, int lda, void *B, int ldb);
void lak_fliplr(size_t es, int m, int n, const void *A, int lda, void *B, int ldb);
void lak_flipud(size_t es, int m, int n, const void *A, int lda, void *B, int ldb);
void lak_rollud(size_t es, int m, int n, int s, const void *A, int lda, void *B, int ldb);
/* memcpy(dst, src, n), but for the offsets (dst - src modulo 4096) where
** glibc's memcpy is many times slower on AMD's rep movsb (kernels/copy.c) */
void lak_copybytes(void *dst, const void *src, size_t n);
/* The storage layer's hint for the next result written to [p, p + bytes):
** its block has left the caches, so a loop with one large operand streams
** it out too (kernels/stream.c); NULL: no such block. */
void lak_coldhint(const void *p, size_t bytes);
/* the last-level cache's bytes, 0 where the system does not say */
size_t lak_cachebytes(void);
/* B(i, j) = A(r[i], c[j]) (0-based, in range), rows r0 + i where r is NULL */
void lak_take(size_t es, int m, int n, const void *A, int lda, const int *r, int r0,
              const int *c, void *B, int ldb);
/* a[0..m-1] = the element at x, of es bytes (a vector loop; memset for 1) */
void lak_fillcol(size_t es, size_t m, void *a, const void *x);
/* C = kron(A, B) of float (f32) or double matrices, C packed or a view:
** C(i mb + r, j nb + s) = A(i, j) B(r, s) */
void lak_kron(int f32, int ma, int na, const void *A, int lda, int mb, int nb, const void *B,
              int ldb, void *C, int ldc);
/* A(r[i], c[j]) = B(i, j) as lak_take's indices, B(i, j) at B + i * rs + j *
** cs with rs 0 or 1; B not overlapping A; the last of repeated indices wins */
void lak_put(size_t es, int m, int n, void *A, int lda, const int *r, int r0, const int *c,
             const void *B, int rs, ptrdiff_t cs);

/* a[0..n-1] sorted ascending as unsigned integers in place by an AVX-512
** network (kernels/sortnet.c), returning 1; 0, untouched, where n > 128
** or the CPU (or compiler) has no AVX-512F */
int lak_sortnet64(uint64_t *a, size_t n);
/* the same for 32-bit words, n <= 256 */
int lak_sortnet32(uint32_t *a, size_t n);
/* longer lines: blocks by the network, merged a vector at a time; a and b
** apart, each with room for n rounded up to 8 (16 for 32-bit words);
** returns where the result is (a or b), NULL (a untouched) without AVX-512F */
uint64_t *lak_sortnet64m(uint64_t *a, uint64_t *b, size_t n);
uint32_t *lak_sortnet32m(uint32_t *a, uint32_t *b, size_t n);

/* x[i] = a + i * step, i = 0..n-1, both roundings as written (NumPy's
** arange and linspace); into xs rounded to float when x is NULL
** (kernels/fill.c) */
void lak_progression(int n, double a, double step, double *x, float *xs);
/* the same for i = i0..i0+n-1 into x[0..n-1] (a piece of a longer one) */
void lak_progression_at(int i0, int n, double a, double step, double *x, float *xs);

/* Random numbers: xoshiro256** seeded by splitmix64. Only integer and IEEE
** basic operations (no libm), so a seed gives the same numbers everywhere. */
typedef struct lak_Rng { uint64_t s[4]; } lak_Rng;
void lak_rng_seed(lak_Rng *r, uint64_t seed);
double lak_rng_uniform(lak_Rng *r);     /* [0, 1), 53 random bits */
double lak_rng_normal(lak_Rng *r);      /* standard normal, 256-layer ziggurat */
/* n draws in order (normal: lak_rng_normal, else lak_rng_uniform) into A,
** or into F (A NULL) rounded to float: la.rand / la.randn's fill */
void lak_rng_fill(lak_Rng *r, int normal, double *A, float *F, size_t n);
double lak_log(double x);               /* portable natural log, x > 0 */

/* NumPy's streams, bit for bit (numpy_rng.c; its log, exp and sqrt are the
** C library's, as NumPy's are). lak_NpMT: the legacy global RandomState
** (MT19937 and the polar method's kept variate); lak_npmt_seed is
** RandomState.seed(n), lak_npmt_seed_array RandomState.seed([...]) (n >= 1
** words). lak_NpPCG: Generator(PCG64(SeedSequence(entropy))), the entropy
** as NumPy splits an integer or a list into 32-bit words (n >= 1); has32
** and u32 hold the half of a 64-bit draw that the next 32-bit draw takes.
** lak_nppcg_bounded draws an integer in [0, rng] as Generator.integers's
** int64 path does (Lemire's method, 32-bit draws below 2^32 - 1). */
typedef struct lak_NpMT {
  uint32_t key[624];
  int pos, has_gauss;
  double gauss;
} lak_NpMT;
typedef struct lak_NpPCG {
  uint64_t hi, lo, inchi, inclo;
  int has32;
  uint32_t u32;
} lak_NpPCG;
void lak_npmt_seed(lak_NpMT *s, uint32_t seed);
void lak_npmt_seed_array(lak_NpMT *s, const uint32_t *key, size_t n);
double lak_npmt_double(lak_NpMT *s);         /* random_sample: [0, 1) */
double lak_npmt_gauss(lak_NpMT *s);          /* legacy_gauss */
void lak_nppcg_seed(lak_NpPCG *g, const uint32_t *entropy, size_t n);
uint64_t lak_nppcg_next64(lak_NpPCG *g);
uint32_t lak_nppcg_next32(lak_NpPCG *g);
double lak_nppcg_double(lak_NpPCG *g);       /* Generator.random: [0, 1) */
double lak_nppcg_normal(lak_NpPCG *g);       /* Generator.standard_normal */
uint64_t lak_nppcg_bounded(lak_NpPCG *g, uint64_t rng);
/* Fills the m x n matrix A (float64, F NULL) or F (float32, A NULL), leading
** dimension ld, in NumPy's C order (row 1 first) with draws of kind from
** src (a lak_NpMT for LAK_NP_MT_*, a lak_NpPCG for LAK_NP_PCG_*).
** LAK_NP_PCG_INTEGER draws lo + lak_nppcg_bounded(src, rng) (the caller
** keeps the results within +-2^53, so the doubles are exact); the other
** kinds ignore lo and rng. float32 entries are the double draws rounded. */
typedef enum {
  LAK_NP_MT_UNIFORM, LAK_NP_MT_GAUSS, LAK_NP_PCG_UNIFORM, LAK_NP_PCG_NORMAL,
  LAK_NP_PCG_INTEGER
} lak_NpKind;
void lak_np_fill(void *src, lak_NpKind kind, int m, int n, double *A, float *F, int ld,
                 int64_t lo, uint64_t rng);

/* Gram-Schmidt on the k columns of W (m x k, ldw), in place: the kept
** orthonormal columns end up compacted at the left of W. R (k x k, ldr,
** zeroed by the caller) receives row p for the p-th kept column, so that
** V = Q R with Q = W(:, 1..kept). A column whose remainder u satisfies
** ||u|| <= tol * ||v|| is dependent: with drop it is skipped (keep[j] = 0),
** otherwise the kernel stops and fills *fail. work: LAK_GS_WORK(k) elements.
** Returns the number of kept columns, or -1 on a dependent column. */
typedef enum { LAK_MGS, LAK_CGS, LAK_CGS2 } lak_GS;
#define LAK_GS_NB 32                              /* panel width */
#define LAK_GS_WORK(k) ((size_t)(k) * (LAK_GS_NB + 3) + LAK_GS_NB * LAK_GS_NB)
typedef struct lak_GSFail { int col; double unorm, vnorm; } lak_GSFail;

/* Lawson-Hanson nonnegative least squares: w >= 0 minimising ||E w - f||,
** E p x n (lde). The inner least-squares problems use dgelsy (rank
** revealing, so dependent passive columns are harmless). Workspace sizes
** come from lak_nnls_work; lwork_ls from a dgelsy query on a p x n problem.
** Returns the number of outer iterations, or -1 if the cap (3n) was hit. */
size_t lak_nnls_work(int p, int n, int lwork_ls);
int lak_nnls(int p, int n, const double *E, int lde, const double *f,
             double *w, double *work, int lwork_ls, int *iwork);

/* The matrix exponential of the n x n A (lda) into X (ldx, not A):
** Al-Mohy & Higham's scaling and squaring (2009, Algorithm 6.1, exact
** 1-norms), exp of each entry for diagonal A, exact diagonal and first
** superdiagonal for triangular A (expm.c). work: LAK_EXPM_WORK(n) doubles,
** ipiv: n ints; *squarings: how many squarings were (or would be) done.
** Returns 0; LAK_EXPM_OVERFLOW when an entry of the result, or of a square
** on the way to it, is not finite; LAK_EXPM_TOOBIG when LAK_EXPM_MAXSQ or
** more squarings would be needed (rounding errors would swamp the result);
** or dgesv's info > 0 (the Pade denominator is singular). */
#define LAK_EXPM_OVERFLOW (-1)
#define LAK_EXPM_TOOBIG (-2)
#define LAK_EXPM_MAXSQ 53
#define LAK_EXPM_WORK(n) (8 * (size_t)(n) * (size_t)(n) + 2 * (size_t)(n))
int lak_expm(int n, const double *A, int lda, double *X, int ldx, double *work, int *ipiv,
             int *squarings);

/* The principal square root and logarithm of an n x n upper
** quasi-triangular T in real Schur canonical form (matfun.c): R = sqrt(T),
** Lg = log(T), both quasi-triangular with T's blocks. Return 0;
** LAK_NEGEIG (*bad = the eigenvalue) for a negative real eigenvalue (no
** real result); lak_qtlogm: LAK_SINGULAR for a zero eigenvalue, LAK_NOROOT
** when LAK_LOGM_MAXROOTS square roots do not bring T near I;
** lak_qtsqrt: LAK_NOROOT when a zero eigenvalue leaves no square root
** ([0 1; 0 0]). work: LAK_LOGM_WORK(n) doubles, ipiv: n ints. */
/* The Frechet derivative of expm at A along D (matfun.c; Al-Mohy & Higham
** 2009, SciPy's expm_frechet): X = expm(A), Lg = L(A, D). work:
** LAK_FRECHET_WORK(n) doubles, ipiv: n ints; *squarings as lak_expm's.
** Returns 0, LAK_EXPM_OVERFLOW, LAK_EXPM_TOOBIG (as lak_expm), or dgetrf's
** info > 0 (the Pade denominator is singular). */
#define LAK_FRECHET_WORK(n) (18 * (size_t)(n) * (size_t)(n))
int lak_expm_frechet(int n, const double *A, int lda, const double *D, int ldd, double *X,
                     int ldx, double *Lg, int ldl, double *work, int *ipiv, int *squarings);

#define LAK_NEGEIG (-1)
#define LAK_SINGULAR (-2)
#define LAK_NOROOT (-3)
#define LAK_LOGM_MAXROOTS 100
#define LAK_LOGM_WORK(n) (4 * (size_t)(n) * (size_t)(n))
int lak_qtsqrt(int n, const double *T, int ldt, double *R, int ldr, double *bad);
int lak_qtlogm(int n, const double *T, int ldt, double *Lg, int ldl, double *work, int *ipiv,
               double *bad);

/* The mergeable least-squares state (tsqr.c): for n unknowns and k
** right-hand sides, R (n x n, ld n, upper triangular, zero below), C = Q^T b
** (n x k, ld n), rss (k: squared norms of what no x reaches) and the row
** count. The caller owns the arrays. lak_lsq_add folds the m x n rows A and
** m x k rows B in (work: lak_tsqr_work(m, n, k) elements); lak_lsq_merge
** folds t into s (work: lak_lsq_merge_work(n, k) elements). Both return 0
** or a LAPACK info; the caller checks s->rows stays <= INT64_MAX and, after,
** lak_lsq_finite (TSQR does not rescale: near the type's largest value a
** norm overflows). Written once for both types (tsqr_decl_gen.h): lak_Lsq
** and lak_lsq_* (double, dtpqrt), lak_sLsq and lak_slsq_* (float, stpqrt);
** the sizes below count elements of either type. */
int lak_tsqr_rows(int64_t m, int n, int k);
size_t lak_tsqr_work(int64_t m, int n, int k);
size_t lak_lsq_merge_work(int n, int k);
#define LAK_GENERIC_FILE "tsqr_decl_gen.h"
#include "generate.h"

/* Serialized states: lak_lsq_bytes(n, k) bytes, written by lak_lsq_encode.
** lak_lsq_header checks magic, version, n and k, the exact length and the
** checksum of len bytes, and gives n and k; lak_lsq_decode (after it, into
** a state of that n, k) checks the values. Both return NULL or a message. */
#define LAK_LSQ_VERSION 1
size_t lak_lsq_bytes(int n, int k);
void lak_lsq_encode(const lak_Lsq *s, unsigned char *p);
const char *lak_lsq_header(const unsigned char *p, size_t len, int *n, int *k);
const char *lak_lsq_decode(const unsigned char *p, lak_Lsq *s);

#define LAK_ATTN_BQ 256   /* query rows per block */
#define LAK_ATTN_BK 512   /* key rows per block: the score tile is 1 MiB, half an L2 */

#define LAK_ATTN_MAXTHREADS 64

/* fork: resets the thread bookkeeping of both attention kernels in a child
** (registered once) */
void lak_attn_atfork(void);

/* Blocks nb - 1 down to 0 as fn(ctx, b, work) on up to nthreads threads
** (the caller and helpers it joins; at most LAK_ATTN_MAXTHREADS), thread
** t's work at work + t * wbytes; OpenBLAS runs on one thread inside them
** while helpers run (attention.c) */
typedef void (*lak_BlockFn)(const void *ctx, int b, void *work);
void lak_parallel(int nb, int nthreads, lak_BlockFn fn, const void *ctx, char *work,
                  size_t wbytes);

/* Units: n independent computations (attention's (batch item, head) pairs,
** forward or backward) on up to nthreads threads, each unit's arithmetic the
** same whatever nthreads is. Unit u runs as fn(ctx, u, work, inner), where
** inner is the number of threads the unit may use itself (lak_units_inner:
** nthreads when there are fewer units than threads, which then run one
** after another each on all threads; else 1, and the units are shared out
** over the threads, the caller's included, with OpenBLAS on one thread).
** The caller sizes wbytes as the most any unit needs on `inner` threads
** (rounded up to keep alignment), and work as lak_units_slices(n, nthreads)
** * wbytes: slice t (work + t * wbytes) is thread t's, used by one unit at
** a time. fn must not fail; units must not write to the same memory. A
** unit given inner > 1 shares its own blocks out with lak_parallel (as
** lak_attention does with its query blocks); its arithmetic must not depend
** on inner. Example: lak_attn_units (attention_gen.h), which also runs
** everything on one thread below a total work where a thread costs more
** than it saves. */
typedef void (*lak_UnitFn)(const void *ctx, int u, void *work, int inner);
int lak_units_inner(int nunits, int nthreads);
int lak_units_slices(int nunits, int nthreads);
void lak_units(int nunits, int nthreads, lak_UnitFn fn, const void *ctx, char *work,
               size_t wbytes);
/* lak_units with the work sized and the threads chosen: a kind of unit is
** its fn, its work(ctx, u, inner) (elements of esize bytes on `inner`
** threads) and its madds(ctx, u) (multiply-adds). lak_units_work: the
** elements of work lak_units_run needs (slices of the most any unit needs,
** 64-byte multiples); lak_units_run runs on nthreads threads, or one when
** the units' multiply-adds sum below a total where a thread costs more
** than it saves. */
typedef size_t (*lak_UnitWorkFn)(const void *ctx, int u, int inner);
typedef double (*lak_UnitMaddsFn)(const void *ctx, int u);
typedef struct lak_UnitKind {
  lak_UnitFn fn;
  lak_UnitWorkFn work;
  lak_UnitMaddsFn madds;
  size_t esize;
} lak_UnitKind;
size_t lak_units_work(const lak_UnitKind *k, const void *ctx, int nunits, int nthreads);
void lak_units_run(const lak_UnitKind *k, const void *ctx, int nunits, void *work,
                   int nthreads);

/* Elementwise math functions, see lak_unary. */
typedef enum {
  LAK_EXP, LAK_LOG, LAK_LOG1P, LAK_EXPM1, LAK_SQRT, LAK_ABS, LAK_SIGN,
  LAK_FLOOR, LAK_CEIL, LAK_ROUND, LAK_SIN, LAK_COS, LAK_TAN, LAK_TANH,
  LAK_SINH, LAK_COSH, LAK_ASIN, LAK_ACOS, LAK_ATAN, LAK_LOG2, LAK_LOG10, LAK_TRUNC,
  LAK_ISNAN, LAK_ISINF, LAK_ISFINITE, LAK_NFN
} lak_Fn;

/* Broadcasting binary operations, see lak_binary. */
typedef enum {
  LAK_MAXIMUM, LAK_MINIMUM, LAK_LT, LAK_LE, LAK_GT, LAK_GE, LAK_EQ, LAK_NE,
  LAK_ATAN2, LAK_HYPOT, LAK_FMOD, LAK_MOD, LAK_NBIN
} lak_Bin;

/* Reductions of a line, see lak_reduce. */
typedef enum { LAK_SUM, LAK_PROD, LAK_MEAN, LAK_MIN, LAK_MAX, LAK_VAR, LAK_STD } lak_Red;

/* Running scans of a line, see lak_scan. */
typedef enum { LAK_CUMSUM, LAK_CUMPROD, LAK_CUMMIN, LAK_CUMMAX } lak_Scan;
/* the most rows of a strip in lak_rowsum and lak_rowext (floats; doubles
** half as many, reduce_gen.h's LAK_RROWS): their sums, extremes and
** indices (8 KiB each of doubles at most) stay in L1 while every column
** passes; a caller's scratch t holds this many doubles */
#define LAK_RSTRIP 1024
/* What lak_rowsum accumulates along each row: x, |x|, x^2, (x - c_i)^2,
** the product. */
typedef enum { LAK_RSUM, LAK_RABS, LAK_RSQ, LAK_RDEV, LAK_RPROD } lak_Rows;

/* 10^n for n >= 0 as NumPy's round computes it (exact to 1e8, then
** multiplied by 10 again and again: the factor np.round(x, n) uses) */
double lak_pow10(int n);
/* lak_nonzeros of a bool matrix (bytes 0 or 1) */
void lak_bnonzeros(int dim, int m, int n, const unsigned char *A, int lda, double *r);
/* The first nonzero entries (NaN counts, -0.0 does not) of the n
** contiguous entries at a, of type LAK_NZ_*, as base + their index
** (0-based) into r, at most room of them; returns their count. Places of r
** past the count may be written, never those past room (kernels/nzidx.c). */
typedef enum { LAK_NZ_DOUBLE, LAK_NZ_FLOAT, LAK_NZ_BOOL } lak_Nz;
size_t lak_nzidx(lak_Nz type, const void *a, int n, double base, double *r, size_t room);

/* Stable sorts of a line (kernels/sort.c): the n entries x[0], x[incx],
** ... in ascending order, NaN last (descending, desc = 1: NaN first), -0.0
** equal to 0.0, equal entries in their input order; s (may be NULL) gets the
** sorted entries (s[i * incs]), ix (may be NULL) their 1-based positions in
** x (ix[i * inci]). work: LAK_SORT_WORK(n) items. */
typedef struct lak_SortItem { uint64_t k; uint32_t i; } lak_SortItem;
/* the merge reads one past a run; from LAK_SORT_R11 entries on, room for
** the 11-bit radix sort's counts (6 digits of 2048 32-bit counts) */
#define LAK_SORT_R11 2000
#define LAK_SORT_CNT ((6 * 2048 * 4 + sizeof(lak_SortItem) - 1) / sizeof(lak_SortItem))
#define LAK_SORT_WORK(n) (2 * (size_t)(n) + 1 + ((size_t)(n) >= LAK_SORT_R11 ? LAK_SORT_CNT : 0))
void lak_sort(int n, const double *x, ptrdiff_t incx, int desc, double *s, ptrdiff_t incs,
              double *ix, ptrdiff_t inci, lak_SortItem *work);
void lak_ssort(int n, const float *x, ptrdiff_t incx, int desc, float *s, ptrdiff_t incs,
               double *ix, ptrdiff_t inci, lak_SortItem *work);
/* the same without the positions in the keys' low bits (a line whose keys
** tie there in long runs: sortshort.c's lines handed back) */
void lak_sort_keyed(int n, const double *x, ptrdiff_t incx, int desc, double *s, ptrdiff_t incs,
                    double *ix, ptrdiff_t inci, lak_SortItem *work);
void lak_ssort_keyed(int n, const float *x, ptrdiff_t incx, int desc, float *s, ptrdiff_t incs,
                     double *ix, ptrdiff_t inci, lak_SortItem *work);

/* Order statistics (kernels/select.c). lak_select moves the n entries of
** x (no NaN) so that x[k] is the (k+1)-th smallest, x[i] <= x[k] before
** it and x[i] >= x[k] after it (introselect: n log n at worst, about 3n
** comparisons on average). lak_minof: the smallest of x[0..n), n >= 1. */
void lak_select(double *x, size_t n, size_t k);
double lak_minof(const double *x, size_t n);

/* Many short lines sorted at once (kernels/sortshort.c), as lak_sort
** sorts each (stable, NaN last, -0.0 equal to 0.0; desc: descending): nl
** lines of n entries, 2 <= n <= LAK_LONG, line l's entry j at p[l * l +
** j * j] of x (read), s (the sorted values; p NULL: none) and ix (their
** 1-based positions, always doubles; p NULL: none); work: LAK_SHORT_WORK(n)
** bytes (used past LAK_SHORT). Returns 1; 0, untouched, where it does not
** run (no AVX-512F): sort line by line. */
#define LAK_SHORT 16
#define LAK_LONG 128
#define LAK_SHORT_WORK(n) ((size_t)(n) * 256 + 3072)
typedef struct lak_Lines { void *p; ptrdiff_t l, j; } lak_Lines;
int lak_sortshort(int nl, int n, int desc, lak_Lines x, lak_Lines s, lak_Lines ix, void *work);
int lak_ssortshort(int nl, int n, int desc, lak_Lines x, lak_Lines s, lak_Lines ix, void *work);

/* C = A^T A (n x n) of a k x n A with at most LAK_GRAMT_MAX columns, in
** AVX-512 tiles (kernels/gram.c): symmetric exactly, the same bits on any
** thread count. Returns 0, writing nothing, without AVX-512F or past those
** sizes: the caller keeps BLAS. */
#define LAK_GRAMT_MAX 32
int lak_gramt(int k, int n, const double *A, int lda, double *C, int ldc);
int lak_sgramt(int k, int n, const float *A, int lda, float *C, int ldc);

/* the kernels for double (lak_*) and for float (lak_s*) */
#define LAK_GENERIC_FILE "kernels_gen.h"
#include "generate.h"
/* B = A converted between float64 and float32 (m x n, kernels/convert.c) */
void lak_d2s(int m, int n, const double *A, int lda, float *B, int ldb);
void lak_s2d(int m, int n, const float *A, int lda, double *B, int ldb);
/* c = a op b (lak_ewise's op, but pow) for a float64 D and a float32 S of
** one m x n shape (s_first: S is a), S widened in the loop (kernels/arith_gen.h) */
void lak_ewise_mixed(lak_Op op, int m, int n, const double *D, int ldd, const float *S,
                     int lds, int s_first, double *c, int ldc);
/* to bool (x ~= 0, NaN true) from float32 (f32 1) or float64 (f32 0), and back (1 / 0) */
void lak_tobool(int f32, int m, int n, const void *A, int lda, unsigned char *B, int ldb);
void lak_frombool(int f32, int m, int n, const unsigned char *A, int lda, void *B, int ldb);

/* attention's gradients (attention_bwd.c), after lak_Attn */
#define LAK_GENERIC_FILE "attention_bwd_decl_gen.h"
#include "generate.h"

#endif
