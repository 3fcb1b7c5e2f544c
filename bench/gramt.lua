-- bench/gramt.lua [KxN ...] [float32]: X^T X of a tall, thin X (K x N),
-- la.matmul(X, X, {trans_a = true}) (kernels/gram.c up to 32 columns),
-- next to a general product of the same shapes (la.matmul(Y:t(), X), Y
-- another K x N: dgemm) and NumPy's X.T @ X (when /usr/bin/python3 has NumPy);
-- microseconds a call, best of 5 interleaved rounds. Run after `make` with
-- `eval $(make -s env)`:
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/gramt.lua 1000x10 100000x10 1000x32
local la = require "linalg"
local clock = os.clock
local shapes, dtype = {}, "float64"
for i = 1, #arg do
  if arg[i] == "float32" then dtype = "float32"
  else
    local k, n = arg[i]:match("^(%d+)x(%d+)$")
    shapes[#shapes + 1] = {assert(tonumber(k), "shapes are KxN"), tonumber(n)}
  end
end
if #shapes == 0 then shapes = {{1000, 10}, {100000, 10}, {1000, 32}} end

local function time(f, reps)
  local t0 = clock()
  for _ = 1, reps do f() end
  return (clock() - t0) / reps * 1e6
end

-- NumPy's time for X.T @ X (one process per round), or nil
local function numpy(k, n, reps)
  local py = "import numpy as np, time\n" ..
    ("X = np.asfortranarray(np.random.default_rng(1).standard_normal((%d, %d)).astype(np.%s))\n")
      :format(k, n, dtype) ..
    "X.T @ X\nt0 = time.process_time()\n" ..
    ("for _ in range(%d): X.T @ X\n"):format(reps) ..
    ("print((time.process_time() - t0) / %d * 1e6)\n"):format(reps)
  local f = io.popen("/usr/bin/python3 -c '" .. py .. "' 2>/dev/null")
  local v = f and tonumber(f:read("*a"))
  if f then f:close() end
  return v
end

local TA = {trans_a = true}
for _, s in ipairs(shapes) do
  local k, n = s[1], s[2]
  local X = la.randn(k, n, {dtype = dtype})
  local Yt = la.randn(k, n, {dtype = dtype}):t()
  local reps = math.max(3, math.floor(4e6 / (k * n)))
  local b = {math.huge, math.huge, math.huge}
  for _ = 1, 5 do
    b[1] = math.min(b[1], time(function() return la.matmul(X, X, TA) end, reps))
    b[2] = math.min(b[2], time(function() return la.matmul(Yt, X) end, reps))
    b[3] = math.min(b[3], numpy(k, n, reps) or math.huge)
  end
  print(string.format("%s %d x %d: X^T X %.1f us, %s %.1f, NumPy %s", dtype, k, n, b[1],
    dtype == "float32" and "sgemm" or "dgemm", b[2],
    b[3] < math.huge and string.format("%.1f (la/NumPy %.2f)", b[3], b[1] / b[3]) or "-"))
end
