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
*/
#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "kernels.h"

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

/* Blocks of b covering n, without forming n + b - 1 (n may be INT_MAX). */
static int nblocks(int n, int b) { return n / b + (n % b != 0); }

/* S (bq x bk, ld bq) += the broadcast matrix at B (entry (i, j) at
** i * rs + j * cs): rs is 1 or 0. */
static void add_tile(const double *B, ptrdiff_t rs, ptrdiff_t cs, int bq, int bk, double *S) {
  int i, j;
  for (j = 0; j < bk; j++) {
    const double *b = B + j * cs;
    double *s = S + (ptrdiff_t)j * bq;
    if (rs == 1) for (i = 0; i < bq; i++) s[i] += b[i];
    else for (i = 0; i < bq; i++) s[i] += b[0];
  }
}

/* Entries of S whose mask entry (as in add_tile) is zero become -inf. */
static void mask_entries(const double *M, ptrdiff_t rs, ptrdiff_t cs, int bq, int bk, double *S) {
  int i, j;
  for (j = 0; j < bk; j++) {
    const double *mk = M + j * cs;
    double *s = S + (ptrdiff_t)j * bq;
    if (rs == 1) { for (i = 0; i < bq; i++) if (mk[i] == 0.0) s[i] = -HUGE_VAL; }
    else if (mk[0] == 0.0) for (i = 0; i < bq; i++) s[i] = -HUGE_VAL;
  }
}

/* Adds bias, and sets masked entries to -inf, in the bq x bk tile S
** (leading dimension bq) at rows i0, columns j0 of the score matrix. */
static void mask_tile(const lak_Attn *a, int i0, int j0, int bq, int bk, double *S) {
  if (bq <= 0 || bk <= 0) return;
  if (a->bias) add_tile(a->bias + i0 * a->brs + j0 * a->bcs, a->brs, a->bcs, bq, bk, S);
  if (a->mask) mask_entries(a->mask + i0 * a->mrs + j0 * a->mcs, a->mrs, a->mcs, bq, bk, S);
  if (a->causal) {          /* key j0 + j is visible to query i0 + i iff j <= i + d */
    long long d = (long long)i0 + a->coff - j0;
    int i, j;
    if (bk - 1 > d)         /* some key after some query */
      for (j = 0; j < bk; j++) {
        double *s = S + (ptrdiff_t)j * bq;
        for (i = 0; i < bq && i + d < j; i++) s[i] = -HUGE_VAL;
      }
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
static void query_block(const lak_Attn *a, int i0, double *O, int ldo, double *lse,
                        double *work) {
  double *S = work, *m = S + (size_t)LAK_ATTN_BQ * LAK_ATTN_BK;
  double *l = m + LAK_ATTN_BQ, *c = l + LAK_ATTN_BQ, *t = c + LAK_ATTN_BQ;
  int bq = a->nq - i0 < LAK_ATTN_BQ ? a->nq - i0 : LAK_ATTN_BQ, kb, nkb, i, j;
  long long last = (long long)i0 + bq - 1 + a->coff;   /* causal: the last key seen */
  for (i = 0; i < bq; i++) { m[i] = -HUGE_VAL; l[i] = 0.0; }
  nkb = nblocks(a->nk, LAK_ATTN_BK);
  for (kb = 0; kb < nkb; kb++) {
    int j0 = kb * LAK_ATTN_BK, bk = a->nk - j0 < LAK_ATTN_BK ? a->nk - j0 : LAK_ATTN_BK;
    if (a->causal) {           /* keys after the block's last query are masked */
      if (j0 > last) break;
      if (bk > last - j0 + 1) bk = (int)(last - j0 + 1);
    }
    stream_tile(a, i0, j0, bq, bk, S, m, l, c, t, O, ldo);
  }
  for (j = 0; j < a->dv; j++) {
    double *o = O + i0 + (ptrdiff_t)j * ldo;
    for (i = 0; i < bq; i++) o[i] = l[i] == 0.0 ? 0.0 : o[i] / l[i];
  }
  if (lse)
    for (i = 0; i < bq; i++) lse[i0 + i] = l[i] == 0.0 ? -HUGE_VAL : m[i] + log(l[i]);
}

/* Keys query i sees: all, or under a causal mask j <= i + coff. */
static int visible(const lak_Attn *a, int i) {
  long long v = (long long)i + a->coff + 1;
  if (!a->causal || v >= a->nk) return a->nk;
  return v < 0 ? 0 : (int)v;
}

/* dk = 0, no mask or bias: every visible score is 0, so row i is the mean
** of V's first visible(i) rows (a running sum per column: O(nk + nq) per
** column, never nq * nk), and lse = log(visible(i)). */
static void uniform(const lak_Attn *a, double *O, int ldo, double *lse) {
  int i, j;
  for (j = 0; j < a->dv; j++) {
    const double *v = a->V + (ptrdiff_t)j * a->ldv;
    double sum = 0.0;
    int k = 0;
    for (i = 0; i < a->nq; i++) {
      int n = visible(a, i);
      while (k < n) sum += v[k++];    /* visible(i) grows with i */
      O[i + (ptrdiff_t)j * ldo] = n == 0 ? 0.0 : sum / n;
    }
  }
  if (lse)
    for (i = 0; i < a->nq; i++) {
      int n = visible(a, i);
      lse[i] = n == 0 ? -HUGE_VAL : log((double)n);
    }
}

/* Results with no score to weigh (nk = 0): zeros and -inf. */
static void no_keys(const lak_Attn *a, double *O, int ldo, double *lse) {
  int i, j;
  for (j = 0; j < a->dv; j++) memset(O + (ptrdiff_t)j * ldo, 0, (size_t)a->nq * sizeof(double));
  if (lse) for (i = 0; i < a->nq; i++) lse[i] = -HUGE_VAL;
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

typedef struct Job {
  const lak_Attn *a;
  double *O, *lse;
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
  while ((b = take(job)) >= 0)
    query_block(job->a, b * LAK_ATTN_BQ, job->O, job->ldo, job->lse, work);
}

static void *helper_main(void *p) {
  Helper *h = (Helper *)p;
  run_blocks(h->job, h->work);
  return NULL;
}

/* The fused kernel over all query blocks, on up to nthreads threads. */
static void fused(const lak_Attn *a, double *O, int ldo, double *lse, double *work,
                  int nthreads) {
  int nb = nblocks(a->nq, LAK_ATTN_BQ), t, j;
  size_t wsize = lak_attn_work(a);
  Helper helpers[LAK_ATTN_MAXTHREADS];
  Job job;
  for (j = 0; j < a->dv; j++) memset(O + (ptrdiff_t)j * ldo, 0, (size_t)a->nq * sizeof(double));
  if (nthreads > nb) nthreads = nb;
  if (nthreads > LAK_ATTN_MAXTHREADS) nthreads = LAK_ATTN_MAXTHREADS;
  job.a = a; job.O = O; job.lse = lse; job.ldo = ldo; job.next = nb - 1;
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

void lak_attention(const lak_Attn *a, double *O, int ldo, double *lse, double *work,
                   int nthreads) {
  if (a->nq <= 0 || (a->dv <= 0 && lse == NULL)) return;   /* no element to compute */
  if (a->nk <= 0) no_keys(a, O, ldo, lse);
  else if (a->dk <= 0 && !a->mask && !a->bias) uniform(a, O, ldo, lse);
  else fused(a, O, ldo, lse, work, nthreads);
}

void lak_attn_combine(int nq, int dv, const double *O1, int ld1, const double *lse1,
                      const double *O2, int ld2, const double *lse2, double *O, int ldo,
                      double *lse) {
  int i, j;
  for (i = 0; i < nq; i++) {
    double a = lse1[i], b = lse2[i], mx = a > b ? a : b, e1, e2, s;
    if (isnan(a) || isnan(b)) mx = a + b;                    /* NaN */
    if (mx == -HUGE_VAL) { e1 = e2 = 0.0; s = 1.0; lse[i] = -HUGE_VAL; }
    else {
      e1 = exp(a - mx); e2 = exp(b - mx); s = e1 + e2;
      lse[i] = mx + log(s);
    }
    for (j = 0; j < dv; j++) {
      double x = O1[i + (ptrdiff_t)j * ld1] * e1 + O2[i + (ptrdiff_t)j * ld2] * e2;
      O[i + (ptrdiff_t)j * ldo] = x / s;
    }
  }
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
                           double *lse, double *mx, double *sum) {
  int kb, i, nkb = nblocks(a->nk, LAK_ATTN_BK);
  if (a->nq <= 0 || a->nk <= 0) { no_keys(a, O, ldo, lse); return; }   /* nothing to weigh */
  for (kb = 0; kb < nkb; kb++) {                    /* scores tile by tile: same masking code */
    int j0 = kb * LAK_ATTN_BK, bk = a->nk - j0 < LAK_ATTN_BK ? a->nk - j0 : LAK_ATTN_BK;
    lak_gemm('N', 'T', a->nq, bk, a->dk, a->scale, a->Q, a->ldq, a->K + j0, a->ldk, 0.0,
             A + (ptrdiff_t)j0 * lda, lda);
  }
  mask_tile(a, 0, 0, a->nq, a->nk, A);              /* needs lda == nq */
  lak_softmax(a->nq, a->nk, A, lda, 0, mx, sum);
  if (lse) for (i = 0; i < a->nq; i++) lse[i] = sum[i] == 0.0 ? -HUGE_VAL : mx[i] + log(sum[i]);
  lak_gemm('N', 'N', a->nq, a->dv, a->nk, 1.0, A, lda, a->V, a->ldv, 0.0, O, ldo);
}
