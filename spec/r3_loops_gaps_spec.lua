-- The elementwise loops made vector loops in round 3's gap list: atan2
-- (libmvec's SIMD atan2), any / all / count_nonzero (a branch-free count of
-- nonzeros per column, per row or over everything) and round(A, decimals)
-- (a cloned loop of multiply, rint, divide). Each against a plain-Lua
-- reference, entry by entry, on lengths 0..67 (every vector body and tail),
-- on views whose leading dimension exceeds their rows, in float64 and
-- float32, with NaN, Inf and -0.0 among the inputs; atan2's special values
-- also against NumPy's.
local la = require "linalg"

local NAN, INF, PI = 0 / 0, math.huge, math.pi
local F32 = {dtype = "float32"}
local NZ = 1 / -math.huge                     -- -0.0 (Lua 5.1 folds the literal -0.0 to 0)
local atan2 = math.atan2 or math.atan          -- C's atan2 (libm) on every Lua

-- x and y the same number: NaN for NaN, the sign of zero too
local function ident(x, y)
  if x ~= x or y ~= y then return x ~= x and y ~= y end
  return x == y and (x ~= 0 or 1 / x == 1 / y)
end

-- an m x n matrix with entries f(i, j) in dtype; a view (rows 3.. of a
-- taller matrix, so ld = m + 4) when view
local function build(m, n, f, dtype, view)
  local opts = dtype == "float32" and F32 or nil
  local off = view and 2 or 0
  local P = la.zeros(m + 2 * off, n, opts)
  for j = 1, n do
    for i = 1, m + 2 * off do P:set(i, j, f(i - off, j)) end
  end
  if not view then return P end
  return P:sub(off + 1, off + m, 1, n)
end

local SIZES = {}
for k = 0, 67 do SIZES[#SIZES + 1] = k end

-- R is m x n and ok(R(i, j), want(i, j)) at every entry (else an error
-- naming what and the entry)
local function expect_all(R, m, n, want, ok, what)
  assert.are.same({m, n}, {R:shape()})
  for j = 1, n do
    for i = 1, m do
      local got, w = R(i, j), want(i, j)
      if not ok(got, w) then
        error(("%s at (%d, %d) of %dx%d: %.17g, want %.17g"):format(what, i, j, m, n, got, w))
      end
    end
  end
end

describe("atan2 (libmvec's vector loop)", function()
  -- numpy 1.24: np.arctan2(y, x) for every pair of these values (float64;
  -- float32 the same values rounded to float32, pi/4 and 3pi/4 within an ulp)
  local V = {0.0, NZ, 1.0, -1.0, INF, -INF, NAN, 2.5}
  local NP = {
    {0.0, 0.0, 0.0}, {0.0, NZ, PI}, {0.0, 1.0, 0.0}, {0.0, -1.0, PI}, {0.0, INF, 0.0},
    {0.0, -INF, PI}, {0.0, NAN, NAN}, {0.0, 2.5, 0.0}, {NZ, 0.0, NZ}, {NZ, NZ, -PI},
    {NZ, 1.0, NZ}, {NZ, -1.0, -PI}, {NZ, INF, NZ}, {NZ, -INF, -PI},
    {NZ, NAN, NAN}, {NZ, 2.5, NZ}, {1.0, 0.0, PI / 2}, {1.0, NZ, PI / 2},
    {1.0, 1.0, PI / 4}, {1.0, -1.0, 3 * PI / 4}, {1.0, INF, 0.0}, {1.0, -INF, PI},
    {1.0, NAN, NAN}, {1.0, 2.5, 0.3805063771123649}, {-1.0, 0.0, -PI / 2},
    {-1.0, NZ, -PI / 2}, {-1.0, 1.0, -PI / 4}, {-1.0, -1.0, -3 * PI / 4},
    {-1.0, INF, NZ}, {-1.0, -INF, -PI}, {-1.0, NAN, NAN}, {-1.0, 2.5, -0.3805063771123649},
    {INF, 0.0, PI / 2}, {INF, NZ, PI / 2}, {INF, 1.0, PI / 2}, {INF, -1.0, PI / 2},
    {INF, INF, PI / 4}, {INF, -INF, 3 * PI / 4}, {INF, NAN, NAN}, {INF, 2.5, PI / 2},
    {-INF, 0.0, -PI / 2}, {-INF, NZ, -PI / 2}, {-INF, 1.0, -PI / 2}, {-INF, -1.0, -PI / 2},
    {-INF, INF, -PI / 4}, {-INF, -INF, -3 * PI / 4}, {-INF, NAN, NAN}, {-INF, 2.5, -PI / 2},
    {NAN, 0.0, NAN}, {NAN, NZ, NAN}, {NAN, 1.0, NAN}, {NAN, -1.0, NAN}, {NAN, INF, NAN},
    {NAN, -INF, NAN}, {NAN, NAN, NAN}, {NAN, 2.5, NAN}, {2.5, 0.0, PI / 2},
    {2.5, NZ, PI / 2}, {2.5, 1.0, 1.1902899496825317}, {2.5, -1.0, 1.9513027039072615},
    {2.5, INF, 0.0}, {2.5, -INF, PI}, {2.5, NAN, NAN}, {2.5, 2.5, PI / 4},
  }

  -- got is want (float64: exactly; float32: zeros, NaN and signs exactly,
  -- the rest within 2 float32 ulps)
  local function close(got, want, dtype)
    if dtype == "float64" or want ~= want or want == 0 or got ~= got then
      return ident(got, want)
    end
    return math.abs(got - want) <= 2.4e-7 * math.abs(want)
  end

  for _, dtype in ipairs{"float64", "float32"} do
    it("gives NumPy's special values, signs of zero included, at every lane (" .. dtype .. ")",
      function()
        assert.are.equal(#V * #V, #NP)
        -- the 64 pairs shifted through a 67-long vector, so each pair
        -- meets every lane position and the tail
        for shift = 0, 8 do
          local n = #NP + shift
          local y = build(n, 1, function(i) return i > shift and NP[i - shift][1] or 0.5 end, dtype)
          local x = build(n, 1, function(i) return i > shift and NP[i - shift][2] or -0.5 end, dtype)
          local T = la.atan2(y, x)
          assert.are.equal(dtype, T.dtype)
          for k = 1, #NP do
            local got = T(k + shift, 1)
            if not close(got, NP[k][3], dtype) then
              error(("atan2(%g, %g) = %.17g, NumPy %.17g (%s, shift %d)"):format(
                NP[k][1], NP[k][2], got, NP[k][3], dtype, shift))
            end
          end
        end
      end)

    it("matches libm's atan2 within 4 ulp on ordinary values, lengths 0..67, views (" ..
       dtype .. ")", function()
      for _, m in ipairs(SIZES) do
        for _, view in ipairs{false, true} do
          local n = view and 3 or 1
          local fy = function(i, j) return ((i * 37 + j * 11) % 41 - 20) / 8 end
          local fx = function(i, j) return ((i * 13 + j * 29) % 43 - 21) / 16 end
          local Y, X = build(m, n, fy, dtype, view), build(m, n, fx, dtype, view)
          local tol = dtype == "float32" and 4.8e-7 or 9e-16
          expect_all(la.atan2(Y, X), m, n, function(i, j) return atan2(fy(i, j), fx(i, j)) end,
            function(got, want) return math.abs(got - want) <= tol * math.abs(want) or ident(got, want) end,
            "atan2 against libm")
        end
      end
    end)
  end

  it("broadcasts a number and a row (the fixed-operand loops)", function()
    local Y = build(37, 5, function(i, j) return (i - 19) / 4 + j end)
    local T1, T2 = la.atan2(Y, NZ), la.atan2(-1.5, Y)
    local r = build(1, 5, function(_, j) return j - 3 end)
    local T3 = la.atan2(Y, r)
    for j = 1, 5 do
      for i = 1, 37 do
        local y = (i - 19) / 4 + j
        assert.is_true(ident(T1(i, j), atan2(y, NZ)))
        assert.is_true(math.abs(T2(i, j) - atan2(-1.5, y)) <= 9e-16 * math.abs(atan2(-1.5, y)))
        local w = atan2(y, j - 3)
        assert.is_true(math.abs(T3(i, j) - w) <= 9e-16 * math.abs(w) or ident(T3(i, j), w))
      end
    end
  end)

  it("keeps hypot exact where it is exact (libm's, correctly rounded)", function()
    -- numpy 1.24: np.hypot([3, 5, 1, inf, nan], [4, 12, 1, nan, inf]) =
    -- [5, 13, 1.4142135623730951, inf, inf]
    local H = la.hypot(la.vector{3, 5, 1, INF, NAN}, la.vector{4, 12, 1, NAN, INF})
    assert.are.same({5, 13, 1.4142135623730951, INF, INF},
      {H(1), H(2), H(3), H(4), H(5)})
  end)
end)

describe("any / all / count_nonzero (the vector count)", function()
  -- entries: mostly zero, a few nonzero, NaN and NZ among them; full
  -- columns and full rows on some
  local function entry(i, j, s)
    local k = (i * 31 + j * 17 + s * 7) % 23
    if k == 0 then return NAN end
    if k == 1 then return NZ end
    if k == 2 then return INF end
    if k < 6 + s then return 0.0 end
    return (k - 11) / 4
  end

  local function check(A, f, m, n)
    local nz = function(i, j) local x = f(i, j) return x ~= 0 end
    local cnt, cols, rows = 0, {}, {}
    for j = 1, n do cols[j] = 0 end
    for i = 1, m do rows[i] = 0 end
    for j = 1, n do
      for i = 1, m do
        if nz(i, j) then cnt = cnt + 1; cols[j] = cols[j] + 1; rows[i] = rows[i] + 1 end
      end
    end
    assert.are.equal(cnt, la.count_nonzero(A))
    assert.are.equal(cnt > 0, la.any(A))
    assert.are.equal(cnt == m * n, la.all(A))
    local C1, R1 = la.count_nonzero(A, 1), la.count_nonzero(A, 2)
    local A1, A2, L1, L2 = la.any(A, 1), la.any(A, 2), la.all(A, 1), la.all(A, 2)
    assert.are.same({1, n}, {A1:shape()})
    assert.are.same({m, 1}, {A2:shape()})
    assert.are.equal(A.dtype, A1.dtype)
    for j = 1, n do
      assert.are.equal(cols[j], C1(1, j))
      assert.are.equal(cols[j] > 0 and 1 or 0, A1(1, j))
      assert.are.equal(cols[j] == m and 1 or 0, L1(1, j))
    end
    for i = 1, m do
      assert.are.equal(rows[i], R1(i, 1))
      assert.are.equal(rows[i] > 0 and 1 or 0, A2(i, 1))
      assert.are.equal(rows[i] == n and 1 or 0, L2(i, 1))
    end
  end

  for _, dtype in ipairs{"float64", "float32"} do
    it("counts along columns, rows and everything, sizes 0..67, views (" .. dtype .. ")", function()
      for _, m in ipairs(SIZES) do
        for _, view in ipairs{false, true} do
          for s = 0, 18, 9 do                  -- s = 18: no zeros at all (all true)
            local n = (m % 5) + (view and 1 or 0)
            local f = function(i, j)
              if s == 18 then local x = entry(i, j, 0) return x == 0 and 2.5 or x end
              return entry(i, j, s)
            end
            check(build(m, n, f, dtype, view), f, m, n)
          end
        end
      end
    end)
  end

  it("is true for all and false for any when empty; a full row is all", function()
    assert.is_false(la.any(la.zeros(0, 3)))
    assert.is_true(la.all(la.zeros(3, 0)))
    assert.are.same({1, 3}, {la.all(la.zeros(0, 3), 1):shape()})
    assert.are.equal(1, la.all(la.zeros(0, 3), 1)(1, 3))
    assert.are.equal(0, la.any(la.zeros(0, 3), 1)(1, 2))
    local A = la.matrix{{1, NAN, -2}, {0, 3, 4}}
    assert.are.equal(1, la.all(A, 2)(1, 1))     -- NaN counts as nonzero
    assert.are.equal(0, la.all(A, 2)(2, 1))
    assert.are.equal(5, la.count_nonzero(A))
  end)
end)

describe("round(A, decimals) (the vector loop)", function()
  -- IEEE rint: to the nearest integer, halves to even, the sign kept
  local function rint(y)
    if y ~= y or math.abs(y) >= 2 ^ 52 then return y end
    local f = math.floor(y)
    local d = y - f                            -- exact below 2^52
    local r = f
    if d > 0.5 or (d == 0.5 and f % 2 ~= 0) then r = f + 1 end
    if r == 0 and (y < 0 or 1 / y < 0) then r = NZ end
    return r
  end
  -- NumPy's steps: rint(x * 10^d) / 10^d, or rint(x / 10^-d) * 10^-d
  local function ref(x, d)
    if d >= 0 then local f = 10.0 ^ d return rint(x * f) / f end
    local f = 10.0 ^ -d
    return rint(x / f) * f
  end
  local SPECIAL = {NAN, INF, -INF, NZ, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.125, 0.375,
                   NZ01, 1e300, -1e-300, 2 ^ 52 + 1, 4503599627370495.5}
  local function entry(i, j)
    local k = (i - 1) * 7 + j
    if k >= 1 and k <= #SPECIAL and i % 2 == 1 then return SPECIAL[k] end
    return ((i * 7919 + j * 104729) % 20001 - 10000) / 777
  end

  it("is NumPy's multiply, rint, divide, bit for bit, sizes 0..67, views (float64)", function()
    for _, d in ipairs{0, 1, 2, 3, -1, -2, 15} do
      for _, m in ipairs(SIZES) do
        for _, view in ipairs{false, true} do
          local n = view and 2 or 1
          expect_all(la.round(build(m, n, entry, "float64", view), d), m, n,
            function(i, j) return ref(entry(i, j), d) end, ident, "round(A, " .. d .. ")")
        end
      end
    end
  end)

  it("rounds float32 in float32 (exact on eighths; signs and specials kept)", function()
    local vals = {0.5, 1.5, 2.5, -2.5, -0.5, 0.125, -0.375, 0.625, NAN, INF, -INF, NZ, 3.875}
    for _, m in ipairs(SIZES) do
      local f = function(i) return vals[(i - 1) % #vals + 1] * (1 + (i - 1) % 3) end
      local A = build(m, 1, f, "float32", m % 2 == 1)
      local R0, R1 = la.round(A), la.round(A, 1)
      assert.are.equal("float32", R1.dtype)
      for i = 1, m do
        assert.is_true(ident(R0(i, 1), rint(f(i))))
        -- eighths times 10 are exact in float32, so NumPy's steps are exact here
        assert.is_true(ident(R1(i, 1), rint(f(i) * 10) / 10) or
                       math.abs(R1(i, 1) - rint(f(i) * 10) / 10) <= 6e-8 * math.abs(R1(i, 1)))
      end
    end
  end)

  it("gives NumPy's values on the documented examples", function()
    -- numpy 1.24: np.round([2.675, -0.125, 1234.5, 0.5, 1.5], 2) =
    -- [2.68, -0.12, 1234.5, 0.5, 1.5] (2.675 * 100 rounds up to 267.5, which rints to 268); np.round(1234.5678, -2) = 1200.0
    local R = la.round(la.vector{2.675, -0.125, 1234.5, 0.5, 1.5}, 2)
    assert.are.same({2.68, -0.12, 1234.5, 0.5, 1.5}, {R(1), R(2), R(3), R(4), R(5)})
    assert.are.equal(1200.0, la.round(la.vector{1234.5678}, -2)(1))
  end)

  it("diff of order 1 is the entry after minus the entry, on views, along both dims, both types", function()
    -- one subtraction an entry, as NumPy's np.diff(a, 1, axis): exact
    for _, sz in ipairs{{1, 1}, {2, 3}, {7, 5}, {17, 9}, {33, 2}} do
      local m, n = sz[1], sz[2]
      local P = la.randn(m + 3, n + 2, m * n)
      P:set(1, 1, NAN)
      local A = P:sub(2, m + 1, 2, n + 1)                -- a view: ld > rows
      for _, T in ipairs{A, A:astype("float32")} do
        for dim = 1, 2 do
          local D = la.diff(T, 1, dim)
          local r, c = dim == 1 and m - 1 or m, dim == 2 and n - 1 or n
          assert.are.same({r, c, T.dtype}, {D:rows(), D:cols(), D.dtype})
          for i = 1, r do
            for j = 1, c do
              local want = dim == 1 and T:get(i + 1, j) - T:get(i, j) or T:get(i, j + 1) - T:get(i, j)
              if T.dtype == "float32" then want = la.vector{want}:astype("float32")(1) end
              assert.are.equal(want, D:get(i, j))
            end
          end
        end
      end
    end
  end)
end)
