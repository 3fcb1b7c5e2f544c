#!/bin/sh
# Installs the Debian packages linalg needs to build, test and demo.
# As root: apt-get installs what is missing. Otherwise: prints the exact
# command and stops with an error. Extra package names may be passed.
set -e
# every Lua linalg builds for (make LUA=...): interpreters and headers; Debian's
# lua-busted and its C dependencies (lua-filesystem, lua-system, lua-term)
# carry modules for all of them, so busted --lua=lua5.1 ... works; NumPy for
# the specs that check files and results against it live (/usr/bin/python3)
LUAS="lua5.1 lua5.2 lua5.3 lua5.4 liblua5.1-0-dev liblua5.2-dev liblua5.3-dev liblua5.4-dev"
PKGS="gcc make pkg-config libopenblas-dev liblapacke-dev $LUAS lua-busted librsvg2-bin netpbm libopenmpi-dev openmpi-bin libreadline-dev tmux python3-numpy $*"
# --list: the packages, one line, and nothing installed
if [ "${1:-}" = "--list" ]; then
  shift
  echo "$PKGS luajit2 libluajit2-5.1-dev" | sed 's/--list//'
  exit 0
fi
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
# LuaJIT: asked for by what it provides, the luajit command and pkg-config's
# luajit, never by package name. OpenResty's pair (luajit2, libluajit2-5.1-dev),
# which nginx's lua module needs, conflicts with Debian's luajit; either
# serves linalg, and naming one would make apt swap out the other (and with
# it nginx's module). Where neither is there, OpenResty's is installed.
if ! command -v luajit >/dev/null 2>&1 || ! pkg-config --exists luajit 2>/dev/null; then
  missing="$missing luajit2 libluajit2-5.1-dev"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing
else
  echo "deps: missing packages:$missing" >&2
  echo "deps: run: sudo apt-get install$missing" >&2
  exit 1
fi
