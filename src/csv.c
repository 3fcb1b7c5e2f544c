/*
** csv.c: the internal table `csv` for lua/linalg/io.lua's load_csv: a
** streaming parser of delimited text into numbers. The file is read by the
** Lua side in chunks (through util's open_read: regular files only) and fed
** here; complete records go into a growing row-major buffer of doubles
** owned by the parser userdata (its __gc frees it), so a large file never
** lives whole as Lua strings. finish() makes the matrix.
**
** csv.new(sep, quote, comment, skip, header, na) -> parser
**   sep, quote, comment: a byte (0..255), or -1 (sep: any run of spaces
**   and tabs; quote, comment: none); skip: physical lines skipped first;
**   header: 1 when the first record holds names; na: a list of strings
**   read as NaN.
** csv.feed(p, s, pos, names) -> nil, or the position after the header
**   record (feeding stops there so that the caller can choose columns by
**   name); header fields go into the table names.
** csv.keep(p, map, n): map[j] = output column (1-based) of input column j
**   for the n columns kept (the others are dropped; map holds only those,
**   so a column number far past the file's costs no memory: the dense
**   map is made at the first record, as wide as the file).
** csv.finish(p, f32, names) -> matrix (rows x output columns), the count
**   of input columns (-1: no record)
** csv.format(A, sep, first, last) -> rows first..last of A as save_csv
**   writes them: "%.17g" fields (nan, inf, -inf) joined by sep, a line
**   break after each row, '.' the decimal point whatever the locale.
** Errors are plain messages ("row 2 (line 3) has 1 fields, expected 2");
** the caller prefixes the function and the path.
*/
#define _POSIX_C_SOURCE 200809L   /* newlocale, uselocale */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define PARSER "linalg.csvparser"

enum { S_SKIP, S_FIELD, S_QUOTED, S_QQ, S_AFTERQ, S_COMMENT, S_WS };

typedef struct Csv {
  int sep, quote, comment, header, state, quoted;
  lua_Integer skip, line, rows, qline;
  char *fld; size_t flen, fcap;        /* the current field's bytes */
  double *rec; size_t nf, rcap;        /* the current record's values */
  int open;                            /* a field is open (to end at the line's end) */
  double *vals; size_t nv, vcap;       /* complete records, row-major */
  lua_Integer ncols;                   /* -1 until the first record */
  int *map; lua_Integer nout, nmap;    /* input column -> output (0: drop) */
  lua_Integer *keep; int nkeep, kept;  /* csv.keep's pairs: input, output column */
  char **na; size_t *nalen; int nna;
} Csv;

static int p_gc(lua_State *L) {
  Csv *c = (Csv *)lua_touserdata(L, 1);
  int i;
  free(c->fld); free(c->rec); free(c->vals); free(c->map); free(c->keep);
  for (i = 0; c->na != NULL && i < c->nna; i++) free(c->na[i]);
  free(c->na); free(c->nalen);
  memset(c, 0, sizeof *c);
  return 0;
}

static Csv *checkp(lua_State *L) {
  return (Csv *)luaL_checkudata(L, 1, PARSER);
}

/* grows *buf (elements of size bytes, capacity *cap) to hold need */
static void grow(lua_State *L, void **buf, size_t *cap, size_t need, size_t size) {
  size_t n = *cap ? *cap : 64;
  void *p = NULL;
  if (need <= *cap) return;
  while (n < need) n *= 2;
  if (n > (size_t)-1 / size || (p = realloc(*buf, n * size)) == NULL)
    luaL_error(L, "not enough memory");
  la_headroom(n * size);
  *buf = p; *cap = n;
}

static void raise(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  la_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_error(L);
}

/* the field's bytes without leading and trailing spaces, tabs and CRs */
static const char *trimmed(Csv *c, size_t *len) {
  const char *s = c->fld, *e = c->fld + c->flen;
  while (s < e && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
  *len = (size_t)(e - s);
  return s;
}

/* strtod in the C locale whatever a host set LC_NUMERIC to: '.' the
** decimal point, as save_csv writes it ("1,5" is no number under de_DE
** either); uselocale switches this thread only */
static locale_t cloc;
static pthread_once_t clonce = PTHREAD_ONCE_INIT;
static void makecloc(void) { cloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

static double cstrtod(const char *s, char **end) {
  locale_t old;
  double x;
  pthread_once(&clonce, makecloc);
  if (cloc == (locale_t)0) return strtod(s, end);
  old = uselocale(cloc);
  x = strtod(s, end);
  uselocale(old);
  return x;
}

/* pushes the field's first bytes as an error shows them: control bytes,
** '"' and '\\' as \xNN (a NUL or a lone CR would cut or hide the rest) */
static void pushshown(lua_State *L, const char *s, size_t len) {
  luaL_Buffer b;
  size_t i, n = len > 40 ? 37 : len;
  luaL_buffinit(L, &b);
  for (i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\') {
      char e[8];
      snprintf(e, sizeof e, "\\x%02X", (unsigned)ch);
      luaL_addstring(&b, e);
    } else luaL_addchar(&b, (char)ch);
  }
  if (n < len) luaL_addstring(&b, "...");
  luaL_pushresult(&b);
}

/* the field as a number: a string of na is NaN, else strtod must read it
** whole (decimal, exponent, inf, nan, hex as Lua's tonumber reads them) */
static double tonum(lua_State *L, Csv *c) {
  size_t len;
  const char *s = trimmed(c, &len);
  char *end;
  double x;
  int i;
  for (i = 0; i < c->nna; i++)
    if (c->nalen[i] == len && memcmp(c->na[i], s, len) == 0) return NAN;
  ((char *)s)[len] = '\0';
  x = len ? cstrtod(s, &end) : 0;
  if (len == 0 || end != s + len) {
    pushshown(L, s, len);
    raise(L, "row %I, column %I (line %I): \"%s\" is not a number", (lua_Integer)c->rows + 1,
          (lua_Integer)c->nf + 1, c->line, lua_tostring(L, -1));
  }
  return x;
}

/* ends the current field: a name (into the table at index names) or a value */
static void endfield(lua_State *L, Csv *c, int names) {
  if (c->header) {
    size_t len;
    const char *s = trimmed(c, &len);
    lua_pushlstring(L, s, len);
    lua_rawseti(L, names, (int)c->nf + 1);
  } else {
    double x = tonum(L, c);
    grow(L, (void **)&c->rec, &c->rcap, c->nf + 1, sizeof(double));
    c->rec[c->nf] = x;
  }
  c->nf++;
  c->flen = 0;
  c->quoted = 0;
}

/* ends the current record (its last field already ended); returns 1 after
** the header record */
static int endrecord(lua_State *L, Csv *c) {
  size_t j;
  if (c->ncols < 0) c->ncols = (lua_Integer)c->nf;
  else if ((lua_Integer)c->nf != c->ncols)
    raise(L, "row %I (line %I) has %I fields, expected %I", c->rows + 1, c->line,
          (lua_Integer)c->nf, c->ncols);
  if (c->header) { c->header = 0; c->nf = 0; return 1; }
  if (c->map == NULL) {                 /* every column in order, or csv.keep's */
    int k;
    c->map = (int *)calloc(c->nf ? c->nf : 1, sizeof(int));
    if (c->map == NULL) luaL_error(L, "not enough memory");
    if (!c->kept) c->nout = c->ncols;
    for (j = 0; j < c->nf && !c->kept; j++) c->map[j] = (int)j + 1;
    for (k = 0; k < c->nkeep; k++) {      /* columns are 1.. (csv.keep checked) */
      lua_Integer col = c->keep[2 * k];
      if (col > c->ncols) raise(L, "column %I is outside 1..%I", col, c->ncols);
      c->map[col - 1] = (int)c->keep[2 * k + 1];
    }
    c->nmap = c->ncols;
  }
  if ((c->rows + 1) * (c->nout ? c->nout : 1) > 2147483647)
    raise(L, "more than 2147483647 values");
  grow(L, (void **)&c->vals, &c->vcap, c->nv + (size_t)c->nout, sizeof(double));
  for (j = 0; j < c->nf && (lua_Integer)j < c->nmap; j++)
    if (c->map[j] > 0) c->vals[c->nv + (size_t)c->map[j] - 1] = c->rec[j];
  c->nv += (size_t)c->nout;
  c->rows++;
  c->nf = 0;
  return 0;
}

/* a line break outside quotes (a blank line is no record); returns 1
** after the header record */
static int newline(lua_State *L, Csv *c, int names) {
  int r = 0;
  if (c->open) endfield(L, c, names);
  if (c->nf > 0) r = endrecord(L, c);
  c->nf = 0; c->flen = 0; c->quoted = 0; c->open = 0;
  c->state = c->sep < 0 ? S_WS : S_FIELD;
  c->line++;
  return r;
}

static void addbyte(lua_State *L, Csv *c, char ch) {
  if (c->flen + 2 > c->fcap) grow(L, (void **)&c->fld, &c->fcap, c->flen + 2, 1);
  c->fld[c->flen++] = ch;
}

/* field start or inside an unquoted field (sep mode or whitespace mode) */
static int unquoted(lua_State *L, Csv *c, int ch, int names) {
  int space = ch == ' ' || ch == '\t' || ch == '\n';
  if (ch == '\n') return newline(L, c, names);
  if (ch == c->comment) {
    if (c->open) endfield(L, c, names);
    c->open = 0; c->state = S_COMMENT;
    return 0;
  }
  if (c->sep < 0 && space) {
    if (c->open) { endfield(L, c, names); c->open = 0; c->state = S_WS; }
    return 0;
  }
  if (ch == c->sep) { endfield(L, c, names); c->open = 1; c->state = S_FIELD; return 0; }
  if (ch == c->quote) {
    size_t len;
    trimmed(c, &len);
    if (len == 0) {
      c->flen = 0; c->open = 1; c->quoted = 1; c->qline = c->line; c->state = S_QUOTED;
      return 0;
    }
  }
  if (!space) c->open = 1;
  c->state = S_FIELD;
  addbyte(L, c, (char)ch);
  return 0;
}

/* one byte outside skipped lines and comments; returns 1 after the header */
static int step(lua_State *L, Csv *c, int ch, int names) {
  switch (c->state) {
  case S_QUOTED:
    if (ch == c->quote) c->state = S_QQ;
    else { if (ch == '\n') c->line++; addbyte(L, c, (char)ch); }
    return 0;
  case S_QQ:
    if (ch == c->quote) { addbyte(L, c, (char)ch); c->state = S_QUOTED; return 0; }
    c->state = S_AFTERQ;
    /* fall through */
  case S_AFTERQ:
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      if (c->sep < 0) { endfield(L, c, names); c->open = 0; c->state = S_WS; }
      return 0;
    }
    if (ch == '\n') return newline(L, c, names);
    if (ch == c->comment) { endfield(L, c, names); c->open = 0; c->state = S_COMMENT; return 0; }
    if (ch == c->sep) { endfield(L, c, names); c->open = 1; c->state = S_FIELD; return 0; }
    raise(L, "line %I: text after the closing quote of a field", c->line);
    return 0;
  default:
    return unquoted(L, c, ch, names);
  }
}

/* csv.feed(p, s, pos, names) -> nil, or the position after the header */
static int l_feed(lua_State *L) {
  Csv *c = checkp(L);
  size_t n, i;
  const char *s = luaL_checklstring(L, 2, &n);
  i = (size_t)luaL_checkinteger(L, 3) - 1;
  luaL_checktype(L, 4, LUA_TTABLE);
  for (; i < n; i++) {
    int ch = (unsigned char)s[i];
    if (c->state == S_SKIP || c->state == S_COMMENT) {
      const char *nl = (const char *)memchr(s + i, '\n', n - i);
      if (nl == NULL) return 0;
      i = (size_t)(nl - s);
      if (c->state == S_SKIP) {
        c->line++;
        if (--c->skip == 0) c->state = c->sep < 0 ? S_WS : S_FIELD;
        continue;
      }
      c->state = S_FIELD;
      ch = '\n';
    }
    if (c->state == S_FIELD && c->sep >= 0 && c->quote != ch && c->comment != ch) {
      /* fast path: the run of plain bytes of an unquoted field */
      size_t k = i;
      while (k < n && s[k] != c->sep && s[k] != '\n' && (unsigned char)s[k] != c->comment
             && (unsigned char)s[k] != c->quote) k++;
      if (k > i) {
        if (c->flen + (k - i) + 2 > c->fcap) grow(L, (void **)&c->fld, &c->fcap, c->flen + (k - i) + 2, 1);
        memcpy(c->fld + c->flen, s + i, k - i);
        c->flen += k - i;
        if (!c->open) { size_t len; trimmed(c, &len); if (len) c->open = 1; }
        i = k - 1;
        continue;
      }
    }
    if (step(L, c, ch, 4)) { lua_pushinteger(L, (lua_Integer)i + 2); return 1; }
  }
  return 0;
}

/* csv.keep(p, map, n): the n pairs of map (input column j in 1..INT_MAX
** -> output column in 1..n, as io.lua's colmap makes them) are kept as a
** list; endrecord makes the dense map from them at the first record, as
** wide as the file, and raises there for a column past its width */
static int l_keep(lua_State *L) {
  Csv *c = checkp(L);
  lua_Integer n = luaL_checkinteger(L, 3);
  int k = 0;
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_argcheck(L, n >= 1 && n <= INT_MAX, 3, "count out of range");
  free(c->keep);
  free(c->map);
  c->keep = NULL; c->nkeep = 0; c->map = NULL;
  c->keep = (lua_Integer *)malloc(sizeof(lua_Integer) * 2 * (size_t)n);
  if (c->keep == NULL) return luaL_error(L, "not enough memory");
  lua_pushnil(L);
  while (k < n && lua_next(L, 2)) {
    int okj, okv;
    lua_Integer j = lua_tointegerx(L, -2, &okj), v = lua_tointegerx(L, -1, &okv);
    luaL_argcheck(L, okj && okv && j >= 1 && j <= INT_MAX && v >= 1 && v <= n, 2,
                  "column out of range");
    c->keep[2 * k] = j;
    c->keep[2 * k + 1] = v;
    k++;
    lua_pop(L, 1);
  }
  c->nkeep = k;
  c->nout = n;
  c->kept = 1;
  return 0;
}

/* csv.finish(p, f32, names) -> matrix, columns read (-1: none) */
static int l_finish(lua_State *L) {
  Csv *c = checkp(L);
  int f32 = lua_toboolean(L, 2);
  lua_Integer i, j, m, n;
  la_Mat *A;
  if (c->state == S_QUOTED)
    raise(L, "line %I: quoted field opened on line %I is not closed", c->line, c->qline);
  if (c->state == S_SKIP || c->state == S_COMMENT) c->state = S_FIELD;
  luaL_checktype(L, 3, LUA_TTABLE);
  newline(L, c, 3);
  m = c->rows;
  n = c->map || c->kept ? c->nout : c->ncols < 0 ? 0 : c->ncols;
  A = la_newt(L, "load_csv", m, n, f32 ? LA_F32 : LA_F64);
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double x = c->vals[(size_t)i * (size_t)n + (size_t)j];
      if (f32) LA_ATF(A, i, j) = (float)x; else LA_AT(A, i, j) = x;
    }
  lua_pushinteger(L, c->ncols);
  return 2;
}

/* copies the strings of the list at idx into c->na */
static void readna(lua_State *L, Csv *c, int idx) {
  int i, n = (int)lua_rawlen(L, idx);
  c->na = (char **)calloc((size_t)n + 1, sizeof(char *));
  c->nalen = (size_t *)calloc((size_t)n + 1, sizeof(size_t));
  if (c->na == NULL || c->nalen == NULL) luaL_error(L, "not enough memory");
  for (i = 0; i < n; i++) {
    size_t len;
    const char *s;
    lua_rawgeti(L, idx, i + 1);
    s = luaL_checklstring(L, -1, &len);
    c->na[i] = (char *)malloc(len + 1);
    if (c->na[i] == NULL) luaL_error(L, "not enough memory");
    memcpy(c->na[i], s, len + 1);
    c->nalen[i] = len;
    c->nna = i + 1;
    lua_pop(L, 1);
  }
}

/* csv.new(sep, quote, comment, skip, header, na) -> parser */
static int l_new(lua_State *L) {
  Csv *c = (Csv *)lua_newuserdata(L, sizeof(Csv));
  memset(c, 0, sizeof *c);
  luaL_setmetatable(L, PARSER);
  c->sep = (int)luaL_checkinteger(L, 1);
  c->quote = (int)luaL_checkinteger(L, 2);
  c->comment = (int)luaL_checkinteger(L, 3);
  c->skip = luaL_checkinteger(L, 4);
  c->header = lua_toboolean(L, 5);
  c->ncols = -1;
  c->line = 1;
  c->state = c->skip > 0 ? S_SKIP : c->sep < 0 ? S_WS : S_FIELD;
  luaL_checktype(L, 6, LUA_TTABLE);
  grow(L, (void **)&c->fld, &c->fcap, 64, 1);   /* never NULL: an empty field is "" */
  readna(L, c, 6);
  lua_settop(L, 7);
  return 1;
}

/* ------------------------------------------------------------ writing */

/* x as save_csv writes it into b (48 bytes); returns the length */
static int field(double x, char *b) {
  int n;
  if (x != x) { memcpy(b, "nan", 3); return 3; }
  if (x == HUGE_VAL) { memcpy(b, "inf", 3); return 3; }
  if (x == -HUGE_VAL) { memcpy(b, "-inf", 4); return 4; }
  n = snprintf(b, 48, "%.17g", x);
  return la_cdot(b, n);
}

static int l_format(lua_State *L) {
  la_Mat *A = la_checkall(L, 1, "save_csv");
  size_t seplen;
  const char *sep = luaL_checklstring(L, 2, &seplen);
  lua_Integer first = luaL_checkinteger(L, 3), last = luaL_checkinteger(L, 4), i;
  luaL_Buffer B;
  int j;
  luaL_argcheck(L, first >= 1 && last <= A->rows, 3, "rows outside the matrix");
  luaL_buffinit(L, &B);
  for (i = first - 1; i < last; i++) {
    for (j = 0; j < A->cols; j++) {
      char b[48];
      if (j > 0) luaL_addlstring(&B, sep, seplen);
      luaL_addlstring(&B, b, (size_t)field(la_get(A, (int)i, j), b));
    }
    luaL_addchar(&B, '\n');
  }
  luaL_pushresult(&B);
  return 1;
}

static const la_Reg funcs[] = {
  {"new", l_new, 6}, {"format", l_format, 4}, {"feed", l_feed, 4}, {"keep", l_keep, 3}, {"finish", l_finish, 3},
  {NULL, NULL, 0}
};

void la_open_csv(lua_State *L) {
  luaL_newmetatable(L, PARSER);
  lua_pushcfunction(L, p_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_newtable(L);
  la_setfuncs(L, funcs, 0);
  lua_setfield(L, -2, "csv");
}
