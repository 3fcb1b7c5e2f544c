-- la.median, la.quantile, la.percentile: NumPy's median, quantile and
-- percentile (method "linear"). Expected values from NumPy 1.24.2
-- (np.median(A), np.median(A, 0), np.quantile(A, q, 1), ... printed with
-- repr), compared exactly; and random lines against NumPy at run time when
-- /usr/bin/python3 has it.
local sh = require("interp").sh
local la = require "linalg"

local A = la.matrix{{0.5, -2.0, 3.25, 7.0}, {1.5, 4.0, -1.0, 2.0}, {9.0, 0.25, 3.25, -6.5},
                    {-3.0, 8.0, 0.0, 1.0}, {2.5, 2.5, 5.5, 4.75}}
local NAN = 0 / 0

local function same(want, got)
  if type(want) == "number" then
    assert.is_true(want == got or (want ~= want and got ~= got), string.format("%.17g ~= %.17g", want, got))
    return
  end
  assert.are.same(want, got:totable())
end

describe("la.median", function()
  it("is NumPy's over every entry and along each dim", function()
    same(2.25, la.median(A))
    same({{1.5, 2.5, 3.25, 2.0}}, la.median(A, 1))
    same({1.875, 1.75, 1.75, 0.5, 3.625}, la.median(A, 2))
    same({{1.0, 2.125, 1.625, 1.5}}, la.median(A:slice("1:4", ":"), 1))   -- an even count: a view
    same(2.25, A:median())
  end)

  it("keeps the type along a dim and gives NaN for a line with one, as NumPy", function()
    local F = A:astype("float32")
    assert.are.equal("float32", la.median(F, 1).dtype)
    same({{1.5, 2.5, 3.25, 2.0}}, la.median(F, 1))
    local B = A:copy()
    B:set(2, 3, NAN)
    local m = la.median(B, 1)
    assert.is_true(m(1, 3) ~= m(1, 3))
    same(1.5, m(1, 1))
    same(NAN, la.median(B))
    -- NumPy: median([-inf, inf]) = nan, median([1, inf]) = inf, median([1.7e308] * 2) = inf
    same(NAN, la.median(la.vector{-math.huge, math.huge}))
    same(math.huge, la.median(la.vector{1, math.huge}))
    same(math.huge, la.median(la.vector{1.7e308, 1.7e308}))
  end)

  it("finds the middle of lines with many ties and of long ones", function()
    local z = la.zeros(100001, 1)
    z:set(7, 1, -1); z:set(99, 1, 2)
    same(0, la.median(z))
    same(1, la.median(la.ones(5000, 1)))
    -- 1..n in a random order: the median is (n + 1) / 2
    for _, n in ipairs{1, 2, 3, 17, 4096, 4097, 100000} do
      local y = la.arange(1, n + 1):slice(la.randn(n, 1, n):argsort(), ":")
      same((n + 1) / 2, la.median(y))
      same((n + 1) / 2, la.quantile(y, 0.5))
      same(1 + (n - 1) * 0.25, la.quantile(y, 0.25))
    end
  end)

  it("names what is wrong", function()
    assert.error_matches(function() la.median(la.zeros(0, 3)) end, "linalg.median: median of an empty matrix", 1, true)
    assert.error_matches(function() la.median(la.zeros(0, 3), 1) end, "median of an empty dimension", 1, true)
    assert.are.same({0, 1}, {la.median(la.zeros(0, 3), 2):shape()})
    assert.error_matches(function() la.median(A, 3) end, "linalg.median", 1, true)
    assert.error_matches(function() la.median("x") end, "linalg.median", 1, true)
  end)
end)

describe("la.quantile and la.percentile", function()
  it("are NumPy's (method 'linear') for a number and for a list of quantiles", function()
    same(2.25, la.quantile(A, 0.5))
    same({-6.5, -2.0999999999999996, 0.1875, 2.25, 7.100000000000001, 9.0},
         la.quantile(A, {0, 0.1, 0.25, 0.5, 0.9, 1}))
    -- along dim 1: k x n, the quantiles in the order given
    same({{6.4, 6.4, 4.6000000000000005, 6.1000000000000005}, {-1.5999999999999999, -1.1, -0.6, -3.5},
          {0.8200000000000001, 0.9700000000000002, 1.0400000000000003, 1.32}},
         la.quantile(A, la.vector{0.9, 0.1, 0.33}, 1))
    -- along dim 2: m x k (NumPy's np.quantile(A, q, 1) transposed)
    same({{5.875000000000001, -1.25, 0.475}, {3.4000000000000004, -0.2499999999999999, 1.475},
          {7.275000000000001, -4.475, 0.18249999999999994}, {5.900000000000001, -2.0999999999999996, -0.030000000000000027},
          {5.275, 2.5, 2.5}}, la.quantile(A, {0.9, 0.1, 0.33}, 2))
    same({0.84375, 1.5625, 0.625, 0.125, 2.78125}, la.percentile(A, 37.5, 2))
    same(0.16666666666666666, la.quantile(la.vector{0.1, 0.7, 0.2, 1e300, -1e300, 3}, 1 / 3))
    -- NumPy's interpolation between infinities: nan
    same(NAN, la.quantile(la.vector{1, math.huge}, 0.5))
    -- q at an entry (0, 1, or (n - 1) q whole) is that entry, infinite too: NumPy's for integer
    -- q (np.quantile([-inf, 8, inf], [0, 1]) = [-inf, inf]); its float 1.0 gives nan there
    same(math.huge, la.quantile(la.vector{1, math.huge}, 1))
    same({-math.huge, 8, math.huge}, la.quantile(la.vector{math.huge, 8, -math.huge}, {0, 0.5, 1}))
  end)

  it("gives an empty result for no quantiles, as NumPy's shape (0,)", function()
    assert.are.same({0, 1}, {la.quantile(A, {}):shape()})
    assert.are.same({0, 4}, {la.quantile(A, la.zeros(0, 1), 1):shape()})
    assert.are.same({5, 0}, {la.percentile(A, {}, 2):shape()})
  end)

  it("is NumPy's for float32 lines: the median in float32, the neighbours' difference in float32", function()
    -- NumPy 1.24.2: np.median of float32 [1, 1 + 2^-23] is 1.0, of [3e38, 3e38] inf; quantiles of b
    same(1.0, la.median(la.matrix({{1, 1 + 2 ^ -23}}, {dtype = "float32"})))
    same(math.huge, la.median(la.matrix({{3e38, 3e38}}, {dtype = "float32"})))
    same(0.25, la.median(la.vector({0.1, 0.2, 0.7, 0.3}, {dtype = "float32"})))
    local b = la.vector({-0.8019314408302307, -1.3243589401245117, -0.24836161732673645, 0.4204452335834503,
                         1.1360465288162231}, {dtype = "float32"})
    same(-0.5066154757375263, la.quantile(b, 0.38336888078551823))     -- NumPy's float64 result
    local q = la.quantile(b, {0.1, 0.38336888078551823, 0.9})          -- float32: NumPy's rounded
    assert.are.equal("float32", q.dtype)
    local want = {-1.1153879404067992, -0.5066154757375263, 0.8498059988021851}
    local w32 = la.vector(want):astype("float32")
    for i = 1, 3 do same(w32(i, 1), q(i, 1)) end
  end)

  it("takes many quantiles in any order at the cost of a few", function()
    local x = la.randn(20001, 1, 9)
    local q = la.linspace(1, 0, 1001)                   -- descending: results in the order given
    local r = la.quantile(x, q)
    for i = 1, 1001, 50 do same(la.quantile(x, q(i, 1)), r(i, 1)) end
    same(x:min(), r(1001, 1))
    same(x:max(), r(1, 1))
  end)

  it("percentile p is quantile p / 100, bit for bit", function()
    local x = la.randn(1001, 3, 4)
    for _, p in ipairs{0, 1, 12.5, 33.3, 50, 99.9, 100} do
      assert.is_true(la.percentile(x, p, 1) == la.quantile(x, p / 100, 1))
    end
  end)

  it("checks q and p", function()
    assert.error_matches(function() la.quantile(A, 1.5) end, "linalg.quantile: quantiles must be in [0, 1], got 1.5", 1, true)
    assert.error_matches(function() la.quantile(A, {0.5, NAN}) end, "quantiles must be in [0, 1], got ", 1, true)
    assert.error_matches(function() la.percentile(A, -1) end, "linalg.percentile: percentiles must be in [0, 100], got -1", 1, true)
    assert.error_matches(function() la.quantile(A, la.ones(2, 2)) end, "q must be a number or a vector, got a 2x2 matrix", 1, true)
    assert.error_matches(function() la.quantile(A) end, "linalg.quantile", 1, true)
  end)

  it("agrees with NumPy bit for bit on random lines (when NumPy is installed)", function()
    if not sh("/usr/bin/python3 -c 'import numpy' 2>/dev/null") then pending("no NumPy for /usr/bin/python3") return end
    local d = os.tmpname(); os.remove(d); os.execute("mkdir " .. d)
    -- random columns of several lengths, some with few distinct values
    local X = la.randn(5000, 4, 11)
    X:set(":", 2, la.round(X:col(2) * 2))
    local q = {0.01, 0.25, 0.5, 0.75, 0.999}
    la.save_npy(X, d .. "/x.npy")
    local py = "import numpy as np; X = np.load('" .. d .. "/x.npy')\n" ..
      "np.save('" .. d .. "/m0.npy', np.median(X, 0).reshape(1, -1))\n" ..
      "np.save('" .. d .. "/m1.npy', np.median(X[:4001], 1).reshape(-1, 1))\n" ..
      "np.save('" .. d .. "/q0.npy', np.quantile(X, [0.01, 0.25, 0.5, 0.75, 0.999], 0))\n" ..
      "np.save('" .. d .. "/qa.npy', np.quantile(X, [0.01, 0.25, 0.5, 0.75, 0.999]).reshape(-1, 1))\n"
    local f = io.open(d .. "/gen.py", "w"); f:write(py); f:close()
    assert(sh("/usr/bin/python3 " .. d .. "/gen.py"))
    assert.is_true(la.median(X, 1) == la.load_npy(d .. "/m0.npy"))
    assert.is_true(la.median(X:slice("1:4001", ":"), 2) == la.load_npy(d .. "/m1.npy"))
    assert.is_true(la.quantile(X, q, 1) == la.load_npy(d .. "/q0.npy"))
    assert.is_true(la.quantile(X, q) == la.load_npy(d .. "/qa.npy"))
    os.execute("rm -r " .. d)
  end)
end)

-- la.logsumexp: SciPy's logsumexp (scipy.special, its algorithm: the max
-- taken out, non-finite maxima as 0) and PyTorch's torch.logsumexp; the
-- values below are that algorithm's in NumPy 1.24.2 (np.log(np.sum(np.exp(
-- B - m), axis)) + m), matched to 4 ulp (linalg's exp is the softmax's own)
describe("la.logsumexp", function()
  local B = la.matrix{{0.5, -2.0, 3.25, 7.0}, {1.5, 4.0, -1.0, 2.0}, {9.0, 0.25, 3.25, -6.5}}
  local function near(want, got, ulps)
    if type(want) == "table" then
      local g = got:totable()
      if type(g[1]) == "table" then g = got:numel() == #g[1] and g[1] or got:reshape(-1):totable() end
      for i = 1, #want do near(want[i], g[i], ulps) end
      return
    end
    assert.is_true(math.abs(want - got) <= ulps * 2.220446049250313e-16 * math.abs(want),
                   string.format("%.17g ~= %.17g", want, got))
  end

  it("is SciPy's over every entry and along each dim", function()
    near(9.140047097391328, la.logsumexp(B), 4)
    near({9.000756266697396, 4.02566433351924, 3.9502539842551396, 7.006716710271652}, la.logsumexp(B, 1), 4)
    near({7.024833670790535, 4.202253447679351, 9.003335857496108}, la.logsumexp(B, 2), 4)
    assert.are.same({1, 4}, {la.logsumexp(B, 1):shape()})
    assert.are.same({3, 1}, {la.logsumexp(B, 2):shape()})
    local F = la.logsumexp(B:astype("float32"), 1)
    assert.are.equal("float32", F.dtype)
    -- NumPy's float32 values (the same algorithm), to 4 float ulp
    local want = {9.00075626373291, 4.025664329528809, 3.950253963470459, 7.006716728210449}
    for j = 1, 4 do assert.is_true(math.abs(F(1, j) - want[j]) <= 4 * 1.19e-7 * want[j]) end
    near(la.logsumexp(B:slice(":", "2:3")), la.logsumexp(B:slice(":", "2:3"):copy()), 0)   -- a view
  end)

  it("does not overflow or lose large and small entries", function()
    near(1000 + math.log(2), la.logsumexp(la.vector{1000, 1000, -1000}), 2)
    near(-1000 + math.log(3), la.logsumexp(la.vector{-1000, -1000, -1000}), 2)
    -- a random row against a reference summed here in Lua
    local x = la.randn(1, 5000, 3) * 30
    local m = x:max()
    local s = 0
    for j = 1, 5000 do s = s + math.exp(x(1, j) - m) end
    near(m + math.log(s), la.logsumexp(x), 8)
    near(m + math.log(s), la.logsumexp(x, 2)(1, 1), 8)
  end)

  it("gives NaN for a NaN, +inf for +inf, -inf for nothing or only -inf (SciPy's)", function()
    local A = la.matrix{{1, 0 / 0, 3}, {math.huge, 1, 2}, {-math.huge, -math.huge, -math.huge}}
    local r = la.logsumexp(A, 2)
    assert.is_true(r(1, 1) ~= r(1, 1))
    assert.are.equal(math.huge, r(2, 1))
    assert.are.equal(-math.huge, r(3, 1))
    assert.are.equal(-math.huge, la.logsumexp(la.zeros(0, 3)))
    assert.are.same({{-math.huge, -math.huge, -math.huge}}, la.logsumexp(la.zeros(0, 3), 1):totable())
    assert.error_matches(function() la.logsumexp(B, 3) end, "linalg.logsumexp", 1, true)
    assert.error_matches(function() la.logsumexp("x") end, "linalg.logsumexp", 1, true)
  end)
end)
