#!/bin/sh
# check-oom-host.sh: linalg embedded in lighttpd (mod_magnet, Lua 5.4) under
# a memory limit with two OpenBLAS threads. OpenBLAS's threaded drivers
# call exit(1) when their per-call malloc fails; linalg must keep the host
# alive: products that do not fit fail with "not enough memory", one at the
# brim runs, a small request afterwards succeeds, the server still runs.
# Usage: sh tools/check-oom-host.sh (from the checkout; BUILD=build by default).
# Every step is bounded in time; lighttpd is started and stopped by its pid.
set -u
ROOT=$(pwd)
BUILD=${BUILD:-build}
MARGIN_MB=${MARGIN_MB:-40}
command -v lighttpd >/dev/null || { echo "check-oom-host: no lighttpd (apt-get install lighttpd)"; exit 1; }
command -v curl >/dev/null || { echo "check-oom-host: no curl"; exit 1; }
test -e "$BUILD/linalg/core.so" || { echo "check-oom-host: $BUILD/linalg/core.so not built"; exit 1; }
dir=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
  echo "check-oom-host: FAIL: $*"
  echo "--- lighttpd's output and error log"; cat "$dir/out.log" "$dir/error.log" 2>/dev/null
  exit 1
}
# running (a child that exited stays a zombie until waited for: not alive)
alive() { kill -0 "$pid" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; }
get() { curl -s --max-time 60 "http://127.0.0.1:$port$1"; }

# a free port: try a few random ones until lighttpd answers on one
tries=0
while :; do
  tries=$((tries + 1)); [ $tries -le 8 ] || fail "could not start lighttpd"
  port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000 ))
  cat > "$dir/lighttpd.conf" <<CONF
server.document-root = "$dir"
server.bind = "127.0.0.1"
server.port = $port
server.modules = ("mod_magnet")
server.errorlog = "$dir/error.log"
magnet.attract-raw-url-to = ("$ROOT/tools/lighttpd-oom.lua")
CONF
  LINALG_ROOT=$ROOT LINALG_BUILD=$BUILD OPENBLAS_NUM_THREADS=2 lighttpd -D -f "$dir/lighttpd.conf" \
    >"$dir/out.log" 2>&1 &
  pid=$!
  i=0; warm=
  while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
    warm=$(get /warm) && [ -n "$warm" ] && break
    sleep 0.1; i=$((i + 1))
  done
  [ -n "$warm" ] && break
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
echo "warm: $warm"
case "$warm" in "ok 256.0 threads 2 vmsize "*) ;; *) fail "warm-up answered '$warm'";; esac

# the limit: the server's size now and a margin
vm=$(awk '/^VmSize/ {print $2}' "/proc/$pid/status")
limit=$(( (vm + MARGIN_MB * 1024) * 1024 ))
prlimit --pid "$pid" --as="$limit" || fail "prlimit"
echo "limit: $limit bytes (VmSize $vm kB + $MARGIN_MB MiB)"

grow=$(get /grow); echo "grow:"; echo "$grow" | sed 's/^/  /'
alive || fail "the server died in /grow"
echo "$grow" | grep -q "^128 ok 128.0" || fail "a small product failed in /grow"
echo "$grow" | grep -q "^6144 error linalg.* not enough memory" || fail "no 'not enough memory' in /grow"

brim=$(get /brim); echo "brim: $brim"
alive || fail "the server died in /brim (OpenBLAS's exit?)"
case "$brim" in "product 256.0 after "*" errors") ;; *) fail "/brim answered '$brim'";; esac
case "$brim" in *"after 0 errors") fail "/brim never reached the limit";; esac

small=$(get /small); echo "small: $small"
[ "$small" = "ok 300.0 threads 2" ] || fail "/small answered '$small'"
alive || fail "the server died"
echo "check-oom-host: ok (the server answered every request and is still running)"
