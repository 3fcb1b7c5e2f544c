/*
** matrix.h: the matrix type (matrix.c), as the binding files see it.
** Included through helpers.h.
*/
#ifndef LA_MATRIX_H
#define LA_MATRIX_H

#include <stddef.h>
#include <string.h>
#include <lua.h>

/* Element types: float64 (the default), float32, and bool (one byte an
** element, 0 or 1: what comparisons return). LA_ALL asks a checker for a
** matrix of any of the three as it is; LA_ANY for float64 or float32, a
** bool one converted to float64. */
enum { LA_F64, LA_F32, LA_BOOL, LA_ANY = -1, LA_ALL = -2 };
/* the dtype option's choices of most functions: "float64", "float32", NULL;
** la_dtypesb adds "bool" (comparisons, zeros, ones, full, astype); a
** matrix's dtype name is la_dtypesb[A->dtype] */
extern const char *const la_dtypes[];
extern const char *const la_dtypesb[];

/* A matrix userdata. Owned storage follows the header in the same block,
** so Lua accounts for it; a view points into its parent's storage and keeps
** the parent alive through its user value 1. Exactly one of data (float64),
** fdata (float32) and bdata (bool) is set: code that reads data sees
** float64 only. Only code that asks for LA_ALL (la_checkall, la_testmat)
** ever sees a bool matrix; every other checker hands it a converted copy. */
typedef struct la_Mat {
  double *data;
  int rows, cols, ld;   /* ld >= max(1, rows) so BLAS accepts it */
  int flags;
  int dtype;            /* LA_F64, LA_F32 or LA_BOOL */
  unsigned magic;       /* LA_MAGIC: a header this module made (in the padding) */
  float *fdata;
  unsigned char *bdata; /* 0 or 1 an element */
} la_Mat;

#define LA_VIEW   1
#define LA_CLOSED 2
#define LA_GONE   4     /* closed by la_seen */
#define LA_EXT    8     /* a header userdata of storage outside the heap, or a view of one */

/* A header with LA_EXT is followed in its userdata by the address of its
** storage owner's flag (helpers.h: la_extgone): not in la_Mat, which a
** pointer more made every small matrix 16 bytes larger (4 x 4 A + A: 110 ->
** 122 ns, the collector's share). Only userdata headers carry it: copies
** by value (la_block) must not be passed to la_seen. */
static inline const int *la_gonep(const la_Mat *A) {
  const int *g;
  memcpy(&g, A + 1, sizeof g);
  return g;
}
static inline void la_setgonep(la_Mat *A, const int *g) { memcpy(A + 1, &g, sizeof g); }
/* A matrix found at a stack index (every test of one comes here): closed
** from when its storage's owner was finalized, as Lua's files are closed
** by theirs, so a finalizer that reaches it later gets an error, not freed
** memory. A view shares its parent's flag. */
#define LA_MAGIC 0x6c614d74u
static inline la_Mat *la_seen(la_Mat *A) {
  if ((A->flags & LA_EXT) && *la_gonep(A)) A->flags |= LA_CLOSED | LA_GONE;
  return A;
}

#define LA_AT(A, i, j) ((A)->data[(i) + (ptrdiff_t)(j) * (A)->ld])
#define LA_ATF(A, i, j) ((A)->fdata[(i) + (ptrdiff_t)(j) * (A)->ld])
#define LA_ATB(A, i, j) ((A)->bdata[(i) + (ptrdiff_t)(j) * (A)->ld])
/* A's storage, of any type (memset, memcpy, pointer tests) */
#define LA_DATA(A) ((A)->dtype == LA_F32 ? (void *)(A)->fdata : \
                    (A)->dtype == LA_BOOL ? (void *)(A)->bdata : (void *)(A)->data)
/* bytes an element of type dtype */
#define LA_ESIZE(dtype) ((dtype) == LA_F32 ? sizeof(float) : \
                         (dtype) == LA_BOOL ? (size_t)1 : sizeof(double))
/* element (i, j) of either type, as a double / set from one (a float32
** element goes through a double exactly: moving elements with these copies
** them bit for bit, and a product of two float32 values computed in double
** rounds to the float32 product); a bool element reads as 1.0 or 0.0 and is
** set true by any x ~= 0 (NaN included, as NumPy's bool(nan)) */
static inline double la_get(const la_Mat *A, int i, int j) {
  return A->dtype == LA_F32 ? (double)LA_ATF(A, i, j) :
         A->dtype == LA_BOOL ? (double)LA_ATB(A, i, j) : LA_AT(A, i, j);
}
static inline void la_put(la_Mat *A, int i, int j, double x) {
  if (A->dtype == LA_F32) LA_ATF(A, i, j) = (float)x;
  else if (A->dtype == LA_BOOL) LA_ATB(A, i, j) = x != 0;
  else LA_AT(A, i, j) = x;
}
/* no elements: loops over such a matrix's columns are skipped (a 0 x 2^31-1
** matrix is legal and must cost nothing) */
#define LA_EMPTY(A) ((A)->rows == 0 || (A)->cols == 0)

/* New m x n matrices (push 1): uninitialised, or zeros. la_newat takes the
** metatable from stack index mt (0: the registry, for the C API); la_new
** from upvalue 1. Out of memory is an error naming fname and the size. */
la_Mat *la_new(lua_State *L, const char *fname, lua_Integer m, lua_Integer n);
la_Mat *la_newat(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int mt);
la_Mat *la_newzero(lua_State *L, const char *fname, lua_Integer m, lua_Integer n);
la_Mat *la_newzerot(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int dtype);
/* of element type dtype (la_new is la_newt(..., LA_F64)) */
la_Mat *la_newt(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int dtype);
la_Mat *la_newatt(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int mt,
                  int dtype);
/* a packed copy of A (pushes 1), of A's type / of type dtype */
la_Mat *la_copyof(lua_State *L, const la_Mat *A, const char *fname);
la_Mat *la_convert(lua_State *L, const la_Mat *A, int dtype, const char *fname);
/* the dtype option of the options table at idx (0: none), def if absent;
** la_optdtypeb also takes "bool" */
int la_optdtype(lua_State *L, int idx, int def, const char *fname);
int la_optdtypeb(lua_State *L, int idx, int def, const char *fname);
/* B = A (same shape; B packed or a view, not overlapping A), element types
** converted; of one type, a memcpy a column */
void la_copyto(const la_Mat *A, la_Mat *B);
/* B (n x m, of A's type; packed or a view) = A^T (A m x n) */
void la_transposeto(const la_Mat *A, la_Mat *B);
/* every element of A (packed or a view, either type) set to x */
void la_fill(la_Mat *A, double x);
/* rows i..i+m-1, columns j..j+n-1 (0-based, in range) of A as a header by
** value: no Lua object, valid while A's storage is. Code written once for
** both types moves blocks with it and la_copyto / la_fill. */
la_Mat la_block(const la_Mat *A, int i, int j, int m, int n);
/* The options table of a function that makes a matrix: the last argument
** when it is a table at position first or later. Returns its dtype (def
** when absent; any other key is an error) and removes the table, so the
** positional arguments read as without it. */
int la_dtypeargs(lua_State *L, int first, int def, const char *fname);
/* the same where "bool" is a choice too (zeros, ones, full) */
int la_dtypeargsb(lua_State *L, int first, int def, const char *fname);

/* The float64 matrix at idx or NULL. la_checkarg: a matrix argument
** reported as argument argno; a Lua table is converted and replaces the
** argument (which keeps it anchored), and so is a float32 matrix (into a
** float64 copy: every function written for float64 computes a float32
** argument in float64); a closed matrix is an error. */
la_Mat *la_test(lua_State *L, int idx);
la_Mat *la_checkarg(lua_State *L, int idx, const char *fname, int argno);
la_Mat *la_check(lua_State *L, int idx, const char *fname);
/* the same for code written for both types: a matrix of either type */
la_Mat *la_testany(lua_State *L, int idx);
la_Mat *la_checkany(lua_State *L, int idx, const char *fname);
la_Mat *la_checkargany(lua_State *L, int idx, const char *fname, int argno);
/* a matrix of any type, bool included, as it is: for the functions that
** read bool matrices themselves (views, get/set, masks, comparisons).
** la_testany converts a bool matrix at idx into a float64 copy in its slot
** (a closed one into a closed copy); la_testmat leaves it. */
la_Mat *la_testmat(lua_State *L, int idx);
la_Mat *la_checkall(lua_State *L, int idx, const char *fname);
/* A matrix given as option `key` of an options table, at idx: the matrix
** (either type) or NULL when the value is none; a closed one is an error
** naming the option ("option 'mask' is a closed matrix"). */
la_Mat *la_testoptmat(lua_State *L, int idx, const char *fname, const char *key);
/* and for code written once for both types (src/generate.h): a matrix of
** type dtype, converted in place if it is of the other type */
la_Mat *la_checkt(lua_State *L, int idx, const char *fname, int dtype);
la_Mat *la_checkargt(lua_State *L, int idx, const char *fname, int argno, int dtype);
/* the type NumPy gives the matrices at first..first+n-1: LA_F32 when one
** is a float32 matrix and none a float64 one (tables and numbers do not
** vote); an entry point picks its float32 or float64 pass by it */
int la_argtype(lua_State *L, int first, int n);
/* a Lua list of matrices (or of tables of rows) at idx: a batch; with
** empty = 1 an empty list is one too */
int la_isbatch(lua_State *L, int idx, int empty);
/* The entry point l_name of a function written once (generate.h): runs
** l_name_s or l_name_d by la_argtype over its first nmat arguments. */
#define LA_TYPED(name, nmat) static int l_##name(lua_State *L) { \
    return la_argtype(L, 1, nmat) == LA_F32 ? l_##name##_s(L) : l_##name##_d(L); }
/* a square matrix argument (of type dtype) */
la_Mat *la_checksquare(lua_State *L, int idx, const char *fname);
la_Mat *la_checksquaret(lua_State *L, int idx, const char *fname, int dtype);

/* Pushes a view of rows i..i+m-1, columns j..j+n-1 (0-based) of P, the
** matrix at stack index 1, with leading dimension ld (P's, or a multiple for
** a column stride); the view keeps P alive in its user value 1. */
la_Mat *la_view(lua_State *L, la_Mat *P, int i, int j, int m, int n, int ld);

/* Element (i, j) (0-based) of A for the 1-based indices at stack indices 2
** and 3, or, with linear set, for the column-major linear index at 2 (so
** v(i) reads either vector orientation); out of range is an error. */
void la_element(lua_State *L, la_Mat *A, const char *fname, int linear, int *pi, int *pj);

/* Vectors: n x 1 or 1 x n. la_vec gives a vector argument's data, length
** and stride. la_rhs: an m x k right-hand side; a 1 x m row is read as a
** vector (replaced at idx by its column copy): the one place that rule is. */
int la_isvec(const la_Mat *A);
double *la_vec(lua_State *L, int idx, const char *fname, int *n, int *inc);
la_Mat *la_rhs(lua_State *L, int idx, const char *fname, int m);
la_Mat *la_rhst(lua_State *L, int idx, const char *fname, int m, int dtype);

/* NaN/Inf in A is an error naming the first such entry of `what`.
** required = 0 where the caller honours check_finite = false; 1 where
** LAPACK iterates on A (SVD, eigenvalues, NNLS) and NaN/Inf could stall it. */
/* 1 when every entry of A (either type) is finite; at once for an empty A */
int la_allfinite(const la_Mat *A);
void la_checkfinite(lua_State *L, const la_Mat *A, const char *fname,
                    const char *what, int required);
/* an error unless A is symmetric within sqrt(eps) of its largest entry */
void la_checksym(lua_State *L, const la_Mat *A, const char *fname);
/* both checks in one pass: first la_checkfinite(L, A, fname, "A", 0) when
** finite is set, then la_checksym */
void la_checksymfinite(lua_State *L, const la_Mat *A, const char *fname, int finite);

#endif
