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
  -- memory filled to the limit, then products while pieces are given back
  -- (tools/brim.lua): each fails cleanly until the result fits, then one
  -- runs (on one thread: OpenBLAS's threaded driver could not have its table)
  local errors, product, other = dofile(root .. "/tools/brim.lua")(la, la.ones(256, 256), la.ones(256, 256))
  if other then say("unexpected", other) end
  if product then say("product", product, "after", errors, "errors") end
elseif what == "/small" then
  local A = la.ones(300, 300)
  say("ok", (A * A)(1, 1), "threads", la.threads())
else
  return 404
end
lighty.r.resp_header["Content-Type"] = "text/plain"
lighty.r.resp_body:set({table.concat(out, "\n"), "\n"})
return 200
