/*
** attention_bwd_gen.h: attention_backward's typed part (included twice by
** attention_bwd.c, see generate.h).
*/

/* the kernel's view of b: shapes, data and options (a later caller may
** point them at column blocks: every matrix goes with its ld) */
static void LA_T(fill)(const Bwd *b, LA_LAK(Attn) *a) {
  memset(a, 0, sizeof *a);
  a->nq = b->Q->rows; a->nk = b->K->rows; a->dk = b->Q->cols; a->dv = b->V->cols;
  a->Q = LA_X(b->Q); a->K = LA_X(b->K); a->V = LA_X(b->V);
  a->ldq = b->Q->ld; a->ldk = b->K->ld; a->ldv = b->V->ld;
  a->scale = (LA_REAL)b->scale; a->causal = b->causal; a->coff = b->coff;
  a->mask = b->mask ? LA_X(b->mask) : NULL;
  a->bias = b->bias ? LA_X(b->bias) : NULL;
  a->mrs = b->mrs; a->mcs = b->mcs; a->brs = b->brs; a->bcs = b->bcs;
}

/* Pushes dQ, dK, dV [, dbias], computed (the workspace is pushed, kept for
** the next call and popped). */
static void LA_T(backward)(lua_State *L, const Bwd *b, const char *F) {
  LA_LAK(Attn) a;
  LA_LAK(AttnGrad) g;
  la_Mat *dQ, *dK, *dV, *dB = NULL;
  int nt = nthreads();
  LA_T(fill)(b, &a);
  memset(&g, 0, sizeof g);
  dQ = la_newt(L, F, a.nq, a.dk, LA_TYPE);
  dK = la_newt(L, F, a.nk, a.dk, LA_TYPE);
  dV = la_newt(L, F, a.nk, a.dv, LA_TYPE);
  if (b->wantdb) {
    int m, n;
    dbshape(b, &m, &n, &g.dbmode);
    dB = la_newt(L, F, m, n, LA_TYPE);
    g.dbias = LA_X(dB); g.lddb = dB->ld;
  }
  g.dO = LA_X(b->dO); g.lddo = b->dO->ld;
  g.O = LA_X(b->O); g.ldo = b->O->ld;
  g.lse = LA_X(b->lse);
  g.dQ = LA_X(dQ); g.lddq = dQ->ld;
  g.dK = LA_X(dK); g.lddk = dK->ld;
  g.dV = LA_X(dV); g.lddv = dV->ld;
  LA_LAK(attention_backward)(&a, &g, LA_KEPTWORK(L, LA_REAL, LA_LAK(attn_bwd_work)(&a, nt)), nt);
  la_keepwork(L, -1);
  lua_pop(L, 1);
}
