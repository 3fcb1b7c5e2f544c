/*
** spec/kernels/cpu.c: lak_cpu, the one probe of the CPU's vector features
** the kernels ask: each bit as the compiler's own test reads it, the same
** answer from threads and later calls (the kernels' constructors have
** asked before main, so this does not race the first probe), and
** lak_cpu_has true only when all the bits asked for are there.
*/
#include <pthread.h>

#include "check.h"
#include "kernels.h"

#define NT 8

static void *ask(void *out) {
  *(unsigned *)out = lak_cpu();
  return NULL;
}

int main(void) {
  unsigned f, got[NT];
  pthread_t t[NT];
  int i;
  for (i = 0; i < NT; i++) CHECK(pthread_create(&t[i], NULL, ask, &got[i]) == 0, "thread %d", i);
  for (i = 0; i < NT; i++) pthread_join(t[i], NULL);
  f = lak_cpu();
  for (i = 0; i < NT; i++) CHECK(got[i] == f, "thread %d read %#x, then %#x", i, got[i], f);
#if LAK_X86
  __builtin_cpu_init();
  CHECK(!(f & LAK_CPU_AVX2) == !__builtin_cpu_supports("avx2"), "avx2: %#x", f);
  CHECK(!(f & LAK_CPU_AVX512F) == !__builtin_cpu_supports("avx512f"), "avx512f: %#x", f);
  CHECK(!(f & LAK_CPU_AVX512BW) == !__builtin_cpu_supports("avx512bw"), "avx512bw: %#x", f);
  CHECK(!(f & LAK_CPU_AVX512DQ) == !__builtin_cpu_supports("avx512dq"), "avx512dq: %#x", f);
  CHECK(!(f & LAK_CPU_AVX512VL) == !__builtin_cpu_supports("avx512vl"), "avx512vl: %#x", f);
  CHECK(!(f & LAK_CPU_AVX512CD) == !__builtin_cpu_supports("avx512cd"), "avx512cd: %#x", f);
  CHECK(!(f & LAK_CPU_FMA) == !__builtin_cpu_supports("fma"), "fma: %#x", f);
  CHECK(!(f & LAK_CPU_BMI2) == !__builtin_cpu_supports("bmi2"), "bmi2: %#x", f);
#else
  CHECK(f == 0, "off x86-64: %#x", f);
#endif
  CHECK(lak_cpu_has(0), "no bits asked: yes");
  CHECK(lak_cpu_has(LAK_CPU_V4) == ((f & LAK_CPU_V4) == LAK_CPU_V4), "v4 of %#x", f);
  CHECK(!lak_cpu_has(LAK_CPU_V4) || lak_cpu_has(LAK_CPU_AVX512F), "v4 without avx512f: %#x", f);
  CHECK(!lak_cpu_has(256u), "a bit no feature has: %#x", f);
  return ck_done("cpu");
}
