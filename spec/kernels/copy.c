/*
** spec/kernels/copy.c: lak_copybytes (memcpy, but 64 bytes at a time where
** the destination is 1 to 31 bytes past the source modulo 4096) copies
** exactly n bytes at every offset and length around its thresholds, and
** touches nothing around them; lak_buffer's stream buffer lies inside its
** 8 KiB array, 64-aligned, half a page or more from a lone residue, for
** every residue of the result and operands; lak_stream copies exactly n
** bytes at every destination offset modulo 64, with 32-byte stores (AVX2)
** and with 16-byte ones (the level capped).
*/
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "loops.h"

#define PAGE 4096
#define SPAN (3 * PAGE)

/* offsets 0..40 bytes past the source modulo 4096 (and a few behind), and
** lengths around 64-byte blocks and the 1024-byte gate */
static void copybytes(void) {
  static unsigned char src[SPAN + PAGE], dst[SPAN + 2 * PAGE];
  static const size_t lens[] = {0, 1, 63, 64, 65, 200, 1023, 1024, 1025, 1087, 1088, 1100, 4100, 8191};
  unsigned char *s = src + (PAGE - ((uintptr_t)src & (PAGE - 1))) % PAGE;   /* page-aligned */
  size_t i, k, bad;
  int off;
  for (i = 0; i < SPAN; i++) s[i] = (unsigned char)(i * 131 + 7);
  for (off = -8; off <= 40; off++) {
    /* d at s + off modulo 4096, within dst, with room to see stray writes */
    unsigned char *d0 = dst + (PAGE - ((uintptr_t)dst & (PAGE - 1))) % PAGE + PAGE;
    unsigned char *d = d0 + off;
    for (k = 0; k < sizeof lens / sizeof *lens; k++) {
      size_t n = lens[k];
      memset(d - 64, 0xA5, n + 128);
      lak_copybytes(d, s, n);
      for (bad = 0, i = 0; i < n; i++) bad += d[i] != s[i];
      for (i = 1; i <= 64; i++) bad += d[-(ptrdiff_t)i] != 0xA5 || d[n + i - 1] != 0xA5;
      CHECK(bad == 0, "offset %d, %zu bytes: %zu bytes wrong", off, n, bad);
    }
  }
}

/* destination offsets 0..63 past a page, source offsets 0..5, lengths
** around the 64-byte lines; at the CPU's level and below AVX2 */
static void stream(void) {
  static unsigned char src[SPAN + PAGE], dst[SPAN + 2 * PAGE];
  static const size_t lens[] = {0, 1, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 200, 4096, 4100};
  unsigned char *s0 = src + (PAGE - ((uintptr_t)src & (PAGE - 1))) % PAGE;
  unsigned char *d0 = dst + (PAGE - ((uintptr_t)dst & (PAGE - 1))) % PAGE + PAGE;
  int level = lak_isa_level(), cap, off, so;
  size_t i, k, bad;
  for (i = 0; i < SPAN; i++) s0[i] = (unsigned char)(i * 131 + 7);
  /* level -1: one width, no cap (lak_isa_cap does nothing there) */
  for (cap = level; cap == level || cap >= 0; cap--) {
    lak_isa_cap(cap);
    for (off = 0; off < 64; off++)
      for (so = 0; so < 6; so++)
        for (k = 0; k < sizeof lens / sizeof *lens; k++) {
          size_t n = lens[k];
          unsigned char *d = d0 + off, *s = s0 + so;
          memset(d - 64, 0xA5, n + 128);
          lak_stream(d, s, n);
          lak_sfence();
          for (bad = 0, i = 0; i < n; i++) bad += d[i] != s[i];
          for (i = 1; i <= 64; i++) bad += d[-(ptrdiff_t)i] != 0xA5 || d[n + i - 1] != 0xA5;
          CHECK(bad == 0, "level %d, offset %d, source %d, %zu bytes: %zu bytes wrong", cap, off, so, n, bad);
        }
  }
  lak_isa_cap(level);
}

static size_t dist(size_t a, size_t b) {
  size_t d = (a - b) & (PAGE - 1);
  return d < PAGE - d ? d : PAGE - d;
}

/* every residue of c (by 8) against a fixed operand residue, and all four equal */
static void buffer(void) {
  unsigned char raw[2 * LAK_CHUNK];
  size_t rc, ra;
  for (ra = 0; ra < PAGE; ra += 520) {
    for (rc = 0; rc < PAGE; rc += 8) {
      const void *c = (const void *)(uintptr_t)(0x100000 + rc);
      const void *a = (const void *)(uintptr_t)(0x200000 + ra);
      unsigned char *b = (unsigned char *)lak_buffer(raw, c, a, a, a);
      size_t rb = (uintptr_t)b & (PAGE - 1);
      CHECK(b >= raw && b + LAK_CHUNK <= raw + sizeof raw, "c %zu, a %zu: buffer outside", rc, ra);
      CHECK(((uintptr_t)b & 63) == 0, "c %zu, a %zu: buffer not 64-aligned", rc, ra);
      /* the widest of two gaps is half the circle or more: its middle is a
      ** quarter page or more from both (less the rounding down to 64) */
      CHECK(dist(rb, rc) >= PAGE / 4 - 64 && dist(rb, ra) >= PAGE / 4 - 64,
            "c %zu, a %zu: buffer at %zu", rc, ra, rb);
    }
  }
  {
    unsigned char *b = (unsigned char *)lak_buffer(raw, raw, raw, raw, raw);
    CHECK(dist((uintptr_t)b, (uintptr_t)raw) > PAGE / 2 - 64, "all equal: %zu from them",
          dist((uintptr_t)b, (uintptr_t)raw));
  }
}

int main(void) {
  copybytes();
  buffer();
  stream();
  return ck_done("copy");
}
