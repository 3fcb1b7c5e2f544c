#!/bin/sh
# make bench: builds the peers (raw C on OpenBLAS/LAPACKE, a clock module)
# and runs bench/run.lua, which prints linalg next to them with ratios.
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-cc}
mkdir -p build/bench
LUAINC=$(pkg-config --variable=includedir lua5.4)/lua5.4
BLAS="$(pkg-config --cflags --libs openblas lapacke 2>/dev/null || echo -lopenblas -llapacke)"
$CC -O2 -shared -fPIC -I"$LUAINC" -o build/bench/benchclock.so bench/clock.c
# the luaversions suite runs the Lua side under LuaJIT too: its clock
# module (build-luajit/ holds its linalg: make LUA=luajit)
if command -v luajit >/dev/null && pkg-config --exists luajit; then
  mkdir -p build/bench/luajit
  $CC -O2 -shared -fPIC $(pkg-config --cflags luajit) -o build/bench/luajit/benchclock.so bench/clock.c
fi
$CC -O2 -o build/bench/raw bench/raw.c $BLAS -lm
export LUA_PATH="./lua/?.lua;./lua/?/init.lua;./bench/?.lua;;"
export LUA_CPATH="./build/?.so;./build/bench/?.so;;"
# what the numbers below ran on (OPENBLAS_CORETYPE overrides the core)
lua5.4 -e 'local c = require("linalg").config()
print(("core: %s (%s, %d threads; attention exp: %s)"):format(c.core, c.blas, c.threads, c.simd_active))'
exec lua5.4 bench/run.lua "$@"
