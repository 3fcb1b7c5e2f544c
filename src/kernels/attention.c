/*
** kernels/attention.c: softmax and scaled dot-product attention (no Lua here).
**
** The fused kernel follows the FlashAttention recurrence: queries in blocks
** of LAK_ATTN_BQ rows against keys in blocks of LAK_ATTN_BK rows; each tile
** S = scale * Q_b K_b^T is one dgemm, the softmax is streamed with a running
** maximum m and sum l per query row (the partial output is rescaled by
** exp(m_old - m_new) when m grows), and O_b += P V_b is a second dgemm.
** Nothing of size nq x nk exists. Masked entries (mask zero, causal, or a
** score of -inf) contribute exactly 0 without an exp; a row that ends with
** l = 0 had no unmasked key and gets a zero output. NaN in the inputs
** reaches l and O through the exp and propagates.
**
** Matrices are column-major, so loops over a tile run down its columns
** (contiguous, vectorizable) with per-row state in small vectors.
**
** Query blocks are independent: with T > 1 threads they are shared out to
** T - 1 helper threads and the caller, each with its own tile, while
** OpenBLAS runs single-threaded inside (its tiles are too small to split
** well, and T threads each splitting them would oversubscribe the cores).
**
** Without mask or bias, on a CPU with AVX-512 (chosen at run time), the
** same recurrence runs in attention_simd_gen.h instead: both products of a
** tile register-blocked by hand, scores in base 2, strips of 48 query rows
** (24 in double) whose scores stay in L1 between the products and the exp
** (it runs at ~75% of the core's FMA peak, ~1.6x the gemm tiles in float,
** ~1.6x in double; la.config().attention says which kernel runs).
**
** The kernels are written once in attention_gen.h and attention_simd_gen.h
** and compiled for double (lak_attention, ...) and float (lak_sattention,
** ... : sgemm tiles, the float exp step below); the threads and the exp
** steps' constants are here.
*/
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "kernels.h"

/* The exp step (lak_expsum / lak_sexpsum): x = k ln2 + r, |r| <= ln2 / 2
** (Cody-Waite: ln2 split so that k * LN2HI is exact), exp(r) by the Taylor
** polynomial of degree EXP_DEG in Horner form, times 2^k built from k with
** integer shifts. Below EXP_MIN (exp's result turns subnormal there; -inf
** too) the result is 0. Truncation error: double r^13/13! < 4e-16 relative,
** float r^8/8! < 7e-9, far below a float ulp; the rounding of the float
** evaluation dominates (spec/kernels/float32.c measures it: see there). */
/*                  double                        float */
#define EXP_MIN     LAK_PICK(-708.39,                     -87.33f)
#define EXP_SHIFT   LAK_PICK(0x1.8p52,                    0x1.8p23f)
#define EXP_LOG2E   LAK_PICK(1.4426950408889634,          1.44269504f)
#define EXP_LN2HI   LAK_PICK(6.93147180369123816490e-01,  0.693145751953125f)
#define EXP_LN2LO   LAK_PICK(1.90821492927058770002e-10,  1.42860676533018704e-06f)
#define EXP_MANT    LAK_PICK(52,                          23)
#define EXP_BIAS    LAK_PICK(1023,                        127)
#define EXP_DEG     LAK_PICK(12,                          7)
#define EXP_POLY    LAK_PICK(exp_poly_d,                  exp_poly_s)
/* 1/k! from the highest degree down */
static const double exp_poly_d[13] = {
  1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0,
  1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0};
static const float exp_poly_s[8] = {
  1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f};

/* target_clones: AVX2 and AVX-512 versions of the exp step chosen at load
** time (config.c reports them under this same condition) */
#if LAK_GNU_X86
#define LAK_EXP_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define LAK_EXP_CLONES
#endif

#define INF ((LAK_REAL)HUGE_VAL)

/* Blocks of b covering n, without forming n + b - 1 (n may be INT_MAX). */
static int nblocks(int n, int b) { return n / b + (n % b != 0); }

/* ---- threads */

extern int openblas_get_num_threads(void);
extern void openblas_set_num_threads(int);

/* OpenBLAS has one global thread count: the first of concurrent callers
** lowers it to 1 and the last restores it. */
static pthread_mutex_t blas_mu = PTHREAD_MUTEX_INITIALIZER;
static int blas_users, blas_saved;

static void blas_single(int enter) {
  pthread_mutex_lock(&blas_mu);
  if (enter && blas_users++ == 0) {
    blas_saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
  } else if (!enter && --blas_users == 0) {
    openblas_set_num_threads(blas_saved);
  }
  pthread_mutex_unlock(&blas_mu);
}

/* fork: the prepare handler holds blas_mu, so the child never inherits it
** locked nor the bookkeeping half updated. The child has only the forking
** thread: attention calls of other threads do not exist there, so the
** thread count they lowered is restored and the count of users cleared. */
static void fork_prepare(void) { pthread_mutex_lock(&blas_mu); }
static void fork_parent(void) { pthread_mutex_unlock(&blas_mu); }
static void fork_child(void) {
  pthread_mutex_init(&blas_mu, NULL);
  if (blas_users > 0) {
    blas_users = 0;
    openblas_set_num_threads(blas_saved);
  }
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void fork_register(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

void lak_attn_atfork(void) { pthread_once(&fork_once, fork_register); }

/* Blocks b = nb - 1 down to 0 run as fn(ctx, b, work) on up to nthreads
** threads (the caller and helpers it joins); thread t's work is at
** work + t * wbytes. */
typedef lak_BlockFn BlockFn;

typedef struct Job {
  BlockFn fn;
  const void *ctx;
  int next;                   /* next block to take, counting down */
  pthread_mutex_t mu;
} Job;

typedef struct Helper { Job *job; void *work; pthread_t tid; } Helper;

static int take(Job *job) {
  int b;
  pthread_mutex_lock(&job->mu);
  b = job->next--;
  pthread_mutex_unlock(&job->mu);
  return b;
}

/* Largest blocks first: with a causal mask the last rows do the most work. */
static void run_blocks(Job *job, void *work) {
  int b;
  while ((b = take(job)) >= 0) job->fn(job->ctx, b, work);
}

static void *helper_main(void *p) {
  Helper *h = (Helper *)p;
  run_blocks(h->job, h->work);
  return NULL;
}

static void parallel_blocks(int nb, int nthreads, BlockFn fn, const void *ctx,
                            char *work, size_t wbytes) {
  Helper helpers[LAK_ATTN_MAXTHREADS];
  Job job;
  int t;
  if (nthreads > nb) nthreads = nb;
  if (nthreads > LAK_ATTN_MAXTHREADS) nthreads = LAK_ATTN_MAXTHREADS;
  job.fn = fn; job.ctx = ctx; job.next = nb - 1;
  pthread_mutex_init(&job.mu, NULL);
  if (nthreads <= 1) {
    run_blocks(&job, work);
    pthread_mutex_destroy(&job.mu);
    return;
  }
  blas_single(1);
  for (t = 1; t < nthreads; t++) {
    helpers[t].job = &job;
    helpers[t].work = work + (size_t)t * wbytes;
    if (pthread_create(&helpers[t].tid, NULL, helper_main, &helpers[t]) != 0) break;
  }
  run_blocks(&job, work);                 /* the caller works too */
  while (--t >= 1) pthread_join(helpers[t].tid, NULL);
  blas_single(0);
  pthread_mutex_destroy(&job.mu);
}

void lak_parallel(int nb, int nthreads, lak_BlockFn fn, const void *ctx, char *work,
                  size_t wbytes) {
  parallel_blocks(nb, nthreads, fn, ctx, work, wbytes);
}

/* ---- units: independent computations (attention's (batch item, head)
** pairs) shared over threads; the interface is in kernels.h */

int lak_units_inner(int nunits, int nthreads) {
  return nunits >= nthreads || nthreads <= 1 ? 1 : nthreads;
}

int lak_units_slices(int nunits, int nthreads) {
  int n = nunits < nthreads ? nunits : nthreads;
  if (lak_units_inner(nunits, nthreads) > 1) return 1;
  if (n > LAK_ATTN_MAXTHREADS) n = LAK_ATTN_MAXTHREADS;
  return n < 1 ? 1 : n;
}

/* one slice of lak_units' work, in elements: 64-byte multiples */
static size_t units_slice(const lak_UnitKind *k, const void *ctx, int nunits, int nthreads) {
  int inner = lak_units_inner(nunits, nthreads), u;
  size_t most = 0, w, pad = 64 / k->esize;
  for (u = 0; u < nunits; u++) {
    w = k->work(ctx, u, inner);
    if (w > most) most = w;
  }
  return (most + pad - 1) / pad * pad;
}

/* Below this many multiply-adds in all units, one thread: starting a
** helper thread (~20 us) would cost more than it saves. */
#define UNITS_MINWORK 262144.0

static int units_threads(const lak_UnitKind *k, const void *ctx, int nunits, int nthreads) {
  double w = 0;
  int u;
  for (u = 0; u < nunits && w < UNITS_MINWORK; u++) w += k->madds(ctx, u);
  return w < UNITS_MINWORK ? 1 : nthreads;
}

typedef struct Units { lak_UnitFn fn; const void *ctx; } Units;

static void unit_block(const void *ctx, int b, void *work) {
  const Units *u = (const Units *)ctx;
  u->fn(u->ctx, b, work, 1);
}

void lak_units(int nunits, int nthreads, lak_UnitFn fn, const void *ctx, char *work,
               size_t wbytes) {
  int inner = lak_units_inner(nunits, nthreads), u;
  Units units;
  if (inner > 1) {            /* fewer units than threads: each on all threads */
    for (u = 0; u < nunits; u++) fn(ctx, u, work, inner);
    return;
  }
  units.fn = fn; units.ctx = ctx;
  parallel_blocks(nunits, nthreads, unit_block, &units, work, wbytes);
}

size_t lak_units_work(const lak_UnitKind *k, const void *ctx, int nunits, int nthreads) {
  nthreads = units_threads(k, ctx, nunits, nthreads);
  return (size_t)lak_units_slices(nunits, nthreads) * units_slice(k, ctx, nunits, nthreads);
}

void lak_units_run(const lak_UnitKind *k, const void *ctx, int nunits, void *work,
                   int nthreads) {
  nthreads = units_threads(k, ctx, nunits, nthreads);
  lak_units(nunits, nthreads, k->fn, ctx, (char *)work,
            units_slice(k, ctx, nunits, nthreads) * k->esize);
}

/* ---- the AVX-512 kernel (attention_simd_gen.h), chosen at run time;
** -DLAK_NO_SIMD leaves it out (then la.config().attention is "gemm") */

#if !defined(LAK_NO_SIMD) && LAK_X86
#include <immintrin.h>
#include <stdint.h>
#define LAK_SIMD 1
#define SIMD_FN __attribute__((target("avx512f")))
#define SIMD_G 5              /* strips per query block */
#define SIMD_BK 128           /* keys per tile: a strip's scores are 24 KiB in float */
#define SIMD_NJ 8             /* keys per score panel, value columns per output panel */
#define SIMD_LDV (SIMD_BK + 16)   /* padded: the value columns do not share cache sets */
#define SIMD_DMAX 1024        /* larger dk or dv: the work would grow past a few MiB */
#define SIMD_SHARED (8 << 20) /* bytes of keys and values packed once per call, at most */

static int simd_cpu(void) { return lak_cpu_has(LAK_CPU_AVX512F); }

/* The AVX-512 kernel works in base 2 (its scores are scaled by log2(e)):
** 2^x = 2^k 2^r, k = round(x), r = x - k exact, 2^r by the Taylor
** polynomial of exp(r ln2) (the same truncation as above, |r ln2| <=
** ln2 / 2, one degree more for double: its term 13 is still 1.5 ulp at
** 2^-0.5); 0 below EXP2_MIN. Coefficients (ln2)^k / k!, highest first. */
#define EXP2_MIN    LAK_PICK(-1022.0,                     -126.0f)
#define EXP2_DEG    LAK_PICK(13,                          7)
#define EXP2_POLY   LAK_PICK(exp2_poly_d,                 exp2_poly_s)
static const double exp2_poly_d[14] = {
  1.3691488853904124e-12, 2.5678435993488196e-11, 4.44553827187081e-10, 7.054911620801121e-09,
  1.0178086009239696e-07, 1.3215486790144305e-06, 1.5252733804059838e-05, 0.00015403530393381606,
  0.0013333558146428441, 0.009618129107628477, 0.055504108664821576, 0.2402265069591007,
  0.6931471805599453, 1.0};
static const float exp2_poly_s[8] = {
  1.5252733804059838e-05f, 0.00015403530393381606f, 0.0013333558146428441f,
  0.009618129107628477f, 0.055504108664821576f, 0.2402265069591007f, 0.6931471805599453f, 1.0f};
#else
#define LAK_SIMD 0
#endif

#define LAK_GENERIC_FILE "attention_gen.h"
#include "generate.h"
