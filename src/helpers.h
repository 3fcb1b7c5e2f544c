/*
** helpers.h: the helper layer every binding file builds on (not for hosts;
** their header is linalg.h). helpers.c: errors, argument and option
** readers, Lua-owned scratch, registration under public names;
** lapackcall.c: LAPACK's error reports and workspace queries. The matrix
** type is in matrix.h, included here. Conventions: src/README.md.
*/
#ifndef LA_HELPERS_H
#define LA_HELPERS_H

#include <stdarg.h>
#include <stdio.h>

#include <lua.h>
#include <lauxlib.h>

#include "compat.h"
#include "linalg.h"
#include "matrix.h"
#include "kernels/kernels.h"

/* ------------------------------------------------------------ names */

/* Every entry point is a closure with upvalue 1 the matrix metatable,
** upvalue 2 its public name and upvalue 3 its la_Reg (a light userdata),
** all three bound at registration: la_fname gives the name the user called,
** for every message the function and its helpers raise. Further upvalues
** (4, ...) are the function's own. */
const char *la_fname(lua_State *L);

/* A function's registration: its public name, the C function, and how many
** arguments it takes: at most n positional ones, written n, or n + LA_OPTS
** when an options table may follow them (at position n + 1, or earlier
** where the function reads it there), or LA_VARARG (any number: the
** metamethods, whose arguments Lua supplies, and kron, blkdiag). A call
** with more is an error before the function runs (la_checknargs); a
** method's self counts. */
#define LA_VARARG (-1)
#define LA_OPTS 256
typedef struct la_Reg {
  const char *name;
  lua_CFunction func;
  int nargs;
} la_Reg;
#define LA_UPVALUE(k) lua_upvalueindex(3 + (k))   /* own upvalue k (1, 2, ...) */

/* The function of r as a closure named name over the metatable, name, r and
** the nup values on top, which it pops (pushes 1). */
void la_pushfunc(lua_State *L, const la_Reg *r, const char *name, int nup);
/* Registers funcs into the table at -(nup + 1), each with the metatable,
** its name, its la_Reg and the nup values on top as upvalues; pops those
** values. */
void la_setfuncs(lua_State *L, const la_Reg *funcs, int nup);
/* the same into the matrix metatable (names as keys: "__add", ...) */
void la_setmeta(lua_State *L, const la_Reg *meta);
/* At most nargs arguments (then an options table when opts): nils past
** them are dropped, as absent (NumPy's None); one argument more is an
** error naming it: "bad argument #2 (exp takes at most 1 argument)". */
void la_checknargs(lua_State *L, const char *fname, int nargs, int opts);

/* ------------------------------------------------------------ errors */

/* lua_pushfstring / lua_pushvfstring with %I (a lua_Integer) on every Lua
** (Lua's own has %I from 5.3 on); the other conversions are Lua's: %s %d
** %c %f %p %%. Messages that print an integer wider than int use these. */
const char *la_pushfstring(lua_State *L, const char *fmt, ...);
const char *la_pushvfstring(lua_State *L, const char *fmt, va_list ap);

/* Every message starts with "linalg.<fname>: " (formatted as
** la_pushfstring). None of them returns. */
int la_error(lua_State *L, const char *fname, const char *fmt, ...);
int la_argerror(lua_State *L, const char *fname, int arg, const char *msg);
int la_typeerror(lua_State *L, const char *fname, int arg, const char *what);
/* __newindex of a userdata with no fields to set (value 2 the key):
** "<what> takes no fields (<var>.key = ...)" */
int la_nofields(lua_State *L, const char *fname, const char *what, const char *var);
/* the type name for messages: a metatable's __name if it has one */
const char *la_typename(lua_State *L, int idx);

/* Keeps cand in *best when it is closer to key than *bd edits (at most 2):
** the "did you mean" of option and method names. */
void la_closest(const char *key, const char *cand, const char **best, int *bd);
/* "unknown option 'casual' (did you mean 'causal'?)" for the key at -1 */
int la_unknownkey(lua_State *L, const char *fname, const char *best);

/* ------------------------------------------------------------ arguments */

/* positional arguments: an integer (an integral float accepted), a size
** in 0..INT_MAX, a value of Lua type t, an optional number */
lua_Integer la_checkint(lua_State *L, const char *fname, int arg);
int la_checksize(lua_State *L, const char *fname, int arg);
void la_checktype(lua_State *L, const char *fname, int arg, int t);
double la_optargnum(lua_State *L, const char *fname, int arg, double def);

/* the string at arg as its index in choices (NULL-terminated), as
** luaL_checkoption does: another string is the argument error msg
** ("order must be a number, \"fro\" or \"nuc\""), another type a type
** error */
int la_checkenum(lua_State *L, const char *fname, int arg,
                 const char *const choices[], const char *msg);

/* a positional number at arg, or def when it is absent or is the options
** table (pinv(A, {...}), rank(A, tol)) */
double la_optposnum(lua_State *L, const char *fname, int arg, double def);

/* a positional tolerance named name ("tol", "rcond") at arg: def when
** absent or the options table; NaN or a negative number is an argument
** error naming it */
double la_opttol(lua_State *L, const char *fname, int arg, const char *name, double def);

/* a dim argument at arg: 0 when absent, else 1 (down columns) or 2 */
int la_optdim(lua_State *L, const char *fname, int arg);
/* the dim of a function of lines (softmax, sorts, scans, flips) of a rows x
** cols matrix: 1 or 2 when given at arg; else a vector runs along itself
** (2 for a 1 x n row, 1 for an n x 1 column, n ~= 1) and anything else
** along def */
int la_optvecdim(lua_State *L, const char *fname, int arg, int rows, int cols, int def);
/* the dim of a line-wise function (scans, sorts, flips, vecnorm) of a
** rows x cols matrix: 1 or 2 when given at arg, else 2 (along) for a 1 x n
** row and 1 (down the columns) for anything else (Octave's first
** non-singleton dimension) */
int la_optlinedim(lua_State *L, const char *fname, int arg, int rows, int cols);

/* ------------------------------------------------------------ options */

/* The options table at stack index idx (0, none or nil: no options). Every
** reader checks the value's type while it is on the stack and keeps no
** pointer into it; la_checkopts rejects keys not in keys (NULL-terminated),
** naming the closest known one. */
void la_checkopts(lua_State *L, int idx, const char *fname,
                  const char *const keys[]);
int la_optbool(lua_State *L, int idx, const char *key, int def,
               const char *fname);
double la_optnum(lua_State *L, int idx, const char *key, double def,
                 const char *fname);
lua_Integer la_optint(lua_State *L, int idx, const char *key, lua_Integer def,
                      const char *fname);
/* index of the option's string in choices (NULL-terminated), def if
** absent; anything else is an error listing the choices
** (luaL_checkoption's contract for an option) */
int la_optenum(lua_State *L, int idx, const char *key, int def,
               const char *const choices[], const char *fname);
/* the check_finite option (default true) */
int la_optcheckfinite(lua_State *L, int idx, const char *fname);
/* Index of the options table: the last argument when it is a plain table
** at or after position first (a table before that is a matrix), else 0. */
int la_optsat(lua_State *L, int first);

/* ------------------------------------------------------------ scratch */

/* Scratch memory owned by Lua: room for n elements of size bytes in a full
** userdata left on the stack (pushes 1), freed by the GC on any path,
** error or not; running out of memory is an error of la_fname's. */
void *la_alloc(lua_State *L, size_t n, size_t size);
#define LA_SCRATCH(L, T, n) ((T *)la_alloc((L), (n), sizeof(T)))
/* la_alloc for a workspace a function asks for on every call (pushes 1):
** the block the last such call gave back with la_keepwork(L, idx) when it
** is large enough, else a new one. One block of at most LA_WORKCACHE bytes
** is kept per Lua state until it closes (a weak reference would lose it to
** the collection cycles small results set off); a nested call, or one
** after an error (whose block the GC takes), allocates its own. Workspaces
** of 64 KiB to 2 MiB then cost no mmap, munmap and page faults per call
** (LuaJIT's allocator maps every block of 128 KiB and more anew). */
#define LA_WORKCACHE ((size_t)2 << 20)
void *la_keptwork(lua_State *L, size_t n, size_t size);
void la_keepwork(lua_State *L, int idx);
#define LA_KEPTWORK(L, T, n) ((T *)la_keptwork((L), (n), sizeof(T)))
#define la_scratch(L, n) LA_SCRATCH(L, double, n)
/* A full userdata of sz bytes with nuv user values (pushes 1): from
** LA_BIGALLOC bytes on through a protected call, so that running out of
** memory is an error of fname's that says what was asked (what:
** "workspace", or NULL for "a 3x4 matrix" of dims = {3, 4}, formatted only
** then); below, the call would cost more than it says. */
#define LA_BIGALLOC ((size_t)1 << 16)
void *la_allocud(lua_State *L, const char *fname, size_t sz, int nuv, const char *what,
                 const lua_Integer *dims);
/* Storage outside the Lua heap, from the host's allocator (lua_getallocf):
** sz bytes owned by a small userdata (pushed; its __gc gives them back),
** for blocks of la_extfloor() bytes and more: LuaJIT's userdata stop near
** 2 GiB, and a block given back waits in a small per-state cache for the
** next allocation of its size (helpers.c: fresh memory costs its page
** faults, and a userdata's memory goes straight back to the allocator).
** The collector does not see these bytes, so each allocation steps it in
** proportion (lua_gc LUA_GCSTEP by sz / 1024). Out of memory is an error of
** fname's that says what was asked (what and dims as la_allocud's).
** la_extmin is 0, or the environment's LINALG_EXTERNAL_MIN (bytes) when
** the module opens: the specs and spec/alloc set it to run this path with
** small matrices, or never. la_initext (at luaopen) reads it and makes the
** state's anchor, which frees at lua_close the blocks of owners whose __gc
** Lua dropped (a finalizer's call can fail for memory). */
/* Under a memory limit, glibc's default mmap threshold: smaller blocks come
** from its heap, where the small owners between them kept freed blocks
** from being trimmed (a process under an address-space limit then failed
** where it had room); and under LuaJIT (compat.h). Otherwise from
** LA_BIGALLOC: blocks of 64 to 128 KiB in the Lua heap, freed a few at a
** time by the collector, left glibc a free top it trimmed, and the next
** results paid their pages again (A + 1 at 100 x 100: 1.9 -> 6.6 us, at
** 120 x 120 2.6 -> 15 us). */
#define LA_EXTMIN ((size_t)128 << 10)
extern size_t la_extmin;
/* the size from which storage is outside the heap now: the limit is read
** again at each fresh block, so a host that sets one later gets 128 KiB */
size_t la_extfloor(void);
void la_initext(lua_State *L);
/* bytes outside the heap: of live owners, and cached for reuse */
void la_extstats(lua_State *L, size_t *live, size_t *cached);
/* asks for transparent huge pages for [p, p + len) from 4 MiB (helpers.c) */
void la_hugepages(void *p, size_t len);
void *la_allocext(lua_State *L, const char *fname, size_t sz, const char *what,
                  const lua_Integer *dims);
/* The owner at idx (la_allocext's) has a flag its __gc sets: a header of
** its storage keeps its address (matrix.h: la_gonep), and reads as closed
** once it is set. A finalizer can reach a matrix whose storage's owner was
** finalized before it: both became garbage together (finalizers run
** newest first), or lua_close runs every finalizer. */
const int *la_extgone(lua_State *L, int idx);
/* Before a Lua string of len bytes is pushed (tobytes): the collector's
** step for it (compat.h's la_compat_bigstring, with the state's pace). */
void la_bigstring(lua_State *L, size_t len);
/* Called after each allocation of bytes (la_allocud, la_alloc, new
** matrices do it): OpenBLAS runs on one thread while 4 MiB of C heap
** cannot be had, as its threaded drivers exit the process when their
** per-call malloc fails (helpers.c says when it asks). */
void la_headroom(size_t bytes);
/* OpenBLAS's thread count as the user set it (n > 0 sets it first) */
int la_threads(int n);

/* ------------------------------------------------------------ LAPACK */

/* LAPACK's argument reports (xerbla) are recorded, never printed; this
** raises on info < 0 or a recorded report, naming the routine. */
void la_checkinfo(lua_State *L, const char *fname, const char *routine, int info);
/* workspace of a lwork = -1 query's size, elements of esize bytes (pushes 1) */
void *la_work(lua_State *L, const char *fname, double query, int *lwork, size_t esize);

/* Runs a LAPACKE _work routine the way LAPACK asks to be run: `call` once
** with WORK a one-element query and LWORK = -1, then again with WORK a
** workspace of the size the query returned (Lua-owned, pushed) and LWORK
** its length; info receives each result and is checked. `call` is the
** routine's call written with the names WORK and LWORK. */
#define LA_WORKCALLT(T, L, fname, routine, info, call) do {               \
    T la_query_; T *WORK = &la_query_; int LWORK = -1;                   \
    (info) = (call); la_checkinfo((L), (fname), (routine), (info));      \
    WORK = (T *)la_work((L), (fname), la_query_, &LWORK, sizeof(T));     \
    (info) = (call); la_checkinfo((L), (fname), (routine), (info));      \
  } while (0)
#define LA_WORKCALL(L, fname, routine, info, call) \
  LA_WORKCALLT(double, L, fname, routine, info, call)

/* LA_WORKCALL for the routines whose query also sizes an integer workspace
** (dsyevd, dgelsd): `call` is written with WORK, LWORK, IWORK and LIWORK
** (a routine without an liwork argument leaves LIWORK out). The query
** passes LWORK = LIWORK = -1 and reads the integer size from IWORK[0];
** the call gets IWORK of that length (at least 1), then WORK, both
** Lua-owned (pushes IWORK, WORK). */
#define LA_WORKCALLT_IWORK(T, L, fname, routine, info, call) do {         \
    T la_query_; T *WORK = &la_query_; int LWORK = -1;                   \
    lapack_int la_iquery_ = 1, *IWORK = &la_iquery_, LIWORK = -1;        \
    (info) = (call); la_checkinfo((L), (fname), (routine), (info));      \
    LIWORK = la_iquery_ > 1 ? la_iquery_ : 1;                            \
    IWORK = LA_SCRATCH((L), lapack_int, (size_t)LIWORK);                 \
    WORK = (T *)la_work((L), (fname), la_query_, &LWORK, sizeof(T));     \
    (info) = (call); la_checkinfo((L), (fname), (routine), (info));      \
  } while (0)
#define LA_WORKCALL_IWORK(L, fname, routine, info, call) \
  LA_WORKCALLT_IWORK(double, L, fname, routine, info, call)

/* The singular values of A (a copy is factorized by dgesdd; NaN/Inf in A
** is an error), descending, as a vector: job 'N' pushes s; 'S' (thin) and
** 'A' (full) push U, s, Vt. Returns s. */
la_Mat *la_svd(lua_State *L, const la_Mat *A, const char *fname, char job);

/* LU of a copy of A by dgetrf, or past a subnormal pivot (whose reciprocal
** OpenBLAS's getrf would take) by dgetrf2 (pushes the copy and ipiv of
** min(m, n) entries; info > 0: singular); la_inverse turns such an LU of
** a square A into the inverse (dgetri; dgetrs on I past a subnormal pivot)
** and returns 0, or that pivot's index when the inverse overflows.
** la_tinypivot: the 1-based index of the first subnormal diagonal entry
** of an LU (or any) factor, else 0. */
la_Mat *la_lu(lua_State *L, const la_Mat *A, const char *fname, int **ipiv, int *info);
int la_inverse(lua_State *L, la_Mat *W, int *ipiv, const char *fname);
int la_tinypivot(const la_Mat *W);

/* ------------------------------------------------------------ operands */

/* operand.c. A broadcasting operand: a number (1 x 1, strides 0, num = 1)
** or a matrix (a table is converted in place, a closed matrix is an error).
** la_broadcast reads k of them from stack index 1 on to a common shape
** m x n by NumPy's rule (sizes equal, or 1; broadcast dimensions get
** stride 0; else "shapes 2x3 and 4x1 do not broadcast") and returns 1 when
** all are numbers. o->a points into *o: an Operand is not copied. */
typedef struct la_Operand { lak_Arg a; int m, n, num; double s; } la_Operand;
void la_operand(lua_State *L, int idx, const char *fname, la_Operand *o);
/* the shape step alone, for operands read otherwise (float32): o[i].m, .n
** and the strides o[i].a.rs, .cs set; the strides of broadcast dimensions
** become 0, shapes that do not broadcast are an error */
void la_bshape(lua_State *L, const char *fname, la_Operand *o, int k, int *m, int *n);
int la_broadcast(lua_State *L, const char *fname, la_Operand *o, int k,
                 int *m, int *n);
/* The float32 reading of k <= LA_MAXOPS operands from index 1: when
** la_argtype says float32 (a float32 matrix, no float64 one), fills a[i]
** with broadcast strides (a number is a float in s[i], a table is made a
** float32 matrix in its slot), sets m, n and returns 1; otherwise returns 0
** having read nothing, and the caller takes la_broadcast (float64). */
#define LA_MAXOPS 4
int la_broadcast32(lua_State *L, const char *fname, lak_sArg *a, float *s, int k,
                   int *m, int *n);

/* A vector argument (n x 1 or 1 x n, as la_vec reads it); la_vecpair reads
** arguments 1 and 2, which must have one length. */
typedef struct la_Vec { double *p; int n, inc; } la_Vec;
la_Vec la_getvec(lua_State *L, int idx, const char *fname);
void la_vecpair(lua_State *L, const char *fname, la_Vec *u, la_Vec *v);

/* Line k of A along dim (1: column k, 2: row k), of A's element type: n
** entries p[0], p[s], p[2s], ... of a float64 matrix (f NULL), or f[0],
** f[s], ... of a float32 one (p NULL). LA_LX(l, i) reads entry i as a
** double, LA_LSET(l, i, x) writes it (rounded to float in a float32 line).
** la_flat: all of a packed A (ld = rows) as one line. A kernel takes a
** line as l.n, l.p, l.s (lak_x) or l.n, l.f, l.s (lak_sx): `l.f ? lak_sx(...)
** : lak_x(...)`. */
typedef struct la_Line { double *p; float *f; ptrdiff_t s; size_t n; } la_Line;
la_Line la_line(const la_Mat *A, int dim, int k);
la_Line la_flat(const la_Mat *A);
#define LA_LX(l, i) ((l).f ? (double)(l).f[(ptrdiff_t)(i) * (l).s] \
                           : (l).p[(ptrdiff_t)(i) * (l).s])
#define LA_LSET(l, i, x) do { ptrdiff_t la_o_ = (ptrdiff_t)(i) * (l).s; \
    if ((l).f) (l).f[la_o_] = (float)(x); else (l).p[la_o_] = (x); } while (0)
/* The line kernels on a line of either type, in double: lak_reduce's r
** (LAK_SUM, ...), lak_vnorm's p-norm, lak_dotd's dot product (u and v of
** one type and length). */
double la_lreduce(int r, la_Line l, double ddof);
double la_lnorm(la_Line l, double p);
double la_ldot(la_Line u, la_Line v);
/* A vector argument (as la_vec reads it) as a line of type dtype (LA_ANY:
** its own, la_checkt's rule). la_linepair reads arguments 1 and 2, which
** must have one length, in their la_argtype. */
la_Line la_vecline(lua_State *L, int idx, const char *fname, int dtype);
void la_linepair(lua_State *L, const char *fname, la_Line *u, la_Line *v);

/* ------------------------------------------------------------ attention */

/* attnopts.c. The mask or bias option `key` of the options table at oi (0:
** none): a matrix of type dtype (converted by la_checkt, a boolean table
** made a 1/0 matrix; a NaN in a mask is an error), stored in stack slot
** `slot` (nil when absent; pushes nothing); NULL when absent. la_attnfit
** checks it against an item's nq queries and nk keys (an nq x nk matrix, or
** a 1 x nk row or nq x 1 column that broadcasts; its error message ends
** with " (item i)" for item i > 0 of a batch) and sets the strides: entry (i, j) of the
** matrix the kernel reads is at i * rs + j * cs.
** la_attncausal: option causal = false | true | "upper_left" |
** "lower_right" as 0, 1 (top-left) or 2 (bottom-right). */
la_Mat *la_attnmat(lua_State *L, int oi, const char *key, int slot, int dtype);
void la_attnfit(lua_State *L, const la_Mat *M, const char *key, int nq, int nk, ptrdiff_t *rs,
                ptrdiff_t *cs, int item);
int la_attncausal(lua_State *L, int oi);
/* The options attention and attention_backward read alike, from the
** table at oi (0: none; la_attnopts checks it has no other key): scale
** (hasscale: given; else each head's 1/sqrt(dk)), causal (la_attncausal's
** 0, 1, 2), weights, lse, bias_grad, heads (a positive int), the mask and
** bias (la_attnmat into mslot and bslot). batch and n (the items) are the
** callers'. Pushes nothing. */
typedef struct la_AttnOpts {
  double scale;
  int hasscale, causal, weights, lse, bias_grad, heads, batch, n;
  la_Mat *mask, *bias;
} la_AttnOpts;
void la_attnopts(lua_State *L, int oi, int dtype, int mslot, int bslot, la_AttnOpts *o);
/* Q, K, V of one attention (item > 0: item `item` of a batch, named in
** the messages): each with columns that split into `heads`, K with Q's
** columns, V with K's rows; an error naming the first that is not so. */
void la_attnqkv(lua_State *L, const la_Mat *Q, const la_Mat *K, const la_Mat *V, int heads,
                int item);
/* A batch: the k Lua lists at 1..k (names[j - 1] names list j in messages),
** of one length n, of matrices of one type (*dtype; float64 for empty
** lists), stored into the table at `keep`: keep[k (i - 1) + j] = list j's
** item i (pushes nothing). Returns n. */
int la_attnbatch(lua_State *L, int k, const char *const names[], int keep, int *dtype);

/* rawbytes.c: matrices as raw element bytes (bytes.c, files.c).
** la_rawdtypes: NumPy's descrs, byte order (none, <, >, = or |) times kind
** and size, then "float64", "float32", then the bool ones (a
** luaL_checkoption list); la_rawdecode: an index of it as *size bytes an
** element (1: bool), *kind 'f' or 'i', *swap (the other byte order than
** the host's), returning the matrix type. la_rawfill: A (new) from its
** elements at s in C order (rows first) or Fortran's. la_rawput: element
** (i, j) of A as its type's little-endian bytes at b. la_hostbig: 1 on a
** big-endian host. */
extern const char *const la_rawdtypes[];
int la_rawdecode(int dt, int *size, int *kind, int *swap);
void la_rawfill(la_Mat *A, const unsigned char *s, int size, int kind, int swap, int fortran);
void la_rawput(const la_Mat *A, int i, int j, char *b);
int la_hostbig(void);
/* Reads a k x n matrix of la_rawdtypes[dt] at f and pushes it (fname's
** errors: out of memory): one run of k n elements at byte start (C order,
** or Fortran's with every row), or, with stride > 0 (Fortran order),
** column j's k elements at start + j stride. Elements already in the
** matrix's type and the host's byte order are read straight into it.
** Returns NULL, or what went wrong with the file (the matrix on top is
** then to be dropped). */
const char *la_readmatrix(lua_State *L, const char *fname, FILE *f, int k, int n, int dt,
                          int fortran, lua_Integer start, lua_Integer stride);
/* writes A's elements to f as tobytes gives them (little-endian, columns
** first); NULL, or what went wrong */
const char *la_writematrix(FILE *f, const la_Mat *A);

/* A number printf wrote into buf (len bytes), its decimal point made '.'
** where a host set LC_NUMERIC to a locale with another (printf follows
** the C locale; the text linalg writes and prints never does); returns the
** new length. */
int la_cdot(char *buf, int len);

/* ------------------------------------------------------------ the parts */

/* Each binding file registers its functions into the module table at -1;
** module.c calls these in order. */
void la_open_matrix(lua_State *L);
void la_open_construct(lua_State *L);
void la_open_front(lua_State *L);
void la_open_arith(lua_State *L);
void la_open_reduce(lua_State *L);
void la_open_measures(lua_State *L);
void la_open_elementwise(lua_State *L);
void la_open_shape(lua_State *L);
void la_open_solve(lua_State *L);
void la_open_factor(lua_State *L);
void la_open_factor2(lua_State *L);
void la_open_matfun(lua_State *L);
void la_open_lstsq(lua_State *L);
void la_open_gram_schmidt(lua_State *L);
void la_open_attention(lua_State *L);
void la_open_train(lua_State *L);
void la_open_attention_bwd(lua_State *L);
void la_open_bytes(lua_State *L);
void la_open_config(lua_State *L);
void la_open_random(lua_State *L);
void la_open_files(lua_State *L);
void la_open_csv(lua_State *L);
void la_open_print(lua_State *L);

#endif
