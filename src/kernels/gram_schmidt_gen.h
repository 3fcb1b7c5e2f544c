/*
** kernels/gram_schmidt_gen.h: gram_schmidt.c's kernels over LAK_REAL (included
** twice, see generate.h).
*/

static void LAK(colnorms)(int m, int k, const LAK_REAL *W, int ldw, LAK_REAL *vn) {
  int j;
  for (j = 0; j < k; j++) vn[j] = LAK_CBLAS(nrm2)(m, W + (ptrdiff_t)j * ldw, 1);
}

/* u /= nrm (m entries, nrm > 0 its norm). Below 1 / the largest value the
** reciprocal overflows: u is first brought to norm ~1 by two exact powers
** of 2 (one could overflow too), then divided by its new norm. */
static void LAK(unit)(int m, LAK_REAL *u, LAK_REAL nrm) {
  LAK_REAL inv = (LAK_REAL)(1.0 / nrm);
  if (isinf(inv)) {
    int e = -ilogb(nrm), h = e / 2;
    LAK_CBLAS(scal)(m, (LAK_REAL)ldexp(1.0, h), u, 1);
    LAK_CBLAS(scal)(m, (LAK_REAL)ldexp(1.0, e - h), u, 1);
    inv = (LAK_REAL)(1.0 / LAK_CBLAS(nrm2)(m, u, 1));
  }
  LAK_CBLAS(scal)(m, inv, u, 1);
}

/* Normalizes column j as the r-th kept one and moves it to column r.
** Returns 0 when it is dependent: ||u|| / ||v|| <= tol, a ratio (tol *
** ||v|| underflows for a v of subnormal entries). */
static int LAK(accept)(int m, LAK_REAL *W, int ldw, LAK_REAL *R, int ldr, int j, int r,
                       LAK_REAL vn, double tol, lak_GSFail *fail) {
  LAK_REAL *u = W + (ptrdiff_t)j * ldw, nrm = LAK_CBLAS(nrm2)(m, u, 1);
  if (!((vn > 0 ? (double)nrm / vn : 0.0) > tol)) {   /* also catches NaN */
    fail->col = j; fail->unorm = nrm; fail->vnorm = vn;
    return 0;
  }
  R[r + (ptrdiff_t)j * ldr] = nrm;
  LAK(unit)(m, u, nrm);
  if (r != j) LAK_CBLAS(copy)(m, u, 1, W + (ptrdiff_t)r * ldw, 1);
  return 1;
}

/* Modified, right-looking: q_r is removed from all later columns at once. */
static int LAK(mgs)(int m, int k, LAK_REAL *W, int ldw, LAK_REAL *R, int ldr, double tol,
                    int drop, int *keep, const LAK_REAL *vn, lak_GSFail *fail) {
  int j, r = 0;
  for (j = 0; j < k; j++) {
    int nt = k - j - 1;
    keep[j] = LAK(accept)(m, W, ldw, R, ldr, j, r, vn[j], tol, fail);
    if (!keep[j]) { if (drop) continue; return -1; }
    if (nt > 0) {
      const LAK_REAL *q = W + (ptrdiff_t)r * ldw;
      LAK_REAL *rrow = R + r + (ptrdiff_t)(j + 1) * ldr, *T = W + (ptrdiff_t)(j + 1) * ldw;
      LAK_CBLAS(gemv)(CblasColMajor, CblasTrans, m, nt, 1.0, T, ldw, q, 1, 0.0, rrow, ldr);
      LAK_CBLAS(ger)(CblasColMajor, m, nt, -1.0, q, 1, rrow, ldr, T, ldw);
    }
    r++;
  }
  return r;
}

/* Classical, left-looking: coefficients from the original column against
** all kept q at once; cgs2 repeats the pass once ("twice is enough"). */
static int LAK(cgs)(int passes, int m, int k, LAK_REAL *W, int ldw, LAK_REAL *R, int ldr,
                    double tol, int drop, int *keep, const LAK_REAL *vn, LAK_REAL *s,
                    lak_GSFail *fail) {
  int j, r = 0, p, i;
  for (j = 0; j < k; j++) {
    LAK_REAL *v = W + (ptrdiff_t)j * ldw, *rcol = R + (ptrdiff_t)j * ldr;
    for (p = 0; p < passes && r > 0; p++) {
      LAK_CBLAS(gemv)(CblasColMajor, CblasTrans, m, r, 1.0, W, ldw, v, 1, 0.0, s, 1);
      LAK_CBLAS(gemv)(CblasColMajor, CblasNoTrans, m, r, -1.0, W, ldw, s, 1, 1.0, v, 1);
      for (i = 0; i < r; i++) rcol[i] += s[i];
    }
    keep[j] = LAK(accept)(m, W, ldw, R, ldr, j, r, vn[j], tol, fail);
    if (!keep[j]) { if (drop) continue; return -1; }
    r++;
  }
  return r;
}

static int LAK(block_mgs)(int m, int k, LAK_REAL *W, int ldw, LAK_REAL *R, int ldr,
                          double tol, int *keep, const LAK_REAL *vn, LAK_REAL *s,
                          LAK_REAL *T, int nb, lak_GSFail *fail);

/* panel [j0, j0 + b): the kernels on a column range, failures and keep flags
** offset to the whole matrix. MGS panels recurse with narrower panels, so
** little work is left to BLAS-2. */
static int LAK(panel)(int method, int m, int j0, int b, LAK_REAL *W, int ldw, LAK_REAL *R,
                      int ldr, double tol, int *keep, const LAK_REAL *vn, LAK_REAL *s,
                      LAK_REAL *T, int nb, lak_GSFail *fail) {
  LAK_REAL *P = W + (ptrdiff_t)j0 * ldw, *Rp = R + j0 + (ptrdiff_t)j0 * ldr;
  int r;
  if (method == LAK_MGS && nb > 8 && b > nb / 4)
    r = LAK(block_mgs)(m, b, P, ldw, Rp, ldr, tol, keep + j0, vn + j0, s, T, nb / 4, fail);
  else if (method == LAK_MGS)
    r = LAK(mgs)(m, b, P, ldw, Rp, ldr, tol, 0, keep + j0, vn + j0, fail);
  else
    r = LAK(cgs)(2, m, b, P, ldw, Rp, ldr, tol, 0, keep + j0, vn + j0, s, fail);
  if (r < 0) fail->col += j0;
  return r;
}

/* T (b x b, upper) with (I - q_b q_b') ... (I - q_1 q_1') = I - Q T' Q':
** T(i,i) = 1, T(0:i, i) = -T(0:i, 0:i) G(0:i, i), G = Q' Q. */
static void LAK(mgs_T)(int m, int b, const LAK_REAL *Q, int ldq, LAK_REAL *T) {
  int i;
  LAK_CBLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, b, b, m, 1.0, Q, ldq, Q, ldq,
              0.0, T, b);
  for (i = 0; i < b; i++) {
    LAK_REAL *ti = T + (ptrdiff_t)i * b;
    int l;
    for (l = 0; l < i; l++) ti[l] = -ti[l];
    LAK_CBLAS(trmv)(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, i, T, b, ti, 1);
    ti[i] = 1.0;
    for (l = i + 1; l < b; l++) ti[l] = 0.0;
  }
}

/* T: nb * nb elements, reused by the narrower levels after this one is done
** with it (each level's T is built after its panel returns). */
static int LAK(block_mgs)(int m, int k, LAK_REAL *W, int ldw, LAK_REAL *R, int ldr,
                          double tol, int *keep, const LAK_REAL *vn, LAK_REAL *s,
                          LAK_REAL *T, int nb, lak_GSFail *fail) {
  int j0, b;
  for (j0 = 0; j0 < k; j0 += b) {
    int nt;
    b = k - j0 < nb ? k - j0 : nb;
    nt = k - j0 - b;
    if (LAK(panel)(LAK_MGS, m, j0, b, W, ldw, R, ldr, tol, keep, vn, s, T, nb, fail) < 0)
      return -1;
    if (nt > 0) {
      LAK_REAL *Q = W + (ptrdiff_t)j0 * ldw, *X = W + (ptrdiff_t)(j0 + b) * ldw;
      LAK_REAL *S = R + j0 + (ptrdiff_t)(j0 + b) * ldr;
      LAK(mgs_T)(m, b, Q, ldw, T);
      LAK_CBLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, b, nt, m, 1.0, Q, ldw,
                  X, ldw, 0.0, S, ldr);                         /* S = Q' X */
      LAK_CBLAS(trmm)(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit,
                  b, nt, 1.0, T, b, S, ldr);                    /* R = T' S */
      LAK_CBLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nt, b, -1.0, Q, ldw,
                  S, ldr, 1.0, X, ldw);                         /* X -= Q R */
    }
  }
  return k;
}

/* S (j0 x b) = Q' P, P -= Q S, for the panel P against the first j0 columns */
static void LAK(project_out)(int m, int j0, int b, const LAK_REAL *W, int ldw, LAK_REAL *P,
                             LAK_REAL *S) {
  LAK_CBLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, j0, b, m, 1.0, W, ldw,
              P, ldw, 0.0, S, j0);
  LAK_CBLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, m, b, j0, -1.0, W, ldw,
              S, j0, 1.0, P, ldw);
}

/* V = Q S1 + P1 T1 and P1 = Q S2 + P2 give R(0:j0, panel) = S1 + S2 T1 and
** R(panel, panel) = T1. */
static int LAK(block_cgs2)(int m, int k, LAK_REAL *W, int ldw, LAK_REAL *R, int ldr,
                           double tol, int *keep, const LAK_REAL *vn, LAK_REAL *s,
                           LAK_REAL *S, lak_GSFail *fail) {
  int j0, b, i, j;
  for (j0 = 0; j0 < k; j0 += b) {
    LAK_REAL *P = W + (ptrdiff_t)j0 * ldw, *Rp = R + (ptrdiff_t)j0 * ldr;
    b = k - j0 < LAK_GS_NB ? k - j0 : LAK_GS_NB;
    if (j0 > 0) {
      LAK(project_out)(m, j0, b, W, ldw, P, S);
      for (j = 0; j < b; j++)
        for (i = 0; i < j0; i++) Rp[i + (ptrdiff_t)j * ldr] = S[i + (ptrdiff_t)j * j0];
    }
    if (LAK(panel)(LAK_CGS2, m, j0, b, W, ldw, R, ldr, tol, keep, vn, s, NULL, 0, fail) < 0)
      return -1;
    if (j0 > 0) {
      LAK(project_out)(m, j0, b, W, ldw, P, S);
      LAK_CBLAS(trmm)(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit,
                  j0, b, 1.0, Rp + j0, ldr, S, j0);             /* S2 T1 */
      for (j = 0; j < b; j++)
        for (i = 0; i < j0; i++) Rp[i + (ptrdiff_t)j * ldr] += S[i + (ptrdiff_t)j * j0];
    }
  }
  return k;
}

/* x *= 2^e (n entries, stride 1), exact: two factors, as 2^e alone may be
** out of range */
static void LAK(pow2scal)(int n, LAK_REAL *x, int e) {
  int h = e / 2;
  if (e == 0) return;
  LAK_CBLAS(scal)(n, (LAK_REAL)ldexp(1.0, h), x, 1);
  LAK_CBLAS(scal)(n, (LAK_REAL)ldexp(1.0, e - h), x, 1);
}

/* Each column of W times 2^-ex[j], ex[j] the exponent of its largest
** |entry| (0 for a zero or non-finite column): its entries are then below
** 2 with the largest at least 1, so norms and products of subnormal or
** near-overflow columns stay in range. Gram-Schmidt commutes with column
** scaling (V D = Q (R D)) and powers of 2 with rounding. */
static void LAK(colscale)(int m, int k, LAK_REAL *W, int ldw, LAK_REAL *ex) {
  int j;
  for (j = 0; j < k; j++) {
    LAK_REAL *w = W + (ptrdiff_t)j * ldw, big = m > 0 ? fabs(w[LAK_PICK(cblas_idamax, cblas_isamax)(m, w, 1)]) : 0;
    int e = big > 0 && isfinite(big) ? ilogb(big) : 0;
    ex[j] = (LAK_REAL)e;
    LAK(pow2scal)(m, w, -e);
  }
}

int LAK(gram_schmidt)(lak_GS method, int m, int k, LAK_REAL *W, int ldw,
                          LAK_REAL *R, int ldr, double tol, int drop, int *keep,
                          LAK_REAL *work, lak_GSFail *fail) {
  LAK_REAL *vn = work, *s = work + k, *ex = work + 2 * (size_t)k, *S = work + 3 * (size_t)k;
  int r, j;
  LAK(colscale)(m, k, W, ldw, ex);
  LAK(colnorms)(m, k, W, ldw, vn);
  if (!drop && k > LAK_GS_NB && method == LAK_MGS)
    r = LAK(block_mgs)(m, k, W, ldw, R, ldr, tol, keep, vn, s, S, LAK_GS_NB, fail);
  else if (!drop && k > LAK_GS_NB && method == LAK_CGS2)
    r = LAK(block_cgs2)(m, k, W, ldw, R, ldr, tol, keep, vn, s, S, fail);
  else if (method == LAK_MGS) r = LAK(mgs)(m, k, W, ldw, R, ldr, tol, drop, keep, vn, fail);
  else
    r = LAK(cgs)(method == LAK_CGS2 ? 2 : 1, m, k, W, ldw, R, ldr, tol, drop, keep, vn, s,
                 fail);
  if (r < 0) {                          /* the failing column's norms, unscaled */
    fail->unorm = ldexp(fail->unorm, (int)ex[fail->col]);
    fail->vnorm = ldexp(fail->vnorm, (int)ex[fail->col]);
    return r;
  }
  for (j = 0; j < k; j++) LAK(pow2scal)(k, R + (ptrdiff_t)j * ldr, (int)ex[j]);
  return r;
}
