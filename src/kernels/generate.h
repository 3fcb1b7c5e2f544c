/*
** kernels/generate.h: one kernel source, two element types. The file named
** by LAK_GENERIC_FILE is included twice, as LAPACK's d/s routines are
** generated from one text (and as Torch7's generic files are): first for
** double with the names kernels have always had, then for float with an s
** after the prefix. Inside a generic file:
**   LAK_REAL        the element type
**   LAK(name)       lak_name / lak_sname (functions, types, statics)
**   LAK_CBLAS(op)   cblas_dop / cblas_sop
**   LAK_M(f)        libm's f / ff (exp / expf, fabs / fabsf, ...)
**   LAK_UINT        the unsigned integer as wide as LAK_REAL
**   LAK_PICK(d, s)  d in the double pass, s in the float pass (per-type
**                   constants, written as a two-column table)
**   LAK_DOUBLE      1 in the double pass, 0 in the float pass
** Usage: #define LAK_GENERIC_FILE "x_gen.h" then #include "generate.h"
** (it undefines all of these, LAK_GENERIC_FILE too, when done).
*/
#ifndef LAK_GENERIC_FILE
#error "define LAK_GENERIC_FILE before including generate.h"
#endif

#ifndef LAK_DOUBLE            /* the two passes: this file again, per type */
#define LAK_DOUBLE 1
#include "generate.h"
#define LAK_DOUBLE 0
#include "generate.h"
#undef LAK_GENERIC_FILE
#else                         /* one pass */

#if LAK_DOUBLE
#define LAK_REAL double
#define LAK(name) lak_##name
#define LAK_CBLAS(op) cblas_d##op
#define LAK_M(fn) fn
#define LAK_UINT uint64_t
#define LAK_PICK(d, s) d
#else
#define LAK_REAL float
#define LAK(name) lak_s##name
#define LAK_CBLAS(op) cblas_s##op
#define LAK_M(fn) fn##f
#define LAK_UINT uint32_t
#define LAK_PICK(d, s) s
#endif

#include LAK_GENERIC_FILE

#undef LAK_REAL
#undef LAK
#undef LAK_CBLAS
#undef LAK_M
#undef LAK_UINT
#undef LAK_PICK
#undef LAK_DOUBLE
#endif
