/*
** kernels/attention_bwd_gen.h: attention_bwd.c's kernel over LAK_REAL
** (included twice, see generate.h).
*/

/* what every key block reads */
typedef struct LAK(Bwd) {
  const LAK(Attn) *a;
  const LAK(AttnGrad) *g;
  const LAK_REAL *D, *m;     /* rowsum(dO .* O); lse, +inf where it is -inf */
  int nqb, simd;
  Seq *seq;
} LAK(Bwd);

/* per thread: the P and dS tiles, and a column of sums */
#define BWD_WORK (2 * (size_t)BWD_BQ * BWD_BK + BWD_BQ)

size_t LAK(attn_bwd_work)(const LAK(Attn) *a, int nthreads) {
  int nkb = nblocks(a->nk, BWD_BK);
  if (nthreads < 1) nthreads = 1;
  if (a->nq <= 0 || a->nk <= 0) return 1;
  return 2 * (size_t)a->nq + done_elems(nkb, sizeof(LAK_REAL)) + (size_t)nthreads * BWD_WORK;
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
static void LAK(bwd_tile)(const LAK(Bwd) *c, int ib, int jb, LAK_REAL *work) {
  const LAK(Attn) *a = c->a;
  const LAK(AttnGrad) *g = c->g;
  LAK_REAL *P = work, *G = P + (size_t)BWD_BQ * BWD_BK, *sum = G + (size_t)BWD_BQ * BWD_BK;
  int i0 = ib * BWD_BQ, j0 = jb * BWD_BK;
  int bq = a->nq - i0 < BWD_BQ ? a->nq - i0 : BWD_BQ, bk = a->nk - j0 < BWD_BK ? a->nk - j0 : BWD_BK;
  LAK(gemm)('N', 'T', bq, bk, a->dk, a->scale, a->Q + i0, a->ldq, a->K + j0, a->ldk, 0, P, bq);
  LAK(attn_mask)(a, i0, j0, bq, bk, P);
  LAK(bwd_exp)(c, P, c->m + i0, bq, bk, sum);
  LAK(gemm)('T', 'N', bk, a->dv, bq, 1, P, bq, g->dO + i0, g->lddo, 1, g->dV + j0, g->lddv);
  LAK(gemm)('N', 'T', bq, bk, a->dv, 1, g->dO + i0, g->lddo, a->V + j0, a->ldv, 0, G, bq);
  LAK(bwd_ds)(P, c->D + i0, bq, bk, G);
  if (g->dbias) LAK(bwd_dbias)(g, i0, j0, bq, bk, G);
  LAK(gemm)('T', 'N', bk, a->dk, bq, a->scale, G, bq, a->Q + i0, a->ldq, 1, g->dK + j0, g->lddk);
  seq_wait(c->seq, jb, ib);                 /* dQ_i: after key block jb - 1 */
  LAK(gemm)('N', 'N', bq, a->dk, bk, a->scale, G, bq, a->K + j0, a->ldk, 1, g->dQ + i0, g->lddq);
  if (g->dbias && g->dbmode == LAK_DB_COL) LAK(bwd_rowsums)(g, i0, bq, bk, G, sum);
}

/* Key block b (handed out from the last down): key block nkb - 1 - b, so
** they are taken in ascending order, against every query tile that sees
** one of its keys. */
static void LAK(bwd_block)(const void *ctx, int b, void *work) {
  const LAK(Bwd) *c = (const LAK(Bwd) *)ctx;
  const LAK(Attn) *a = c->a;
  int jb = nblocks(a->nk, BWD_BK) - 1 - b, ib;
  for (ib = 0; ib < c->nqb; ib++) {
    int i0 = ib * BWD_BQ, bq = a->nq - i0 < BWD_BQ ? a->nq - i0 : BWD_BQ;
    /* causal: the tile's last query sees keys up to i0 + bq - 1 + coff */
    if (!a->causal || (long long)i0 + bq - 1 + a->coff >= (long long)jb * BWD_BK)
      LAK(bwd_tile)(c, ib, jb, (LAK_REAL *)work);
    seq_post(c->seq, jb, ib);
  }
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
  lak_parallel(nkb, nthreads, LAK(bwd_block), &c,
               (char *)(work + 2 * (size_t)a->nq + done_elems(nkb, sizeof(LAK_REAL))),
               BWD_WORK * sizeof(LAK_REAL));
  pthread_cond_destroy(&seq.cv);
  pthread_mutex_destroy(&seq.mu);
}

#undef BWD_WORK
