/*
** kernels/gram_schmidt.c: Gram-Schmidt variants (no Lua here). Column by column, a step is
** one or two BLAS-2 passes: dgemv for the projections, dger (MGS) or dgemv
** (CGS) for the update. Without column dropping, MGS and CGS2 run blocked
** (panels of LAK_GS_NB columns) so that most of the work is dgemm:
** - block MGS, right-looking: MGS inside the panel, then the panel's b
**   projections applied to all later columns in MGS order through the
**   compact form (I - q_b q_b') ... (I - q_1 q_1') = I - Q T' Q', T upper
**   triangular from LAPACK dlarft's recurrence with tau = 1. Algebraically
**   this is MGS, so it keeps MGS's O(eps * cond) loss of orthogonality
**   (applying I - Q Q' at once instead is block CGS and loses it);
** - BCGS2, left-looking: the panel projected against all earlier columns,
**   orthonormalized inside by CGS2, then projected once more, which removes
**   what the intra-panel step amplified: O(eps) orthogonality.
** Classical GS stays unblocked: it is there to show the classical method.
**
** Written once in gram_schmidt_gen.h for double and float (see generate.h):
** lak_gram_schmidt over dgemm/dgemv/dger, lak_sgram_schmidt over the s
** routines.
*/
#include <cblas.h>
#include <math.h>

#include "kernels.h"

#define LAK_GENERIC_FILE "gram_schmidt_gen.h"
#include "generate.h"
