-- tools/lighttpd-oom.lua: the mod_magnet script of tools/check-oom-host.sh.
-- lighttpd runs it for every request in one lua_State, so the module and
-- the ballast below live from request to request (in package.loaded).
-- LINALG_ROOT (set in lighttpd's environment) is the checkout.
local root = os.getenv("LINALG_ROOT") or "."
package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
package.cpath = root .. "/" .. (os.getenv("LINALG_BUILD") or "build") .. "/?.so;" .. package.cpath
local la = require "linalg"
local state = package.loaded["oom-host-state"] or {}
package.loaded["oom-host-state"] = state

local function vmsize()
  local f = io.open("/proc/self/status"); local s = f:read("a"); f:close()
  return s:match("VmSize:%s*(%d+)")
end

local out = {}
local function say(...) out[#out + 1] = table.concat({...}, " ") end

local what = lighty.r.req_attr["uri.path"]
if what == "/warm" then
  -- OpenBLAS's buffer for this thread, mapped now, before any limit
  local A = la.ones(256, 256)
  say("ok", (A * A)(1, 1), "threads", la.threads(), "vmsize", vmsize())
elseif what == "/grow" then
  -- growing products: the large ones fail cleanly
  for _, n in ipairs{128, 256, 512, 1024, 2048, 3072, 4096, 6144} do
    local ok, r = pcall(function() local A = la.ones(n, n); return (A * A)(1, 1) end)
    say(n, ok and "ok" or "error", ok and r or r)
    collectgarbage()
  end
elseif what == "/brim" then
  -- memory filled to the limit, then products while pieces are given back:
  -- each fails cleanly until the result fits, then one runs (on one
  -- thread: OpenBLAS's threaded driver could not have its table)
  local A, B = la.ones(256, 256), la.ones(256, 256)
  local ballast = {}
  local function fill(n)
    while true do
      local ok, M = pcall(la.zeros, n, 128)
      if not ok then return end
      ballast[#ballast + 1] = M
    end
  end
  fill(1024); fill(64); fill(8)
  for i = #ballast, 1, -1 do
    if ballast[i]:shape() == 1024 then ballast[i] = false; break end
  end
  collectgarbage()
  local first = #ballast + 1
  fill(64)
  local errors = 0
  for i = #ballast, first, -1 do
    ballast[i] = false
    collectgarbage()
    local ok, r = pcall(function() return (A * B)(1, 1) end)
    if ok then say("product", r, "after", errors, "errors"); break end
    if not tostring(r):find("not enough memory", 1, true) then say("unexpected", r) end
    errors = errors + 1
  end
  ballast = nil
  collectgarbage()
elseif what == "/small" then
  local A = la.ones(300, 300)
  say("ok", (A * A)(1, 1), "threads", la.threads())
else
  return 404
end
lighty.r.resp_header["Content-Type"] = "text/plain"
lighty.r.resp_body:set({table.concat(out, "\n"), "\n"})
return 200
