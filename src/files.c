/*
** files.c: what the Lua front (lua/linalg/util.lua) needs to read and
** write files safely and Lua's io library cannot do. Registered as the
** internal table core.files (hidden by lua/linalg/init.lua):
**   openread(path)  a handle on a regular file, or nil, why: a FIFO, a
**                   device, a directory or a socket is refused at once
**                   (opened without blocking, checked on the descriptor)
**   writeplan(path) what a write to path replaces, through symbolic links
**   opentemp(tmp [, mode, uid, gid])  a new file (exclusive) to write
**   openwrite(path) a handle to write in place (what is not a regular
**                   file): a FIFO with no reader is refused at once
** A handle has read(n | "a"), seek(whence, offset), write(s) and close(),
** which answer as those of Lua's io library do (nil and a message), and
** readmatrix and writematrix (the data of load_npy and save_npy, with
** no string between the file and the matrix: rawbytes.c).
*/
#define _POSIX_C_SOURCE 200809L   /* O_CLOEXEC, fdopen, fseeko, readlink, faccessat */

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "helpers.h"

#define HANDLE "linalg.file"
#define MAXLINKS 40              /* symbolic links followed, as Linux's ELOOP */

typedef struct { FILE *f; } Handle;

/* pushes nil and the message of errno e; returns 2 */
static int fail(lua_State *L, int e) {
  lua_pushnil(L);
  lua_pushstring(L, strerror(e));
  return 2;
}

/* what a stat mode is, for "not a regular file (a FIFO)" */
static const char *kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a file";
}

/* pushes nil, "not a regular file (<kind>)"; returns 2 */
static int notregular(lua_State *L, mode_t m) {
  lua_pushnil(L);
  lua_pushfstring(L, "not a regular file (%s)", kind(m));
  return 2;
}

/* ------------------------------------------------------------ handles */

static Handle *checkhandle(lua_State *L) {
  Handle *h = (Handle *)luaL_checkudata(L, 1, HANDLE);
  if (h->f == NULL) luaL_error(L, "attempt to use a closed file");
  return h;
}

/* read(n) -> up to n bytes (nil at the end of the file when n > 0);
** read("a") -> the rest ("" at the end); nil, message on an error */
static int h_read(lua_State *L) {
  Handle *h = checkhandle(L);
  int all = lua_type(L, 2) == LUA_TSTRING;
  lua_Integer want = all ? 0 : luaL_checkinteger(L, 2), got = 0;
  luaL_Buffer B;
  luaL_argcheck(L, all || want >= 0, 2, "invalid count");
  luaL_buffinit(L, &B);
  while (all || got < want) {
    size_t chunk = LUAL_BUFFERSIZE, n;
    if (!all && (lua_Integer)chunk > want - got) chunk = (size_t)(want - got);
    n = fread(luaL_prepbuffer(&B), 1, chunk, h->f);
    luaL_addsize(&B, n);
    got += (lua_Integer)n;
    if (n < chunk) break;
  }
  if (ferror(h->f)) return fail(L, errno);
  luaL_pushresult(&B);
  if (got == 0 && !all && want > 0) lua_pushnil(L);
  return 1;
}

/* seek(whence, offset) -> the new position from the start */
static int h_seek(lua_State *L) {
  static const char *const modes[] = {"set", "cur", "end", NULL};
  static const int whence[] = {SEEK_SET, SEEK_CUR, SEEK_END};
  Handle *h = checkhandle(L);
  int w = luaL_checkoption(L, 2, "cur", modes);
  lua_Integer off = luaL_optinteger(L, 3, 0);
  off_t at;
  if (fseeko(h->f, (off_t)off, whence[w]) != 0 || (at = ftello(h->f)) < 0) return fail(L, errno);
  lua_pushinteger(L, (lua_Integer)at);
  return 1;
}

/* write(s) -> the handle, or nil, message */
static int h_write(lua_State *L) {
  Handle *h = checkhandle(L);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  if (fwrite(s, 1, len, h->f) != len) return fail(L, errno);
  lua_settop(L, 1);
  return 1;
}

/* readmatrix(k, n, descr, fortran, start, stride, fname) -> a k x n
** matrix of .npy dtype descr read at byte start: as one run (C order or
** all rows), or, with stride > 0, column j's k elements at start + j
** stride (rawbytes.c); or nil, message (a read error, or the file shorter
** than the runs). The Lua front's function fname names the errors of the
** matrix's making. */
static int h_readmatrix(lua_State *L) {
  Handle *h = checkhandle(L);
  lua_Integer k = luaL_checkinteger(L, 2), n = luaL_checkinteger(L, 3);
  int dt = luaL_checkoption(L, 4, NULL, la_rawdtypes);
  const char *err;
  luaL_argcheck(L, k >= 0 && k <= INT_MAX, 2, "rows out of range");
  luaL_argcheck(L, n >= 0 && n <= INT_MAX, 3, "columns out of range");
  err = la_readmatrix(L, luaL_checkstring(L, 8), h->f, (int)k, (int)n, dt, lua_toboolean(L, 5),
                      luaL_checkinteger(L, 6), luaL_checkinteger(L, 7));
  if (err == NULL) return 1;
  lua_pushnil(L);
  lua_pushstring(L, err);
  return 2;
}

/* writematrix(A, fname) -> the handle, or nil, message: A's bytes as
** A:tobytes() gives them, written without that string (rawbytes.c) */
static int h_writematrix(lua_State *L) {
  Handle *h = checkhandle(L);
  const char *err = la_writematrix(h->f, la_checkall(L, 2, luaL_checkstring(L, 3)));
  if (err != NULL) {
    lua_pushnil(L);
    lua_pushstring(L, err);
    return 2;
  }
  lua_settop(L, 1);
  return 1;
}

/* close() -> true, or nil, message (the buffered bytes could not be
** written); __gc closes a handle left open */
static int h_close(lua_State *L) {
  Handle *h = (Handle *)luaL_checkudata(L, 1, HANDLE);
  FILE *f = h->f;
  h->f = NULL;
  if (f != NULL && fclose(f) != 0) return fail(L, errno);
  lua_pushboolean(L, 1);
  return 1;
}

/* pushes a closed handle (consistent before anything can fail) */
static Handle *newhandle(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"read", h_read}, {"seek", h_seek}, {"write", h_write}, {"readmatrix", h_readmatrix},
    {"writematrix", h_writematrix},
    {"close", h_close}, {NULL, NULL}
  };
  Handle *h = (Handle *)lua_newuserdata(L, sizeof(Handle));
  h->f = NULL;
  if (luaL_newmetatable(L, HANDLE)) {
    const luaL_Reg *r;
    lua_newtable(L);
    for (r = methods; r->name; r++) {
      lua_pushcfunction(L, r->func);
      lua_setfield(L, -2, r->name);
    }
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, h_close);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return h;
}

/* gives the open descriptor fd to the handle on top as a FILE * in mode;
** closes fd and pushes nil, message if that fails; returns the results */
static int attach(lua_State *L, Handle *h, int fd, const char *mode) {
  h->f = fdopen(fd, mode);
  if (h->f == NULL) {
    int e = errno;
    close(fd);
    return fail(L, e);
  }
  return 1;
}

/* ------------------------------------------------------------ entries */

/* openread(path) -> handle, or nil, message. The file is opened without
** blocking (a FIFO with no writer would block open itself), then the
** descriptor, not the name, is checked to be a regular file, so nothing
** put at path in between is read; then reads block again as usual. */
static int l_openread(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  Handle *h = newhandle(L);
  struct stat st;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), fl, e;
  if (fd < 0) {
    e = errno;                 /* a socket does not open: ENXIO */
    if (e == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return notregular(L, st.st_mode);
    return fail(L, e);
  }
  if (fstat(fd, &st) != 0) { e = errno; close(fd); return fail(L, e); }
  if (!S_ISREG(st.st_mode)) { close(fd); return notregular(L, st.st_mode); }
  if ((fl = fcntl(fd, F_GETFL)) < 0 ||
      fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
    e = errno;
    close(fd);
    return fail(L, e);
  }
  return attach(L, h, fd, "rb");
}

/* Follows the symbolic links at path (at most MAXLINKS) to what they
** name, which may not exist; a relative link is read from the link's
** directory. Pushes that path; leaves its lstat in *st (ok = 0: ENOENT).
** Returns 0, or an errno. */
static int follow(lua_State *L, const char *path, struct stat *st, int *ok) {
  char buf[4096];
  int hops;
  lua_pushstring(L, path);
  for (hops = 0;; hops++) {
    const char *p = lua_tostring(L, -1), *slash;
    ssize_t n;
    *ok = lstat(p, st) == 0;
    if (!*ok) return errno == ENOENT ? 0 : errno;
    if (!S_ISLNK(st->st_mode)) return 0;
    if (hops == MAXLINKS) return ELOOP;
    n = readlink(p, buf, sizeof buf);
    if (n < 0) return errno;
    if ((size_t)n == sizeof buf) return ENAMETOOLONG;
    slash = strrchr(p, '/');
    if (buf[0] == '/' || slash == NULL) lua_pushlstring(L, buf, (size_t)n);
    else {
      lua_pushlstring(L, p, (size_t)(slash - p + 1));
      lua_pushlstring(L, buf, (size_t)n);
      lua_concat(L, 2);
    }
    lua_remove(L, -2);
  }
}

/* writeplan(path) -> what writing path replaces, through symbolic links:
**   "new", target                    nothing there yet
**   "file", target, mode, uid, gid   a regular file we may write
**   "special", target                a FIFO, a device, a socket
** or nil, message: a directory, a file we may not write (as opening it for
** writing would say), a loop of links. */
static int l_writeplan(lua_State *L) {
  const char *target;
  struct stat st;
  int ok, e = follow(L, luaL_checkstring(L, 1), &st, &ok);
  if (e) return fail(L, e);
  target = lua_tostring(L, -1);
  if (!ok) { lua_pushliteral(L, "new"); lua_insert(L, -2); return 2; }
  if (S_ISDIR(st.st_mode)) return fail(L, EISDIR);
  if (!S_ISREG(st.st_mode)) { lua_pushliteral(L, "special"); lua_insert(L, -2); return 2; }
  if (faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) return fail(L, errno);
  lua_pushliteral(L, "file");
  lua_insert(L, -2);
  lua_pushinteger(L, (lua_Integer)(st.st_mode & 07777));
  lua_pushinteger(L, (lua_Integer)st.st_uid);
  lua_pushinteger(L, (lua_Integer)st.st_gid);
  return 5;
}

/* Gives the new file fd the mode of the file it replaces, and its owner
** and group as far as we may (root: both; others: a group they are in);
** the mode last, as a change of owner clears set-user-ID. Returns 0 or
** the errno of fchmod (a failed chown keeps ours, as editors do). */
static int keepmode(int fd, mode_t mode, uid_t uid, gid_t gid) {
  if (geteuid() == 0) (void)!fchown(fd, uid, gid);
  else (void)!fchown(fd, (uid_t)-1, gid);
  return fchmod(fd, mode) == 0 ? 0 : errno;
}

/* opentemp(tmp [, mode, uid, gid]) -> handle for writing, or nil, message.
** Creates tmp (never opens what is there: a link planted at the name
** fails). Without a mode the umask decides (a new file); with one it
** starts as 0600 and takes that mode and owner before a byte is written.
** The arguments are read first: nothing is created when one is wrong. */
static int l_opentemp(lua_State *L) {
  const char *tmp = luaL_checkstring(L, 1);
  int keep = !lua_isnoneornil(L, 2), fd, e;
  mode_t mode = keep ? (mode_t)luaL_checkinteger(L, 2) : 0;
  uid_t uid = (uid_t)luaL_optinteger(L, 3, -1);
  gid_t gid = (gid_t)luaL_optinteger(L, 4, -1);
  Handle *h = newhandle(L);
  fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, keep ? 0600 : 0666);
  if (fd < 0) return fail(L, errno);
  if (keep && (e = keepmode(fd, mode, uid, gid)) != 0) {
    close(fd);
    unlink(tmp);
    return fail(L, e);
  }
  if (attach(L, h, fd, "wb") == 2) { unlink(tmp); return 2; }
  return 1;
}

/* openwrite(path) -> handle for writing in place, or nil, message. Opened
** (created, truncated) without blocking, as a FIFO with no reader would
** block open itself until one comes; that FIFO is refused at once. Then
** writes block again as usual (a reader that reads lets them through). */
static int l_openwrite(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  Handle *h = newhandle(L);
  struct stat st;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666), fl, e;
  if (fd < 0) {
    e = errno;
    if (e == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
      lua_pushnil(L);
      lua_pushliteral(L, "a FIFO with no reader");
      return 2;
    }
    return fail(L, e);
  }
  if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
    e = errno;
    close(fd);
    return fail(L, e);
  }
  return attach(L, h, fd, "wb");
}

static const la_Reg funcs[] = {
  {"openread", l_openread, 1}, {"writeplan", l_writeplan, 1}, {"opentemp", l_opentemp, 4},
  {"openwrite", l_openwrite, 1},
  {NULL, NULL, 0}
};

/* core.files: a table of the entries above */
void la_open_files(lua_State *L) {
  lua_newtable(L);
  la_setfuncs(L, funcs, 0);
  lua_setfield(L, -2, "files");
}
