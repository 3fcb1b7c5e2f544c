#!/bin/sh
# The release as a user gets it (make check-install runs this after
# tools/check-install.sh):
#   1. make dist: dist/linalg-<version>-1.src.rock (into a temporary folder)
#   2. luarocks install of that .src.rock into a temporary tree, without
#      network (unshare -n where allowed; no server), then require + lstsq
#      from that tree with lua5.4 (and linalg.mpi where mpicc built it).
#      --deps-mode=one, not none: linalg needs nothing but Lua, and the
#      wrapper luarocks writes for bin/linalg-repl sets the paths of the trees
#      the mode names (none: no tree, and the script would not find linalg)
#   3. luarocks pack of the installed rock (a binary rock), installed into a
#      second tree, the same smoke test and linalg.pc from that tree
#   4. make install DESTDIR=$tmp/a PREFIX=/usr/local, $tmp/a moved to $tmp/b:
#      examples/host.c compiled with pkg-config against the moved tree and run,
#      the moved bin/linalg-repl run non-interactively
# Nothing installed may name the build folder. Every step runs under a time
# limit; the whole takes about half a minute once the checkout is built.
set -eu
[ -n "${CHECK_INSTALL_TRACE:-}" ] && set -x
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/jobs.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^#define LINALG_VERSION "\(.*\)"/\1/p' "$top/src/linalg.h")
lv=5.4
# $1: seconds, then the command; its output goes to $tmp/step.log, shown on failure
step() {
  t=$1; shift
  timeout "$t" "$@" >"$tmp/step.log" 2>&1 || { rc=$?; echo "check-dist: failed ($rc): $*"; tail -30 "$tmp/step.log"; exit 1; }
}
# no network for luarocks where a network namespace can be made (root)
offline=""
unshare -n true 2>/dev/null && offline="unshare -n"
# luarocks with its configuration from a throwaway HOME, no server to ask,
# building under $tmp/rtmp (the folder nothing installed may name)
mkdir -p "$tmp/home" "$tmp/noserver" "$tmp/rtmp"
rocks="env HOME=$tmp/home TMPDIR=$tmp/rtmp $offline luarocks --lua-version=$lv --only-server=$tmp/noserver"

# require + lstsq from a tree only (no default paths); $1: tree (lib/lua and share/lua under it), $2: label
smoke() {
  (cd "$tmp" && env -u LUA_PATH -u LUA_CPATH -u LUA_INIT -u LUA_INIT_5_4 \
    LUA_PATH_5_4="$1/share/lua/$lv/?.lua;$1/share/lua/$lv/?/init.lua" LUA_CPATH_5_4="$1/lib/lua/$lv/?.so" \
    TREE="$1" VERSION="$version" MPI="$mpi" timeout 20 lua5.4 -e '
local tree, version, mpi = os.getenv("TREE"), os.getenv("VERSION"), os.getenv("MPI")
local la = require "linalg"
assert(la.version == version, "la.version " .. la.version .. ", src/linalg.h " .. version)
local where = package.searchpath("linalg.core", package.cpath)
assert(where:sub(1, #tree) == tree, "linalg.core from " .. where)
-- numpy: np.linalg.lstsq([[1,1],[1,2],[1,3]], [1,2,2], rcond=None)[0] -> [0.6667, 0.5]
local x = la.lstsq(la.matrix{{1, 1}, {1, 2}, {1, 3}}, la.vector{1, 2, 2})
assert(math.abs(x(1) - 2/3) < 1e-14 and math.abs(x(2) - 0.5) < 1e-14, "lstsq: " .. tostring(x))
if mpi == "yes" then
  local m = require "linalg.mpi"
  assert(m.rank() == 0 and m.size() == 1, "linalg.mpi singleton")
end
print("linalg " .. la.version .. " from " .. where .. (mpi == "yes" and " (and linalg.mpi)" or ""))') \
    >"$tmp/smoke.out" 2>&1 || { echo "$2: the smoke test failed:"; cat "$tmp/smoke.out"; exit 1; }
  sed "s/^/$2: /" "$tmp/smoke.out"
}
# the build folder $2 is named nowhere under $1 (files and the modules' strings)
names_none() {
  if grep -rl -- "$2" "$1"; then echo "check-dist: the files above name $2"; exit 1; fi
  for so in $(find "$1" -name '*.so'); do
    if strings "$so" | grep -F -- "$2"; then echo "check-dist: $so names $2"; exit 1; fi
  done
}
# the C host compiled against the linalg.pc in folder $1 and run; $2: LUA_PATH, $3: label
host_with() {
  PKG_CONFIG_PATH="$1" timeout 60 cc -o "$tmp/host" "$top/examples/host.c" \
    $(PKG_CONFIG_PATH="$1" pkg-config --cflags --libs linalg lua$lv) ||
    { echo "$3: examples/host.c does not build against $1/linalg.pc:"; cat "$1/linalg.pc"; exit 1; }
  (cd / && LUA_PATH="$2" timeout 20 "$tmp/host") >"$tmp/host.out" 2>&1 ||
    { echo "$3: examples/host.c failed:"; cat "$tmp/host.out"; exit 1; }
  sed "s/^/$3: /" "$tmp/host.out"
}
mpi=no
command -v mpicc >/dev/null 2>&1 && mpi=yes

# 1. the source rock, from what git tracks at HEAD
step 60 make -C "$top" -s dist DISTDIR="$tmp/dist"
srcrock="$tmp/dist/linalg-$version-1.src.rock"
test -f "$srcrock"
unzip -l "$srcrock" | grep -q " linalg-$version-1.rockspec$" && unzip -l "$srcrock" | grep -q " linalg-$version.tar.gz$" ||
  { echo "check-dist: $srcrock lacks the rockspec or the tarball"; unzip -l "$srcrock"; exit 1; }
echo "dist: $(basename "$srcrock") ($(wc -c < "$srcrock") bytes)"

# 2. luarocks install of the .src.rock, offline, into a fresh tree
(cd "$tmp" && step 240 $rocks install --tree="$tmp/tree" --deps-mode=one "$srcrock")
smoke "$tmp/tree" src.rock
test $mpi = no || test -f "$tmp/tree/lib/lua/$lv/linalg/mpi.so"
names_none "$tmp/tree" "$tmp/rtmp"

# 3. a binary rock packed from that tree, installed into another
(cd "$tmp" && step 60 $rocks pack linalg --tree="$tmp/tree")
binrock=$(ls "$tmp"/linalg-"$version"-1.*.rock | grep -v '\.src\.rock$')
(cd "$tmp" && step 60 $rocks install --tree="$tmp/tree2" --deps-mode=one "$binrock")
rm -rf "$tmp/tree"
smoke "$tmp/tree2" "binary rock"
# the C host as the README builds it against a rock: linalg.pc in the rock's folder
(export HOME="$tmp/home" &&
  export PKG_CONFIG_PATH="$(luarocks --lua-version=$lv --tree "$tmp/tree2" show --rock-dir linalg)/pkgconfig" &&
  timeout 60 cc -o "$tmp/host2" "$top/examples/host.c" $(pkg-config --cflags --libs linalg lua$lv) &&
  eval "$(luarocks --lua-version=$lv --tree "$tmp/tree2" path)" && cd / && timeout 20 "$tmp/host2") >"$tmp/host.out" 2>&1 ||
  { echo "binary rock: examples/host.c as the README builds it failed:"; cat "$tmp/host.out"; exit 1; }
sed "s/^/binary rock: /" "$tmp/host.out"
names_none "$tmp/tree2" "$tmp/rtmp"
names_none "$tmp/tree2" "$tmp/tree/"

repl_ok() {  # $1: the linalg-repl to run, $2: label
  out=$(printf 'la.config().blas_name\nla.version\nhelp "lstsq"\n' |
    (cd / && env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_5_4 -u LUA_CPATH_5_4 timeout 20 "$1" 2>&1)) || true
  echo "$out" | grep -q 'ans = OpenBLAS' && echo "$out" | grep -q "ans = $version" &&
    echo "$out" | grep -q "Least squares with NumPy's contract" ||
    { echo "$2: linalg-repl said:"; echo "$out"; exit 1; }
  echo "$2: linalg-repl ok"
}
repl_ok "$tmp/tree2/bin/linalg-repl" "binary rock"

# 4. make install into DESTDIR, the tree moved
step 300 make -C "$top" -s install DESTDIR="$tmp/a" PREFIX=/usr/local
mv "$tmp/a" "$tmp/b"
b=$tmp/b/usr/local
names_none "$tmp/b" "$top"
names_none "$tmp/b" /usr/local
host_with "$b/lib/pkgconfig" "$b/share/lua/$lv/?.lua;$b/share/lua/$lv/?/init.lua" "moved make install"
repl_ok "$b/bin/linalg-repl" "moved make install"
echo "check-dist: ok"
