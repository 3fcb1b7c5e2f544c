-- luarocks --lua-version=5.1|5.2|5.3|5.4 make rockspec/linalg-mpi-scm-1.rockspec
-- linalg.mpi: linalg's least squares across MPI ranks (Open MPI). Built with
-- mpicc (Debian: libopenmpi-dev, openmpi-bin); luarocks does not find mpi.h
-- as an external dependency (it lives under the Open MPI include directory),
-- so the compiler wrapper supplies the MPI flags. The linalg rock already
-- installs linalg.mpi where mpicc was present when it was built; this rock
-- adds it to a linalg built without.
rockspec_format = "3.0"
package = "linalg-mpi"
version = "scm-1"
source = {
  url = "git+file:///dev/null",   -- built from a checkout with `luarocks make`
}
description = {
  summary = "linalg's least-squares fit across MPI ranks",
  detailed = [[
    require "linalg.mpi": rank, size, barrier, allreduce of a least-squares
    state (MPI_Allreduce with a merge operator, or a fixed-order tree), and
    lstsq over rows spread across ranks, the same x on every rank.]],
  license = "MIT",
}
dependencies = { "lua >= 5.1, < 5.5", "linalg" }
external_dependencies = {
  OPENBLAS = { library = "openblas" },
  LAPACKE = { header = "lapacke.h", library = "lapacke" },
}
build = {
  type = "make",
  build_target = "mpi",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LIBFLAG = "$(LIBFLAG)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    LUA = "$(LUA)",
    MPICC = "mpicc",
    BLAS_CFLAGS = "-I$(LAPACKE_INCDIR)",
    BLAS_LIBS = "-L$(OPENBLAS_LIBDIR) -lopenblas -L$(LAPACKE_LIBDIR) -llapacke",
  },
  install_target = "install-mpi",
  install_variables = {
    INST_LIBDIR = "$(LIBDIR)",
  },
}
