-- tools/bench_sort.lua: one round of the sort/copy/shape timings (best of
-- `reps` runs each, CPU seconds); tools/bench_sort.sh interleaves rounds with
-- tools/bench_sort.py (NumPy) and prints the ratios.
local la = require("linalg")
local reps = tonumber(arg and arg[1]) or 5
la.random.seed(1)
local function r(m, n) return la.random.randn(m, n) end
-- inputs made when a case first asks (a process runs one case: the heap
-- holds only its inputs)
local make = {
  A1 = function() return r(100, 100) end, A2 = function() return r(1000, 1000) end,
  v4 = function() return r(10000, 1) end, v6 = function() return r(1000000, 1) end,
  S1 = function() return r(100, 100) end, S2 = function() return r(1000, 1000) end,
  B1 = function() return r(150, 150):sub(21, 120, 31, 130) end,
  B2 = function() return r(1500, 1500):sub(201, 1200, 301, 1300) end,
  C1 = function() return r(100, 100) * 0.01 end, C2 = function() return r(1000, 1000) * (1 / 32) end,
  P1s = function()
    local A = r(100, 100)
    local P = A * A:t() + la.eye(100) * 100
    return (P + P:t()) * 0.5
  end,
}
local I = setmetatable({}, {__index = function(t, k) local v = make[k](); rawset(t, k, v); return v end})
local function best(f, k)
  local b = math.huge
  for _ = 1, reps do
    collectgarbage()                      -- the last run's results freed, untimed, as
    local t = os.clock()                  -- NumPy frees them (one call a run at 1000 x 1000)
    for _ = 1, k do f() end
    t = (os.clock() - t) / k
    if t < b then b = t end
  end
  return b
end
local cases = {
  {"sort_col_100", function() la.sort(I.A1, 1) end, 50},
  {"sort_col_1000", function() la.sort(I.A2, 1) end, 1},
  {"sort_row_100", function() la.sort(I.A1, 2) end, 50},
  {"sort_row_1000", function() la.sort(I.A2, 2) end, 1},
  {"argsort_col_100", function() la.argsort(I.A1, 1) end, 50},
  {"argsort_col_1000", function() la.argsort(I.A2, 1) end, 1},
  {"sort_v1e4", function() la.sort(I.v4) end, 50},
  {"sort_v1e6", function() la.sort(I.v6) end, 1},
  {"argsort_v1e6", function() la.argsort(I.v6) end, 1},
  {"copyview_100", function() la.copy(I.B1) end, 500},
  {"copyview_1000", function() la.copy(I.B2) end, 1},
  {"vstack_100", function() la.vstack({I.A1, I.S1}) end, 500},
  {"vstack_1000", function() la.vstack({I.A2, I.S2}) end, 1},
  {"hstack_1000", function() la.hstack({I.A2, I.S2}) end, 1},
  {"tile_100", function() la.tile(I.A1, 3, 3) end, 100},
  {"tile_1000", function() la.tile(I.A2, 2, 2) end, 1},
  {"transpose_100", function() I.A1:t() end, 500},
  {"transpose_1000", function() I.A2:t() end, 1},
  {"reshape_view_1000", function() la.reshape(I.B2, 500, 2000) end, 1},
  {"kron_100_10", function() la.kron(I.A1, la.ones(10, 10)) end, 3},
  {"flipud_1000", function() la.flipud(I.A2) end, 1},
  {"fliplr_1000", function() la.fliplr(I.A2) end, 1},
  {"triu_1000", function() la.triu(I.A2) end, 1},
  {"diag_1000", function() la.diag(I.v4:sub(1, 1000, 1, 1)) end, 1},
  {"eye_1000", function() la.eye(1000) end, 1},
  {"zeros_1000", function() la.zeros(1000, 1000) end, 1},
  {"full_1000", function() la.full(1000, 1000, 2.5) end, 1},
  {"linspace_1e6", function() la.linspace(0, 1, 1000000) end, 1},
  {"arange_1e6", function() la.arange(1000000) end, 1},
  {"roll_1000", function() la.roll(I.A2, 3, 1) end, 1},
  {"mpower_100_10", function() la.matrix_power(I.C1, 10) end, 50},
  {"mpower_1000_10", function() la.matrix_power(I.C2, 10) end, 1},
  {"cholesky_100", function() la.cholesky(I.P1s) end, 200},
}
local only = arg and arg[2]
if only == "list" then
  for _, c in ipairs(cases) do print(c[1]) end
  return
end
for _, c in ipairs(cases) do
  if not only or c[1] == only or (only:sub(1, 1) == "~" and c[1]:find(only:sub(2))) then
    c[2]()                                -- the inputs, and one warm-up run
    collectgarbage()
    io.write(string.format("%s %.9g\n", c[1], best(c[2], c[3])))
  end
end
