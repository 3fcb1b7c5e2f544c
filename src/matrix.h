/*
** matrix.h: the matrix type (matrix.c), as the binding files see it.
** Included through helpers.h.
*/
#ifndef LA_MATRIX_H
#define LA_MATRIX_H

#include <stddef.h>
#include <lua.h>

/* A matrix userdata. Owned storage follows the header in the same block,
** so Lua accounts for it; a view points into its parent's storage and keeps
** the parent alive through its user value 1. */
typedef struct la_Mat {
  double *data;
  int rows, cols, ld;   /* ld >= max(1, rows) so BLAS accepts it */
  int flags;
} la_Mat;

#define LA_VIEW   1
#define LA_CLOSED 2

#define LA_AT(A, i, j) ((A)->data[(i) + (ptrdiff_t)(j) * (A)->ld])
/* no elements: loops over such a matrix's columns are skipped (a 0 x 2^31-1
** matrix is legal and must cost nothing) */
#define LA_EMPTY(A) ((A)->rows == 0 || (A)->cols == 0)

/* New m x n matrices (push 1): uninitialised, or zeros. la_newat takes the
** metatable from stack index mt (0: the registry, for the C API); la_new
** from upvalue 1. Out of memory is an error naming fname and the size. */
la_Mat *la_new(lua_State *L, const char *fname, lua_Integer m, lua_Integer n);
la_Mat *la_newat(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int mt);
la_Mat *la_newzero(lua_State *L, const char *fname, lua_Integer m, lua_Integer n);
/* a packed copy of A (pushes 1) */
la_Mat *la_copyof(lua_State *L, const la_Mat *A, const char *fname);

/* The matrix at idx or NULL. la_checkarg: a matrix argument reported as
** argument argno; a Lua table is converted and replaces the argument
** (which keeps it anchored); a closed matrix is an error. */
la_Mat *la_test(lua_State *L, int idx);
la_Mat *la_checkarg(lua_State *L, int idx, const char *fname, int argno);
la_Mat *la_check(lua_State *L, int idx, const char *fname);
/* a square matrix argument */
la_Mat *la_checksquare(lua_State *L, int idx, const char *fname);

/* Vectors: n x 1 or 1 x n. la_vec gives a vector argument's data, length
** and stride. la_rhs: an m x k right-hand side; a 1 x m row is read as a
** vector (replaced at idx by its column copy): the one place that rule is. */
int la_isvec(const la_Mat *A);
double *la_vec(lua_State *L, int idx, const char *fname, int *n, int *inc);
la_Mat *la_rhs(lua_State *L, int idx, const char *fname, int m);

/* NaN/Inf in A is an error naming the first such entry of `what`.
** required = 0 where the caller honours check_finite = false; 1 where
** LAPACK iterates on A (SVD, eigenvalues, NNLS) and NaN/Inf could stall it. */
void la_checkfinite(lua_State *L, const la_Mat *A, const char *fname,
                    const char *what, int required);
/* an error unless A is symmetric within sqrt(eps) of its largest entry */
void la_checksym(lua_State *L, const la_Mat *A, const char *fname);

#endif
