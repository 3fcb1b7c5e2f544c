/*
** spec/kernels/units.c: lak_units, the dispatch of attention's (batch item,
** head) units over threads: every unit runs exactly once, on `inner`
** threads as lak_units_inner says, in a work slice of its own that no other
** unit uses at the same time; and lak_attn_units over the column blocks of
** wide Q, K, V gives each head bitwise the single call's result on copies
** of its blocks, on 1 and 2 threads.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"

#define NMAX 100
#define WBYTES 64

typedef struct Seen {
  int runs[NMAX], inner[NMAX], clash;
  int busy[LAK_ATTN_MAXTHREADS];
  char *work;
  int slices;
  size_t wbytes;
} Seen;

static void unit(const void *ctx, int u, void *work, int inner) {
  Seen *s = (Seen *)(size_t)ctx;
  ptrdiff_t off = (char *)work - s->work;
  int t = (int)(off / (ptrdiff_t)s->wbytes), k;
  volatile int spin = 0;
  __atomic_add_fetch(&s->runs[u], 1, __ATOMIC_SEQ_CST);
  s->inner[u] = inner;
  if (off < 0 || off % (ptrdiff_t)s->wbytes != 0 || t >= s->slices) { s->clash = 1; return; }
  if (__atomic_exchange_n(&s->busy[t], 1, __ATOMIC_SEQ_CST)) s->clash = 1;
  for (k = 0; k < 20000; k++) spin++;         /* let another thread try the slice */
  memset(work, u & 0xff, s->wbytes);         /* the whole slice is the unit's */
  __atomic_store_n(&s->busy[t], 0, __ATOMIC_SEQ_CST);
}

static void dispatch(void) {
  static const int ns[] = {0, 1, 2, 3, 8, NMAX}, ts[] = {1, 2, 4};
  size_t i, j;
  for (i = 0; i < sizeof ns / sizeof ns[0]; i++)
    for (j = 0; j < sizeof ts / sizeof ts[0]; j++) {
      static Seen s;
      int n = ns[i], nt = ts[j], u, inner = lak_units_inner(n, nt);
      memset(&s, 0, sizeof s);
      s.slices = lak_units_slices(n, nt);
      s.wbytes = WBYTES;
      s.work = ck_alloc((size_t)s.slices, WBYTES);
      lak_units(n, nt, unit, &s, s.work, WBYTES);
      CHECK(inner == (n < nt ? nt : 1), "n %d, %d threads: inner %d", n, nt, inner);
      CHECK(s.slices == (inner > 1 ? 1 : (n < nt ? (n > 0 ? n : 1) : nt)),
            "n %d, %d threads: %d slices", n, nt, s.slices);
      CHECK(!s.clash, "n %d, %d threads: a slice out of range or shared", n, nt);
      for (u = 0; u < n; u++) {
        CHECK(s.runs[u] == 1, "n %d, %d threads: unit %d ran %d times", n, nt, u, s.runs[u]);
        CHECK(s.inner[u] == inner, "n %d, %d threads: unit %d on %d threads", n, nt, u, s.inner[u]);
      }
      free(s.work);
    }
}

/* an m x n matrix of normals from seed (ld m) */
static double *randn(int m, int n, uint64_t seed) {
  double *A = ck_alloc((size_t)m * n, sizeof(double));
  lak_Rng r;
  lak_rng_seed(&r, seed);
  mat_randn(&r, m, n, A, m);
  return A;
}

/* h heads of wide matrices through lak_attn_units, against lak_attention
** on packed copies of each head's column blocks */
static void heads(int nt, int causal) {
  enum { NQ = 300, NK = 270, DK = 8, DV = 5, H = 3 };
  double *Q = randn(NQ, H * DK, 1), *K = randn(NK, H * DK, 2), *V = randn(NK, H * DV, 3);
  double *O = ck_alloc((size_t)NQ * H * DV, sizeof(double)), *lse = ck_alloc((size_t)NQ * H, sizeof(double));
  lak_AttnUnit u[H];
  double *work;
  int hd, i;
  memset(u, 0, sizeof u);
  for (hd = 0; hd < H; hd++) {
    lak_Attn *a = &u[hd].a;
    a->nq = NQ; a->nk = NK; a->dk = DK; a->dv = DV;
    a->Q = Q + (size_t)hd * DK * NQ; a->K = K + (size_t)hd * DK * NK; a->V = V + (size_t)hd * DV * NK;
    a->ldq = NQ; a->ldk = NK; a->ldv = NK;
    a->scale = 0.35; a->causal = causal;
    u[hd].O = O + (size_t)hd * DV * NQ; u[hd].ldo = NQ; u[hd].lse = lse + (size_t)hd * NQ;
  }
  work = ck_alloc(lak_attn_units_work(u, H, nt), sizeof(double));
  lak_attn_units(u, H, work, nt);
  free(work);
  for (hd = 0; hd < H; hd++) {
    lak_Attn a = u[hd].a;
    double *Qc = ck_alloc((size_t)NQ * DK, sizeof(double)), *Kc = ck_alloc((size_t)NK * DK, sizeof(double));
    double *Vc = ck_alloc((size_t)NK * DV, sizeof(double)), *Oc = ck_alloc((size_t)NQ * DV, sizeof(double));
    double *lc = ck_alloc(NQ, sizeof(double)), *w;
    memcpy(Qc, a.Q, sizeof(double) * NQ * DK); memcpy(Kc, a.K, sizeof(double) * NK * DK);
    memcpy(Vc, a.V, sizeof(double) * NK * DV);
    a.Q = Qc; a.K = Kc; a.V = Vc;
    w = ck_alloc(lak_attn_work(&a, 1), sizeof(double));
    lak_attention(&a, Oc, NQ, lc, w, 1);
    CHECK(memcmp(Oc, u[hd].O, sizeof(double) * NQ * DV) == 0, "head %d (%d threads): O differs", hd, nt);
    for (i = 0; i < NQ; i++) CHECK(lc[i] == u[hd].lse[i], "head %d row %d: lse differs", hd, i);
    free(Qc); free(Kc); free(Vc); free(Oc); free(lc); free(w);
  }
  free(Q); free(K); free(V); free(O); free(lse);
}

int main(void) {
  dispatch();
  heads(1, 0);
  heads(2, 0);
  heads(2, 1);
  heads(4, 1);
  return ck_done("units");
}
