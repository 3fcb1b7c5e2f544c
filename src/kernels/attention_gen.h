/*
** kernels/attention_gen.h: attention.c's kernels over LAK_REAL (included
** twice, see generate.h).
*/

/* One softmax column step, in place: x[i] = exp(x[i] - m[i]) and
** sum[i] += x[i], for x[i] - m[i] <= 0 (the method: EXP_* in attention.c).
** NaN gives NaN. No calls or branches, so compilers vectorize it (4 doubles
** or 8 floats per AVX2 vector, 8 or 16 per AVX-512 one; the Makefile
** builds attention.c with -O3 -fno-trapping-math). */
/* exp(v) for v <= 0 (NaN gives NaN) by that method, inline so the loops
** that call it vectorize */
static inline LAK_REAL LAK(expneg)(LAK_REAL v) {
  LAK_REAL t, k, r, p, keep = v < EXP_MIN ? 0 : 1;
  LAK_UINT bits;
  int c;
  v = v < EXP_MIN ? EXP_MIN : v;
  t = v * EXP_LOG2E + EXP_SHIFT;
  k = t - EXP_SHIFT;
  r = (v - k * EXP_LN2HI) - k * EXP_LN2LO;
  p = EXP_POLY[0];
  for (c = 1; c <= EXP_DEG; c++) p = p * r + EXP_POLY[c];
  memcpy(&bits, &t, sizeof bits);
  bits = (bits + EXP_BIAS) << EXP_MANT;   /* 2^k: the shifter's bits drop out */
  memcpy(&t, &bits, sizeof t);
  return p * t * keep;
}

LAK_EXP_CLONES
void LAK(expsum)(LAK_REAL *restrict x, const LAK_REAL *restrict m, LAK_REAL *restrict sum,
                 int n) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] = LAK(expneg)(x[i] - m[i]);
    sum[i] += x[i];
  }
}

/* softmax's column steps in place, the sums in double: x[i] = exp(x[i] -
** m[i]), sum[i] += x[i]; log-softmax's x[i] -= m[i], sum[i] += exp(x[i]) */
LAK_EXP_CLONES
static void LAK(expsumd)(LAK_REAL *restrict x, const LAK_REAL *restrict m, double *restrict sum,
                         int n) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] = LAK(expneg)(x[i] - m[i]);
    sum[i] += x[i];
  }
}

LAK_EXP_CLONES
static void LAK(logexpsum)(LAK_REAL *restrict x, const LAK_REAL *restrict m,
                           double *restrict sum, int n) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] -= m[i];
    sum[i] += LAK(expneg)(x[i]);
  }
}

#if LAK_SIMD
#include "attention_simd_gen.h"

/* The AVX-512 kernel takes attention without mask or bias, from one full
** strip of queries up (fewer would be padded to a strip: the gemm tiles are
** faster there), when |scale| log2(e) is a float > 0 (scale 0, NaN or past
** that: the gemm tiles, which scale scores, not differences). */
static int LAK(simd_ok)(const LAK(Attn) *a) {
  double f = LAK(simd_f)(a);
  return !a->mask && !a->bias && a->nq >= SIMD_R && a->dk > 0 && a->dk <= SIMD_DMAX &&
         a->dv <= SIMD_DMAX && f > 0 && f <= LAK_PICK(DBL_MAX, FLT_MAX) && simd_cpu();
}
#endif

int LAK(simd_exp2)(LAK_REAL *x, int n) {
#if LAK_SIMD
  if (simd_cpu()) {
    LAK(simd_exp2_n)(x, n);
    return 1;
  }
#endif
  (void)x; (void)n;
  return 0;
}

/* the gemm kernel's work per thread */
#define GEMM_WORK ((size_t)LAK_ATTN_BQ * LAK_ATTN_BK + 4 * (size_t)LAK_ATTN_BQ)

size_t LAK(attn_work)(const LAK(Attn) *a, int nthreads) {
  if (nthreads < 1) nthreads = 1;
#if LAK_SIMD
  if (LAK(simd_ok)(a)) return LAK(simd_work)(a, nthreads);
#else
  (void)a;
#endif
  return (size_t)nthreads * GEMM_WORK;
}

/* The bq x bk tile S (ld bq) and the broadcast matrix at B (entry (i, j) at
** i * rs + j * cs; rs is 1 or 0): a bias is added to S; with mask, the
** entries of S where B is zero become -inf instead. */
static void LAK(apply_tile)(const LAK_REAL *B, ptrdiff_t rs, ptrdiff_t cs, int mask, int bq,
                            int bk, LAK_REAL *S) {
  int i, j;
  for (j = 0; j < bk; j++) {
    const LAK_REAL *b = B + j * cs;
    LAK_REAL *s = S + (ptrdiff_t)j * bq;
    if (mask && rs == 1) { for (i = 0; i < bq; i++) if (b[i] == 0) s[i] = -INF; }
    else if (mask) { if (b[0] == 0) for (i = 0; i < bq; i++) s[i] = -INF; }
    else if (rs == 1) for (i = 0; i < bq; i++) s[i] += b[i];
    else for (i = 0; i < bq; i++) s[i] += b[0];
  }
}

/* Adds bias, and sets masked entries to -inf, in the bq x bk tile S
** (leading dimension bq) at rows i0, columns j0 of the score matrix. */
static void LAK(mask_tile)(const LAK(Attn) *a, int i0, int j0, int bq, int bk, LAK_REAL *S) {
  if (bq <= 0 || bk <= 0) return;
  if (a->bias) LAK(apply_tile)(a->bias + i0 * a->brs + j0 * a->bcs, a->brs, a->bcs, 0, bq, bk, S);
  if (a->mask) LAK(apply_tile)(a->mask + i0 * a->mrs + j0 * a->mcs, a->mrs, a->mcs, 1, bq, bk, S);
  if (a->causal) {          /* key j0 + j is visible to query i0 + i iff j <= i + d */
    long long d = (long long)i0 + a->coff - j0;
    int i, j;
    if (bk - 1 > d)         /* some key after some query */
      for (j = 0; j < bk; j++) {
        LAK_REAL *s = S + (ptrdiff_t)j * bq;
        for (i = 0; i < bq && i + d < j; i++) s[i] = -INF;
      }
  }
}

/* S = scale * Q(i0:i0+bq) K(j0:j0+bk)^T, then bias and masks */
static void LAK(scores)(const LAK(Attn) *a, int i0, int j0, int bq, int bk, LAK_REAL *S) {
  LAK(gemm)('N', 'T', bq, bk, a->dk, a->scale, a->Q + i0, a->ldq, a->K + j0, a->ldk,
           0.0, S, bq);
  LAK(mask_tile)(a, i0, j0, bq, bk, S);
}

/* One key tile of the streamed softmax for query rows of the block. */
static void LAK(stream_tile)(const LAK(Attn) *a, int i0, int j0, int bq, int bk, LAK_REAL *S,
                             LAK_REAL *m, LAK_REAL *l, LAK_REAL *c, LAK_REAL *t, LAK_REAL *O,
                             int ldo) {
  int i, j, rescale = 0;
  LAK(scores)(a, i0, j0, bq, bk, S);
  for (i = 0; i < bq; i++) t[i] = m[i];
  for (j = 0; j < bk; j++) {       /* a select, not a branch: it vectorizes */
    const LAK_REAL *s = S + (ptrdiff_t)j * bq;
    for (i = 0; i < bq; i++) t[i] = s[i] > t[i] ? s[i] : t[i];
  }
  for (i = 0; i < bq; i++) {
    c[i] = (t[i] == m[i]) ? 1 : LAK_M(exp)(m[i] - t[i]);   /* m = -inf gives 0 */
    if (c[i] != 1.0) rescale = 1;
    m[i] = t[i];
    l[i] *= c[i];
  }
  for (i = 0; i < bq; i++) t[i] = m[i] == -INF ? 0 : m[i];   /* no -inf - -inf */
  for (j = 0; j < bk; j++) LAK(expsum)(S + (ptrdiff_t)j * bq, t, l, bq);
  if (rescale)
    for (j = 0; j < a->dv; j++) {
      LAK_REAL *o = O + i0 + (ptrdiff_t)j * ldo;
      for (i = 0; i < bq; i++) o[i] *= c[i];
    }
  LAK(gemm)('N', 'N', bq, a->dv, bk, 1.0, S, bq, a->V + j0, a->ldv, 1.0, O + i0, ldo);
}

/* A causal tile that crosses the diagonal, in row strips of LAK_ATTN_BQ / 4:
** each strip stops at its own last visible key, so about a quarter of the
** triangle above the diagonal is computed instead of all of it (causal runs
** at about half the full kernel's time; the row states are per row). */
static void LAK(diagonal_tile)(const LAK(Attn) *a, int i0, int j0, int bq, int bk,
                               LAK_REAL *S, LAK_REAL *m, LAK_REAL *l, LAK_REAL *c,
                               LAK_REAL *t, LAK_REAL *O, int ldo) {
  int r0, br;
  for (r0 = 0; r0 < bq; r0 += br) {
    long long last = (long long)i0 + r0 + a->coff - j0;   /* the strip's first row's last key */
    br = bq - r0 < LAK_ATTN_BQ / 4 ? bq - r0 : LAK_ATTN_BQ / 4;
    last += br - 1;                                       /* its last row's */
    if (last < 0) continue;                               /* no key visible yet */
    LAK(stream_tile)(a, i0 + r0, j0, br, last + 1 < bk ? (int)(last + 1) : bk, S,
                     m + r0, l + r0, c + r0, t + r0, O, ldo);
  }
}

/* Query rows i0 .. i0 + bq - 1: stream every visible key tile, normalize. */
static void LAK(query_block)(const LAK(Attn) *a, int i0, LAK_REAL *O, int ldo, LAK_REAL *lse,
                             LAK_REAL *work) {
  LAK_REAL *S = work, *m = S + (size_t)LAK_ATTN_BQ * LAK_ATTN_BK;
  LAK_REAL *l = m + LAK_ATTN_BQ, *c = l + LAK_ATTN_BQ, *t = c + LAK_ATTN_BQ;
  int bq = a->nq - i0 < LAK_ATTN_BQ ? a->nq - i0 : LAK_ATTN_BQ, kb, nkb, i, j;
  long long last = (long long)i0 + bq - 1 + a->coff;   /* causal: the last key seen */
  for (i = 0; i < bq; i++) { m[i] = -INF; l[i] = 0.0; }
  nkb = nblocks(a->nk, LAK_ATTN_BK);
  for (kb = 0; kb < nkb; kb++) {
    int j0 = kb * LAK_ATTN_BK, bk = a->nk - j0 < LAK_ATTN_BK ? a->nk - j0 : LAK_ATTN_BK;
    if (a->causal) {           /* keys after the block's last query are masked */
      if (j0 > last) break;
      if (bk > last - j0 + 1) bk = (int)(last - j0 + 1);
      if (bk - 1 > (long long)i0 + a->coff - j0) {   /* the tile crosses the diagonal */
        LAK(diagonal_tile)(a, i0, j0, bq, bk, S, m, l, c, t, O, ldo);
        continue;
      }
    }
    LAK(stream_tile)(a, i0, j0, bq, bk, S, m, l, c, t, O, ldo);
  }
  for (j = 0; j < a->dv; j++) {
    LAK_REAL *o = O + i0 + (ptrdiff_t)j * ldo;
    for (i = 0; i < bq; i++) o[i] = l[i] == 0 ? 0 : o[i] / l[i];
  }
  if (lse)
    for (i = 0; i < bq; i++) lse[i0 + i] = l[i] == 0.0 ? -INF : m[i] + LAK_M(log)(l[i]);
}

/* Keys query i sees: all, or under a causal mask j <= i + coff. */
static int LAK(visible)(const LAK(Attn) *a, int i) {
  long long v = (long long)i + a->coff + 1;
  if (!a->causal || v >= a->nk) return a->nk;
  return v < 0 ? 0 : (int)v;
}

/* dk = 0, no mask or bias: every visible score is 0, so row i is the mean
** of V's first visible(i) rows (a running sum per column: O(nk + nq) per
** column, never nq * nk), and lse = log(visible(i)). */
static void LAK(uniform)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *lse) {
  int i, j;
  for (j = 0; j < a->dv; j++) {
    const LAK_REAL *v = a->V + (ptrdiff_t)j * a->ldv;
    double sum = 0.0;     /* float too: a long running sum */
    int k = 0;
    for (i = 0; i < a->nq; i++) {
      int n = LAK(visible)(a, i);
      while (k < n) sum += v[k++];    /* visible(i) grows with i */
      O[i + (ptrdiff_t)j * ldo] = n == 0 ? 0.0 : sum / n;
    }
  }
  if (lse)
    for (i = 0; i < a->nq; i++) {
      int n = LAK(visible)(a, i);
      lse[i] = n == 0 ? -INF : log((double)n);
    }
}

/* Results with no score to weigh (nk = 0): zeros and -inf. No query (nq
** = 0): nothing, at once (dv may be 2^31-1 columns of nothing). */
static void LAK(no_keys)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *lse) {
  int i, j;
  if (a->nq <= 0) return;
  for (j = 0; j < a->dv; j++) memset(O + (ptrdiff_t)j * ldo, 0, (size_t)a->nq * sizeof(LAK_REAL));
  if (lse) for (i = 0; i < a->nq; i++) lse[i] = -INF;
}

/* the fused kernel's blocks: query_block on block b */
typedef struct LAK(Blocks) {
  const LAK(Attn) *a;
  const LAK_REAL *shared;         /* the AVX-512 kernel's packed keys, or NULL */
  LAK_REAL *O, *lse;
  int ldo;
} LAK(Blocks);

static void LAK(block)(const void *ctx, int b, void *work) {
  const LAK(Blocks) *q = (const LAK(Blocks) *)ctx;
  LAK(query_block)(q->a, b * LAK_ATTN_BQ, q->O, q->ldo, q->lse, (LAK_REAL *)work);
}

#if LAK_SIMD
static void LAK(simd_blockfn)(const void *ctx, int b, void *work) {
  const LAK(Blocks) *q = (const LAK(Blocks) *)ctx;
  LAK(simd_block)(q->a, q->shared, b * SIMD_BQ, q->O, q->ldo, q->lse, (LAK_REAL *)work);
}
#endif

/* The fused kernel over all query blocks, on up to nthreads threads. */
static void LAK(fused)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *lse,
                       LAK_REAL *work, int nthreads) {
  LAK(Blocks) q;
  int j;
  q.a = a; q.O = O; q.lse = lse; q.ldo = ldo;
#if LAK_SIMD
  if (LAK(simd_ok)(a)) {
    size_t part[5], shared = LAK(simd_shared)(a);
    q.shared = NULL;
    if (shared) {
      LAK(simd_pack_all)(a, LAK(simd_align)(work));
      q.shared = LAK(simd_align)(work);
    }
    parallel_blocks(nblocks(a->nq, SIMD_BQ), nthreads, LAK(simd_blockfn), &q,
                    (char *)(work + shared + SIMD_PAD),
                    LAK(simd_parts)(a, shared > 0, part) * sizeof(LAK_REAL));
    return;
  }
#endif
  for (j = 0; j < a->dv; j++)
    memset(O + (ptrdiff_t)j * ldo, 0, (size_t)a->nq * sizeof(LAK_REAL));
  parallel_blocks(nblocks(a->nq, LAK_ATTN_BQ), nthreads, LAK(block), &q, (char *)work,
                  GEMM_WORK * sizeof(LAK_REAL));
}

void LAK(attention)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *lse, LAK_REAL *work,
                   int nthreads) {
  if (a->nq <= 0 || (a->dv <= 0 && lse == NULL)) return;   /* no element to compute */
  if (a->nk <= 0) LAK(no_keys)(a, O, ldo, lse);
  else if (a->dk <= 0 && !a->mask && !a->bias) LAK(uniform)(a, O, ldo, lse);
  else LAK(fused)(a, O, ldo, lse, work, nthreads);
}

/* lak_units' unit: attention u of the list on `inner` threads */
static void LAK(unit)(const void *ctx, int u, void *work, int inner) {
  const LAK(AttnUnit) *x = (const LAK(AttnUnit) *)ctx + u;
  LAK(attention)(&x->a, x->O, x->ldo, x->lse, (LAK_REAL *)work, inner);
}

/* unit u's work on `inner` threads, in elements, and its multiply-adds
** (lak_units_slice, lak_units_threads) */
static size_t LAK(unit_work)(const void *ctx, int u, int inner) {
  return LAK(attn_work)(&((const LAK(AttnUnit) *)ctx)[u].a, inner);
}

static double LAK(unit_madds)(const void *ctx, int u) {
  const LAK(Attn) *a = &((const LAK(AttnUnit) *)ctx)[u].a;
  return (double)a->nq * a->nk * ((double)a->dk + a->dv);
}

static const lak_UnitKind LAK(unit_kind) = {LAK(unit), LAK(unit_work), LAK(unit_madds),
                                             sizeof(LAK_REAL)};

size_t LAK(attn_units_work)(const LAK(AttnUnit) *u, int n, int nthreads) {
  return lak_units_work(&LAK(unit_kind), u, n, nthreads);
}

void LAK(attn_units)(const LAK(AttnUnit) *u, int n, LAK_REAL *work, int nthreads) {
  lak_units_run(&LAK(unit_kind), u, n, work, nthreads);
}

void LAK(attn_combine)(int nq, int dv, const LAK_REAL *O1, int ld1, const LAK_REAL *lse1,
                      const LAK_REAL *O2, int ld2, const LAK_REAL *lse2, LAK_REAL *O, int ldo,
                      LAK_REAL *lse) {
  int i, j;
  for (i = 0; i < nq; i++) {
    LAK_REAL a = lse1[i], b = lse2[i], mx = a > b ? a : b, e1, e2, s;
    if (isnan(a) || isnan(b)) mx = a + b;                    /* NaN */
    if (mx == -INF) { e1 = e2 = 0.0; s = 1.0; lse[i] = -INF; }
    else {
      e1 = LAK_M(exp)(a - mx); e2 = LAK_M(exp)(b - mx); s = e1 + e2;
      lse[i] = mx + LAK_M(log)(s);
    }
    for (j = 0; j < dv; j++) {
      LAK_REAL x = O1[i + (ptrdiff_t)j * ld1] * e1 + O2[i + (ptrdiff_t)j * ld2] * e2;
      O[i + (ptrdiff_t)j * ldo] = x / s;
    }
  }
}

/* a column's steps: x[i] = exp(x[i] - m); log-softmax's x[i] -= m, t[i] =
** exp(x[i]) */
LAK_EXP_CLONES
static void LAK(expcol)(LAK_REAL *restrict x, LAK_REAL m, int n) {
  int i;
  for (i = 0; i < n; i++) x[i] = LAK(expneg)(x[i] - m);
}

LAK_EXP_CLONES
static void LAK(logexpcol)(LAK_REAL *restrict x, LAK_REAL m, LAK_REAL *restrict t, int n) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] -= m;
    t[i] = LAK(expneg)(x[i]);
  }
}

LAK_EXP_CLONES
static void LAK(divcol)(LAK_REAL *restrict x, LAK_REAL d, int n) {
  int i;
  for (i = 0; i < n; i++) x[i] = x[i] / d;
}

void LAK(colsoftmax)(int m, int n, LAK_REAL *S, int lds, int logs, LAK_REAL *t) {
  int i, j;
  for (j = 0; j < n && m > 0; j++) {
    LAK_REAL *s = S + (ptrdiff_t)j * lds, mx;
    double sum;
    mx = (LAK_REAL)LAK(reduce)(LAK_MAX, (size_t)m, s, 1, 0.0);   /* NaN if any */
    if (mx == -INF) mx = 0.0;                                     /* all -inf: no NaN */
    if (logs) {
      LAK(logexpcol)(s, mx, t, m);
      sum = LAK(reduce)(LAK_SUM, (size_t)m, t, 1, 0.0);
      if (sum != 0) for (i = 0; i < m; i++) s[i] -= (LAK_REAL)log(sum);   /* else -inf stays */
      continue;
    }
    LAK(expcol)(s, mx, m);
    sum = LAK(reduce)(LAK_SUM, (size_t)m, s, 1, 0.0);
    if (sum == 0) for (i = 0; i < m; i++) s[i] = 0;                 /* every entry -inf */
    else LAK(divcol)(s, (LAK_REAL)sum, m);
  }
}

/* row softmax's column steps, compiled for each vector width (the
** function that calls them is not): the running max (NaN sticks); exp(s -
** max) from S into R and its sum; s - max into R, its exp's sum; the
** division by the sum, and the log's subtraction */
LAK_EXP_CLONES
static void LAK(maxcol)(const LAK_REAL *restrict s, LAK_REAL *restrict mx, int n) {
  int i;
  for (i = 0; i < n; i++) mx[i] = s[i] > mx[i] || s[i] != s[i] ? s[i] : mx[i];
}

LAK_EXP_CLONES
static void LAK(expsum2)(const LAK_REAL *restrict s, LAK_REAL *restrict x,
                         const LAK_REAL *restrict m, double *restrict sum, int n) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] = LAK(expneg)(s[i] - m[i]);
    sum[i] += x[i];
  }
}

LAK_EXP_CLONES
static void LAK(logexpsum2)(const LAK_REAL *restrict s, LAK_REAL *restrict x,
                            const LAK_REAL *restrict m, double *restrict sum, int n) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] = s[i] - m[i];
    sum[i] += LAK(expneg)(x[i]);
  }
}

LAK_EXP_CLONES
static void LAK(divrow)(LAK_REAL *restrict x, const double *restrict sum, int n) {
  int i;
  for (i = 0; i < n; i++) x[i] = sum[i] == 0 ? 0 : (LAK_REAL)(x[i] / sum[i]);   /* all -inf: 0 */
}

LAK_EXP_CLONES
static void LAK(subrow)(LAK_REAL *restrict x, const LAK_REAL *restrict l, int n) {
  int i;
  for (i = 0; i < n; i++) x[i] -= l[i];
}

void LAK(softmax)(int m, int n, const LAK_REAL *S, int lds, LAK_REAL *R, int ldr, int logs,
                  LAK_REAL *mx, double *sum) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  for (i = 0; i < m; i++) { mx[i] = -INF; sum[i] = 0.0; }
  for (j = 0; j < n; j++) LAK(maxcol)(S + (ptrdiff_t)j * lds, mx, m);
  for (i = 0; i < m; i++) if (mx[i] == -INF) mx[i] = 0.0;   /* all -inf: no NaN */
  for (j = 0; j < n; j++) {    /* log-softmax keeps s - max; its exps only feed the sum */
    const LAK_REAL *s = S + (ptrdiff_t)j * lds;
    LAK_REAL *r = R + (ptrdiff_t)j * ldr;
    if (s == r && logs) LAK(logexpsum)(r, mx, sum, m);     /* in place */
    else if (s == r) LAK(expsumd)(r, mx, sum, m);
    else if (logs) LAK(logexpsum2)(s, r, mx, sum, m);
    else LAK(expsum2)(s, r, mx, sum, m);
  }
  if (logs) {                   /* a log a row; a row of only -inf stays -inf */
    for (i = 0; i < m; i++) mx[i] = sum[i] == 0 ? 0 : (LAK_REAL)log(sum[i]);
    for (j = 0; j < n; j++) LAK(subrow)(R + (ptrdiff_t)j * ldr, mx, m);
    return;
  }
  for (j = 0; j < n; j++) LAK(divrow)(R + (ptrdiff_t)j * ldr, sum, m);
}

void LAK(attention_weights)(const LAK(Attn) *a, LAK_REAL *O, int ldo, LAK_REAL *A, int lda,
                           LAK_REAL *lse, LAK_REAL *mx, double *sum) {
  int kb, i, nkb = nblocks(a->nk, LAK_ATTN_BK);
  if (a->nq <= 0 || a->nk <= 0) { LAK(no_keys)(a, O, ldo, lse); return; }   /* nothing to weigh */
  for (kb = 0; kb < nkb; kb++) {                    /* scores tile by tile: same masking code */
    int j0 = kb * LAK_ATTN_BK, bk = a->nk - j0 < LAK_ATTN_BK ? a->nk - j0 : LAK_ATTN_BK;
    LAK(gemm)('N', 'T', a->nq, bk, a->dk, a->scale, a->Q, a->ldq, a->K + j0, a->ldk, 0.0,
             A + (ptrdiff_t)j0 * lda, lda);
  }
  LAK(mask_tile)(a, 0, 0, a->nq, a->nk, A);              /* needs lda == nq */
  LAK(softmax)(a->nq, a->nk, A, lda, A, lda, 0, mx, sum);
  if (lse) for (i = 0; i < a->nq; i++) lse[i] = sum[i] == 0.0 ? -INF : (LAK_REAL)(mx[i] + log(sum[i]));
  LAK(gemm)('N', 'N', a->nq, a->dv, a->nk, 1.0, A, lda, a->V, a->ldv, 0.0, O, ldo);
}

void LAK(attn_mask)(const LAK(Attn) *a, int i0, int j0, int bq, int bk, LAK_REAL *S) {
  LAK(mask_tile)(a, i0, j0, bq, bk, S);
}

#if LAK_SIMD   /* attention_simd_gen.h's per-type names */
#undef SV
#undef SMASK
#undef SI
#undef SCMP
#undef SIMD_W
#undef SIMD_R
#undef SIMD_BQ
#undef SET1
#undef SIMD_PAD
#undef SIMD_LOG2E
#endif
#undef GEMM_WORK
#undef UNITS_MINWORK
