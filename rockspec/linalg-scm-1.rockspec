-- luarocks --lua-version=5.4 make rockspec/linalg-scm-1.rockspec
rockspec_format = "3.0"
package = "linalg"
version = "scm-1"
source = {
  url = "git+file:///dev/null",   -- built from a checkout with `luarocks make`
}
description = {
  summary = "Dense linear algebra for Lua 5.4 on OpenBLAS and LAPACKE",
  detailed = [[
    Matrices as userdata with metamethods (A * B is a BLAS product),
    least squares, Gram-Schmidt, projections, span checks and fused
    scaled dot-product attention.]],
  license = "MIT",
}
dependencies = { "lua >= 5.4, < 5.5" }
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
    BLAS_CFLAGS = "-I$(LAPACKE_INCDIR)",
    BLAS_LIBS = "-L$(OPENBLAS_LIBDIR) -lopenblas -L$(LAPACKE_LIBDIR) -llapacke",
  },
  install_variables = {
    INST_LIBDIR = "$(LIBDIR)",
    INST_LUADIR = "$(LUADIR)",
  },
}
test = { type = "busted" }
