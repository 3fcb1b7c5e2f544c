/*
** attention.c: softmax and log_softmax (dim 1 or 2), attention (scaled
** dot-product, fused kernel or with the weights; masks, biases, causal
** alignments, the log-sum-exp for sharded keys) and attention_combine,
** which merges two results over disjoint key sets. The numerical loops are
** in kernels/attention.c.
*/
#include <limits.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"
#include "kernels/openblas.h"


/* R = the rows of S (either type) softmax-ed; scratch (pushed, then
** popped) of S's type */
static void rowsoftmax(lua_State *L, const la_Mat *S, la_Mat *R, int logs) {
  double *sum = la_scratch(L, 2 * (size_t)S->rows);       /* the sums, then the maxima */
  if (S->dtype == LA_F32)
    lak_ssoftmax(S->rows, S->cols, S->fdata, S->ld, R->fdata, R->ld, logs,
                 (float *)(void *)(sum + S->rows), sum);
  else
    lak_softmax(S->rows, S->cols, S->data, S->ld, R->data, R->ld, logs, sum + S->rows, sum);
  lua_pop(L, 1);
}

/* softmax(S [, dim]) / log_softmax: dim 2 normalizes each row, dim 1
** each column, in S's type; without dim, each row, but a vector (an n x 1
** column too) along itself. Stable (max subtracted); a row of only -inf
** gives zeros. */
static int softmax(lua_State *L, const char *fname, int logs) {
  la_Mat *S = la_checkany(L, 1, fname), *R;
  int dim = la_optvecdim(L, fname, 2, S->rows, S->cols, 2);
  if (LA_EMPTY(S)) {            /* nothing to normalize: no workspace either */
    la_newt(L, fname, S->rows, S->cols, S->dtype);
    return 1;
  }
  if (dim == 2) {
    R = la_newt(L, fname, S->rows, S->cols, S->dtype);
    rowsoftmax(L, S, R, logs);
  } else {      /* columns: each column's steps in turn (contiguous) */
    R = la_copyof(L, S, fname);
    if (R->dtype == LA_F32) lak_scolsoftmax(R->rows, R->cols, R->fdata, R->ld, logs,
                                            LA_SCRATCH(L, float, (size_t)R->rows));
    else lak_colsoftmax(R->rows, R->cols, R->data, R->ld, logs, la_scratch(L, (size_t)R->rows));
    lua_pop(L, 1);
  }
  return 1;
}

static int l_softmax(lua_State *L) { return softmax(L, la_fname(L), 0); }
static int l_log_softmax(lua_State *L) { return softmax(L, la_fname(L), 1); }

/* the log-sum-exp of line l (t: l.n doubles of scratch): its max m
** taken out, m + log(sum(exp(a - m))), in double; NaN, +inf and a line of
** -inf (or none) as SciPy's */
static double lseline(la_Line l, double *t) {
  double m;
  size_t i;
  if (l.n == 0) return -HUGE_VAL;
  m = la_lreduce(LAK_MAX, l, 0);
  if (m != m || m == HUGE_VAL || m == -HUGE_VAL) return m;
  for (i = 0; i < l.n; i++) t[i] = LA_LX(l, i) - m;
  lak_unary(LAK_EXP, (int)l.n, 1, t, (int)l.n, t, (int)l.n);
  l.p = t; l.f = NULL; l.s = 1;
  return m + log(la_lreduce(LAK_SUM, l, 0));
}

/* logsumexp(A [, dim]): log(sum(exp(A))) over every entry (a number) or
** along dim (1 x n, m x 1; A's type), as SciPy's logsumexp and PyTorch's
** logsumexp: the line's max m taken out, m + log(sum(exp(a - m))). A line
** holding NaN gives NaN, one holding +inf (and no NaN) +inf, an empty line
** or one of only -inf -inf. Rows of a matrix of 8 rows or more go through
** the row softmax's kernel (reading a row at a time strides through
** memory); other lines are read whole. */
static int l_logsumexp(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F), *R, *W;
  int dim = la_optdim(L, F, 2), nk, i;
  double *t;
  if (dim == 0) {
    if (A->ld != A->rows && !LA_EMPTY(A)) A = la_copyof(L, A, F);   /* a view */
    t = la_scratch(L, (size_t)A->rows * (size_t)A->cols);
    lua_pushnumber(L, LA_EMPTY(A) ? -HUGE_VAL : lseline(la_flat(A), t));
    return 1;
  }
  nk = dim == 1 ? A->cols : A->rows;
  R = la_newt(L, F, dim == 1 ? 1 : nk, dim == 1 ? nk : 1, A->dtype);
  if (dim == 2 && A->rows >= 8 && A->cols > 0) {
    double *sum = la_scratch(L, 2 * (size_t)nk), *mx = sum + nk;
    W = la_newt(L, F, A->rows, A->cols, A->dtype);   /* the exps, not kept */
    if (A->dtype == LA_F32)
      lak_ssoftmax(nk, A->cols, A->fdata, A->ld, W->fdata, W->ld, 0, (float *)(void *)mx, sum);
    else
      lak_softmax(nk, A->cols, A->data, A->ld, W->data, W->ld, 0, mx, sum);
    for (i = 0; i < nk; i++) {
      double x = A->dtype == LA_F32 ? (double)((float *)(void *)mx)[i] : mx[i];
      if (x == x && x != HUGE_VAL && x != -HUGE_VAL) x += log(sum[i]);
      la_put(R, i, 0, x);
    }
    lua_pop(L, 2);                                 /* W, the sums: R on top */
    return 1;
  }
  t = la_scratch(L, (size_t)(dim == 1 ? A->rows : A->cols));
  for (i = 0; i < nk; i++)
    la_put(R, dim == 1 ? 0 : i, dim == 1 ? i : 0, lseline(la_line(A, dim, i), t));
  lua_pop(L, 1);                                   /* t: R on top */
  return 1;
}

/* l_attention's stack: Q, K, V, the options table; the mask and bias
** matrices in the two slots above it (lua_settop reserves them), then a
** table that keeps the call's matrices (KEEP[3 (i - 1) + 1..3] = Q, K, V of
** item i) while the kernel reads them, then the units; the results go
** above those. */
enum { OPTS_SLOT = 4, MASK_SLOT = 5, BIAS_SLOT = 6, KEEP_SLOT = 7, UNITS_SLOT = 8 };

/* the options of a call (every item and head has them; attention ignores
** bias_grad: attention_backward's, so that one table serves both) */
typedef la_AttnOpts Opts;

/* 1 when Q, K and V (1..3) are all float32 matrices: attention then runs
** the float32 kernel; any float64 (or table) operand makes it float64,
** NumPy's promotion rule. */
static int allfloat32(lua_State *L) {
  int i;
  for (i = 1; i <= 3; i++) {
    la_Mat *M = la_testany(L, i);
    if (!M || M->dtype != LA_F32) return 0;
  }
  return 1;
}

static const char *const QKV[] = {"Q", "K", "V"};

/* One call's Q, K, V (1..3, converted in their slots) into KEEP; returns
** its type. */
static int keepone(lua_State *L, const char *F) {
  int j, f32 = allfloat32(L);
  for (j = 1; j <= 3; j++) {
    /* float32: la_checkany keeps them as they are (and refuses a closed one) */
    if (f32) la_checkany(L, j, F);
    else la_check(L, j, F);
    lua_pushvalue(L, j);
    lua_rawseti(L, KEEP_SLOT, j);
  }
  return f32 ? LA_F32 : LA_F64;
}

/* item i's matrices (KEEP anchors them) */
typedef struct Item { la_Mat *Q, *K, *V; int dk, dv; } Item;

static void getitem(lua_State *L, int i, Item *it, int heads) {
  la_Mat **m[3];
  int j;
  m[0] = &it->Q; m[1] = &it->K; m[2] = &it->V;
  for (j = 0; j < 3; j++) {
    lua_rawgeti(L, KEEP_SLOT, 3 * (i - 1) + j + 1);
    *m[j] = la_testany(L, -1);
    lua_pop(L, 1);
  }
  it->dk = it->Q->cols / heads;
  it->dv = it->V->cols / heads;
}

/* Checks item i's shapes against each other, the heads and the options;
** sets a (of item i's shapes and options, its data still NULL); returns
** its number of units (heads that produce an element, else 0). */
static int checkitem(lua_State *L, const Opts *o, int i, const Item *it, lak_Attn *a) {
  la_attnqkv(L, it->Q, it->K, it->V, o->heads, o->batch ? i : 0);
  memset(a, 0, sizeof *a);
  a->nq = it->Q->rows; a->nk = it->K->rows; a->dk = it->dk; a->dv = it->dv;
  a->ldq = it->Q->ld; a->ldk = it->K->ld; a->ldv = it->V->ld;
  a->scale = o->hasscale ? o->scale : a->dk > 0 ? 1.0 / sqrt((double)a->dk) : 1.0;
  a->causal = o->causal != 0;
  a->coff = o->causal == 2 ? (long long)a->nk - a->nq : 0;
  if (o->mask) la_attnfit(L, o->mask, "mask", a->nq, a->nk, &a->mrs, &a->mcs, o->batch ? i : 0);
  if (o->bias) la_attnfit(L, o->bias, "bias", a->nq, a->nk, &a->brs, &a->bcs, o->batch ? i : 0);
  return a->nq > 0 && (a->dv > 0 || o->lse || (o->weights && a->nk > 0)) ? o->heads : 0;
}

/* item i's results: pushes O [, A] [, lse] (O nq x (heads dv), A nq x
** (heads nk), lse nq x heads); a batch's go into its result lists, at
** `lists` (Os), then As and lses, and nothing stays pushed */
typedef struct Out { la_Mat *O, *A, *lse; } Out;

static void newout(lua_State *L, const Opts *o, int dtype, int i, int lists, const lak_Attn *a,
                   Out *r) {
  const char *F = la_fname(L);
  r->O = la_newt(L, F, a->nq, (lua_Integer)o->heads * a->dv, dtype);
  r->A = o->weights ? la_newt(L, F, a->nq, (lua_Integer)o->heads * a->nk, dtype) : NULL;
  r->lse = o->lse ? la_newt(L, F, a->nq, o->heads, dtype) : NULL;
  if (!o->batch) return;
  if (o->lse) lua_rawseti(L, lists + 1 + o->weights, i);
  if (o->weights) lua_rawseti(L, lists + 1, i);
  lua_rawseti(L, lists, i);
}

/* Head hd of an item as unit u of units (lak_AttnUnit or lak_sAttnUnit by
** dtype): a, with the head's column blocks of Q, K, V, O and lse. */
static void setunit(void *units, size_t u, int dtype, const lak_Attn *a, const Item *it,
                    const Opts *o, const Out *r, int hd) {
  size_t q = (size_t)hd * it->dk, v = (size_t)hd * it->dv;
  if (dtype == LA_F32) {
    lak_sAttnUnit *x = (lak_sAttnUnit *)units + u;
    lak_sAttn *s = &x->a;
    memset(s, 0, sizeof *s);
    s->nq = a->nq; s->nk = a->nk; s->dk = a->dk; s->dv = a->dv;
    s->ldq = a->ldq; s->ldk = a->ldk; s->ldv = a->ldv;
    s->scale = (float)a->scale; s->causal = a->causal; s->coff = a->coff;
    s->mrs = a->mrs; s->mcs = a->mcs; s->brs = a->brs; s->bcs = a->bcs;
    s->Q = it->Q->fdata + q * a->ldq; s->K = it->K->fdata + q * a->ldk;
    s->V = it->V->fdata + v * a->ldv;
    s->mask = o->mask ? o->mask->fdata : NULL;
    s->bias = o->bias ? o->bias->fdata : NULL;
    x->O = r->O->fdata + v * r->O->ld; x->ldo = r->O->ld;
    x->lse = r->lse ? r->lse->fdata + (size_t)hd * r->lse->ld : NULL;
  } else {
    lak_AttnUnit *x = (lak_AttnUnit *)units + u;
    x->a = *a;
    x->a.Q = it->Q->data + q * a->ldq; x->a.K = it->K->data + q * a->ldk;
    x->a.V = it->V->data + v * a->ldv;
    x->a.mask = o->mask ? o->mask->data : NULL;
    x->a.bias = o->bias ? o->bias->data : NULL;
    x->O = r->O->data + v * r->O->ld; x->ldo = r->O->ld;
    x->lse = r->lse ? r->lse->data + (size_t)hd * r->lse->ld : NULL;
  }
}

/* with the weights: every head of the item one after another (A's column
** blocks have ld nq, as the kernel needs) */
static void weights(lua_State *L, int dtype, const lak_Attn *a, const Item *it, const Opts *o,
                    const Out *r) {
  union { lak_AttnUnit d; lak_sAttnUnit s; } x;
  size_t n = (size_t)(a->nk > 0 ? a->nq : 0), nk = (size_t)a->nk;
  int hd;
  double *sum = la_scratch(L, 2 * n);     /* the softmax's sums (double), then its maxima */
  if (dtype == LA_F32) {
    for (hd = 0; hd < o->heads; hd++) {
      setunit(&x, 0, dtype, a, it, o, r, hd);
      lak_sattention_weights(&x.s.a, x.s.O, x.s.ldo, r->A->fdata + hd * nk * r->A->ld,
                             r->A->ld, x.s.lse, (float *)(void *)(sum + n), sum);
    }
  } else {
    for (hd = 0; hd < o->heads; hd++) {
      setunit(&x, 0, dtype, a, it, o, r, hd);
      lak_attention_weights(&x.d.a, x.d.O, x.d.ldo, r->A->data + hd * nk * r->A->ld,
                            r->A->ld, x.d.lse, sum + n, sum);
    }
  }
  lua_pop(L, 1);
}

/* the units on la.threads() threads (pushes nothing) */
static void rununits(lua_State *L, int dtype, const void *units, int nu) {
  int nt = openblas_get_num_threads();
  nt = nt < 1 ? 1 : nt > LAK_ATTN_MAXTHREADS ? LAK_ATTN_MAXTHREADS : nt;
  if (dtype == LA_F32) {
    const lak_sAttnUnit *u = (const lak_sAttnUnit *)units;
    lak_sattn_units(u, nu, LA_KEPTWORK(L, float, lak_sattn_units_work(u, nu, nt)), nt);
  } else {
    const lak_AttnUnit *u = (const lak_AttnUnit *)units;
    lak_attn_units(u, nu, LA_KEPTWORK(L, double, lak_attn_units_work(u, nu, nt)), nt);
  }
  la_keepwork(L, -1);
  lua_pop(L, 1);                         /* the workspace */
}

/* attention(Q, K, V [, opts]) -> O [, A] [, lse]: O = softmax(Q K^T * scale)
** V, in float32 when Q, K and V are float32; with opts.heads, each head's
** column blocks; with lists of matrices, lists of results (a batch). The
** checks, then the results and units, then the kernels. */
static int l_attention(lua_State *L) {
  const char *F = la_fname(L);
  int oi = lua_isnoneornil(L, OPTS_SLOT) ? 0 : OPTS_SLOT, n, i, hd, dtype, lists = 0;
  size_t nu = 0, u = 0;
  Opts o;
  Item it;
  lak_Attn a;
  Out r;
  void *units;
  if (oi && (!lua_istable(L, oi) || la_test(L, oi)))
    la_typeerror(L, F, OPTS_SLOT, "options table");
  o.batch = la_isbatch(L, 1, 1);
  lua_settop(L, KEEP_SLOT);              /* reserves MASK_SLOT, BIAS_SLOT and KEEP_SLOT */
  lua_newtable(L);
  lua_replace(L, KEEP_SLOT);
  n = o.batch ? la_attnbatch(L, 3, QKV, KEEP_SLOT, &dtype) : (dtype = keepone(L, F), 1);
  la_attnopts(L, oi, dtype, MASK_SLOT, BIAS_SLOT, &o);
  for (i = 1; i <= n; i++) {
    getitem(L, i, &it, o.heads);
    nu += (size_t)checkitem(L, &o, i, &it, &a);
    if (nu > INT_MAX) la_error(L, F, "more than %d heads in the batch", INT_MAX);
  }
  units = la_alloc(L, o.weights ? 0 : nu,
                   dtype == LA_F32 ? sizeof(lak_sAttnUnit) : sizeof(lak_AttnUnit));
  if (o.batch) {                         /* Os [, As] [, lses] */
    lists = UNITS_SLOT + 1;
    for (i = 0; i < 1 + o.weights + o.lse; i++) lua_createtable(L, n, 0);
  }
  for (i = 1; i <= n; i++) {
    getitem(L, i, &it, o.heads);
    if (checkitem(L, &o, i, &it, &a) == 0) { newout(L, &o, dtype, i, lists, &a, &r); continue; }
    newout(L, &o, dtype, i, lists, &a, &r);
    if (o.weights) weights(L, dtype, &a, &it, &o, &r);
    else for (hd = 0; hd < o.heads; hd++) setunit(units, u++, dtype, &a, &it, &o, &r, hd);
  }
  if (u > 0) rununits(L, dtype, units, (int)u);
  return 1 + o.weights + o.lse;          /* O [, A] [, lse], or their lists */
}

/* An nq x 1 log-sum-exp argument (la_checkargany: either type). */
static la_Mat *checklse(lua_State *L, int arg, int nq, int k) {
  la_Mat *S = la_checkargany(L, arg, la_fname(L), arg);
  if (S->rows != nq || S->cols != 1)
    la_error(L, la_fname(L), "lse%d is %dx%d, expected %dx1 (one per row of O%d)", k,
             S->rows, S->cols, nq, k);
  return S;
}

/* 1 when the matrices at 1..4 are all float32, 0 after making every one
** float64 (la_check converts a float32 one in its slot): NumPy's rule */
static int onetype(lua_State *L, const char *fname) {
  int i, f32 = 1;
  for (i = 1; i <= 4; i++) {
    la_Mat *M = la_testany(L, i);
    f32 = f32 && M && M->dtype == LA_F32;
  }
  for (i = 1; i <= 4 && !f32; i++) la_checkarg(L, i, fname, i);
  return f32;
}

/* attention_combine(O1, lse1, O2, lse2) -> O, lse: attention over the union
** of two disjoint key sets from the results over each; float32 when all
** four are */
static int l_attention_combine(lua_State *L) {
  const char *F = la_fname(L);
  int f32 = onetype(L, F);
  la_Mat *O1 = la_checkargany(L, 1, F, 1), *O2, *l1, *l2, *O, *lse;
  O2 = la_checkargany(L, 3, F, 3);
  if (O2->rows != O1->rows || O2->cols != O1->cols)
    la_error(L, F, "O1 is %dx%d but O2 is %dx%d", O1->rows, O1->cols,
             O2->rows, O2->cols);
  l1 = checklse(L, 2, O1->rows, 1);
  l2 = checklse(L, 4, O1->rows, 2);
  O = la_newt(L, F, O1->rows, O1->cols, O1->dtype);  /* pushes O, lse */
  lse = la_newt(L, F, O1->rows, 1, O1->dtype);
  if (f32)
    lak_sattn_combine(O1->rows, O1->cols, O1->fdata, O1->ld, l1->fdata, O2->fdata, O2->ld,
                      l2->fdata, O->fdata, O->ld, lse->fdata);
  else
    lak_attn_combine(O1->rows, O1->cols, O1->data, O1->ld, l1->data, O2->data, O2->ld,
                     l2->data, O->data, O->ld, lse->data);
  return 2;
}

static const la_Reg funcs[] = {
  {"softmax", l_softmax, 2}, {"log_softmax", l_log_softmax, 2}, {"logsumexp", l_logsumexp, 2},
  {"attention", l_attention, 3 + LA_OPTS}, {"attention_combine", l_attention_combine, 4},
  {NULL, NULL, 0}
};

void la_open_attention(lua_State *L) {
  lak_attn_atfork();
  la_setfuncs(L, funcs, 0);
}
