-- Least squares and regression (API.md: lstsq, Regression helper). NumPy
-- values from NumPy 1.24 (Debian python3-numpy), calls quoted.
local la = require "linalg"

-- A = [[1,1],[1,2],[1,3],[1,4]], b = [6,5,7,10]
local A = la.matrix{{1, 1}, {1, 2}, {1, 3}, {1, 4}}
local b = la.vector{6, 5, 7, 10}

describe("linalg.lstsq", function()
  it("follows NumPy's return convention (np.linalg.lstsq(A, b, rcond=None))", function()
    -- x = [3.5, 1.4], residuals = [4.2], rank 2, sv = [5.779378813233887, 0.773809106397227]
    local x, res, rank, sv = la.lstsq(A, b)
    assert.near({3.5, 1.4}, x, 1e-14)
    assert.are.same({1, 1}, {res:shape()})
    assert.near(4.2, res(1), 1e-13)
    assert.are.equal(2, rank)
    assert.integer(rank)
    assert.near({5.779378813233887, 0.773809106397227}, sv, 1e-14)
  end)

  it("solves several right-hand sides at once", function()
    -- B = column_stack([b, [1,2,3,5]]): x = [[3.5,-0.5],[1.4,1.3]], residuals [4.2, 0.3]
    local x, res = la.lstsq(A, la.hstack{b, {1, 2, 3, 5}})
    assert.near({{3.5, -0.5}, {1.4, 1.3}}, x, 1e-14)
    assert.near({{4.2, 0.3}}, res, 1e-13)
  end)

  it("gives the minimum-norm solution when rank deficient (the seed example)", function()
    -- np.linalg.lstsq([[1,2],[2,4],[3,6]], [1,2,3]): x = [0.2, 0.4], residuals [], rank 1
    local x, res, rank, sv = la.lstsq({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3})
    assert.near({0.2, 0.4}, x, 1e-14)
    assert.is_nil(res)
    assert.are.equal(1, rank)
    assert.near(8.366600265340756, sv(1), 1e-14)
  end)

  it("gives the minimum-norm solution when underdetermined", function()
    -- np.linalg.lstsq([[1,2,3]], [6]): x = [6/14, 12/14, 18/14], residuals []
    local x, res, rank = la.lstsq({{1, 2, 3}}, {6})
    assert.near({0.4285714285714286, 0.8571428571428572, 1.285714285714286}, x, 1e-14)
    assert.is_nil(res)
    assert.are.equal(1, rank)
  end)

  it("method qr agrees with svd on full-rank problems and has no sv", function()
    local x, res, rank, sv = la.lstsq(A, b, {method = "qr"})
    assert.near({3.5, 1.4}, x, 1e-14)
    assert.near(4.2, res(1), 1e-13)
    assert.are.equal(2, rank)
    assert.is_nil(sv)
    local M, y = la.randn(50, 7, 3), la.randn(50, 2, 4)
    assert.is_true(la.allclose(la.lstsq(M, y, {method = "qr"}), la.lstsq(M, y), 1e-12, 1e-12))
    -- wide full-rank: LQ gives the minimum-norm solution too
    local W = la.randn(3, 6, 5)
    assert.is_true(la.allclose(la.lstsq(W, {1, 2, 3}, {method = "qr"}), la.lstsq(W, {1, 2, 3}), 1e-12, 1e-12))
  end)

  it("method qr reports rank deficiency from R's diagonal", function()
    assert.error_matches(function() la.lstsq({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}, {method = "qr"}) end,
      "linalg.lstsq: A is rank deficient (|R(2,2)|")
    assert.error_matches(function() la.lstsq({{1, 1}, {1, 1}, {1, 1 + 1e-17}}, {1, 2, 3}, {method = "qr"}) end,
      "use method = \"svd\" or \"qrp\"")
    -- an exactly zero R(2,2), which dgels itself reports (info = 2): the message names it
    for _, dtype in ipairs{"float64", "float32"} do
      assert.error_matches(function()
        la.lstsq(la.matrix({{1, 0}, {0, 0}, {0, 0}}, {dtype = dtype}), la.ones(3, 1, {dtype = dtype}),
                 {method = "qr"})
      end, "linalg.lstsq: A is rank deficient (|R(2,2)| = 0.0 <= ")
    end
  end)

  it("method qrp (dgelsy) handles rank deficiency with the minimum-norm answer", function()
    local x, res, rank, sv = la.lstsq({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}, {method = "qrp"})
    assert.near({0.2, 0.4}, x, 1e-14)
    assert.is_nil(res)
    assert.are.equal(1, rank)
    assert.is_nil(sv)
    local x2, res2 = la.lstsq(A, b, {method = "qrp"})
    assert.near({3.5, 1.4}, x2, 1e-14)
    assert.near(4.2, res2(1), 1e-13)
  end)

  it("rcond decides the rank; negative means machine precision", function()
    local D = la.diag{1, 1e-8}
    local _, _, r1 = la.lstsq(D, {1, 1})
    local _, _, r2 = la.lstsq(D, {1, 1}, {rcond = 1e-6})
    local x3, _, r3 = la.lstsq(D, {1, 1}, {rcond = -1})
    assert.are.equal(2, r1)
    assert.are.equal(1, r2)
    assert.are.equal(2, r3)
    assert.near({1, 1e8}, x3, 1e-12)
  end)

  it("ridge minimises ||Ax-b||^2 + lambda ||x||^2", function()
    -- np.linalg.solve(A.T@A + 0.5*I, A.T@b) = [2.2550335570469784, 1.7852348993288596]
    local x, res = la.lstsq(A, b, {ridge = 0.5})
    assert.near({2.2550335570469784, 1.7852348993288596}, x, 1e-13)
    local r = A * x - b
    assert.near(la.dot(r, r), res(1), 1e-13)   -- residuals are the data-fit part
    assert.near({2.2550335570469784, 1.7852348993288596}, la.lstsq(A, b, {ridge = 0.5, method = "qr"}), 1e-13)
    assert.error_matches(function() la.lstsq(A, b, {ridge = -1}) end, "linalg.lstsq: ridge must be finite and >= 0, got -1.0")
    assert.error_matches(function() la.lstsq(A, b, {ridge = math.huge}) end, "linalg.lstsq: ridge must be finite and >= 0, got inf")
  end)

  it("handles empty problems", function()
    local x, res, rank, sv = la.lstsq(la.zeros(0, 3), la.zeros(0, 1))
    assert.are.same({0, 0, 0}, x:totable())
    assert.is_nil(res)
    assert.are.equal(0, rank)
    assert.are.same({0, 1}, {sv:shape()})
    local x2, res2, rank2 = la.lstsq(la.zeros(3, 0), {1, 2, 2})
    assert.are.same({0, 1}, {x2:shape()})
    assert.near(9, res2(1), 1e-15)   -- nothing explains b: ||b||^2
    assert.are.equal(0, rank2)
  end)

  it("checks shapes, options and finiteness", function()
    assert.error_matches(function() la.lstsq(A, {1, 2, 3}) end, "linalg.lstsq: A has 4 rows but b has 3")
    assert.error_matches(function() la.lstsq(A, b, {method = "lu"}) end,
      'linalg.lstsq: option \'method\' must be "svd", "qr" or "qrp", got "lu"')
    assert.error_matches(function() la.lstsq(A, {1, 0 / 0, 1, 1}) end, "linalg.lstsq: b(2,1) is NaN")
    assert.error_matches(function() la.lstsq("A", b) end, "linalg.lstsq: bad argument #1 (matrix expected, got string)")
  end)

  describe("tall problems (reduced by sequential TSQR first)", function()
    -- 3000 x 100 is tall enough for the blocked path; a Gaussian matrix is
    -- well conditioned (cond ~ 1.4), so the normal equations are an
    -- accurate reference here.
    local T = la.randn(3000, 100, 31)
    local bt = la.randn(3000, 2, 32)
    local ref = la.solve(T.T * T, T.T * bt)

    for _, method in ipairs{"svd", "qr", "qrp"} do
      it(method .. " matches the normal equations, with residuals", function()
        local x, res, rank, sv = la.lstsq(T, bt, {method = method})
        assert.is_true(la.allclose(x, ref, 1e-12, 1e-13))
        assert.are.equal(100, rank)
        local r = T * x - bt
        assert.near({{la.dot(r:col(1), r:col(1)), la.dot(r:col(2), r:col(2))}}, res, 1e-11)
        if method == "svd" then
          assert.near((select(2, la.svd(T))), sv, 1e-12)   -- R has the singular values of A
        end
      end)
    end

    it("adds ridge by stacking sqrt(lambda) I", function()
      local x = la.lstsq(T, bt:col(1), {ridge = 5})
      assert.is_true(la.allclose(x, la.solve(T.T * T + 5 * la.eye(100), T.T * bt:col(1)), 1e-12, 1e-13))
    end)

    it("finds rank deficiency", function()
      local D = la.hstack{T:sub(1, 3000, 1, 99), T:col(1)}     -- last column = first
      local x, res, rank = la.lstsq(D, bt:col(1))
      assert.are.equal(99, rank)
      assert.is_nil(res)
      assert.near(x(1), x(100), 1e-10)                      -- minimum norm splits the weight
      assert.error_matches(function() la.lstsq(D, bt:col(1), {method = "qr"}) end, "A is rank deficient")
      local _, _, rq = la.lstsq(D, bt:col(1), {method = "qrp"})
      assert.are.equal(99, rq)
    end)
  end)

  it("accepts b as a 1 x m row", function()
    assert.near({3.5, 1.4}, la.lstsq(A, la.matrix{{6, 5, 7, 10}}), 1e-14)
  end)
end)

describe("linalg.linear_regression", function()
  -- X = [[1,2],[2,1],[3,5],[4,3],[5,6]], y = [3,4,8,9,12];
  -- np.linalg.lstsq(column_stack([ones(5), X]), y): [0.1, 1.8, 0.5]; R^2 = 0.9981751824817519
  local X = la.matrix{{1, 2}, {2, 1}, {3, 5}, {4, 3}, {5, 6}}
  local y = la.vector{3, 4, 8, 9, 12}

  it("matches NumPy's lstsq on the intercept-augmented design", function()
    local model = la.linear_regression(X, y)
    assert.near({1.8, 0.5}, model.coef, 1e-13)
    assert.near(0.1, model.intercept, 1e-13)
    assert.near(0.9981751824817519, model.r2, 1e-14)
    assert.near(model.r2, model:score(X, y), 1e-15)
    assert.near(X * model.coef + model.intercept, model:predict(X), 1e-15)
  end)

  it("recovers exact coefficients and R^2 = 1 on noiseless data", function()
    local Z = la.randn(40, 3, 9)
    local model = la.linear_regression(Z, Z * {1.5, -2, 0.8} + 1.2)
    assert.near({1.5, -2, 0.8}, model.coef, 1e-13)
    assert.near(1.2, model.intercept, 1e-13)
    assert.near(1, model.r2, 1e-14)
  end)

  it("fits without intercept and with a ridge that spares the intercept", function()
    local m0 = la.linear_regression(X, y, {intercept = false})
    assert.are.equal(0, m0.intercept)
    assert.near(la.lstsq(X, y), m0.coef, 1e-13)
    -- centred ridge (scikit-learn's Ridge): coef = solve(Xc'Xc + I, Xc'yc) =
    -- [1.5229540918163678, 0.6247504990019956], intercept 0.5069860279441123
    local mr = la.linear_regression(X, y, {ridge = 1})
    assert.near({1.5229540918163678, 0.6247504990019956}, mr.coef, 1e-13)
    assert.near(0.5069860279441123, mr.intercept, 1e-13)
  end)

  it("reports problems under its own name", function()
    assert.error_matches(function() la.linear_regression(X, {1, 2}) end,
      "linalg.linear_regression: X has 5 rows but y has 2")
    assert.error_matches(function() la.linear_regression(la.hstack{X, X:col(1)}, y) end,
      'linalg.linear_regression: X is rank deficient')
    assert.error_matches(function() la.linear_regression(X, y, {method = "lu"}) end,
      'linalg.linear_regression: option \'method\' must be "qr", "svd" or "qrp", got "lu"')
  end)

  it("fits rank-deficient X with the minimum-norm solution under method svd or qrp", function()
    -- NumPy 1.24: X3 = column_stack([X, X[:,0]]); Xc = X3 - X3.mean(0);
    -- lstsq(Xc, y - y.mean()) = [0.9, 0.5, 0.9], intercept 0.1
    local X3 = la.hstack{X, X:col(1)}
    for _, method in ipairs{"svd", "qrp"} do
      local model = la.linear_regression(X3, y, {method = method})
      assert.near({0.9, 0.5, 0.9}, model.coef, 1e-13)
      assert.near(0.1, model.intercept, 1e-13)
      assert.near(0.9981751824817519, model.r2, 1e-14)
    end
    local model = la.linear_regression(X, y)
    assert.error_matches(function() model:predict(la.ones(2, 3)) end,
      "linalg.predict: X has 3 columns but the model has 2 coefficients")
  end)
end)

describe("linalg.lstsq in float32 (LAPACK's s routines, float32 TSQR)", function()
  local F32 = {dtype = "float32"}
  local EPS32 = 2 ^ -23
  local function f32(M) return la.astype(M, "float32") end
  local function f64(M) return la.astype(M, "float64") end
  -- ||a - b|| / ||b|| in float64
  local function rel(a, b) return la.norm(f64(a) - f64(b)) / la.norm(f64(b)) end

  -- every result of a float32 call: matrices float32, rank an integer
  local function float32_results(x, res, rank, sv, what)
    assert.are.equal("float32", x.dtype, what)
    if res then assert.are.equal("float32", res.dtype, what) end
    if sv then assert.are.equal("float32", sv.dtype, what) end
    assert.integer(rank, what)
  end

  -- float32 data, the same numbers in float64: x and the residuals agree
  -- within 20 cond(A) eps32 (the float32 answer's own error; the float64
  -- one's is 2^29 times smaller), the rank exactly, sv within 20 eps32
  -- relative to the largest
  local function against_float64(A, b, opts, what)
    local A32, b32 = f32(A), f32(b)
    local A64, b64 = f64(A32), f64(b32)
    local tol = 20 * la.cond(A64) * EPS32
    local x, res, rank, sv = la.lstsq(A32, b32, opts)
    local x64, res64, rank64, sv64 = la.lstsq(A64, b64, opts)
    float32_results(x, res, rank, sv, what)
    assert.is_true(rel(x, x64) <= tol, what .. ": x off by " .. rel(x, x64))
    if res64 then
      assert.is_true(rel(res, res64) <= tol, what .. ": residuals off by " .. rel(res, res64))
    else
      assert.is_nil(res, what)
    end
    assert.are.equal(rank64, rank, what)
    if sv64 then
      assert.is_true(la.norm(f64(sv) - sv64, math.huge) <= 20 * EPS32 * sv64(1), what .. ": sv")
    else
      assert.is_nil(sv, what)
    end
  end

  for _, method in ipairs{"svd", "qr", "qrp"} do
    it(method .. " agrees with float64 within cond(A) eps32 (direct and tall paths)", function()
      against_float64(la.randn(60, 20, 41), la.randn(60, 2, 42), {method = method},
                      method .. " 60x20 (gelsd/gels/gelsy directly)")
      against_float64(la.randn(10, 8, 43), la.randn(10, 1, 44), {method = method},
                      method .. " 10x8")
      against_float64(la.randn(3000, 100, 45), la.randn(3000, 2, 46), {method = method},
                      method .. " 3000x100 (m >= 4n: float32 TSQR, then the 100x100 R)")
      against_float64(la.randn(4, 7, 47), la.randn(4, 1, 48), {method = method},
                      method .. " wide 4x7")
      against_float64(la.randn(60, 20, 41), la.randn(60, 2, 42), {method = method, ridge = 3},
                      method .. " ridge 60x20")
      against_float64(la.randn(3000, 100, 45), la.randn(3000, 2, 46), {method = method, ridge = 3},
                      method .. " ridge 3000x100")
    end)
  end

  it("matches NumPy 1.24's float32 lstsq", function()
    -- /usr/bin/python3 (Debian NumPy 1.24.2), f = np.float32, rcond=None:
    --   np.linalg.lstsq(np.array([[1,1],[1,2],[1,3],[1,4]], f), np.array([6,5,7,10], f))
    --   -> x [3.5, 1.399999976158142], res [4.199999809265137], rank 2,
    --      sv [5.779378890991211, 0.7738091349601746], all float32
    --   i = np.arange(1, 41); t = (i - 1) / 32.0
    --   T = np.column_stack([np.ones(40), t, t**2]).astype(f); y = (((i*37) % 17 - 8) / 8.0).astype(f)
    --   np.linalg.lstsq(T, y) -> x [-0.07005661725997925, 0.30678948760032654, -0.24556700885295868],
    --      res [14.965530395507812], rank 3,
    --      sv [8.392383575439453, 2.784083127975464, 0.45416176319122314]; cond(T) = 18.48
    -- (NumPy 1.24 computes float32 in float64 and rounds: its numbers are the
    -- exact answer to float32 precision, ours carry float32 arithmetic's error)
    local A4 = la.matrix({{1, 1}, {1, 2}, {1, 3}, {1, 4}}, F32)
    local b4 = la.vector({6, 5, 7, 10}, F32)
    local t, y = {}, {}
    for i = 1, 40 do
      local s = (i - 1) / 32
      t[i] = {1, s, s * s}
      y[i] = ((i * 37) % 17 - 8) / 8
    end
    local T, yt = la.matrix(t, F32), la.vector(y, F32)   -- 40 x 3: the tall (TSQR) path
    for _, method in ipairs{"svd", "qr", "qrp"} do
      local x, res, rank, sv = la.lstsq(A4, b4, {method = method})
      float32_results(x, res, rank, sv, method)
      assert.near({3.5, 1.399999976158142}, x, 40 * EPS32)        -- cond 7.5
      assert.near(4.199999809265137, res(1), 40 * EPS32)
      assert.are.equal(2, rank)
      if method == "svd" then assert.near({5.779378890991211, 0.7738091349601746}, sv, 8 * EPS32) end
      x, res, rank, sv = la.lstsq(T, yt, {method = method})
      float32_results(x, res, rank, sv, method .. " tall")
      assert.near({-0.07005661725997925, 0.30678948760032654, -0.24556700885295868}, x, 20 * 18.5 * EPS32)
      assert.near(14.965530395507812, res(1), 20 * 18.5 * EPS32)
      assert.are.equal(3, rank)
      if method == "svd" then
        assert.near({8.392383575439453, 2.784083127975464, 0.45416176319122314}, sv, 8 * 8.4 * EPS32)
      end
    end
  end)

  it("rank-deficient float32: minimum norm (svd, qrp), an error (qr), as NumPy", function()
    -- np.linalg.lstsq(np.array([[1,2],[2,4],[3,6]], f), np.array([1,2,3], f), rcond=None)
    --   -> x [0.20000000298023224, 0.4000000059604645], res [], rank 1,
    --      sv [8.366600036621094, 7.32e-16] (float32; NumPy's SVD ran in float64)
    local D, d = la.matrix({{1, 2}, {2, 4}, {3, 6}}, F32), la.vector({1, 2, 3}, F32)
    for _, method in ipairs{"svd", "qrp"} do
      local x, res, rank, sv = la.lstsq(D, d, {method = method})
      float32_results(x, res, rank, sv, method)
      assert.near({0.20000000298023224, 0.4000000059604645}, x, 8 * EPS32)
      assert.is_nil(res)
      assert.are.equal(1, rank)
      if sv then
        assert.near(8.366600036621094, sv(1), 4 * EPS32)
        assert.is_true(sv(2) <= 8 * EPS32 * sv(1))          -- float32's zero
      end
    end
    assert.error_matches(function() la.lstsq(D, d, {method = "qr"}) end,
      "linalg.lstsq: A is rank deficient (|R(2,2)|")
    -- the tall path: 3000 x 100 with its last column the first
    local T = la.randn(3000, 100, 51)
    local R = f32(la.hstack{T:sub(1, 3000, 1, 99), T:col(1)})
    local b = f32(la.randn(3000, 1, 52))
    local x, res, rank, sv = la.lstsq(R, b)
    float32_results(x, res, rank, sv, "tall")
    assert.are.equal(99, rank)
    assert.is_nil(res)
    assert.near(x(1), x(100), 1e-4)                      -- minimum norm splits the weight
    assert.are.equal(99, select(3, la.lstsq(R, b, {method = "qrp"})))
    assert.error_matches(function() la.lstsq(R, b, {method = "qr"}) end, "A is rank deficient")
  end)

  it("rcond's default is eps * max(m, n) with float32's eps", function()
    -- 1e-7 is below 2 eps32 = 2.4e-7: rank 1 in float32, 2 in float64
    local D = la.diag{1, 1e-7}
    local _, _, r32 = la.lstsq(f32(D), la.vector({1, 1}, F32))
    local _, _, r64 = la.lstsq(D, {1, 1})
    assert.are.equal(1, r32)
    assert.are.equal(2, r64)
    local x, _, r = la.lstsq(f32(D), la.vector({1, 1}, F32), {rcond = 1e-8})
    assert.are.equal(2, r)
    assert.near({1, 1e7}, x, 1e-6)
    -- 40 x 2 (the tall path): rows eps32 * 40 = 4.8e-6 decide
    local A = la.vstack{la.diag{1, 3e-6}, la.zeros(38, 2)}
    assert.are.equal(1, select(3, la.lstsq(f32(A), f32(la.ones(40, 1)))))
    assert.are.equal(2, select(3, la.lstsq(A, la.ones(40, 1))))
  end)

  it("mixed types compute in float64, as NumPy; tables do not vote", function()
    local A, b = la.randn(12, 3, 53), la.randn(12, 1, 54)
    local A32, b32 = f32(A), f32(b)
    for _, n in ipairs{12, 400} do                        -- 400 x 3: the tall path too
      local An, bn = la.randn(n, 3, 55), la.randn(n, 1, 56)
      local An32, bn32 = f32(An), f32(bn)
      for _, pair in ipairs{{An32, f64(bn32)}, {f64(An32), bn32}} do
        local x, res, rank, sv = la.lstsq(pair[1], pair[2])
        local x0, res0, rank0, sv0 = la.lstsq(f64(An32), f64(bn32))
        assert.are.equal("float64", x.dtype)
        assert.are.equal("float64", res.dtype)
        assert.are.equal("float64", sv.dtype)
        assert.are.same(x0:totable(), x:totable())       -- the float64 pass on the same numbers
        assert.are.same(res0:totable(), res:totable())
        assert.are.same(sv0:totable(), sv:totable())
        assert.are.equal(rank0, rank)
      end
    end
    local x = la.lstsq(A32, b:totable())                  -- a table b: float32
    assert.are.equal("float32", x.dtype)
    assert.is_true(rel(x, la.lstsq(A32, b32)) <= 4 * EPS32)
  end)

  it("empty problems, k = 0, NaN b and the options in float32", function()
    local x, res, rank, sv = la.lstsq(la.zeros(0, 3, F32), la.zeros(0, 1, F32))
    float32_results(x, res, rank, sv, "0x3")
    assert.are.same({0, 0, 0}, x:totable())
    assert.are.same({0, 1}, {sv:shape()})
    local x2, res2 = la.lstsq(la.zeros(3, 0, F32), la.vector({1, 2, 2}, F32))
    assert.are.equal("float32", x2.dtype)
    assert.are.equal("float32", res2.dtype)
    assert.are.equal(9, res2(1))
    local A = f32(la.randn(40, 3, 57))
    for _, method in ipairs{"svd", "qr", "qrp"} do
      local xk, resk, rk, svk = la.lstsq(A, la.zeros(40, 0, F32), {method = method})
      assert.are.same({3, 0}, {xk:shape()})
      assert.are.same({1, 0}, {resk:shape()})
      assert.are.equal(3, rk)
      assert.are.equal("float32", xk.dtype)
      if svk then assert.are.equal("float32", svk.dtype) end
      local bn = f32(la.randn(40, 1, 58))
      bn:set(3, 1, 0 / 0)
      local xn = la.lstsq(A, bn, {check_finite = false, method = method})
      assert.is_true(xn(1, 1) ~= xn(1, 1))
    end
    -- a ridge whose square root overflows float32 is solved scaled: x =
    -- (A^T A + 1e80 I)^-1 A^T b ~ A^T b / 1e80 ~ 1e-79 rounds to 0 in float32
    local xr = la.lstsq(A, f32(la.ones(40, 1)), {ridge = 1e80})
    assert.are.equal("float32", xr.dtype)
    assert.near(la.zeros(3, 1), xr, 0)
    -- b near the largest float32 (its squares overflowed TSQR's residual
    -- sums) is solved scaled: x as in float64; the residual sum of squares,
    -- ~1.8e77, is beyond float32 (inf, as NumPy reports an overflowing one)
    local big = la.ones(8, 1, F32)
    big:set(1, 1, 3e38); big:set(2, 1, 3e38)
    local a8 = f32(la.randn(8, 1, 59))
    local xb, rb = la.lstsq(a8, big)
    local xd = la.lstsq(a8:astype("float64"), big:astype("float64"))
    assert.is_true(math.abs(xb(1, 1) - xd(1, 1)) <= 1e-6 * math.abs(xd(1, 1)))
    assert.are.equal(math.huge, rb(1, 1))
    assert.error_matches(function() la.lstsq(A, la.ones(39, 1, F32)) end,
      "linalg.lstsq: A has 40 rows but b has 39")
  end)
end)
