/*
** kernels/attention_bwd.c: the gradients of scaled dot-product attention
** (no Lua here), in the manner of FlashAttention-2's backward (Dao 2023).
**
** With P = softmax(S), S = scale Q K^T + bias (masked entries -inf), and
** dO = dL/dO: dV = P^T dO, dP = dO V^T, dS = P .* (dP - D) where D =
** rowsum(dO .* O), dQ = scale dS K, dK = scale dS^T Q, dbias = dS. P is
** never stored: each tile is recomputed from the forward's log-sum-exp,
** P = exp(S - lse), so memory is O((nq + nk) d).
**
** Keys go in blocks of BWD_BK rows, queries in tiles of BWD_BQ rows. A key
** block owns its rows of dK and dV and sweeps every query tile in order;
** per tile: S = scale Q_i K_j^T (+ bias, masks), P = exp(S - lse_i),
** dV_j += P^T dO_i, dP = dO_i V_j^T, dS = P .* (dP - D_i), dK_j += scale
** dS^T Q_i, then dQ_i += scale dS K_j: five products, the backward's 2.5
** times the forward's multiply-adds and no more.
**
** The products: where the forward runs its AVX-512 kernel (the CPU has
** it, dk and dv <= BWD_DMAX), register-blocked AVX-512 loops of this file
** (S and dP: strips of rows against panels of keys; dQ: strips of rows
** against panels of K's columns; dV, dK: keys against chunks of columns,
** summed by rows over the whole sweep and written once), on Q and dO
** packed once per call and K, V once per key block; they run at about
** 1.7x OpenBLAS's gemm here (it runs AVX2 kernels on this AVX-512 CPU).
** Elsewhere the tiles are the same five products by gemm. Either way the
** score tile gets the bias, masks and exp the same way.
**
** Threads: key blocks are shared out (kernels/attention.c's lak_parallel
** hands them out in ascending order). dQ_i sums over key blocks: so that
** it is bitwise the same whatever the thread count, key block j adds to
** dQ_i only after block j - 1 has (a wavefront; `done` counts the query
** tiles each key block has finished), so each dQ_i is summed in key order
** as one thread would. The waits are short: neighbouring key blocks move
** through the query tiles in step.
*/
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "kernels.h"

#ifndef BWD_BQ
#define BWD_BQ 240     /* query rows per tile: whole AVX-512 strips of either type */
#endif
#ifndef BWD_BK
#define BWD_BK 128     /* key rows per block */
#endif
#define LOG2E 1.4426950408889634

#define INF ((LAK_REAL)HUGE_VAL)

/* AVX-512 and AVX2 versions of the elementwise tile loops, chosen at load
** time (as attention.c's exp step) */
#if LAK_GNU_X86
#define BWD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define BWD_CLONES
#endif

static int nblocks(int n, int b) { return n / b + (n % b != 0); }

/* The order of the additions to dQ: key block j adds to query tile i once
** done[j - 1] > i. Without threads the blocks run in order anyway. */
typedef struct Seq {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int *done;
  int threaded;
} Seq;

static void seq_wait(Seq *s, int j, int i) {
  if (j == 0 || !s->threaded) return;
  pthread_mutex_lock(&s->mu);
  while (s->done[j - 1] <= i) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

static void seq_post(Seq *s, int j, int i) {
  if (!s->threaded) { s->done[j] = i + 1; return; }
  pthread_mutex_lock(&s->mu);
  s->done[j] = i + 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* int slots for done[], in elements of size esize */
static size_t done_elems(int nkb, size_t esize) {
  return ((size_t)nkb * sizeof(int) + esize - 1) / esize;
}

/* The AVX-512 products (attention_bwd_gen.h), used where the forward's
** AVX-512 kernel runs; -DLAK_NO_SIMD leaves them out. */
#if !defined(LAK_NO_SIMD) && LAK_X86
#include <immintrin.h>
#define BWD_SIMD 1
#define BWD_FN __attribute__((target("avx512f")))
#define BWD_NJ 8            /* keys per panel */
#define BWD_TB 6            /* keys by */
#define BWD_CW 4            /* vectors of columns in P^T X's registers */
#define BWD_DMAX 1024       /* larger d: the gemm tiles (the packed strips stay small) */
#else
#define BWD_SIMD 0
#endif

#define LAK_GENERIC_FILE "attention_bwd_gen.h"
#include "generate.h"
