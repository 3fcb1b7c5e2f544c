-- Helpers of the specs that bound time or memory.
local interp = require "interp"
local unpack = table.unpack or unpack
local M = {}

--- f's results, asserting f took less than `bound` seconds of CPU time
-- (default 0.25): for calls on empty matrices with huge extents, slow only
-- when an empty extent is looped over.
function M.fast(f, bound)
  bound = bound or 0.25
  local t0 = os.clock()
  local r = {n = 0}
  local function keep(...) r = {n = select("#", ...), ...} end
  keep(f())
  assert(os.clock() - t0 < bound, "took " .. (os.clock() - t0) .. " s")
  return unpack(r, 1, r.n)
end

--- The output of `code` (with `la` loaded) run by a child of the running Lua under a
-- virtual-memory limit of about 1.6 GB: allocations past it fail at once on
-- any host.
function M.limited(code)
  local cmd = "ulimit -v 1600000; LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH='" .. interp.cpath .. "' " ..
    "OPENBLAS_NUM_THREADS=1 " .. interp.lua .. " -e " .. string.format("%q", "local la = require 'linalg'; " .. code) .. " 2>&1"
  local p = io.popen(cmd)
  local out = p:read("*a")
  p:close()
  return out
end

--- `it_`, or `pending_` when a sanitizer or valgrind preloads a library
-- (it reserves more address space than `limited` allows); busted's `it`
-- and `pending` are the spec file's, passed in.
function M.unlimited(it_, pending_)
  return (os.getenv("LD_PRELOAD") or "") ~= "" and pending_ or it_
end

return M
