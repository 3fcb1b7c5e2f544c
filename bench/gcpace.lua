-- bench/gcpace.lua [generational|incremental]: passes over 1000 x 1000
-- matrices (and one 100 x 100) beside 1.4 MB of live Lua tables and 64 MB
-- of live matrices, under the collector mode named (set before linalg
-- opens, as a host sets it), microseconds a call, best of 7 timings of 50
-- calls. Run after `make` with `eval $(make -s env)`:
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/gcpace.lua incremental
if arg[1] then collectgarbage(arg[1]) end
local la = require "linalg"
local A = la.randn(1000, 1000)
local B = la.randn(1000, 1000)
local live = {}
for i = 1, 6 do live[i] = la.randn(1000, 1000) end
local keep = {}
for i = 1, 1.4 * 1024 * 1024 / 64 do keep[i] = {i} end
local clock = os.clock
local function t(name, f)
  local best = math.huge
  for _ = 1, 7 do
    collectgarbage()
    f()
    local t0 = clock()
    for _ = 1, 50 do f() end
    best = math.min(best, (clock() - t0) / 50 * 1e6)
  end
  return string.format("%s %.0f", name, best)
end
local S = A:sub(1, 100, 1, 100)
print((arg[1] or "default") .. ": " .. table.concat({
  t("A*2", function() return A * 2 end),
  t("A+B", function() return A + B end),
  t("-A", function() return -A end),
  t("abs", function() return la.abs(A) end),
  t("gt", function() return la.gt(A, B) end),
  t("S+1 (100x100)", function() return S + 1 end),
}, "  "), #live, #keep)
