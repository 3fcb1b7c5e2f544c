/*
** kernels/nzidx.c: the positions of a line's nonzero entries, as doubles
** (find and nonzero). NaN counts as nonzero, -0.0 does not.
**
** With AVX-512 (lak_cpu_has; not when reduce.c's level is capped below
** 2, for tests), 8 entries a step: a compare gives their mask, a compress
** packs the 8 positions the mask keeps to the front of a vector, and the
** whole vector is stored at the next free place; the next step's store
** overwrites what lay past the kept ones. The register form of the
** compress: the memory form is microcoded on some x86 cores (AMD Zen 4)
** and much slower. A step with no nonzero entry stores nothing, so long
** runs of zeros cost a compare a step whatever room is left.
** Elsewhere, for the last n % 8 entries and once fewer than 8 places are
** left, scalar loops: branch-free passes (each entry's position stored,
** the count advanced on nonzero ones; a branch an entry was mispredicted
** half the time on half-full masks) while 16 places or more are left,
** then a branch an entry. la.find of 1000 x 1000 half-true bool: 480 us
** scalar, 163 with the steps; NumPy 1.24's flatnonzero 396.
*/
#include <stddef.h>

#include "kernels.h"

#if LAK_X86
#include <immintrin.h>
#define NZ_T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

static int vecok(void) {
  int level = lak_isa_level();
  return lak_cpu_has(LAK_CPU_AVX512F | LAK_CPU_AVX512BW | LAK_CPU_AVX512VL | LAK_CPU_AVX512DQ) &&
         (level < 0 || level == 2);
}

/* One step: the positions idx of the entries mask k keeps, stored at r[*c]
** (8 places written, *c advanced by the kept ones). Returns 0, storing
** nothing, when k keeps some and fewer than 8 places are left. */
NZ_T512 static inline int nzstep(__mmask8 k, __m512d idx, double *r, size_t *c, size_t room) {
  if (!k) return 1;
  if (room - *c < 8) return 0;
  _mm512_storeu_pd(r + *c, _mm512_maskz_compress_pd(k, idx));
  *c += (size_t)__builtin_popcount((unsigned)k);
  return 1;
}

/* the steps over the entries of a from 0: returns the count, *ip the
** entries done */
NZ_T512 static size_t nz512(lak_Nz type, const void *a, int n, double base, double *r,
                            size_t room, int *ip) {
  const __m512d eight = _mm512_set1_pd(8);
  __m512d idx = _mm512_add_pd(_mm512_set1_pd(base), _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7));
  size_t c = 0;
  int i = 0;
  for (; n - i >= 8 && c < room; i += 8, idx = _mm512_add_pd(idx, eight)) {
    __mmask8 k;
    if (type == LAK_NZ_BOOL) {
      __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)((const unsigned char *)a + i));
      k = _mm_test_epi8_mask(v, v);
    } else if (type == LAK_NZ_FLOAT) {
      k = _mm256_cmp_ps_mask(_mm256_loadu_ps((const float *)a + i), _mm256_setzero_ps(), _CMP_NEQ_UQ);
    } else {
      k = _mm512_cmp_pd_mask(_mm512_loadu_pd((const double *)a + i), _mm512_setzero_pd(), _CMP_NEQ_UQ);
    }
    if (!nzstep(k, idx, r, &c, room)) break;
  }
  *ip = i;
  return c;
}
#endif

/* the entries from i, scalar; a branch-free pass covers no more entries
** than r has places left, so no store lands past them */
#define NZ_SCALAR(T) do { \
    const T *x = (const T *)a; \
    while (i < n && room - c >= 16) { \
      int e = room - c < (size_t)(n - i) ? i + (int)(room - c) : n; \
      for (; i < e; i++) { r[c] = base + i; c += x[i] != 0; } \
    } \
    for (; i < n && c < room; i++) if (x[i] != 0) r[c++] = base + i; \
  } while (0)

size_t lak_nzidx(lak_Nz type, const void *a, int n, double base, double *r, size_t room) {
  size_t c = 0;
  int i = 0;
#if LAK_X86
  if (vecok()) c = nz512(type, a, n, base, r, room, &i);
#endif
  if (type == LAK_NZ_BOOL) NZ_SCALAR(unsigned char);
  else if (type == LAK_NZ_FLOAT) NZ_SCALAR(float);
  else NZ_SCALAR(double);
  return c;
}
