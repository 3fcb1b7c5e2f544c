/*
** kernels/attention_simd_gen.h: the fused attention kernel in AVX-512
** registers, over LAK_REAL (included twice by attention.c, see generate.h).
**
** The two products of a key tile, S = scale * Q K^T and O += P V, are
** register-blocked here instead of two gemm calls per tile: the BLAS packs
** both operands of every call again, and with d = 64 that packing and the
** calls' fixed costs are a third of the time. Here the query rows of a block
** are packed once, each key tile once per block, and the scores of a strip
** of SIMD_R query rows never leave L1 between the products and the exp.
**
** Layouts (all column-major, as the matrices):
**   q   a strip: q[k * SIMD_R + r] = Q(i0 + r, k), zero rows past nq
**   kp  keys in panels of SIMD_NJ: kp[(p * dk + k) * SIMD_NJ + t] = K(j0 + p * SIMD_NJ + t, k)
**   vp  the tile's values: vp[c * SIMD_LDV + j] = V(j0 + j, c), zero columns up to dvp
**   S   one strip's scores / weights: S[j * SIMD_R + r]
**   ob  a strip's unnormalized output: ob[c * SIMD_R + r]
** Lanes run down the rows, so a row's maximum and sum are lanewise, never
** reduced across a vector. Used for every float attention without mask or
** bias (causal included) when the CPU has AVX-512 and dk, dv <= SIMD_DMAX.
*/

#if LAK_DOUBLE
#define SV __m512d
#define SMASK __mmask8
#define SI(op) _mm512_##op##_pd
#define SCMP _mm512_cmp_pd_mask
#define SIMD_W 8
#else
#define SV __m512
#define SMASK __mmask16
#define SI(op) _mm512_##op##_ps
#define SCMP _mm512_cmp_ps_mask
#define SIMD_W 16
#endif
#define SIMD_R (3 * SIMD_W)          /* query rows per strip: three vectors */
#define SIMD_BQ (SIMD_G * SIMD_R)    /* query rows per block */
#define SET1(x) SI(set1)((LAK_REAL)(x))

/* 2^x for x <= 0 (attention.c's EXP2_* method; 2^k by scalef): 0 below
** EXP2_MIN and for -inf, NaN stays NaN */
SIMD_FN static inline SV LAK(vexp2)(SV x) {
  SMASK keep = SCMP(x, SET1(EXP2_MIN), _CMP_NLT_UQ);   /* NaN is kept */
  SV k = SI(roundscale)(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  SV r = SI(sub)(x, k), p = SET1(EXP2_POLY[0]);
  int c;
  for (c = 1; c <= EXP2_DEG; c++) p = SI(fmadd)(p, r, SET1(EXP2_POLY[c]));
  return SI(maskz_scalef)(keep, p, k);
}

/* x = 2^x in place (for lak_simd_exp2) */
SIMD_FN static void LAK(simd_exp2_n)(LAK_REAL *x, int n) {
  LAK_REAL t[SIMD_W];
  int i;
  for (i = 0; i + SIMD_W <= n; i += SIMD_W) SI(storeu)(x + i, LAK(vexp2)(SI(loadu)(x + i)));
  if (i == n) return;
  memset(t, 0, sizeof t);
  memcpy(t, x + i, (size_t)(n - i) * sizeof *t);
  SI(storeu)(t, LAK(vexp2)(SI(loadu)(t)));
  memcpy(x + i, t, (size_t)(n - i) * sizeof *t);
}

/* dv rounded up to whole output panels (zero columns past dv) */
static int LAK(simd_dvp)(const LAK(Attn) *a) { return (a->dv + SIMD_NJ - 1) / SIMD_NJ * SIMD_NJ; }

/* Elements of one packed key tile: its panels, then its values. */
static size_t LAK(simd_tile)(const LAK(Attn) *a) {
  size_t dvp = (size_t)LAK(simd_dvp)(a);
  return (size_t)SIMD_BK * a->dk + dvp * SIMD_LDV;   /* 64-byte multiples */
}

/* All key tiles, packed once per call and shared by the threads when they
** fit in SIMD_SHARED bytes (else 0: each block packs the tiles it uses) */
static size_t LAK(simd_shared)(const LAK(Attn) *a) {
  size_t n = (size_t)nblocks(a->nk, SIMD_BK) * LAK(simd_tile)(a);
  return n * sizeof(LAK_REAL) <= SIMD_SHARED ? n : 0;
}

/* One thread's work, in elements: the packed strips, a key tile when not
** shared, one strip's scores, the output strips and the row states m, l;
** each part starts on a 64-byte boundary. */
#define SIMD_PAD (64 / sizeof(LAK_REAL))
static size_t LAK(simd_parts)(const LAK(Attn) *a, int shared, size_t part[5]) {
  size_t dvp = (size_t)LAK(simd_dvp)(a);
  part[0] = (size_t)SIMD_G * a->dk * SIMD_R;       /* q */
  part[1] = shared ? 0 : LAK(simd_tile)(a);        /* kp, vp */
  part[2] = (size_t)SIMD_R * SIMD_BK;              /* S */
  part[3] = (size_t)SIMD_G * dvp * SIMD_R;         /* ob */
  part[4] = 2 * (size_t)SIMD_BQ;                   /* m, l */
  return part[0] + part[1] + part[2] + part[3] + part[4] + 6 * SIMD_PAD;
}

/* the whole work: the shared tiles, then nthreads parts */
static size_t LAK(simd_work)(const LAK(Attn) *a, int nthreads) {
  size_t part[5], shared = LAK(simd_shared)(a);
  return shared + SIMD_PAD + (size_t)nthreads * LAK(simd_parts)(a, shared > 0, part);
}

static LAK_REAL *LAK(simd_align)(LAK_REAL *p) {
  uintptr_t u = (uintptr_t)p;
  return (LAK_REAL *)((u + 63) & ~(uintptr_t)63);   /* the work is LAK_REAL-aligned */
}

typedef struct LAK(Simd) {
  LAK_REAL *q, *tile, *S, *ob, *m, *l;
  const LAK_REAL *kp, *vp;          /* the current key tile's panels and values */
  LAK_REAL f;                       /* |scale| * log2(e) */
} LAK(Simd);

/* log2(e): |scale| * log2(e) * q k^T are the scores in base 2 */
#define SIMD_LOG2E 1.4426950408889634

/* that factor, in double: the kernel takes scales it is finite and > 0 for */
static double LAK(simd_f)(const LAK(Attn) *a) {
  return (a->scale < 0 ? -(double)a->scale : (double)a->scale) * SIMD_LOG2E;
}

static void LAK(simd_carve)(const LAK(Attn) *a, int shared, LAK_REAL *work, LAK(Simd) *w) {
  size_t part[5];
  LAK(simd_parts)(a, shared, part);
  w->q = LAK(simd_align)(work);
  w->tile = LAK(simd_align)(w->q + part[0]);
  w->S = LAK(simd_align)(w->tile + part[1]);
  w->ob = LAK(simd_align)(w->S + part[2]);
  w->m = LAK(simd_align)(w->ob + part[3]);
  w->l = w->m + SIMD_BQ;
}

/* keys j0 .. j0 + n - 1 into the tile at t: panels with zero keys up to
** the last panel's end, then their values with zero columns dv .. dvp - 1 */
static void LAK(simd_pack_kv)(const LAK(Attn) *a, int j0, int n, LAK_REAL *t) {
  int np = (n + SIMD_NJ - 1) / SIMD_NJ, p, k, c, dvp = LAK(simd_dvp)(a);
  LAK_REAL *vp = t + (size_t)SIMD_BK * a->dk;
  for (k = 0; k < a->dk; k++)        /* along K's rows: contiguous reads */
    for (p = 0; p < np; p++) {
      int t0 = p * SIMD_NJ, nt = n - t0 < SIMD_NJ ? n - t0 : SIMD_NJ;
      LAK_REAL *d = t + ((size_t)p * a->dk + k) * SIMD_NJ;
      const LAK_REAL *src = a->K + j0 + t0 + (ptrdiff_t)k * a->ldk;
      if (nt == SIMD_NJ) memcpy(d, src, SIMD_NJ * sizeof *d);   /* a constant size: inlined */
      else {
        memcpy(d, src, (size_t)nt * sizeof *d);
        memset(d + nt, 0, (size_t)(SIMD_NJ - nt) * sizeof *d);
      }
    }
  for (c = 0; c < dvp; c++) {
    LAK_REAL *d = vp + (size_t)c * SIMD_LDV;
    if (c < a->dv) memcpy(d, a->V + j0 + (ptrdiff_t)c * a->ldv, (size_t)n * sizeof *d);
    else memset(d, 0, (size_t)n * sizeof *d);
  }
}

/* every key tile, once per call, into the shared tiles */
static void LAK(simd_pack_all)(const LAK(Attn) *a, LAK_REAL *shared) {
  int j0;
  for (j0 = 0; j0 < a->nk; j0 += SIMD_BK)
    LAK(simd_pack_kv)(a, j0, a->nk - j0 < SIMD_BK ? a->nk - j0 : SIMD_BK,
                      shared + (size_t)(j0 / SIMD_BK) * LAK(simd_tile)(a));
}

/* the block's query rows i0 .. i0 + bq - 1 into strips, negated when scale
** < 0 (the rows' maxima are then taken of q k^T with a positive factor),
** zero rows past bq */
static void LAK(simd_pack_q)(const LAK(Attn) *a, int i0, int bq, LAK_REAL *q) {
  LAK_REAL f = a->scale < 0 ? -1 : 1;
  int s, k, r;
  for (s = 0; s * SIMD_R < bq; s++) {
    int r0 = s * SIMD_R, n = bq - r0 < SIMD_R ? bq - r0 : SIMD_R;
    for (k = 0; k < a->dk; k++) {
      LAK_REAL *d = q + ((size_t)s * a->dk + k) * SIMD_R;
      const LAK_REAL *src = a->Q + i0 + r0 + (ptrdiff_t)k * a->ldq;
      for (r = 0; r < n; r++) d[r] = src[r] * f;
      for (; r < SIMD_R; r++) d[r] = 0;
    }
  }
}

/* Scores of strip q against the kb keys of the panels: S = q k^T, unscaled
** (the exp step scales differences, which cannot overflow where scores
** near the type's largest value would); keys past kb and, when causal,
** keys j > r + diag of strip row r are -inf. mx[v] takes the lanewise
** maximum (NaN is skipped): lse is |scale| times it plus log(l), exactly
** the scaled score when the row's maximum has weight 1. */
SIMD_FN static void LAK(simd_scores)(const LAK(Attn) *a, const LAK_REAL *q, const LAK_REAL *kp,
                                     int kb, int causal, long long diag, LAK_REAL *S, SV mx[3]) {
  const SV ninf = SET1(-INF);
  SV row[3];
  int np = (kb + SIMD_NJ - 1) / SIMD_NJ, p, k, t, v;
  for (v = 0; v < 3; v++) {          /* each lane's row index within the strip */
    LAK_REAL idx[SIMD_W];
    for (t = 0; t < SIMD_W; t++) idx[t] = (LAK_REAL)(v * SIMD_W + t);
    row[v] = SI(loadu)(idx);
  }
  for (p = 0; p < np; p++) {
    const LAK_REAL *b = kp + (size_t)p * a->dk * SIMD_NJ;
    SV acc[SIMD_NJ][3];
    for (t = 0; t < SIMD_NJ; t++) for (v = 0; v < 3; v++) acc[t][v] = SI(setzero)();
    for (k = 0; k < a->dk; k++) {
      const LAK_REAL *qk = q + (size_t)k * SIMD_R, *bk = b + (size_t)k * SIMD_NJ;
      SV q0 = SI(load)(qk), q1 = SI(load)(qk + SIMD_W), q2 = SI(load)(qk + 2 * SIMD_W);
      for (t = 0; t < SIMD_NJ; t++) {
        SV kk = SI(set1)(bk[t]);
        acc[t][0] = SI(fmadd)(q0, kk, acc[t][0]);
        acc[t][1] = SI(fmadd)(q1, kk, acc[t][1]);
        acc[t][2] = SI(fmadd)(q2, kk, acc[t][2]);
      }
    }
    for (t = 0; t < SIMD_NJ; t++) {
      int j = p * SIMD_NJ + t;
      for (v = 0; v < 3; v++) {
        SMASK hide = 0;
        if (j >= kb) hide = (SMASK)~(SMASK)0;
        else if (causal && j - diag > 0) {   /* rows r < j - diag do not see key j */
          long long lim = j - diag > SIMD_R ? SIMD_R : j - diag;
          hide = SCMP(row[v], SET1(lim), _CMP_LT_OQ);
        }
        acc[t][v] = SI(mask_mov)(acc[t][v], hide, ninf);
        mx[v] = SI(max)(acc[t][v], mx[v]);           /* NaN: mx stays */
        SI(store)(S + (size_t)j * SIMD_R + v * SIMD_W, acc[t][v]);
      }
    }
  }
}

/* S = 2^(f (S - mt)) in place over np panels; returns the sums in sum[v] */
SIMD_FN static void LAK(simd_exp)(LAK_REAL *S, int np, const SV mt[3], SV f, SV sum[3]) {
  int j, v;
  for (v = 0; v < 3; v++) sum[v] = SI(setzero)();
  for (j = 0; j < np * SIMD_NJ; j++)
    for (v = 0; v < 3; v++) {
      LAK_REAL *s = S + (size_t)j * SIMD_R + v * SIMD_W;
      SV e = LAK(vexp2)(SI(mul)(SI(sub)(SI(load)(s), mt[v]), f));
      SI(store)(s, e);
      sum[v] = SI(add)(sum[v], e);
    }
}

/* ob = ob * c + P V over the kb keys (c NULL: no rescale) */
SIMD_FN static void LAK(simd_pv)(const LAK(Attn) *a, const LAK_REAL *S, const LAK_REAL *vp,
                                 int kb, const SV *c, LAK_REAL *ob) {
  int dvp = LAK(simd_dvp)(a), c0, j, t, v;
  for (c0 = 0; c0 < dvp; c0 += SIMD_NJ) {
    SV acc[SIMD_NJ][3];
    const LAK_REAL *vc = vp + (size_t)c0 * SIMD_LDV;
    for (t = 0; t < SIMD_NJ; t++)
      for (v = 0; v < 3; v++) {
        acc[t][v] = SI(load)(ob + (size_t)(c0 + t) * SIMD_R + v * SIMD_W);
        if (c) acc[t][v] = SI(mul)(acc[t][v], c[v]);
      }
    for (j = 0; j < kb; j++) {
      const LAK_REAL *s = S + (size_t)j * SIMD_R;
      SV p0 = SI(load)(s), p1 = SI(load)(s + SIMD_W), p2 = SI(load)(s + 2 * SIMD_W);
      for (t = 0; t < SIMD_NJ; t++) {
        SV x = SI(set1)(vc[(size_t)t * SIMD_LDV + j]);
        acc[t][0] = SI(fmadd)(p0, x, acc[t][0]);
        acc[t][1] = SI(fmadd)(p1, x, acc[t][1]);
        acc[t][2] = SI(fmadd)(p2, x, acc[t][2]);
      }
    }
    for (t = 0; t < SIMD_NJ; t++)
      for (v = 0; v < 3; v++) SI(store)(ob + (size_t)(c0 + t) * SIMD_R + v * SIMD_W, acc[t][v]);
  }
}

/* One strip against one key tile of kb keys: scores, the streamed softmax
** update of the strip's m and l (attention_gen.h's stream_tile), P V. */
SIMD_FN static void LAK(simd_strip)(const LAK(Attn) *a, const LAK(Simd) *w, int s, int kb,
                                    int causal, long long diag) {
  const SV ninf = SET1(-INF), one = SET1(1), zero = SI(setzero)(), f = SET1(w->f);
  LAK_REAL *m = w->m + s * SIMD_R, *l = w->l + s * SIMD_R;
  SV mx[3], mt[3], c[3], sum[3];
  int v, rescale = 0;
  for (v = 0; v < 3; v++) mx[v] = ninf;
  LAK(simd_scores)(a, w->q + (size_t)s * a->dk * SIMD_R, w->kp, kb, causal, diag, w->S, mx);
  for (v = 0; v < 3; v++) {          /* m: the maxima of q k^T; mt = f m, the scores' */
    SV mo = SI(load)(m + v * SIMD_W), mn = SI(max)(mx[v], mo);
    SMASK same = SCMP(mo, mn, _CMP_EQ_OQ);
    c[v] = SI(mask_mov)(LAK(vexp2)(SI(mul)(SI(sub)(mo, mn), f)), same, one);   /* mo = -inf: 0 */
    if (same != (SMASK)~(SMASK)0) rescale = 1;
    mt[v] = SI(mask_mov)(mn, SCMP(mn, ninf, _CMP_EQ_OQ), zero);   /* no -inf - -inf */
    SI(store)(m + v * SIMD_W, mn);
  }
  LAK(simd_exp)(w->S, (kb + SIMD_NJ - 1) / SIMD_NJ, mt, f, sum);
  for (v = 0; v < 3; v++)
    SI(store)(l + v * SIMD_W, SI(fmadd)(SI(load)(l + v * SIMD_W), c[v], sum[v]));
  if (a->dv > 0)
    LAK(simd_pv)(a, w->S, w->vp, kb, rescale ? c : NULL, w->ob + (size_t)s * SIMD_R *
                 LAK(simd_dvp)(a));
}

/* O (and lse) rows i0 .. i0 + bq - 1 from the strips' states */
static void LAK(simd_store)(const LAK(Attn) *a, const LAK(Simd) *w, int i0, int bq,
                            LAK_REAL *O, int ldo, LAK_REAL *lse) {
  int dvp = LAK(simd_dvp)(a), s, r, c;
  LAK_REAL sc = a->scale < 0 ? -a->scale : a->scale;
  for (s = 0; s * SIMD_R < bq; s++) {
    int r0 = s * SIMD_R, n = bq - r0 < SIMD_R ? bq - r0 : SIMD_R;
    const LAK_REAL *l = w->l + r0;
    for (c = 0; c < a->dv; c++) {
      const LAK_REAL *ob = w->ob + ((size_t)s * dvp + c) * SIMD_R;
      LAK_REAL *o = O + i0 + r0 + (ptrdiff_t)c * ldo;
      for (r = 0; r < n; r++) o[r] = l[r] == 0 ? 0 : ob[r] / l[r];
    }
    if (lse)
      for (r = 0; r < n; r++)
        lse[i0 + r0 + r] = l[r] == 0 ? -INF : w->m[r0 + r] * sc + LAK_M(log)(l[r]);
  }
}

/* Query rows i0 .. i0 + SIMD_BQ - 1 (or to nq): every visible key tile,
** from the shared tiles or packed once for the block's strips. */
static void LAK(simd_block)(const LAK(Attn) *a, const LAK_REAL *shared, int i0, LAK_REAL *O,
                            int ldo, LAK_REAL *lse, LAK_REAL *work) {
  LAK(Simd) w;
  int bq = a->nq - i0 < SIMD_BQ ? a->nq - i0 : SIMD_BQ, ns = (bq + SIMD_R - 1) / SIMD_R;
  int dvp = LAK(simd_dvp)(a), j0, s, r;
  long long nk = a->nk, last = (long long)i0 + bq - 1 + a->coff;   /* causal: the last key seen */
  if (a->causal && last + 1 < nk) nk = last + 1 < 0 ? 0 : last + 1;
  LAK(simd_carve)(a, shared != NULL, work, &w);
  w.f = (LAK_REAL)LAK(simd_f)(a);   /* in range: simd_ok */
  LAK(simd_pack_q)(a, i0, bq, w.q);
  for (r = 0; r < ns * SIMD_R; r++) { w.m[r] = -INF; w.l[r] = 0; }
  memset(w.ob, 0, (size_t)ns * SIMD_R * dvp * sizeof *w.ob);
  for (j0 = 0; j0 < nk; j0 += SIMD_BK) {
    int bk = nk - j0 < SIMD_BK ? (int)(nk - j0) : SIMD_BK;
    if (shared) w.kp = shared + (size_t)(j0 / SIMD_BK) * LAK(simd_tile)(a);
    else LAK(simd_pack_kv)(a, j0, bk, w.tile), w.kp = w.tile;
    w.vp = w.kp + (size_t)SIMD_BK * a->dk;
    for (s = 0; s < ns; s++) {
      int r0 = s * SIMD_R, n = bq - r0 < SIMD_R ? bq - r0 : SIMD_R, kb = bk;
      long long diag = (long long)i0 + r0 + a->coff - j0;   /* the strip's first row's last key */
      if (a->causal) {
        if (diag + n - 1 < 0) continue;                     /* no key visible yet */
        if (diag + n < kb) kb = (int)(diag + n);
      }
      LAK(simd_strip)(a, &w, s, kb, a->causal && kb - 1 > diag, diag);
    }
  }
  LAK(simd_store)(a, &w, i0, bq, O, ldo, lse);
}
