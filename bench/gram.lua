-- bench/gram.lua [sizes...]: a matrix times its own transpose, X:t() * X
-- (dsyrk, or the X^T X kernel up to 32 columns), next to a general product
-- of the same shape (dgemm) and to NumPy's X.T @ X (when /usr/bin/python3
-- has NumPy), milliseconds a call, best of 5 interleaved rounds. A size is
-- n (X n x n) or RxC (X R x C). Run after `make` with `eval $(make -s env)`:
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/gram.lua 128 200 1000
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/gram.lua 100x100 1000x100 8x1000
local la = require "linalg"
local clock = os.clock
local sizes = {}
for i = 1, #arg do
  local r, c = arg[i]:match("^(%d+)x(%d+)$")
  r = tonumber(r or arg[i])
  assert(r, "sizes are numbers or RxC")
  sizes[i] = {r, tonumber(c) or r}
end
if #sizes == 0 then sizes = {{128, 128}, {200, 200}, {1000, 1000}} end

local function best(f, reps)
  local t0 = clock()
  for _ = 1, reps do f() end
  return (clock() - t0) / reps * 1e3
end

-- NumPy's time for X.T @ X of r x c (one process per round), or nil
local function numpy(r, c, reps)
  local py = "import numpy as np, time\n" ..
    ("X = np.asfortranarray(np.random.default_rng(1).standard_normal((%d, %d)))\n"):format(r, c) ..
    "X.T @ X\nt0 = time.process_time()\n" ..
    ("for _ in range(%d): X.T @ X\n"):format(reps) ..
    ("print((time.process_time() - t0) / %d * 1e3)\n"):format(reps)
  local f = io.popen("/usr/bin/python3 -c '" .. py .. "' 2>/dev/null")
  local v = f and tonumber(f:read("*a"))
  if f then f:close() end
  return v
end

for _, s in ipairs(sizes) do
  local r, c = s[1], s[2]
  local X, Y = la.randn(r, c, 1), la.randn(r, c, 2)
  local Xt = X:t()
  local reps = math.max(1, math.floor(2e8 / (r * c * c + 1e4)))
  local g, m, p = math.huge, math.huge, math.huge
  for _ = 1, 5 do
    g = math.min(g, best(function() return Xt * X end, reps))
    m = math.min(m, best(function() return Xt * Y end, reps))
    p = math.min(p, numpy(r, c, reps) or math.huge)
  end
  print(("%5d x %-5d X:t() * X %9.4f ms   general product %9.4f ms   NumPy X.T @ X %s"):format(
    r, c, g, m, p < math.huge and ("%9.4f ms  (la/NumPy %.2f)"):format(p, g / p) or "-"))
end
