-- float32 matrices in every public function. Each function is called with
-- float32 arguments and with the same values in float64 (the inputs below
-- are exact in float32, so the two calls see the same numbers), and
--   (a) the result types follow NumPy's rule: every matrix argument float32
--       -> float32 matrix results; float32 mixed with float64 -> float64;
--       Lua numbers never promote;
--   (b) the values agree within float32's precision scaled by the problem
--       (rtol 1e-5 for well-conditioned inputs, cond(A) eps32 for solves).
-- The table `cases` must name every function of the module (the walk of
-- spec/hostile_spec.lua): a new function without a float32 case fails here.
-- Reference values from NumPy 1.24 in float32 for matmul, lstsq and
-- attention; views, element rounding, printing, astype, closed matrices.
local unpack = table.unpack or unpack
local pack = require("linalg.compat").pack
local lepack = require "lepack"                  -- string.pack on every Lua
local la = require "linalg"

local F32 = {dtype = "float32"}
local EPS32 = 2 ^ -23                   -- float32's machine epsilon (NumPy's finfo(float32).eps)

local function f32(A) return la.astype(A, "float32") end
local function m(t) return la.matrix(t) end

-- Inputs, all exact in float32 (dyadic fractions).
local S = m{{4, 1, 2}, {1, 5, 0.5}, {2, 0.5, 6}}              -- symmetric positive definite, cond ~ 3
local G = m{{2, -1, 0.5}, {1, 3, 1}, {0.25, 1, 4}}            -- general, cond ~ 3
local T = m{{1, 0.125, 0.5}, {1, 0.25, -0.75}, {1, 0.5, 1.5}, {1, 1, 0.25}, {1, 2, -1}}   -- tall 5x3
local P = m{{0.5, 1, 2}, {3, 0.25, 4}}                         -- positive entries
local U = m{{0.5, -0.25}, {0.75, -0.5}}                        -- entries in (-1, 1)
local W = m{{0.5, -1.5, 2}, {-3, 0.25, 1}}                     -- mixed signs, 2x3
local v, w = la.vector{1, -2, 0.5}, la.vector{0.25, 1, -3}
local b5 = la.vector{1, 0.5, -2, 3, 0.25}
local Q, K, V = m{{0.5, -1, 0.25}, {1, 0.5, -0.5}}, m{{1, 0, 0.5}, {-0.5, 1, 2}, {0.25, 0.25, -1}},
                m{{1, 2}, {-1, 0.5}, {3, -2}}
local mask = m{{1, 0, 1}, {1, 1, 0}}
local AO, Alse = la.attention(Q, K, V, {mask = mask, bias = W, lse = true})   -- for attention_backward
local tmpfile = os.tmpname()

-- Every public function: its float64 arguments (matrices are converted to
-- float32 for the float32 call) and how to compare its results:
--   tol    relative tolerance (default 1e-5), against the largest entry
--   abs    compare absolute values (factors whose signs LAPACK may choose)
--   index  result positions that hold indices: exact, either type
--   same   result positions that must equal the float64 call's exactly
--          (strings, booleans, sizes)
--   check  function(r32, r64, args32) for what the rest cannot say
--   none   no matrix argument: only the float64 call is compared (dtype rule n/a)
local cases = {
  -- construction (float32 via {dtype = "float32"} in `constructors` below)
  matrix = {{{{1, 2}, {3, 4}}}, none = true}, vector = {{{1, 2}}, none = true},
  zeros = {{2, 3}, none = true}, ones = {{2, 3}, none = true}, eye = {{3}, none = true},
  rand = {{2, 3, 7}, none = true}, randn = {{2, 3, 7}, none = true},
  full = {{2, 2, 1.5}, none = true}, arange = {{0, 3, 1}, none = true},
  linspace = {{0, 1, 5}, none = true}, logspace = {{0, 1, 3}, none = true},
  frombuffer = {{lepack.pack("<dd", 1, 2), 2, 1}, none = true},
  diag = {{v}}, hstack = {{{S, G}}}, vstack = {{{S, G}}},
  zeros_like = {{S}}, ones_like = {{S}}, full_like = {{S, 0.5}},
  -- access and views
  shape = {{W}, same = {1, 2}}, rows = {{W}, same = {1}}, cols = {{W}, same = {1}},
  numel = {{W}, same = {1}}, get = {{W, 2, 3}, same = {1}},
  set = {{W:copy(), 1, 1, 0.75}}, fill = {{W:copy(), 0.75}}, row = {{W, 2}}, col = {{W, 2}}, sub = {{S, 1, 2, 2, 3}},
  copy = {{W}}, reshape = {{W, 3, 2}}, t = {{W}}, vec = {{W}}, slice = {{S, {1, 3}, {2, 3}}},
  totable = {{W}, same = {1}},
  astype = {{W, "float64"}, check = function(r32) assert.are.equal("float64", r32[1].dtype) end, keep = true},
  asmatrix = {{W}}, check_finite = {{W}}, is_matrix = {{W}, same = {1}},
  tobytes = {{W}, check = function(r32, r64)
    assert.are.equal(#r64[1] / 2, #r32[1])       -- 4 bytes an element
    assert.are.equal(lepack.pack("<ffffff", 0.5, -3, -1.5, 0.25, 2, 1), r32[1])
  end, skip = {1}},
  -- arithmetic, reductions, measures
  matmul = {{G, S}}, emul = {{W, P}}, ediv = {{W, P}}, pow = {{P, 2}},
  dot = {{v, w}}, outer = {{v, w}}, trace = {{G}}, norm = {{G}}, cosine = {{v, w}},
  angle = {{v, w}}, cosine_matrix = {{W, P}}, allclose = {{W, W}, same = {1}},
  isclose = {{W, W:copy():set(1, 1, 0.5000001)}, mask = true}, inner = {{W, P}},
  sum = {{W}}, mean = {{W}}, min = {{W}}, max = {{W}}, prod = {{W}}, var = {{W, 1}},
  std = {{W, 1}}, argmin = {{W, 1}, index = {1}}, argmax = {{W, 1}, index = {1}},
  cumsum = {{W, 2}}, cumprod = {{W, 2}}, sort = {{W, 2}, index = {2}}, argsort = {{W, 2}, index = {1}},
  vecnorm = {{W, 2, 1}}, map = {{W, function(x) return 2 * x + 1 end}},
  rank = {{T}, same = {1}}, cond = {{G}}, count_nonzero = {{W}, same = {1}},
  any = {{W}, same = {1}}, all = {{W}, same = {1}},
  find = {{W}, index = {1, 2, 3}}, nonzero = {{W}, index = {1, 2, 3}},
  -- shapes
  triu = {{S, 0}}, tril = {{S, 0}}, kron = {{U, U}}, tile = {{U, 2, 1}}, repmat = {{U, 1, 2}},
  flip = {{W, 2}}, fliplr = {{W}}, flipud = {{W}}, roll = {{W, 1, 2}}, circshift = {{W, 1, 2}},
  blkdiag = {{U, S}},
  -- elementwise
  exp = {{W}}, log = {{P}}, log1p = {{P}}, expm1 = {{W}}, sqrt = {{P}}, abs = {{W}},
  sign = {{W}}, floor = {{W}}, ceil = {{W}}, round = {{W}}, sin = {{W}}, cos = {{W}},
  tan = {{U}}, tanh = {{W}}, sinh = {{W}}, cosh = {{W}}, asin = {{U}}, acos = {{U}},
  atan = {{W}}, log2 = {{P}}, log10 = {{P}}, isnan = {{W}, mask = true}, isinf = {{W}, mask = true},
  isfinite = {{W}, mask = true},
  maximum = {{W, P}}, minimum = {{W, P}}, atan2 = {{W, P}}, hypot = {{W, P}},
  -- comparisons and tests (mask): a bool matrix whatever the operands' type
  lt = {{W, P}, mask = true}, le = {{W, P}, mask = true}, gt = {{W, P}, mask = true},
  ge = {{W, P}, mask = true}, eq = {{W, W}, mask = true}, ne = {{W, P}, mask = true},
  where = {{m{{1, 0, 1}, {0, 1, 0}}, W, P}}, clip = {{W, -1, 1}},
  -- factorizations and solvers
  qr = {{T}, abs = true}, svd = {{T}, abs = true}, eigh = {{S}, abs = true}, eigvalsh = {{S}},
  cholesky = {{S}}, lu = {{G}, index = {3}}, eig = {{S}, abs = true}, eigvals = {{S}},
  schur = {{S}, abs = true}, hessenberg = {{G}, abs = true}, expm = {{U}},
  null = {{m{{1, 2, 3}, {2, 4, 7}}}, abs = true}, orth = {{T}, abs = true},  -- null: rank 2, one basis column
  solve = {{G, v}, tol = 10 * la.cond(G) * EPS32}, inv = {{G}, tol = 10 * la.cond(G) * EPS32},
  det = {{G}, tol = 10 * la.cond(G) * EPS32}, pinv = {{T}, tol = 10 * la.cond(T) * EPS32},
  matrix_power = {{G, 3}, tol = 30 * EPS32},
  nnls = {{T, b5}, tol = 10 * la.cond(T) * EPS32}, lstsq = {{T, b5}, same = {3}, tol = 10 * la.cond(T) ^ 2 * EPS32},
  gram_schmidt = {{T}, abs = true},
  -- projections and regression (the Lua front)
  project = {{b5, T}}, projection_matrix = {{T}}, scalar_projection = {{v, w}},
  span_check = {{T, b5}, same = {1}},
  linear_regression = {{m{{0.5, 1}, {1, -1}, {2, 0.25}, {3, 2}}, la.vector{1, 2, 3.5, 5}}},
  -- attention
  softmax = {{W}}, log_softmax = {{W}},
  softmax_backward = {{la.softmax(W), P}}, log_softmax_backward = {{la.log_softmax(W), P, 1}},
  -- max_norm 100 leaves the list as it is (the float32 call gets the same values); the
  -- check clips float32 copies in place: they stay float32, scaled as the float64 ones
  clip_grad_norm = {{{W:copy(), P:copy()}, 100}, check = function()
    local g64, g32 = {W:copy(), P:copy()}, {f32(W), f32(P)}
    local n64, n32 = la.clip_grad_norm(g64, 1), la.clip_grad_norm(g32, 1)
    assert(math.abs(n32 - n64) <= 1e-6 * n64)
    for i = 1, 2 do
      assert.are.equal("float32", g32[i].dtype)
      assert.near(g64[i], la.astype(g32[i], "float64"), 1e-6)
    end
  end},
  attention = {{Q, K, V, {mask = mask, weights = true}}},
  attention_backward = {{m{{1, -0.5}, {0.25, 2}}, Q, K, V, AO, Alse, {mask = mask, bias = W, bias_grad = true}},
    tol = 1e-4},
  attention_combine = {{m{{1, 2}, {3, 4}}, la.vector{0.5, -1}, m{{-1, 0.5}, {2, 2}}, la.vector{0.25, 0}}},
  multihead_attention = {{m{{1, 0.5, -1, 2}, {0.25, -0.5, 1, 1}, {2, 1, 0, -1}}, la.eye(4), m{{1, 0, 0, 0.5},
    {0, 1, 0.5, 0}, {0.5, 0, 1, 0}, {0, 0.5, 0, 1}}, la.eye(4), la.eye(4) * 0.5, 2, {weights = true}}},
  -- files and pictures (checked by `files` below), and the runtime
  save_npy = {{W, tmpfile}, files = true}, save_csv = {{W, tmpfile}, files = true},
  heatmap = {{W, tmpfile}, files = true},
  scatter = {{la.vector{1, 2}, la.vector{3, 4}, tmpfile}, files = true},
  lineplot = {{la.vector{1, 2}, la.vector{3, 4}, tmpfile}, files = true},
  histogram = {{la.vector{1, 2, 2}, tmpfile}, files = true},
  plot_vectors = {{{{la.vector{1, 0.5}, label = "u"}, path = tmpfile}}, files = true},
  load_npy = {{"spec/fixtures/f4.npy"}, none = true}, npy_info = {{"spec/fixtures/f4.npy"}, none = true},
  load_csv = {{"spec/fixtures/README.md"}, none = true},
  threads = {{}, none = true}, config = {{}, none = true}, printoptions = {{}, none = true},
  lsq_state = {{3}, none = true},
  -- round two
  slogdet = {{G}, tol = 10 * la.cond(G) * EPS32}, multi_dot = {{{G, S, G}}},
  lu_factor = {{G}, keep = true, check = function(r32)
    assert.are.equal("float32", r32[1].lu.dtype)
    assert.are.equal("float64", r32[1].piv.dtype)            -- indices are float64
  end},
  lu_solve = {{la.lu_factor(G), v}, tol = 10 * la.cond(G) * EPS32},
  cho_factor = {{S}}, cho_solve = {{la.cho_factor(S), v}, tol = 10 * la.cond(S) * EPS32},
  trunc = {{W}}, fix = {{W}}, cummin = {{W, 2}}, cummax = {{W, 2}}, diff = {{W, 1, 2}},
  ptp = {{W, 1}},
  sqrtm = {{S}}, logm = {{S}}, expm_frechet = {{U, U}},
  -- statistics and remainders: order statistics pick entries (exact), the
  -- others compute in double
  median = {{W, 1}}, quantile = {{W, {0.25, 0.9}, 2}}, percentile = {{W, 75}},
  logsumexp = {{W, 2}}, cov = {{W}}, corrcoef = {{W}}, mod = {{W, 0.75}}, fmod = {{W, -0.75}},
}

-- Functions whose float32 results are known to differ from the rule or
-- from the float64 values at the time of writing: their cases report
-- pending (not passed) until fixed. Each entry says what is wrong.
local KNOWN = {
}

-- ------------------------------------------------------------ comparing

local function inlist(list, k)
  for _, x in ipairs(list or {}) do if x == k then return true end end
  return false
end

local function maxabs(A)
  local s = 0
  for _, row in ipairs(A:totable()) do
    for _, x in ipairs(type(row) == "table" and row or {row}) do
      if type(x) == "number" and x == x and math.abs(x) > s and math.abs(x) < math.huge then s = math.abs(x) end
    end
  end
  return s
end

-- a (float32 path) against b (float64 path), as described above the table;
-- want is the dtype the rule asks of a's matrices (nil: either)
local function compare(a, b, want, c, where)
  if la.is_matrix(b) then
    assert(la.is_matrix(a), where .. ": a matrix expected, got " .. type(a))
    if want then assert.are.equal(want, a.dtype, where .. ": dtype") end
    assert.are.same({b:shape()}, {a:shape()}, where .. ": shape")
    local ta, tb = a:totable(), b:totable()
    local scale = math.max(maxabs(b), 1e-300)
    for i, rb in ipairs(tb) do
      local ra = ta[i]
      if type(rb) ~= "table" then ra, rb = {ra}, {rb} end
      for j, y in ipairs(rb) do
        local x = ra[j]
        if type(y) == "boolean" then                    -- a bool matrix: the same entries
          assert.are.equal(y, x, string.format("%s: entry (%d,%d)", where, i, j))
        else
        if c.abs then x, y = math.abs(x), math.abs(y) end
        local ok = x == y or (x ~= x and y ~= y) or math.abs(x - y) <= (c.tol or 1e-5) * scale
        assert(ok, string.format("%s: entry (%d,%d) is %.9g in float32, %.17g in float64 (tol %g of %g)",
                                 where, i, j, x, y, c.tol or 1e-5, scale))
        end
      end
    end
  elseif type(b) == "number" then
    assert.are.equal("number", type(a), where)
    local ok = a == b or (a ~= a and b ~= b) or math.abs(a - b) <= (c.tol or 1e-5) * math.max(math.abs(b), 1e-300)
    assert(ok, string.format("%s: %.9g in float32, %.17g in float64", where, a, b))
  elseif type(b) == "table" then
    assert.are.equal("table", type(a), where)
    for k, y in pairs(b) do compare(a[k], y, want, c, where .. "." .. tostring(k)) end
  else
    assert.are.equal(b, a, where)
  end
end

-- the arguments with every matrix (also inside tables of matrices, as
-- hstack's list and attention's options) passed through f
local function mapargs(args, f)
  local out = {}
  for i, x in ipairs(args) do
    if la.is_matrix(x) then out[i] = f(x, i)
    elseif type(x) == "table" and getmetatable(x) == nil then
      local t = {}
      for k, y in pairs(x) do t[k] = la.is_matrix(y) and f(y, i) or y end
      out[i] = t
    else out[i] = x end
  end
  return out
end

local function nmatrices(args)
  local n = 0
  mapargs(args, function(x) n = n + 1; return x end)
  return n
end

local function results(f, args)
  return pack(f(unpack(args)))
end

local function check_results(r32, r64, want, c, name)
  assert.are.equal(r64.n, r32.n, name .. ": number of results")
  for k = 1, r64.n do
    local where = string.format("%s result %d", name, k)
    if inlist(c.same, k) then assert.are.same(r64[k], r32[k], where)
    elseif inlist(c.index, k) then compare(r32[k], r64[k], nil, {tol = 0}, where)
    elseif not inlist(c.skip, k) then
      compare(r32[k], r64[k], c.mask and "bool" or not c.keep and want or nil, c, where)
    end
  end
end

-- run body; a function in KNOWN reports pending when body fails
local function guarded(name, body)
  if not KNOWN[name] then return body() end
  local ok, e = pcall(body)
  if not ok then pending(name .. ": " .. KNOWN[name] .. " (" .. tostring(e):sub(1, 200) .. ")") end
end

describe("float32 in every public function", function()
  local names = {}
  for name in pairs(cases) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local c = cases[name]
    local args = c[1]
    if not c.none and not c.files then
      it(name .. ": float32 in, float32 out, values of the float64 call", function()
        guarded(name, function()
          local r64 = results(la[name], args)
          local a32 = mapargs(args, f32)
          local r32 = results(la[name], a32)
          check_results(r32, r64, "float32", c, name)
          if c.check then c.check(r32, r64, a32) end
        end)
      end)
      if nmatrices(args) >= 2 then
        it(name .. ": float32 with float64 gives float64", function()
          guarded(name, function()
            local r64 = results(la[name], args)
            local first = true
            local mixed = mapargs(args, function(x)
              if first then first = false; return f32(x) end
              return x
            end)
            check_results(results(la[name], mixed), r64, "float64", c, name)
          end)
        end)
      end
    end
  end

  it("covers every public function", function()
    for k, f in pairs(la) do
      if type(f) == "function" then assert(cases[k], "no float32 case for linalg." .. k) end
    end
  end)
end)

describe("float32 construction", function()
  -- the constructors that take {dtype = "float32"}: their float32 matrix
  -- holds the float64 call's values rounded to float32
  local made = {
    matrix = {{{0.1, 1 / 3}, {2, -7}}}, vector = {{0.1, -2, 1e-3}}, zeros = {2, 3}, ones = {2, 3},
    eye = {3, 2}, rand = {3, 2, 7}, randn = {3, 2, 7}, full = {2, 2, 0.1},
    frombuffer = {lepack.pack("<dddd", 0.1, 1, 2, 3), 2, 2},
  }
  for name, args in pairs(made) do
    assert(cases[name].none, name)
    it(name .. "{dtype = \"float32\"} rounds the float64 values to float32", function()
      guarded(name, function()
        local A64 = la[name](unpack(args))
        local a = {unpack(args)}
        if name == "frombuffer" then
          -- frombuffer's dtype names the bytes' type: float64 bytes stay float64
          a[1] = lepack.pack("<ffff", 0.1, 1, 2, 3)
        end
        a[#a + 1] = F32
        local A32 = la[name](unpack(a))
        assert.are.equal("float64", A64.dtype)
        assert.are.equal("float32", A32.dtype)
        assert.are.same(A64:astype("float32"):totable(), A32:totable())
        if name ~= "zeros" and name ~= "ones" and name ~= "eye" then
          assert.are_not.same(A64:totable(), A32:totable())     -- the values did round
        end
      end)
    end)
  end

  it("matrix(m, n, fill, opts) and the shape-only constructors give float32 too", function()
    local A = la.matrix(2, 3, 0.1, F32)
    assert.are.equal("float32", A.dtype)
    assert.are.equal(0.10000000149011612, A(2, 3))
    assert.are.equal("float32", la.zeros(0, 4, F32).dtype)
    assert.are.same({0, 4}, {la.zeros(0, 4, F32):shape()})
    assert.are.equal("float32", la.eye(2, F32).dtype)
  end)

  it("hstack and vstack give float32 when every item is, float64 otherwise", function()
    local A, B = f32(S), f32(G)
    assert.are.equal("float32", la.hstack{A, B}.dtype)
    assert.are.equal("float32", la.vstack{A, B, A}.dtype)
    assert.are.equal("float64", la.hstack{A, G}.dtype)
    assert.are.equal("float64", la.vstack{S, B}.dtype)
    assert.are.same(la.hstack{S, G}:totable(), la.hstack{A, G}:totable())
  end)

  it("the range constructors take no dtype and give float64 (no matrix to take a type from)", function()
    for _, name in ipairs{"arange", "linspace", "logspace"} do
      assert.are.equal("float64", la[name](unpack(cases[name][1])).dtype, name)
    end
  end)

  it("load_npy keeps the file's type; npy_info reports it; load_csv gives float64", function()
    assert.are.equal("float32", la.load_npy("spec/fixtures/f4.npy").dtype)
    assert.are.equal("float64", la.load_npy("spec/fixtures/f8_c.npy").dtype)
    assert.are.equal("<f4", la.npy_info("spec/fixtures/f4.npy").dtype)
    local f = io.open(tmpfile, "w"); f:write("0.1,2\n3,4\n"); f:close()
    local C = la.load_csv(tmpfile)
    assert.are.equal("float64", C.dtype)
    assert.are.equal(0.1, C(1, 1))
  end)
end)

describe("float32 files and pictures", function()
  local function slurp(path)
    local f = assert(io.open(path, "rb")); local s = f:read("*a"); f:close(); return s
  end

  it("save_npy writes <f4 and reads back float32; save_csv writes the float32 values", function()
    local A = f32(m{{0.1, 2}, {1 / 3, -4}})
    la.save_npy(A, tmpfile)
    assert.are.equal("<f4", la.npy_info(tmpfile).dtype)
    local B = la.load_npy(tmpfile)
    assert.are.equal("float32", B.dtype)
    assert.are.same(A:totable(), B:totable())
    la.save_csv(A, tmpfile)
    assert.are.equal("0.10000000149011612,2\n0.3333333432674408,-4\n", slurp(tmpfile))
    la.save_csv(W, tmpfile)
    local want = slurp(tmpfile)
    la.save_csv(f32(W), tmpfile)
    assert.are.equal(want, slurp(tmpfile))
  end)

  it("heatmap and plot_vectors draw a float32 matrix as the same float64 one", function()
    la.heatmap(W, tmpfile, {title = "W"})
    local want = slurp(tmpfile)
    la.heatmap(f32(W), tmpfile, {title = "W"})
    assert.are.equal(want, slurp(tmpfile))
    la.plot_vectors{{la.vector{1, 0.5}, label = "u"}, {la.vector{-0.25, 2}, label = "v"}, path = tmpfile}
    want = slurp(tmpfile)
    la.plot_vectors{{f32(la.vector{1, 0.5}), label = "u"}, {la.vector{-0.25, 2}, label = "v"}, path = tmpfile}
    assert.are.equal(want, slurp(tmpfile))
  end)

  it("lsq_state folds float32 rows in as their float64 values", function()
    local s, t = la.lsq_state(3), la.lsq_state(3)
    s:add(T, b5); t:add(f32(T), f32(b5))
    local x64, r64 = s:solve()
    local x32, r32 = t:solve()
    assert.are.same(x64:totable(), x32:totable())      -- the same numbers went in
    assert.are.same(r64:totable(), r32:totable())
  end)

  it("the runtime functions take no matrices", function()
    assert.are.equal("number", type(la.threads()))
    assert.are.equal("table", type(la.config()))
  end)
end)

describe("float32 operators (Lua numbers never promote)", function()
  local A, B = f32(G), f32(S)
  local ops = {
    ["A + B"] = {function(x, y) return x + y end, function(x) return x + 1.5 end},
    ["A - B"] = {function(x, y) return x - y end, function(x) return 0.5 - x end},
    ["A * B"] = {function(x, y) return x * y end, function(x) return 2 * x end},
    ["A / s"] = {nil, function(x) return x / 4 end},
    ["-A"] = {nil, function(x) return -x end},
    ["A ^ k"] = {nil, function(x) return x ^ 2 end},
  }
  for name, op in pairs(ops) do
    it(name .. ": float32 operands give float32, with float64 float64", function()
      guarded(name, function()
        local two, one = op[1], op[2]
        if two then
          compare(two(A, B), two(G, S), "float32", {}, name)
          compare(two(A, S), two(G, S), "float64", {}, name .. " mixed")
          compare(two(G, B), two(G, S), "float64", {}, name .. " mixed")
        end
        compare(one(A), one(G), "float32", {}, name .. " with a number")
      end)
    end)
  end

  it("A == B: equal values are equal whatever the types", function()
    guarded("A == B", function()
      assert.is_true(A == A:copy())
      assert.is_true(A == G)
      assert.is_true(G == A)
      assert.is_false(f32(m{{0.1}}) == m{{0.1}})     -- 0.1 rounds in float32
    end)
  end)

  it("#A, A(i, j), A.T", function()
    assert.are.equal(3, #A)
    assert.are.equal(-1, A(1, 2))
    assert.are.equal("float32", A.T.dtype)
    assert.are.same(G.T:totable(), A.T:totable())
  end)
end)

describe("float32 against NumPy 1.24 float32", function()
  -- computed with /usr/bin/python3 (Debian NumPy 1.24.2), every array dtype=np.float32:
  --   A = [[0.1, -0.7, 1.3], [2.2, 0.5, -1.1], [-0.3, 1.9, 0.8], [1.7, -0.4, 0.6]]
  --   B = [[0.9, -1.2], [0.35, 2.1], [-0.6, 0.45]];  (A @ B).astype('f8').tolist()
  --   X = [[1, .1, .01], [1, .4, .16], [1, .7, .49], [1, 1.1, 1.21], [1, 1.6, 2.56], [1, 2.3, 5.29]]
  --   y = [[.3], [.9], [1.2], [2.1], [2.4], [3.9]];  np.linalg.lstsq(X, y, rcond=None)  (x is float32)
  --   Q, K, V below; S = (Q @ K.T) / np.sqrt(f(4)); W = np.exp(S - S.max(axis=1, keepdims=True))
  --   W = W / W.sum(axis=1, keepdims=True); (W @ V).astype('f8').tolist()
  local A = la.matrix({{0.1, -0.7, 1.3}, {2.2, 0.5, -1.1}, {-0.3, 1.9, 0.8}, {1.7, -0.4, 0.6}}, F32)
  local B = la.matrix({{0.9, -1.2}, {0.35, 2.1}, {-0.6, 0.45}}, F32)

  it("matmul", function()
    local C = la.matmul(A, B)
    assert.are.equal("float32", C.dtype)
    compare(C, m{{-0.9350000023841858, -1.0049999952316284}, {2.815000057220459, -2.0850000381469727},
                 {-0.08500004559755325, 4.710000038146973}, {1.0299999713897705, -2.6100001335144043}},
            "float32", {tol = 4 * EPS32}, "matmul")
  end)

  it("lstsq (cond(X) = 16.8: tolerance 10 cond eps32)", function()
    local X = la.matrix({{1, 0.1, 0.01}, {1, 0.4, 0.16}, {1, 0.7, 0.49}, {1, 1.1, 1.21}, {1, 1.6, 2.56},
                         {1, 2.3, 5.29}}, F32)
    local y = la.vector({0.3, 0.9, 1.2, 2.1, 2.4, 3.9}, F32)
    local tol = 10 * 16.8 * EPS32
    for _, method in ipairs{"svd", "qr", "qrp"} do
      local x, res, rank = la.lstsq(X, y, {method = method})
      assert.are.equal("float32", x.dtype, method)
      assert.are.equal(3, rank)
      compare(x, la.vector{0.23625172674655914, 1.4135082960128784, 0.06365619599819183}, "float32",
              {tol = tol}, "lstsq " .. method)
      compare(res, m{{0.14468857645988464}}, "float32", {tol = tol}, "lstsq residuals " .. method)
    end
    local _, _, _, sv = la.lstsq(X, y)
    compare(sv, la.vector{6.961431503295898, 1.8313676118850708, 0.4149273633956909}, "float32",
            {tol = 4 * EPS32}, "lstsq sv")
  end)

  it("attention: softmax(Q K^T / sqrt(d)) V", function()
    local Qa = la.matrix({{0.2, -0.5, 1.0, 0.3}, {1.1, 0.4, -0.2, 0.7}, {-0.9, 0.6, 0.5, -1.3}}, F32)
    local Ka = la.matrix({{0.5, 0.1, -0.4, 0.8}, {-1.2, 0.3, 0.9, 0.2}, {0.7, -0.6, 0.1, 1.5},
                          {0.05, 1.4, -0.8, -0.3}, {1.0, 1.0, 1.0, 1.0}}, F32)
    local Va = la.matrix({{1.0, -0.5}, {0.25, 2.0}, {-1.5, 0.75}, {0.6, 0.1}, {3.0, -2.0}}, F32)
    local O = la.attention(Qa, Ka, Va)
    assert.are.equal("float32", O.dtype)
    compare(O, m{{0.6706163883209229, 0.027344882488250732}, {0.8895780444145203, -0.4082699716091156},
                 {0.6716582775115967, 0.6413840055465698}}, "float32", {tol = 16 * EPS32}, "attention")
  end)
end)

describe("float32 views and elements", function()
  it("set rounds to float32 and get reads the rounded value", function()
    local A = la.zeros(2, 2, F32)
    A:set(1, 1, 0.1)
    assert.are.equal(0.10000000149011612, A(1, 1))
    assert.are.equal(0.10000000149011612, A:get(1, 1))
    A:set(2, 2, 1e39)                                   -- beyond float32's range
    assert.are.equal(math.huge, A(2, 2))
    A:set(2, 1, 1e-46)                                  -- below its smallest subnormal
    assert.are.equal(0, A(2, 1))
    local v32 = la.vector({1, 2, 3}, F32)
    v32:set(2, 1 / 3)
    assert.are.equal(0.3333333432674408, v32(2))
  end)

  it("sub, row, col and slice are float32 views: writes show through", function()
    local A = la.matrix({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, F32)
    local views = {A:sub(2, 3, 2, 3), A:row(2), A:col(3)}
    for _, x in ipairs(views) do assert.are.equal("float32", x.dtype) end
    views[1]:set(1, 1, 0.1)                  -- A(2, 2)
    assert.are.equal(0.10000000149011612, A(2, 2))
    views[2]:set(1, 3, -0.5)                 -- A(2, 3)
    assert.are.equal(-0.5, A(2, 3))
    assert.are.equal(-0.5, views[3](2))
    assert.are.same({{0.10000000149011612, -0.5}, {8, 9}}, views[1]:totable())
    -- a view of a view, and a float64 copy of a view
    local vv = views[1]:col(2)
    assert.are.equal("float32", vv.dtype)
    assert.are.same({-0.5, 9}, vv:totable())
    local c = views[1]:astype("float64")
    c:set(1, 1, 7)
    assert.are.equal(0.10000000149011612, A(2, 2))
    -- the parent lives while a view does
    local r = la.matrix({{1, 2}, {3, 4}}, F32):row(2)
    collectgarbage(); collectgarbage()
    assert.are.same({{3, 4}}, r:totable())
  end)

  it("slice is a view where the layout allows, as for float64", function()
    guarded("slice view", function()
      local A = la.matrix({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, F32)
      local s = A:slice("2:3", "1:2:3")             -- rows 2..3, columns 1 and 3: a strided view
      assert.are.equal("float32", s.dtype)
      assert.are.same({{4, 6}, {7, 9}}, s:totable())
      s:set(2, 2, 42)
      assert.are.equal(42, A(3, 3))
      local r = A:slice("2:3", ":")
      r:set(1, 1, 0.1)
      assert.are.equal(0.10000000149011612, A(2, 1))
      local c = A:slice({3, 1}, ":")                 -- an index list: a copy
      c:set(1, 1, 5)
      assert.are.equal(7, A(3, 1))
    end)
  end)

  it("prints its type in the header", function()
    local A = la.matrix({{1, 0.5}, {-2, 0.1}}, F32)
    local s = tostring(A)
    assert.are.equal("2x2 float32 matrix", s:match("^[^\n]*"))
    assert.is_truthy(s:find("0.1", 1, true))
    assert.are.equal("2x2 matrix", tostring(A:astype("float64")):match("^[^\n]*"))
    assert.are.equal("1x2 float32 matrix (view)", tostring(A:row(2)):match("^[^\n]*"))
    assert.are.equal("0x3 float32 matrix", tostring(la.zeros(0, 3, F32)):match("^[^\n]*"))
  end)

  it("astype round trips: float32 -> float64 -> float32 is exact, float64 -> float32 rounds", function()
    local A = la.randn(5, 4, 3)
    local A32 = A:astype("float32")
    assert.are.equal("float32", A32.dtype)
    assert.are.equal("float64", A.dtype)
    assert.are.same(A32:totable(), A32:astype("float64"):astype("float32"):totable())
    for i = 1, 5 do for j = 1, 4 do
      local x, y = A(i, j), A32(i, j)
      assert.are.equal(lepack.unpack("<f", lepack.pack("<f", x)), y)     -- round to nearest
      assert.is_true(math.abs(x - y) <= EPS32 / 2 * math.abs(x))
    end end
    -- astype is a copy, also to its own type
    local B = A32:astype("float32")
    B:set(1, 1, 99)
    assert.are_not.equal(99, A32(1, 1))
    assert.are.equal("float64", A:astype("float64").dtype)
    assert.error_matches(function() A:astype("float16") end,
      'linalg.astype: bad argument #2 (dtype must be "float64", "float32" or "bool", got "float16")', 1, true)
  end)

  it("a 0 x 2^31-1 float32 matrix costs nothing, converted or computed on", function()
    guarded("huge empty", function()
      local t = os.clock()
      local Z = la.zeros(0, 2 ^ 31 - 1, F32)
      local Z64 = Z:astype("float64")
      assert.are.equal("float32", Z64:astype("float32").dtype)
      assert.are.same({0, 1}, {la.sum(Z, 2):shape()})
      assert.is_true(os.clock() - t < 0.1, string.format("%.2f s CPU", os.clock() - t))
    end)
  end)

  it("a closed float32 matrix is an error in every use", function()
    local A = la.ones(2, 2, F32)
    local mt = debug.getmetatable(A)
    mt.__close(A); mt.__close(A)
    assert.error_matches(function() return A(1, 1) end, "matrix is closed", 1, true)
    assert.error_matches(function() la.get(A, 1, 1) end, "linalg.get: bad argument #1 (matrix is closed)", 1, true)
    assert.error_matches(function() A:astype("float64") end, "linalg.astype: bad argument #1 (matrix is closed)", 1, true)
    assert.error_matches(function() return A:tobytes() end, "linalg.tobytes: bad argument #1 (matrix is closed)", 1, true)
    assert.error_matches(function() la.solve(A, A) end, "linalg.solve: bad argument #1 (matrix is closed)", 1, true)
    assert.error_matches(function() la.matmul(A, A) end, "(matrix is closed)", 1, true)
    assert.error_matches(function() la.save_npy(A, tmpfile) end, "(matrix is closed)", 1, true)
    assert.error_matches(function() la.attention(A, A, A) end, "(matrix is closed)", 1, true)
  end)
end)

describe("a dtype key in the data table", function()
  local la = require "linalg"
  it("gives the type of la.matrix{...} and la.vector{...}, as np.array(..., dtype=) does", function()
    -- the key had been ignored: la.matrix{1, 2, 3, dtype = "float32"} was float64
    local M = la.matrix{{1, 2}, {3, 0.1}, dtype = "float32"}
    assert.are.equal("float32", M.dtype)
    assert.are.same({2, 2}, {M:shape()})
    assert.are.equal(lepack.unpack("<f", lepack.pack("<f", 0.1)), M(2, 2))   -- rounded to float32
    local v = la.matrix{1, 2, 3, dtype = "float32"}
    assert.are.equal("float32", v.dtype)
    assert.are.same({3, 1}, {v:shape()})
    assert.are.equal("float32", la.vector{1, 2, dtype = "float32"}.dtype)
    assert.are.equal("float64", la.matrix{1, 2, dtype = "float64"}.dtype)
    -- an options table after the data wins; a table without the key stays float64
    assert.are.equal("float64", la.vector({1, 2, dtype = "float32"}, {dtype = "float64"}).dtype)
    assert.are.equal("float64", la.matrix({1, 2, dtype = "float32"}, {dtype = "float64"}).dtype)
    assert.are.equal("float64", la.matrix{1, 2, n = 2}.dtype)
    local ok, err = pcall(la.matrix, {1, 2, dtype = "int8"})
    assert.is_false(ok)
    assert.matches("linalg.matrix: option 'dtype' must be", err, 1, true)
  end)
end)
