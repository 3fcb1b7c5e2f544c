/*
** matrix.c: the matrix type: the userdata (owned storage or a view), making
** and copying matrices, recognising them (la_test / la_check, tables
** converted), vectors and right-hand sides, the finiteness and shape
** checks, element access, views, printing, the metamethods that make a
** matrix behave as a value, and the C API of linalg.h.
*/
#define _DEFAULT_SOURCE   /* madvise */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "helpers.h"
#include "kernels/kernels.h"

/* The metatable is also stored under this address in the registry: a
** pointer key is cheaper to look up than the name on every allocation. */
static const char mt_key = 'M';
const char la_compat_keepmark = 'K';  /* compat.h: la_keepalive's tables */
const char la_compat_hookmark = 'H';  /* compat.h: la_compat_gcrunning on 5.1 */

/* the header rounded up to 16 bytes (the data's alignment: LA_LINE below) */
#define LA_HDR ((sizeof(la_Mat) + 15) & ~(size_t)15)
/* Data of LA_LINEMIN bytes and more in the heap starts on a cache line
** (LA_LINE - 8 bytes more asked: a userdata is 8-byte aligned at least,
** LuaJIT's are no more, Lua's 16 with glibc's allocator): a
** vector loop's 64-byte stores then never split a line, which cost 64 x 64
** A + B a fifth of its time; smaller matrices are not worth the bytes. */
#define LA_LINE 64
#define LA_LINEMIN 1024

/* --------------------------------------------- making matrices */

static void checkdims(lua_State *L, const char *fname, lua_Integer m,
                      lua_Integer n) {
  if (m < 0 || n < 0 || m > INT_MAX || n > INT_MAX)
    la_error(L, fname, "invalid size %Ix%I", m, n);
  /* 32-bit BLAS/LAPACK integers index at most INT_MAX elements */
  if (m > 0 && n > INT_MAX / m)
    la_error(L, fname, "size %Ix%I exceeds %d elements (32-bit BLAS indexing)",
             m, n, INT_MAX);
}

const char *const la_dtypes[] = {"float64", "float32", NULL};
const char *const la_dtypesb[] = {"float64", "float32", "bool", NULL};

static size_t esize(int dtype) { return LA_ESIZE(dtype); }

/* Pushes the matrix metatable: the value at stack index mt when that is a
** table (an entry point's upvalue 1), else the registry's (a pointer key,
** still a lookup: on LuaJIT the key is a light userdata made anew) */
static void pushmeta(lua_State *L, int mt) {
  if (mt) {
    lua_pushvalue(L, mt);
    if (lua_type(L, -1) == LUA_TTABLE) return;
    lua_pop(L, 1);
  }
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
}

/* Pushes a new m x n matrix of type dtype with uninitialised contents. mt
** is where the matrix metatable is: a stack index, or 0 for the registry
** (the C API, which runs inside the host's functions). */
static la_Mat *newmat(lua_State *L, const char *fname, lua_Integer m, lua_Integer n,
                      int mt, int dtype) {
  la_Mat *A;
  size_t sz, pad;
  void *p;
  const int *gone = NULL;
  lua_Integer dims[2];
  dims[0] = m; dims[1] = n;
  if (mt) mt = lua_absindex(L, mt);
  checkdims(L, fname, m, n);
  sz = LA_HDR + (size_t)(m * n) * esize(dtype);
  if (sz >= LA_BIGALLOC && sz - LA_HDR >= la_extfloor()) {
    /* outside the heap (helpers.h): a header whose user value 1 owns it */
    /* the owner first: la_allocext steps the collector before anything
    ** new exists (helpers.c says why) */
    p = la_allocext(L, fname, sz - LA_HDR, NULL, dims);
    gone = la_extgone(L, -1);
    A = (la_Mat *)lua_newuserdatauv(L, sizeof(la_Mat) + sizeof gone, 1);
    lua_insert(L, -2);
    la_keepalive(L, -2);
  } else {
    /* no user value: only views need one, and the GC skips a userdata without */
    pad = sz - LA_HDR >= LA_LINEMIN ? LA_LINE - 8 : 0;
    if (sz + pad < LA_BIGALLOC) {
      A = (la_Mat *)lua_newuserdatauv(L, sz + pad, 0);
      la_headroom(sz + pad);
    } else {
      A = (la_Mat *)la_allocud(L, fname, sz + pad, 0, NULL, dims);
    }
    p = (void *)((char *)A + LA_HDR);               /* owned data follows the header */
    if (pad) p = (void *)(((uintptr_t)p + LA_LINE - 1) & ~(uintptr_t)(LA_LINE - 1));
    la_hugepages(p, (size_t)(m * n) * esize(dtype));
  }
  A->data = dtype == LA_F64 ? (double *)p : NULL;
  A->fdata = dtype == LA_F32 ? (float *)p : NULL;
  A->bdata = dtype == LA_BOOL ? (unsigned char *)p : NULL;
  A->dtype = dtype;
  A->rows = (int)m; A->cols = (int)n; A->ld = m > 0 ? (int)m : 1;
  A->flags = gone != NULL ? LA_EXT : 0;
  A->magic = LA_MAGIC;
  if (gone != NULL) la_setgonep(A, gone);
  pushmeta(L, mt);
  lua_setmetatable(L, -2);
  return A;
}

/* Every function of the module is a closure with the metatable as upvalue
** 1 (la_setfuncs), which is much cheaper to reach than the registry. */
la_Mat *la_new(lua_State *L, const char *fname, lua_Integer m, lua_Integer n) {
  return newmat(L, fname, m, n, lua_upvalueindex(1), LA_F64);
}

la_Mat *la_newat(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int mt) {
  return newmat(L, fname, m, n, mt, LA_F64);
}

la_Mat *la_newatt(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int mt,
                  int dtype) {
  return newmat(L, fname, m, n, mt, dtype);
}

la_Mat *la_newt(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int dtype) {
  return newmat(L, fname, m, n, lua_upvalueindex(1), dtype);
}

/* la_copyto between a bool matrix and another type: to bool, x ~= 0 (NaN
** is true, as NumPy's astype(bool)); from bool, 1 or 0 (kernels/convert.c) */
static void boolcopy(const la_Mat *A, la_Mat *B) {
  if (B->dtype == LA_BOOL)
    lak_tobool(A->dtype == LA_F32, A->rows, A->cols, LA_DATA(A), A->ld, B->bdata, B->ld);
  else
    lak_frombool(B->dtype == LA_F32, A->rows, A->cols, A->bdata, A->ld, LA_DATA(B), B->ld);
}

/* B = A, element types converted as needed (B packed or a view) */
void la_copyto(const la_Mat *A, la_Mat *B) {
  if (LA_EMPTY(A)) return;            /* a 0 x 2^31-1 matrix costs nothing */
  if (A->dtype == B->dtype) {         /* bytes: one memcpy a column, or one for all */
    size_t es = esize(A->dtype), col = (size_t)A->rows * es;
    const char *a = (const char *)LA_DATA(A);
    char *b = (char *)LA_DATA(B);
    if (A->ld == A->rows && B->ld == B->rows) { memcpy(b, a, col * (size_t)A->cols); return; }
    lak_copycols(es, A->rows, A->cols, a, A->ld, b, B->ld);   /* kernels/copy.c */
    return;
  }
  if (A->dtype == LA_BOOL || B->dtype == LA_BOOL) { boolcopy(A, B); return; }
  /* between types: every float32 argument of float64 code comes this way */
  if (A->dtype == LA_F32) lak_s2d(A->rows, A->cols, A->fdata, A->ld, B->data, B->ld);
  else lak_d2s(A->rows, A->cols, A->data, A->ld, B->fdata, B->ld);
}

void la_fill(la_Mat *A, double x) {
  int j, f = A->dtype == LA_F32, packed = A->ld == A->rows;
  float xf;
  size_t es = esize(A->dtype);
  if (LA_EMPTY(A)) return;
  if (A->dtype == LA_BOOL) x = x != 0;      /* a byte 0 or 1 */
  if (A->dtype == LA_BOOL || (x == 0 && !signbit(x))) {   /* all bytes alike: memset */
    int c = A->dtype == LA_BOOL && x != 0;
    /* +0.0: all bits zero; bool: every byte c */
    if (packed) { memset(LA_DATA(A), c, (size_t)A->rows * (size_t)A->cols * es); return; }
    for (j = 0; j < A->cols; j++)
      memset((char *)LA_DATA(A) + (size_t)j * (size_t)A->ld * es, c, (size_t)A->rows * es);
    return;
  }
  xf = (float)x;
  for (j = 0; j < A->cols; j++)      /* kernels/copy.c */
    lak_fillcol(es, (size_t)A->rows, (char *)LA_DATA(A) + (size_t)j * (size_t)A->ld * es,
                f ? (const void *)&xf : (const void *)&x);
}

la_Mat la_block(const la_Mat *A, int i, int j, int m, int n) {
  la_Mat B = *A;
  if (m > 0 && n > 0) {            /* an empty block keeps A's pointers */
    if (B.data) B.data = &LA_AT(A, i, j);
    if (B.fdata) B.fdata = &LA_ATF(A, i, j);
    if (B.bdata) B.bdata = &LA_ATB(A, i, j);
  }
  B.rows = m; B.cols = n;
  return B;
}

static int dtypeargs(lua_State *L, int first, int def, const char *fname,
                     const char *const choices[]) {
  static const char *const keys[] = {"dtype", NULL};
  int oi = la_optsat(L, first), t;
  la_checkopts(L, oi, fname, keys);
  t = la_optenum(L, oi, "dtype", def, choices, fname);
  if (oi) lua_settop(L, oi - 1);
  return t;
}

int la_dtypeargs(lua_State *L, int first, int def, const char *fname) {
  return dtypeargs(L, first, def, fname, la_dtypes);
}

int la_dtypeargsb(lua_State *L, int first, int def, const char *fname) {
  return dtypeargs(L, first, def, fname, la_dtypesb);
}

la_Mat *la_convert(lua_State *L, const la_Mat *A, int dtype, const char *fname) {
  la_Mat *B = la_newt(L, fname, A->rows, A->cols, dtype);
  la_copyto(A, B);
  return B;
}

int la_optdtype(lua_State *L, int idx, int def, const char *fname) {
  return la_optenum(L, idx, "dtype", def, la_dtypes, fname);
}

int la_optdtypeb(lua_State *L, int idx, int def, const char *fname) {
  return la_optenum(L, idx, "dtype", def, la_dtypesb, fname);
}

la_Mat *la_newzero(lua_State *L, const char *fname, lua_Integer m, lua_Integer n) {
  return la_newzerot(L, fname, m, n, LA_F64);
}

la_Mat *la_newzerot(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int dtype) {
  la_Mat *A = la_newt(L, fname, m, n, dtype);
  memset(LA_DATA(A), 0, (size_t)(m * n) * esize(dtype));
  return A;
}

la_Mat *la_copyof(lua_State *L, const la_Mat *A, const char *fname) {
  return la_convert(L, A, A->dtype, fname);
}

/* ---------------------------------------- recognising matrices */

/* The module's closures carry the metatable as upvalue 1, which makes the
** common check one comparison; from elsewhere (the C API) the registry
** decides. */
la_Mat *la_testmat(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  int same;
  /* the size check and the mark keep a foreign userdata that was given our
  ** metatable (debug.setmetatable: another of ours, an lsq_state, is larger
  ** than a header) from being read as a matrix header */
  if (p == NULL || lua_rawlen(L, idx) < sizeof(la_Mat) || ((la_Mat *)p)->magic != LA_MAGIC ||
      !lua_getmetatable(L, idx))
    return NULL;
  same = lua_rawequal(L, -1, lua_upvalueindex(1));
  if (!same) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
    same = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return same ? la_seen((la_Mat *)p) : NULL;
}

/* A bool matrix at idx replaced by its float64 copy (closed if it was),
** which is returned; one whose storage is gone (la_seen) by a closed 0 x 0
** matrix: nothing is read, nor its size made again */
static la_Mat *unbool(lua_State *L, la_Mat *A, int idx) {
  la_Mat *B;
  idx = lua_absindex(L, idx);
  if (A->flags & LA_GONE) B = la_newt(L, la_fname(L), 0, 0, LA_F64);
  else B = la_convert(L, A, LA_F64, la_fname(L));
  B->flags |= A->flags & (LA_CLOSED | LA_GONE);
  lua_replace(L, idx);
  return B;
}

la_Mat *la_testany(lua_State *L, int idx) {
  la_Mat *A = la_testmat(L, idx);
  return A && A->dtype == LA_BOOL ? unbool(L, A, idx) : A;
}

la_Mat *la_testoptmat(lua_State *L, int idx, const char *fname, const char *key) {
  la_Mat *A = la_testany(L, idx);
  if (A && (A->flags & LA_CLOSED)) la_error(L, fname, "option '%s' is a closed matrix", key);
  return A;
}

la_Mat *la_test(lua_State *L, int idx) {
  la_Mat *A = la_testany(L, idx);
  return A && A->dtype == LA_F64 ? A : NULL;
}

/* Tables are read raw (no __index / __len): data, not proxies, and the
** conversion cannot run arbitrary code. */
static lua_Integer tlen(lua_State *L, int idx) {
  return (lua_Integer)lua_rawlen(L, idx);
}

/* entry (i, j), on top, of type t (what lua_rawgeti returned: one call
** less an entry) */
static double tnumber(lua_State *L, const char *fname, int t, lua_Integer i,
                      lua_Integer j) {
  if (t == LUA_TNUMBER) return (double)lua_tonumber(L, -1);
  la_error(L, fname, "entry (%I,%I) is not a number (got %s)", i, j,
             luaL_typename(L, -1));
  return 0;
}

/* Converts the table at idx: a table of rows, or a flat table (a column
** vector). Pushes the new matrix. */
static la_Mat *fromtable(lua_State *L, int idx, const char *fname, int dtype) {
  lua_Integer m = tlen(L, idx), n = 1, i, j;
  int rowsmode;
  la_Mat *A;
  rowsmode = lua_rawgeti(L, idx, 1) == LUA_TTABLE;
  if (rowsmode) n = tlen(L, -1);
  lua_pop(L, 1);
  A = la_newt(L, fname, m, rowsmode ? n : 1, dtype);
  for (i = 1; i <= m; i++) {
    int t = lua_rawgeti(L, idx, i);
    if (!rowsmode) {
      la_put(A, (int)i - 1, 0, tnumber(L, fname, t, i, 1));
    } else {
      if (t != LUA_TTABLE)
        la_error(L, fname, "row %I is not a table (got %s)", i, luaL_typename(L, -1));
      if (tlen(L, -1) != n)
        la_error(L, fname, "row %I has %I entries, expected %I (ragged rows)",
                 i, tlen(L, -1), n);
      for (j = 1; j <= n; j++) {
        t = lua_rawgeti(L, -1, j);
        la_put(A, (int)i - 1, (int)j - 1, tnumber(L, fname, t, i, j));
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
  }
  return A;
}

/* A matrix argument at stack index idx, reported as argument argno, of
** element type want (LA_ANY: either); a Lua table, a Lua number (a 1 x 1
** matrix: NumPy's 0-d array), or a matrix of the other type, is converted
** and replaces the argument, which keeps it anchored. Every reader of a
** matrix argument comes here: this is the one place of both rules. */
static la_Mat *checkarg(lua_State *L, int idx, const char *fname, int argno, int want) {
  la_Mat *A = la_testmat(L, idx);
  if (A && (A->flags & LA_CLOSED))
    la_error(L, fname, "bad argument #%d (matrix is closed%s)", argno, (A->flags & LA_GONE) ?
             ": its storage was finalized" : "");
  if (A == NULL && lua_istable(L, idx)) {
    idx = lua_absindex(L, idx);
    A = fromtable(L, idx, fname, want < 0 ? LA_F64 : want);   /* in the type wanted */
    lua_replace(L, idx);
  } else if (A == NULL && lua_type(L, idx) == LUA_TNUMBER) {
    double x = lua_tonumber(L, idx);
    idx = lua_absindex(L, idx);
    A = la_newt(L, fname, 1, 1, want < 0 ? LA_F64 : want);
    la_put(A, 0, 0, x);
    lua_replace(L, idx);
  }
  if (A) {
    if (want == LA_ANY && A->dtype == LA_BOOL) want = LA_F64;  /* bool: computed as 1.0/0.0 */
    if (want >= 0 && A->dtype != want) {
      idx = lua_absindex(L, idx);
      A = la_convert(L, A, want, fname);
      lua_replace(L, idx);
    }
    return A;
  }
  la_error(L, fname, "bad argument #%d (matrix expected, got %s)", argno,
           la_typename(L, idx));
  return NULL;
}

la_Mat *la_checkarg(lua_State *L, int idx, const char *fname, int argno) {
  return checkarg(L, idx, fname, argno, LA_F64);
}

la_Mat *la_check(lua_State *L, int idx, const char *fname) {
  return checkarg(L, idx, fname, idx, LA_F64);
}

la_Mat *la_checkany(lua_State *L, int idx, const char *fname) {
  return checkarg(L, idx, fname, idx, LA_ANY);
}

la_Mat *la_checkargany(lua_State *L, int idx, const char *fname, int argno) {
  return checkarg(L, idx, fname, argno, LA_ANY);
}

la_Mat *la_checkall(lua_State *L, int idx, const char *fname) {
  return checkarg(L, idx, fname, idx, LA_ALL);
}

la_Mat *la_checkt(lua_State *L, int idx, const char *fname, int dtype) {
  return checkarg(L, idx, fname, idx, dtype);
}

la_Mat *la_checkargt(lua_State *L, int idx, const char *fname, int argno, int dtype) {
  return checkarg(L, idx, fname, argno, dtype);
}

/* A batch at stack index idx: a Lua list (not a matrix) whose first item
** is a matrix or a table of rows (a table whose first item is a table);
** with empty = 1, also an empty list. Pushes nothing. */
int la_isbatch(lua_State *L, int idx, int empty) {
  int r;
  if (!lua_istable(L, idx) || la_testany(L, idx)) return 0;
  if (empty && lua_rawlen(L, idx) == 0) return 1;
  lua_rawgeti(L, idx, 1);
  r = la_testany(L, -1) != NULL;
  if (!r && lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1);
    r = lua_istable(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return r;
}

/* NumPy's rule for the result type of the matrices at first..first+n-1:
** float32 when at least one is a float32 matrix and none a float64 one
** (Lua tables and numbers do not vote, as numbers do not promote, and nor
** do bool matrices: bool with float32 is float32). */
int la_argtype(lua_State *L, int first, int n) {
  int i, any32 = 0;
  for (i = first; i < first + n; i++) {
    la_Mat *A = la_testmat(L, i);
    if (A && A->dtype == LA_BOOL) continue;
    if (A && A->dtype == LA_F64) return LA_F64;
    if (A) any32 = 1;
  }
  return any32 ? LA_F32 : LA_F64;
}

int la_isvec(const la_Mat *A) { return A->cols == 1 || A->rows == 1; }

/* A vector argument (n x 1 or 1 x n): its data, length and stride. */
double *la_vec(lua_State *L, int idx, const char *fname, int *n, int *inc) {
  la_Mat *A = la_check(L, idx, fname);
  if (!la_isvec(A))
    la_argerror(L, fname, idx, lua_pushfstring(L,
                "vector expected, got a %dx%d matrix", A->rows, A->cols));
  if (A->cols == 1) { *n = A->rows; *inc = 1; }
  else { *n = A->cols; *inc = A->ld; }
  return A->data;
}

la_Mat *la_rhs(lua_State *L, int idx, const char *fname, int m) {
  return la_rhst(L, idx, fname, m, LA_F64);
}

la_Mat *la_rhst(lua_State *L, int idx, const char *fname, int m, int dtype) {
  la_Mat *B = la_checkt(L, idx, fname, dtype);
  if (B->rows == 1 && B->cols == m && m != 1) {
    la_Mat *C = la_newt(L, fname, m, 1, dtype);
    int i;
    for (i = 0; i < m; i++) la_put(C, i, 0, la_get(B, 0, i));
    lua_replace(L, idx);
    return C;
  }
  return B;
}

/* ------------------------------------------------------ checks */

/* column j of A (either type) holds only finite entries */
static int colfinite(const la_Mat *A, int j) {
  return A->dtype == LA_F32 ? lak_sallfinite(A->rows, A->fdata + (ptrdiff_t)j * A->ld)
                            : lak_allfinite(A->rows, A->data + (ptrdiff_t)j * A->ld);
}

int la_allfinite(const la_Mat *A) {
  int j;
  if (LA_EMPTY(A)) return 1;             /* 0 x 2^31-1: no column to visit */
  for (j = 0; j < A->cols; j++)
    if (!colfinite(A, j)) return 0;
  return 1;
}

/* First NaN/Inf of A, as an error naming it; hint says what to do about it. */
static void scanfinite(lua_State *L, const la_Mat *A, const char *fname,
                       const char *what, const char *hint) {
  int i, j;
  if (LA_EMPTY(A)) return;
  for (j = 0; j < A->cols; j++)
    if (!colfinite(A, j))
      for (i = 0; i < A->rows; i++)      /* find it for the message */
        if (!isfinite(la_get(A, i, j)))
          la_error(L, fname, "%s(%d,%d) is %s (%s)", what, i + 1, j + 1,
                   isnan(la_get(A, i, j)) ? "NaN" : "Inf", hint);
}

void la_checkfinite(lua_State *L, const la_Mat *A, const char *fname,
                    const char *what, int required) {
  scanfinite(L, A, fname, what, required ? "finite input required even with check_finite = false"
                                         : "pass check_finite = false to skip this check");
}

la_Mat *la_checksquare(lua_State *L, int idx, const char *fname) {
  return la_checksquaret(L, idx, fname, LA_F64);
}

la_Mat *la_checksquaret(lua_State *L, int idx, const char *fname, int dtype) {
  la_Mat *A = la_checkt(L, idx, fname, dtype);
  if (A->rows != A->cols)
    la_error(L, fname, "matrix must be square, got %dx%d", A->rows, A->cols);
  return A;
}

/* Symmetric within sqrt(eps) of the largest entry, eps of A's type (NumPy
** reads only the lower triangle and never checks; a silently wrong answer
** is worse). */
/* One pass over the pairs (i, j), (j, i) of a square A in 32 x 32 tiles
** (both tiles of a pair stay in cache): the largest |entry| (*big), the
** largest |A(i,j) - A(j,i)| (*diff) and whether every entry is finite.
** No branch on the data; four pairs at a time into four sets of
** accumulators (a chain of max through one would bound the speed). */
#define SYMSTEP(k, x, y) do { \
    double ax_ = fabs(x), ay_ = fabs(y), d_ = fabs((x) - (y)); \
    ax_ = ax_ > ay_ ? ax_ : ay_; \
    fin[k] += (x) * 0.0 + (y) * 0.0;     /* NaN once an entry is not finite */ \
    bg[k] = ax_ > bg[k] ? ax_ : bg[k]; df[k] = d_ > df[k] ? d_ : df[k]; \
  } while (0)
#define SYMPASS(T) \
  static int sympass_##T(const T *a, int n, ptrdiff_t ld, double *big, double *diff) { \
    double bg[4] = {0, 0, 0, 0}, df[4] = {0, 0, 0, 0}, fin[4] = {0, 0, 0, 0}; \
    int i0, j0, i, j; \
    for (j0 = 0; j0 < n; j0 += 32) \
      for (i0 = j0; i0 < n; i0 += 32) { \
        int je = j0 + 32 < n ? j0 + 32 : n, ie = i0 + 32 < n ? i0 + 32 : n; \
        for (j = j0; j < je; j++) { \
          const T *c = a + j * ld, *r = a + j; \
          for (i = i0 > j ? i0 : j; i + 4 <= ie; i += 4) { \
            SYMSTEP(0, (double)c[i], (double)r[i * ld]); \
            SYMSTEP(1, (double)c[i + 1], (double)r[(i + 1) * ld]); \
            SYMSTEP(2, (double)c[i + 2], (double)r[(i + 2) * ld]); \
            SYMSTEP(3, (double)c[i + 3], (double)r[(i + 3) * ld]); \
          } \
          for (; i < ie; i++) SYMSTEP(0, (double)c[i], (double)r[i * ld]); \
        } \
      } \
    bg[0] = bg[0] > bg[1] ? bg[0] : bg[1]; bg[2] = bg[2] > bg[3] ? bg[2] : bg[3]; \
    df[0] = df[0] > df[1] ? df[0] : df[1]; df[2] = df[2] > df[3] ? df[2] : df[3]; \
    *big = bg[0] > bg[2] ? bg[0] : bg[2]; *diff = df[0] > df[2] ? df[0] : df[2]; \
    return fin[0] + fin[1] + fin[2] + fin[3] == 0.0; \
  }
SYMPASS(double)
SYMPASS(float)

/* the first pair (i, j), (j, i) further apart than tol, as an error */
static void notsym(lua_State *L, const la_Mat *A, const char *fname, double tol) {
  int i, j;
  for (j = 0; j < A->cols; j++)
    for (i = j + 1; i < A->rows; i++)
      if (!(fabs(la_get(A, i, j) - la_get(A, j, i)) <= tol))
        la_error(L, fname, "matrix is not symmetric (A(%d,%d) = %f, A(%d,%d) = %f)",
                 i + 1, j + 1, la_get(A, i, j), j + 1, i + 1, la_get(A, j, i));
}

void la_checksymfinite(lua_State *L, const la_Mat *A, const char *fname, int finite) {
  double big, diff, tol, eps = A->dtype == LA_F32 ? 3.4526698300124393e-04 : 1.4901161193847656e-08;
  int fin = A->dtype == LA_F32 ? sympass_float(A->fdata, A->rows, A->ld, &big, &diff)
                               : sympass_double(A->data, A->rows, A->ld, &big, &diff);
  if (!fin && finite) la_checkfinite(L, A, fname, "A", 0);   /* raises, naming the entry */
  tol = eps * big;               /* big: of the entries that are not NaN, as before */
  if (!fin || !(diff <= tol)) notsym(L, A, fname, tol);
}

void la_checksym(lua_State *L, const la_Mat *A, const char *fname) {
  la_checksymfinite(L, A, fname, 0);
}

/* ------------------------------------------------------ access */

static int l_shape(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  lua_pushinteger(L, A->rows); lua_pushinteger(L, A->cols);
  return 2;
}

static int l_rows(lua_State *L) { lua_pushinteger(L, la_checkall(L, 1, "rows")->rows); return 1; }

static int l_cols(lua_State *L) { lua_pushinteger(L, la_checkall(L, 1, la_fname(L))->cols); return 1; }

static int l_numel(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  lua_pushinteger(L, (lua_Integer)A->rows * A->cols);
  return 1;
}

/* A 1-based index argument in 1..lim, returned 0-based. */
static int checkindex(lua_State *L, const char *fname, int arg, lua_Integer lim,
                      const char *what) {
  lua_Integer i = la_checkint(L, fname, arg);
  if (i < 1 || i > lim)
    la_error(L, fname, "%s index %I out of range 1..%I", what, i, lim);
  return (int)(i - 1);
}

void la_element(lua_State *L, la_Mat *A, const char *fname, int linear, int *pi, int *pj) {
  int i, j;
  if (linear) {
    lua_Integer k = checkindex(L, fname, 2, (lua_Integer)A->rows * A->cols,
                               "linear");
    if (A->rows == 1) { i = 0; j = (int)k; }
    else { i = (int)(k % A->rows); j = (int)(k / A->rows); }
  } else {
    i = checkindex(L, fname, 2, A->rows, "row");
    j = checkindex(L, fname, 3, A->cols, "column");
  }
  *pi = i; *pj = j;
}

static int l_get(lua_State *L) {
  la_Mat *A = la_checkall(L, 1, "get");
  int i, j;
  la_element(L, A, "get", lua_isnoneornil(L, 3), &i, &j);
  if (A->dtype == LA_BOOL) lua_pushboolean(L, LA_ATB(A, i, j));
  else lua_pushnumber(L, la_get(A, i, j));
  return 1;
}

la_Mat *la_view(lua_State *L, la_Mat *P, int i, int j, int m, int n, int ld) {
  size_t ext = (P->flags & LA_EXT) ? sizeof(const int *) : 0;   /* la_gonep's */
  la_Mat *V = (la_Mat *)lua_newuserdatauv(L, sizeof(la_Mat) + ext, 1);
  *V = la_block(P, i, j, m, n);
  V->ld = ld; V->flags = LA_VIEW | (P->flags & LA_EXT);
  V->magic = LA_MAGIC;
  if (P->flags & LA_EXT) la_setgonep(V, la_gonep(P));
  pushmeta(L, lua_upvalueindex(1));
  lua_setmetatable(L, -2);
  lua_pushvalue(L, 1);
  la_keepalive(L, -2);
  return V;
}

static int l_row(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  la_view(L, A, checkindex(L, F, 2, A->rows, "row"), 0, 1, A->cols, A->ld);
  return 1;
}

static int l_col(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  la_view(L, A, 0, checkindex(L, F, 2, A->cols, "column"), A->rows, 1, A->ld);
  return 1;
}

/* sub(i1, i2, j1, j2): inclusive ranges; i2 = i1 - 1 gives an empty view */
static int l_sub(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  lua_Integer r[4];
  int k;
  for (k = 0; k < 4; k++) r[k] = la_checkint(L, F, k + 2);
  if (r[0] < 1 || r[1] > A->rows || r[1] < r[0] - 1)
    la_error(L, F, "rows %I..%I out of range for a %dx%d matrix",
             r[0], r[1], A->rows, A->cols);
  if (r[2] < 1 || r[3] > A->cols || r[3] < r[2] - 1)
    la_error(L, F, "columns %I..%I out of range for a %dx%d matrix",
             r[2], r[3], A->rows, A->cols);
  la_view(L, A, (int)r[0] - 1, (int)r[2] - 1, (int)(r[1] - r[0] + 1),
          (int)(r[3] - r[2] + 1), A->ld);
  return 1;
}

static int l_copy(lua_State *L) {
  const char *F = la_fname(L);
  la_copyof(L, la_checkall(L, 1, F), F);
  return 1;
}

/* a size argument of reshape: 0..INT_MAX, or -1 (to be inferred) */
static int rsize(lua_State *L, const char *fname, int arg) {
  if (lua_type(L, arg) == LUA_TNUMBER && lua_tonumber(L, arg) == -1) return -1;
  return la_checksize(L, fname, arg);
}

/* The size -1 stands for in a reshape of A into m x n: the other size
** must divide A's entries (and not be 0). */
static int inferred(lua_State *L, const char *fname, const la_Mat *A, int m, int n) {
  lua_Integer all = (lua_Integer)A->rows * A->cols, k = m < 0 ? n : m;
  if (m < 0 && n < 0) return la_error(L, fname, "only one size can be -1");
  if (k == 0 || all % k != 0 || all / k > 2147483647) {
    if (m < 0) return la_error(L, fname, "cannot reshape %dx%d into ?x%d", A->rows, A->cols, n);
    return la_error(L, fname, "cannot reshape %dx%d into %dx?", A->rows, A->cols, m);
  }
  return (int)(all / k);
}

/* reshape(A, m, n): the entries in column-major order; one of m, n may be
** -1, inferred from the others (NumPy's); reshape(A, k) with k = numel(A)
** or -1: all of them as a column */
static int l_reshape(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F), *B, D;
  int m = rsize(L, F, 2), n = lua_isnoneornil(L, 3) ? 1 : rsize(L, F, 3);
  if (m < 0) m = inferred(L, F, A, m, n);
  else if (n < 0) n = inferred(L, F, A, m, n);
  if ((lua_Integer)m * n != (lua_Integer)A->rows * A->cols)
    la_error(L, F, "cannot reshape %dx%d into %dx%d", A->rows, A->cols, m, n);
  B = la_newt(L, F, m, n, A->dtype);
  D = *B;                                 /* B's storage as A's shape, packed */
  D.rows = A->rows; D.cols = A->cols; D.ld = A->rows > 0 ? A->rows : 1;
  la_copyto(A, &D);
  return 1;
}

/* entry (i, j) of A as a Lua value: a boolean of a bool matrix, else a number */
static void pushentry(lua_State *L, const la_Mat *A, int i, int j) {
  if (A->dtype == LA_BOOL) lua_pushboolean(L, LA_ATB(A, i, j));
  else lua_pushnumber(L, la_get(A, i, j));
}

/* totable's building step, run protected: the matrix (a light userdata at
** 1, anchored by the caller) as a new table (pushes 1). Rows are filled
** TROWS at a time, a column of them after another, so the entries are read
** down the columns, as they lie (a row at a time read one cache line an
** entry: 1000 x 1000 took 9.6 ms, now 8.3; 100 x 100 77 -> 74 us, Python's
** tolist 65). TROWS + 3 stack slots, within LUA_MINSTACK. */
#define TROWS 8
static int buildtable(lua_State *L) {
  const la_Mat *A = (const la_Mat *)lua_touserdata(L, 1);
  int i, j, r, h, base;
  lua_createtable(L, A->rows, 0);
  if (A->cols == 1) {
    for (i = 0; i < A->rows; i++) { pushentry(L, A, i, 0); lua_rawseti(L, 2, i + 1); }
    return 1;
  }
  for (i = 0; i < A->rows; i += TROWS) {
    h = A->rows - i < TROWS ? A->rows - i : TROWS;
    for (r = 0; r < h; r++) lua_createtable(L, A->cols, 0);
    base = lua_gettop(L) - h + 1;                   /* row i + r is at base + r */
    for (j = 0; j < A->cols; j++)
      for (r = 0; r < h; r++) {
        pushentry(L, A, i + r, j);
        lua_rawseti(L, base + r, j + 1);
      }
    for (r = h - 1; r >= 0; r--) lua_rawseti(L, 2, i + r + 1);   /* pops row i + r */
  }
  return 1;
}

static int l_totable(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  /* a table's only limit is memory (lua_createtable takes any int size and
  ** fails by running out; LuaJIT's array part also stops near 2^27 entries,
  ** "table overflow"), and the tables cost more than the matrix (16 bytes
  ** a number, a header per row): either failure says which matrix */
  lua_pushcfunction(L, buildtable);
  lua_pushlightuserdata(L, A);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK)
    return la_error(L, F, "%dx%d matrix is too large for a Lua table (%s)", A->rows, A->cols,
                    lua_tostring(L, -1));
  return 1;
}

void la_transposeto(const la_Mat *A, la_Mat *B) {
  int i, j;
  if (A->dtype == LA_BOOL) {            /* bytes: a plain loop */
    for (j = 0; j < A->cols; j++)
      for (i = 0; i < A->rows; i++) LA_ATB(B, j, i) = LA_ATB(A, i, j);
  } else if (A->dtype == LA_F64) lak_transpose(A->rows, A->cols, A->data, A->ld, B->data, B->ld);
  else lak_stranspose(A->rows, A->cols, A->fdata, A->ld, B->fdata, B->ld);
}

static int l_t(lua_State *L) {
  la_Mat *A = la_checkall(L, 1, "t");
  la_transposeto(A, la_newt(L, "t", A->cols, A->rows, A->dtype));
  return 1;
}

/* astype(A, dtype) -> a copy of A with elements of type dtype ("float64",
** "float32" or "bool": nonzero, NaN included, is true), as NumPy's astype */
static int l_astype(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  const char *s;
  int t;
  if (lua_type(L, 2) != LUA_TSTRING) return la_typeerror(L, F, 2, "string");
  s = lua_tostring(L, 2);
  for (t = 0; la_dtypesb[t] && strcmp(s, la_dtypesb[t]) != 0; t++) {}
  if (!la_dtypesb[t])
    return la_argerror(L, F, 2, lua_pushfstring(L, "dtype must be \"float64\", \"float32\" or "
                       "\"bool\", got \"%s\"", s));
  la_convert(L, A, t, F);
  return 1;
}

/* ------------------------------------------------- metamethods */

/* A[k] for anything but a method name or T: an error that says what to
** write instead (A[1] could mean an entry in Octave and a row in NumPy). */
static int badindex(lua_State *L) {
  const char *best = NULL;
  int bd = 99;
  if (lua_type(L, 2) == LUA_TNUMBER)
    return la_error(L, "matrix", "A[%s] is not defined: use A(i, j) or A:get(i, j) for "
                    "an entry, A:row(i) or A:col(j) for a view", lua_tostring(L, 2));
  if (lua_type(L, 2) != LUA_TSTRING)
    return la_error(L, "matrix", "no field with a %s key", la_typename(L, 2));
  lua_pushnil(L);
  while (lua_next(L, LA_UPVALUE(1))) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) la_closest(lua_tostring(L, 2), lua_tostring(L, -1), &best, &bd);
  }
  if (best)
    return la_error(L, "matrix", "no method or field '%s' (did you mean '%s'?)",
                    lua_tostring(L, 2), best);
  return la_error(L, "matrix", "no method or field '%s'", lua_tostring(L, 2));
}

/* A.T, A.dtype, else the module's function k (on LuaJIT the Lua front's
** compat.methodindex answers first and calls this for these two keys and
** for misses) */
static int m_index(lua_State *L) {
  size_t len = 0;     /* the whole key: "T\0x" is not T */
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
  if (k && len == 1 && k[0] == 'T') {
    lua_settop(L, 1);
    return l_t(L);
  }
  if (k && len == 5 && strcmp(k, "dtype") == 0) {
    la_Mat *A = la_testmat(L, 1);
    if (A) { lua_pushstring(L, la_dtypesb[A->dtype]); return 1; }
  }
  lua_pushvalue(L, 2);
  if (lua_rawget(L, LA_UPVALUE(1)) == LUA_TNIL) return badindex(L);
  return 1;
}

/* matrices take no fields; entries are set with set */
static int m_newindex(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return la_error(L, "matrix", "matrices take no fields (A.%s = ...): use "
                    "A:set(i, j, x) to set an entry", lua_tostring(L, 2));
  return la_error(L, "matrix", "A[%s] = ... is not defined: use A:set(i, j, x) to set "
                  "an entry", luaL_tolstring(L, 2, NULL));
}

/* #A: Lua calls it on matrices only (a direct call with a number is an
** error, as __close's, though rows(5) is 1) */
static int m_len(lua_State *L) {
  if (la_testmat(L, 1) == NULL) return la_typeerror(L, "rows", 1, "matrix");
  return l_rows(L);
}

/* A(i [, j]) is A:get(i [, j]): self and at most two indices */
static int m_call(lua_State *L) {
  la_checknargs(L, "get", 3, 0);
  return l_get(L);
}

/* __close: later use is an error; closing twice is harmless. No memory is
** released early: views of this matrix may still point into it. */
static int m_close(lua_State *L) {
  la_Mat *A = la_testmat(L, 1);
  if (A == NULL) return la_typeerror(L, "close", 1, "matrix");
  A->flags |= LA_CLOSED;
  return 0;
}

/* ------------------------------------------------ registration */

static const la_Reg funcs[] = {
  {"shape", l_shape, 1}, {"rows", l_rows, 1}, {"cols", l_cols, 1}, {"numel", l_numel, 1},
  {"get", l_get, 3}, {"row", l_row, 2}, {"col", l_col, 2},
  {"sub", l_sub, 5}, {"copy", l_copy, 1}, {"reshape", l_reshape, 3},
  {"totable", l_totable, 1}, {"t", l_t, 1}, {"astype", l_astype, 2}, {NULL, NULL, 0}
};

static const la_Reg meta[] = {
  {"__len", m_len, LA_VARARG}, {"__call", m_call, LA_VARARG},
  {"__close", m_close, LA_VARARG},
  {"__newindex", m_newindex, LA_VARARG}, {NULL, NULL, 0}
};

/* Creates the matrix metatable (registered by name for hosts and under a
** pointer key for speed) and registers the access functions in the module
** table at -1. __index reads the module table (its own upvalue 1), so
** A:f(...) is la.f(A, ...) for every function any part registers. */
void la_open_matrix(lua_State *L) {
  static const la_Reg index[] = {{"__index", m_index, LA_VARARG}, {NULL, NULL, 0}};
  luaL_newmetatable(L, LINALG_MATRIX);
  lua_pushliteral(L, LINALG_MATRIX);      /* getmetatable(A) gives the name only */
  lua_setfield(L, -2, "__metatable");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &mt_key);
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
  luaL_getmetatable(L, LINALG_MATRIX);
  lua_pushvalue(L, -2);                   /* mod mt mod */
  la_setfuncs(L, index, 1);
  lua_pop(L, 1);
}

/* ------------------------------------------------------- C API */

/* Errors of the C API carry no position: the Lua code that called the
** host's function did nothing wrong. */
static void needmeta(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key) == LUA_TNIL) {
    lua_pushliteral(L, "linalg: module not loaded (require \"linalg\" first)");
    lua_error(L);
  }
  lua_pop(L, 1);
}

/* "Is this a matrix?" for the C API, which runs inside the host's own
** functions: their upvalue 1 is theirs, so only the registry's metatable
** (which only this module creates) decides. */
static la_Mat *testapi(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  int same;
  if (p == NULL || lua_rawlen(L, idx) < sizeof(la_Mat) || ((la_Mat *)p)->magic != LA_MAGIC ||
      !lua_getmetatable(L, idx))
    return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? la_seen((la_Mat *)p) : NULL;
}

/* Pushes a rows x cols matrix of type dtype, a copy of src (esize-byte
** elements, leading dimension ld_src) or zeros; returns its data. */
static void *pushany(lua_State *L, int rows, int cols, const void *src, int ld_src,
                     int dtype) {
  la_Mat *A, S;
  needmeta(L);
  A = newmat(L, "pushmatrix", rows, cols, 0, dtype);   /* the registry's metatable */
  if (!src) memset(dtype == LA_F32 ? (void *)A->fdata : (void *)A->data, 0,
                   (size_t)rows * (size_t)cols * esize(dtype));
  else {
    if (ld_src < (rows > 0 ? rows : 1))
      la_error(L, "pushmatrix", "ld_src %d < rows %d", ld_src, rows);
    S = *A;                                  /* src as a matrix of the same type */
    S.ld = ld_src;
    S.data = dtype == LA_F64 ? (double *)(uintptr_t)src : NULL;
    S.fdata = dtype == LA_F32 ? (float *)(uintptr_t)src : NULL;
    la_copyto(&S, A);
  }
  return dtype == LA_F32 ? (void *)A->fdata : (void *)A->data;
}

/* The data of the matrix at idx if it is open and of type dtype, its shape
** stored (any out pointer may be NULL); else NULL, or with check an error
** that says why: closed, the other type, or no matrix. The float64 and
** float32 functions of linalg.h are this with their types. */
static void *typed(lua_State *L, int idx, int dtype, int check, int *rows, int *cols,
                   int *ld) {
  la_Mat *A = testapi(L, idx);
  if (A && !(A->flags & LA_CLOSED) && A->dtype == dtype) {
    if (rows) *rows = A->rows;
    if (cols) *cols = A->cols;
    if (ld) *ld = A->ld;
    return dtype == LA_F32 ? (void *)A->fdata : (void *)A->data;
  }
  if (!check) return NULL;
  if (A && (A->flags & LA_CLOSED)) la_argerror(L, "checkmatrix", idx, "matrix is closed");
  if (A)
    la_argerror(L, "checkmatrix", idx, lua_pushfstring(L, "%s matrix expected, got a %s "
                "matrix (A:astype(\"%s\") converts it)", la_dtypes[dtype],
                la_dtypesb[A->dtype], la_dtypes[dtype]));
  la_typeerror(L, "checkmatrix", idx, "matrix");
  return NULL;
}

LINALG_API double *linalg_pushmatrix(lua_State *L, int rows, int cols, const double *src,
                                     int ld_src) {
  return (double *)pushany(L, rows, cols, src, ld_src, LA_F64);
}
LINALG_API double *linalg_testmatrix(lua_State *L, int idx, int *rows, int *cols, int *ld) {
  return (double *)typed(L, idx, LA_F64, 0, rows, cols, ld);
}
LINALG_API double *linalg_checkmatrix(lua_State *L, int idx, int *rows, int *cols, int *ld) {
  return (double *)typed(L, idx, LA_F64, 1, rows, cols, ld);
}
LINALG_API float *linalg_pushmatrixf(lua_State *L, int rows, int cols, const float *src,
                                     int ld_src) {
  return (float *)pushany(L, rows, cols, src, ld_src, LA_F32);
}
LINALG_API float *linalg_testmatrixf(lua_State *L, int idx, int *rows, int *cols, int *ld) {
  return (float *)typed(L, idx, LA_F32, 0, rows, cols, ld);
}
LINALG_API float *linalg_checkmatrixf(lua_State *L, int idx, int *rows, int *cols, int *ld) {
  return (float *)typed(L, idx, LA_F32, 1, rows, cols, ld);
}

LINALG_API const char *linalg_dtype(lua_State *L, int idx) {
  la_Mat *A = testapi(L, idx);
  return A ? la_dtypesb[A->dtype] : NULL;
}
