/*
** attention_bwd_gen.h: attention_backward's typed part (included twice by
** attention_bwd.c, see generate.h).
*/

/* item i's results: pushes dQ, dK, dV [, dbias] (a batch's go into its
** result lists at `lists`, and nothing stays pushed); with heads > 1 and
** dbias, the heads' dbias blocks side by side into KEEP[6 n + i] */
static void LA_T(newout)(lua_State *L, const Opts *o, int i, int lists, const Item *it,
                         Out *r) {
  const char *F = la_fname(L);
  lua_Integer h = o->heads;
  int k;
  r->dQ = la_newt(L, F, it->nq, h * it->dk, LA_TYPE);
  r->dK = la_newt(L, F, it->nk, h * it->dk, LA_TYPE);
  r->dV = la_newt(L, F, it->nk, h * it->dv, LA_TYPE);
  r->dB = r->S = NULL;
  if (o->bias_grad) {
    int m, n, mode;
    dbshape(o, it, &m, &n, &mode);
    r->dB = la_newt(L, F, m, n, LA_TYPE);
    if (h > 1) {
      r->S = la_newt(L, F, m, h * n, LA_TYPE);
      lua_rawseti(L, KEEP_SLOT, 6 * o->n + i);
    }
  }
  if (!o->batch) return;
  for (k = 2 + o->bias_grad; k >= 0; k--) lua_rawseti(L, lists + k, i);
}

/* head hd of item i as the unit x */
static void LA_T(setunit)(const Opts *o, const Item *it, const Out *r, int hd,
                          LA_LAK(AttnGradUnit) *x) {
  LA_LAK(Attn) *a = &x->a;
  LA_LAK(AttnGrad) *g = &x->g;
  size_t q = (size_t)hd * it->dk, v = (size_t)hd * it->dv;
  memset(x, 0, sizeof *x);
  a->nq = it->nq; a->nk = it->nk; a->dk = it->dk; a->dv = it->dv;
  a->Q = LA_X(it->Q) + q * it->Q->ld; a->ldq = it->Q->ld;
  a->K = LA_X(it->K) + q * it->K->ld; a->ldk = it->K->ld;
  a->V = LA_X(it->V) + v * it->V->ld; a->ldv = it->V->ld;
  a->scale = (LA_REAL)(o->hasscale ? o->scale : it->dk > 0 ? 1.0 / sqrt((double)it->dk) : 1.0);
  a->causal = o->causal != 0;
  a->coff = o->causal == 2 ? (long long)it->nk - it->nq : 0;
  a->mask = o->mask ? LA_X(o->mask) : NULL;
  a->bias = o->bias ? LA_X(o->bias) : NULL;
  a->mrs = it->mrs; a->mcs = it->mcs; a->brs = it->brs; a->bcs = it->bcs;
  g->dO = LA_X(it->dO) + v * it->dO->ld; g->lddo = it->dO->ld;
  g->O = LA_X(it->O) + v * it->O->ld; g->ldo = it->O->ld;
  g->lse = LA_X(it->lse) + (size_t)hd * it->lse->ld;
  g->dQ = LA_X(r->dQ) + q * r->dQ->ld; g->lddq = r->dQ->ld;
  g->dK = LA_X(r->dK) + q * r->dK->ld; g->lddk = r->dK->ld;
  g->dV = LA_X(r->dV) + v * r->dV->ld; g->lddv = r->dV->ld;
  if (r->dB) {
    int m, n;
    dbshape(o, it, &m, &n, &g->dbmode);
    if (r->S) { g->dbias = LA_X(r->S) + (size_t)hd * n * r->S->ld; g->lddb = r->S->ld; }
    else { g->dbias = LA_X(r->dB); g->lddb = r->dB->ld; }
  }
}

/* dB = the sum of S's heads blocks, in head order (as (db1 + db2) + db3) */
static void LA_T(sumheads)(const la_Mat *S, la_Mat *dB, int heads) {
  int m = dB->rows, n = dB->cols, i, j, hd;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      LA_REAL acc = LA_X(S)[i + (size_t)j * S->ld];
      for (hd = 1; hd < heads; hd++) acc += LA_X(S)[i + ((size_t)hd * n + j) * S->ld];
      LA_X(dB)[i + (size_t)j * dB->ld] = acc;
    }
}

/* Pushes dQ, dK, dV [, dbias] (or their lists), computed: the units and
** the items' results (pushed at UNITS_SLOT and above), the kernels (the
** workspace is pushed, kept for the next call and popped), the sums. */
static void LA_T(backward)(lua_State *L, const Opts *o) {
  size_t nu = (size_t)o->n * o->heads, u = 0;
  LA_LAK(AttnGradUnit) *units = (LA_LAK(AttnGradUnit) *)la_alloc(L, nu, sizeof *units);
  Out *outs = (Out *)la_alloc(L, (size_t)o->n, sizeof *outs);
  int lists = UNITS_SLOT + 2, i, hd, nt = nthreads();
  Item it;
  if (o->batch)                          /* dQs, dKs, dVs [, dbiases] */
    for (i = 0; i < 3 + o->bias_grad; i++) lua_createtable(L, o->n, 0);
  for (i = 1; i <= o->n; i++) {
    getitem(L, o, i, &it);
    LA_T(newout)(L, o, i, lists, &it, &outs[i - 1]);
    for (hd = 0; hd < o->heads; hd++) LA_T(setunit)(o, &it, &outs[i - 1], hd, &units[u++]);
  }
  if (nu > 0) {
    LA_LAK(attn_bwd_units)(units, (int)nu,
                           LA_KEPTWORK(L, LA_REAL, LA_LAK(attn_bwd_units_work)(units, (int)nu, nt)),
                           nt);
    la_keepwork(L, -1);
    lua_pop(L, 1);
  }
  for (i = 0; i < o->n; i++)
    if (outs[i].S) LA_T(sumheads)(outs[i].S, outs[i].dB, o->heads);
}
