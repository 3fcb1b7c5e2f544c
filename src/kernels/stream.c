/*
** kernels/stream.c: writing large results past the caches.
**
** A loop that writes a fresh 8 MB result through the caches first reads
** every line it writes (the store misses), and the line then pushes an
** input out of the last-level cache. Written in 4 KiB pieces to a buffer
** that stays in L1 and copied out with non-temporal stores, the result
** goes to memory without being read: A + B at 1000 x 1000 went from about
** 285 to 250 us (NumPy: 270-300) on this machine's AMD EPYC with 32 MiB of
** L3. With one large operand (A * 2, abs) it was slower (135 -> 195 us)
** when the result's block, reused from the storage cache, was still in
** cache: the block of the result dropped just before. So one large operand
** streams only where the storage layer says the block is cold
** (lak_coldhint: other large results were handed out since it was last
** written, as when several dropped results wait for the collector): there
** a 1000 x 1000 abs took 366-390 us through the caches, 288-293 streamed,
** 195 into the block written just before (a C loop over 1 to 8 blocks in
** turn, 2 MiB pages). Below
** LAK_STREAM_MIN an operand fits the caches with the result, which is
** likely read next. The operands' size decides: a comparison's bool bytes
** after 8-byte operands are an eighth of the traffic and out of cache all
** the same (la.gt(A, B) at 1000 x 1000: 290-330 -> 245-270 us).
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "kernels.h"
#include "loops.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The storage layer's word on the block a result is about to be written
** to (lak_coldhint): out of the caches, a result with one large operand
** streams too. Per thread: each state's storage calls from its own. */
static LAK_THREAD const char *cold_p;
static LAK_THREAD size_t cold_n;

void lak_coldhint(const void *p, size_t bytes) {
  cold_p = (const char *)p;
  cold_n = p ? bytes : 0;
}

/* Linux's sysfs first: in a virtual machine glibc's sysconf may count the
** host's (320 MiB where the guest's cache is 32) */
size_t lak_cachebytes(void) {
  long b = -1;
  FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
  if (f != NULL) {
    char u = 0;
    if (fscanf(f, "%ld%c", &b, &u) < 1) b = -1;
    else if (u == 'K') b <<= 10;
    else if (u == 'M') b <<= 20;
    fclose(f);
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (b <= 0) b = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return b > 0 ? (size_t)b : 0;
}

int lak_streams(const void *c, size_t bytes, int two) {
#if defined(__SSE2__)
  const char *q = (const char *)c;
  if (bytes < LAK_STREAM_MIN) return 0;
  if (two) return 1;
  if (cold_p == NULL || q < cold_p || q >= cold_p + cold_n) return 0;
  cold_p = NULL;                            /* once: a hint is for one result */
  cold_n = 0;
  return 1;
#else
  (void)c; (void)bytes; (void)two;
  return 0;
#endif
}

#if LAK_GNU_X86
#include <immintrin.h>
#define LAK_STREAM256 1
/* n lines of 64 bytes from s to the 32-aligned d in 32-byte non-temporal
** stores: with 16-byte ones a streamed 1000 x 1000 division took 425-448
** us, with 32-byte ones 384-391 (a C loop on this AMD EPYC, Zen 4). AVX
** has these stores; the caller asks for AVX2, the lowest level
** lak_isa_level names above SSE2. */
__attribute__((target("avx"))) static void stream256(char *d, const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++, d += 64, s += 64) {
    __m256i x0 = _mm256_loadu_si256((const __m256i *)s);
    __m256i x1 = _mm256_loadu_si256((const __m256i *)s + 1);
    _mm256_stream_si256((__m256i *)d, x0);
    _mm256_stream_si256((__m256i *)d + 1, x1);
  }
}
#else
#define LAK_STREAM256 0
#endif

void lak_stream(void *dst, const void *src, size_t bytes) {
#if defined(__SSE2__)
  char *d = (char *)dst;
  const char *s = (const char *)src;
  int wide = LAK_STREAM256 && lak_isa_level() >= 1;
  size_t a = wide ? 32 : 16, head = (a - ((uintptr_t)d & (a - 1))) & (a - 1), i, n;
  if (head > bytes) head = bytes;
  memcpy(d, s, head);                       /* to d's first a-byte boundary */
  d += head; s += head; bytes -= head;
  n = bytes / 64;
#if LAK_STREAM256
  if (wide) {
    stream256(d, s, n);
    memcpy(d + n * 64, s + n * 64, bytes - n * 64);
    return;
  }
#endif
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
