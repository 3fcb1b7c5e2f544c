#!/bin/sh
# make check-hosts: linalg inside the applications that embed Lua, each a
# real process: Neovim headless (LuaJIT), nginx's lua module (LuaJIT),
# HAProxy's Lua service (5.3), mpv with a script and no video (5.2) and
# lighttpd's mod_magnet (5.4). Each host loads linalg from the build for its
# Lua and answers the seed's least-squares example; the answer is checked
# here. Servers listen on 127.0.0.1, are started and stopped by process id,
# and every step is bounded in time.
#   sh tools/check-hosts.sh [host ...]   (default: all five)
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
  sleep 0.2
  for p in $pids; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
failed=0
passed=0

# cdir LUA: the folder holding linalg/core.so built for that interpreter
cdir() { make -s --no-print-directory print-builddir LUA="$1"; }

# prelude LUA: Lua source that points package.path/cpath at this checkout
prelude() {
  printf 'package.path = "%s/lua/?.lua;%s/lua/?/init.lua;%s/tools/hosts/?.lua;" .. package.path\n' \
    "$root" "$root" "$root"
  printf 'package.cpath = "%s/?.so;" .. package.cpath\n' "$root/$(cdir "$1")"
}

# free_port: a TCP port nobody listens on, from the kernel
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# fetch PORT: the body the server at PORT answers, trying for up to 15 s
fetch() {
  i=0
  while [ $i -lt 30 ]; do
    if out=$(curl -sS --max-time 5 "http://127.0.0.1:$1/" 2>/dev/null) && [ -n "$out" ]; then
      printf '%s\n' "$out"; return 0
    fi
    sleep 0.5; i=$((i + 1))
  done
  return 1
}

# verdict NAME ANSWER: checks the line tools/hosts/answer.lua wrote
verdict() {
  if printf '%s\n' "$2" | awk '
    /^lstsq x = / { ok = ($4 - 0.2)^2 < 1e-24 && ($5 - 0.4)^2 < 1e-24 && $8 == 1 }
    END { exit !ok }'; then
    echo "check-hosts: ok   $1: $2"; passed=$((passed + 1))
  else
    echo "check-hosts: FAIL $1: ${2:-no answer}"; failed=$((failed + 1))
    for f in "$tmp"/"$1".*; do [ -f "$f" ] && sed "s/^/  $1 log: /" "$f" | tail -20; done
  fi
}

build() {
  make -s --no-print-directory LUA="$1" all >"$tmp/build-$1.log" 2>&1 ||
    { echo "check-hosts: build for $1 failed"; tail -20 "$tmp/build-$1.log"; return 1; }
}

# stop PID: ends a server started here
stop() { kill "$1" 2>/dev/null; sleep 0.3; kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

# serve NAME PORT CMD...: starts the server CMD (its output in NAME.log, at
# most 60 s), checks what it answers on PORT, and stops it
serve() {
  name=$1 sport=$2; shift 2
  timeout 60 "$@" >"$tmp/$name.log" 2>&1 &
  spid=$!; pids="$pids $spid"
  verdict "$name" "$(fetch "$sport")"
  stop "$spid"
}

host_nvim() {
  build luajit || return
  { prelude luajit
    printf 'local f = io.open("%s/nvim.out", "w")\n' "$tmp"
    printf 'f:write(require("answer")(), "\\n"); f:close()\n'
  } > "$tmp/nvim.lua"
  timeout 30 nvim --headless --clean -c "luafile $tmp/nvim.lua" -c 'qa!' \
    >"$tmp/nvim.log" 2>&1 </dev/null
  verdict nvim "$(cat "$tmp/nvim.out" 2>/dev/null)"
}

host_mpv() {
  build lua5.2 || return
  { prelude lua5.2
    printf 'local f = io.open("%s/mpv.out", "w")\n' "$tmp"
    printf 'f:write(require("answer")(), "\\n"); f:close()\n'
    printf 'mp.command("quit")\n'
  } > "$tmp/mpv.lua"
  timeout 30 mpv --no-config --idle=yes --vo=null --ao=null --no-terminal --log-file="$tmp/mpv.mpvlog" \
    --script="$tmp/mpv.lua" >"$tmp/mpv.log" 2>&1 </dev/null
  verdict mpv "$(cat "$tmp/mpv.out" 2>/dev/null)"
}

host_lighttpd() {
  build lua5.4 || return
  port=$(free_port)
  { prelude lua5.4
        printf 'lighty.r.resp_body.set({require("answer")(), "\\n"})\nreturn 200\n'
  } > "$tmp/lighttpd.lua"
  cat > "$tmp/lighttpd.conf" <<CONF
server.document-root = "$tmp"
server.bind = "127.0.0.1"
server.port = $port
server.modules = ("mod_magnet")
server.errorlog = "$tmp/lighttpd.err"
magnet.attract-raw-url-to = ("$tmp/lighttpd.lua")
CONF
  serve lighttpd "$port" lighttpd -D -f "$tmp/lighttpd.conf"
}

host_haproxy() {
  build lua5.3 || return
  port=$(free_port)
  { prelude lua5.3
    cat <<'LUA'
local answer = require "answer"
core.register_service("linalg", "http", function(applet)
  local body = answer() .. "\n"
  applet:set_status(200)
  applet:add_header("content-length", tostring(#body))
  applet:add_header("content-type", "text/plain")
  applet:start_response()
  applet:send(body)
end)
LUA
  } > "$tmp/haproxy.lua"
  cat > "$tmp/haproxy.cfg" <<CONF
global
  lua-load $tmp/haproxy.lua
defaults
  mode http
  timeout connect 5s
  timeout client 10s
  timeout server 10s
frontend linalg
  bind 127.0.0.1:$port
  http-request use-service lua.linalg
CONF
  serve haproxy "$port" haproxy -db -f "$tmp/haproxy.cfg"
}

host_nginx() {
  build luajit || return
  port=$(free_port)
  mods=/usr/share/nginx/modules
  [ -d "$mods" ] || mods=/usr/lib/nginx/modules
  cat > "$tmp/nginx.conf" <<CONF
load_module $mods/ndk_http_module.so;
load_module $mods/ngx_http_lua_module.so;
daemon off;
master_process off;
pid $tmp/nginx.pid;
error_log $tmp/nginx.err;
events {}
http {
  access_log off;
  client_body_temp_path $tmp;
  proxy_temp_path $tmp;
  fastcgi_temp_path $tmp;
  uwsgi_temp_path $tmp;
  scgi_temp_path $tmp;
  lua_package_path "$root/lua/?.lua;$root/lua/?/init.lua;$root/tools/hosts/?.lua;;";
  lua_package_cpath "$root/$(cdir luajit)/?.so;;";
  server {
    listen 127.0.0.1:$port;
    location / {
      content_by_lua_block { ngx.say(require("answer")()) }
    }
  }
}
CONF
  serve nginx "$port" nginx -e "$tmp/nginx.err" -p "$tmp" -c "$tmp/nginx.conf"
}

hosts=${*:-nvim nginx haproxy mpv lighttpd}
for h in $hosts; do "host_$h"; done
echo "check-hosts: $passed passed, $failed failed"
[ "$failed" = 0 ]
