/*
** bytes.c: frombuffer and tobytes, matrices from and to raw bytes (the
** bulk of .npy input and output; headers are parsed by the Lua front).
** float32 stays float32 both ways, and bool (one byte) too; integers are
** read into float64. The bytes themselves: rawbytes.c.
*/
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* frombuffer(s, rows, cols [, {dtype = "<f8", order = "C", offset = 0}]):
** dtype is NumPy's descr: byte order < > = or |, kind f or i, size 4 or 8,
** or "float64" / "float32", or a bool's b1 (any order mark) or "bool";
** order "C" (rows first) or "F" (columns first). The string must hold
** exactly rows * cols elements after offset. f4 gives a float32 matrix, f8
** and the integers a float64 one, b1 a bool one. */
static int l_frombuffer(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"dtype", "order", "offset", NULL};
  static const char *const orders[] = {"C", "F", NULL};
  size_t len, need, base;
  const unsigned char *s;
  int m, n, dtype, fortran, size, kind, swap;
  double off;
  if (lua_type(L, 1) != LUA_TSTRING) la_typeerror(L, F, 1, "string");
  m = la_checksize(L, F, 2); n = la_checksize(L, F, 3);
  s = (const unsigned char *)lua_tolstring(L, 1, &len);
  la_checkopts(L, 4, F, keys);
  dtype = la_rawdecode(la_optenum(L, 4, "dtype", 4, la_rawdtypes, F), &size, &kind, &swap);
  fortran = la_optenum(L, 4, "order", 0, orders, F);
  off = la_optnum(L, 4, "offset", 0, F);
  if (!(off >= 0) || off > (double)len || off != (double)(size_t)off)
    la_error(L, F, "offset %f outside the %d-byte buffer", off, (int)len);
  base = (size_t)off;
  need = (size_t)m * (size_t)n * (size_t)size;
  if ((size_t)m * (size_t)n > ((size_t)-1) / 8)   /* need wrapped: the count in double */
    la_error(L, F, "%dx%d elements of %d bytes need %f bytes, the buffer holds %I",
             m, n, size, (double)m * (double)n * (double)size, (lua_Integer)(len - base));
  if (len - base != need)
    la_error(L, F, "%dx%d elements of %d bytes need %I bytes, the buffer holds %I",
             m, n, size, (lua_Integer)need, (lua_Integer)(len - base));
  la_rawfill(la_newt(L, F, m, n, dtype), s + base, size, kind, swap, fortran);
  return 1;
}

/* tobytes(A): little-endian elements of A's type (float64: 8 bytes,
** float32: 4, bool: 1, 0 or 1) in column-major (Fortran) order */
static int l_tobytes(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  size_t size = LA_ESIZE(A->dtype), len = (size_t)A->rows * (size_t)A->cols * size;
  luaL_Buffer B;
  int i, j;
  if (!la_hostbig()) {                    /* the storage is the answer */
    /* a Lua string is in the heap whatever la_extfloor says: its step from
    ** 128 KiB (64 under 5.4's generational collector), measured there
    ** (compat.h), or the specs' LINALG_EXTERNAL_MIN;
    ** right before the string, after any scratch (whose own step would
    ** undo a step paid ahead) */
    if (A->ld == A->rows || A->cols <= 1) {
      la_bigstring(L, len);
      lua_pushlstring(L, len ? (const char *)LA_DATA(A) : "", len);
    } else {                              /* a view: its columns packed */
      void *p = LA_SCRATCH(L, unsigned char, len);
      lak_copycols(size, A->rows, A->cols, LA_DATA(A), A->ld, p, A->rows);
      la_bigstring(L, len);
      lua_pushlstring(L, (const char *)p, len);
    }
    return 1;
  }
  luaL_buffinit(L, &B);
  for (j = 0; j < A->cols && A->rows > 0; j++)
    for (i = 0; i < A->rows; i++) {
      char b[8];
      la_rawput(A, i, j, b);
      luaL_addlstring(&B, b, size);
    }
  luaL_pushresult(&B);
  return 1;
}

static const la_Reg funcs[] = {
  {"frombuffer", l_frombuffer, 3 + LA_OPTS}, {"tobytes", l_tobytes, 1}, {NULL, NULL, 0}
};

void la_open_bytes(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
