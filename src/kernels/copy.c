/*
** kernels/copy.c: copies of matrices column by column (a view's columns
** are apart in memory), for elements of 8 bytes (float64), 4 (float32) or
** 1 (bool):
** straight, with the columns in reverse order, rotated, or reversed (each
** column's b[i] = a[-i], which GCC vectorizes at -O3 with a lane-reversing
** permute, vpermpd / vpermps, after each load).
** A straight column is glibc's memcpy, except in one band where a plain
** loop compiled for AVX-512, AVX2 and SSE2 (LAK_CLONES, loops.h) is
** faster, and at the offsets where memcpy is slow (lak_copybytes below);
** reversed columns are always that loop. Measured on
** A:sub(2, m+1, 2, n+1):copy() and la.vstack (glibc 2.36, AVX-512 EPYC,
** microseconds): memcpy is faster whenever the copy fits the caches (100
** x 100: 1.9 against 2.6; 16-row columns: 57 against 101 for 100,000
** entries) and for large copies of short or long columns (1000 x 1000
** vstack to 2000 x 1000: 400 against 600, NumPy 420; 64 rows: 474
** against 988), but not for large copies of columns of 768 to 2048 bytes
** (128 rows: 1113 against 728), the band MIDCOL below.
** A take (rows and columns by index lists) gathers each column; lak_kron
** (the one kernel here that computes: products, as a scalar loop would)
** writes each column of a Kronecker product in one pass.
** Exact: values are moved, never computed (but by lak_kron).
*/
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "loops.h"

/* the band of column lengths (bytes) where large copies take the loop */
#define MIDCOL_LO 640
#define MIDCOL_HI 2560

#define COPYCOL(name, T) \
  LAK_CLONES static void name(size_t m, const T *restrict a, T *restrict b) { \
    size_t i; \
    for (i = 0; i < m; i++) b[i] = a[i]; \
  }
COPYCOL(col_d, double)
COPYCOL(col_s, float)
COPYCOL(col_b, unsigned char)

#define REVCOL(name, T) \
  LAK_CLONES static void name(size_t m, const T *restrict e, T *restrict b) { \
    size_t i; \
    for (i = 0; i < m; i++) b[i] = *(e - i); \
  }
REVCOL(rev_d, double)
REVCOL(rev_s, float)
REVCOL(rev_b, unsigned char)

/* b[i] = a[r[i]]: a gather (AVX-512 and AVX2 have one for 32-bit indices) */
#define TAKECOL(name, T) \
  LAK_CLONES static void name(size_t m, const T *restrict a, const int *restrict r, T *restrict b) { \
    size_t i; \
    for (i = 0; i < m; i++) b[i] = a[r[i]]; \
  }
TAKECOL(take_d, double)
TAKECOL(take_s, float)
TAKECOL(take_b, unsigned char)

/* a[r[i]] = b[i * bs] (bs 0 or 1): a scatter; repeated indices in order,
** so the last write wins (NumPy's rule) */
#define PUTCOL(name, T) \
  LAK_CLONES static void name(size_t m, T *restrict a, const int *restrict r, \
                              const T *restrict b, size_t bs) { \
    size_t i; \
    if (bs) for (i = 0; i < m; i++) a[r[i]] = b[i]; \
    else for (i = 0; i < m; i++) a[r[i]] = b[0]; \
  }
PUTCOL(put_d, double)
PUTCOL(put_s, float)
PUTCOL(put_b, unsigned char)

/* m copies of the element at x (es bytes) from a */
#define FILLCOL(name, T) \
  LAK_CLONES static void name(size_t m, T *restrict a, T x) { \
    size_t i; \
    for (i = 0; i < m; i++) a[i] = x; \
  }
FILLCOL(fill_d, double)
FILLCOL(fill_s, float)

void lak_fillcol(size_t es, size_t m, void *a, const void *x) {
  if (es == sizeof(double)) { double v; memcpy(&v, x, sizeof v); fill_d(m, (double *)a, v); }
  else if (es == sizeof(float)) { float v; memcpy(&v, x, sizeof v); fill_s(m, (float *)a, v); }
  else memset(a, *(const unsigned char *)x, m);
}

/* c[i * mb + r] = a[i] * b[r]: a column of a Kronecker product */
#define KRONCOL(name, T) \
  LAK_CLONES static void name(size_t ma, size_t mb, const T *restrict a, const T *restrict b, \
                              T *restrict c) { \
    size_t i, r; \
    for (i = 0; i < ma; i++, c += mb) { \
      T x = a[i]; \
      for (r = 0; r < mb; r++) c[r] = x * b[r]; \
    } \
  }
KRONCOL(kron_d, double)
KRONCOL(kron_s, float)

/* column j of A to column (rev ? n-1-j : j) of B; A walked in memory order */
#define COPYCOLS(name, T, col) \
  static void name(int m, int n, const T *A, ptrdiff_t lda, T *B, ptrdiff_t ldb, int rev) { \
    int j; \
    for (j = 0; j < n; j++) col((size_t)m, A + j * lda, B + (rev ? n - 1 - j : j) * ldb); \
  }
COPYCOLS(cols_d, double, col_d)
COPYCOLS(cols_s, float, col_s)
COPYCOLS(cols_b, unsigned char, col_b)

/* glibc 2.36's memcpy (rep movsb from 2 to 4 KiB on this AMD EPYC) is 16
** to 30 times slower when the destination is 1 to 15 bytes past the source
** modulo 4096 (3988 bytes: 1108 against 42 ns; 8000: 2215 against 75; 80
** KB: 23 against 1.4 us), and 2 to 2.5 times at 16 to 31: la.roll(A, 1, 1)
** copied every column so (1000 x 1000 float32: 1970 us, NumPy 131). At
** offsets 1 to ALIAS_HI, from 1 KiB (below, memcpy is as fast at any
** offset), the bytes go by 64 at a time: 35 ns for 3988 bytes under
** AVX-512, 68 with 16-byte moves (SSE2, and GCC's AVX2 clone too), against
** memcpy's 1108. Elsewhere memcpy is as fast or faster. */
#define ALIAS_HI 31
typedef unsigned char lak_b64 __attribute__((vector_size(64), aligned(1), may_alias));
LAK_CLONES static void moves64(unsigned char *restrict d, const unsigned char *restrict s,
                               size_t n) {
  size_t i;
  for (i = 0; i + 64 <= n; i += 64) *(lak_b64 *)(d + i) = *(const lak_b64 *)(s + i);
  memcpy(d + i, s + i, n - i);
}

void lak_copybytes(void *dst, const void *src, size_t n) {
  size_t off = ((uintptr_t)dst - (uintptr_t)src) & 4095;
  if (off != 0 && off <= ALIAS_HI && n >= 1024) moves64((unsigned char *)dst, (const unsigned char *)src, n);
  else memcpy(dst, src, n);
}

/* memcpy for columns of m entries of es bytes, in a copy of total bytes */
static int bymemcpy(size_t es, int m, size_t total) {
  size_t col = (size_t)m * es;
  return total < LAK_STREAM_MIN || col < MIDCOL_LO || col > MIDCOL_HI;
}

/* as COPYCOLS; total: the bytes of the whole copy this is part of */
static void cols(size_t es, int m, int n, const void *A, int lda, void *B, int ldb, int rev,
                 size_t total) {
  if (m <= 0 || n <= 0) return;
  if (bymemcpy(es, m, total)) {
    size_t ca = (size_t)lda * es, cb = (size_t)ldb * es, col = (size_t)m * es;
    const char *a = (const char *)A;
    char *b = (char *)B;
    int j;
    for (j = 0; j < n; j++, a += ca) lak_copybytes(b + (size_t)(rev ? n - 1 - j : j) * cb, a, col);
    return;
  }
  if (es == sizeof(double)) cols_d(m, n, (const double *)A, lda, (double *)B, ldb, rev);
  else if (es == sizeof(float)) cols_s(m, n, (const float *)A, lda, (float *)B, ldb, rev);
  else cols_b(m, n, (const unsigned char *)A, lda, (unsigned char *)B, ldb, rev);
}

static size_t bytes(size_t es, int m, int n) { return es * (size_t)m * (size_t)n; }

void lak_copycols(size_t es, int m, int n, const void *A, int lda, void *B, int ldb) {
  cols(es, m, n, A, lda, B, ldb, 0, bytes(es, m, n));
}

void lak_fliplr(size_t es, int m, int n, const void *A, int lda, void *B, int ldb) {
  cols(es, m, n, A, lda, B, ldb, 1, bytes(es, m, n));
}

/* B = A with each column rotated down by s (0 <= s < m): B(i, j) = A((i -
** s) mod m, j), one column at a time (both pieces while it is in cache) */
void lak_rollud(size_t es, int m, int n, int s, const void *A, int lda, void *B, int ldb) {
  const char *a = (const char *)A;
  char *b = (char *)B;
  size_t ca = (size_t)lda * es, cb = (size_t)ldb * es, total = bytes(es, m, n);
  int j;
  if (m <= 0 || n <= 0) return;
  for (j = 0; j < n; j++, a += ca, b += cb) {
    cols(es, m - s, 1, a, lda, b + (size_t)s * es, ldb, 0, total);
    cols(es, s, 1, a + (size_t)(m - s) * es, lda, b, ldb, 0, total);
  }
}

/* B = A with each column reversed, B(i, j) = A(m-1-i, j) (e: the last
** entry of A's column j) */
void lak_flipud(size_t es, int m, int n, const void *A, int lda, void *B, int ldb) {
  int j;
  if (m <= 0 || n <= 0) return;
  for (j = 0; j < n; j++) {
    if (es == sizeof(double))
      rev_d((size_t)m, (const double *)A + (ptrdiff_t)j * lda + (m - 1), (double *)B + (ptrdiff_t)j * ldb);
    else if (es == sizeof(float))
      rev_s((size_t)m, (const float *)A + (ptrdiff_t)j * lda + (m - 1), (float *)B + (ptrdiff_t)j * ldb);
    else
      rev_b((size_t)m, (const unsigned char *)A + (ptrdiff_t)j * lda + (m - 1),
            (unsigned char *)B + (ptrdiff_t)j * ldb);
  }
}

/* B(i, j) = A(r[i], c[j]), or A(r0 + i, c[j]) when r is NULL: NumPy's
** A[r][:, c] (repeated indices allowed); contiguous rows by cols() */
void lak_take(size_t es, int m, int n, const void *A, int lda, const int *r, int r0,
              const int *c, void *B, int ldb) {
  const char *a = (const char *)A;
  char *b = (char *)B;
  size_t ca = (size_t)lda * es, cb = (size_t)ldb * es, total = bytes(es, m, n);
  int j;
  if (m <= 0 || n <= 0) return;
  for (j = 0; j < n; j++, b += cb) {
    const char *col = a + (size_t)c[j] * ca;
    const void *cv = col;
    void *bv = b;
    if (!r) cols(es, m, 1, col + (size_t)r0 * es, lda, b, ldb, 0, total);
    else if (es == sizeof(double)) take_d((size_t)m, (const double *)cv, r, (double *)bv);
    else if (es == sizeof(float)) take_s((size_t)m, (const float *)cv, r, (float *)bv);
    else take_b((size_t)m, (const unsigned char *)cv, r, (unsigned char *)bv);
  }
}

/* A(r[i], c[j]) = B(i, j) (rows r0 + i where r is NULL), B's entry (i, j)
** at B + i * rs + j * cs, rs 0 or 1 (a broadcast row: rs = 0); in order of
** j, then i, so the last of repeated indices wins */
void lak_put(size_t es, int m, int n, void *A, int lda, const int *r, int r0, const int *c,
             const void *B, int rs, ptrdiff_t cs) {
  char *a = (char *)A;
  const char *b = (const char *)B;
  size_t ca = (size_t)lda * es;
  int j;
  if (m <= 0 || n <= 0) return;
  for (j = 0; j < n; j++, b += cs * (ptrdiff_t)es) {
    char *col = a + (size_t)c[j] * ca;
    void *cv = col;
    const void *bv = b;
    if (!r && rs) cols(es, m, 1, b, 0, col + (size_t)r0 * es, 0, 0, 0);
    else if (!r) lak_fillcol(es, (size_t)m, col + (size_t)r0 * es, b);
    else if (es == sizeof(double)) put_d((size_t)m, (double *)cv, r, (const double *)bv, (size_t)rs);
    else if (es == sizeof(float)) put_s((size_t)m, (float *)cv, r, (const float *)bv, (size_t)rs);
    else put_b((size_t)m, (unsigned char *)cv, r, (const unsigned char *)bv, (size_t)rs);
  }
}

/* C = kron(A, B), A ma x na, B mb x nb, C (ma mb) x (na nb), one type
** (f32: float, else double): column j nb + s of C is kron(A(:, j), B(:, s)) */
void lak_kron(int f32, int ma, int na, const void *A, int lda, int mb, int nb, const void *B,
              int ldb, void *C, int ldc) {
  int j, s;
  size_t es = f32 ? sizeof(float) : sizeof(double);
  const char *a = (const char *)A, *b = (const char *)B;
  char *c = (char *)C;
  for (j = 0; j < na; j++)
    for (s = 0; s < nb; s++) {
      const char *aj = a + (size_t)j * (size_t)lda * es, *bs = b + (size_t)s * (size_t)ldb * es;
      char *cc = c + ((size_t)j * (size_t)nb + (size_t)s) * (size_t)ldc * es;
      const void *av = aj, *bv = bs;
      void *cv = cc;
      if (f32) kron_s((size_t)ma, (size_t)mb, (const float *)av, (const float *)bv, (float *)cv);
      else kron_d((size_t)ma, (size_t)mb, (const double *)av, (const double *)bv, (double *)cv);
    }
}
