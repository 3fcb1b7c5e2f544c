--- linalg.numpy_names: NumPy's names and linalg's for the same thing.
-- One table serves `help "matrix_rank"` and Tab completion in
-- bin/linalg-repl and the README's "Coming from NumPy" table (which
-- `M.markdown()` writes; spec/numpy_port_spec.lua checks they agree).
-- Each row: `np`, NumPy's spellings (the first is shown); `la`, linalg's
-- spelling; `fn`, the `la` function whose reference `help` shows ("rank"
-- for la.rank, "random.seed" for la.random.seed, "Generator:integers" for
-- the method of la.random.default_rng's generator; nil where no one
-- function answers); `note`, what differs.
-- @module linalg.numpy_names
local M = {}

local rows = {
  -- making matrices
  {np = {"np.array"}, la = "la.matrix", fn = "matrix", note = "a 1-D list makes a column (`la.vector`)"},
  {np = {"np.zeros"}, la = "la.zeros(m, n)", fn = "zeros"},
  {np = {"np.ones"}, la = "la.ones(m, n)", fn = "ones"},
  {np = {"np.eye"}, la = "la.eye(n)", fn = "eye"},
  {np = {"np.full"}, la = "la.full(m, n, x)", fn = "full"},
  {np = {"np.arange"}, la = "la.arange", fn = "arange", note = "a column; stop excluded as in NumPy"},
  {np = {"np.linspace"}, la = "la.linspace", fn = "linspace"},
  {np = {"np.diag"}, la = "la.diag", fn = "diag"},
  {np = {"np.concatenate"}, la = "la.hstack / la.vstack", fn = "hstack",
   note = "`axis=1` is `hstack`, `axis=0` is `vstack`"},
  {np = {"np.hstack"}, la = "la.hstack", fn = "hstack"},
  {np = {"np.vstack"}, la = "la.vstack", fn = "vstack"},
  {np = {"np.column_stack"}, la = "la.hstack", fn = "hstack", note = "vectors are columns already"},
  {np = {"np.tril"}, la = "la.tril", fn = "tril"},
  {np = {"np.triu"}, la = "la.triu", fn = "triu"},
  {np = {"np.ndarray"}, la = "la.is_matrix(x)", fn = "is_matrix", note = "the matrix is the one array type; a 1-D array is an m x 1 column"},
  {np = {"np.stack"}, la = "a list `{A, B, ...}`",
   note = "no 3-D arrays: keep the matrices in a Lua list; vectors side by side are `la.hstack`"},
  -- random numbers (NumPy's streams bit for bit)
  {np = {"np.random.seed"}, la = "la.random.seed", fn = "random.seed",
   note = "NumPy's legacy global stream, MT19937 seeded as NumPy seeds it"},
  {np = {"np.random.randn"}, la = "la.random.randn(m, n)", fn = "random.randn",
   note = "NumPy's numbers bit for bit, in NumPy's row order; `la.randn(m, n, seed)` is linalg's own stream"},
  {np = {"np.random.rand"}, la = "la.random.rand(m, n)", fn = "random.rand", note = "as `np.random.randn`"},
  {np = {"np.random.default_rng"}, la = "la.random.default_rng(seed)", fn = "random.default_rng",
   note = "`Generator(PCG64)`: `g:standard_normal(m, n)`, `g:random(m, n)`, `g:integers(lo, hi, {m, n})`"},
  {np = {"rng.standard_normal"}, la = "g:standard_normal(m, n)", fn = "Generator:standard_normal",
   note = "a shape `(h, m, n)` is h matrices `m x n` drawn in turn"},
  {np = {"rng.random"}, la = "g:random(m, n)", fn = "Generator:random"},
  {np = {"rng.integers"}, la = "g:integers(lo, hi, {m, n})", fn = "Generator:integers", note = "`[lo, hi)` as float64"},
  -- shape, access, assignment
  {np = {"a.shape"}, la = "A:shape()", fn = "shape", note = "two results, `m, n`"},
  {np = {"a[i, j]"}, la = "A(i, j)", fn = "get", note = "1-based; `A:get(i, j)`"},
  {np = {"a[r, c] = b"}, la = "A:set(r, c, B)", fn = "set",
   note = "`r`, `c` as `slice` takes them; `B` broadcast as in NumPy"},
  {np = {"a[r, c] -= b"}, la = "A:set(r, c, A:slice(r, c) - B)", fn = "set",
   note = "Lua has no `-=`: `Q[:, j] -= c * Q[:, i]` is `Q:set(\":\", j, Q:col(j) - c * Q:col(i))`"},
  {np = {"a[-1]"}, la = "v:slice(\"end\", 1)", fn = "slice", note = "`\"end-k\"` is `a[-1-k]`; `v(v:numel())` the number"},
  {np = {"a[r, c]"}, la = "A:slice(r, c)", fn = "slice",
   note = "`\"a:b\"` inclusive and 1-based; a view for ranges, a copy for index lists"},
  {np = {"a[:, j]"}, la = "A:col(j)", fn = "col", note = "a view, an m x 1 column"},
  {np = {"a[i, :]"}, la = "A:row(i)", fn = "row", note = "a view, a 1 x n row"},
  {np = {"a.fill"}, la = "A:fill(x)", fn = "fill"},
  {np = {"np.copy", "a.copy"}, la = "A:copy()", fn = "copy"},
  {np = {"np.reshape", "a.reshape"}, la = "A:reshape(m, n)", fn = "reshape",
   note = "column-major order (Octave's), not NumPy's row order; one size may be -1"},
  {np = {"a.astype"}, la = "A:astype(dtype)", fn = "astype"},
  {np = {"np.transpose", "a.T"}, la = "A.T", fn = "t", note = "`A:t()`, a copy; `X.T @ r` without the copy: `la.matmul(X, r, {trans_a = true})`"},
  -- products
  {np = {"np.matmul", "@"}, la = "A * B", fn = "matmul", note = "`u @ v` of two vectors is `la.dot(u, v)`"},
  {np = {"np.dot"}, la = "la.dot(u, v)", fn = "dot", note = "of vectors; of matrices `A * B`"},
  {np = {"np.inner"}, la = "la.inner(a, b)", fn = "inner", note = "of matrices `A * B.T`"},
  {np = {"np.outer"}, la = "la.outer(u, v)", fn = "outer"},
  {np = {"np.multiply", "*"}, la = "A:emul(B)", fn = "emul", note = "`*` is the matrix product here"},
  {np = {"np.divide", "/"}, la = "A:ediv(B)", fn = "ediv", note = "`A / s` for a number s"},
  {np = {"np.power", "**"}, la = "la.pow(A, p)", fn = "pow", note = "`A ^ k` is the matrix power"},
  -- linear algebra
  {np = {"np.linalg.norm"}, la = "la.norm", fn = "norm", note = "with `axis`: `la.vecnorm(A, p, dim)`"},
  {np = {"np.linalg.matrix_rank"}, la = "la.rank", fn = "rank"},
  {np = {"np.linalg.inv"}, la = "la.inv", fn = "inv"},
  {np = {"np.linalg.pinv"}, la = "la.pinv", fn = "pinv"},
  {np = {"np.linalg.det"}, la = "la.det", fn = "det"},
  {np = {"np.linalg.solve"}, la = "la.solve", fn = "solve"},
  {np = {"np.linalg.lstsq"}, la = "la.lstsq", fn = "lstsq", note = "`x, residuals, rank, sv`"},
  {np = {"np.linalg.qr"}, la = "la.qr", fn = "qr"},
  {np = {"np.linalg.svd"}, la = "la.svd", fn = "svd",
   note = "thin by default (`{full = true}` for NumPy's default)"},
  {np = {"np.linalg.eigh"}, la = "la.eigh", fn = "eigh"},
  {np = {"np.linalg.eigvalsh"}, la = "la.eigvalsh", fn = "eigvalsh"},
  {np = {"np.linalg.eig"}, la = "la.eig", fn = "eig", note = "real and imaginary parts apart"},
  {np = {"np.linalg.cholesky"}, la = "la.cholesky", fn = "cholesky"},
  {np = {"np.linalg.cond"}, la = "la.cond", fn = "cond"},
  {np = {"np.trace"}, la = "la.trace", fn = "trace"},
  {np = {"np.allclose"}, la = "la.allclose", fn = "allclose"},
  {np = {"np.isclose"}, la = "la.isclose", fn = "isclose"},
  -- elementwise
  {np = {"np.exp"}, la = "la.exp", fn = "exp"},
  {np = {"np.log"}, la = "la.log", fn = "log"},
  {np = {"np.sqrt"}, la = "la.sqrt", fn = "sqrt"},
  {np = {"np.abs"}, la = "la.abs", fn = "abs"},
  {np = {"np.round", "a.round"}, la = "la.round", fn = "round"},
  {np = {"np.arccos"}, la = "la.acos", fn = "acos"},
  {np = {"np.degrees"}, la = "math.deg", note = "of a number"},
  {np = {"np.maximum"}, la = "la.maximum", fn = "maximum"},
  {np = {"np.minimum"}, la = "la.minimum", fn = "minimum"},
  {np = {"np.clip"}, la = "la.clip", fn = "clip"},
  {np = {"np.where"}, la = "la.where", fn = "where"},
  {np = {"np.all"}, la = "la.all", fn = "all"},
  {np = {"np.any"}, la = "la.any", fn = "any"},
  -- reductions (axis=k is dim = k + 1)
  {np = {"np.sum", "a.sum"}, la = "la.sum(A, dim)", fn = "sum", note = "`axis=0` is `dim = 1`"},
  {np = {"np.mean", "a.mean"}, la = "la.mean(A, dim)", fn = "mean"},
  {np = {"np.std", "a.std"}, la = "la.std(A, dim)", fn = "std"},
  {np = {"np.var", "a.var"}, la = "la.var(A, dim)", fn = "var"},
  {np = {"np.max", "a.max"}, la = "la.max(A, dim)", fn = "max", note = "`keepdims` is the default"},
  {np = {"np.min", "a.min"}, la = "la.min(A, dim)", fn = "min"},
  {np = {"np.argmax"}, la = "la.argmax", fn = "argmax", note = "1-based"},
  {np = {"np.argmin"}, la = "la.argmin", fn = "argmin", note = "1-based"},
  {np = {"np.cumsum"}, la = "la.cumsum", fn = "cumsum"},
  {np = {"np.sort"}, la = "la.sort", fn = "sort"},
  {np = {"np.median"}, la = "la.median(A, dim)", fn = "median", note = "over every entry without `dim`"},
  {np = {"np.quantile"}, la = "la.quantile(A, q, dim)", fn = "quantile",
   note = "`q` a list along dim 2 gives `m x k` where NumPy gives `(k, m)`"},
  {np = {"np.percentile"}, la = "la.percentile(A, p, dim)", fn = "percentile"},
  {np = {"np.cov"}, la = "la.cov(X)", fn = "cov",
   note = "rows are observations (`rowvar=False`); `{rowvar = true}` for NumPy's default"},
  {np = {"np.corrcoef"}, la = "la.corrcoef(X)", fn = "corrcoef", note = "as `cov`"},
  {np = {"scipy.special.logsumexp"}, la = "la.logsumexp(A, dim)", fn = "logsumexp",
   note = "over every entry without `dim` (SciPy's `axis=None`)"},
  {np = {"np.mod", "a % b"}, la = "la.mod(A, B)", fn = "mod", note = "also `A % B`"},
  {np = {"np.fmod"}, la = "la.fmod(A, B)", fn = "fmod"},
  {np = {"np.argsort"}, la = "la.argsort", fn = "argsort", note = "1-based; `{descending = true}`"},
  {np = {"np.flip", "a[::-1]"}, la = "la.flip", fn = "flip"},
}
M.rows = rows

-- the names a row answers to: each spelling, and its last word
-- ("matrix_rank" for np.linalg.matrix_rank, "reshape" for a.reshape)
local function keys(row)
  local out = {}
  for _, s in ipairs(row.np) do
    out[#out + 1] = s
    local last = s:match("^[%a_][%w_%.]*%.([%a_][%w_]*)$")
    if last then out[#out + 1] = last end
  end
  return out
end

local index
--- The row for a NumPy name: a spelling of the table ("np.linalg.norm",
-- "a.T", "@") or its last word ("matrix_rank"); "numpy." reads as "np.".
-- @string name
-- @return the row, or nil
function M.lookup(name)
  if type(name) ~= "string" then return nil end
  if not index then
    index = {}
    for _, row in ipairs(rows) do
      for _, k in ipairs(keys(row)) do
        if index[k] == nil then index[k] = row end
      end
    end
  end
  name = name:gsub("^numpy%.", "np.")
  return index[name] or index[(name:gsub("^np%.linalg%.", ""):gsub("^np%.", ""))]
end

--- The rows whose NumPy spellings (or their last words) start with
-- prefix, each once, in the table's order.
-- @string prefix
-- @return list of rows
function M.complete(prefix)
  local out, seen = {}, {}
  prefix = prefix:gsub("^numpy%.", "np.")
  for _, row in ipairs(rows) do
    for _, k in ipairs(keys(row)) do
      if not seen[row] and k:sub(1, #prefix) == prefix then seen[row] = true; out[#out + 1] = row end
    end
  end
  return out
end

--- The linalg function a row's `fn` names: `la.rank` for "rank",
-- `la.random.seed` for "random.seed", a Generator's method for
-- "Generator:integers".
-- @tab row a row of `M.rows`
-- @tab la the linalg module
-- @return the function, or nil (no `fn`, or nothing by that name)
function M.target(row, la)
  local fn = type(row) == "table" and row.fn
  if type(fn) ~= "string" then return nil end
  local method = fn:match("^Generator:([%w_]+)$")
  if method then
    local ok, g = pcall(la.random.default_rng, 0)
    local f = ok and g[method]
    return type(f) == "function" and f or nil
  end
  local f = la
  for seg in fn:gmatch("[^.]+") do f = type(f) == "table" and f[seg] or nil end
  return type(f) == "function" and f or nil
end

--- The README's table: one markdown row per entry.
-- @return string
function M.markdown()
  local out = {"| NumPy | linalg | note |", "|---|---|---|"}
  for _, row in ipairs(rows) do
    local np = {}
    for i, s in ipairs(row.np) do np[i] = "`" .. s .. "`" end
    local la = row.la:find("`", 1, true) and row.la or "`" .. row.la .. "`"
    out[#out + 1] = string.format("| %s | %s | %s |", table.concat(np, ", "), la, row.note or "")
  end
  return table.concat(out, "\n") .. "\n"
end

return M
