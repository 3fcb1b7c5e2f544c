/*
** kernels/nzidx.c: the positions of a line's nonzero entries, as doubles
** (find and nonzero). NaN counts as nonzero, -0.0 does not.
**
** With AVX-512 (reduce.c's level 2, lak_isa_level), 8 entries a step: a
** compare gives their mask, a compress packs the 8 positions the mask
** keeps to the front of a vector, and the whole vector is stored at the
** next free place; the next step's store overwrites what lay past the
** kept ones. The register form of the compress: the memory form is
** microcoded on some x86 cores (AMD Zen 4) and much slower. Elsewhere
** (and for the last places of a full result) a branch-free scalar loop:
** each entry's position stored, the count advanced on nonzero ones (a
** branch an entry was mispredicted half the time on half-full masks).
** la.find of 1000 x 1000 half-true bool took 480 us scalar; NumPy 1.24's
** flatnonzero 400.
*/
#include <stddef.h>

#include "kernels.h"

#if LAK_GNU_X86
#include <immintrin.h>
#define NZ_T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

/* 8 entries of a at i: their nonzero mask */
#define NZ_STEP(maskexpr) do { \
    __mmask8 k = (maskexpr); \
    _mm512_storeu_pd(r + c, _mm512_maskz_compress_pd(k, idx)); \
    c += (size_t)__builtin_popcount((unsigned)k); \
    idx = _mm512_add_pd(idx, eight); \
  } while (0)

/* the vector part: while 8 entries are left and 8 places in r; returns the
** count, *ip the entries done */
NZ_T512 static size_t nz512(int type, const void *a, int n, double base, double *r,
                            size_t room, int *ip) {
  const __m512d eight = _mm512_set1_pd(8);
  __m512d idx = _mm512_add_pd(_mm512_set1_pd(base), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
  size_t c = 0;
  int i = 0;
  if (type == LAK_NZ_BOOL) {
    const unsigned char *b = (const unsigned char *)a;
    for (; i + 8 <= n && c + 8 <= room; i += 8) {
      __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)(b + i));
      NZ_STEP(_mm_test_epi8_mask(v, v));
    }
  } else if (type == LAK_NZ_FLOAT) {
    const float *f = (const float *)a;
    for (; i + 8 <= n && c + 8 <= room; i += 8)
      NZ_STEP(_mm256_cmp_ps_mask(_mm256_loadu_ps(f + i), _mm256_setzero_ps(), _CMP_NEQ_UQ));
  } else {
    const double *d = (const double *)a;
    for (; i + 8 <= n && c + 8 <= room; i += 8)
      NZ_STEP(_mm512_cmp_pd_mask(_mm512_loadu_pd(d + i), _mm512_setzero_pd(), _CMP_NEQ_UQ));
  }
  *ip = i;
  return c;
}
#endif

/* the entries from i, scalar: branch-free passes that cover no more
** entries than r has places left, so no store lands past them; once
** fewer than 16 places are left, a branch an entry (passes of a few
** entries over a long run of zeros took 3 times as long) */
#define NZ_SCALAR(T) do { \
    const T *x = (const T *)a; \
    while (i < n && room - c >= 16) { \
      int e = room - c < (size_t)(n - i) ? i + (int)(room - c) : n; \
      for (; i < e; i++) { r[c] = base + i; c += x[i] != 0; } \
    } \
    for (; i < n && c < room; i++) if (x[i] != 0) r[c++] = base + i; \
  } while (0)

size_t lak_nzidx(int type, const void *a, int n, double base, double *r, size_t room) {
  size_t c = 0;
  int i = 0;
#if LAK_GNU_X86
  if (lak_isa_level() == 2) c = nz512(type, a, n, base, r, room, &i);
#endif
  if (type == LAK_NZ_BOOL) NZ_SCALAR(unsigned char);
  else if (type == LAK_NZ_FLOAT) NZ_SCALAR(float);
  else NZ_SCALAR(double);
  return c;
}
