/*
** kernels/attention_bwd_gen.h: attention_bwd.c's kernel over LAK_REAL
** (included twice, see generate.h).
*/

/* what every key block reads */
typedef struct LAK(Bwd) {
  const LAK(Attn) *a;
  const LAK(AttnGrad) *g;
  const LAK_REAL *D, *m;     /* rowsum(dO .* O); lse, +inf where it is -inf */
  const LAK_REAL *pq, *pdo;   /* Q and dO packed in strips (the AVX-512 products), or NULL */
  const LAK_REAL *qt, *dot;   /* Q and dO by rows, dkp and dvp wide (zero columns past d) */
  int dkp, dvp;
  int nqb, simd;
  Seq *seq;
} LAK(Bwd);

/* a key block's packed operands and sums, in its thread's work */
typedef struct LAK(Kblk) {
  LAK_REAL *pk, *pv;          /* K_j and V_j in panels (bwd_nt_kernel) */
  LAK_REAL *dkt, *dvt;        /* dS^T Q and P^T dO by rows (bk x dkp, bk x dvp) */
  const LAK_REAL *zero;       /* BWD_BQ zeros */
} LAK(Kblk);

#if BWD_SIMD
#if LAK_DOUBLE
#define BV __m512d
#define BMASK __mmask8
#define BI(op) _mm512_##op##_pd
#define BW 8
#else
#define BV __m512
#define BMASK __mmask16
#define BI(op) _mm512_##op##_ps
#define BW 16
#endif
#define BR (3 * BW)           /* rows per strip */

/* A's m rows (ld lda, d columns) into strips of BR rows, pa[(s * d + k) *
** BR + r], zero rows past m */
static void LAK(bwd_pack_rows)(int m, int d, const LAK_REAL *A, int lda, LAK_REAL *pa) {
  int s, k, r;
  for (s = 0; s * BR < m; s++) {
    int r0 = s * BR, n = m - r0 < BR ? m - r0 : BR;
    for (k = 0; k < d; k++) {
      LAK_REAL *dst = pa + ((size_t)s * d + k) * BR;
      const LAK_REAL *src = A + r0 + (ptrdiff_t)k * lda;
      for (r = 0; r < n; r++) dst[r] = src[r];
      for (; r < BR; r++) dst[r] = 0;
    }
  }
}

/* B's rows (n of them) into panels of BWD_NJ, pb[(p * d + k) * BWD_NJ + t] */
static void LAK(bwd_pack_keys)(int n, int d, const LAK_REAL *B, int ldb, LAK_REAL *pb) {
  int p, k, t;
  for (k = 0; k < d; k++)
    for (p = 0; p * BWD_NJ < n; p++) {
      int t0 = p * BWD_NJ, nt = n - t0 < BWD_NJ ? n - t0 : BWD_NJ;
      LAK_REAL *dst = pb + ((size_t)p * d + k) * BWD_NJ;
      const LAK_REAL *src = B + t0 + (ptrdiff_t)k * ldb;
      for (t = 0; t < nt; t++) dst[t] = src[t];
      for (; t < BWD_NJ; t++) dst[t] = 0;
    }
}

/* C (m x n, ld m) = alpha * A B^T from the packed strips and panels: per
** strip and panel 3 x BWD_NJ vectors accumulate over d, stored with the
** rows past m masked off */
BWD_FN static void LAK(bwd_nt_kernel)(int m, int n, int d, LAK_REAL alpha, const LAK_REAL *pa,
                                      const LAK_REAL *pb, LAK_REAL *C) {
  const BV al = BI(set1)(alpha);
  int s, p, k, t, v;
  for (s = 0; s * BR < m; s++) {
    const LAK_REAL *q = pa + (size_t)s * d * BR;
    BMASK keep[3];
    for (v = 0; v < 3; v++) {
      int left = m - s * BR - v * BW;
      keep[v] = left >= BW ? (BMASK)~(BMASK)0 : left <= 0 ? 0 : (BMASK)((1u << left) - 1);
    }
    for (p = 0; p * BWD_NJ < n; p++) {
      const LAK_REAL *b = pb + (size_t)p * d * BWD_NJ;
      BV acc[BWD_NJ][3];
      int nt = n - p * BWD_NJ < BWD_NJ ? n - p * BWD_NJ : BWD_NJ;
      for (t = 0; t < BWD_NJ; t++) for (v = 0; v < 3; v++) acc[t][v] = BI(setzero)();
      for (k = 0; k < d; k++) {
        const LAK_REAL *qk = q + (size_t)k * BR, *bk = b + (size_t)k * BWD_NJ;
        BV q0 = BI(loadu)(qk), q1 = BI(loadu)(qk + BW), q2 = BI(loadu)(qk + 2 * BW);
        for (t = 0; t < BWD_NJ; t++) {
          BV kk = BI(set1)(bk[t]);
          acc[t][0] = BI(fmadd)(q0, kk, acc[t][0]);
          acc[t][1] = BI(fmadd)(q1, kk, acc[t][1]);
          acc[t][2] = BI(fmadd)(q2, kk, acc[t][2]);
        }
      }
      for (t = 0; t < nt; t++) {
        LAK_REAL *c = C + (size_t)(p * BWD_NJ + t) * m + s * BR;
        for (v = 0; v < 3; v++) BI(mask_storeu)(c + v * BW, keep[v], BI(mul)(acc[t][v], al));
      }
    }
  }
}

/* dQ (m x d, ld ldq) += alpha * G K for G m x n (ld m), K n x d (ld ldk),
** d a multiple of BWD_NJ: per strip and panel of BWD_NJ columns, 3 x BWD_NJ
** vectors accumulate over the keys, then dQ + alpha * sum is stored */
BWD_FN static void LAK(bwd_dq_kernel)(int m, int n, int d, LAK_REAL alpha, const LAK_REAL *G,
                                      const LAK_REAL *K, int ldk, LAK_REAL *dQ, int ldq) {
  const BV al = BI(set1)(alpha);
  int s, c0, j, t, v;
  for (s = 0; s * BR < m; s++) {
    BMASK keep[3];
    for (v = 0; v < 3; v++) {
      int left = m - s * BR - v * BW;
      keep[v] = left >= BW ? (BMASK)~(BMASK)0 : left <= 0 ? 0 : (BMASK)((1u << left) - 1);
    }
    for (c0 = 0; c0 < d; c0 += BWD_NJ) {
      BV acc[BWD_NJ][3];
      for (t = 0; t < BWD_NJ; t++) for (v = 0; v < 3; v++) acc[t][v] = BI(setzero)();
      for (j = 0; j < n; j++) {
        const LAK_REAL *gj = G + (size_t)j * m + s * BR, *kj = K + j + (ptrdiff_t)c0 * ldk;
        BV g0 = BI(maskz_loadu)(keep[0], gj), g1 = BI(maskz_loadu)(keep[1], gj + BW);
        BV g2 = BI(maskz_loadu)(keep[2], gj + 2 * BW);
        for (t = 0; t < BWD_NJ; t++) {
          BV kk = BI(set1)(kj[(ptrdiff_t)t * ldk]);
          acc[t][0] = BI(fmadd)(g0, kk, acc[t][0]);
          acc[t][1] = BI(fmadd)(g1, kk, acc[t][1]);
          acc[t][2] = BI(fmadd)(g2, kk, acc[t][2]);
        }
      }
      for (t = 0; t < BWD_NJ; t++) {
        LAK_REAL *q = dQ + s * BR + (ptrdiff_t)(c0 + t) * ldq;
        for (v = 0; v < 3; v++)
          BI(mask_storeu)(q + v * BW, keep[v],
                          BI(fmadd)(acc[t][v], al, BI(maskz_loadu)(keep[v], q + v * BW)));
      }
    }
  }
}

/* A's m rows (d columns, ld lda) by rows, dp wide: at[r * dp + c], zero
** columns past d */
static void LAK(bwd_pack_t)(int m, int d, const LAK_REAL *A, int lda, int dp, LAK_REAL *at) {
  int r, c;
  for (r = 0; r < m; r++) {
    LAK_REAL *dst = at + (size_t)r * dp;
    for (c = 0; c < d; c++) dst[c] = A[r + (ptrdiff_t)c * lda];
    for (; c < dp; c++) dst[c] = 0;
  }
}

/* acc (n rows of dp, ld dp) += P^T X for P m x n (ld m) and X m rows of dp
** (ld dp; dp whole chunks of BWD_CW vectors): BWD_TB keys by BWD_CW vectors
** accumulate over the m rows; zero: m zeros (the columns past n) */
BWD_FN static void LAK(bwd_tn_kernel)(int m, int n, int dp, const LAK_REAL *P, const LAK_REAL *X,
                                      const LAK_REAL *zero, LAK_REAL *acc) {
  int t0, c0, r, t, v;
  for (t0 = 0; t0 < n; t0 += BWD_TB) {
    const LAK_REAL *pc[BWD_TB];
    int nt = n - t0 < BWD_TB ? n - t0 : BWD_TB;
    for (t = 0; t < BWD_TB; t++) pc[t] = t < nt ? P + (size_t)(t0 + t) * m : zero;
    for (c0 = 0; c0 < dp; c0 += BWD_CW * BW) {
      BV sum[BWD_TB][BWD_CW];
      for (t = 0; t < BWD_TB; t++) for (v = 0; v < BWD_CW; v++) sum[t][v] = BI(setzero)();
      for (r = 0; r < m; r++) {
        const LAK_REAL *x = X + (size_t)r * dp + c0;
        BV xv[BWD_CW];
        for (v = 0; v < BWD_CW; v++) xv[v] = BI(loadu)(x + v * BW);
        for (t = 0; t < BWD_TB; t++) {
          BV p = BI(set1)(pc[t][r]);
          for (v = 0; v < BWD_CW; v++) sum[t][v] = BI(fmadd)(p, xv[v], sum[t][v]);
        }
      }
      for (t = 0; t < nt; t++) {
        LAK_REAL *o = acc + (size_t)(t0 + t) * dp + c0;
        for (v = 0; v < BWD_CW; v++) BI(storeu)(o + v * BW, BI(add)(BI(loadu)(o + v * BW), sum[t][v]));
      }
    }
  }
}

/* the chunk width of bwd_tn_kernel's rows */
#define BWD_CHUNK (BWD_CW * BW)
#endif

/* dQ_i += scale dS K_j (G the dS tile, bq x bk): bwd_dq_kernel on the
** AVX-512 path when dk is whole panels, else gemm */
static void LAK(bwd_dq)(const LAK(Bwd) *c, int i0, int j0, int bq, int bk, const LAK_REAL *G) {
  const LAK(Attn) *a = c->a;
  const LAK(AttnGrad) *g = c->g;
#if BWD_SIMD
  if (c->pq && a->dk % BWD_NJ == 0) {
    LAK(bwd_dq_kernel)(bq, bk, a->dk, a->scale, G, a->K + j0, a->ldk, g->dQ + i0, g->lddq);
    return;
  }
#endif
  LAK(gemm)('N', 'N', bq, a->dk, bk, a->scale, G, bq, a->K + j0, a->ldk, 1, g->dQ + i0, g->lddq);
}

/* 1 when the two k = d products run on bwd_nt_kernel: an AVX-512 CPU
** (the forward's test) and d <= BWD_DMAX */
static int LAK(bwd_packed)(const LAK(Attn) *a) {
#if BWD_SIMD
  LAK_REAL probe = 0;
  return a->dk <= BWD_DMAX && a->dv <= BWD_DMAX && LAK(simd_exp2)(&probe, 0);
#else
  (void)a;
  return 0;
#endif
}

/* elements of Q and dO packed in strips (shared by the threads), and of
** one key block's K and V panels (each thread's) */
/* d rounded up to whole chunks of bwd_tn_kernel */
static int LAK(bwd_wide)(int d) {
#if BWD_SIMD
  return (d + BWD_CHUNK - 1) / BWD_CHUNK * BWD_CHUNK;
#else
  return d;
#endif
}

static size_t LAK(bwd_strips)(const LAK(Attn) *a) {
#if BWD_SIMD
  if (LAK(bwd_packed)(a))
    return (size_t)nblocks(a->nq, BR) * BR * (a->dk + a->dv) +
           (size_t)a->nq * (LAK(bwd_wide)(a->dk) + LAK(bwd_wide)(a->dv));
#endif
  (void)a;
  return 0;
}
static size_t LAK(bwd_panels)(const LAK(Attn) *a) {
  if (!LAK(bwd_packed)(a)) return 0;
  return (size_t)BWD_BK * (a->dk + a->dv + LAK(bwd_wide)(a->dk) + LAK(bwd_wide)(a->dv)) + BWD_BQ;
}

/* per thread: the P and dS tiles, a column of sums, the key block's panels */
static size_t LAK(bwd_thread)(const LAK(Attn) *a) {
  return 2 * (size_t)BWD_BQ * BWD_BK + BWD_BQ + LAK(bwd_panels)(a);
}

size_t LAK(attn_bwd_work)(const LAK(Attn) *a, int nthreads) {
  int nkb = nblocks(a->nk, BWD_BK);
  if (nthreads < 1) nthreads = 1;
  if (a->nq <= 0 || a->nk <= 0) return 1;
  return 2 * (size_t)a->nq + done_elems(nkb, sizeof(LAK_REAL)) + LAK(bwd_strips)(a) +
         (size_t)nthreads * LAK(bwd_thread)(a);
}

/* S (into P) and dP (into G), both bq x bk (ld bq), for query rows i0 and
** the key block at j0: from the packed strips and panels (pk, pv), or by
** gemm */
static void LAK(bwd_products)(const LAK(Bwd) *c, int i0, int j0, int bq, int bk,
                              const LAK_REAL *pk, const LAK_REAL *pv, LAK_REAL *P, LAK_REAL *G) {
  const LAK(Attn) *a = c->a;
  const LAK(AttnGrad) *g = c->g;
#if BWD_SIMD
  if (c->pq) {                /* i0 is a multiple of BR: BWD_BQ is */
    LAK(bwd_nt_kernel)(bq, bk, a->dk, a->scale, c->pq + (size_t)(i0 / BR) * a->dk * BR, pk, P);
    LAK(bwd_nt_kernel)(bq, bk, a->dv, 1, c->pdo + (size_t)(i0 / BR) * a->dv * BR, pv, G);
    return;
  }
#endif
  (void)pk; (void)pv;
  LAK(gemm)('N', 'T', bq, bk, a->dk, a->scale, a->Q + i0, a->ldq, a->K + j0, a->ldk, 0, P, bq);
  LAK(gemm)('N', 'T', bq, bk, a->dv, 1, g->dO + i0, g->lddo, a->V + j0, a->ldv, 0, G, bq);
}

/* (S - m) log2(e) over the tile: the AVX-512 exp step's argument */
BWD_CLONES
static void LAK(bwd_arg)(LAK_REAL *restrict P, const LAK_REAL *restrict m, int bq, int bk) {
  int i, j;
  for (j = 0; j < bk; j++) {
    LAK_REAL *p = P + (size_t)j * bq;
    for (i = 0; i < bq; i++) p[i] = (p[i] - m[i]) * (LAK_REAL)LOG2E;
  }
}

/* P = exp(S - m) in place over the bq x bk tile (ld bq): the forward's exp
** step, its AVX-512 one in base 2 where the CPU has it; sum: bq scratch */
static void LAK(bwd_exp)(const LAK(Bwd) *c, LAK_REAL *P, const LAK_REAL *m, int bq, int bk,
                         LAK_REAL *sum) {
  int j;
  if (c->simd) {
    LAK(bwd_arg)(P, m, bq, bk);
    LAK(simd_exp2)(P, bq * bk);
    return;
  }
  memset(sum, 0, (size_t)bq * sizeof *sum);      /* expsum's sums: not used */
  for (j = 0; j < bk; j++) LAK(expsum)(P + (size_t)j * bq, m, sum, bq);
}

/* dS = P .* (dP - D) into G (which holds dP), both bq x bk (ld bq) */
BWD_CLONES
static void LAK(bwd_ds)(const LAK_REAL *restrict P, const LAK_REAL *restrict D, int bq, int bk,
                        LAK_REAL *restrict G) {
  int i, j;
  for (j = 0; j < bk; j++) {
    const LAK_REAL *p = P + (size_t)j * bq;
    LAK_REAL *s = G + (size_t)j * bq;
    for (i = 0; i < bq; i++) s[i] = p[i] * (s[i] - D[i]);
  }
}

/* dbias from the dS tile G at rows i0, columns j0: the tile itself, or its
** column sums (added in query order, by the key block that owns them) */
static void LAK(bwd_dbias)(const LAK(AttnGrad) *g, int i0, int j0, int bq, int bk,
                           const LAK_REAL *G) {
  int i, j;
  for (j = 0; j < bk; j++) {
    const LAK_REAL *s = G + (size_t)j * bq;
    if (g->dbmode == LAK_DB_FULL)
      memcpy(g->dbias + i0 + (ptrdiff_t)(j0 + j) * g->lddb, s, (size_t)bq * sizeof *s);
    else if (g->dbmode == LAK_DB_ROW) {
      LAK_REAL t = 0;
      for (i = 0; i < bq; i++) t += s[i];
      g->dbias[(ptrdiff_t)(j0 + j) * g->lddb] += t;
    }
  }
}

/* dbias's row sums of G (the nq x 1 case), in key order like dQ */
static void LAK(bwd_rowsums)(const LAK(AttnGrad) *g, int i0, int bq, int bk, const LAK_REAL *G,
                             LAK_REAL *sum) {
  int i, j;
  for (i = 0; i < bq; i++) sum[i] = 0;
  for (j = 0; j < bk; j++)
    for (i = 0; i < bq; i++) sum[i] += G[i + (size_t)j * bq];
  for (i = 0; i < bq; i++) g->dbias[i0 + i] += sum[i];
}

/* Query tile ib (rows i0 .. i0 + bq - 1) against key block jb (keys j0 ..
** j0 + bk - 1). */
static void LAK(bwd_tile)(const LAK(Bwd) *c, int ib, int jb, LAK_REAL *work,
                         const LAK(Kblk) *kb) {
  const LAK(Attn) *a = c->a;
  const LAK(AttnGrad) *g = c->g;
  LAK_REAL *P = work, *G = P + (size_t)BWD_BQ * BWD_BK, *sum = G + (size_t)BWD_BQ * BWD_BK;
  int i0 = ib * BWD_BQ, j0 = jb * BWD_BK;
  int bq = a->nq - i0 < BWD_BQ ? a->nq - i0 : BWD_BQ, bk = a->nk - j0 < BWD_BK ? a->nk - j0 : BWD_BK;
  LAK(bwd_products)(c, i0, j0, bq, bk, kb->pk, kb->pv, P, G);
  LAK(attn_mask)(a, i0, j0, bq, bk, P);
  LAK(bwd_exp)(c, P, c->m + i0, bq, bk, sum);
#if BWD_SIMD
  if (c->pq) LAK(bwd_tn_kernel)(bq, bk, c->dvp, P, c->dot + (size_t)i0 * c->dvp, kb->zero, kb->dvt);
  else
#endif
  LAK(gemm)('T', 'N', bk, a->dv, bq, 1, P, bq, g->dO + i0, g->lddo, 1, g->dV + j0, g->lddv);
  LAK(bwd_ds)(P, c->D + i0, bq, bk, G);
  if (g->dbias) LAK(bwd_dbias)(g, i0, j0, bq, bk, G);
#if BWD_SIMD
  if (c->pq) LAK(bwd_tn_kernel)(bq, bk, c->dkp, G, c->qt + (size_t)i0 * c->dkp, kb->zero, kb->dkt);
  else
#endif
  LAK(gemm)('T', 'N', bk, a->dk, bq, a->scale, G, bq, a->Q + i0, a->ldq, 1, g->dK + j0, g->lddk);
  seq_wait(c->seq, jb, ib);                 /* dQ_i: after key block jb - 1 */
  LAK(bwd_dq)(c, i0, j0, bq, bk, G);
  if (g->dbias && g->dbmode == LAK_DB_COL) LAK(bwd_rowsums)(g, i0, bq, bk, G, sum);
}

/* The key block at j0 (bk keys): its part of the thread's work carved into
** kb, and on the AVX-512 path its K and V panels packed and its sums
** cleared */
static void LAK(bwd_kblk)(const LAK(Bwd) *c, int j0, int bk, LAK_REAL *work, LAK(Kblk) *kb) {
  const LAK(Attn) *a = c->a;
  LAK_REAL *z;
  kb->pk = work + 2 * (size_t)BWD_BQ * BWD_BK + BWD_BQ;
  kb->pv = kb->pk + (size_t)BWD_BK * a->dk;
  kb->dkt = kb->pv + (size_t)BWD_BK * a->dv;
  kb->dvt = kb->dkt + (size_t)BWD_BK * c->dkp;
  kb->zero = z = kb->dvt + (size_t)BWD_BK * c->dvp;
  if (!c->pq) return;
#if BWD_SIMD
  LAK(bwd_pack_keys)(bk, a->dk, a->K + j0, a->ldk, kb->pk);
  LAK(bwd_pack_keys)(bk, a->dv, a->V + j0, a->ldv, kb->pv);
#endif
  memset(kb->dkt, 0, (size_t)bk * c->dkp * sizeof *z);
  memset(kb->dvt, 0, (size_t)bk * c->dvp * sizeof *z);
  memset(z, 0, BWD_BQ * sizeof *z);
}

/* dK_j = scale dS^T Q and dV_j = P^T dO from the key block's sums */
static void LAK(bwd_kdone)(const LAK(Bwd) *c, int j0, int bk, const LAK(Kblk) *kb) {
  const LAK(Attn) *a = c->a;
  const LAK(AttnGrad) *g = c->g;
  int t, k;
  for (k = 0; k < a->dk; k++)
    for (t = 0; t < bk; t++)
      g->dK[j0 + t + (ptrdiff_t)k * g->lddk] = a->scale * kb->dkt[(size_t)t * c->dkp + k];
  for (k = 0; k < a->dv; k++)
    for (t = 0; t < bk; t++)
      g->dV[j0 + t + (ptrdiff_t)k * g->lddv] = kb->dvt[(size_t)t * c->dvp + k];
}

/* Key block b (handed out from the last down): key block nkb - 1 - b, so
** they are taken in ascending order, against every query tile that sees
** one of its keys. */
static void LAK(bwd_block)(const void *ctx, int b, void *work) {
  const LAK(Bwd) *c = (const LAK(Bwd) *)ctx;
  const LAK(Attn) *a = c->a;
  int jb = nblocks(a->nk, BWD_BK) - 1 - b, ib, j0 = jb * BWD_BK;
  int bk = a->nk - j0 < BWD_BK ? a->nk - j0 : BWD_BK;
  LAK(Kblk) kb;
  LAK(bwd_kblk)(c, j0, bk, (LAK_REAL *)work, &kb);
  for (ib = 0; ib < c->nqb; ib++) {
    int i0 = ib * BWD_BQ, bq = a->nq - i0 < BWD_BQ ? a->nq - i0 : BWD_BQ;
    /* causal: the tile's last query sees keys up to i0 + bq - 1 + coff */
    if (!a->causal || (long long)i0 + bq - 1 + a->coff >= (long long)jb * BWD_BK)
      LAK(bwd_tile)(c, ib, jb, (LAK_REAL *)work, &kb);
    seq_post(c->seq, jb, ib);
  }
  if (c->pq) LAK(bwd_kdone)(c, j0, bk, &kb);
}

/* the m x n block at p (ld) set to zeros */
static void LAK(bwd_zero)(LAK_REAL *p, int ld, int m, int n) {
  int j;
  if (m <= 0) return;
  for (j = 0; j < n; j++) memset(p + (ptrdiff_t)j * ld, 0, (size_t)m * sizeof *p);
}

/* D = rowsum(dO .* O) and m = lse with -inf as +inf (exp(S - m) is then 0
** on a row with no visible key, and no -inf - -inf is NaN) */
static void LAK(bwd_rows)(const LAK(Attn) *a, const LAK(AttnGrad) *g, LAK_REAL *D,
                          LAK_REAL *m) {
  int i, c;
  for (i = 0; i < a->nq; i++) {
    D[i] = 0;
    m[i] = g->lse[i] == -INF ? INF : g->lse[i];
  }
  for (c = 0; c < a->dv; c++) {
    const LAK_REAL *d = g->dO + (ptrdiff_t)c * g->lddo, *o = g->O + (ptrdiff_t)c * g->ldo;
    for (i = 0; i < a->nq; i++) D[i] += d[i] * o[i];
  }
}

void LAK(attention_backward)(const LAK(Attn) *a, const LAK(AttnGrad) *g, LAK_REAL *work,
                             int nthreads) {
  LAK(Bwd) c;
  LAK_REAL *strips;
  Seq seq;
  int nkb = nblocks(a->nk, BWD_BK), j;
  LAK_REAL probe = 0;
  LAK(bwd_zero)(g->dQ, g->lddq, a->nq, a->dk);
  LAK(bwd_zero)(g->dK, g->lddk, a->nk, a->dk);
  LAK(bwd_zero)(g->dV, g->lddv, a->nk, a->dv);
  if (g->dbias) {
    if (g->dbmode == LAK_DB_FULL) LAK(bwd_zero)(g->dbias, g->lddb, a->nq, a->nk);
    else if (g->dbmode == LAK_DB_ROW) for (j = 0; j < a->nk; j++) g->dbias[(ptrdiff_t)j * g->lddb] = 0;
    else LAK(bwd_zero)(g->dbias, a->nq > 0 ? a->nq : 1, a->nq, 1);
  }
  if (a->nq <= 0 || a->nk <= 0) return;           /* no score: zero gradients */
  c.a = a; c.g = g; c.D = work; c.m = work + a->nq;
  c.nqb = nblocks(a->nq, BWD_BQ);
  c.simd = LAK(simd_exp2)(&probe, 0);
  c.seq = &seq;
  LAK(bwd_rows)(a, g, work, work + a->nq);
  seq.done = (int *)(void *)(work + 2 * (size_t)a->nq);
  for (j = 0; j < nkb; j++) seq.done[j] = 0;
  if (nthreads > nkb) nthreads = nkb;
  if (nthreads > LAK_ATTN_MAXTHREADS) nthreads = LAK_ATTN_MAXTHREADS;
  seq.threaded = nthreads > 1;
  pthread_mutex_init(&seq.mu, NULL);
  pthread_cond_init(&seq.cv, NULL);
  strips = work + 2 * (size_t)a->nq + done_elems(nkb, sizeof(LAK_REAL));
  c.pq = c.pdo = c.qt = c.dot = NULL;
  c.dkp = LAK(bwd_wide)(a->dk);
  c.dvp = LAK(bwd_wide)(a->dv);
#if BWD_SIMD
  if (LAK(bwd_packed)(a)) {   /* Q and dO in strips, once for every key block */
    c.pq = strips;
    c.pdo = strips + (size_t)nblocks(a->nq, BR) * BR * a->dk;
    LAK(bwd_pack_rows)(a->nq, a->dk, a->Q, a->ldq, strips);
    LAK(bwd_pack_rows)(a->nq, a->dv, g->dO, g->lddo, strips + (size_t)nblocks(a->nq, BR) * BR * a->dk);
    c.qt = c.pdo + (size_t)nblocks(a->nq, BR) * BR * a->dv;
    c.dot = c.qt + (size_t)a->nq * c.dkp;
    LAK(bwd_pack_t)(a->nq, a->dk, a->Q, a->ldq, c.dkp, (LAK_REAL *)c.qt);
    LAK(bwd_pack_t)(a->nq, a->dv, g->dO, g->lddo, c.dvp, (LAK_REAL *)c.dot);
  }
#endif
  lak_parallel(nkb, nthreads, LAK(bwd_block), &c, (char *)(strips + LAK(bwd_strips)(a)),
               LAK(bwd_thread)(a) * sizeof(LAK_REAL));
  pthread_cond_destroy(&seq.cv);
  pthread_mutex_destroy(&seq.mu);
}

#if BWD_SIMD
#undef BV
#undef BMASK
#undef BI
#undef BW
#undef BR
#undef BWD_CHUNK
#endif

/* lak_units' unit: problem u of the list on `inner` threads */
static void LAK(bwd_unit)(const void *ctx, int u, void *work, int inner) {
  const LAK(AttnGradUnit) *x = (const LAK(AttnGradUnit) *)ctx + u;
  LAK(attention_backward)(&x->a, &x->g, (LAK_REAL *)work, inner);
}

/* unit u's work on `inner` threads, in elements, and its multiply-adds
** (five products: 2.5 times the forward's) */
static size_t LAK(bwd_unit_work)(const void *ctx, int u, int inner) {
  return LAK(attn_bwd_work)(&((const LAK(AttnGradUnit) *)ctx)[u].a, inner);
}

static double LAK(bwd_unit_madds)(const void *ctx, int u) {
  const LAK(Attn) *a = &((const LAK(AttnGradUnit) *)ctx)[u].a;
  return 2.5 * (double)a->nq * a->nk * ((double)a->dk + a->dv);
}

static const lak_UnitKind LAK(bwd_unit_kind) = {LAK(bwd_unit), LAK(bwd_unit_work),
                                                 LAK(bwd_unit_madds), sizeof(LAK_REAL)};

size_t LAK(attn_bwd_units_work)(const LAK(AttnGradUnit) *u, int n, int nthreads) {
  return lak_units_work(&LAK(bwd_unit_kind), u, n, nthreads);
}

void LAK(attn_bwd_units)(const LAK(AttnGradUnit) *u, int n, LAK_REAL *work, int nthreads) {
  lak_units_run(&LAK(bwd_unit_kind), u, n, work, nthreads);
}
