/*
** spec/kernels/nzidx.c: lak_nzidx gives a plain scan's positions of the
** nonzero entries (NaN counts, -0.0 does not) for doubles, floats and
** bool bytes, at every length around the 8-entry vector steps, every
** room from 0 to past the count, and offsets that misalign the entries;
** it writes nothing at or past r[room]. Each line ends where its array
** does, so check-asan sees a read past it. With AVX-512 (the level capped
** to 0 for the scalar loops) and without.
*/
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "kernels.h"

#define N 80
#define GUARD 12345.0

static uint32_t seed = 12345;
static uint32_t next(void) { seed = seed * 1664525u + 1013904223u; return seed >> 8; }

/* entry i nonzero with chance p percent: 1.5, NaN or -1e-300 for doubles,
** else 0.0 or -0.0 */
static void fill(double *d, float *f, unsigned char *b, int n, int p) {
  int i;
  for (i = 0; i < n; i++) {
    uint32_t u = next();
    int nz = (int)(u % 100) < p;
    double v = nz ? ((u >> 8) % 3 == 0 ? NAN : (u >> 8) % 3 == 1 ? 1.5 : -1e-300)
                  : ((u >> 8) % 2 ? -0.0 : 0.0);
    d[i] = v;
    f[i] = nz ? ((u >> 8) % 3 == 0 ? NAN : 1.5f) : (float)v;
    b[i] = (unsigned char)nz;
  }
}

static void one(lak_Nz type, const void *a, int n, int off) {
  double want[N], r[N + 16];
  size_t cnt = 0, room, k, got;
  int i;
  for (i = 0; i < n; i++) {
    int nz = type == LAK_NZ_BOOL ? ((const unsigned char *)a)[i] != 0
           : type == LAK_NZ_FLOAT ? ((const float *)a)[i] != 0 : ((const double *)a)[i] != 0;
    if (nz) want[cnt++] = 7 + i;
  }
  for (room = 0; room <= cnt + 9; room++) {
    for (k = 0; k < N + 16; k++) r[k] = GUARD;
    got = lak_nzidx(type, a, n, 7, r, room);
    CHECK(got == (room < cnt ? room : cnt), "type %d, n %d, offset %d, room %zu: %zu found, %zu nonzero",
          type, n, off, room, got, cnt);
    for (k = 0; k < got; k++)
      CHECK(r[k] == want[k], "type %d, n %d, room %zu: r[%zu] = %g, expected %g", type, n, room, k, r[k], want[k]);
    for (k = room; k < N + 16; k++)
      CHECK(r[k] == GUARD, "type %d, n %d, room %zu: r[%zu] written past room", type, n, room, k);
  }
}

/* lines of n at the end of the arrays, off entries short of it (so
** their starts move against the vector width too) */
static void all(void) {
  static double d[N];
  static float f[N];
  static unsigned char b[N];
  int n, off, p;
  for (p = 0; p <= 100; p += 25)
    for (off = 0; off < 3; off++)
      for (n = 0; n <= 70; n += (n < 20 ? 1 : 7)) {
        int at = N - n - off;
        fill(d + at, f + at, b + at, n, p);
        one(LAK_NZ_DOUBLE, d + at, n, off);
        one(LAK_NZ_FLOAT, f + at, n, off);
        one(LAK_NZ_BOOL, b + at, n, off);
      }
}

int main(void) {
  int level = lak_isa_level();
  all();
  if (level > 0) {
    lak_isa_cap(0); all(); lak_isa_cap(level);
    printf("  at ISA level %d (AVX-512 steps where it is 2), then capped to 0\n", level);
  } else {
    printf("  at ISA level %d: the scalar loops, and AVX-512 steps where the CPU has them\n", level);
  }
  return ck_done("nzidx");
}
