-- tools/bench_sort.lua: one round of the sort/copy/shape timings (best of
-- `reps` runs each, CPU seconds); tools/bench_sort.sh interleaves rounds with
-- tools/bench_sort.py (NumPy) and prints the ratios.
local la = require("linalg")
local reps = tonumber(arg and arg[1]) or 5
la.random.seed(1)
local function r(m, n) return la.random.randn(m, n) end
local A1, A2 = r(100, 100), r(1000, 1000)
local v4, v6 = r(10000, 1), r(1000000, 1)
local S1, S2 = r(100, 100), r(1000, 1000)
local B1 = r(150, 150):sub(21, 120, 31, 130)
local B2 = r(1500, 1500):sub(201, 1200, 301, 1300)
local function best(f, k)
  local b = math.huge
  for _ = 1, reps do
    local t = os.clock()
    for _ = 1, k do f() end
    t = (os.clock() - t) / k
    if t < b then b = t end
  end
  return b
end
local P1 = A1 * A1:t() + la.eye(100) * 100
local P1s = (P1 + P1:t()) * 0.5
local C1 = r(100, 100) * 0.01
local C2 = r(1000, 1000) * (1 / 32)
local cases = {
  {"sort_col_100", function() la.sort(A1, 1) end, 50},
  {"sort_col_1000", function() la.sort(A2, 1) end, 1},
  {"sort_row_100", function() la.sort(A1, 2) end, 50},
  {"sort_row_1000", function() la.sort(A2, 2) end, 1},
  {"argsort_col_100", function() la.argsort(A1, 1) end, 50},
  {"argsort_col_1000", function() la.argsort(A2, 1) end, 1},
  {"sort_v1e4", function() la.sort(v4) end, 50},
  {"sort_v1e6", function() la.sort(v6) end, 1},
  {"argsort_v1e6", function() la.argsort(v6) end, 1},
  {"copyview_100", function() la.copy(B1) end, 500},
  {"copyview_1000", function() la.copy(B2) end, 3},
  {"vstack_100", function() la.vstack({A1, S1}) end, 500},
  {"vstack_1000", function() la.vstack({A2, S2}) end, 3},
  {"hstack_1000", function() la.hstack({A2, S2}) end, 3},
  {"tile_100", function() la.tile(A1, 3, 3) end, 100},
  {"tile_1000", function() la.tile(A2, 2, 2) end, 1},
  {"transpose_100", function() A1:t() end, 500},
  {"transpose_1000", function() A2:t() end, 3},
  {"reshape_view_1000", function() la.reshape(B2, 500, 2000) end, 3},
  {"kron_100_10", function() la.kron(A1, la.ones(10, 10)) end, 3},
  {"flipud_1000", function() la.flipud(A2) end, 3},
  {"fliplr_1000", function() la.fliplr(A2) end, 3},
  {"triu_1000", function() la.triu(A2) end, 3},
  {"diag_1000", function() la.diag(v4:sub(1, 1000, 1, 1)) end, 3},
  {"eye_1000", function() la.eye(1000) end, 3},
  {"zeros_1000", function() la.zeros(1000, 1000) end, 3},
  {"full_1000", function() la.full(1000, 1000, 2.5) end, 3},
  {"linspace_1e6", function() la.linspace(0, 1, 1000000) end, 3},
  {"arange_1e6", function() la.arange(1000000) end, 3},
  {"roll_1000", function() la.roll(A2, 3, 1) end, 3},
  {"mpower_100_10", function() la.matrix_power(C1, 10) end, 50},
  {"mpower_1000_10", function() la.matrix_power(C2, 10) end, 1},
  {"cholesky_100", function() la.cholesky(P1s) end, 200},
}
local only = arg and arg[2]
for _, c in ipairs(cases) do
  if not only or c[1]:find(only) then
    collectgarbage()
    io.write(string.format("%s %.9g\n", c[1], best(c[2], c[3])))
  end
end
