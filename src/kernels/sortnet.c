/*
** kernels/sortnet.c: lines of up to 128 64-bit words (or 256 32-bit ones)
** sorted in AVX-512 registers by a bitonic network (Batcher's), for
** sort.c's short lines: a float32 value's key and position in one word
** (sort and argsort of float32), a float64 value's key (sort of float64
** without indices), a float32 value's key (without indices: 16 a vector).
** The words are loaded into 1 to 16 vectors of 8 (the last padded with
** the largest word), each vector sorted in-register (6 compare-exchange
** steps: a lane shuffle, min and max, a blend), then runs of vectors
** merged pairwise: the second run reversed, the two compared lane by lane
** (a bitonic split), then half-cleaners across vectors and inside each.
** No branch depends on the data. A network is not stable, but sort.c's
** words are distinct (the position is part of the word) or equal only
** where they are the same value, so the result is the stable sort's.
** Where AVX-512F is missing (or not x86-64 with GCC or clang),
** lak_sortnet64 declines and sort.c merges as before.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"

#if LAK_X86
#include <immintrin.h>

#define NET_FN __attribute__((target("avx512f")))
#define NET_REGS 16

/* v against w, its lanes i ^ j: the larger where mask bit i is set. The
** lane swaps inside 128 bits are shuffles by an immediate, those of whole
** 128-bit blocks block shuffles: the index permutes they replace took
** longer (AMD Zen 4, sorts along the columns, best of 3 runs: float32
** 100 x 100, values alone, 18.2 -> 16.4 us; with positions, 1000 x 1000,
** 4.35 -> 4.0 ms; float64 1000 x 1000, values alone, 5.2 -> 4.7 ms) */
NET_FN static inline __m512i cx(__m512i v, __m512i w, __mmask8 hi) {
  return _mm512_mask_mov_epi64(_mm512_min_epu64(v, w), hi, _mm512_max_epu64(v, w));
}

#define PERM1(v) _mm512_shuffle_epi32((v), _MM_PERM_BADC)     /* lane i ^ 1 */
#define PERM2(v) _mm512_shuffle_i64x2((v), (v), 0xB1)          /* lane i ^ 2 */
#define PERM4(v) _mm512_shuffle_i64x2((v), (v), 0x4E)          /* lane i ^ 4 */
#define REV   _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7)

/* a bitonic vector ascending: the half-cleaners of 8, 4, 2 */
NET_FN static inline __m512i clean8(__m512i v) {
  v = cx(v, PERM4(v), 0xF0);
  v = cx(v, PERM2(v), 0xCC);
  return cx(v, PERM1(v), 0xAA);
}

/* the 8 lanes ascending: bitonic runs of 2 and 4 (the larger in lane i
** where (i & j) != 0 differs from (i & k) != 0), then the merge of 8 */
NET_FN static inline __m512i sort8(__m512i v) {
  v = cx(v, PERM1(v), 0x66);
  v = cx(v, PERM2(v), 0x3C);
  return clean8(cx(v, PERM1(v), 0x5A));
}

/* The same for 32-bit words, 16 lanes a vector (10 in-register steps) */
NET_FN static inline __m512i cx32(__m512i v, __m512i w, __mmask16 hi) {
  return _mm512_mask_mov_epi32(_mm512_min_epu32(v, w), hi, _mm512_max_epu32(v, w));
}

#define Q1(v) _mm512_shuffle_epi32((v), _MM_PERM_CDAB)        /* lane i ^ 1 */
#define Q2(v) _mm512_shuffle_epi32((v), _MM_PERM_BADC)        /* lane i ^ 2 */
#define Q4(v) _mm512_shuffle_i32x4((v), (v), 0xB1)             /* lane i ^ 4 */
#define Q8(v) _mm512_shuffle_i32x4((v), (v), 0x4E)             /* lane i ^ 8 */
#define QREV _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

NET_FN static inline __m512i clean16(__m512i v) {
  v = cx32(v, Q8(v), 0xFF00);
  v = cx32(v, Q4(v), 0xF0F0);
  v = cx32(v, Q2(v), 0xCCCC);
  return cx32(v, Q1(v), 0xAAAA);
}

NET_FN static inline __m512i sort16(__m512i v) {
  v = cx32(v, Q1(v), 0x6666);
  v = cx32(v, Q2(v), 0x3C3C);
  v = cx32(v, Q1(v), 0x5A5A);
  v = cx32(v, Q4(v), 0x0FF0);
  v = cx32(v, Q2(v), 0x33CC);
  v = cx32(v, Q1(v), 0x55AA);
  return clean16(v);
}

/* v[0..2s-1], two ascending runs of s vectors, merged ascending: the
** first against the second reversed (a bitonic split), then half-cleaners
** across vectors and inside each */
#define MERGE(name, MIN, MAX, PERM, REVV, CLEAN) \
  NET_FN static void name(__m512i *v, int s) { \
    __m512i t[NET_REGS]; \
    int i, d, r; \
    for (i = 0; i < s; i++) { \
      __m512i x = v[i], y = PERM(REVV, v[2 * s - 1 - i]); \
      t[i] = MIN(x, y); \
      t[s + i] = MAX(x, y); \
    } \
    for (d = s / 2; d >= 1; d /= 2) \
      for (r = 0; r < 2 * s; r++) \
        if (!(r & d)) { \
          __m512i x = t[r], y = t[r + d]; \
          t[r] = MIN(x, y); \
          t[r + d] = MAX(x, y); \
        } \
    for (r = 0; r < 2 * s; r++) v[r] = CLEAN(t[r]); \
  }
MERGE(merge64, _mm512_min_epu64, _mm512_max_epu64, _mm512_permutexvar_epi64, REV, clean8)
MERGE(merge32, _mm512_min_epu32, _mm512_max_epu32, _mm512_permutexvar_epi32, QREV, clean16)

/* a[0..n-1] (n <= NET_REGS L) sorted: vectors of L lanes (the last padded
** with the largest word), each sorted in-register, then merged pairwise */
#define NET(name, T, L, K, SET1, LOADM, STOREM, SORTV, MERGEV) \
  NET_FN static void name(T *a, int n) { \
    __m512i v[NET_REGS]; \
    const __m512i pad = SET1(-1); \
    int nv = (n + L - 1) / L, regs = 1, r, s, b; \
    while (regs < nv) regs *= 2; \
    for (r = 0; r < regs; r++) { \
      int left = n - L * r; \
      K k = left >= L ? (K)~(K)0 : left <= 0 ? 0 : (K)((1u << left) - 1); \
      v[r] = SORTV(LOADM(pad, k, a + L * r)); \
    } \
    for (s = 1; s < regs; s *= 2) \
      for (b = 0; b < regs; b += 2 * s) MERGEV(v + b, s); \
    for (r = 0; r < nv; r++) { \
      int left = n - L * r; \
      STOREM(a + L * r, left >= L ? (K)~(K)0 : (K)((1u << left) - 1), v[r]); \
    } \
  }
NET(netv, uint64_t, 8, __mmask8, _mm512_set1_epi64, _mm512_mask_loadu_epi64, _mm512_mask_storeu_epi64,
    sort8, merge64)
NET(netv32, uint32_t, 16, __mmask16, _mm512_set1_epi32, _mm512_mask_loadu_epi32,
    _mm512_mask_storeu_epi32, sort16, merge32)

/* Up to 8 vectors, the same network written out on named vectors, which
** stay in registers (through v[] and t[] above they went to memory at
** every merge): float32 100 x 100 sorted along the columns, values alone,
** 16.5 -> 14.2 us (NumPy 12.8), float64 100 x 60 8.2 -> 6.6. CX: x the smaller, y the larger; M1, M2, M4:
** two ascending runs of 1, 2, 4 vectors merged (MERGE above, unrolled). */
#define CX(x, y) do { __m512i m_ = MIN_(x, y); y = MAX_(x, y); x = m_; } while (0)
#define M1(a, b) do { b = PERM_(rv, b); CX(a, b); a = CLEAN_(a); b = CLEAN_(b); } while (0)
#define M2(a0, a1, b0, b1) do { \
    __m512i r0_ = PERM_(rv, b1), r1_ = PERM_(rv, b0); \
    CX(a0, r0_); CX(a1, r1_); b0 = r0_; b1 = r1_; \
    CX(a0, a1); CX(b0, b1); \
    a0 = CLEAN_(a0); a1 = CLEAN_(a1); b0 = CLEAN_(b0); b1 = CLEAN_(b1); \
  } while (0)
#define M4(a0, a1, a2, a3, b0, b1, b2, b3) do { \
    __m512i r0_ = PERM_(rv, b3), r1_ = PERM_(rv, b2), r2_ = PERM_(rv, b1), r3_ = PERM_(rv, b0); \
    CX(a0, r0_); CX(a1, r1_); CX(a2, r2_); CX(a3, r3_); \
    b0 = r0_; b1 = r1_; b2 = r2_; b3 = r3_; \
    CX(a0, a2); CX(a1, a3); CX(b0, b2); CX(b1, b3); \
    CX(a0, a1); CX(a2, a3); CX(b0, b1); CX(b2, b3); \
    a0 = CLEAN_(a0); a1 = CLEAN_(a1); a2 = CLEAN_(a2); a3 = CLEAN_(a3); \
    b0 = CLEAN_(b0); b1 = CLEAN_(b1); b2 = CLEAN_(b2); b3 = CLEAN_(b3); \
  } while (0)
#define NETW(name, T, L, K, SET1, LOADM, STOREM, SORTV, GENERIC) \
  NET_FN static void name(T *a, int n) { \
    const __m512i pad = SET1(-1), rv = RV_; \
    __m512i v[8]; \
    int nv = (n + L - 1) / L, r; \
    if (nv > 8) { GENERIC(a, n); return; } \
    for (r = 0; r < 8; r++) { \
      int left = n - L * r; \
      K k = left >= L ? (K)~(K)0 : left <= 0 ? 0 : (K)((1u << left) - 1); \
      v[r] = SORTV(LOADM(pad, k, a + L * r)); \
    } \
    { \
      __m512i v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3], v4 = v[4], v5 = v[5], v6 = v[6], \
              v7 = v[7]; \
      if (nv > 1) M1(v0, v1); \
      if (nv > 2) { M1(v2, v3); M2(v0, v1, v2, v3); } \
      if (nv > 4) { M1(v4, v5); M1(v6, v7); M2(v4, v5, v6, v7); M4(v0, v1, v2, v3, v4, v5, v6, v7); } \
      v[0] = v0; v[1] = v1; v[2] = v2; v[3] = v3; v[4] = v4; v[5] = v5; v[6] = v6; v[7] = v7; \
    } \
    for (r = 0; r < nv; r++) { \
      int left = n - L * r; \
      STOREM(a + L * r, left >= L ? (K)~(K)0 : (K)((1u << left) - 1), v[r]); \
    } \
  }
#define MIN_ _mm512_min_epu64
#define MAX_ _mm512_max_epu64
#define PERM_ _mm512_permutexvar_epi64
#define CLEAN_ clean8
#define RV_ REV
NETW(net, uint64_t, 8, __mmask8, _mm512_set1_epi64, _mm512_mask_loadu_epi64, _mm512_mask_storeu_epi64,
     sort8, netv)
#undef MIN_
#undef MAX_
#undef PERM_
#undef CLEAN_
#undef RV_
#define MIN_ _mm512_min_epu32
#define MAX_ _mm512_max_epu32
#define PERM_ _mm512_permutexvar_epi32
#define CLEAN_ clean16
#define RV_ QREV
NETW(net32, uint32_t, 16, __mmask16, _mm512_set1_epi32, _mm512_mask_loadu_epi32,
     _mm512_mask_storeu_epi32, sort16, netv32)
#undef MIN_
#undef MAX_
#undef PERM_
#undef CLEAN_
#undef RV_

/* Longer lines: blocks of 16 vectors sorted by the network, then runs
** merged pairwise, a vector at a time (Inoue's merge): the vector carried
** and the next one from the run whose head is smaller, merged by a
** bitonic split and half-cleaners; the smaller half goes out. Runs are
** padded with the largest word to whole vectors (the caller's room). */
#define MERGERUNS(name, T, L, LOAD, STORE, MIN, MAX, PERM, REVV, CLEAN) \
  NET_FN static void name(const T *A, size_t na, const T *B, size_t nb, T *out) { \
    __m512i v = LOAD(A), w = LOAD(B), y; \
    size_t ia = L, ib = L; \
    for (;;) { \
      y = PERM(REVV, w); \
      w = CLEAN(MAX(v, y)); \
      STORE(out, CLEAN(MIN(v, y))); \
      out += L; \
      v = w; \
      if (ia >= na && ib >= nb) break; \
      if (ib >= nb || (ia < na && A[ia] < B[ib])) { w = LOAD(A + ia); ia += L; } \
      else { w = LOAD(B + ib); ib += L; } \
    } \
    STORE(out, v); \
  }
MERGERUNS(runs64, uint64_t, 8, _mm512_loadu_si512, _mm512_storeu_si512, _mm512_min_epu64,
          _mm512_max_epu64, _mm512_permutexvar_epi64, REV, clean8)
MERGERUNS(runs32, uint32_t, 16, _mm512_loadu_si512, _mm512_storeu_si512, _mm512_min_epu32,
          _mm512_max_epu32, _mm512_permutexvar_epi32, QREV, clean16)

/* a[0..n-1] (room for n rounded up to L) sorted through b (as much room):
** returns a or b, where the result is */
#define BLOCKS(name, T, L, NETF, RUNS) \
  NET_FN static T *name(T *a, T *b, size_t n) { \
    size_t np = (n + L - 1) / L * L, w, lo; \
    for (lo = n; lo < np; lo++) a[lo] = (T)~(T)0; \
    for (lo = 0; lo < np; lo += NET_REGS * L) \
      NETF(a + lo, (int)(np - lo < NET_REGS * L ? np - lo : NET_REGS * L)); \
    for (w = NET_REGS * L; w < np; w *= 2) { \
      T *t; \
      for (lo = 0; lo < np; lo += 2 * w) { \
        size_t na = np - lo < w ? np - lo : w, nb = np - lo - na < w ? np - lo - na : w; \
        if (nb == 0) memcpy(b + lo, a + lo, na * sizeof *a); \
        else RUNS(a + lo, na, a + lo + na, nb, b + lo); \
      } \
      t = a; a = b; b = t; \
    } \
    return a; \
  }
BLOCKS(blocks64, uint64_t, 8, net, runs64)
BLOCKS(blocks32, uint32_t, 16, net32, runs32)

/* AVX-512 here and not capped below it (lak_isa_cap, for tests) */
static int netok(void) {
  int level = lak_isa_level();
  return lak_cpu_has(LAK_CPU_AVX512F) && (level < 0 || level == 2);
}

uint64_t *lak_sortnet64m(uint64_t *a, uint64_t *b, size_t n) {
  return netok() ? blocks64(a, b, n) : NULL;
}

uint32_t *lak_sortnet32m(uint32_t *a, uint32_t *b, size_t n) {
  return netok() ? blocks32(a, b, n) : NULL;
}

int lak_sortnet32(uint32_t *a, size_t n) {
  if (n > 16 * NET_REGS || !netok()) return 0;
  net32(a, (int)n);
  return 1;
}

int lak_sortnet64(uint64_t *a, size_t n) {
  if (n > 8 * NET_REGS || !netok()) return 0;
  net(a, (int)n);
  return 1;
}

#else

int lak_sortnet64(uint64_t *a, size_t n) {
  (void)a; (void)n;
  return 0;
}

int lak_sortnet32(uint32_t *a, size_t n) {
  (void)a; (void)n;
  return 0;
}

uint64_t *lak_sortnet64m(uint64_t *a, uint64_t *b, size_t n) {
  (void)a; (void)b; (void)n;
  return NULL;
}

uint32_t *lak_sortnet32m(uint32_t *a, uint32_t *b, size_t n) {
  (void)a; (void)b; (void)n;
  return NULL;
}

#endif
