-- Arithmetic metamethods, reductions, measures and runtime (API.md:
-- Arithmetic, Vectors and measures, Runtime). NumPy values were computed
-- with NumPy 1.24 (Debian python3-numpy) by the calls quoted beside them.
local la = require "linalg"

local X = la.matrix{{1, 2}, {3, 4}, {5, 6}}

describe("linalg matrix product", function()
  it("reproduces the seed example X w = [0, 2, 4]", function()
    local yhat = X * la.vector{2, -1}
    assert.are.same({0, 2, 4}, yhat:totable())
    assert.is_true(yhat == 2 * X:col(1) - 1 * X:col(2))
    assert.are.same({0, 2, 4}, (X * {2, -1}):totable())   -- plain table operand
  end)

  it("multiplies small and BLAS-sized matrices", function()
    -- np.array([[1.,2],[3,4]]) @ np.array([[5.,6,7],[8,9,10]])
    assert.are.same({{21, 24, 27}, {47, 54, 61}},
      (la.matrix{{1, 2}, {3, 4}} * la.matrix{{5, 6, 7}, {8, 9, 10}}):totable())
    -- M = np.arange(1,61.).reshape(6,10); N = np.arange(1,51.).reshape(10,5);
    -- P = M @ N: P.sum() = 245700, P[0,0] = 1705, P[5,4] = 15675, P[2,3] = 7170
    local M = la.zeros(6, 10):map(function(_, i, j) return (i - 1) * 10 + j end)
    local N = la.zeros(10, 5):map(function(_, i, j) return (i - 1) * 5 + j end)
    local P = M * N
    assert.are.equal(245700, P:sum())
    assert.are.equal(1705, P(1, 1))
    assert.are.equal(15675, P(6, 5))
    assert.are.equal(7170, P(3, 4))
  end)

  it("agrees between the tiny path, dgemv and dgemm", function()
    local A, B = la.randn(70, 60, 1), la.randn(60, 50, 2)
    local C = A * B
    -- reference by explicit sums
    local worst = 0
    for i = 1, 70, 7 do
      for j = 1, 50, 7 do
        local s = 0
        for k = 1, 60 do s = s + A(i, k) * B(k, j) end
        worst = math.max(worst, math.abs(s - C(i, j)))
      end
    end
    assert.is_true(worst < 1e-12)
    local v = B:col(3)
    assert.is_true(la.allclose(A * v, C:col(3), 1e-13, 1e-13))
  end)

  it("multiplies views using their leading dimension, without copies", function()
    local A = la.randn(8, 9, 3)
    local S = A:sub(2, 6, 3, 7)              -- 5x5 view inside an 8-row parent
    local P = S * S:copy()
    assert.is_true(la.allclose(P, S:copy() * S:copy(), 0, 0))
    assert.is_true(la.allclose((A:row(2) * A.T:col(2)), la.matrix{{la.dot(A:row(2), A:row(2))}}, 1e-14))
  end)

  it("handles empty shapes", function()
    assert.are.same({0, 2}, {(la.zeros(0, 3) * la.zeros(3, 2)):shape()})
    local Z = la.ones(2, 0) * la.ones(0, 3)
    assert.are.same({{0, 0, 0}, {0, 0, 0}}, Z:totable())
  end)

  it("names both shapes on a mismatch", function()
    assert.error_matches(function() return X * la.vector{1, 2, 3} end,
      "linalg.mul: 3x2 times 3x1 (inner 2 ~= 3)")
    assert.error_matches(function() return X * "a" end, "linalg.mul: bad argument #2 (matrix expected, got string)")
  end)

  it("propagates NaN and Inf (IEEE)", function()
    local P = la.matrix{{0 / 0, 1}} * la.vector{1, 1}
    assert.is_true(P(1) ~= P(1))
    assert.are.equal(math.huge, (la.matrix{{math.huge, 1}} * la.vector{1, 1})(1))
  end)
end)

describe("linalg elementwise arithmetic", function()
  it("scales by scalars on either side", function()
    assert.are.same({{2, 4}, {6, 8}, {10, 12}}, (2 * X):totable())
    assert.are.same({{2, 4}, {6, 8}, {10, 12}}, (X * 2):totable())
    assert.are.same({{0.5, 1}, {1.5, 2}, {2.5, 3}}, (X / 2):totable())
    assert.are.same({{-1, -2}, {-3, -4}, {-5, -6}}, (-X):totable())
    assert.are.same({{1, 0.5}, {0.25, 0.125}}, (1 / la.matrix{{1, 2}, {4, 8}}):totable())
  end)

  it("adds and subtracts with broadcasting of scalars, rows and columns", function()
    assert.are.same({{2, 3}, {4, 5}, {6, 7}}, (X + 1):totable())
    assert.are.same({{0, -1}, {-2, -3}, {-4, -5}}, (1 - X):totable())
    assert.are.same({{11, 22}, {13, 24}, {15, 26}}, (X + la.matrix{{10, 20}}):totable())
    assert.are.same({{0, 1}, {1, 2}, {2, 3}}, (X - la.vector{1, 2, 3}):totable())
    assert.are.same({{2, 4}, {6, 8}, {10, 12}}, (X + X):totable())
    -- (3,1) + (1,2) -> (3,2), as NumPy broadcasting
    assert.are.same({{11, 21}, {12, 22}, {13, 23}},
      (la.vector{1, 2, 3} + la.matrix{{10, 20}}):totable())
    assert.are.same({0, 2}, {(la.zeros(0, 2) + la.ones(1, 2)):shape()})
  end)

  it("emul and ediv broadcast the same way", function()
    assert.are.same({{1, 4}, {9, 16}, {25, 36}}, X:emul(X):totable())
    assert.are.same({{1, 1}, {1, 1}, {1, 1}}, X:ediv(X):totable())
    assert.are.same({{10, 40}, {30, 80}, {50, 120}}, X:emul{{10, 20}}:totable())
    assert.are.same({{1, 2}, {1.5, 2}, {5 / 3, 2}}, X:ediv{1, 2, 3}:totable())
  end)

  it("reports shapes that do not broadcast", function()
    assert.error_matches(function() return X + la.ones(2, 2) end,
      "linalg.add: shapes 3x2 and 2x2 do not broadcast")
    assert.error_matches(function() return X - la.ones(3, 3) end,
      "linalg.sub: shapes 3x2 and 3x3 do not broadcast")
    assert.error_matches(function() return X:emul(la.ones(2, 1)) end, "linalg.emul: shapes 3x2 and 2x1")
    assert.error_matches(function() return X + "x" end, "linalg.add: bad argument #2 (matrix expected, got string)")
  end)

  it("refuses the ambiguous A / B for a matrix B", function()
    assert.error_matches(function() return X / X end, "linalg.div: A / B with a matrix B is ambiguous")
  end)

  it("compares with ==", function()
    assert.is_true(X == la.matrix{{1, 2}, {3, 4}, {5, 6}})
    assert.is_false(X == la.matrix{{1, 2}, {3, 4}, {5, 7}})
    assert.is_false(X == X.T)
    assert.is_false(la.matrix{{0 / 0}} == la.matrix{{0 / 0}})
    assert.is_true(la.zeros(0, 2) == la.zeros(0, 2))
  end)
end)

describe("linalg reductions", function()
  it("sums and means over all, down columns (1) and across rows (2)", function()
    -- X.sum(0) = [9, 12]; X.sum(1) = [3, 7, 11]; X.mean(0) = [3, 4]; X.mean(1) = [1.5, 3.5, 5.5]
    assert.are.equal(21, X:sum())
    assert.are.equal(3.5, X:mean())
    assert.are.same({{9, 12}}, X:sum(1):totable())
    assert.are.same({3, 7, 11}, X:sum(2):totable())
    assert.are.same({{3, 4}}, X:mean(1):totable())
    assert.are.same({1.5, 3.5, 5.5}, X:mean(2):totable())
    assert.are.equal(0, la.zeros(0, 3):sum())
    assert.error_matches(function() X:sum(3) end, "linalg.sum: bad argument #2 (dim must be 1 or 2)")
    assert.error_matches(function() la.zeros(0, 3):mean() end, "linalg.mean: mean of an empty matrix")
  end)

  it("min and max, with NaN propagating", function()
    assert.are.equal(1, X:min())
    assert.are.equal(6, X:max())
    local m = la.matrix{{1, 0 / 0}, {3, 4}}:max()
    assert.is_true(m ~= m)
    assert.error_matches(function() la.zeros(0, 1):min() end, "linalg.min: min of an empty matrix")
  end)

  it("map applies f(x, i, j)", function()
    assert.are.same({{1, 4}, {9, 16}, {25, 36}}, X:map(function(x) return x * x end):totable())
    assert.are.same({{11, 12}, {21, 22}, {31, 32}}, X:map(function(_, i, j) return 10 * i + j end):totable())
    assert.error_matches(function() X:map(function() return "a" end) end,
      "linalg.map: function returned string at (1,1), expected a number")
    assert.error_matches(function() X:map(3) end, "linalg.map: bad argument #2 (function expected, got number)")
  end)
end)

describe("linalg measures", function()
  local u, w = la.vector{1, 2, 3}, la.vector{4, 5, 6}

  it("dot accepts both vector orientations", function()
    assert.are.equal(32, la.dot(u, w))
    assert.are.equal(32, la.dot(u.T, w))
    assert.are.equal(32, la.dot({1, 2, 3}, la.matrix{{4, 5, 6}}))
    assert.are.equal(56, la.dot(X:col(2), X:col(1) + 1))     -- views with ld = 3
    assert.error_matches(function() la.dot(u, la.vector{1, 2}) end, "linalg.dot: vector lengths 3 and 2 differ")
    assert.error_matches(function() la.dot(X, u) end, "linalg.dot: bad argument #1 (vector expected, got a 3x2 matrix)")
  end)

  it("vector norms: 2 (default), 1, inf, -inf, 0, p", function()
    -- v = [3,-4,12]: np.linalg.norm(v) = 13, ord=1: 19, inf: 12, -inf: 3, 0: 3,
    -- ord=3: 12.207054953820636
    local v = la.vector{3, -4, 12}
    assert.are.equal(13, la.norm(v))
    assert.are.equal(13, la.norm(v.T))
    assert.are.equal(19, la.norm(v, 1))
    assert.are.equal(12, la.norm(v, math.huge))
    assert.are.equal(3, la.norm(v, -math.huge))
    assert.are.equal(3, la.norm(v, 0))
    assert.near(12.207054953820636, la.norm(v, 3), 1e-15)
    assert.are.equal(13, la.norm(v, "fro"))
  end)

  it("matrix norms: fro (default), 1, inf, 2", function()
    -- np.linalg.norm(X) = 9.539392014169456, ord=2: 9.525518091565107, ord=1: 12, inf: 11
    assert.near(9.539392014169456, la.norm(X), 1e-15)
    assert.near(9.539392014169456, X:norm("fro"), 1e-15)
    assert.near(9.525518091565107, la.norm(X, 2), 1e-14)
    assert.are.equal(12, la.norm(X, 1))
    assert.are.equal(11, la.norm(X, math.huge))
    assert.are.equal(0, la.norm(la.zeros(0, 3)))
    assert.error_matches(function() la.norm(X, 3) end, "linalg.norm: bad argument #2 (matrix norm order")
    assert.error_matches(function() la.norm(X, "nucl") end, "linalg.norm: bad argument #2")
    -- NaN and Inf propagate through every order, 2 included (Octave's rule; they never reach dgesdd)
    for _, p in ipairs{"fro", 1, 2, math.huge} do
      local nan = la.norm(la.matrix{{1, 0 / 0}, {-math.huge, 1}}, p)
      assert.is_true(nan ~= nan, tostring(p))
      assert.are.equal(math.huge, la.norm(la.matrix{{1, 2}, {-math.huge, 1}}, p))
    end
  end)

  it("outer and trace", function()
    assert.are.same({{4, 5, 6}, {8, 10, 12}, {12, 15, 18}}, la.outer(u, w):totable())
    assert.are.same({3, 2}, {la.outer(u, la.vector{1, 2}):shape()})
    assert.are.equal(5, la.trace(X))
    assert.are.equal(3, la.trace(la.eye(3)))
  end)

  it("cosine, angle and cosine_matrix", function()
    -- u@w/norm(u)/norm(w) = 0.9746318461970762; arccos = 0.2257261285527342
    assert.near(0.9746318461970762, la.cosine(u, w), 1e-15)
    assert.near(0.2257261285527342, la.angle(u, w), 1e-14)
    assert.near(math.pi / 2, la.angle({1, 0}, {0, 1}), 1e-15)
    assert.are.equal(0, la.angle(u, 2 * u))     -- clamped: never NaN from rounding
    -- rows of X against rows of V = [[1,0],[0,1],[1,1]], normalised Un @ Vn.T
    local C = la.cosine_matrix(X, {{1, 0}, {0, 1}, {1, 1}})
    assert.near({{0.4472135954999579, 0.8944271909999159, 0.9486832980505137},
                 {0.6, 0.8, 0.9899494936611665},
                 {0.6401843996644799, 0.7682212795973759, 0.9958932064677037}}, C, 1e-15)
    assert.error_matches(function() la.cosine(u, la.zeros(3, 1)) end, "linalg.cosine: second vector is zero")
    assert.error_matches(function() la.cosine_matrix(X, la.zeros(2, 2)) end,
      "linalg.cosine_matrix: row 1 of V is zero")
    assert.error_matches(function() la.cosine_matrix(X, la.ones(2, 3)) end,
      "linalg.cosine_matrix: U is 3x2 but V is 2x3")
  end)

  it("allclose follows NumPy's rule", function()
    -- np.allclose(1, 1+1e-9), (1, 1.00001), (1e-9, 0): True; (1e-7, 0): False;
    -- (inf, inf): True; (nan, nan): False
    assert.is_true(la.allclose({{1}}, {{1 + 1e-9}}))
    assert.is_true(la.allclose({{1}}, {{1.00001}}))
    assert.is_true(la.allclose({{1e-9}}, {{0}}))
    assert.is_false(la.allclose({{1e-7}}, {{0}}))
    assert.is_true(la.allclose({{math.huge}}, {{math.huge}}))
    assert.is_false(la.allclose({{0 / 0}}, {{0 / 0}}))
    assert.is_true(la.allclose(X, X + 1e-3, 0, 2e-3))
    assert.is_false(la.allclose(X, X + 1e-3, 0, 1e-4))
    assert.is_true(la.allclose(la.ones(3, 2), 1))          -- broadcasts a scalar
  end)
end)

describe("linalg measures in float32", function()
  local F32 = {dtype = "float32"}
  local X32 = X:astype("float32")
  local u32, w32 = la.vector({1, 2, 3}, F32), la.vector({4, 5, 6}, F32)

  it("vector norms read float32 and sum in double (no overflow past float32's range)", function()
    local v = la.vector({3, -4, 12}, F32)
    for _, p in ipairs{2, 1, math.huge, -math.huge, 0, 3, -1.5, "fro"} do
      assert.are.equal(la.norm(v:astype("float64"), p), la.norm(v, p), tostring(p))
      assert.are.equal(la.norm(v:astype("float64"), p), la.norm(v.T, p), tostring(p))
    end
    -- 3e38 is near float32's largest (3.4e38): its 2-norm only fits in double
    local big = la.vector({3e38, 3e38}, F32)
    assert.near(math.sqrt(2) * big(1), la.norm(big), 1e-15)
    assert.near(2 * big(1), la.norm(big, 1), 1e-15)
    assert.near(math.sqrt(2) * big(1) * big(1), la.norm(big) * la.norm(big, "fro") / math.sqrt(2), 1e-15)
  end)

  it("matrix norms: every order of the float64 call; 2, -2, nuc by sgesdd", function()
    for _, p in ipairs{"fro", 1, -1, math.huge, -math.huge} do
      assert.near(la.norm(X, p), la.norm(X32, p), 1e-12)       -- X is exact in float32: double sums
    end
    -- float32 singular values: each off by ~eps32 * s_max (s_max / s_min = 18.5 here)
    for _, p in ipairs{2, -2, "nuc"} do
      assert.near(la.norm(X, p), la.norm(X32, p), 20 * 2 ^ -23)
    end
    -- NumPy 1.24 float32: np.linalg.norm(X.astype(np.float32), ord) for "nuc", -2, 2, "fro";
    -- sgesdd's last bits depend on OpenBLAS's kernels for the core (valgrind's differ)
    assert.near(10.03981876373291, la.norm(X32, "nuc"), 20 * 2 ^ -23)
    assert.near(0.5143005847930908, la.norm(X32, -2), 20 * 2 ^ -23)
    assert.near(9.525518417358398, la.norm(X32, 2), 20 * 2 ^ -23)
    assert.near(9.539392471313477, la.norm(X32), 1e-7)
    assert.near(la.norm(X:sub(2, 3, 1, 2)), la.norm(X32:sub(2, 3, 1, 2)), 1e-15)   -- a view
    assert.near(3e38 * math.sqrt(3), la.norm(la.matrix({{3e38, 3e38}, {3e38, 0}}, F32)), 1e-7)
    for _, p in ipairs{"fro", 1, 2, math.huge, "nuc"} do
      local nan = la.norm(la.matrix({{1, 0 / 0}, {-math.huge, 1}}, F32), p)
      assert.is_true(nan ~= nan, tostring(p))
      assert.are.equal(math.huge, la.norm(la.matrix({{1, 2}, {-math.huge, 1}}, F32), p))
    end
    assert.are.equal(0, la.norm(la.zeros(0, 3, F32)))
  end)

  it("vecnorm gives float32 lines; trace sums the float32 diagonal", function()
    for dim = 1, 2 do
      for _, p in ipairs{2, 1, math.huge} do
        local r = la.vecnorm(X32, p, dim)
        assert.are.equal("float32", r.dtype)
        assert.near(la.vecnorm(X, p, dim), r, 2 ^ -24)
      end
    end
    assert.are.equal(5, la.trace(X32))
    assert.are.equal(16777220, la.trace(la.diag(la.vector({2 ^ 24, 1, 1, 1, 1}, F32))))   -- double sum
    assert.are.equal(9, la.trace(X32:sub(2, 3, 1, 2)))                  -- a view: 3 + 6
  end)

  it("cosine, angle and cosine_matrix in float32 (float64 when mixed)", function()
    assert.near(0.9746318461970762, la.cosine(u32, w32), 1e-15)    -- dsdot: double sums
    assert.near(0.2257261285527342, la.angle(u32, w32), 1e-14)
    assert.near(la.cosine(u32:astype("float64"), w32), la.cosine(u32, w32), 1e-15)
    assert.are.equal(0, la.angle(u32, 2 * u32))
    assert.error_matches(function() la.cosine(u32, la.zeros(3, 1, F32)) end, "linalg.cosine: second vector is zero")
    assert.error_matches(function() la.cosine(u32, la.zeros(2, 1, F32)) end, "linalg.cosine: vector lengths 3 and 2 differ")
    assert.error_matches(function() la.angle(X32, u32) end,
      "linalg.angle: bad argument #1 (vector expected, got a 3x2 matrix)")
    local V = la.matrix({{1, 0}, {0, 1}, {1, 1}}, F32)
    local C = la.cosine_matrix(X32, V)
    assert.are.equal("float32", C.dtype)
    assert.near({{0.4472135954999579, 0.8944271909999159, 0.9486832980505137},
                 {0.6, 0.8, 0.9899494936611665},
                 {0.6401843996644799, 0.7682212795973759, 0.9958932064677037}}, C, 2 ^ -23)
    assert.are.equal("float64", la.cosine_matrix(X32, V:astype("float64")).dtype)
    assert.error_matches(function() la.cosine_matrix(X32, la.zeros(2, 2, F32)) end,
      "linalg.cosine_matrix: row 1 of V is zero")
  end)

  it("rank and cond use float32 singular values and float32's eps", function()
    local a, b = la.randn(50, 1, 3), la.randn(50, 1, 4)
    local D = la.hstack{a, b, a / 3 + b / 7}:astype("float32")     -- column 3 rounded: ~1e-8 off the span
    -- NumPy 1.24 on such a matrix: matrix_rank(A32) = 2, matrix_rank(A32.astype(np.float64)) = 3
    assert.are.equal(2, la.rank(D))
    assert.are.equal(3, la.rank(D:astype("float64")))
    assert.are.equal(3, la.rank(D, 1e-12))
    -- NumPy 1.24: np.linalg.cond(X32) = 18.521305084228516, np.linalg.cond(G32, 1) = 3.188405752182007
    assert.near(18.521305084228516, la.cond(X32), 40 * 2 ^ -23)      -- ~ cond * eps32
    local G = la.matrix({{2, -1, 0.5}, {1, 3, 1}, {0.25, 1, 4}}, F32)
    assert.near(3.188405752182007, la.cond(G, 1), 10 * 2 ^ -23)
    for _, p in ipairs{2, -2, 1, -1, math.huge, "fro", "nuc"} do
      assert.near(la.cond(G:astype("float64"), p), la.cond(G, p), 1e-5)
    end
    assert.are.equal(math.huge, la.cond(la.matrix({{1, 2}, {2, 4}}, F32), 1))
    assert.error_matches(function() la.cond(X32, 1) end, "linalg.cond")
  end)

  it("allclose compares float32 values in double, numbers as float32", function()
    assert.is_true(la.allclose(X32, X32 + 1e-3, 0, 2e-3))
    assert.is_false(la.allclose(X32, X32 + 1e-3, 0, 1e-4))
    assert.is_true(la.allclose(X32, X))
    assert.is_false(la.allclose(la.matrix({{0 / 0}}, F32), la.matrix({{0 / 0}}, F32)))
    assert.is_true(la.allclose(la.matrix({{math.huge}}, F32), math.huge))
    -- 0.1 rounds to float32 beside a float32 matrix, not beside a float64 one (NumPy 1.24:
    -- np.allclose(np.float32([0.1]), 0.1, 0, 0) is True, with np.float64([0.1]) False)
    assert.is_true(la.allclose(la.matrix({{0.1}}, F32), 0.1, 0, 0))
    assert.is_false(la.allclose(la.matrix({{0.1}}, F32), la.matrix{{0.1}}, 0, 0))
    assert.error_matches(function() la.allclose(X32, la.ones(2, 2, F32)) end,
      "linalg.allclose: shapes 3x2 and 2x2 do not broadcast")
  end)
end)

describe("linalg runtime", function()
  it("gets and sets the BLAS thread count", function()
    local old = la.threads()
    assert.is_true(old >= 1)
    assert.are.equal(1, la.threads(1))
    assert.are.equal(old, la.threads(old))
    assert.error_matches(function() la.threads(0) end, "linalg.threads: bad argument #1")
  end)

  it("has a version string", function()
    assert.are.equal("string", type(la.version))
    assert.is_truthy(la.version:match("^%d+%.%d+%.%d+"))
  end)

  it("makes every function a method", function()
    assert.are.equal(la.norm(X), X:norm())
    assert.are.equal(la.dot(la.vector{1, 2}, la.vector{3, 4}), la.vector{1, 2}:dot{3, 4})
  end)
end)
