/*
** linalg.h: the C API of linalg for applications that embed Lua.
**
** Matrices are dense float64 (or float32, below), column-major: element (i, j) (0-based) of a
** matrix with leading dimension ld is data[i + j * ld], ld >= max(1, rows).
**
** Ordering rule: load the module before calling any function below, e.g.
**     luaL_requiref(L, "linalg.core", luaopen_linalg_core, 0); lua_pop(L, 1);
** or run `require "linalg"` from Lua. Until then no matrix metatable exists
** and the functions below raise a Lua error ("linalg: module not loaded").
** All of them may raise Lua errors (memory, bad arguments): call them from
** a protected context (lua_pcall) as for any lauxlib function.
*/
#ifndef LINALG_H
#define LINALG_H

#include <lua.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define LINALG_API __declspec(dllexport)
#elif defined(__GNUC__)
#define LINALG_API __attribute__((visibility("default")))
#else
#define LINALG_API
#endif

/* Name of the matrix metatable in the registry (also its __name). */
#define LINALG_MATRIX "linalg.matrix"

/* Version of the module (also la.version). */
#define LINALG_VERSION "0.3.0"

/* Opens the C core and returns its table (what require "linalg.core" gives).
** The friendly front end is the Lua module "linalg", which requires this. */
LINALG_API int luaopen_linalg_core(lua_State *L);

/* Pushes a new rows x cols matrix. If src is not NULL its elements are
** copied from src (column-major, leading dimension ld_src >= rows);
** otherwise the matrix is zero-filled. Returns the new matrix's data, whose
** leading dimension is max(1, rows); it stays valid while the matrix is
** reachable from Lua (keep it on the stack or in a variable). */
LINALG_API double *linalg_pushmatrix(lua_State *L, int rows, int cols,
                                     const double *src, int ld_src);

/* Borrows the matrix at stack index idx: returns its data and stores its
** shape and leading dimension (any of the out pointers may be NULL). A view
** shares memory with its parent, so ld may exceed rows. Raises a Lua error
** if the value is not a matrix. The pointer is valid while the value is. */
LINALG_API double *linalg_checkmatrix(lua_State *L, int idx, int *rows,
                                      int *cols, int *ld);

/* Like linalg_checkmatrix but returns NULL instead of raising. */
LINALG_API double *linalg_testmatrix(lua_State *L, int idx, int *rows,
                                     int *cols, int *ld);

/* float32 matrices (A:astype("float32"), {dtype = "float32"}): the same
** three functions with float elements. The float64 functions above see
** float64 matrices only: linalg_testmatrix gives NULL for a float32 matrix
** and linalg_checkmatrix raises "float64 matrix expected, got a float32
** matrix"; the float32 ones likewise. */
LINALG_API float *linalg_pushmatrixf(lua_State *L, int rows, int cols,
                                     const float *src, int ld_src);
LINALG_API float *linalg_checkmatrixf(lua_State *L, int idx, int *rows,
                                      int *cols, int *ld);
LINALG_API float *linalg_testmatrixf(lua_State *L, int idx, int *rows,
                                     int *cols, int *ld);

/* "float64", "float32" or "bool" for a matrix at idx, NULL for anything
** else. A bool matrix (one byte an element, what comparisons return) has
** no pointer functions here: convert it with A:astype("float64"). */
LINALG_API const char *linalg_dtype(lua_State *L, int idx);

#ifdef __cplusplus
}
#endif

#endif
