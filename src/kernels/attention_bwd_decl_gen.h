/*
** kernels/attention_bwd_decl_gen.h: the declarations of attention's
** backward kernel (attention_bwd.c), written once (kernels.h includes this
** file through generate.h after kernels_gen.h): lak_AttnGrad and
** lak_attention_backward for double, lak_sAttnGrad and
** lak_sattention_backward for float. "Elements" are LAK_REAL's.
*/

/* The gradients of O = attention(a) for the loss whose gradient at O is dO
** (nq x dv), given O and lse (nq, the forward's log-sum-exp; -inf for a
** row with no visible key): dQ nq x dk, dK nk x dk, dV nk x dv, each with
** its leading dimension (column blocks of larger matrices are fine).
** dbias (may be NULL) receives dL/dbias for scores scale Q K^T + bias:
** LAK_DB_FULL nq x nk (ld lddb), LAK_DB_ROW the 1 x nk sums over the
** queries (entry j at j * lddb), LAK_DB_COL the nq x 1 sums over the keys
** (entry i at i). */
#if LAK_DOUBLE                 /* once: the enum has no type */
enum { LAK_DB_FULL, LAK_DB_ROW, LAK_DB_COL };
#endif
typedef struct LAK(AttnGrad) {
  const LAK_REAL *dO, *O, *lse;
  int lddo, ldo;
  LAK_REAL *dQ, *dK, *dV, *dbias;
  int lddq, lddk, lddv, lddb, dbmode;
} LAK(AttnGrad);

/* Fused, in the manner of FlashAttention-2's backward: no nq x nk matrix
** (but dbias when asked); on up to nthreads threads (the caller and helpers
** it joins), results bitwise the same whatever nthreads is. work:
** lak_attn_bwd_work(a, nthreads) elements. */
size_t LAK(attn_bwd_work)(const LAK(Attn) *a, int nthreads);
void LAK(attention_backward)(const LAK(Attn) *a, const LAK(AttnGrad) *g, LAK_REAL *work,
                             int nthreads);

/* A list of backward problems (a batch of heads: each head's matrices are
** column blocks of the caller's, read and written through their ld's), run
** as lak_units' units on up to nthreads threads, each unit's gradients
** bitwise the same whatever nthreads is. work: lak_attn_bwd_units_work(u,
** n, nthreads) elements. */
typedef struct LAK(AttnGradUnit) {
  LAK(Attn) a;
  LAK(AttnGrad) g;
} LAK(AttnGradUnit);
size_t LAK(attn_bwd_units_work)(const LAK(AttnGradUnit) *u, int n, int nthreads);
void LAK(attn_bwd_units)(const LAK(AttnGradUnit) *u, int n, LAK_REAL *work, int nthreads);

/* attention.c's masking of the bq x bk score tile S (ld bq) at rows i0,
** columns j0: bias added, masked and causally hidden entries -inf */
void LAK(attn_mask)(const LAK(Attn) *a, int i0, int j0, int bq, int bk, LAK_REAL *S);
