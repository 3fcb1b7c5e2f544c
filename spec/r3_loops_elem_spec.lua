-- The vectorized elementwise loops (src/kernels/loops.h): comparisons,
-- maximum/minimum, where, clip, + - .* ./ and pow against a plain-Lua
-- reference, entry by entry and bit for bit (NaN for NaN, the sign of
-- zero), on every length 0..67 (so each vector body and each tail length
-- is run), on views whose leading dimension exceeds their rows, with
-- broadcast rows, columns, 1x1 matrices and numbers on either side, in
-- float64 and float32, with NaN, Inf and -0.0 among the inputs.
-- The reference is the IEEE result of one operation per entry (what NumPy's
-- loops give: np.greater, np.maximum, np.clip, np.where, A / 2, A ** 2 and
-- A ** 0.5 as np.square and np.sqrt), rounded to float32 for float32 inputs
-- (exact for one + - * / of float32 values done in double).
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local F32 = {dtype = "float32"}

-- awkward values first, then a pseudo-random fill (exact in float32)
local SPECIAL = {NAN, INF, -INF, -0.0, 0.0, 1, -1, 2, 0.5, -2.5, 3, 0.25, 1e300, -1e-300}
local function value(k, seed)
  if k <= #SPECIAL and seed % 3 == 0 then return SPECIAL[k] end
  local v = ((k * 7919 + seed * 104729) % 2001 - 1000) / 64
  if (k + seed) % 11 == 0 then v = SPECIAL[(k + seed) % #SPECIAL + 1] end
  return v
end

-- an m x n matrix of dtype: a view with ld > m (view = true) or a plain one
local function mat(m, n, seed, dtype, view)
  local t = {}
  local rows = view and m + 3 or m
  for i = 1, rows do
    t[i] = {}
    for j = 1, n do t[i][j] = value((i - 1) * n + j + (view and 5 or 0), seed) end
  end
  local opts = dtype == "float32" and F32 or {}
  if rows == 0 or n == 0 then return la.zeros(m, n, opts) end
  local A = la.matrix(t, opts)
  if view then A = A:sub(2, m + 1, 1, n) end
  return A
end

local function shape(X) if type(X) == "number" then return 1, 1 end return X:shape() end
local function at(X, i, j)
  if type(X) == "number" then return X end
  local r, c = X:shape()
  return X(r == 1 and 1 or i, c == 1 and 1 or j)
end

local function same(x, y, zerosign)
  if x ~= x then return y ~= y end
  if x ~= y then return false end
  if x == 0 and zerosign then return 1 / x == 1 / y end
  return true
end

-- the reference m x n result of f over the operands, in dtype
local function reference(f, ops, m, n, dtype)
  local t = {}
  for i = 1, m do
    t[i] = {}
    for j = 1, n do
      local a = {}
      for k = 1, #ops do a[k] = at(ops[k], i, j) end
      t[i][j] = f(a[1], a[2], a[3])
    end
  end
  if m == 0 or n == 0 then return nil end
  return la.matrix(t, dtype == "float32" and F32 or {})
end

local function check(name, got, f, ops, dtype, zerosign, mask)
  local m, n = 0, 0
  if dtype == "float32" then             -- numbers meet float32 matrices as float32 values
    local r = {}
    for k = 1, #ops do
      r[k] = type(ops[k]) == "number" and la.matrix({{ops[k]}}, F32)(1, 1) or ops[k]
    end
    ops = r
  end
  for k = 1, #ops do
    local r, c = shape(ops[k])
    if r > m then m = r end
    if c > n then n = c end
  end
  for k = 1, #ops do                     -- an empty operand makes the result empty
    local r, c = shape(ops[k])
    if r == 0 then m = 0 end
    if c == 0 then n = 0 end
  end
  assert(la.is_matrix(got), name .. ": not a matrix")
  local gm, gn = got:shape()
  assert(gm == m and gn == n, name .. ": shape")
  assert(got.dtype == (mask and "bool" or dtype), name .. ": dtype " .. got.dtype)
  local R = reference(f, ops, m, n, dtype)
  for j = 1, n do
    for i = 1, m do
      local x, y = got(i, j), R(i, j)
      if mask then x = x and 1 or 0 end      -- a bool entry against the reference's 1/0
      if not same(x, y, zerosign) then
        error(string.format("%s (%s, %dx%d) at (%d,%d): %.17g, expected %.17g",
                            name, dtype, m, n, i, j, x, y), 2)
      end
    end
  end
end

local function isnan(x) return x ~= x end
local function b(c) if c then return 1 else return 0 end end
-- NumPy's maximum / minimum / clip: NaN wins
local function max(x, y) if isnan(x) or isnan(y) then return NAN end return x > y and x or y end
local function min(x, y) if isnan(x) or isnan(y) then return NAN end return x < y and x or y end

local BINARY = {
  -- the comparisons give bool matrices (mask)
  {"lt", la.lt, function(x, y) return b(x < y) end, mask = true},
  {"le", la.le, function(x, y) return b(x <= y) end, mask = true},
  {"gt", la.gt, function(x, y) return b(x > y) end, mask = true},
  {"ge", la.ge, function(x, y) return b(x >= y) end, mask = true},
  {"eq", la.eq, function(x, y) return b(x == y) end, mask = true},
  {"ne", la.ne, function(x, y) return b(x ~= y) end, mask = true},
  {"maximum", la.maximum, max, nozero = true},     -- max(0, -0): either zero (NumPy's too)
  {"minimum", la.minimum, min, nozero = true},
  {"add", function(x, y) return x + y end, function(x, y) return x + y end},
  {"sub", function(x, y) return x - y end, function(x, y) return x - y end},
  {"emul", la.emul, function(x, y) return x * y end},
  {"ediv", la.ediv, function(x, y) return x / y end},
}

local DTYPES = {"float64", "float32"}

describe("vectorized elementwise loops (bit for bit against plain Lua)", function()
  it("binary operations on every length 0..67, contiguous and views, both types", function()
    for _, dtype in ipairs(DTYPES) do
      for len = 0, 67 do
        for _, view in ipairs{false, true} do
          local A, B = mat(len, 1, 1, dtype, view), mat(len, 1, 3, dtype, view)
          local Ar, Br = mat(1, len, 6, dtype, view), mat(1, len, 9, dtype, false)
          for _, op in ipairs(BINARY) do
            local zs = not op.nozero
            check(op[1], op[2](A, B), op[3], {A, B}, dtype, zs, op.mask)
            check(op[1] .. " row", op[2](Ar, Br), op[3], {Ar, Br}, dtype, zs, op.mask)
          end
        end
      end
    end
  end)

  it("binary operations with numbers, 1x1 matrices, broadcast rows and columns", function()
    for _, dtype in ipairs(DTYPES) do
      for _, sz in ipairs{{0, 3}, {3, 0}, {1, 1}, {5, 7}, {17, 3}, {3, 17}, {33, 2}} do
        local m, n = sz[1], sz[2]
        for _, view in ipairs{false, true} do
          local A = mat(m, n, 2, dtype, view)
          local others = {mat(m, n, 4, dtype, not view), mat(1, n, 5, dtype, view),
                          mat(m, 1, 7, dtype, view), mat(1, 1, 8, dtype, false)}
          for _, s in ipairs{0, -0.0, 2, 0.5, NAN, INF, -3} do others[#others + 1] = s end
          for _, op in ipairs(BINARY) do
            for _, X in ipairs(others) do
              check(op[1], op[2](A, X), op[3], {A, X}, dtype, not op.nozero, op.mask)
              check(op[1] .. " swapped", op[2](X, A), op[3], {X, A}, dtype, not op.nozero, op.mask)
            end
          end
        end
      end
    end
  end)

  it("A / s and A * s: a power of two as its exact reciprocal, else divided", function()
    for _, dtype in ipairs(DTYPES) do
      for len = 0, 40 do
        local A = mat(len, 2, 3, dtype, len % 2 == 1)
        for _, s in ipairs{2, -2, 0.5, 0.25, 1024, 2 ^ -20, 3, -0.1, 0, -0.0, INF, NAN,
                           2 ^ 1023, 2 ^ -1022, 2 ^ -1074, 2 ^ 127, 2 ^ -126} do
          check("A / " .. s, A / s, function(x, y) return x / y end, {A, s}, dtype, true)
          check(s .. " / A", s / A, function(x, y) return x / y end, {s, A}, dtype, true)
          check("A * " .. s, A * s, function(x, y) return x * y end, {A, s}, dtype, true)
        end
      end
    end
    -- subnormal quotients: x / 2^k rounds as x * 2^-k (one correctly rounded step)
    local tiny = la.matrix{{2 ^ -1074 * 3}, {2 ^ -1060 * 5 + 2 ^ -1074}, {-2 ^ -1073}}
    check("subnormal / 4", tiny / 4, function(x, y) return x / y end, {tiny, 4}, "float64", true)
  end)

  it("pow: squares, square roots and exact integer powers", function()
    local function sq(x) return x * x end
    -- pow(x, 0.5): sqrt, with pow's +0 for -0 and +inf for -inf (C99 F.9.4.4)
    local function root(x)
      if x == -INF then return INF end
      if x == 0 then return 0.0 end
      if x < 0 then return NAN end
      return math.sqrt(x)
    end
    for _, dtype in ipairs(DTYPES) do
      for len = 0, 67 do
        local A = mat(len, 1, 6, dtype, len % 3 == 1)
        check("pow(A, 2)", la.pow(A, 2), sq, {A}, dtype, true)
        check("pow(A, 0.5)", la.pow(A, 0.5), root, {A}, dtype, true)
      end
    end
    -- integer powers whose values are exact (negative ones of powers of
    -- two only), and C99's special cases: what Lua's ^ (libm's pow) gives
    local X = la.matrix{{3, -2, 0.5, -0.0, 0, 1, -1, INF, -INF, NAN, 10, 7, 2, -3, 0.25, 4, 1.5}}
    local T = la.matrix{{2, -2, 0.5, 4, -0.0, 0, 1, -1, INF, -INF, NAN, 0.25, 1024}}
    local I = la.matrix{{3, 4, 0, 1, 5, 10, INF, -INF, NAN, -0.0}}
    local pos, neg = {3, 4, 0, 1, 5, 10, INF, -INF, NAN, 0.0, -0.0}, {-1, -2, -3, -5}
    for _, dtype in ipairs(DTYPES) do
      local function ty(M) return dtype == "float32" and M:astype("float32") or M end
      local Xd, Td, Id = ty(X), ty(T), ty(I)
      local function pw(x, y) return x ^ y end
      for _, p in ipairs(pos) do
        check("pow(X, " .. p .. ")", la.pow(Xd, p), pw, {Xd, p}, dtype, true)
        check("pow(" .. p .. ", I)", la.pow(p, Id), pw, {p, Id}, dtype, true)
      end
      for _, p in ipairs(neg) do
        check("pow(T, " .. p .. ")", la.pow(Td, p), pw, {Td, p}, dtype, true)
      end
      local P = la.matrix{{3, 2, 0.5, 10, 4, 1.5, 7}}
      local E = la.matrix{{4, -3, 6, 15, 0.5, 2, 0}}
      if dtype == "float32" then P, E = P:astype("float32"), E:astype("float32") end
      check("pow(P, E)", la.pow(P, E), function(x, y) return x ^ y end, {P, E}, dtype, true)
    end
  end)

  it("pow with other exponents stays within 1 ulp of libm's pow", function()
    -- libmvec's SIMD pow (glibc); float64 only: the ulp is measured in double
    local A = la.rand(1000, 1, 4) * 20 + 0.01
    for _, p in ipairs{2.5, -1.7, 1 / 3, 7.25} do
      local Y = la.pow(A, p)
      for i = 1, 1000 do
        local x = A(i, 1)
        local ref = x ^ p
        local ulp = math.abs(ref) * 2 ^ -52
        assert(math.abs(Y(i, 1) - ref) <= ulp, "pow " .. p .. " at " .. i)
      end
    end
  end)

  it("where and clip with every operand shape, both types", function()
    local function where(c, x, y) if c ~= 0 then return x end return y end  -- NaN is true
    local function clip(x, lo, hi) return min(max(x, lo), hi) end
    for _, dtype in ipairs(DTYPES) do
      for len = 0, 67 do
        local view = len % 2 == 1
        local A, B, C = mat(len, 1, 3, dtype, view), mat(len, 1, 4, dtype, not view),
                        mat(len, 1, 9, dtype, view)
        local shapes = {{A, B, C}, {A, -1, 1}, {A, B, 0.5}, {A, -0.5, C}, {A, NAN, 1},
                        {A, 1, -1}, {A, -INF, INF}, {0.5, A, B}, {A, mat(1, 1, 2, dtype, false), C}}
        for _, ops in ipairs(shapes) do
          check("where", la.where(ops[1], ops[2], ops[3]), where, ops, dtype, true)
          check("clip", la.clip(ops[1], ops[2], ops[3]), clip, ops, dtype, false)
        end
      end
      for _, sz in ipairs{{5, 7}, {17, 3}, {1, 19}, {0, 4}} do
        local m, n = sz[1], sz[2]
        local A = mat(m, n, 5, dtype, true)
        local lo, hi = mat(1, n, 6, dtype, false), mat(m, 1, 7, dtype, true)
        check("clip broadcast", la.clip(A, lo, hi), clip, {A, lo, hi}, dtype, false)
        check("where broadcast", la.where(hi, A, lo), where, {hi, A, lo}, dtype, true)
      end
    end
  end)

  it("clip's NaN and lo > hi follow NumPy", function()
    -- numpy 1.24: np.clip([nan, -5, 5, 0.5], -1, 1) = [nan, -1, 1, 0.5];
    -- np.clip([0.5], 1, -1) = [-1.]; np.clip([0.5], nan, 1) = [nan]
    local C = la.clip(la.matrix{{NAN, -5, 5, 0.5}}, -1, 1)
    assert.is_true(C(1, 1) ~= C(1, 1))
    assert.are.same({-1, 1, 0.5}, {C(1, 2), C(1, 3), C(1, 4)})
    assert.are.equal(-1, la.clip(la.matrix{{0.5}}, 1, -1)(1, 1))
    local N = la.clip(la.matrix{{0.5}}, NAN, 1)(1, 1)
    assert.is_true(N ~= N)
  end)
end)

-- libmvec's vector functions and libm's scalar ones need not agree to the
-- bit (float64 sin: 166 of 300300 entries apart; float32 tan 1105), and the
-- entries past a column's last whole vector went to the scalar one: a
-- view's columns and its packed copy (one long column) gave other bits.
-- Now every entry goes through the vector loop (src/kernels/elementwise.c's
-- UNARY, loops.h's LAK_COL2V for atan2 and pow), so its bits do not
-- depend on where it sits.
describe("elementwise functions: an entry's bits do not depend on its place", function()
  local names = {"exp", "log", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "tanh", "sinh",
    "cosh", "asin", "acos", "atan", "log2", "log10"}
  for _, dt in ipairs{"float64", "float32"} do
    -- (one entry alone, a number or a column of one, is the scalar
    -- function's: math's value, la.exp(1) == math.exp(1) on every machine)
    it(dt .. ": a view with columns of 1001 (and 2 to 17) and its packed copy give the same bits", function()
      for _, m in ipairs{1001, 2, 7, 8, 9, 15, 16, 17} do
        local P = la.rand(m + 1, 61, m, {dtype = dt}) * 1.8 - 0.9
        local V = P:sub(1, m, 1, 61)
        local A = V:copy()
        for _, nm in ipairs(names) do
          local R, W = la[nm](A), la[nm](V)
          local nan = la.isnan(R)
          assert.is_true(la.all(la.eq(nan, la.isnan(W))), nm)
          assert.equal(0, la.count_nonzero(la.where(nan, 0, la.ne(R, W))), nm .. " m " .. m)
        end
        local Q = la.rand(m + 1, 61, m + 100, {dtype = dt}) * 1.8 - 0.9
        local U = Q:sub(1, m, 1, 61)
        local B = U:copy()
        for _, nm in ipairs{"atan2", "pow"} do
          local R, W = la[nm](A, B), la[nm](V, U)
          local nan = la.isnan(R)
          assert.is_true(la.all(la.eq(nan, la.isnan(W))), nm)
          assert.equal(0, la.count_nonzero(la.where(nan, 0, la.ne(R, W))), nm .. " m " .. m)
          -- a row of a view: its entries ld apart
          local r, w = la[nm](A:sub(1, 1, 1, 61), B:sub(1, 1, 1, 61)), la[nm](V:row(1), U:row(1))
          assert.is_true(la.all(la.where(la.isnan(r), 1, la.eq(r, w))), nm .. " row")
        end
      end
    end)
  end
end)
