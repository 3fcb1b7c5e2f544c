/*
** kernels/tsqr_decl_gen.h: the least-squares state's declarations written
** once (kernels.h includes this file through generate.h): lak_Lsq and
** lak_lsq_* for double, lak_sLsq and lak_slsq_* for float. See kernels.h
** for the contract; "elements" are LAK_REAL's.
*/
typedef struct LAK(Lsq) {
  int n, k;
  int64_t rows;
  LAK_REAL *R, *C, *rss;
} LAK(Lsq);
void LAK(lsq_clear)(LAK(Lsq) *s);
void LAK(lsq_copy)(const LAK(Lsq) *s, LAK(Lsq) *d);   /* same n, k */
int LAK(lsq_add)(LAK(Lsq) *s, int m, const LAK_REAL *A, int lda, const LAK_REAL *B, int ldb,
                 LAK_REAL *work);
int LAK(lsq_merge)(LAK(Lsq) *s, const LAK(Lsq) *t, LAK_REAL *work);
int LAK(lsq_finite)(const LAK(Lsq) *s);
