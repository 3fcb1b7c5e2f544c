/*
** kernels/stream.c: writing large results past the caches.
**
** A loop that writes a fresh 8 MB result through the caches first reads
** every line it writes (the store misses), and the line then pushes an
** input out of the last-level cache. Written in 4 KiB pieces to a buffer
** that stays in L1 and copied out with non-temporal stores, the result
** goes to memory without being read: A + B at 1000 x 1000 went from about
** 285 to 250 us (NumPy: 270-300) on this machine's AMD EPYC with 32 MiB of
** L3. With one large operand (A * 2, abs) it was slower (135 -> 195 us):
** the result's block, reused from the storage cache, is then often still
** in cache, so loops.h streams only with two large operands. Below
** LAK_STREAM_MIN an operand fits the caches with the result, which is
** likely read next. The operands' size decides: a comparison's bool bytes
** after 8-byte operands are an eighth of the traffic and out of cache all
** the same (la.gt(A, B) at 1000 x 1000: 290-330 -> 245-270 us).
*/
#include <stdint.h>
#include <string.h>
#include "loops.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

int lak_streams(const void *c, size_t bytes) {
#if defined(__SSE2__)
  (void)c;
  return bytes >= LAK_STREAM_MIN;
#else
  (void)c; (void)bytes;
  return 0;
#endif
}

void lak_stream(void *dst, const void *src, size_t bytes) {
#if defined(__SSE2__)
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t head = (16 - ((uintptr_t)d & 15)) & 15, i, n;
  if (head > bytes) head = bytes;
  memcpy(d, s, head);                       /* to d's first 16-byte boundary */
  d += head; s += head; bytes -= head;
  n = bytes / 64;
  for (i = 0; i < n; i++, d += 64, s += 64) {
    __m128i x0 = _mm_loadu_si128((const __m128i *)s), x1 = _mm_loadu_si128((const __m128i *)s + 1);
    __m128i x2 = _mm_loadu_si128((const __m128i *)s + 2), x3 = _mm_loadu_si128((const __m128i *)s + 3);
    _mm_stream_si128((__m128i *)d, x0);
    _mm_stream_si128((__m128i *)d + 1, x1);
    _mm_stream_si128((__m128i *)d + 2, x2);
    _mm_stream_si128((__m128i *)d + 3, x3);
  }
  memcpy(d, s, bytes - n * 64);
#else
  memcpy(dst, src, bytes);
#endif
}

/* lak_buffer's arithmetic is modulo a page of 4096 bytes, one chunk */
typedef char lak_chunk_is_a_page[LAK_CHUNK == 4096 ? 1 : -1];

void *lak_buffer(unsigned char *raw, const void *c, const void *p, const void *q, const void *r) {
  size_t x[4], t, gap, best = 0, at = 0;
  int i, j;
  x[0] = (uintptr_t)c & 4095; x[1] = (uintptr_t)p & 4095;
  x[2] = (uintptr_t)q & 4095; x[3] = (uintptr_t)r & 4095;
  for (i = 1; i < 4; i++)                   /* sorted */
    for (j = i; j > 0 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t; }
  for (i = 0; i < 4; i++) {                 /* the gap after x[i], around the circle */
    gap = (i < 3 ? x[i + 1] : x[0] + 4096) - x[i];
    if (gap > best) { best = gap; at = x[i] + gap / 2; }
  }
  at &= 4095 & ~(size_t)63;
  return raw + ((at - (uintptr_t)raw) & 4095);
}

void lak_sfence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
