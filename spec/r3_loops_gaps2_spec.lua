-- argmin/argmax (one vectorized pass with per-lane indices), min/max/ptp
-- down columns, prod (running products in vectors) and sort's values-only
-- path ({indices = false}) against plain-Lua references: every row count
-- 0..67 and around the vector widths (2 to 16 lanes, 4 vectors a step),
-- views with ld > rows, float32 and float64, ties (the first index wins),
-- the first NaN winning, -0.0/+0.0, Inf. The kernels' other vector widths
-- (AVX2, SSE2) are checked by spec/kernels/reduce.c.
local la = require "linalg"

local nan, inf = 0 / 0, math.huge
local negz = -1 / inf      -- -0.0 (Lua 5.1 folds the literal -0.0 to 0)

local SIZES = {}
for r = 0, 67 do SIZES[#SIZES + 1] = r end
for _, r in ipairs{95, 96, 97, 127, 128, 129, 255, 256, 257, 300} do SIZES[#SIZES + 1] = r end

-- a rows x cols matrix of the values vals (many ties), placed by a seed;
-- as a view with ld = rows + 3 when view is set
local function build(rows, cols, vals, seed, dtype, view)
  local P = la.zeros(rows + 3, cols + 1, {dtype = dtype})
  for j = 1, cols + 1 do
    for i = 1, rows + 3 do
      seed = (seed * 69069 + 12345) % 4294967296
      P:set(i, j, vals[math.floor(seed / 16777216) % #vals + 1])
    end
  end
  if rows == 0 then return la.zeros(0, cols, {dtype = dtype}) end
  if view then return P:sub(2, rows + 1, 2, cols + 1) end
  return P:sub(1, rows, 1, cols):copy()
end

-- column j of A as a Lua array
local function column(A, j)
  local r = A:shape()
  local t = {}
  for i = 1, r do t[i] = A(i, j) end
  return t
end

-- the 1-based index of the first NaN, else of the first extreme
local function refarg(t, max)
  local at = 1
  for i = 1, #t do
    if t[i] ~= t[i] then return i end
    if (max and t[i] > t[at]) or (not max and t[i] < t[at]) then at = i end
  end
  return at
end

local function same(a, b)      -- equal, NaN equal to NaN, zeros by sign
  if a ~= a then return b ~= b end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

local VALS = {
  ints = {3, -1, 2, 2, 0, -5, 7, 7, 1},
  special = {1, -2, nan, 4, inf, -inf, 0, negz, 4, -2},
  zeros = {0, negz, negz, 0, -1},
}

-- the number of columns j (of every matrix of SIZES rows > 0, cols
-- columns, each VALS kind and type, views for rows % vmod == 0) where
-- ok(A, j, t) is false, t column j as an array
local function failures(cols, vmod, ok)
  local fails = 0
  for _, dtype in ipairs{"float64", "float32"} do
    for _, kind in ipairs{"ints", "special", "zeros"} do
      for _, rows in ipairs(SIZES) do
        if rows > 0 then
          local A = build(rows, cols, VALS[kind], rows * 7 + #kind, dtype, rows % vmod == 1)
          for j = 1, cols do
            if not ok(A, j, column(A, j)) then fails = fails + 1 end
          end
        end
      end
    end
  end
  return fails
end

describe("argmax/argmin down columns, vectorized with lane indices", function()
  it("the first extreme (first NaN) of every column, awkward sizes, views, both types", function()
    assert.equal(0, failures(3, 2, function(A, j, t)
      return (A:argmax(1))(1, j) == refarg(t, true) and (A:argmin(1))(1, j) == refarg(t, false)
    end))
  end)

  it("ties: the first index wins across lanes and vectors", function()
    for _, dtype in ipairs{"float64", "float32"} do
      for _, n in ipairs{9, 17, 33, 64, 65, 100, 1000} do
        local v = la.zeros(n, 1, {dtype = dtype})
        v:set(n, 1, 5); v:set(math.floor(n / 2) + 1, 1, 5)        -- two maxima
        v:set(n - 1, 1, -5); v:set(2, 1, -5)                       -- two minima
        assert.equal(math.floor(n / 2) + 1, (v:argmax(1))(1, 1))
        assert.equal(2, (v:argmin(1))(1, 1))
      end
    end
  end)

  it("the first NaN wins, before and after an Inf; -0.0 and +0.0 tie", function()
    for _, dtype in ipairs{"float64", "float32"} do
      for _, n in ipairs{5, 40, 129, 3000} do
        local v = la.zeros(n, 1, {dtype = dtype})
        v:set(1, 1, inf); v:set(n, 1, nan); v:set(n - 2, 1, nan)
        assert.equal(n - 2, (v:argmax(1))(1, 1))
        assert.equal(n - 2, (v:argmin(1))(1, 1))
        local z = la.zeros(n, 1, {dtype = dtype})
        z:set(1, 1, negz)                                          -- -0 then +0s
        assert.equal(1, (z:argmax(1))(1, 1))
        assert.equal(1, (z:argmin(1))(1, 1))
        assert.equal(inf, 1 / (z:max(1))(1, 1))                    -- max +0
        assert.equal(-inf, 1 / (z:min(1))(1, 1))                   -- min -0
      end
    end
  end)

  it("a long vector (several 4-vector steps, a ragged tail) and its flat index", function()
    for _, dtype in ipairs{"float64", "float32"} do
      local n = 10007
      local x = la.zeros(n, 1, {dtype = dtype})
      for i = 1, n do x:set(i, 1, (i * 37) % 101) end             -- 100 first at i = 30
      local r, c = x:argmax()
      assert.same({30, 1}, {r, c})
      assert.equal(refarg(column(x, 1), true), r)
      x:set(9999, 1, 200)
      r = x:argmax()
      assert.equal(9999, r)
      x:set(10007, 1, -inf)
      r = x:argmin()
      assert.equal(10007, r)
    end
  end)
end)

describe("min/max/ptp down columns, prod", function()
  it("min, max and ptp of every column equal the plain loops", function()
    assert.equal(0, failures(2, 3, function(A, j, t)
      local hi, lo = t[refarg(t, true)], t[refarg(t, false)]
      -- of -0.0 and +0.0, +0.0 is the max and -0.0 the min (IEEE 754-2019)
      if hi == 0 then for _, x in ipairs(t) do if x == 0 and 1 / x > 0 then hi = 0 end end end
      if lo == 0 then for _, x in ipairs(t) do if x == 0 and 1 / x < 0 then lo = negz end end end
      return same((A:max(1))(1, j), hi) and same((A:min(1))(1, j), lo) and
             same(la.ptp(A, 1)(1, j), hi - lo)
    end))
  end)

  it("prod of each column and of all entries: exact products of powers of 2", function()
    local fails = 0
    for _, dtype in ipairs{"float64", "float32"} do
      for _, rows in ipairs(SIZES) do
        local A = build(rows, 3, {1, -1, 2, 0.5, -2, 1}, rows + 11, dtype, rows % 2 == 0)
        local P = A:prod(1)
        local all = 1
        for j = 1, 3 do
          local p = 1
          for _, x in ipairs(column(A, j)) do p = p * x end
          all = all * p
          if P(1, j) ~= p then fails = fails + 1 end
        end
        if A:prod() ~= all then fails = fails + 1 end
      end
    end
    assert.equal(0, fails)
  end)

  it("prod: a zero, an Inf and a NaN anywhere in a long line", function()
    local x = la.ones(1000, 1)
    x:set(999, 1, 0)
    assert.equal(0, x:prod())
    x:set(3, 1, inf)
    assert.is_true(x:prod() ~= x:prod())                    -- 0 * Inf
    x:set(999, 1, 2)
    assert.equal(inf, x:prod())
    x:set(500, 1, nan)
    assert.is_true(x:prod() ~= x:prod())
  end)
end)

describe("sort {indices = false}", function()
  -- the stable sort of t by value (-0.0 equal to 0.0; NaN last, or first
  -- when descending)
  local function refsort(t, desc)
    local p = {}
    for i = 1, #t do p[i] = i end
    table.sort(p, function(a, b)
      local x, y = t[a], t[b]
      local xn, yn = x ~= x, y ~= y
      if xn or yn then
        if xn and yn then return a < b end
        if desc then return xn end
        return yn
      end
      if x == y then return a < b end
      if desc then return x > y end
      return x < y
    end)
    local s = {}
    for i = 1, #t do s[i] = t[p[i]] end
    return s
  end

  it("S alone, the stable sort's bit for bit: zeros' signs and NaNs in input order", function()
    local fails = 0
    for _, dtype in ipairs{"float64", "float32"} do
      for _, kind in ipairs{"ints", "special", "zeros"} do
        for _, rows in ipairs{0, 1, 2, 15, 16, 17, 67, 255, 256, 257, 300, 1000} do
          for _, desc in ipairs{false, true} do
            local A = build(rows, 3, VALS[kind], rows + #kind, dtype, rows % 2 == 1)
            local S = A:sort(1, {indices = false, descending = desc})
            local R = A:sort(2, {indices = false, descending = desc})
            assert.same({rows, 3}, {S:shape()})
            for j = 1, 3 do
              local s = refsort(column(A, j), desc)
              for i = 1, rows do if not same(S(i, j), s[i]) then fails = fails + 1 end end
            end
            for i = 1, rows do
              local t = {A(i, 1), A(i, 2), A(i, 3)}
              local s = refsort(t, desc)
              for j = 1, 3 do if not same(R(i, j), s[j]) then fails = fails + 1 end end
            end
          end
        end
      end
    end
    assert.equal(0, fails)
  end)

  it("returns one value of A's type; the default still returns S, I", function()
    local A = la.matrix(3, 2, 1):astype("float32")
    assert.equal(1, select("#", A:sort(1, {indices = false})))
    assert.equal("float32", A:sort(1, {indices = false}).dtype)
    assert.equal(2, select("#", A:sort(1, {indices = true})))
    assert.equal(2, select("#", A:sort(1)))
    local v = la.vector({3, negz, 1, 0, nan, -2})
    local S = v:sort({indices = false})
    assert.same({-2, 0, 0, 1, 3}, {S(1, 1), S(2, 1), S(3, 1), S(4, 1), S(5, 1)})
    assert.equal(-inf, 1 / S(2, 1))                         -- -0.0 came first
    assert.equal(inf, 1 / S(3, 1))
    assert.is_true(S(6, 1) ~= S(6, 1))
  end)

  it("argsort takes no 'indices' option; a non-boolean is an error", function()
    local A = la.matrix(2, 2, 1)
    assert.has_error(function() A:argsort(1, {indices = false}) end)
    local ok, err = pcall(la.sort, A, 1, {indices = 3})
    assert.is_false(ok)
    assert.truthy(tostring(err):find("sort", 1, true))
  end)
end)
