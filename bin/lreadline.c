/*
** lreadline.c: the line editor of bin/linalg-repl, as the Lua module
** linalg.readline (GNU readline underneath; built when its headers exist).
**
**   rl.readline(prompt) -> line | nil (end of input) | false (Ctrl-C)
**                                   (the prompt's last line: at most 250
**                                   bytes outside \1 ... \2)
**   rl.add_history(line [, file])   remembers it (and appends it to file, if
**                                   that is a regular file or absent)
**   rl.read_history(file [, keep])  loads file, trimmed to its last keep lines
**                                   (a whole number >= 0; from 2^31 on, and
**                                   math.huge, every line stays); false if
**                                   it cannot be read or is not a regular file
**   rl.set_completer(f)             f(word, line, start) -> {candidates}
**   rl.run(f, ...)                  pcall(f, ...) in which Ctrl-C raises
**                                   "interrupted" at the next Lua step
**   rl.isatty(fd)                   is fd (0: stdin) a terminal? (false for
**                                   a number no descriptor can have)
**
** GNU readline is not re-entrant: rl.readline called while a call is in
** progress (from the completer) raises "already running". The completer
** runs protected: an error, a yield or a result that is not a table gives no
** candidates, and candidates end at the first entry that is not a string.
** Each Lua state keeps its own completer (in its registry).
**
** SIGINT: while readline waits for keys it cancels the line (readline is
** driven through its callback interface from a pselect loop, so the handler
** only sets a flag); inside rl.run and the completer it arms a hook that
** raises a Lua error, as lua.c does; elsewhere it is ignored. A C function in progress (a large
** product) finishes before the hook runs.
*/
#if !defined(_XOPEN_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/readline.h>
#include <readline/history.h>

#include <lua.h>
#include <lauxlib.h>

#include "../src/compat.h"

#if defined(__GNUC__)
#define RL_API __attribute__((visibility("default")))
#else
#define RL_API
#endif

enum { IDLE, READING, RUNNING };

static volatile sig_atomic_t mode = IDLE, got_int = 0;
static lua_State *volatile runL; /* the state rl.run is executing in */
static lua_State *compL;         /* the state readline's callbacks call */
static int reading;              /* an rl.readline call is in progress */
static int cand_next;
static char *line_got;
static int line_done;
/* registry keys (their addresses): the completer, its last candidates,
** ask_completer and push_line as function values (made once: on 5.1 and
** LuaJIT lua_pushcfunction allocates a closure, which may raise; complete()
** runs inside readline's C frames, out of which nothing may unwind, and
** push_result must free the line whatever happens) */
static char completer_key, cand_key, ask_key, push_key;

/* pushes registry[key]; returns its type */
static int getreg(lua_State *L, void *key) {
  lua_pushlightuserdata(L, key);
  lua_rawget(L, LUA_REGISTRYINDEX);
  return lua_type(L, -1);
}

/* registry[key] = the value on top, popped (allocates only for a new key) */
static void setreg(lua_State *L, void *key) {
  lua_pushlightuserdata(L, key);
  lua_insert(L, -2);
  lua_rawset(L, LUA_REGISTRYINDEX);
}

static void stop_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  lua_sethook(L, NULL, 0, 0);
  got_int = 0;
  luaL_error(L, "interrupted");
}

static void on_sigint(int sig) {
  (void)sig;
  got_int = 1;
  if (mode == RUNNING && runL != NULL)   /* lua_sethook is signal-safe */
    lua_sethook(runL, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

static void catch_sigint(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;                       /* no SA_RESTART: pselect returns */
  sigaction(SIGINT, &sa, NULL);
}

/* lua_pcall(L, nargs, nres, 0) in which Ctrl-C raises "interrupted" at the
** next Lua step; an enclosing call's mode and state are restored after */
static int interruptible_pcall(lua_State *L, int nargs, int nres) {
  int st, outer = mode;
  lua_State *outerL = runL;
  got_int = 0;
  runL = L;
  mode = RUNNING;
  st = lua_pcall(L, nargs, nres, 0);
  mode = IDLE;
  if (lua_gethook(L) == stop_hook)       /* a Ctrl-C that came too late */
    lua_sethook(L, NULL, 0, 0);
  got_int = 0;
  runL = outerL;                         /* nested (in a completer, or in */
  mode = outer;                          /* rl.run): the outer call's again */
  return st;
}

/* ------------------------------------------------------------ arguments */

/* luaL_argerror's message naming the function itself on every Lua (5.1,
** 5.2 and LuaJIT's luaL_argerror name a function called through pcall '?') */
static int argerror(lua_State *L, const char *fname, int arg, const char *msg) {
  return luaL_error(L, "bad argument #%d to 'linalg.readline.%s' (%s)", arg, fname, msg);
}

static int typeerror(lua_State *L, const char *fname, int arg, const char *what) {
  const char *got = luaL_getmetafield(L, arg, "__name") == LUA_TSTRING ? lua_tostring(L, -1)
                                                                       : luaL_typename(L, arg);
  return argerror(L, fname, arg, lua_pushfstring(L, "%s expected, got %s", what, got));
}

/* luaL_checklstring (a number is converted) */
static const char *checkstring(lua_State *L, const char *fname, int arg, size_t *n) {
  if (!lua_isstring(L, arg)) typeerror(L, fname, arg, "string");
  return lua_tolstring(L, arg, n);
}

static void checkfunction(lua_State *L, const char *fname, int arg) {
  if (lua_type(L, arg) != LUA_TFUNCTION) typeerror(L, fname, arg, "function");
}

/* ------------------------------------------------------------ completion */

/* readline's generator: candidate number state + 1 of the stored list */
static char *next_candidate(const char *text, int state) {
  int top = lua_gettop(compL);
  char *s = NULL;
  (void)text;
  if (state == 0) cand_next = 0;
  if (getreg(compL, &cand_key) == LUA_TTABLE) {   /* raises nothing */
    lua_rawgeti(compL, -1, ++cand_next);
    if (lua_type(compL, -1) == LUA_TSTRING) s = strdup(lua_tostring(compL, -1));
  }
  lua_settop(compL, top);
  return s;
}

/* (text, start) -> the completer's list, stored under cand_key; run
** protected, so an error, a yield or a memory failure cannot unwind
** through readline */
static int ask_completer(lua_State *L) {
  const char *text = (const char *)lua_touserdata(L, 1);
  lua_Integer start = lua_tointeger(L, 2);
  getreg(L, &completer_key);
  lua_pushstring(L, text);
  lua_pushstring(L, rl_line_buffer);
  lua_pushinteger(L, start);
  lua_call(L, 3, 1);
  luaL_checktype(L, -1, LUA_TTABLE);
  setreg(L, &cand_key);
  return 0;
}

/* asks the Lua completer for the candidates of text (at line offset start);
** SIGINT, blocked while readline runs, is let in: Ctrl-C stops a completer
** that does not return (no candidates), and the line stays */
static char **complete(const char *text, int start, int end) {
  int top = lua_gettop(compL), st;
  char **matches = NULL;
  sigset_t sigint, old;
  (void)end;
  rl_attempted_completion_over = 1;      /* never fall back to file names */
  rl_completion_append_character = '\0'; /* la.lstsq then "(", not " (" */
  /* compL is in l_readline's C frame, which has LUA_MINSTACK free slots:
  ** the stack does not grow (5.1's lua_checkstack would raise if it failed) */
  if (!lua_checkstack(compL, 4)) return NULL;
  if (getreg(compL, &completer_key) == LUA_TFUNCTION &&
      getreg(compL, &ask_key) == LUA_TFUNCTION) {  /* allocates nothing */
    lua_pushlightuserdata(compL, (void *)text);
    lua_pushinteger(compL, start);
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &sigint, &old);
    st = interruptible_pcall(compL, 2, 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st == LUA_OK) {
      matches = rl_completion_matches(text, next_candidate);
      lua_pushnil(compL);                /* the list is not kept (the key */
      setreg(compL, &cand_key);          /* exists: nothing is allocated) */
    }
  }
  lua_settop(compL, top);
  return matches;
}

static int l_set_completer(lua_State *L) {
  checkfunction(L, "set_completer", 1);
  lua_settop(L, 1);
  setreg(L, &completer_key);
  return 0;
}

/* -------------------------------------------------------------- reading */

static void on_line(char *line) {
  line_got = line;
  line_done = 1;
  rl_callback_handler_remove();
}

/* waits for stdin with SIGINT blocked except inside pselect, so a Ctrl-C
** is seen either before the wait or as its EINTR; returns -1 on Ctrl-C */
static int wait_input(const sigset_t *during) {
  int fd = fileno(rl_instream ? rl_instream : stdin);
  fd_set fds;
  if (fd < 0 || fd >= FD_SETSIZE) return got_int ? -1 : 0;
  for (;;) {
    if (got_int) return -1;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    if (pselect(fd + 1, &fds, NULL, NULL, NULL, during) > 0) return 0;
    if (errno != EINTR) return 0;        /* let readline see the error */
  }
}

static int push_line(lua_State *L) {
  lua_pushstring(L, (const char *)lua_touserdata(L, 1));
  return 1;
}

/* pushes readline's result; frees line whether the push succeeds or not */
static int push_result(lua_State *L, int cancelled, char *line) {
  int st;
  if (cancelled) lua_pushboolean(L, 0);
  else if (line == NULL) lua_pushnil(L);
  else {
    getreg(L, &push_key);                /* allocates nothing */
    lua_pushlightuserdata(L, line);
    st = lua_pcall(L, 1, 1, 0);
    free(line);
    if (st != LUA_OK) return lua_error(L);
  }
  return 1;
}

/* the visible bytes of the prompt's last line: readline lays out that line
** alone, and skips what \1 ... \2 enclose (bytes >= screen columns) */
static size_t lastline(const char *p) {
  size_t n = 0;
  int hidden = 0;
  for (; *p != '\0'; p++) {
    if (*p == '\n') {
      n = 0;
      hidden = 0;
    } else if (*p == RL_PROMPT_START_IGNORE) hidden = 1;
    else if (*p == RL_PROMPT_END_IGNORE) hidden = 0;
    else if (!hidden) n++;
  }
  return n;
}

/* GNU readline 8.2's rl_redisplay keeps the start of each screen line of
** the prompt in a table of 256 entries that it does not grow: a prompt line
** wrapping onto more screen lines writes past it. The screen may be 1
** column wide (and may shrink after the call), so the bound is in bytes. */
#define PROMPT_MAX 250

static int l_readline(lua_State *L) {
  const char *prompt = lua_isnoneornil(L, 1) ? "> " : checkstring(L, "readline", 1, NULL);
  sigset_t block, old;
  int cancelled = 0, outer = mode;
  if (reading)                           /* from the completer */
    return luaL_error(L, "linalg.readline.readline: readline is already running "
                         "(it cannot be called from the completer)");
  if (lastline(prompt) > PROMPT_MAX)
    return argerror(L, "readline", 1, "prompt's last line is longer than 250 visible bytes");
  reading = 1;
  compL = L;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  got_int = 0;
  line_done = 0;
  line_got = NULL;
  mode = READING;
  rl_callback_handler_install(prompt, on_line);
  while (!line_done) {
    if (wait_input(&old) < 0) { cancelled = 1; break; }
    rl_callback_read_char();
  }
  if (cancelled) {                       /* leave the line shown, with ^C */
    FILE *out = rl_outstream ? rl_outstream : stdout;
    rl_point = rl_end;
    rl_redisplay();
    fputs("^C\n", out);
    fflush(out);
    rl_replace_line("", 0);
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_callback_handler_remove();
    got_int = 0;
  }
  mode = outer;                          /* inside rl.run: RUNNING again */
  reading = 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return push_result(L, cancelled, line_got);
}

/* ------------------------------------------------------------- history */

/* the file name at arg (NULL when absent and optional): a string without
** zero bytes, which would make C open another file than the one named */
static const char *checkfile(lua_State *L, const char *fname, int arg, int optional) {
  size_t n;
  const char *s;
  if (optional && lua_isnoneornil(L, arg)) return NULL;
  s = checkstring(L, fname, arg, &n);
  if (strlen(s) != n) argerror(L, fname, arg, "file name contains a zero byte");
  return s;
}

/* the line count at arg (def when absent): a whole number >= 0, read as a
** float so that no integer is wrapped; 2^31 and beyond (math.huge too)
** are clamped to INT_MAX, every line */
static int checklines(lua_State *L, const char *fname, int arg, int def) {
  lua_Number x;
  int isnum;
  if (lua_isnoneornil(L, arg)) return def;
  x = lua_tonumberx(L, arg, &isnum);
  if (!isnum) return typeerror(L, fname, arg, "number");
  if (!(x >= 0))                         /* negative or NaN */
    return argerror(L, fname, arg, "number of lines must be >= 0");
  if (x < 9007199254740992.0 && x != (lua_Number)(long long)x)  /* 2^53 */
    return argerror(L, fname, arg, "number of lines must be a whole number");
  return x >= (lua_Number)INT_MAX ? INT_MAX : (int)x;
}

/* file is absent or a regular file: open() cannot block on it (a FIFO
** with no writer would hang the session) */
static int plainfile(const char *file) {
  struct stat st;
  return stat(file, &st) != 0 || S_ISREG(st.st_mode);
}

static int l_add_history(lua_State *L) {
  const char *line = checkstring(L, "add_history", 1, NULL);
  const char *file = checkfile(L, "add_history", 2, 1);
  add_history(line);
  if (file != NULL && plainfile(file)) {
    FILE *f = fopen(file, "a");          /* append_history needs the file */
    if (f != NULL) fclose(f);
    append_history(1, file);
  }
  return 0;
}

static int l_read_history(lua_State *L) {
  const char *file = checkfile(L, "read_history", 1, 0);
  int keep = checklines(L, "read_history", 2, 1000);
  if (!plainfile(file)) {                /* a FIFO, a device, a directory */
    lua_pushboolean(L, 0);
    return 1;
  }
  history_truncate_file(file, keep);
  lua_pushboolean(L, read_history(file) == 0);
  return 1;
}

/* ---------------------------------------------------------------- misc */

/* run(f, ...) -> pcall's results, with Ctrl-C raising "interrupted" */
static int l_run(lua_State *L) {
  int st;
  checkfunction(L, "run", 1);
  st = interruptible_pcall(L, lua_gettop(L) - 1, LUA_MULTRET);
  lua_pushboolean(L, st == LUA_OK);
  lua_insert(L, 1);
  return lua_gettop(L);
}

/* isatty([fd]): fd a whole number (lua_tointegerx refuses a fraction on
** every Lua; 5.1's luaL_optinteger would truncate 0.5 to 0) */
static int l_isatty(lua_State *L) {
  int isnum = 1;
  lua_Integer fd = lua_isnoneornil(L, 1) ? 0 : lua_tointegerx(L, 1, &isnum);
  if (!isnum) {
    (void)lua_tonumberx(L, 1, &isnum);
    if (isnum) return argerror(L, "isatty", 1, "number has no integer representation");
    return typeerror(L, "isatty", 1, "number");
  }
  lua_pushboolean(L, fd >= 0 && fd <= INT_MAX && isatty((int)fd));
  return 1;
}

static const luaL_Reg funcs[] = {
  {"readline", l_readline}, {"add_history", l_add_history},
  {"read_history", l_read_history}, {"set_completer", l_set_completer},
  {"run", l_run}, {"isatty", l_isatty}, {NULL, NULL}
};

RL_API int luaopen_linalg_readline(lua_State *L);

RL_API int luaopen_linalg_readline(lua_State *L) {
  rl_readline_name = "linalg";
  rl_catch_signals = 0;                  /* SIGINT is ours */
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = " \t\n\"'><=;+-*/%^~#&|{}()[],";
  rl_completer_word_break_characters = rl_basic_word_break_characters;
  catch_sigint();
  lua_pushcfunction(L, ask_completer);
  setreg(L, &ask_key);
  lua_pushcfunction(L, push_line);
  setreg(L, &push_key);
  luaL_newlib(L, funcs);
  return 1;
}
