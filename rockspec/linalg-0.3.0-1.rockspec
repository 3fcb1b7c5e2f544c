-- linalg 0.3.0: `make dist` packs this rockspec with the tracked files into
-- dist/linalg-0.3.0-1.src.rock, which builds offline:
--   luarocks --lua-version=5.4 install dist/linalg-0.3.0-1.src.rock
-- (5.1: Lua 5.1 or LuaJIT, whichever luarocks is configured with)
rockspec_format = "3.0"
package = "linalg"
version = "0.3.0-1"
source = {
  -- the tarball inside the .src.rock (`git archive` of the release commit)
  url = "linalg-0.3.0.tar.gz",
  dir = "linalg-0.3.0",
}
description = {
  summary = "Dense linear algebra for Lua 5.1-5.4 and LuaJIT on OpenBLAS and LAPACKE",
  detailed = [[
    Matrices as userdata with metamethods (A * B is a BLAS product),
    least squares, Gram-Schmidt, projections, span checks and fused
    scaled dot-product attention.]],
  license = "MIT",
}
dependencies = { "lua >= 5.1, < 5.5" }
external_dependencies = {
  OPENBLAS = { library = "openblas" },
  LAPACKE = { header = "lapacke.h", library = "lapacke" },
}
build = {
  type = "make",
  build_target = "all",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LIBFLAG = "$(LIBFLAG)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    LUA = "$(LUA)",                             -- names the build folder: build-lua5.1, ...
    BLAS_CFLAGS = "-I$(LAPACKE_INCDIR)",
    BLAS_LIBS = "-L$(OPENBLAS_LIBDIR) -lopenblas -L$(LAPACKE_LIBDIR) -llapacke",
  },
  install_variables = {
    -- the build's flags again: make install depends on all, and other
    -- flags would name another folder of kernel objects (Makefile: KEY)
    -- and rebuild the module with them
    CFLAGS = "$(CFLAGS)",
    LIBFLAG = "$(LIBFLAG)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    BLAS_CFLAGS = "-I$(LAPACKE_INCDIR)",
    BLAS_LIBS = "-L$(OPENBLAS_LIBDIR) -lopenblas -L$(LAPACKE_LIBDIR) -llapacke",
    INST_LIBDIR = "$(LIBDIR)",
    INST_LUADIR = "$(LUADIR)",
    -- linalg.h and linalg.pc stay in the rock's directory
    -- (`luarocks show --rock-dir linalg`); the .pc points at core.so where
    -- luarocks deploys it in a standard tree, <tree>/lib/lua/<version>/linalg,
    -- relative to its own folder (the tree may move, a packed rock installs
    -- into another)
    LUA = "$(LUA)",
    INST_INCDIR = "$(PREFIX)/include",
    INST_PCDIR = "$(PREFIX)/pkgconfig",
    PC_LUADIR = "$(PREFIX)/../../../../lua",
    INST_BINDIR = "",                           -- the script is install.bin's
  },
  install = {
    bin = { ["linalg-repl"] = "bin/linalg-repl" },
  },
}
test = { type = "busted" }
