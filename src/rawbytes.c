/*
** rawbytes.c: matrices as raw element bytes, the helper layer under
** bytes.c (frombuffer, tobytes) and files.c (the .npy data of load_npy and
** save_npy, read into and written from the matrix with no Lua string
** between): NumPy's dtype names decoded, elements read in either byte
** order and kind, written little-endian, and runs of a file read into a
** new matrix.
*/
#define _POSIX_C_SOURCE 200809L   /* fseeko */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

int la_hostbig(void) {
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

/* Elements already in A's type and the host's byte order, at p (the
** string's bytes): one memcpy (order "F", any alignment) or one transpose
** ("C": the bytes are A^T, column-major). Bools are then made 0 or 1.
** Returns 0 where a transpose would read misaligned elements (the
** caller's element loop). */
static int bulk_in(la_Mat *A, const unsigned char *p, int fortran) {
  size_t es = LA_ESIZE(A->dtype), k, len = (size_t)A->rows * (size_t)A->cols;
  unsigned char *b = A->bdata;
  if (len == 0) return 1;
  if (fortran || A->rows == 1 || A->cols == 1) {
    lak_copybytes(LA_DATA(A), p, len * es);   /* A is new: ld = rows; any alignment */
  } else {
    if ((uintptr_t)p % es != 0) return 0; /* the transpose reads elements */
    la_Mat S;                             /* the bytes as A^T, read only */
    memset(&S, 0, sizeof S);
    S.rows = A->cols; S.cols = A->rows; S.ld = A->cols; S.dtype = A->dtype;
    S.data = (double *)(uintptr_t)p; S.fdata = (float *)(uintptr_t)p;
    S.bdata = (unsigned char *)(uintptr_t)p;
    if (A->dtype != LA_F64) S.data = NULL;
    if (A->dtype != LA_F32) S.fdata = NULL;
    if (A->dtype != LA_BOOL) S.bdata = NULL;
    la_transposeto(&S, A);
  }
  if (A->dtype == LA_BOOL)
    for (k = 0; k < len; k++) b[k] = b[k] != 0;
  return 1;
}

/* NumPy descrs frombuffer reads: byte order (none, <, >, = or |) times
** kind and size, in this order, so an index decodes as below; then NumPy's
** names "float64" and "float32" (native order, as np.frombuffer reads them),
** which decode as the first two. */
const char *const la_rawdtypes[] = {
  "f8", "f4", "i8", "i4", "<f8", "<f4", "<i8", "<i4", ">f8", ">f4", ">i8", ">i4",
  "=f8", "=f4", "=i8", "=i4", "|f8", "|f4", "|i8", "|i4", "float64", "float32",
  "b1", "|b1", "<b1", ">b1", "=b1", "bool", NULL
};
#define NAMED 20    /* the index of "float64" */
#define BOOL 22     /* the first of the bool ones: bytes 0 or 1 (any other byte reads true) */

/* A dtypes index decoded: *size bytes an element (1: bool), *kind 'f' or
** 'i', *swap when the bytes are in the other order than the host's;
** returns A's type */
int la_rawdecode(int dt, int *size, int *kind, int *swap) {
  if (dt >= BOOL) dt = -1;
  else if (dt >= NAMED) dt -= NAMED;
  *size = dt < 0 ? 1 : dt % 2 ? 4 : 8;
  *kind = dt % 4 < 2 ? 'f' : 'i';
  *swap = (dt / 4 == 1 && la_hostbig()) || (dt / 4 == 2 && !la_hostbig());
  return *size == 1 ? LA_BOOL : *kind == 'f' && *size == 4 ? LA_F32 : LA_F64;
}

/* A (new) from its elements at s, C order (rows first) or Fortran's, as
** decode read the dtype */
void la_rawfill(la_Mat *A, const unsigned char *s, int size, int kind, int swap,
                 int fortran) {
  int i, j, m = A->rows, n = A->cols;
  if ((kind == 'f' || size == 1) && !swap && bulk_in(A, s, fortran)) return;
  for (j = 0; j < n && m > 0; j++)
    for (i = 0; i < m; i++) {
      size_t k = !fortran ? (size_t)i * n + j : (size_t)j * m + i;
      if (size == 1) LA_ATB(A, i, j) = s[k] != 0;
      else la_put(A, i, j, element_at(s + k * size, size, kind, swap));
    }
}

/* element (i, j) of A as `size` little-endian bytes at b (8: float64, 4:
** float32, 1: bool) */
void la_rawput(const la_Mat *A, int i, int j, char *b) {
  uint64_t u;
  int k, size = (int)LA_ESIZE(A->dtype);
  if (size == 1) {
    u = LA_ATB(A, i, j);
  } else if (size == 4) {
    uint32_t w;
    memcpy(&w, &LA_ATF(A, i, j), 4);
    u = w;
  } else {
    memcpy(&u, &LA_AT(A, i, j), 8);
  }
  for (k = 0; k < size; k++) b[k] = (char)((u >> (8 * k)) & 0xff);
}

/* reads len bytes at byte pos of f to p: NULL, or what went wrong */
static const char *readat(FILE *f, lua_Integer pos, void *p, size_t len) {
  if (fseeko(f, (off_t)pos, SEEK_SET) != 0) return strerror(errno);
  if (fread(p, 1, len, f) == len) return NULL;
  return ferror(f) ? strerror(errno) : "the file changed while being read";
}

const char *la_readmatrix(lua_State *L, const char *fname, FILE *f, int k, int n, int dt,
                          int fortran, lua_Integer start, lua_Integer stride) {
  int size, kind, swap, j, direct;
  size_t run, len, i;
  unsigned char *p;
  la_Mat *A;
  const char *err = NULL;
  A = la_newt(L, fname, k, n, la_rawdecode(dt, &size, &kind, &swap));
  run = (size_t)k * (stride > 0 ? 1 : (size_t)n) * (size_t)size;
  len = (size_t)k * (size_t)n * (size_t)size;
  if (len == 0) return NULL;
  /* straight into A where its bytes are the file's (columns first, or
  ** one row or column), else through scratch, converted as frombuffer */
  direct = (kind == 'f' || size == 1) && !swap && (fortran || k == 1 || n == 1);
  if (direct) {
    p = (unsigned char *)LA_DATA(A);
  } else {
    p = LA_SCRATCH(L, unsigned char, len);
    lua_insert(L, -2);                      /* A on top again */
  }
  for (j = 0; (size_t)j * run < len && err == NULL; j++)
    err = readat(f, start + (lua_Integer)j * stride, p + (size_t)j * run, run);
  if (err != NULL) return err;
  if (!direct) la_rawfill(A, p, size, kind, swap, fortran);
  else if (size == 1) for (i = 0; i < len; i++) p[i] = p[i] != 0;
  return NULL;
}

const char *la_writematrix(FILE *f, const la_Mat *A) {
  size_t size = LA_ESIZE(A->dtype), col = (size_t)A->rows * size;
  const unsigned char *p = (const unsigned char *)LA_DATA(A);
  int i, j;
  if (A->rows == 0 || A->cols == 0) return NULL;
  if (!la_hostbig() && (A->ld == A->rows || A->cols == 1)) {  /* the storage is the bytes */
    col *= (size_t)A->cols;
    return fwrite(p, 1, col, f) == col ? NULL : strerror(errno);
  }
  if (!la_hostbig()) {                        /* a view: its columns */
    for (j = 0; j < A->cols; j++)
      if (fwrite(p + (size_t)j * (size_t)A->ld * size, 1, col, f) != col) return strerror(errno);
    return NULL;
  }
  for (j = 0; j < A->cols; j++)
    for (i = 0; i < A->rows; i++) {
      char b[8];
      la_rawput(A, i, j, b);
      if (fwrite(b, 1, size, f) != size) return strerror(errno);
    }
  return NULL;
}
