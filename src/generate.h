/*
** generate.h: a binding file's typed part written once for both element
** types, as kernels/generate.h does for kernels. The file named by
** LA_GENERIC_FILE is included twice: first for float64 (double), then for
** float32 (float). Inside it:
**   LA_REAL         the element type
**   LA_TYPE         LA_F64 / LA_F32 (for la_newt, la_checkt, ...)
**   LA_T(name)      name_d / name_s: the pass's own statics and entry points
**   LA_X(A)         A's data as LA_REAL * (A->data / A->fdata)
**   LA_E(A, i, j)   element (i, j) of A (LA_AT / LA_ATF)
**   LA_LAPACKE(r)   LAPACKE_dr_work / LAPACKE_sr_work (r written without
**                   its type letter: LA_LAPACKE(geqrf))
**   LA_ROUTINE(r)   "dr" / "sr": the routine's name for error messages
**   LA_LAK(name)    lak_name / lak_sname (kernels/generate.h's names)
**   LA_CBLAS(op)    cblas_dop / cblas_sop
**   LA_EPS          the type's machine epsilon
**   LA_WORKCALL_T / LA_WORKCALL_IWORK_T: helpers.h's workspace calls with
**                   a workspace of LA_REAL
** An entry point that reads its options and arguments once and then calls
** LA_T(core) picks the pass with la_argtype (NumPy's result type).
** Usage: #define LA_GENERIC_FILE "x_gen.h" then #include "generate.h"
** (it undefines all of these, LA_GENERIC_FILE too, when done).
*/
#ifndef LA_GENERIC_FILE
#error "define LA_GENERIC_FILE before including generate.h"
#endif

#ifndef LA_DOUBLE             /* the two passes: this file again, per type */
#include <float.h>
#define LA_DOUBLE 1
#include "generate.h"
#define LA_DOUBLE 0
#include "generate.h"
#undef LA_GENERIC_FILE
#else                         /* one pass */

#if LA_DOUBLE
#define LA_REAL double
#define LA_TYPE LA_F64
#define LA_T(name) name##_d
#define LA_X(A) ((A)->data)
#define LA_E(A, i, j) LA_AT(A, i, j)
#define LA_LAPACKE(r) LAPACKE_d##r##_work
#define LA_ROUTINE(r) "d" #r
#define LA_LAK(name) lak_##name
#define LA_CBLAS(op) cblas_d##op
#define LA_EPS DBL_EPSILON
#else
#define LA_REAL float
#define LA_TYPE LA_F32
#define LA_T(name) name##_s
#define LA_X(A) ((A)->fdata)
#define LA_E(A, i, j) LA_ATF(A, i, j)
#define LA_LAPACKE(r) LAPACKE_s##r##_work
#define LA_ROUTINE(r) "s" #r
#define LA_LAK(name) lak_s##name
#define LA_CBLAS(op) cblas_s##op
#define LA_EPS FLT_EPSILON
#endif
#define LA_WORKCALL_T(L, fname, routine, info, call) \
  LA_WORKCALLT(LA_REAL, L, fname, routine, info, call)
#define LA_WORKCALL_IWORK_T(L, fname, routine, info, call) \
  LA_WORKCALLT_IWORK(LA_REAL, L, fname, routine, info, call)

#include LA_GENERIC_FILE

#undef LA_REAL
#undef LA_TYPE
#undef LA_T
#undef LA_X
#undef LA_E
#undef LA_LAPACKE
#undef LA_ROUTINE
#undef LA_LAK
#undef LA_CBLAS
#undef LA_EPS
#undef LA_WORKCALL_T
#undef LA_WORKCALL_IWORK_T
#undef LA_DOUBLE
#endif
