-- bench/gram.lua [sizes...]: a matrix times its own transpose, X:t() * X
-- (dsyrk), next to a general product of the same shape (dgemm) and to
-- NumPy's X.T @ X (when /usr/bin/python3 has NumPy), milliseconds a call,
-- best of 5 interleaved rounds. Run after `make` with `eval $(make -s env)`:
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/gram.lua 128 200 1000
local la = require "linalg"
local clock = os.clock
local sizes = {}
for i = 1, #arg do sizes[i] = assert(tonumber(arg[i]), "sizes are numbers") end
if #sizes == 0 then sizes = {128, 200, 1000} end

local function best(f, reps)
  local t0 = clock()
  for _ = 1, reps do f() end
  return (clock() - t0) / reps * 1e3
end

-- NumPy's time for X.T @ X at n (one process per round), or nil
local function numpy(n, reps)
  local py = "import numpy as np, time\n" ..
    ("X = np.asfortranarray(np.random.default_rng(1).standard_normal((%d, %d)))\n"):format(n, n) ..
    "X.T @ X\nt0 = time.process_time()\n" ..
    ("for _ in range(%d): X.T @ X\n"):format(reps) ..
    ("print((time.process_time() - t0) / %d * 1e3)\n"):format(reps)
  local f = io.popen("/usr/bin/python3 -c '" .. py .. "' 2>/dev/null")
  local v = f and tonumber(f:read("*a"))
  if f then f:close() end
  return v
end

for _, n in ipairs(sizes) do
  local X, Y = la.randn(n, n, 1), la.randn(n, n, 2)
  local Xt = X:t()
  local reps = math.max(1, math.floor(2e8 / (n * n * n)))
  local g, m, p = math.huge, math.huge, math.huge
  for _ = 1, 5 do
    g = math.min(g, best(function() return Xt * X end, reps))
    m = math.min(m, best(function() return Y * X end, reps))
    p = math.min(p, numpy(n, reps) or math.huge)
  end
  print(("%5d x %-5d X:t() * X %9.3f ms   general product %9.3f ms   NumPy X.T @ X %s"):format(
    n, n, g, m, p < math.huge and ("%9.3f ms  (la/NumPy %.2f)"):format(p, g / p) or "-"))
end
