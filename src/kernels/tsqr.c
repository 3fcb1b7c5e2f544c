/*
** kernels/tsqr.c: the mergeable least-squares state (no Lua here).
** A state for n unknowns and k right-hand sides holds what a fit needs from
** the rows seen so far: the n x n triangle R of the rows' QR, C = Q^T b
** (n x k), the residual sums of squares of the rows folded out, and the row
** count. Rows are folded in h at a time with dtpqrt (the QR of [R; block],
** which uses R's structure: 2 h n^2 flops a step, as for one big QR) while
** dtpmqrt applies the same Q^T to the right-hand sides; the block's rows of
** the right-hand sides then hold what no x can reach. Two states merge by
** the same step with the second triangle as the block (dtpqrt with l = n).
** The serialized form is little-endian and checksummed (see lak_lsq_decode).
** The state's arithmetic is written once (tsqr_gen.h) for double (lak_lsq_*,
** dtpqrt) and float (lak_slsq_*, stpqrt: lstsq's tall float32 path); the
** serialized state, which la.lsq_state and the MPI module exchange, is
** double only.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "kernels.h"

#define NB 32   /* inner block size of dtpqrt */

static int nbof(int n) { return n < NB ? (n > 0 ? n : 1) : NB; }

/* Rows per step: the h x (n + k) block near 1 MiB (half an L2 here), at
** least n (dtpqrt's efficiency) and never more than the m rows there are. */
int lak_tsqr_rows(int64_t m, int n, int k) {
  int64_t h = 131072 / ((int64_t)n + k > 0 ? (int64_t)n + k : 1);
  if (h < n) h = n;
  if (h > m) h = m;
  return h > 0 ? (int)h : 1;
}

size_t lak_tsqr_work(int64_t m, int n, int k) {
  size_t h = (size_t)lak_tsqr_rows(m, n, k), nb = (size_t)nbof(n);
  size_t mx = (size_t)(n > k ? n : k);
  return h * ((size_t)n + (size_t)k) + nb * (size_t)n + nb * mx;
}

size_t lak_lsq_merge_work(int n, int k) {
  size_t nb = (size_t)nbof(n), mx = (size_t)(n > k ? n : k);
  return (size_t)n * ((size_t)n + (size_t)k) + nb * (size_t)n + nb * mx;
}

/* lak_lsq_* (double) and lak_slsq_* (float) */
#define LAK_GENERIC_FILE "tsqr_gen.h"
#include "generate.h"

/* ------------------------------------------------------------ bytes
** Version 1, all little-endian:
**   0  "LSQS"   4 bytes
**   4  version  u32 (1)
**   8  n        u32 (<= INT_MAX)
**  12  k        u32 (<= INT_MAX)
**  16  rows     u64 (<= INT64_MAX)
**  24  R's upper triangle column by column (n (n + 1) / 2 doubles), C column
**      by column (n k doubles), rss (k doubles): IEEE 754 binary64
** end  FNV-1a 64 of every byte before it, u64
*/
#define HDR 24

static uint64_t fnv(const unsigned char *p, size_t len) {
  uint64_t h = 14695981039346656037u;
  size_t i;
  for (i = 0; i < len; i++) { h ^= p[i]; h *= 1099511628211u; }
  return h;
}

static void put64(unsigned char *p, uint64_t v) {
  int i;
  for (i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p) {
  uint64_t v = 0;
  int i;
  for (i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static void put32(unsigned char *p, uint32_t v) {
  int i;
  for (i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void putd(unsigned char *p, double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  put64(p, v);
}

static double getd(const unsigned char *p) {
  uint64_t v = get64(p);
  double d;
  memcpy(&d, &v, 8);
  return d;
}

/* doubles stored for n, k (no overflow for n, k <= INT_MAX) */
static uint64_t ndoubles(uint64_t n, uint64_t k) {
  return n * (n + 1) / 2 + n * k + k;
}

size_t lak_lsq_bytes(int n, int k) {
  return HDR + 8 * (size_t)ndoubles((uint64_t)n, (uint64_t)k) + 8;
}

void lak_lsq_encode(const lak_Lsq *s, unsigned char *p) {
  unsigned char *q = p + HDR;
  size_t c;
  int i, j;
  memcpy(p, "LSQS", 4);
  put32(p + 4, LAK_LSQ_VERSION);
  put32(p + 8, (uint32_t)s->n);
  put32(p + 12, (uint32_t)s->k);
  put64(p + 16, (uint64_t)s->rows);
  for (j = 0; j < s->n; j++)
    for (i = 0; i <= j; i++, q += 8) putd(q, s->R[i + (ptrdiff_t)j * s->n]);
  for (c = 0; c < (size_t)s->n * (size_t)s->k; c++, q += 8) putd(q, s->C[c]);
  for (j = 0; j < s->k; j++, q += 8) putd(q, s->rss[j]);
  put64(q, fnv(p, (size_t)(q - p)));
}

const char *lak_lsq_header(const unsigned char *p, size_t len, int *n, int *k) {
  uint32_t v, nn, kk;
  if (len < 4 || memcmp(p, "LSQS", 4) != 0) return "not a serialized lsq_state (bad magic)";
  if (len < HDR + 8) return "truncated header";
  v = get32(p + 4);
  if (v != LAK_LSQ_VERSION) return "unsupported version";
  nn = get32(p + 8); kk = get32(p + 12);
  if (nn > 0x7fffffffu || kk > 0x7fffffffu) return "n or k out of range";
  if ((len - HDR - 8) % 8 != 0 || (uint64_t)(len - HDR - 8) / 8 != ndoubles(nn, kk))
    return "length does not match n and k (truncated or padded)";
  if (fnv(p, len - 8) != get64(p + len - 8)) return "checksum mismatch (corrupted)";
  *n = (int)nn; *k = (int)kk;
  return NULL;
}

const char *lak_lsq_decode(const unsigned char *p, lak_Lsq *s) {
  const unsigned char *q = p + HDR;
  uint64_t rows = get64(p + 16);
  size_t c;
  int i, j, zero = 1;
  if (rows > (uint64_t)INT64_MAX) return "row count out of range";
  lak_lsq_clear(s);
  s->rows = (int64_t)rows;
  for (j = 0; j < s->n; j++)
    for (i = 0; i <= j; i++, q += 8) s->R[i + (ptrdiff_t)j * s->n] = getd(q);
  for (c = 0; c < (size_t)s->n * (size_t)s->k; c++, q += 8) s->C[c] = getd(q);
  for (j = 0; j < s->k; j++, q += 8) {
    s->rss[j] = getd(q);
    if (!(s->rss[j] >= 0)) return "negative or NaN residual sum";
  }
  if (!lak_lsq_finite(s)) return "NaN or Inf in the state";
  for (c = 0; c < (size_t)s->n * (size_t)s->n && zero; c++) zero = s->R[c] == 0;
  for (c = 0; c < (size_t)s->n * (size_t)s->k && zero; c++) zero = s->C[c] == 0;
  for (j = 0; j < s->k && zero; j++) zero = s->rss[j] == 0;
  if (rows == 0 && !zero) return "a state with no rows holds nonzero data";
  return NULL;
}
