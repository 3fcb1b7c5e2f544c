/*
** lio.c: matrices from and to raw bytes (the bulk of .npy input and
** output; headers are parsed by the Lua front).
*/
#include <stdint.h>
#include <string.h>

#include "helpers.h"

static int host_big(void) {
  const uint16_t one = 1;
  unsigned char c;
  memcpy(&c, &one, 1);
  return c == 0;
}

/* element k of the buffer as a double; size 4 or 8, kind 'f' or 'i' */
static double element_at(const unsigned char *p, int size, int kind, int swap) {
  unsigned char b[8];
  int i;
  for (i = 0; i < size; i++) b[i] = swap ? p[size - 1 - i] : p[i];
  if (kind == 'f' && size == 8) { double d; memcpy(&d, b, 8); return d; }
  if (kind == 'f') { float f; memcpy(&f, b, 4); return (double)f; }
  if (size == 8) { int64_t v; memcpy(&v, b, 8); return (double)v; }
  { int32_t v; memcpy(&v, b, 4); return (double)v; }
}

/* NumPy descrs frombuffer reads: byte order (none, <, >, = or |) times
** kind and size, in this order, so an index decodes as below. */
static const char *const dtypes[] = {
  "f8", "f4", "i8", "i4", "<f8", "<f4", "<i8", "<i4", ">f8", ">f4", ">i8", ">i4",
  "=f8", "=f4", "=i8", "=i4", "|f8", "|f4", "|i8", "|i4", NULL
};

/* frombuffer(s, rows, cols [, {dtype = "<f8", order = "C", offset = 0}]):
** dtype is NumPy's descr: byte order < > = or |, kind f or i, size 4 or 8;
** order "C" (rows first) or "F" (columns first). The string must hold
** exactly rows * cols elements after offset. */
static int l_frombuffer(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"dtype", "order", "offset", NULL};
  static const char *const orders[] = {"C", "F", NULL};
  size_t len, need, base;
  const unsigned char *s;
  int m, n, dt, fortran, size, kind, swap, i, j;
  double off;
  la_Mat *A;
  if (lua_type(L, 1) != LUA_TSTRING) la_typeerror(L, F, 1, "string");
  m = la_checksize(L, F, 2); n = la_checksize(L, F, 3);
  s = (const unsigned char *)lua_tolstring(L, 1, &len);
  la_checkopts(L, 4, F, keys);
  dt = la_optenum(L, 4, "dtype", 4, dtypes, F);
  fortran = la_optenum(L, 4, "order", 0, orders, F);
  off = la_optnum(L, 4, "offset", 0, F);
  size = dt % 2 ? 4 : 8;
  kind = dt % 4 < 2 ? 'f' : 'i';
  swap = (dt / 4 == 1 && host_big()) || (dt / 4 == 2 && !host_big());
  if (!(off >= 0) || off > (double)len || off != (double)(size_t)off)
    la_error(L, F, "offset %f outside the %d-byte buffer", off, (int)len);
  base = (size_t)off;
  need = (size_t)m * (size_t)n * (size_t)size;
  if ((size_t)m * (size_t)n > ((size_t)-1) / 8 || len - base != need)
    la_error(L, F, "%dx%d elements of %d bytes need %I bytes, the buffer holds %I",
             m, n, size, (lua_Integer)need, (lua_Integer)(len - base));
  A = la_new(L, F, m, n);
  for (j = 0; j < n && m > 0; j++)
    for (i = 0; i < m; i++) {
      size_t k = !fortran ? (size_t)i * n + j : (size_t)j * m + i;
      LA_AT(A, i, j) = element_at(s + base + k * size, size, kind, swap);
    }
  return 1;
}

/* tobytes(A): little-endian float64 in column-major (Fortran) order */
static int l_tobytes(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F);
  luaL_Buffer B;
  int i, j, k;
  luaL_buffinit(L, &B);
  for (j = 0; j < A->cols && A->rows > 0; j++)
    for (i = 0; i < A->rows; i++) {
      double d = LA_AT(A, i, j);
      uint64_t u;
      char b[8];
      memcpy(&u, &d, 8);
      for (k = 0; k < 8; k++) b[k] = (char)((u >> (8 * k)) & 0xff);
      luaL_addlstring(&B, b, 8);
    }
  luaL_pushresult(&B);
  return 1;
}

static const luaL_Reg funcs[] = {
  {"frombuffer", l_frombuffer}, {"tobytes", l_tobytes}, {NULL, NULL}
};

void la_open_bytes(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
