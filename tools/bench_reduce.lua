-- Times linalg's reductions; prints "case seconds" (best of the repetitions).
-- usage: OPENBLAS_NUM_THREADS=1 lua5.4 tools/bench_reduce.lua
-- (tools/bench_reduce.py runs it interleaved with NumPy's cases)
package.path = "./lua/?.lua;./lua/?/init.lua;" .. package.path
package.cpath = "./build/?.so;" .. package.cpath
local la = require "linalg"

local function best(f)
  local inner, t = 1, 0
  repeat
    local t0 = os.clock()
    for _ = 1, inner do f() end
    t = os.clock() - t0
    if t < 0.02 then inner = inner * 4 end
  until t >= 0.02
  local b = t / inner
  for _ = 1, 3 do
    local t0 = os.clock()
    for _ = 1, inner do f() end
    local s = (os.clock() - t0) / inner
    if s < b then b = s end
  end
  return b
end

local M = {[100] = la.randn(100, 100, 1), [1000] = la.randn(1000, 1000, 2)}
local V = {[10000] = la.randn(10000, 1, 3), [1000000] = la.randn(1000000, 1, 4)}
local cases = {}
local function add(name, f) cases[#cases + 1] = {name, f} end
for _, n in ipairs{100, 1000} do
  local A = M[n]
  add("max1_" .. n, function() return la.max(A, 1) end)
  add("max2_" .. n, function() return la.max(A, 2) end)
  add("maxall_" .. n, function() return la.max(A) end)
  add("min2_" .. n, function() return la.min(A, 2) end)
  add("argmax1_" .. n, function() return la.argmax(A, 1) end)
  add("argmax2_" .. n, function() return la.argmax(A, 2) end)
  add("argminall_" .. n, function() return la.argmin(A) end)
  add("sum1_" .. n, function() return la.sum(A, 1) end)
  add("sum2_" .. n, function() return la.sum(A, 2) end)
  add("sumall_" .. n, function() return la.sum(A) end)
  add("mean2_" .. n, function() return la.mean(A, 2) end)
  add("prod1_" .. n, function() return la.prod(A, 1) end)
  add("var1_" .. n, function() return la.var(A, 1) end)
  add("std2_" .. n, function() return la.std(A, 2) end)
  add("cumsum1_" .. n, function() return la.cumsum(A, 1) end)
  add("cummax2_" .. n, function() return la.cummax(A, 2) end)
  add("normfro_" .. n, function() return la.norm(A, "fro") end)
  add("norm1_" .. n, function() return la.norm(A, 1) end)
  add("norminf_" .. n, function() return la.norm(A, math.huge) end)
  add("vecnorm1_" .. n, function() return la.vecnorm(A, 2, 1) end)
  add("vecnorm2_" .. n, function() return la.vecnorm(A, 2, 2) end)
  add("trace_" .. n, function() return la.trace(A) end)
end
for _, n in ipairs{10000, 1000000} do
  local v = V[n]
  add("vnorm_" .. n, function() return la.norm(v) end)
  add("vnorm1_" .. n, function() return la.norm(v, 1) end)
  add("vmax_" .. n, function() return la.max(v) end)
  add("vargmax_" .. n, function() return la.argmax(v) end)
  add("vsum_" .. n, function() return la.sum(v) end)
end
local only = arg[1]
for _, c in ipairs(cases) do
  if not only or c[1]:find(only) then
    print(string.format("%s %.6g", c[1], best(c[2])))
    io.stdout:flush()
  end
end
