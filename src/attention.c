/*
** attention.c: softmax and log_softmax (dim 1 or 2), attention (scaled
** dot-product, fused kernel or with the weights; masks, biases, causal
** alignments, the log-sum-exp for sharded keys) and attention_combine,
** which merges two results over disjoint key sets. The numerical loops are
** in kernels/attention.c.
*/
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"
#include "kernels/openblas.h"

/* B = A^T, both of one type */
static void transpose(const la_Mat *A, la_Mat *B) {
  if (A->dtype == LA_F32) lak_stranspose(A->rows, A->cols, A->fdata, A->ld, B->fdata, B->ld);
  else lak_transpose(A->rows, A->cols, A->data, A->ld, B->data, B->ld);
}

/* the rows of R (either type) softmax-ed in place; scratch (pushed, then
** popped) of R's type */
static void rowsoftmax(lua_State *L, la_Mat *R, int logs) {
  if (R->dtype == LA_F32) {
    float *mx = LA_SCRATCH(L, float, 2 * (size_t)R->rows);
    lak_ssoftmax(R->rows, R->cols, R->fdata, R->ld, logs, mx, mx + R->rows);
  } else {
    double *mx = la_scratch(L, 2 * (size_t)R->rows);
    lak_softmax(R->rows, R->cols, R->data, R->ld, logs, mx, mx + R->rows);
  }
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
    R = la_copyof(L, S, fname);
    rowsoftmax(L, R, logs);
  } else {      /* columns: softmax of the transpose, transposed back; R on top */
    la_Mat *T = la_newt(L, fname, S->cols, S->rows, S->dtype);
    transpose(S, T);
    rowsoftmax(L, T, logs);
    R = la_newt(L, fname, S->rows, S->cols, S->dtype);
    transpose(T, R);
  }
  return 1;
}

static int l_softmax(lua_State *L) { return softmax(L, la_fname(L), 0); }
static int l_log_softmax(lua_State *L) { return softmax(L, la_fname(L), 1); }

/* A boolean mask given as a table of rows of booleans (true = attend), or a
** flat table (a column), as la.matrix reads numbers: read raw, converted
** to 1/0 into a new matrix (pushes 1). */
static la_Mat *boolmask(lua_State *L, int idx) {
  lua_Integer m = (lua_Integer)lua_rawlen(L, idx), n = 1, i, j;
  int rows = lua_rawgeti(L, idx, 1) == LUA_TTABLE;
  la_Mat *M;
  if (rows) n = (lua_Integer)lua_rawlen(L, -1);
  lua_pop(L, 1);
  M = la_new(L, la_fname(L), m, n);
  for (i = 1; i <= m; i++) {
    int t = lua_rawgeti(L, idx, i);
    if (rows && t != LUA_TTABLE)
      la_error(L, la_fname(L), "mask row %I is not a table (got %s)", i, luaL_typename(L, -1));
    if (rows && (lua_Integer)lua_rawlen(L, -1) != n)
      la_error(L, la_fname(L), "mask row %I has %I entries, expected %I", i,
               (lua_Integer)lua_rawlen(L, -1), n);
    for (j = 1; j <= n; j++) {
      if (rows) lua_rawgeti(L, -1, j);
      else lua_pushvalue(L, -1);
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        la_error(L, la_fname(L), "mask(%I,%I) is a %s in a boolean mask (use true or false)",
                 i, j, luaL_typename(L, -1));
      LA_AT(M, i - 1, j - 1) = lua_toboolean(L, -1) ? 1.0 : 0.0;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  return M;
}

/* A table whose first entry (or first row's first entry) is a boolean
** (pushes nothing). */
static int isboolmask(lua_State *L, int idx) {
  int t;
  if (!lua_istable(L, idx) || la_test(L, idx)) return 0;
  t = lua_rawgeti(L, idx, 1);
  if (t == LUA_TTABLE) t = lua_rawgeti(L, -1, 1), lua_remove(L, -2);
  lua_pop(L, 1);
  return t == LUA_TBOOLEAN;
}

/* The mask or bias option: an nq x nk matrix, or a 1 x nk row or nq x 1
** column that broadcasts, of type dtype (one of the other type, a table or
** a view is read through la_checkt, which replaces it in its slot by a
** packed copy when it converts); stored into stack slot `slot` (nil when
** absent; pushes nothing). Sets the strides of entry (i, j) = i * rs +
** j * cs from the matrix the kernel reads: the converted one, whose leading
** dimension is its own, never the view's it came from. A mask may be a
** boolean table, converted in its slot. */
static la_Mat *optmat(lua_State *L, int oi, const char *key, int slot, int dtype,
                      int nq, int nk, ptrdiff_t *rs, ptrdiff_t *cs) {
  la_Mat *M;
  if (oi == 0) return NULL;
  lua_getfield(L, oi, key);
  lua_replace(L, slot);
  if (lua_isnil(L, slot)) return NULL;
  if (!la_testoptmat(L, slot, la_fname(L), key) && !lua_istable(L, slot))
    la_error(L, la_fname(L), "option '%s' must be a matrix, got %s", key, la_typename(L, slot));
  if (key[0] == 'm' && isboolmask(L, slot)) {
    boolmask(L, slot);
    lua_replace(L, slot);
  }
  M = la_checkt(L, slot, la_fname(L), dtype);
  if (M->rows == nq && M->cols == nk) { *rs = 1; *cs = M->ld; }
  else if (M->rows == 1 && M->cols == nk) { *rs = 0; *cs = M->ld; }
  else if (M->rows == nq && M->cols == 1) { *rs = 1; *cs = 0; }
  else
    la_error(L, la_fname(L), "%s is %dx%d, expected %dx%d (nq x nk), 1x%d or %dx1", key,
             M->rows, M->cols, nq, nk, nk, nq);
  return M;
}

/* A NaN mask entry is neither "masked" nor "kept": an error. */
static void checkmask(lua_State *L, const la_Mat *M) {
  int i, j;
  if (LA_EMPTY(M)) return;          /* 0 x 2^31-1: no column to visit */
  for (j = 0; j < M->cols; j++)
    for (i = 0; i < M->rows; i++)
      if (isnan(la_get(M, i, j)))
        la_error(L, la_fname(L), "mask(%d,%d) is NaN (use 0 to mask, nonzero to keep)",
                 i + 1, j + 1);
}

/* causal = false | true | "upper_left" | "lower_right": 0, 1 (top-left,
** PyTorch's is_causal) or 2 (bottom-right, its causal_lower_right). */
static int optcausal(lua_State *L, int oi) {
  static const char *const aligns[] = {"upper_left", "lower_right", NULL};
  int t = oi ? lua_getfield(L, oi, "causal") : LUA_TNIL;
  if (t != LUA_TNIL && t != LUA_TBOOLEAN && t != LUA_TSTRING)
    la_error(L, la_fname(L), "option 'causal' must be true, false, \"upper_left\" or "
             "\"lower_right\", got %s", la_typename(L, -1));
  if (oi) lua_pop(L, 1);
  if (t == LUA_TNIL || t == LUA_TBOOLEAN) return la_optbool(L, oi, "causal", 0, la_fname(L));
  return 1 + la_optenum(L, oi, "causal", 0, aligns, la_fname(L));
}

/* l_attention's stack: Q, K, V, then the options table; the mask and bias
** matrices are kept alive in the two slots above it (lua_settop reserves
** them) while the kernel reads them; the results go above those. */
enum { OPTS_SLOT = 4, MASK_SLOT = 5, BIAS_SLOT = 6 };

/* Reads the options at oi (0: none) into a, the mask and bias matrices, of
** type dtype, into MASK_SLOT and BIAS_SLOT (pushes nothing; *M and *B are
** those matrices or NULL: the caller takes their data of its type). Sets
** *weights and *lse. */
static void attnopts(lua_State *L, int oi, int dtype, lak_Attn *a, la_Mat **M, la_Mat **B,
                     int *weights, int *lse) {
  static const char *const keys[] = {"scale", "causal", "weights", "mask", "bias", "lse", NULL};
  const char *F = la_fname(L);
  int causal;
  la_checkopts(L, oi, F, keys);
  a->scale = la_optnum(L, oi, "scale", a->dk > 0 ? 1.0 / sqrt((double)a->dk) : 1.0, F);
  causal = optcausal(L, oi);
  a->causal = causal != 0;
  a->coff = causal == 2 ? (long long)a->nk - a->nq : 0;
  *weights = la_optbool(L, oi, "weights", 0, F);
  *lse = la_optbool(L, oi, "lse", 0, F);
  *M = optmat(L, oi, "mask", MASK_SLOT, dtype, a->nq, a->nk, &a->mrs, &a->mcs);
  *B = optmat(L, oi, "bias", BIAS_SLOT, dtype, a->nq, a->nk, &a->brs, &a->bcs);
  if (*M) checkmask(L, *M);
}

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

/* The float32 run of attention: a's shapes and options with float32 data,
** M and B the float32 mask and bias (or NULL) in their slots.
** Pushes O [, A] [, lse], then the workspace. */
static void attention32(lua_State *L, const lak_Attn *a, const la_Mat *Q, const la_Mat *K,
                        const la_Mat *V, const la_Mat *M, const la_Mat *B, int weights,
                        int wantlse, const char *F) {
  lak_sAttn s;
  la_Mat *O, *A = NULL, *lse = NULL;
  memset(&s, 0, sizeof s);
  s.nq = a->nq; s.nk = a->nk; s.dk = a->dk; s.dv = a->dv;
  s.Q = Q->fdata; s.K = K->fdata; s.V = V->fdata;
  s.ldq = Q->ld; s.ldk = K->ld; s.ldv = V->ld;
  s.scale = a->scale; s.causal = a->causal; s.coff = a->coff;
  s.mrs = a->mrs; s.mcs = a->mcs; s.brs = a->brs; s.bcs = a->bcs;
  s.mask = M ? M->fdata : NULL;
  s.bias = B ? B->fdata : NULL;
  O = la_newt(L, F, s.nq, s.dv, LA_F32);
  if (weights) A = la_newt(L, F, s.nq, s.nk, LA_F32);
  if (wantlse) lse = la_newt(L, F, s.nq, 1, LA_F32);
  if (!weights) {
    int nt = openblas_get_num_threads();
    nt = nt < 1 ? 1 : nt > LAK_ATTN_MAXTHREADS ? LAK_ATTN_MAXTHREADS : nt;
    lak_sattention(&s, O->fdata, O->ld, lse ? lse->fdata : NULL,
                   LA_KEPTWORK(L, float, lak_sattn_work(&s, nt)), nt);
  } else {
    float *mx = LA_SCRATCH(L, float, 2 * (size_t)(s.nk > 0 ? s.nq : 0));
    lak_sattention_weights(&s, O->fdata, O->ld, A->fdata, A->ld, lse ? lse->fdata : NULL,
                           mx, mx + s.nq);
  }
}

/* attention(Q, K, V [, opts]) -> O [, A] [, lse]: O = softmax(Q K^T * scale) V,
** in float32 when Q, K and V are float32 */
static int l_attention(lua_State *L) {
  const char *F = la_fname(L);
  int f32 = allfloat32(L);
  /* float32: la_checkany keeps them as they are (and refuses a closed one) */
  la_Mat *Q = f32 ? la_checkany(L, 1, F) : la_check(L, 1, F);
  la_Mat *K = f32 ? la_checkany(L, 2, F) : la_check(L, 2, F);
  la_Mat *V = f32 ? la_checkany(L, 3, F) : la_check(L, 3, F), *O, *A = NULL, *lse = NULL;
  la_Mat *M, *B;
  lak_Attn a;
  int oi = lua_isnoneornil(L, OPTS_SLOT) ? 0 : OPTS_SLOT, weights, wantlse;
  if (oi && (!lua_istable(L, oi) || la_test(L, oi)))
    la_typeerror(L, F, OPTS_SLOT, "options table");
  if (K->cols != Q->cols)
    la_error(L, F, "Q is %dx%d but K is %dx%d (dk %d ~= %d)", Q->rows, Q->cols,
             K->rows, K->cols, Q->cols, K->cols);
  if (V->rows != K->rows)
    la_error(L, F, "K has %d rows but V has %d (one value per key)", K->rows, V->rows);
  memset(&a, 0, sizeof a);
  a.nq = Q->rows; a.nk = K->rows; a.dk = Q->cols; a.dv = V->cols;
  a.Q = Q->data; a.K = K->data; a.V = V->data;   /* NULL when f32: attention32 sets them */
  a.ldq = Q->ld; a.ldk = K->ld; a.ldv = V->ld;
  lua_settop(L, BIAS_SLOT);              /* reserves MASK_SLOT and BIAS_SLOT */
  attnopts(L, oi, f32 ? LA_F32 : LA_F64, &a, &M, &B, &weights, &wantlse);
  if (f32) {
    attention32(L, &a, Q, K, V, M, B, weights, wantlse, F);
    la_keepwork(L, -1);
    lua_pop(L, 1);                       /* the workspace */
    return 1 + weights + wantlse;
  }
  a.mask = M ? M->data : NULL;
  a.bias = B ? B->data : NULL;
  O = la_new(L, F, a.nq, a.dv);          /* pushes O [, A] [, lse], then the workspace */
  if (weights) A = la_new(L, F, a.nq, a.nk);
  if (wantlse) lse = la_new(L, F, a.nq, 1);
  if (!weights) {
    int nt = openblas_get_num_threads();
    nt = nt < 1 ? 1 : nt > LAK_ATTN_MAXTHREADS ? LAK_ATTN_MAXTHREADS : nt;
    lak_attention(&a, O->data, O->ld, lse ? lse->data : NULL,
                  LA_KEPTWORK(L, double, lak_attn_work(&a, nt)), nt);
  } else {
    double *mx = la_scratch(L, 2 * (size_t)(a.nk > 0 ? a.nq : 0));
    lak_attention_weights(&a, O->data, O->ld, A->data, A->ld, lse ? lse->data : NULL,
                          mx, mx + a.nq);
  }
  la_keepwork(L, -1);
  lua_pop(L, 1);                         /* the workspace */
  return 1 + weights + wantlse;          /* O [, A] [, lse] */
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
  {"softmax", l_softmax, 2}, {"log_softmax", l_log_softmax, 2},
  {"attention", l_attention, 3 + LA_OPTS}, {"attention_combine", l_attention_combine, 4},
  {NULL, NULL, 0}
};

void la_open_attention(lua_State *L) {
  lak_attn_atfork();
  la_setfuncs(L, funcs, 0);
}
