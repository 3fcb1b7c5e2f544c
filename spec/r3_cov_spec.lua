-- la.cov and la.corrcoef: NumPy's cov and corrcoef, the observations in
-- rows by default (NumPy's rowvar=False, Octave's cov). Expected values from
-- NumPy 1.24.2 (np.cov(X, rowvar=False), ... printed with repr); linalg's
-- product is one dsyrk where NumPy's is a dgemm, so entries are compared to
-- 4 ulp of the largest entry.
local la = require "linalg"

local X = la.matrix{{0.5, -2.0, 3.25, 7.0}, {1.5, 4.0, -1.0, 2.0}, {9.0, 0.25, 3.25, -6.5},
                    {-3, 8, 0, 1}, {2.5, 2.5, 5.5, 4.75}}
local EPS = 2.220446049250313e-16

local function near(want, got, ulps)
  local g = got:totable()
  local scale = 0
  for i = 1, #want do for j = 1, #want[i] do scale = math.max(scale, math.abs(want[i][j])) end end
  assert.are.same({#want, #want[1]}, {got:shape()})
  for i = 1, #want do
    for j = 1, #want[i] do
      local gij = type(g[i]) == "table" and g[i][j] or g[i]
      assert.is_true(math.abs(want[i][j] - gij) <= (ulps or 4) * EPS * scale,
                     string.format("(%d, %d): %.17g ~= %.17g", i, j, want[i][j], gij))
    end
  end
end

describe("la.cov", function()
  it("is NumPy's cov of the columns, or of the rows with rowvar", function()
    near({{19.175, -9.31875, 5.00625, -15.112500000000002}, {-9.31875, 14.45, -5.996875, -2.1968749999999995},
          {5.00625, -5.996875, 7.04375, 1.8999999999999997}, {-15.112500000000002, -2.1968749999999995, 1.8999999999999997, 26.3}},
         la.cov(X))
    near({{14.890625, -3.5729166666666665, -14.6875, -7.875, 4.671875},
          {-3.5729166666666665, 4.229166666666666, -3.833333333333333, 6.583333333333333, -2.34375},
          {-14.6875, -3.833333333333333, 41.625, -13.5, -4.25},
          {-7.875, 6.583333333333333, -13.5, 21.666666666666664, -1.875},
          {4.671875, -2.34375, -4.25, -1.875, 2.390625}}, la.cov(X, {rowvar = true}))
    assert.is_true(la.cov(X, {rowvar = true}) == la.cov(X:t()))
  end)

  it("takes Y's variables after X's, ddof and bias, vectors as one variable", function()
    near({{15.340000000000002, -7.455}, {-7.455, 11.56}}, la.cov(X:col(1), X:col(2), {bias = true}))
    near({{6.674999999999999, -7.995833333333334, 9.391666666666666, 2.5333333333333328}},
         la.cov(X, {ddof = 2}):slice(3, ":"))
    near({{19.175, -9.31875, 5.00625, -15.112500000000002}},
         la.cov(X:slice(":", "1:2"), X:slice(":", "3:4")):slice(1, ":"))
    -- a row vector and a column of the same entries: the variance, 1 x 1
    local v = la.vector{1, 2, 4, 8}
    assert.is_true(la.cov(v) == la.cov(v:t()))
    near({{la.var(v, {ddof = 1})}}, la.cov(v), 2)
    -- a symmetric result, and a float32 one for float32 data
    local C = la.cov(la.randn(50, 6, 3))
    assert.is_true(C == C:t())
    assert.are.equal("float32", la.cov(X:astype("float32")).dtype)
    assert.are.same({0, 0}, {la.cov(la.zeros(5, 0)):shape()})
    -- a table of rows is Y, an options table without a list part the options
    local T = {{1, 2}, {3, 5}, {4, 4}, {0, 1}, {2, 2}}
    assert.is_true(la.cov(X, T) == la.cov(X, la.matrix(T)))
    assert.is_true(la.cov(X, T, {ddof = 0}) == la.cov(X, la.matrix(T), {bias = true}))
    -- a negative ddof as NumPy's (n - ddof = 6 here): the same sums over 6
    near((la.cov(X) * (4 / 6)):totable(), la.cov(X, {ddof = -1}), 2)
    assert.is_true(la.cov(X, {}, {rowvar = true}) == la.cov(X, {rowvar = true}))
  end)

  it("of 1000 observations of 12 variables (the thin X^T X kernel) within a sum's bound", function()
    -- the reference in Lua: means, then sum (x_a - m_a)(x_b - m_b) / 999
    local X = la.randn(1000, 12, 11) * 3 + 1
    local C = la.cov(X)
    assert.is_true(C == C:t())
    local m = {}
    for a = 1, 12 do
      local s = 0
      for r = 1, 1000 do s = s + X(r, a) end
      m[a] = s / 1000
    end
    for a = 1, 12, 3 do
      for b = a, 12, 2 do
        local s, sa = 0, 0
        for r = 1, 1000 do
          local t = (X(r, a) - m[a]) * (X(r, b) - m[b])
          s, sa = s + t, sa + math.abs(t)
        end
        assert.is_true(math.abs(C(a, b) - s / 999) <= 2000 * EPS * sa / 999,
                       string.format("(%d, %d): %.17g ~= %.17g", a, b, C(a, b), s / 999))
      end
    end
  end)

  it("scales each sum after summing, as NumPy: sums past the largest double are Inf", function()
    -- np.cov(X * 1e153, rowvar=False)[0, 0] is inf (NumPy 1.24): the sum of
    -- squares overflows before the division by n - 1; both product paths
    -- (up to 32 variables, and more)
    for _, p in ipairs{12, 33} do
      local C = la.cov(la.randn(257, p, 1) * 1e153)
      assert.are.equal(math.huge, C(1, 1))
      assert.is_true(C == C:t())
    end
  end)

  it("names what is wrong", function()
    assert.error_matches(function() la.cov(X, {ddof = 5}) end,
      "linalg.cov: 5 observations and ddof = 5.0 leave no degrees of freedom", 1, true)
    assert.error_matches(function() la.cov(X, la.ones(4, 2)) end, "linalg.cov: X has 5 observations, Y 4", 1, true)
    assert.error_matches(function() la.cov(X, {rowvr = true}) end, "unknown option 'rowvr' (did you mean 'rowvar'?)", 1, true)
    assert.error_matches(function() la.cov(X, {ddof = 0.5}) end, "option 'ddof' must be an integer below 2^53 in magnitude", 1, true)
    assert.error_matches(function() la.cov(X, {ddof = 0 / 0}) end, "option 'ddof' must be an integer below 2^53 in magnitude", 1, true)
    assert.error_matches(function() la.cov(X, {ddof = -math.huge}) end, "option 'ddof' must be an integer below 2^53 in magnitude", 1, true)
    assert.error_matches(function() la.cov("x") end, "linalg.cov", 1, true)
    -- variables without observations (found by a review: a crash, and a read past X)
    assert.error_matches(function() la.cov(la.zeros(0, 3)) end,
      "linalg.cov: 0 observations and ddof = 1.0 leave no degrees of freedom", 1, true)
    assert.error_matches(function() la.corrcoef(la.zeros(3, 0), {rowvar = true}) end,
      "linalg.corrcoef: 0 observations", 1, true)
    assert.error_matches(function() la.cov(la.zeros(0, 3), la.ones(5, 2)) end,
      "linalg.cov: X has 0 observations, Y 5", 1, true)
    -- the count of variables past an int (found by the fuzzer under UBSan: a signed overflow)
    local E = la.zeros(2147483647, 0)
    assert.error_matches(function() la.cov(E, E, {rowvar = true}) end,
      "linalg.cov: more than 2147483647 variables", 1, true)
    assert.error_matches(function() la.corrcoef(E, E, {rowvar = true}) end,
      "linalg.corrcoef: more than 2147483647 variables", 1, true)
  end)
end)

describe("la.corrcoef", function()
  it("is NumPy's corrcoef, clipped to [-1, 1]", function()
    near({{1.0, -0.559829849626143, 0.43076745106074205, -0.6729623279006592},
          {-0.5598298496261429, 0.9999999999999999, -0.5944141047505203, -0.11269211996266688},
          {0.430767451060742, -0.5944141047505201, 1.0, 0.1395962526043651},
          {-0.6729623279006592, -0.11269211996266687, 0.1395962526043651, 1.0}}, la.corrcoef(X))
    near({{1.0, -0.6729623279006592}, {-0.6729623279006592, 1.0}}, la.corrcoef(X:col(1), X:col(4)))
    -- perfectly correlated columns: exactly 1 and -1 or within rounding, never beyond
    local t = la.randn(1000, 1, 5)
    local R = la.corrcoef(la.hstack{t, t * 3 + 1, -t})
    for i = 1, 3 do for j = 1, 3 do assert.is_true(math.abs(R(i, j)) <= 1) end end
    assert.is_true(math.abs(R(1, 3) + 1) < 1e-15)
    -- a constant column: NaN, as NumPy's (0 / 0)
    local K = la.corrcoef(la.hstack{t, la.ones(1000, 1)})
    assert.is_true(K(2, 2) ~= K(2, 2) and K(1, 2) ~= K(1, 2))
  end)

  it("corrcoef of one variable is exactly 1 (NumPy's scalar case, c / c), NaN when constant", function()
    -- NumPy 1.24: np.corrcoef(v, rowvar=False) of a 7 x 1 v is 1.0; the
    -- division by the standard deviation twice gave 0.99999999999999989
    for seed = 1, 20 do
      for _, dt in ipairs{"float64", "float32"} do
        local v = la.randn(7, 1, seed):astype(dt)
        assert.are.equal(1, la.corrcoef(v)(1, 1), dt .. " seed " .. seed)
        assert.are.equal(1, la.corrcoef(v:t(), {rowvar = true})(1, 1))
      end
    end
    local c = la.corrcoef(la.ones(5, 1))(1, 1)
    assert.is_true(c ~= c)
  end)
end)
