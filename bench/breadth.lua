-- The breadth benchmark: linalg's own loops (elementwise, comparisons,
-- reductions, sorts, shape and copies, construction, norms, random numbers)
-- next to NumPy's equivalent, 1 thread, float64, the same inputs (written as
-- .npy files by linalg, read by NumPy), matrices of 100 x 100 and
-- 1000 x 1000, vectors of 1e4 and 1e6 where that is the natural shape.
--
-- One NumPy process (bench/numpy_breadth.py) serves the whole run through a
-- pipe (its answers come back through a FIFO). Each round times every
-- operation in linalg and at once in NumPy (who goes first alternates
-- between rounds), so both see the same load; a timing runs `inner` calls,
-- chosen once per side so that it takes >= MINTIME (2 ms), after one call
-- untimed on both sides (the first calls after the other side's run and
-- the operation before find their data out of cache: NumPy's side once
-- made its first timing of each operation right after its 3 calibrating
-- calls, linalg's never, which made linalg up to 1.7x slower on copies
-- and elementwise calls at 1000 x 1000); the report is the best timing
-- over the rounds, per call. Only public la functions are
-- called; every result is first compared with NumPy's (a weighted checksum),
-- and an operation that fails on either side is dropped with a message.
-- usage: sh bench/run.sh breadth (or breadth-quick: 3 rounds), which runs
--   OPENBLAS_NUM_THREADS=1 lua5.4 bench/breadth.lua [rounds = 7]
-- or require("breadth").run{rounds = 7}.
-- Environment: BREADTH_ROUNDS (rounds), BREADTH_FILTER (Lua patterns on
-- the operation names, separated by '|': an operation matching any runs),
-- BREADTH_SIZES (the two matrix sizes, "100 1000", the first of which gets
-- the small factorizations) and BREADTH_VECTORS (the two vector lengths,
-- "1e4 1e6"; sizes multiples of 10): "300 2000" and "1e5 4e6" look past
-- the caches. Results also go to build/bench/breadth.tsv.
local la = require "linalg"
local clock = require "benchclock"

local M = {}
local PY = "/usr/bin/python3"
local DIR = "build/bench/breadth"
-- where the file calls write: tmpfs when the machine has one (a private
-- folder in /dev/shm), else DIR
local WDIR = DIR
do
  local shm = "/dev/shm/linalg-breadth-" .. tostring(os.time()) .. "-" .. tostring(math.random(1e6))
  local r = os.execute("mkdir -p " .. shm .. " 2>/dev/null")
  if r == true or r == 0 then WDIR = shm end
end
local MINTIME = 2e-3

-- NumPy's semantics where they differ from linalg's (the note column)
local BOOL = "bool results on both sides"
local FLOATMASK = "NumPy: bool result; la: float64 1/0"
local VIEW = "NumPy gives a view: timed with .copy(order='F')"
local IDX = "NumPy: int64 0-based; la: float64 1-based"
local BYTES = "bytes: not compared"
local LIST = "NumPy: int64 0-based array; la: a float64 column vector, 1-based"
local SAVED = "a file written (temporary, renamed): not compared"

-- the matrix sizes and the vector lengths (with their names)
local function sizes()
  local n, v = {}, {}
  for w in (os.getenv("BREADTH_SIZES") or "100 1000"):gmatch("%d+") do n[#n + 1] = tonumber(w) end
  for w in (os.getenv("BREADTH_VECTORS") or "1e4 1e6"):gmatch("%S+") do
    v[#v + 1] = {w, math.floor(assert(tonumber(w), "BREADTH_VECTORS: not a number"))}
  end
  assert(#n == 2 and #v == 2, "BREADTH_SIZES and BREADTH_VECTORS take two each")
  return n, v
end
local NS, VS = sizes()
-- BREADTH_DTYPE=float32: every input float32 on both sides, and
-- construction and random numbers in float32 (dtype options)
local DTYPE = os.getenv("BREADTH_DTYPE") or "float64"
assert(DTYPE == "float64" or DTYPE == "float32", "BREADTH_DTYPE: float64 or float32")
local F32 = DTYPE == "float32"

-- the inputs, by name (size suffix: 100, 1000, 1e4, 1e6), from fixed seeds
local function inputs()
  local I = {}
  for _, n in ipairs(NS) do
    local t = tostring(n)
    local A = la.randn(n, n, 1)
    I["A" .. t] = A
    I["B" .. t] = la.randn(n, n, 2)
    I["P" .. t] = la.rand(n, n, 3) + 0.5               -- positive: log, sqrt, pow, ediv
    I["Q" .. t] = la.randn(n, n, 4) * 1e-3 + 1         -- near 1: prod, cumprod stay normal
    I["Z" .. t] = la.zeros(n, n)
    I["r" .. t] = la.randn(1, n, 5)                    -- a row, broadcast
    I["c" .. t] = la.randn(n, 1, 6)                    -- a column (NumPy: 1-D)
    I["d" .. t] = la.randn(n, 1, 7)
    I["K" .. t] = la.randn(n / 10, n / 10, 8)          -- kron(K, E): n x n
    I["E" .. t] = la.randn(10, 10, 9)
    I["U" .. t] = la.rand(n, n, 12) * 2 - 1            -- in [-1, 1]: acos, asin
    I["T" .. t] = la.randn(n * n / 10, 10, 13)         -- tall: samples x 10 features
    I["L" .. t] = la.randn(10, n * n / 10, 14)         -- wide: 10 rows (classes) x samples
    if n == NS[1] then I["S" .. t] = A * A:t() + la.eye(n) * n end   -- SPD
  end
  for _, s in ipairs(VS) do
    I["x" .. s[1]] = la.randn(s[2], 1, 10)
    I["y" .. s[1]] = la.randn(s[2], 1, 11)
  end
  if F32 then
    for k, A in pairs(I) do I[k] = A:astype("float32") end
  end
  for _, n in ipairs(NS) do              -- B in the other type: mixed operands
    I["O" .. n] = I["B" .. n]:astype(F32 and "float64" or "float32")
  end
  return I
end

-- an operation into the list: index results are compared 0-based; random
-- draws (other streams) and whole-matrix argmin/argmax (NumPy: a flat
-- C-order index) are not compared
local function add(ops, op)
  op.idx = op.note == IDX or op.note == LIST
  op.nocheck = op.expr:find("^rng%.") or (op.note and op.note:find("one flat index")) or op.note == BYTES or op.note == SAVED
  ops[#ops + 1] = op
end

-- The operations: {name, size tag, shape, la function, NumPy expression
-- (inputs named without their size suffix), note}.
local function operations(I)
  local ops, files = {}, {}
  for _, n in ipairs(NS) do
    local t = tostring(n)
    local A, B, P, Q, Z = I["A" .. t], I["B" .. t], I["P" .. t], I["Q" .. t], I["Z" .. t]
    local r, c, d, K, E, S = I["r" .. t], I["c" .. t], I["d" .. t], I["K" .. t], I["E" .. t], I["S" .. t]
    local Mk = la.gt(A, 0)
    local h = n - 1
    local sh = n .. "x" .. n
    local function op(name, f, expr, note, shape)
      add(ops, {name = name, tag = t, shape = shape or sh, f = f, expr = expr, note = note})
    end
    -- arithmetic
    op("A + B", function() return A + B end, "A + B")
    op("A - B", function() return A - B end, "A - B")
    op("la.emul(A, B)", function() return la.emul(A, B) end, "A * B")
    op("la.ediv(A, P)", function() return la.ediv(A, P) end, "A / P")
    op("A * 2", function() return A * 2 end, "A * 2")
    op("A / 2", function() return A / 2 end, "A / 2")
    op("-A", function() return -A end, "-A")
    op("A + row", function() return A + r end, "A + r")
    op("A + column", function() return A + c end, "A + c[:, None]")
    op("la.pow(P, 2)", function() return la.pow(P, 2) end, "np.power(P, 2)")
    op("la.pow(P, 2.5)", function() return la.pow(P, 2.5) end, "np.power(P, 2.5)")
    op("la.maximum(A, B)", function() return la.maximum(A, B) end, "np.maximum(A, B)")
    op("la.minimum(A, B)", function() return la.minimum(A, B) end, "np.minimum(A, B)")
    op("la.clip(A, -.5, .5)", function() return la.clip(A, -0.5, 0.5) end, "np.clip(A, -0.5, 0.5)")
    op("la.where(M, A, B)", function() return la.where(Mk, A, B) end, "np.where(Mb, A, B)",
      "a bool mask on both sides")
    op("la.hypot(A, B)", function() return la.hypot(A, B) end, "np.hypot(A, B)")
    op("la.atan2(A, B)", function() return la.atan2(A, B) end, "np.arctan2(A, B)")
    -- comparisons and predicates
    for _, cmp in ipairs{{"gt", ">"}, {"lt", "<"}, {"ge", ">="}, {"le", "<="}, {"eq", "=="}, {"ne", "!="}} do
      local f = la[cmp[1]]
      op("la." .. cmp[1] .. "(A, B)", function() return f(A, B) end, "A " .. cmp[2] .. " B", BOOL)
    end
    op("la.gt(A, 0)", function() return la.gt(A, 0) end, "A > 0", BOOL)
    op("la.isnan(A)", function() return la.isnan(A) end, "np.isnan(A)", BOOL)
    op("la.isfinite(A)", function() return la.isfinite(A) end, "np.isfinite(A)", BOOL)
    op("la.isinf(A)", function() return la.isinf(A) end, "np.isinf(A)", BOOL)
    -- unary functions
    for _, u in ipairs{{"abs"}, {"sign"}, {"floor"}, {"ceil"}, {"trunc"}, {"round"},
        {"exp"}, {"expm1"}, {"log", "P"}, {"log1p", "P"}, {"log2", "P"}, {"log10", "P"},
        {"sqrt", "P"}, {"sin"}, {"cos"}, {"tan"}, {"tanh"}, {"sinh"}, {"cosh"}, {"atan", nil, "arctan"}} do
      local f, x = la[u[1]], u[2] == "P" and P or A
      op("la." .. u[1] .. "(" .. (u[2] or "A") .. ")", function() return f(x) end,
        "np." .. (u[3] or u[1]) .. "(" .. (u[2] or "A") .. ")")
    end
    op("la.round(A, 2)", function() return la.round(A, 2) end, "np.round(A, 2)")
    -- reductions: down columns (dim 1, NumPy axis=0), across rows, all
    for _, red in ipairs{{"sum", "A"}, {"mean", "A"}, {"prod", "Q"}, {"min", "A"}, {"max", "A"},
        {"argmin", "A", IDX}, {"argmax", "A", IDX}, {"var", "A"}, {"std", "A"}} do
      local x = red[2] == "Q" and Q or A
      local m = red[1]
      op(red[2] .. ":" .. m .. "(1)", function() return x[m](x, 1) end,
        "np." .. m .. "(" .. red[2] .. ", axis=0)", red[3])
      op(red[2] .. ":" .. m .. "(2)", function() return x[m](x, 2) end,
        "np." .. m .. "(" .. red[2] .. ", axis=1)", red[3])
      op(red[2] .. ":" .. m .. "()", function() return x[m](x) end, "np." .. m .. "(" .. red[2] .. ")",
        red[3] and "NumPy: one flat index; la: row and column" or nil)
    end
    op("la.ptp(A)", function() return la.ptp(A) end, "np.ptp(A)")
    op("la.ptp(A, 1)", function() return la.ptp(A, 1) end, "np.ptp(A, axis=0)")
    op("la.median(A)", function() return la.median(A) end, "np.median(A)")
    op("la.median(A, 1)", function() return la.median(A, 1) end, "np.median(A, axis=0)")
    op("la.median(A, 2)", function() return la.median(A, 2) end, "np.median(A, axis=1)")
    op("la.quantile(A, .9, 1)", function() return la.quantile(A, 0.9, 1) end, "np.quantile(A, 0.9, axis=0)")
    op("la.cov(A)", function() return la.cov(A) end, "np.cov(A, rowvar=False)")
    op("la.corrcoef(A)", function() return la.corrcoef(A) end, "np.corrcoef(A, rowvar=False)")
    op("la.logsumexp(A, 2)", function() return la.logsumexp(A, 2) end,
      "(lambda m: np.log(np.sum(np.exp(A - m), axis=1)) + m[:, 0])(np.amax(A, axis=1, keepdims=True))",
      "NumPy: SciPy's algorithm (finite data)")
    op("la.percentile(A, q3, 2)", function() return la.percentile(A, {25, 50, 75}, 2) end,
      "np.percentile(A, [25, 50, 75], axis=1).T")
    op("la.all(A)", function() return la.all(A) end, "np.all(A)")
    op("la.any(Z)", function() return la.any(Z) end, "np.any(Z)", "all zeros: a full scan")
    op("la.any(A, 1)", function() return la.any(A, 1) end, "np.any(A, axis=0)", FLOATMASK)
    op("la.count_nonzero(A)", function() return la.count_nonzero(A) end, "np.count_nonzero(A)")
    -- running reductions and differences
    for _, cum in ipairs{{"cumsum", "A", "np.cumsum(%s, axis=%d)"}, {"cumprod", "Q", "np.cumprod(%s, axis=%d)"},
        {"cummin", "A", "np.minimum.accumulate(%s, axis=%d)"}, {"cummax", "A", "np.maximum.accumulate(%s, axis=%d)"}} do
      local x, m = cum[2] == "Q" and Q or A, cum[1]
      for dim = 1, 2 do
        op(cum[2] .. ":" .. m .. "(" .. dim .. ")", function() return x[m](x, dim) end,
          cum[3]:format(cum[2], dim - 1))
      end
    end
    op("la.diff(A, 1, 1)", function() return la.diff(A, 1, 1) end, "np.diff(A, axis=0)")
    op("la.diff(A, 1, 2)", function() return la.diff(A, 1, 2) end, "np.diff(A, axis=1)")
    -- sorts along a dimension
    op("A:sort(1)", function() return A:sort(1) end, "np.sort(A, axis=0)", "la also returns the indices")
    op("A:sort(2)", function() return A:sort(2) end, "np.sort(A, axis=1)", "la also returns the indices")
    op("A:sort(1, values)", function() return A:sort(1, {indices = false}) end, "np.sort(A, axis=0)",
       "{indices = false}: the values alone")
    op("A:sort(2, values)", function() return A:sort(2, {indices = false}) end, "np.sort(A, axis=1)",
       "{indices = false}: the values alone")
    op("A:argsort(1)", function() return A:argsort(1) end, "np.argsort(A, axis=0, kind='stable')", IDX)
    op("A:argsort(2)", function() return A:argsort(2) end, "np.argsort(A, axis=1, kind='stable')", IDX)
    -- norms and measures
    op("la.norm(A) (fro)", function() return la.norm(A) end, "np.linalg.norm(A)")
    op("la.norm(A, 1)", function() return la.norm(A, 1) end, "np.linalg.norm(A, 1)")
    op("la.norm(A, inf)", function() return la.norm(A, math.huge) end, "np.linalg.norm(A, np.inf)")
    op("la.vecnorm(A)", function() return la.vecnorm(A) end, "np.linalg.norm(A, axis=0)")
    op("la.trace(A)", function() return la.trace(A) end, "np.trace(A)")
    op("la.outer(c, d)", function() return la.outer(c, d) end, "np.outer(c, d)")
    -- shape and copies
    op("A:t() (a copy)", function() return A:t() end, "A.T.copy(order='F')", VIEW)
    op("A:copy()", function() return A:copy() end, "A.copy(order='F')")
    -- .npy and CSV files (last of all, in rounds of their own: the calls
    -- that followed them ran slower, a 1000 x 1000 copy twice its time);
    -- written under WDIR (tmpfs where there is one: the
    -- libraries, not the disk). A's .npy (written for NumPy's side, Fortran
    -- order) read back from the page cache; a file written (NumPy writes in
    -- place, linalg to a temporary renamed onto the file); CSV text written
    -- by save_csv for both sides to read (NumPy 1.23's loadtxt parses in C),
    -- 17 digits on both sides
    local function fop(name, f, expr, note)
      files[#files + 1] = function()
        add(ops, {name = name, tag = t, shape = sh, f = f, expr = expr, note = note, file = true})
      end
    end
    local file = DIR .. "/A" .. t .. ".npy"
    fop("la.load_npy(file)", function() return la.load_npy(file) end, "np.load('" .. file .. "')")
    fop("la.save_npy(A, file)", function() return la.save_npy(A, WDIR .. "/saved_la.npy") end,
      "np.save('" .. WDIR .. "/saved_np.npy', A)", SAVED)
    local csv = WDIR .. "/A" .. t .. ".csv"
    la.save_csv(A, csv)
    fop("la.load_csv(file)", function() return la.load_csv(csv) end, "np.loadtxt('" .. csv .. "', delimiter=',')")
    fop("la.save_csv(A, file)", function() return la.save_csv(A, WDIR .. "/saved_la.csv") end,
      "np.savetxt('" .. WDIR .. "/saved_np.csv', A, delimiter=',', fmt='%.17g')", SAVED)
    op("A:sub(2, n-1, 2, n-1):copy()", function() return A:sub(2, h, 2, h):copy() end,
      "A[1:-1, 1:-1].copy(order='F')")
    op("A:reshape(n/2, 2n)", function() return A:reshape(n / 2, 2 * n) end,
      string.format("A.reshape((%d, %d), order='F').copy(order='F')", n / 2, 2 * n), VIEW)
    op("la.vstack{A, B}", function() return la.vstack{A, B} end, "np.vstack((A, B))", nil, (2 * n) .. "x" .. n)
    op("la.hstack{A, B}", function() return la.hstack{A, B} end, "np.hstack((A, B))", nil, n .. "x" .. (2 * n))
    op("la.tile(A, 2, 2)", function() return la.tile(A, 2, 2) end, "np.tile(A, (2, 2))", nil, (2 * n) .. "x" .. (2 * n))
    op("la.repmat(A, 2, 3)", function() return la.repmat(A, 2, 3) end, "np.tile(A, (2, 3))", nil, (2 * n) .. "x" .. (3 * n))
    op("la.kron(K, E)", function() return la.kron(K, E) end, "np.kron(K, E)", "K n/10 square, E 10x10")
    op("la.flip(A, 1)", function() return la.flip(A, 1) end, "np.flip(A, 0).copy(order='F')", VIEW)
    op("la.flip(A, 2)", function() return la.flip(A, 2) end, "np.flip(A, 1).copy(order='F')", VIEW)
    op("la.roll(A, 3, 1)", function() return la.roll(A, 3, 1) end, "np.roll(A, 3, axis=0)")
    op("la.diag(A)", function() return la.diag(A) end, "np.diag(A).copy()", VIEW)
    op("la.diag(c)", function() return la.diag(c) end, "np.diag(c)")
    op("la.triu(A)", function() return la.triu(A) end, "np.triu(A)")
    op("la.tril(A)", function() return la.tril(A) end, "np.tril(A)")
    -- more of what NumPy code calls
    local U = I["U" .. t]
    local perm = {}
    for i = 1, n do perm[i] = (i * 7919) % n + 1 end       -- a permutation (7919 prime, n | 10^k)
    local Mr = la.gt(c, 0)
    op("la.acos(U)", function() return la.acos(U) end, "np.arccos(U)")
    op("la.asin(U)", function() return la.asin(U) end, "np.arcsin(U)")
    op("la.fix(A)", function() return la.fix(A) end, "np.fix(A)")
    op("la.isclose(A, B)", function() return la.isclose(A, B) end, "np.isclose(A, B)", BOOL)
    op("la.allclose(A, A)", function() return la.allclose(A, A) end, "np.allclose(A, A)")
    op("la.softmax(A)", function() return la.softmax(A) end, "sp.softmax(A, axis=1)", "SciPy's special.softmax")
    op("la.softmax(A, 1)", function() return la.softmax(A, 1) end, "sp.softmax(A, axis=0)", "SciPy's special.softmax")
    op("la.log_softmax(A)", function() return la.log_softmax(A) end, "sp.log_softmax(A, axis=1)",
      "SciPy's special.log_softmax")
    op("la.fliplr(A)", function() return la.fliplr(A) end, "np.fliplr(A).copy(order='F')", VIEW)
    op("la.circshift(A, 3, 2)", function() return la.circshift(A, 3, 2) end, "np.roll(A, 3, axis=1)")
    op("A:slice(p, ':')", function() return A:slice(perm, ":") end, "A[P0, :]", "a permutation of the rows")
    op("A:slice(':', p)", function() return A:slice(":", perm) end, "A[:, P0]", "a permutation of the columns")
    local W = la.zeros(n, n, {dtype = DTYPE})
    op("W:set(p, ':', B)", function() return W:set(perm, ":", B) end, "setrows(W, P0, B)",
      "NumPy: W[P0, :] = B")
    op("W:set(':', p, 1)", function() return W:set(":", perm, 1) end, "setcols(W, P0, 1)",
      "NumPy: W[:, P0] = 1")
    op("A:slice(M1, ':')", function() return A:slice(Mr, ":") end, "A[Mr, :]", "a bool mask of the rows")
    op("la.zeros_like(A)", function() return la.zeros_like(A) end, "np.zeros_like(A, order='F')")
    op("la.full_like(A, 2)", function() return la.full_like(A, 2) end, "np.full_like(A, 2, order='F')")
    op("la.inner(A, B)", function() return la.inner(A, B) end, "np.inner(A, B)", "A * B.T (BLAS)")
    local TA = {trans_a = true}
    op("la.matmul(A, c, {trans_a})", function() return la.matmul(A, c, TA) end, "A.T @ c",
      "A read in place (dgemv)")
    op("la.matmul(T, T, {trans_a})", function() return la.matmul(I["T" .. t], I["T" .. t], TA) end, "T.T @ T",
      "a tall T (samples x 10)", "10x10")
    op("A:astype(other)", function() return A:astype(F32 and "float64" or "float32") end,
      "A.astype(np." .. (F32 and "float64" or "float32") .. ", order='F')")
    op("A:astype('bool')", function() return A:astype("bool") end, "A.astype(bool, order='F')", BOOL)
    op("la.mean(M)", function() return la.mean(Mk) end, "np.mean(Mb)", "a bool mask's mean")
    -- numbers on either side, the other type, views, a few more constructors
    local O, V = I["O" .. t], A:sub(2, h, 2, h)
    op("A + 1", function() return A + 1 end, "A + 1")
    op("2 - A", function() return 2 - A end, "2 - A")
    op("1 / P", function() return 1 / P end, "1 / P")
    op("la.maximum(A, 0)", function() return la.maximum(A, 0) end, "np.maximum(A, 0)")
    op("la.where(M, A, 0)", function() return la.where(Mk, A, 0) end, "np.where(Mb, A, 0)",
      "a bool mask on both sides")
    op("A + O (other type)", function() return A + O end, "A + O", "float64 + float32: float64")
    op("la.pow(P, 3)", function() return la.pow(P, 3) end, "np.power(P, 3)")
    op("la.pow(P, -1)", function() return la.pow(P, -1) end, "np.power(P, -1.0)")
    op("la.pow(P, 0.5)", function() return la.pow(P, 0.5) end, "np.power(P, 0.5)")
    op("la.mod(A, B)", function() return la.mod(A, B) end, "np.remainder(A, B)")
    op("A % 0.3", function() return A % 0.3 end, "A % 0.3")
    op("la.fmod(A, B)", function() return la.fmod(A, B) end, "np.fmod(A, B)")
    op("la.exp(V) (a view)", function() return la.exp(V) end, "np.exp(A[1:-1, 1:-1])")
    op("V + V (views)", function() return V + V end, "A[1:-1, 1:-1] + A[1:-1, 1:-1]")
    op("la.check_finite(A)", function() return la.check_finite(A) end, "np.asarray_chkfinite(A)")
    op("la.flipud(A)", function() return la.flipud(A) end, "np.flipud(A).copy(order='F')", VIEW)
    op("la.ones_like(A)", function() return la.ones_like(A) end, "np.ones_like(A, order='F')")
    op("la.find(M)", function() return la.find(Mk) end, "np.flatnonzero(Mb.ravel(order='F'))",
      LIST)
    op("la.blkdiag(A, B)", function() return la.blkdiag(A, B) end, "sl.block_diag(A, B)",
      "SciPy's linalg.block_diag", (2 * n) .. "x" .. (2 * n))
    -- tall (n^2/10 x 10) and wide (10 x n^2/10) matrices: short rows, short columns
    local T, L = I["T" .. t], I["L" .. t]
    local st, sw = math.floor(n * n / 10) .. "x10", "10x" .. math.floor(n * n / 10)
    op("T:sum(2)", function() return T:sum(2) end, "np.sum(T, axis=1)", nil, st)
    op("T:max(2)", function() return T:max(2) end, "np.max(T, axis=1)", nil, st)
    op("T:argmax(2)", function() return T:argmax(2) end, "np.argmax(T, axis=1)", IDX, st)
    op("T:std(2)", function() return T:std(2) end, "np.std(T, axis=1)", nil, st)
    op("T:sort(2)", function() return T:sort(2) end, "np.sort(T, axis=1)", "la also returns the indices", st)
    op("la.softmax(T)", function() return la.softmax(T) end, "sp.softmax(T, axis=1)", "SciPy's special.softmax", st)
    op("T:mean(1)", function() return T:mean(1) end, "np.mean(T, axis=0)", nil, st)
    op("la.cov(T)", function() return la.cov(T) end, "np.cov(T, rowvar=False)", "samples in rows", st)
    op("la.corrcoef(T)", function() return la.corrcoef(T) end, "np.corrcoef(T, rowvar=False)", nil, st)
    op("T:t() (a copy)", function() return T:t() end, "T.T.copy(order='F')", VIEW, st)
    op("L:sum(1)", function() return L:sum(1) end, "np.sum(L, axis=0)", nil, sw)
    op("L:std(1)", function() return L:std(1) end, "np.std(L, axis=0)", nil, sw)
    op("L:max(1)", function() return L:max(1) end, "np.max(L, axis=0)", nil, sw)
    op("L:argmax(1)", function() return L:argmax(1) end, "np.argmax(L, axis=0)", IDX, sw)
    op("L:max(2)", function() return L:max(2) end, "np.max(L, axis=1)", nil, sw)
    op("la.vecnorm(L)", function() return la.vecnorm(L) end, "np.linalg.norm(L, axis=0)", nil, sw)
    op("L:sort(1)", function() return L:sort(1) end, "np.sort(L, axis=0)", "la also returns the indices", sw)
    op("la.softmax(L, 1)", function() return la.softmax(L, 1) end, "sp.softmax(L, axis=0)", "SciPy's special.softmax", sw)
    -- views and bool masks read in place
    local Zb = la.gt(Z, 0)
    op("A:sub(2, n-1, 2, n-1):max()", function() return A:sub(2, h, 2, h):max() end, "A[1:-1, 1:-1].max()")
    op("A:sub(2, n-1, 2, n-1):sum()", function() return A:sub(2, h, 2, h):sum() end, "A[1:-1, 1:-1].sum()")
    op("la.any(Zb)", function() return la.any(Zb) end, "np.any(Zb)", "a bool mask, all false: a full scan")
    op("la.count_nonzero(M)", function() return la.count_nonzero(Mk) end, "np.count_nonzero(Mb)", "a bool mask")
    -- construction and random numbers (float32 mode: {dtype = "float32"},
    -- NumPy's dtype=np.float32)
    local DO, ND = F32 and {dtype = "float32"} or nil, F32 and ", dtype=np.float32" or ""
    local nn = "(" .. n .. ", " .. n .. ")"
    op("la.eye(n)", function() return la.eye(n, DO) end, "np.eye(" .. n .. ND .. ")")
    op("la.zeros(n, n)", function() return la.zeros(n, n, DO) end, "np.zeros(" .. nn .. ND .. ", order='F')",
      n >= 1000 and "np.zeros: calloc, pages left untouched" or nil)
    op("la.ones(n, n)", function() return la.ones(n, n, DO) end, "np.ones(" .. nn .. ND .. ", order='F')")
    op("la.full(n, n, 3.5)", function() return la.full(n, n, 3.5, DO) end,
      "np.full(" .. nn .. ", 3.5" .. ND .. ", order='F')")
    op("la.rand(n, n)", function() return la.rand(n, n, DO) end, "rng.random(" .. nn .. ND .. ")",
      "NumPy: default_rng (PCG64)")
    op("la.randn(n, n)", function() return la.randn(n, n, DO) end, "rng.standard_normal(" .. nn .. ND .. ")",
      "NumPy: default_rng (PCG64, ziggurat)")
    if n == NS[1] and not F32 then
      op("la.matrix_power(A, 8)", function() return la.matrix_power(A, 8) end, "np.linalg.matrix_power(A, 8)")
      op("la.cholesky(S)", function() return la.cholesky(S) end, "np.linalg.cholesky(S)")
    end
  end
  for _, s in ipairs(VS) do
    local t, N = s[1], s[2]
    local x, y = I["x" .. t], I["y" .. t]
    local function op(name, f, expr, note)
      add(ops, {name = name, tag = t, shape = t, f = f, expr = expr, note = note})
    end
    op("la.median(x)", function() return la.median(x) end, "np.median(x)")
    op("la.quantile(x, q3)", function() return la.quantile(x, {0.25, 0.5, 0.75}) end,
      "np.quantile(x, [0.25, 0.5, 0.75])")
    op("x:sort()", function() return x:sort() end, "np.sort(x)", "la also returns the indices")
    op("x:sort(values)", function() return x:sort({indices = false}) end, "np.sort(x)",
       "{indices = false}: the values alone")
    op("x:argsort()", function() return x:argsort() end, "np.argsort(x, kind='stable')", IDX)
    op("x:cumsum()", function() return x:cumsum() end, "np.cumsum(x)")
    op("x:cumprod()", function() return x:cumprod() end, "np.cumprod(x)")
    op("la.diff(x)", function() return la.diff(x) end, "np.diff(x)")
    op("x:sum()", function() return x:sum() end, "np.sum(x)")
    op("x:max()", function() return x:max() end, "np.max(x)")
    op("x:argmax()", function() return x:argmax() end, "np.argmax(x)", IDX)
    op("la.norm(x)", function() return la.norm(x) end, "np.linalg.norm(x)")
    op("la.norm(x, 1)", function() return la.norm(x, 1) end, "np.linalg.norm(x, 1)")
    op("la.dot(x, y)", function() return la.dot(x, y) end, "np.dot(x, y)")
    op("la.cosine(x, y)", function() return la.cosine(x, y) end,
      "np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))")
    op("la.norm(x, inf)", function() return la.norm(x, math.huge) end, "np.linalg.norm(x, np.inf)")
    op("la.norm(x, 0)", function() return la.norm(x, 0) end, "np.linalg.norm(x, 0)")
    op("la.norm(x, 3)", function() return la.norm(x, 3) end, "np.linalg.norm(x, 3)")
    op("x:tobytes()", function() return x:tobytes() end, "x.tobytes()", BYTES)
    if N <= 1e5 then
      -- (a long string kept alive for the whole run slowed every small
      -- call after it: a larger Lua heap spaces the generational
      -- collector's young collections, so results reuse colder memory)
      local xb = x:tobytes()
      op("la.frombuffer(xb, N, 1)", function() return la.frombuffer(xb, N, 1, {dtype = F32 and "<f4" or "<f8"}) end,
        "np.frombuffer(xb, dtype=x.dtype).copy()", "NumPy: a view, timed with .copy()")
    end
    op("la.exp(x)", function() return la.exp(x) end, "np.exp(x)")
    op("x + y", function() return x + y end, "x + y")
    local DO, ND = F32 and {dtype = "float32"} or nil, F32 and ", dtype=np.float32" or ""
    op("la.linspace(0, 1, N)", function() return la.linspace(0, 1, N, DO) end,
      "np.linspace(0, 1, " .. N .. ND .. ")")
    op("la.arange(N)", function() return la.arange(N, DO) end, "np.arange(0.0, " .. N .. ND .. ")",
      "NumPy: float start")
    op("la.logspace(0, 2, N)", function() return la.logspace(0, 2, N, DO) end,
      "np.logspace(0, 2, " .. N .. ND .. ")")
    op("la.randn(N, 1)", function() return la.randn(N, 1, DO) end, "rng.standard_normal(" .. N .. ND .. ")",
      "NumPy: default_rng (PCG64, ziggurat)")
  end
  for _, f in ipairs(files) do f() end
  return ops
end

local now = clock.now

-- numpy_breadth.py's checksum of linalg's result r: sum(a_k w_k), sum(|a_k| w_k)
-- and the count, column-major, w_k = k mod 7 + 1; idx: 1-based indices made 0-based
local function checksum(r, idx)
  if type(r) == "boolean" then r = r and 1 or 0 end
  if type(r) == "table" then r = la.vector(r) end    -- a Lua list
  if type(r) ~= "number" and r.dtype == "bool" then r = r:astype("float64") end
  local off = idx and 1 or 0
  if type(r) == "number" then return r - off, math.abs(r - off), 1 end
  local s, a, n = 0, 0, r:numel()
  for k = 1, n do
    local x, w = r(k) - off, (k - 1) % 7 + 1
    s, a = s + x * w, a + math.abs(x) * w
  end
  return s, a, n
end

-- the same result on both sides? (nil: not comparable; else ok, message)
local function check(srv, op)
  if op.nocheck then return nil end
  local ans = srv.ask("check " .. op.key)
  local s2, a2, n2 = ans:match("^(%S+) (%S+) (%d+)$")
  if not s2 then return false, "NumPy: " .. ans end
  local s1, a1, n1 = checksum(op.f(), op.idx)
  s2, a2, n2 = tonumber(s2), tonumber(a2), tonumber(n2)
  if n1 ~= n2 then return false, string.format("%d entries, NumPy %d", n1, n2) end
  if math.abs(s1 - s2) > (F32 and 1e-5 or 1e-9) * math.max(a1, a2) then
    return false, string.format("checksum %.17g, NumPy %.17g", s1, s2)
  end
  return true
end

-- one timing of op.inner calls (after a full collection and one call
-- untimed, as NumPy's side), per call
local function time_la(op)
  local f, k = op.f, op.inner
  collectgarbage()
  f()
  local t0 = now()
  for _ = 1, k do f() end
  return (now() - t0) / k
end

-- the NumPy server: commands through a pipe, answers through a FIFO
local function server()
  local fifo = DIR .. "/answers.fifo"
  os.remove(fifo)
  assert(os.execute("mkfifo " .. fifo), "mkfifo failed")
  local w = assert(io.popen("OPENBLAS_NUM_THREADS=1 " .. PY .. " bench/numpy_breadth.py > " .. fifo, "w"))
  local r = assert(io.open(fifo, "r"))
  local srv = {}
  function srv.ask(line)
    w:write(line, "\n")
    w:flush()
    return r:read("*l") or "err NumPy's process ended"
  end
  function srv.close()
    w:write("quit\n")
    w:flush()
    w:close()
    r:close()
    os.remove(fifo)
  end
  return srv
end

local function median(t)
  local s = {}
  for i = 1, #t do s[i] = t[i] end
  table.sort(s)
  if #s == 0 then return nil end
  if #s % 2 == 1 then return s[(#s + 1) / 2] end
  return (s[#s / 2] + s[#s / 2 + 1]) / 2
end

-- name matches one of the '|'-separated patterns of filter
local function matches(name, filter)
  for pat in (filter .. "|"):gmatch("([^|]*)|") do
    if pat ~= "" and name:find(pat) then return true end
  end
  return false
end

local function us(t) return t and string.format("%.2f", t * 1e6) or "-" end

function M.run(opts)
  opts = opts or {}
  local rounds = tonumber(os.getenv("BREADTH_ROUNDS")) or opts.rounds or 7
  local filter = os.getenv("BREADTH_FILTER")
  local old_threads = la.threads()
  la.threads(1)
  os.execute("mkdir -p " .. DIR)
  local I = inputs()
  for name, A in pairs(I) do la.save_npy(A, DIR .. "/" .. name .. ".npy") end
  local all = operations(I)
  local srv = server()
  assert(srv.ask("load " .. DIR) == "ok", "NumPy could not load the inputs")
  -- each op defined on both sides, run once (warm-up, and a failing one is dropped)
  local ops, checked = {}, 0
  for i, op in ipairs(all) do
    if not filter or matches(op.name, filter) then
      op.key = "op" .. i
      local ans = srv.ask(string.format("def %s\t%s\t%s", op.key, op.tag, op.expr))
      local ok, err = pcall(op.f)
      if ans ~= "ok" then
        io.stderr:write(string.format("breadth: %s %s dropped, NumPy: %s\n", op.name, op.shape, ans))
      elseif not ok then
        io.stderr:write(string.format("breadth: %s %s dropped, linalg: %s\n", op.name, op.shape, tostring(err)))
      else
        -- calls a timing: from the best of at least 3 warm calls over a
        -- quarter of a timing, after a full collection (one cold call, whose
        -- fresh pages cost more than the loop, gave inner = 1 at 1000 x 1000;
        -- three calls on fresh memory, where a page costs the virtual machine
        -- 13 us on first touch, gave inner = 8 for the 100 x 100 A - B, whose
        -- timing then ran 9 calls at 9 us against 2.6)
        local best, n, t1 = math.huge, 0, nil
        collectgarbage()
        op.f()
        t1 = now()
        repeat
          local t0 = now()
          op.f()
          best, n = math.min(best, now() - t0), n + 1
        until n >= 3 and now() - t1 >= MINTIME / 4
        op.inner = math.max(1, math.ceil(MINTIME / math.max(best, 1e-9)))
        -- NumPy's side sets its count now too (its first timing, dropped):
        -- every timing of both sides then follows exactly one warm call
        srv.ask(string.format("time %s %g", op.key, MINTIME))
        local same, why = check(srv, op)
        if same == false then
          io.stderr:write(string.format("breadth: %s %s: results differ (%s)\n", op.name, op.shape, why))
          op.note = "RESULTS DIFFER: " .. why .. (op.note and "; " .. op.note or "")
        end
        checked = checked + (same and 1 or 0)
        ops[#ops + 1] = op
      end
    end
  end
  print(string.format("\nbreadth: linalg's own loops next to NumPy %s, 1 thread, %s, best of %d " ..
    "interleaved rounds (>= %g ms a timing), microseconds per call; la/NumPy < 1: linalg faster",
    srv.ask("version"), DTYPE, rounds, MINTIME * 1e3))
  -- the file calls in rounds of their own, after the others: for a few
  -- milliseconds after save_csv has freed its 20 MB of strings, small
  -- calls run slower (100 x 100 A + B: 9.9 us a call against 2.6; so do
  -- they after any 20 strings of 1 MB in plain Lua, with the heap trimmed
  -- and grown again), which fell on whichever call came next
  local groups = {{}, {}}
  for _, op in ipairs(ops) do table.insert(groups[op.file and 2 or 1], op) end
  for _, group in ipairs(groups) do
  for round = 1, rounds do
    io.stderr:write(string.format("breadth: round %d of %d%s\n", round, rounds, group == groups[2] and " (files)" or ""))
    for _, op in ipairs(group) do
      local tl, tn
      local function np_side()
        local ans = srv.ask(string.format("time %s %g", op.key, MINTIME))
        tn = tonumber(ans:match("^(%S+) %d+$"))
        if not tn then io.stderr:write("breadth: " .. op.name .. ": " .. ans .. "\n") end
      end
      if round % 2 == 1 then tl = time_la(op); np_side() else np_side(); tl = time_la(op) end
      op.la = math.min(op.la or math.huge, tl)
      if tn then op.np = math.min(op.np or math.huge, tn) end
    end
  end
  end
  srv.close()
  if WDIR ~= DIR then os.execute("rm -rf " .. WDIR) end
  la.threads(old_threads)
  -- the table, the summary, the TSV
  local ratios, slower = {}, 0
  local tsv = assert(io.open("build/bench/breadth.tsv", "w"))
  tsv:write("operation\tshape\tnumpy\tla_seconds\tnumpy_seconds\tratio\tnote\n")
  print(string.format("%-30s %-9s %11s %11s %7s  %-32s %s", "linalg", "shape", "linalg us", "NumPy us", "la/np",
    "NumPy", "note"))
  for _, op in ipairs(ops) do
    local q = op.np and op.la / op.np
    if q then
      ratios[#ratios + 1] = q
      if q > 1 then slower = slower + 1 end
    end
    print(string.format("%-30s %-9s %11s %11s %7s  %-32s %s", op.name, op.shape, us(op.la), us(op.np),
      q and string.format("%.2f", q) or "-", op.expr, op.note or ""))
    tsv:write(table.concat({op.name, op.shape, op.expr, string.format("%.6g", op.la),
      op.np and string.format("%.6g", op.np) or "", q and string.format("%.4f", q) or "", op.note or ""}, "\t"), "\n")
  end
  tsv:close()
  local med = median(ratios)
  print(string.format("breadth: %d operations; median la/NumPy %s; %d with la/NumPy > 1 (linalg slower); " ..
    "table in build/bench/breadth.tsv", #ratios, med and string.format("%.2f", med) or "-", slower))
  print(string.format("breadth: %d of %d results checked equal to NumPy's (to 1e-9; the rest: random draws, " ..
    "argmin/argmax's row and column)", checked, #ops))
end

-- run directly: lua5.4 bench/breadth.lua [rounds] (paths as bench/run.sh sets them)
if not pcall(debug.getlocal, 4, 1) then
  M.run{rounds = tonumber(arg and arg[1])}
end

return M
