/*
** la_attn.c: softmax and scaled dot-product attention (no Lua here).
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
*/
#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "la_kernels.h"

/* One softmax column step, in place: x[i] = exp(x[i] - m[i]) and
** sum[i] += x[i], for x[i] - m[i] <= 0. Cody-Waite reduction
** x = k ln2 + r, |r| <= ln2 / 2, a degree-12 Taylor polynomial (relative
** error below 4e-16 against libm's exp), scaled by 2^k built from k with
** integer shifts. Arguments below -708.39 (and -inf) give 0; NaN gives NaN.
** No calls or branches, so compilers vectorize it (the Makefile builds this
** file with -O3 -fno-trapping-math); target_clones adds AVX2 and AVX-512
** versions chosen at load time. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void lak_expsum(double *restrict x, const double *restrict m, double *restrict sum, int n) {
  const double log2e = 1.4426950408889634, shifter = 0x1.8p52;
  const double ln2hi = 6.93147180369123816490e-01, ln2lo = 1.90821492927058770002e-10;
  int i;
  for (i = 0; i < n; i++) {
    double v = x[i] - m[i], t, k, r, p, keep = v < -708.39 ? 0.0 : 1.0;
    uint64_t bits;
    v = v < -708.39 ? -708.39 : v;
    t = v * log2e + shifter;
    k = t - shifter;
    r = (v - k * ln2hi) - k * ln2lo;
    p = 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023) << 52;            /* 2^k: the shifter's bits drop out */
    memcpy(&t, &bits, sizeof t);
    x[i] = p * t * keep;
    sum[i] += x[i];
  }
}

size_t lak_attn_work(const lak_Attn *a) {
  (void)a;
  return (size_t)LAK_ATTN_BQ * LAK_ATTN_BK + 4 * (size_t)LAK_ATTN_BQ;
}

/* Adds bias, and sets masked entries to -inf, in the bq x bk tile S
** (leading dimension bq) at rows i0, columns j0 of the score matrix. */
static void mask_tile(const lak_Attn *a, int i0, int j0, int bq, int bk, double *S) {
  int i, j;
  if (bq <= 0 || bk <= 0) return;
  if (a->bias)
    for (j = 0; j < bk; j++) {
      const double *b = a->bias + i0 + (ptrdiff_t)(j0 + j) * a->ldb;
      double *s = S + (ptrdiff_t)j * bq;
      for (i = 0; i < bq; i++) s[i] += b[i];
    }
  if (a->mask)
    for (j = 0; j < bk; j++) {
      const double *mk = a->mask + i0 + (ptrdiff_t)(j0 + j) * a->ldm;
      double *s = S + (ptrdiff_t)j * bq;
      for (i = 0; i < bq; i++) if (mk[i] == 0.0) s[i] = -HUGE_VAL;
    }
  if (a->causal && j0 + bk - 1 > i0)        /* some key after some query */
    for (j = 0; j < bk; j++) {
      double *s = S + (ptrdiff_t)j * bq;
      for (i = 0; i < bq && i0 + i < j0 + j; i++) s[i] = -HUGE_VAL;
    }
}

/* S = scale * Q(i0:i0+bq) K(j0:j0+bk)^T, then bias and masks */
static void scores(const lak_Attn *a, int i0, int j0, int bq, int bk, double *S) {
  lak_gemm('N', 'T', bq, bk, a->dk, a->scale, a->Q + i0, a->ldq, a->K + j0, a->ldk,
           0.0, S, bq);
  mask_tile(a, i0, j0, bq, bk, S);
}

/* One key tile of the streamed softmax for query rows of the block. */
static void stream_tile(const lak_Attn *a, int i0, int j0, int bq, int bk, double *S,
                        double *m, double *l, double *c, double *t, double *O, int ldo) {
  int i, j, rescale = 0;
  scores(a, i0, j0, bq, bk, S);
  for (i = 0; i < bq; i++) t[i] = m[i];
  for (j = 0; j < bk; j++) {       /* a select, not a branch: it vectorizes */
    const double *s = S + (ptrdiff_t)j * bq;
    for (i = 0; i < bq; i++) t[i] = s[i] > t[i] ? s[i] : t[i];
  }
  for (i = 0; i < bq; i++) {
    c[i] = (t[i] == m[i]) ? 1.0 : exp(m[i] - t[i]);   /* m = -inf gives 0 */
    if (c[i] != 1.0) rescale = 1;
    m[i] = t[i];
    l[i] *= c[i];
  }
  for (i = 0; i < bq; i++) t[i] = m[i] == -HUGE_VAL ? 0.0 : m[i];   /* no -inf - -inf */
  for (j = 0; j < bk; j++) lak_expsum(S + (ptrdiff_t)j * bq, t, l, bq);
  if (rescale)
    for (j = 0; j < a->dv; j++) {
      double *o = O + i0 + (ptrdiff_t)j * ldo;
      for (i = 0; i < bq; i++) o[i] *= c[i];
    }
  lak_gemm('N', 'N', bq, a->dv, bk, 1.0, S, bq, a->V + j0, a->ldv, 1.0, O + i0, ldo);
}

/* Query rows i0 .. i0 + bq - 1: stream every visible key tile, normalize. */
static void query_block(const lak_Attn *a, int i0, double *O, int ldo, double *work) {
  double *S = work, *m = S + (size_t)LAK_ATTN_BQ * LAK_ATTN_BK;
  double *l = m + LAK_ATTN_BQ, *c = l + LAK_ATTN_BQ, *t = c + LAK_ATTN_BQ;
  int bq = a->nq - i0 < LAK_ATTN_BQ ? a->nq - i0 : LAK_ATTN_BQ, j0, i, j;
  for (i = 0; i < bq; i++) { m[i] = -HUGE_VAL; l[i] = 0.0; }
  for (j0 = 0; j0 < a->nk; j0 += LAK_ATTN_BK) {
    int bk = a->nk - j0 < LAK_ATTN_BK ? a->nk - j0 : LAK_ATTN_BK;
    if (a->causal) {           /* keys after the block's last query are masked */
      if (j0 > i0 + bq - 1) break;
      if (bk > i0 + bq - j0) bk = i0 + bq - j0;
    }
    stream_tile(a, i0, j0, bq, bk, S, m, l, c, t, O, ldo);
  }
  for (j = 0; j < a->dv; j++) {
    double *o = O + i0 + (ptrdiff_t)j * ldo;
    for (i = 0; i < bq; i++) o[i] = l[i] == 0.0 ? 0.0 : o[i] / l[i];
  }
}

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

typedef struct Job {
  const lak_Attn *a;
  double *O;
  int ldo, next;              /* next block to take, counting down */
  pthread_mutex_t mu;
} Job;

typedef struct Helper { Job *job; double *work; pthread_t tid; } Helper;

static int take(Job *job) {
  int b;
  pthread_mutex_lock(&job->mu);
  b = job->next--;
  pthread_mutex_unlock(&job->mu);
  return b;
}

/* Largest blocks first: with a causal mask the last rows do the most work. */
static void run_blocks(Job *job, double *work) {
  int b;
  while ((b = take(job)) >= 0) query_block(job->a, b * LAK_ATTN_BQ, job->O, job->ldo, work);
}

static void *helper_main(void *p) {
  Helper *h = (Helper *)p;
  run_blocks(h->job, h->work);
  return NULL;
}

void lak_attention(const lak_Attn *a, double *O, int ldo, double *work, int nthreads) {
  int nblocks = (a->nq + LAK_ATTN_BQ - 1) / LAK_ATTN_BQ, t, j;
  size_t wsize = lak_attn_work(a);
  Helper helpers[LAK_ATTN_MAXTHREADS];
  Job job;
  for (j = 0; j < a->dv; j++) memset(O + (ptrdiff_t)j * ldo, 0, (size_t)a->nq * sizeof(double));
  if (nthreads > nblocks) nthreads = nblocks;
  if (nthreads > LAK_ATTN_MAXTHREADS) nthreads = LAK_ATTN_MAXTHREADS;
  job.a = a; job.O = O; job.ldo = ldo; job.next = nblocks - 1;
  pthread_mutex_init(&job.mu, NULL);
  if (nthreads <= 1) {
    run_blocks(&job, work);
    pthread_mutex_destroy(&job.mu);
    return;
  }
  blas_single(1);
  for (t = 1; t < nthreads; t++) {
    helpers[t].job = &job;
    helpers[t].work = work + (size_t)t * wsize;
    if (pthread_create(&helpers[t].tid, NULL, helper_main, &helpers[t]) != 0) break;
  }
  run_blocks(&job, work);                 /* the caller works too */
  while (--t >= 1) pthread_join(helpers[t].tid, NULL);
  blas_single(0);
  pthread_mutex_destroy(&job.mu);
}

void lak_softmax(int m, int n, double *S, int lds, int logs, double *mx, double *sum) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  for (i = 0; i < m; i++) { mx[i] = -HUGE_VAL; sum[i] = 0.0; }
  for (j = 0; j < n; j++) {
    const double *s = S + (ptrdiff_t)j * lds;
    for (i = 0; i < m; i++) if (s[i] > mx[i] || isnan(s[i])) mx[i] = s[i];
  }
  for (i = 0; i < m; i++) if (mx[i] == -HUGE_VAL) mx[i] = 0.0;   /* all -inf: no NaN */
  for (j = 0; j < n; j++) {
    double *s = S + (ptrdiff_t)j * lds;
    if (logs) {              /* keep s - max; the exps only feed the sum */
      for (i = 0; i < m; i++) {
        s[i] -= mx[i];
        sum[i] += s[i] == -HUGE_VAL ? 0.0 : exp(s[i]);
      }
    } else lak_expsum(s, mx, sum, m);
  }
  for (j = 0; j < n; j++) {
    double *s = S + (ptrdiff_t)j * lds;
    for (i = 0; i < m; i++) {
      if (sum[i] == 0.0) s[i] = logs ? -HUGE_VAL : 0.0;     /* every entry -inf */
      else if (logs) s[i] -= log(sum[i]);
      else s[i] /= sum[i];
    }
  }
}

void lak_attention_weights(const lak_Attn *a, double *O, int ldo, double *A, int lda,
                           double *mx, double *sum) {
  int j0;
  if (a->nq <= 0 || a->nk <= 0) {                   /* nothing to weigh: O = 0 */
    for (j0 = 0; j0 < a->dv && a->nq > 0; j0++)
      memset(O + (ptrdiff_t)j0 * ldo, 0, (size_t)a->nq * sizeof(double));
    return;
  }
  for (j0 = 0; j0 < a->nk; j0 += LAK_ATTN_BK) {     /* scores tile by tile: same masking code */
    int bk = a->nk - j0 < LAK_ATTN_BK ? a->nk - j0 : LAK_ATTN_BK;
    lak_gemm('N', 'T', a->nq, bk, a->dk, a->scale, a->Q, a->ldq, a->K + j0, a->ldk, 0.0,
             A + (ptrdiff_t)j0 * lda, lda);
  }
  mask_tile(a, 0, 0, a->nq, a->nk, A);              /* needs lda == nq */
  lak_softmax(a->nq, a->nk, A, lda, 0, mx, sum);
  lak_gemm('N', 'N', a->nq, a->dv, a->nk, 1.0, A, lda, a->V, a->ldv, 0.0, O, ldo);
}
