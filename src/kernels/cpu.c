/*
** kernels/cpu.c: the CPU's vector features, probed once for the kernels
** that choose their AVX-512 or AVX2 code themselves (target_clones code is
** chosen by the loader).
*/
#include "kernels.h"

#if LAK_X86
#include <pthread.h>

static unsigned features;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void probe(void) {
  unsigned f = 0;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) f |= LAK_CPU_AVX2;
  if (__builtin_cpu_supports("avx512f")) f |= LAK_CPU_AVX512F;
  if (__builtin_cpu_supports("avx512bw")) f |= LAK_CPU_AVX512BW;
  if (__builtin_cpu_supports("avx512dq")) f |= LAK_CPU_AVX512DQ;
  if (__builtin_cpu_supports("avx512vl")) f |= LAK_CPU_AVX512VL;
  if (__builtin_cpu_supports("avx512cd")) f |= LAK_CPU_AVX512CD;
  if (__builtin_cpu_supports("fma")) f |= LAK_CPU_FMA;
  if (__builtin_cpu_supports("bmi2")) f |= LAK_CPU_BMI2;
  features = f;
}

/* a pthread_once, not a constructor: other files' constructors ask too,
** and the order of constructors across files is not set */
unsigned lak_cpu(void) {
  pthread_once(&once, probe);
  return features;
}
#else
unsigned lak_cpu(void) { return 0; }
#endif

int lak_cpu_has(unsigned want) { return (lak_cpu() & want) == want; }
