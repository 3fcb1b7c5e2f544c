-- bench/tobytes.lua [tables [float64|float32 [kept]]]: x:tobytes() of a 1e6
-- vector (8 MB, 4 MB in float32) beside a heap of `tables` small Lua
-- tables (0: none; 8000: about 1 MiB), timed as the breadth bench times a
-- call: collectgarbage(), one call, then eight timed calls, each string
-- dropped at once (`local s = x:tobytes()`), or with "kept" held until the
-- next replaces it (`s = x:tobytes()`); microseconds a call, best of 15
-- timings, three times. With "loop" in its place: 200 calls in a row, each
-- string dropped, no collection asked for between (the collector's steady
-- state), three times. Run after `make` with `eval $(make -s env)`:
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/tobytes.lua 8000 float32
-- NumPy's x.tobytes() of the same vector, timed alike, for comparison:
--   /usr/bin/python3 -m timeit -s "import numpy as np; x = np.ones(1000000)" "x.tobytes()"
local la = require "linalg"
local clock = os.clock
local x = la.randn(1000000, 1, 1)
if arg[2] == "float32" then x = x:astype("float32") end
local pad = {}
for i = 1, tonumber(arg[1] or 0) do pad[i] = {i} end
if arg[3] == "loop" then   -- 200 calls in a row, no collection asked between
  local out = {}
  for r = 1, 3 do
    local t0, peak = clock(), 0
    for i = 1, 200 do
      local t = x:tobytes()
      t = nil
      if i % 8 == 0 then peak = math.max(peak, collectgarbage("count")) end
    end
    out[r] = string.format("%.0f (%.0f MiB)", (clock() - t0) / 200 * 1e6, peak / 1024)
  end
  print(string.format("x:tobytes() of 1e6 %s beside %s tables, 200 in a loop: %s us a call (the largest heap seen)",
    x.dtype, arg[1] or "0", table.concat(out, ", ")))
  return
end
local out = {}
for r = 1, 3 do
  local best = math.huge
  for _ = 1, 15 do
    collectgarbage()
    local s = x:tobytes()
    s = nil
    local t0 = clock()
    if arg[3] == "kept" then
      for _ = 1, 8 do s = x:tobytes() end
    else
      for _ = 1, 8 do local t = x:tobytes() end
    end
    s = nil
    best = math.min(best, (clock() - t0) / 8 * 1e6)
  end
  out[r] = string.format("%.0f", best)
end
print(string.format("x:tobytes() of 1e6 %s beside %s tables, %s: %s us", x.dtype, arg[1] or "0",
  arg[3] == "kept" and "each kept until the next" or "dropped at once", table.concat(out, " ")))
