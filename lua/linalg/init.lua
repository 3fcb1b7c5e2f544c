--- Dense linear algebra for Lua 5.4 on OpenBLAS and LAPACKE.
-- The C core (`linalg.core`) holds the matrix type and the numerical
-- functions; this module adds the functions written in Lua on top of it and
-- makes every function a method too, so `A:lstsq(b)` is `la.lstsq(A, b)`.
-- The reference for each C function is in `doc/` (`make doc`) and the README.
--
-- This file holds: projections (`project`, `projection_matrix`,
-- `scalar_projection`), `span_check`, `linear_regression` and its model,
-- `multihead_attention`, and the entries of the modules loaded on first use
-- (`linalg.io`: .npy and CSV; `linalg.svg`: pictures). Option reading,
-- errors and files go through `linalg.util`.
--
-- One module table: `require "linalg"` returns the table `require
-- "linalg.core"` returns, with the functions below added to it. The matrix
-- metatable's __index reads that table, so they are methods as well.
-- @module linalg
local compat = require "linalg.compat"

-- The C core must be built for the Lua running: another Lua's core.so
-- fails to load (an undefined symbol) or, where it loads, says what it was
-- built for; either way the error says which Lua to build it for.
local function rebuild(why)
  local name = compat.lua:match("^LuaJIT") and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
  error(string.format("linalg: linalg.core %s, and this is %s: build the module for it " ..
    "(make LUA=%s, or luarocks --lua-version=%s make)", why, compat.lua, name,
    name == "luajit" and "5.1" or name:sub(4)), 0)
end
local ok, la = pcall(require, "linalg.core")
if not ok then
  local sym = tostring(la):match("undefined symbol: ([%w_]+)")
  if sym then rebuild("was built for another Lua (it needs " .. sym .. ")") end
  error(la, 0)
end
if la.lua_built ~= _VERSION then rebuild("was built for " .. tostring(la.lua_built)) end
la.lua_built = nil              -- la.config().lua names the running Lua
local core = la                 -- the same table (core.attention below: a C function)
do  -- LuaJIT: A:f(...) looked up by a Lua function (compat.methodindex); once per core
  local mt = debug and debug.getmetatable and debug.getmetatable(la.zeros(0, 0))
  local c = mt and mt.__index
  local index = c and debug.getinfo(c, "S").what == "C" and compat.methodindex(la, c)
  if index then mt.__index = index end
end

-- util keeps the option reader (core.checkopts, shared with C) in a local
-- when it loads, so it is required before the entry leaves the public table.
local util = require "linalg.util"
la.checkopts = nil              -- internal: no user function, no method
local named = la.named          -- internal: a core function under another public name
la.named = nil
local f32wrap = la.f32wrap      -- internal: float32 in and out of float64 code
la.f32wrap = nil
local argtype = la.argtype      -- internal: the core's result type of its matrix arguments
la.argtype = nil
la.nargs = nil                  -- internal: util.arity bounds argument counts through it
la.files = nil                  -- internal: util keeps the file access of src/files.c
la.csv = nil                    -- internal: util keeps load_csv's parser (src/csv.c)
la.setmaploop(compat.maploop)   -- internal: LuaJIT's loop for map (nil: the C loop)
la.setmaploop = nil

local EPS = 2.220446049250313e-16
local EPS32 = 1.1920928955078125e-07
local asmatrix, check_finite, svd, lstsq, nnls = la.asmatrix, la.check_finite, la.svd, la.lstsq, la.nnls
local attention = la.attention      -- the C function, for under()

-- Errors raised here carry no position, like those of the C core, so every
-- message starts with "linalg.<function>:".
local fail, typename = util.fail, util.typename

-- f, a function of the core, under the name fname: its errors (and those of
-- the C helpers it calls) name fname, the function the user called. The C
-- core binds each function's public name as an upvalue; core.named makes a
-- closure of the same C function with another name. Cached per (f, fname).
local renamed = {}
local function under(fname, f)
  local byname = renamed[f]
  if not byname then byname = {}; renamed[f] = byname end
  local g = byname[fname]
  if not g then g = named(f, fname); byname[fname] = g end
  return g
end

-- A vector argument as an n x 1 matrix (a 1 x n row is turned into a column).
local function asvector(x, fname, arg)
  x = asmatrix(x, fname, arg)
  local m, n = x:shape()
  if m == 1 and n ~= 1 then return x.T end
  if n ~= 1 then fail(fname, "bad argument #%d (vector expected, got a %dx%d matrix)", arg, m, n) end
  return x
end

-- X whose columns span a space; a 1 x m row is one vector (a column).
local function asbasis(X, fname, arg)
  X = asmatrix(X, fname, arg)
  if X:rows() == 1 and X:cols() ~= 1 then X = X.T end
  return X
end

-- y as a column (or m x k block) against X's m rows; a 1 x m row is read as
-- a vector.
local function against(y, X, fname, yarg)
  y = asmatrix(y, fname, yarg)
  local m = X:rows()
  local p, q = y:shape()
  if p == 1 and q == m and m ~= 1 then y = y.T; p = m end
  if p ~= m then fail(fname, "y has %d rows but X has %d", p, m) end
  return y
end

local options = util.options

-- Two matrix arguments (or tables) in their common element type, the C
-- core's rule (argtype): float64 when either is a float64 matrix or neither
-- is a matrix; a table takes the other argument's type.
local function common(a, b, fname, ia, ib)
  local t = argtype(a, b)
  a, b = asmatrix(a, fname, ia), asmatrix(b, fname, ib)
  if a.dtype ~= t then a = a:astype(t) end
  if b.dtype ~= t then b = b:astype(t) end
  return a, b
end

-- Orthonormal basis of the column space of X: the left singular vectors
-- whose singular values exceed NumPy's matrix_rank tolerance (the eps of
-- X's type, as la.rank: float32 singular values carry float32's noise).
local function range_basis(X, fname)
  local m, n = X:shape()
  if m == 0 or n == 0 then return la.zeros(m, 0, {dtype = X.dtype}), 0 end
  check_finite(X, fname, "X", true)       -- the SVD needs it whatever opts say
  local U, s = under(fname, svd)(X)
  local tol = s(1) * math.max(m, n) * (X.dtype == "float32" and EPS32 or EPS)
  local r = 0
  for i = 1, s:rows() do if s(i) > tol then r = i end end
  return U:sub(1, m, 1, r), r
end

--- Orthogonal projection of `y` onto the column space of `X`.
-- `y` is a vector or an m x k block (each column projected); `X` may be a
-- single vector (projection onto a line) and may be rank deficient.
-- @param y vector or m x k matrix
-- @param X m x n matrix (or vector)
-- @tparam[opt] table opts `check_finite` (default true)
-- @return p the projection, r = y - p (orthogonal to every column of X)
function la.project(y, X, opts)
  opts = options(opts, "project", 3, {check_finite = "boolean"})
  y, X = common(y, X, "project", 1, 2)
  X = asbasis(X, "project", 2)
  y = against(y, X, "project", 1)
  if opts.check_finite ~= false then check_finite(y, "project", "y") end
  local U = range_basis(X, "project")
  local p = U * (U.T * y)
  return p, y - p
end

--- The orthogonal projector onto the column space of `X` (or its complement).
-- `P` is symmetric and idempotent with `trace(P) = rank(X)`.
-- @param X m x n matrix (or vector)
-- @tparam[opt] table opts `complement = true` returns `I - P`; `check_finite`
-- @return P (m x m)
function la.projection_matrix(X, opts)
  opts = options(opts, "projection_matrix", 2, {complement = "boolean", check_finite = "boolean"})
  X = asbasis(X, "projection_matrix", 1)
  local U = range_basis(X, "projection_matrix")
  local P = U * U.T
  if opts.complement then return la.eye(X:rows(), {dtype = X.dtype}) - P end
  return P
end

--- Scalar projection of `u` onto `v`, `dot(u, v) / ||v||`.
-- @param u vector
-- @param v vector of the same length
-- @return number; a zero `v` is an error
function la.scalar_projection(u, v)
  u, v = asvector(u, "scalar_projection", 1), asvector(v, "scalar_projection", 2)
  if u:rows() ~= v:rows() then
    fail("scalar_projection", "vector lengths %d and %d differ", u:rows(), v:rows())
  end
  local nv = la.norm(v)
  if nv == 0 then fail("scalar_projection", "v is the zero vector") end
  return la.dot(u, v) / nv
end

-- Convex weights for one column y: nonnegative least squares on X
-- augmented with a row of ones (sum-to-one), then normalised so the weights
-- are exactly a convex combination. X and y are divided by mu, the scale of
-- X's columns, so the row of ones is as heavy as they are: a point inside
-- the hull solves both parts exactly whatever the weight is, a heavier row
-- only adds rounding noise to NNLS's gradients (1e4 times the scale rejected
-- true convex combinations), and at a tiny scale (1e-200) the gradients,
-- products of two entries, would underflow to 0. Column sums that overflow
-- are avoided by dividing by the largest magnitude first (the weights do not
-- change when X and y are scaled together). All zero (or no rows): the ones
-- row alone. NNLS runs under span_check's name: its errors (no convergence,
-- memory) are span_check's.
local function convex_weights(X, y)
  local n = X:cols()
  if n == 0 then return la.zeros(0, 1) end
  local mu = math.max(la.norm(X, 1), la.norm(y, math.huge))   -- no squares: no overflow
  if mu == math.huge then
    local s = math.max(la.max(la.abs(X)), la.max(la.abs(y)))
    X, y = X / s, y / s
    mu = math.max(la.norm(X, 1), la.norm(y, math.huge))
  end
  if mu == 0 then mu = 1 end
  local E = la.vstack{X / mu, la.ones(1, n)}
  local f = la.vstack{y / mu, {{1}}}
  local w = under("span_check", nnls)(E, f, {check_finite = false})
  local s = w:sum()
  if s > 0 then w = w / s end
  return w
end

--- Is `y` in the span (or, with `convex`, the convex hull) of X's columns?
-- Each column of `y` is checked; `inside` is true when all are.
-- @param X m x n matrix
-- @param y vector or m x k matrix
-- @tparam[opt] table opts `tol` (default 1e-10, relative to ||y||; 1e-4
--   when the check computes in float32, as gram_schmidt's),
--   `convex = true` (coefficients >= 0 summing to 1), `check_finite`
-- @return inside, info = {coeffs, residual, residual_norm, rank, projection,
--   inside_each (per column), residual_norms (per column)}
function la.span_check(X, y, opts)
  opts = options(opts, "span_check", 3, {tol = "number", convex = "boolean", check_finite = "boolean"})
  X, y = common(X, y, "span_check", 1, 2)
  y = against(y, X, "span_check", 2)
  local tol = opts.tol
  if tol and not (tol >= 0) then fail("span_check", "tol must be a number >= 0") end
  local m, n = X:shape()
  local k = y:cols()
  local w, rank, _
  -- X goes into an SVD or NNLS whatever the method (checked regardless), y
  -- only into a right-hand side, except for convex, where NNLS compares it
  check_finite(X, "span_check", "X", true)
  if opts.convex or opts.check_finite ~= false then
    check_finite(y, "span_check", "y", opts.convex)
  end
  if opts.convex then
    local cols = {}
    for j = 1, k do cols[j] = convex_weights(X, y:col(j)) end
    w = k == 1 and cols[1] or la.hstack(cols)
    if X.dtype == "float32" then w = w:astype("float32") end   -- NNLS computed in float64
    rank = under("span_check", la.rank)(X, {check_finite = false})
  else
    w, _, rank = under("span_check", lstsq)(X, y, {check_finite = false})
  end
  tol = tol or (X.dtype == "float32" and 1e-4 or 1e-10)     -- the arguments' type
  local proj = m > 0 and X * w or la.zeros(0, k)
  local res = y - proj
  local inside, worst, each, norms = true, 0, {}, {}
  for j = 1, k do
    -- the norms of the column divided by its largest magnitude: BLAS's
    -- nrm2 squares its entries on some cores (1e308 gave inf <= tol * inf,
    -- "inside"); s = 1 for a zero, empty or non-finite column
    local r, yc = res:col(j), y:col(j)
    local s = m > 0 and math.max(la.max(la.abs(r)), la.max(la.abs(yc))) or 0
    if s > 0 and s < math.huge then r, yc = r / s, yc / s else s = 1 end
    local rn, yn = la.norm(r), la.norm(yc)
    norms[j] = rn * s
    each[j] = rn <= tol * math.max(yn, 1e-300 / s)
    inside = inside and each[j]
    if norms[j] > worst or norms[j] ~= norms[j] then worst = norms[j] end
  end
  return inside, {coeffs = w, residual = res, residual_norm = worst, rank = rank,
                  projection = proj, inside_each = each, residual_norms = norms}
end

-- The exponent of the largest |entry| of M when that is 2^500 or more (and
-- finite) or nonzero below 2^-500, else 0: linear_regression's scaling.
local function bigexp(M)
  local mx = M:numel() > 0 and la.max(la.abs(M)) or 0
  if (mx >= 2 ^ 500 and mx < math.huge) or (mx > 0 and mx < 2 ^ -500) then
    return math.floor(math.log(mx) / math.log(2))
  end
  return 0
end

-- x (a number or matrix) times 2^e in two exact steps (2^e alone may be out
-- of range)
local function pow2(x, e)
  local h = math.floor(e / 2)
  return x * 2 ^ h * 2 ^ (e - h)
end

-- every entry of M finite
local function check_finite_ok(M)
  return (pcall(check_finite, M, "linear_regression", "coef"))
end

-- Every model shares this metatable: getmetatable(model) gives a name, not
-- the table, so one script cannot change every model's methods.
local Model = {__metatable = "linalg.linear_regression model"}
Model.__index = Model

--- Predictions of a fitted model: `X * coef + intercept`.
-- @param X n x d matrix
-- @return vector of n
function Model:predict(X)
  X = asmatrix(X, "predict", 1)
  if X:cols() ~= self.coef:rows() then
    fail("predict", "X has %d columns but the model has %d coefficients", X:cols(), self.coef:rows())
  end
  return X * self.coef + self.intercept
end

--- R^2 of the model on (X, y): 1 - SS_res / SS_tot.
-- @param X n x d matrix
-- @param y vector of n
-- @return number
function Model:score(X, y)
  y = asvector(y, "score", 2)
  local r = y - self:predict(X)
  local c = y - y:mean()
  local ss_tot = la.dot(c, c)
  if ss_tot == 0 then fail("score", "y is constant (R^2 undefined)") end
  return 1 - la.dot(r, r) / ss_tot
end

--- Ordinary (or ridge) least-squares linear regression, fitted by QR
-- (`method = "qr"`, the default; rank-deficient X is then an error) or, with
-- `method = "svd"` or `"qrp"`, the minimum-norm fit NumPy's lstsq gives.
-- With an intercept, X and y are centred first so the intercept is never
-- penalised by `ridge` (as scikit-learn does). X and y with entries beyond
-- 2^+-500 are fitted scaled by powers of 2 (exact); coefficients beyond the
-- doubles' range are an error.
-- @param X n x d matrix
-- @param y vector of n
-- @tparam[opt] table opts `intercept` (default true), `ridge` (default 0),
--   `method` ("qr" default, "svd", "qrp")
-- @return model with fields coef (vector), intercept, r2 and methods
--   predict(X), score(X, y)
function la.linear_regression(X, y, opts)
  opts = options(opts, "linear_regression", 3,
    {intercept = "boolean", ridge = "number", method = {"qr", "svd", "qrp"}})
  X, y = common(X, y, "linear_regression", 1, 2)
  y = asvector(y, "linear_regression", 2)
  local n, d = X:shape()
  if y:rows() ~= n then fail("linear_regression", "X has %d rows but y has %d", n, y:rows()) end
  local intercept = opts.intercept ~= false
  if intercept and n == 0 then fail("linear_regression", "no samples") end
  -- Data near the largest double (the means' sums, the centred X or the
  -- squares in R^2 would overflow) is fitted as X 2^-ex, y 2^-ey with ridge
  -- 2^-2ex (powers of 2: exact), and the coefficients scaled back; below
  -- 2^500 nothing is scaled.
  local ex, ey = bigexp(X), bigexp(y)
  local ridge = opts.ridge or 0
  if ridge > 0 and not (pow2(ridge, -2 * ex) < math.huge) then ex = 0 end   -- tiny X, a ridge
  local Xs, ys = pow2(X, -ex), pow2(y, -ey)
  local A, b, xm, ym = Xs, ys, nil, 0
  if intercept then
    xm, ym = Xs:mean(1), ys:mean()
    A, b = Xs - xm, ys - ym
  end
  -- lstsq under this function's name; its arguments, which it calls A and
  -- b, are the user's X and y (centred): those words are renamed here
  local ok, coef = pcall(under("linear_regression", lstsq), A, b,
                         {method = opts.method or "qr", ridge = ridge > 0 and pow2(ridge, -2 * ex) or ridge})
  if not ok then
    local msg = tostring(coef):gsub("^(linalg%.linear_regression: )A([ '(])", "%1X%2")
    error((msg:gsub("^(linalg%.linear_regression: )b([ '(])", "%1y%2")), 0)
  end
  local c0 = intercept and ym - (xm * coef)(1, 1) or 0
  local scaled = setmetatable({coef = coef, intercept = c0}, Model)
  local yc = ys - ys:mean()
  local r2 = la.dot(yc, yc) > 0 and scaled:score(Xs, ys) or nil
  if ex == 0 and ey == 0 then scaled.r2 = r2; return scaled end
  local model = setmetatable({coef = pow2(coef, ey - ex), intercept = pow2(c0, ey), r2 = r2}, Model)
  if not check_finite_ok(model.coef) or not (math.abs(model.intercept) < math.huge) then
    fail("linear_regression", "the coefficients overflow (X and y differ in scale by 2^%d)", ey - ex)
  end
  return model
end

-- A projection bias: a vector of n entries (a 1 x n row, an n x 1 column or a
-- flat table), returned as a 1 x n row that `+` broadcasts over the rows; a
-- table is made a matrix of type dtype (tables do not change the type).
local function projbias(b, n, fname, name, dtype)
  local tab = not la.is_matrix(b)
  b = asmatrix(b, fname, 7)
  if tab and b.dtype ~= dtype then b = b:astype(dtype) end
  local p, q = b:shape()
  if q == 1 and p == n and n ~= 1 then b = b.T; p, q = 1, n end
  if p ~= 1 or q ~= n then fail(fname, "%s is %dx%d, expected a vector of %d entries", name, p, q, n) end
  return b
end

--- Multi-head attention: heads take consecutive column blocks of the
-- projections Q = X Wq + bq, K = KV Wk + bk, V = KV Wv + bv (KV = opts.kv or
-- X), attend independently, and the concatenated outputs are multiplied by
-- Wo (plus bo). This is PyTorch's `nn.MultiheadAttention` on one sequence
-- with Wq = in_proj_weight[0:d].T (and so on), without dropout.
-- @param X nq x d_in
-- @param Wq d_in x d (d divisible by heads)
-- @param Wk d_in x d
-- @param Wv d_in x dv (dv divisible by heads)
-- @param Wo dv x d_out
-- @int heads at most max(d, dv, 1): a head takes at least one column
-- @tparam[opt] table opts `kv` (a second sequence: cross-attention), `scale`
--   (default 1/sqrt(d / heads)), `causal`, `mask`, `bias` (as `attention`),
--   `bq`, `bk`, `bv` (vectors of d, d, dv entries) and `bo` (d_out entries):
--   projection biases; `weights` (per-head weights), `average_attn_weights`
--   (the heads' mean weights instead, as PyTorch's default)
-- @return out (nq x d_out) [, weights: a table of per-head nq x nk matrices,
--   or their mean with `average_attn_weights`]
function la.multihead_attention(X, Wq, Wk, Wv, Wo, heads, opts)
  local F = "multihead_attention"
  opts = options(opts, F, 7, {kv = "matrix", scale = "number", causal = "any",
    mask = "matrix", bias = "matrix", weights = "boolean", average_attn_weights = "boolean",
    bq = "matrix", bk = "matrix", bv = "matrix", bo = "matrix"})
  X, Wq, Wk = asmatrix(X, F, 1), asmatrix(Wq, F, 2), asmatrix(Wk, F, 3)
  Wv, Wo = asmatrix(Wv, F, 4), asmatrix(Wo, F, 5)
  if not compat.isint(heads) or heads < 1 then
    fail(F, "bad argument #6 (heads must be a positive integer, got %s)",
      type(heads) == "number" and tostring(heads) or typename(heads))
  end
  local KV = opts.kv ~= nil and asmatrix(opts.kv, F, 7) or X
  local d, dvt = Wq:cols(), Wv:cols()
  if X:cols() ~= Wq:rows() then fail(F, "X has %d columns but Wq has %d rows", X:cols(), Wq:rows()) end
  if KV:cols() ~= Wk:rows() or KV:cols() ~= Wv:rows() then
    fail(F, "keys/values have %d columns but Wk has %d rows and Wv %d", KV:cols(), Wk:rows(), Wv:rows())
  end
  if Wk:cols() ~= d then fail(F, "Wq has %d columns but Wk has %d", d, Wk:cols()) end
  if Wo:rows() ~= dvt then fail(F, "Wv has %d columns but Wo has %d rows", dvt, Wo:rows()) end
  -- a head takes at least one column of one projection: this bounds heads
  -- (zero-width projections allow one), so the loop below is bounded too
  if heads > math.max(d, dvt, 1) then
    -- heads can be a float with an integer value past what %d formats (2^63)
    local h = math.type and math.type(heads) == "integer" and string.format("%d", heads)
      or string.format("%.17g", heads)
    fail(F, "%s heads for %d query/key and %d value columns (at most one head per column)", h, d, dvt)
  end
  if d % heads ~= 0 then fail(F, "%d query/key columns do not split into %d heads", d, heads) end
  if dvt % heads ~= 0 then fail(F, "%d value columns do not split into %d heads", dvt, heads) end
  local b, t = {}, argtype(X, KV, Wq, Wk, Wv, Wo)
  for name, n in pairs{bq = d, bk = d, bv = dvt, bo = Wo:cols()} do
    if opts[name] ~= nil then b[name] = projbias(opts[name], n, F, name, t) end
  end
  local Q, K, V = X * Wq, KV * Wk, KV * Wv
  if b.bq then Q = Q + b.bq end
  if b.bk then K = K + b.bk end
  if b.bv then V = V + b.bv end
  local nq, nk = Q:rows(), K:rows()
  local avg = opts.average_attn_weights
  -- one call for every head: they read their column blocks of Q, K and V
  -- and run in parallel on la.threads() threads
  local O, A = under(F, attention)(Q, K, V, {scale = opts.scale, causal = opts.causal,
    mask = opts.mask, bias = opts.bias, weights = opts.weights or avg, heads = heads})
  local function weights(h) return A:sub(1, nq, (h - 1) * nk + 1, h * nk) end
  if nq == 0 and not (opts.weights and not avg) then
    -- no query: every head's result is empty, and up to 2^31-1 heads are
    -- not visited one by one for nothing (per-head weights still are: a
    -- table of that many is what was asked)
    local out = la.zeros(0, Wo:cols(), {dtype = t})
    if avg then return out, la.zeros(0, nk, {dtype = t}) end
    return out
  end
  local out = O * Wo
  if b.bo then out = out + b.bo end
  if avg then
    local mean = weights(1):copy()
    for h = 2, heads do mean = mean + weights(h) end
    return out, mean / heads
  end
  if opts.weights then
    local ws = {}
    for h = 1, heads do ws[h] = weights(h):copy() end
    return out, ws
  end
  return out
end

local TRANS_B = {trans_b = true}
local matmul_inner = under("inner", la.matmul)

--- NumPy's `inner`: the sums of products over the last axis. Two vectors
-- (n x 1 or 1 x n, either orientation) give their dot product, a number;
-- an m x k matrix and a vector of k give `A * v` (an m x 1 column), in
-- either order; two matrices with k columns give `A * B.T` (np.inner(a, b)
-- is a @ b.T for 2-D a, b: inner products of rows). A number gives its
-- product with the other argument.
-- @param a matrix, vector or number
-- @param b matrix, vector or number
-- @return number or matrix
function la.inner(a, b)
  local F = "inner"
  if type(a) == "number" or type(b) == "number" then
    if type(a) == "number" and type(b) == "number" then return a * b end
    if type(a) == "number" then return a * asmatrix(b, F, 2) end
    return asmatrix(a, F, 1) * b
  end
  a, b = common(a, b, F, 1, 2)
  local am, an = a:shape()
  local bm, bn = b:shape()
  local av, bv = am == 1 or an == 1, bm == 1 or bn == 1
  local ka, kb = av and am * an or an, bv and bm * bn or bn      -- summed over
  if ka ~= kb then
    fail(F, "%dx%d and %dx%d: the last dimensions differ (%d ~= %d)", am, an, bm, bn, ka, kb)
  end
  if av and bv then return la.dot(a, b) end
  if bv then return a * asvector(b, F, 2) end
  if av then return b * asvector(a, F, 1) end
  return matmul_inner(a, b, TRANS_B)       -- B read in place (gemm's transpose), no copy
end

-- At most these arguments, as every function of the core (an extra argument
-- is an error, not ignored; see util.arity).
util.arity(la, {project = {2, opts = true}, projection_matrix = {1, opts = true},
  scalar_projection = 2, inner = 2, span_check = {2, opts = true},
  linear_regression = {2, opts = true}, multihead_attention = {6, opts = true}})
util.arity(Model, {predict = 2, score = 3})        -- self counts

-- Functions of the modules loaded on first use (file formats, pictures).
local function lazy(mod, name)
  return function(...) return require(mod)[name](...) end
end

--- Reads a NumPy .npy file; see `linalg.io.load_npy`.
-- @string path
-- @tparam[opt] table opts `rows = {first, last}`: only those rows
-- @return matrix
-- @function la.load_npy
la.load_npy = lazy("linalg.io", "load_npy")
--- Reads a .npy file's shape, dtype and order; see `linalg.io.npy_info`.
la.npy_info = lazy("linalg.io", "npy_info")
--- Writes a NumPy .npy file; see `linalg.io.save_npy`.
-- @param A matrix
-- @string path
-- @function la.save_npy
la.save_npy = lazy("linalg.io", "save_npy")
--- Reads a CSV file of numbers; see `linalg.io.load_csv`.
-- @string path
-- @tparam[opt] table opts `sep`, `header`
-- @return matrix [, column names]
-- @function la.load_csv
la.load_csv = lazy("linalg.io", "load_csv")
--- Writes a CSV file (17 significant digits); see `linalg.io.save_csv`.
-- @param A matrix
-- @string path
-- @tparam[opt] table opts `sep`, `header`
-- @function la.save_csv
la.save_csv = lazy("linalg.io", "save_csv")

--- Writes an SVG heatmap of a matrix; see `linalg.svg.heatmap`.
-- @param A matrix
-- @string path
-- @tparam[opt] table opts `title`, `row_labels`, `col_labels`, `cmap`, `vmin`, `vmax`
-- @function la.heatmap
la.heatmap = lazy("linalg.svg", "heatmap")
--- Writes an SVG of 2-D vectors as arrows; see `linalg.svg.plot_vectors`.
-- @tab spec the arrows `{u, label = "u"}, ...` and `path`, `title`, `right_angles`
-- @function la.plot_vectors
la.plot_vectors = lazy("linalg.svg", "plot_vectors")
--- Writes an SVG scatter plot; see `linalg.svg.scatter`.
-- @param x vector
-- @param y vector
-- @string path
-- @tparam[opt] table opts `title`, `xlabel`, `ylabel`, `xlog`, `ylog`, `color`, `size`
-- @function la.scatter
la.scatter = lazy("linalg.svg", "scatter")
--- Writes an SVG line plot of one or more series; see `linalg.svg.lineplot`.
-- @param x vector
-- @param ys vector, matrix (a series a column) or list of vectors
-- @string path
-- @tparam[opt] table opts `labels`, `title`, `xlabel`, `ylabel`, `xlog`, `ylog`, `color`
-- @function la.lineplot
la.lineplot = lazy("linalg.svg", "lineplot")
--- Writes an SVG histogram; see `linalg.svg.histogram`.
-- @param x vector
-- @string path
-- @tparam[opt] table opts `bins` (default 10), `title`, `xlabel`, `ylabel`, `color`
-- @return counts, edges
-- @function la.histogram
la.histogram = lazy("linalg.svg", "histogram")

-- Element types. The functions below handle float32 matrices themselves;
-- every other function is written for float64: a float32 argument reaches
-- it as a float64 copy and, when every matrix argument was float32, its
-- matrix results come back float32 (NumPy's rule: float32 with float64 gives
-- float64; Lua numbers do not promote). The README lists which functions
-- compute in float32 and which in float64.
local FLOAT32 = {}
for name in ([[matrix vector zeros ones eye rand randn hstack vstack shape rows
  cols numel get set row col sub copy reshape totable t astype is_matrix
  asmatrix check_finite threads config lsq_state load_npy npy_info save_npy
  load_csv save_csv heatmap plot_vectors scatter lineplot histogram printoptions attention matmul emul ediv pow full zeros_like
  ones_like full_like slice arange linspace logspace diag triu tril kron tile repmat
  flip fliplr flipud roll circshift vec blkdiag qr svd eigh cholesky lu eig eigvals schur
  hessenberg null orth solve inv det pinv matrix_power lstsq sum mean prod min max var std
  argmin argmax cumsum cumprod sort argsort gram_schmidt softmax log_softmax attention_combine attention_backward
  norm vecnorm trace cosine angle cosine_matrix allclose exp log log1p expm1 sqrt abs sign
  floor ceil round sin cos tan tanh sinh cosh asin acos atan log2 log10 isnan isinf isfinite
  maximum minimum lt le gt ge eq ne atan2 hypot where clip any all count_nonzero find nonzero
  rank cond project projection_matrix scalar_projection span_check linear_regression
  multihead_attention fill isclose eigvalsh inner slogdet lu_factor lu_solve cho_factor cho_solve
  multi_dot trunc fix cummin cummax diff ptp
  softmax_backward log_softmax_backward clip_grad_norm tobytes median quantile percentile
  logsumexp cov corrcoef fmod mod]]):gmatch("%S+") do FLOAT32[name] = true end
for name, f in pairs(la) do
  if type(f) == "function" and not FLOAT32[name] then la[name] = f32wrap(f, name) end
end

return la
