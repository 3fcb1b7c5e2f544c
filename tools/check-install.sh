#!/bin/sh
# Installs linalg twice into temporary places (luarocks make into a tree,
# make install into a DESTDIR/PREFIX) and runs a smoke test from outside
# the checkout against each. Needs the luarocks package.
set -eu
[ -n "${CHECK_INSTALL_TRACE:-}" ] && set -x
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/jobs.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smoke='local la = require "linalg"
local y = la.matrix{{1,2},{3,4},{5,6}} * la.vector{2,-1}
assert(y == la.vector{0,2,4}, "wrong product")
print("smoke: linalg " .. la.version .. " from " .. package.searchpath("linalg.core", package.cpath))'

# 1. luarocks, from a copy of the checkout so the build starts clean
mkdir "$tmp/src"
(cd "$top" && git ls-files -z | xargs -0 -I{} cp --parents {} "$tmp/src/") 2>/dev/null ||
  cp -r "$top/." "$tmp/src/"
rm -rf "$tmp/src/build"
(cd "$tmp/src" && luarocks --lua-version=5.4 --tree "$tmp/tree" make rockspec/linalg-scm-1.rockspec >"$tmp/rock.log" 2>&1) ||
  { cat "$tmp/rock.log"; exit 1; }
(cd "$tmp" && eval "$(luarocks --lua-version=5.4 --tree "$tmp/tree" path)" && lua5.4 -e "$smoke")

# 1'. the other Lua versions: luarocks make into a tree of each, then the
# smoke test with its interpreter (LuaJIT through the 5.1 tree: the 5.1 ABI).
# One copy of the sources; each version builds into its own folder.
smoke_any='local la = require "linalg"
local y = la.matrix{{1,2},{3,4},{5,6}} * la.vector{2,-1}
assert(y == la.vector{0,2,4}, "wrong product")
print("smoke: linalg " .. la.version .. " under " .. la.config().lua)'
for v in 5.1 5.2 5.3; do
  command -v "lua$v" >/dev/null 2>&1 || { echo "check-install: lua$v skipped (not installed)"; continue; }
  (cd "$tmp/src" && luarocks --lua-version=$v --tree "$tmp/tree$v" make rockspec/linalg-scm-1.rockspec \
    >"$tmp/rock$v.log" 2>&1) || { cat "$tmp/rock$v.log"; exit 1; }
  luas="lua$v"
  [ $v = 5.1 ] && command -v luajit >/dev/null 2>&1 && luas="lua5.1 luajit"
  for l in $luas; do
    (cd "$tmp" && eval "$(luarocks --lua-version=$v --tree "$tmp/tree$v" path)" && $l -e "$smoke_any")
  done
done

# 1a. the linalg-mpi rock into the same tree (it depends on linalg), where mpicc is
if command -v mpicc >/dev/null 2>&1; then
  (cd "$tmp/src" && luarocks --lua-version=5.4 --tree "$tmp/tree" make rockspec/linalg-mpi-scm-1.rockspec >"$tmp/rockmpi.log" 2>&1) ||
    { cat "$tmp/rockmpi.log"; exit 1; }
  (cd "$tmp" && eval "$(luarocks --lua-version=5.4 --tree "$tmp/tree" path)" && lua5.4 -e '
local mpi = require "linalg.mpi"
assert(mpi.rank() == 0 and mpi.size() == 1, "singleton rank/size")
print("smoke: linalg.mpi from " .. package.searchpath("linalg.mpi", package.cpath))')
fi

# 1b. luarocks test: the rockspec's test = {type = "busted"}, offline. The
# system busted is registered as the busted rock in a throwaway HOME. Three
# spec files, not the suite (make test runs it under every Lua): this
# checks the rock's test hook, and the whole suite here took CI 2 minutes.
(export HOME="$tmp/home" && mkdir -p "$HOME" &&
  cd "$top/tools/busted-shim" && luarocks --lua-version=5.4 --local make busted-0.0-1.rockspec >"$tmp/shim.log" 2>&1 &&
  cd "$tmp/src" && make -s >/dev/null && luarocks --lua-version=5.4 test rockspec/linalg-scm-1.rockspec -- spec/matrix_spec.lua spec/lstsq_spec.lua spec/elem_spec.lua >"$tmp/test.log" 2>&1) ||
  { cat "$tmp/shim.log"; tail -20 "$tmp/test.log"; exit 1; }
echo "luarocks test: $(grep -o '[0-9]* successes / [0-9]* failures' "$tmp/test.log" | tail -1)"

# 2. make install PREFIX=... DESTDIR=...
make -C "$tmp/src" -s install PREFIX=/opt/linalg DESTDIR="$tmp/dest" >/dev/null
(cd "$tmp" && LUA_PATH="$tmp/dest/opt/linalg/share/lua/5.4/?.lua;$tmp/dest/opt/linalg/share/lua/5.4/?/init.lua" \
  LUA_CPATH="$tmp/dest/opt/linalg/lib/lua/5.4/?.so" lua5.4 -e "$smoke")

# 3. the C host (examples/host.c) compiled against each installed copy with
# pkg-config, and linalg-repl run from each
host_against() {  # $1: directory holding linalg.pc, $2: LUA_PATH, $3: label
  PKG_CONFIG_PATH="$1" cc -o "$tmp/host" "$top/examples/host.c" \
    $(PKG_CONFIG_PATH="$1" pkg-config --cflags --libs linalg lua5.4)
  (cd "$tmp" && LUA_PATH="$2" ./host) | sed "s/^/$3: /"
}
repl_says() {  # $1: the linalg-repl to run, $2: label
  out=$(printf 'la.config().blas_name\nhelp "lstsq"\n' | (cd "$tmp" && "$1"))
  echo "$out" | grep -q 'ans = OpenBLAS' && echo "$out" | grep -q "Least squares with NumPy's contract" ||
    { echo "$2: linalg-repl said:"; echo "$out"; exit 1; }
  echo "$2: linalg-repl ok ($1)"
}
# the rock: header and .pc in the rock's directory, the script in the tree's bin/
rockdir=$(luarocks --lua-version=5.4 --tree "$tmp/tree" show --rock-dir linalg)
pc=$rockdir/pkgconfig
test -f "$rockdir/include/linalg.h"
host_against "$pc" "$tmp/tree/share/lua/5.4/?.lua;$tmp/tree/share/lua/5.4/?/init.lua" rock
repl_says "$tmp/tree/bin/linalg-repl" rock
# make install with DESTDIR: everything in its place under DESTDIR
for f in include/linalg.h lib/pkgconfig/linalg.pc bin/linalg-repl lib/lua/5.4/linalg/core.so share/lua/5.4/linalg/core.luadoc; do
  test -f "$tmp/dest/opt/linalg/$f" || { echo "make install: no $f"; exit 1; }
done
# make install into a prefix: the host links and runs, the session starts
make -C "$tmp/src" -s install PREFIX="$tmp/prefix" >/dev/null
host_against "$tmp/prefix/lib/pkgconfig" "$tmp/prefix/share/lua/5.4/?.lua;$tmp/prefix/share/lua/5.4/?/init.lua" "make install"
repl_says "$tmp/prefix/bin/linalg-repl" "make install"
