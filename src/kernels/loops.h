/*
** kernels/loops.h: the loop shapes of the broadcasting elementwise kernels
** (kernels/arith.c, kernels/elementwise.c), as NumPy's ufunc loops have
** them: a column is walked by one of a few loops written for the common
** strides (every operand moves by one, or some stay on one number: a
** scalar or a broadcast row), each a plain loop with no branch in its body
** that the compiler vectorizes, and a strided loop for anything else. A
** matrix whose operands are all contiguous (or fixed) is one long column.
** The loops are compiled for AVX2 and baseline SSE2 (AVX-512 too where an
** element costs work) and chosen at load time (LAK_CLONES_MEM, LAK_CLONES:
** GCC on x86-64 glibc). The result never overlaps an
** operand (restrict): the callers write fresh matrices.
*/
#ifndef LAK_LOOPS_H
#define LAK_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

#if LAK_GNU_X86
#define LAK_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
/* Streaming loops (a load or two, one operation, a store an element) stop
** at AVX2: past the caches they wait on memory whatever the width, and
** there 512-bit stores were slower (AMD Zen 4: abs of 1e6 doubles 197 us
** against AVX2's 179, in L3 with huge pages; GCC's tuning for Intel's
** AVX-512 cores prefers 256-bit vectors too). The wide clones stay where
** an element costs work: libmvec's 8-lane functions, sqrt, division,
** reductions. */
#define LAK_CLONES_MEM __attribute__((target_clones("avx2", "default")))
/* the same where the loop calls fma: AVX2 machines have it, but GCC's
** "avx2" target does not say so (x86-64-v3 does) */
#define LAK_CLONES_FMA __attribute__((target_clones("avx512f", "arch=x86-64-v3", "default")))
#else
#define LAK_CLONES
#define LAK_CLONES_FMA
#define LAK_CLONES_MEM
#endif

/* static void name(size_t m, const T *a, ptrdiff_t ra, const T *b,
** ptrdiff_t rb, U *c): c[i] = expr of x = a[i ra], y = b[i rb], as U (U
** other than T: bool bytes from comparisons, the compare of a vector of T
** then its mask packed to bytes) */
#define LAK_COL2B(name, T, U, expr) LAK_COL2K(LAK_CLONES_MEM, name, T, U, expr)
/* the same where an element costs work (libm's pow, atan2): every clone */
#define LAK_COL2W(name, T, expr) LAK_COL2K(LAK_CLONES, name, T, T, expr)
#define LAK_COL2K(clones, name, T, U, expr) \
  clones static void name(size_t m, const T *restrict pa, ptrdiff_t ra, \
                              const T *restrict pb, ptrdiff_t rb, U *restrict pc) { \
    size_t i; \
    if (ra == 1 && rb == 1) { \
      for (i = 0; i < m; i++) { T x = pa[i], y = pb[i]; pc[i] = (U)(expr); } \
    } else if (ra == 1 && rb == 0) { \
      const T y = *pb; \
      for (i = 0; i < m; i++) { T x = pa[i]; pc[i] = (U)(expr); } \
    } else if (ra == 0 && rb == 1) { \
      const T x = *pa; \
      for (i = 0; i < m; i++) { T y = pb[i]; pc[i] = (U)(expr); } \
    } else { \
      for (i = 0; i < m; i++) { \
        T x = pa[(ptrdiff_t)i * ra], y = pb[(ptrdiff_t)i * rb]; pc[i] = (U)(expr); } \
    } }
#define LAK_COL2(name, T, expr) LAK_COL2B(name, T, T, expr)

/* LAK_COL2W for libmvec's functions (atan2, pow): every entry through the
** vector loop, as elementwise.c's UNARY (a column's last entries short of
** a vector, and strided operands, 64 bytes of entries at a time through
** buffers, padded with copies of the first): the vector and scalar
** functions need not agree to the bit, and an entry's bits then depended
** on its place (a view and its packed copy: 98 of 300300 atan2 apart) */
#define LAK_COL2V(name, T, expr) \
  LAK_CLONES static void name(size_t m, const T *restrict pa, ptrdiff_t ra, \
                              const T *restrict pb, ptrdiff_t rb, T *restrict pc) { \
    enum { W_ = 64 / sizeof(T) }; \
    T bx[W_], by[W_], bc[W_]; \
    size_t i = 0, k, nb = m & ~(size_t)(W_ - 1); \
    if (m == 1) { T x = *pa, y = *pb; *pc = (T)(expr); return; }   /* a number: math's value */ \
    if (ra == 1 && rb == 1) { \
      for (; i < nb; i++) { T x = pa[i], y = pb[i]; pc[i] = (T)(expr); } \
    } else if (ra == 1 && rb == 0) { \
      const T y = *pb; \
      for (; i < nb; i++) { T x = pa[i]; pc[i] = (T)(expr); } \
    } else if (ra == 0 && rb == 1) { \
      const T x = *pa; \
      for (; i < nb; i++) { T y = pb[i]; pc[i] = (T)(expr); } \
    } \
    for (; i < m; i += W_) { \
      size_t w = m - i < (size_t)W_ ? m - i : (size_t)W_, wv = W_; \
      for (k = 0; k < (size_t)W_; k++) { \
        size_t q = i + (k < w ? k : 0); \
        bx[k] = pa[(ptrdiff_t)q * ra]; by[k] = pb[(ptrdiff_t)q * rb]; } \
      LAK_OPAQUE(wv); \
      for (k = 0; k < wv; k++) { T x = bx[k], y = by[k]; bc[k] = (T)(expr); } \
      memcpy(pc + i, bc, w * sizeof(T)); \
    } }
/* n, a loop's count, unknown to the compiler: a loop of a constant count
** was unrolled into scalar calls where it was to call the vector function */
#if defined(__GNUC__)
#define LAK_OPAQUE(n) __asm__("" : "+r"(n))
#else
#define LAK_OPAQUE(n) ((void)0)
#endif

/* the same with three operands, x = a[i ra], y = b[i rb], z = k[i rk] */
#define LAK_COL3(name, T, expr) \
  LAK_CLONES_MEM static void name(size_t m, const T *restrict pa, ptrdiff_t ra, \
                              const T *restrict pb, ptrdiff_t rb, \
                              const T *restrict pk, ptrdiff_t rk, T *restrict pc) { \
    size_t i; \
    if (ra == 1 && rb == 1 && rk == 1) { \
      for (i = 0; i < m; i++) { T x = pa[i], y = pb[i], z = pk[i]; pc[i] = (T)(expr); } \
    } else if (ra == 1 && rb == 0 && rk == 0) { \
      const T y = *pb, z = *pk; \
      for (i = 0; i < m; i++) { T x = pa[i]; pc[i] = (T)(expr); } \
    } else if (ra == 1 && rb == 1 && rk == 0) { \
      const T z = *pk; \
      for (i = 0; i < m; i++) { T x = pa[i], y = pb[i]; pc[i] = (T)(expr); } \
    } else if (ra == 1 && rb == 0 && rk == 1) { \
      const T y = *pb; \
      for (i = 0; i < m; i++) { T x = pa[i], z = pk[i]; pc[i] = (T)(expr); } \
    } else { \
      for (i = 0; i < m; i++) { \
        T x = pa[(ptrdiff_t)i * ra], y = pb[(ptrdiff_t)i * rb], z = pk[(ptrdiff_t)i * rk]; \
        pc[i] = (T)(expr); } \
    } }

/* Results whose operands have LAK_STREAM_MIN bytes and more are written
** past the caches (kernels/stream.c says why): lak_streams tells whether
** a result at c is written so, its operands having `bytes` bytes each,
** two of them large (two) or one (then only into a block lak_coldhint,
** kernels.h, named cold);
** lak_stream copies bytes from src to dst with non-temporal stores (any
** alignment), and lak_sfence orders them before what follows (once, after
** the last). */
#define LAK_STREAM_MIN ((size_t)4 << 20)
#define LAK_CHUNK 4096
int lak_streams(const void *c, size_t bytes, int two);
void lak_stream(void *dst, const void *src, size_t bytes);
void lak_sfence(void);
/* two chunks' room, as the element types the loops store into it */
typedef union { double d[2 * LAK_CHUNK / sizeof(double)]; float f[2 * LAK_CHUNK / sizeof(float)]; } lak_Chunk2;
/* a LAK_CHUNK-byte buffer inside raw (2 LAK_CHUNK bytes), 64-aligned, in
** the middle of the widest gap between c, p, q and r's addresses modulo
** 4096 (any of them may repeat another) */
void *lak_buffer(unsigned char *raw, const void *c, const void *p, const void *q, const void *r);

/* col over a flat result c of nn entries of operands (the variadic
** arguments: col's, at entry i_) of esz bytes each: through an L1 buffer
** streamed out, LAK_CHUNK bytes at a time, when the operands are large
** and two of them are (two = 1) or c's block is cold (kernels/stream.c
** says why, and why the operands' size decides); the same arithmetic, so
** the same bits.
** The buffer is placed by lak_buffer, away from the result c and the
** operands' first entries p, q, r modulo 4096 (the same offsets all along
** when their elements have one size; a bool result or a float operand of
** a double result drifts within each chunk): where the stack put it, its stores
** could share their low 12 bits with the loads of the operands that
** follow them, and the loads waited (4K aliasing): A + B at 1000 x 1000
** took 340-350 us in some processes and 535-640 in others (NumPy
** 400-435); a buffer 64 bytes past c took 470-745 us, one 1024 to 3072
** bytes away 340-380. */
#define LAK_FLATRUN(col, nn, c, esz, two, p, q, r, ...) do { \
    size_t n_ = (nn), i_ = 0; \
    if (lak_streams(c, n_ * (esz), (two))) { \
      lak_Chunk2 raw_; \
      void *buf_ = lak_buffer((unsigned char *)&raw_, c, p, q, r); \
      const size_t k_ = LAK_CHUNK / sizeof *(c); \
      for (; i_ + k_ <= n_; i_ += k_) { \
        col(k_, __VA_ARGS__, buf_); \
        lak_stream((c) + i_, buf_, LAK_CHUNK); \
      } \
      lak_sfence(); \
    } \
    if (i_ < n_) col(n_ - i_, __VA_ARGS__, (c) + i_); \
  } while (0)

/* two large operands, for LAK_FLATRUN, of nn entries each: neither a
** number, nor overlapping (A + A, or diff's A shifted by a column, reads
** one matrix: the result's block then still fits the caches beside it, and
** streaming took diff(A, 1, 2) at 1000 x 1000 from 150 to 190 us; such a
** result streams only into a cold block, as with one operand) */
#define LAK_APART(a, b, nn) ((a).rs && (b).rs && \
    LAK_DIST((uintptr_t)(a).p, (uintptr_t)(b).p) >= (size_t)(nn) * sizeof *(a).p)
#define LAK_DIST(x, y) ((x) >= (y) ? (x) - (y) : (y) - (x))

/* An operand (p, rs, cs) of an m-row matrix is one long column when it is
** contiguous (rs 1, cs m) or one number (rs = cs = 0). */
#define LAK_FLAT(a, m) (((a).rs == 1 && (a).cs == (m)) || ((a).rs == 0 && (a).cs == 0))

/* Runs col over an m x n result c (leading dimension ldc, m, n > 0) of
** operands a, b: once over everything when all are flat, once along the
** row when m is 1 and c's row is contiguous, else column by column. */
#define LAK_DRIVE2(col, m, n, a, b, c, ldc) do { \
    int j_; \
    if (LAK_FLAT(a, m) && LAK_FLAT(b, m) && (ldc) == (m)) { \
      LAK_FLATRUN(col, (size_t)(m) * (size_t)(n), c, sizeof *(a).p, \
                  LAK_APART(a, b, (size_t)(m) * (size_t)(n)), (a).p, (b).p, (b).p, \
                  (a).p + (ptrdiff_t)i_ * (a).rs, (a).rs, (b).p + (ptrdiff_t)i_ * (b).rs, (b).rs); \
    } \
    else if ((m) == 1 && (ldc) == 1) \
      col((size_t)(n), (a).p, (a).cs, (b).p, (b).cs, c); \
    else for (j_ = 0; j_ < (n); j_++) \
      col((size_t)(m), (a).p + j_ * (a).cs, (a).rs, (b).p + j_ * (b).cs, (b).rs, \
          (c) + (ptrdiff_t)j_ * (ldc)); \
  } while (0)

#define LAK_DRIVE3(col, m, n, a, b, k, c, ldc) do { \
    int j_; \
    if (LAK_FLAT(a, m) && LAK_FLAT(b, m) && LAK_FLAT(k, m) && (ldc) == (m)) { \
      LAK_FLATRUN(col, (size_t)(m) * (size_t)(n), c, sizeof *(a).p, \
                  LAK_APART(a, b, (size_t)(m) * (size_t)(n)) || \
                  LAK_APART(a, k, (size_t)(m) * (size_t)(n)) || \
                  LAK_APART(b, k, (size_t)(m) * (size_t)(n)), (a).p, (b).p, (k).p, \
                  (a).p + (ptrdiff_t)i_ * (a).rs, (a).rs, (b).p + (ptrdiff_t)i_ * (b).rs, (b).rs, \
                  (k).p + (ptrdiff_t)i_ * (k).rs, (k).rs); \
    } \
    else if ((m) == 1 && (ldc) == 1) \
      col((size_t)(n), (a).p, (a).cs, (b).p, (b).cs, (k).p, (k).cs, c); \
    else for (j_ = 0; j_ < (n); j_++) \
      col((size_t)(m), (a).p + j_ * (a).cs, (a).rs, (b).p + j_ * (b).cs, (b).rs, \
          (k).p + j_ * (k).cs, (k).rs, (c) + (ptrdiff_t)j_ * (ldc)); \
  } while (0)

#endif
