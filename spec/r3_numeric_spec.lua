-- Numerical edge cases: subnormal pivots and columns, scale-invariant
-- cosines, tolerances (NaN, negative, >= 1), empty NNLS problems and
-- least squares near the largest double. Reference values are NumPy 1.24.2
-- / SciPy 1.10.1 (Debian's python3-numpy, python3-scipy) where those give a
-- finite answer; where they give NaN (OpenBLAS's getrf multiplies by the
-- reciprocal of a subnormal pivot, Inf, in NumPy too) the exact answer is
-- worked out by hand in the comment.
local la = require "linalg"

local EPS = 2.220446049250313e-16
local EPS32 = 1.1920928955078125e-07

-- |a - e| <= ulps * eps * |e| (relative, for values of any scale)
local function rel(e, a, ulps, eps)
  return math.abs(a - e) <= (ulps or 4) * (eps or EPS) * math.abs(e)
end

local function f32(t) return la.matrix(t, {dtype = "float32"}) end

-- every entry of M finite
local function finite(M)
  local m, n = M:shape()
  for i = 1, m do
    for j = 1, n do
      local x = M(i, j)
      if x ~= x or x == math.huge or x == -math.huge then return false end
    end
  end
  return true
end

describe("subnormal pivots", function()
  -- np.linalg.solve(np.diag([1e-320, 1.]), [1e-320, 1]) -> [nan, nan];
  -- exactly [1, 1]
  it("solve gives the exact answer past a subnormal pivot", function()
    local x = la.solve(la.diag{1e-320, 1}, {1e-320, 1})
    assert.near({{1}, {1}}, x, 0)
    -- a pivot made subnormal by elimination: U(2,2) = 2e-320 - 1e-320.
    -- x1 + x2 = 1, 1e-320 (x1 + 2 x2) = 3e-320: x = [-1, 2]
    x = la.solve(la.matrix{{1, 1}, {1e-320, 2e-320}}, {1, 3e-320})
    assert.near({{-1}, {2}}, x, 1e-15)
  end)

  it("solve raises a named error when the solution overflows", function()
    -- x1 = 1 / 1e-320 = 1e320 > the largest double
    assert.error_matches(function() la.solve(la.diag{1e-320, 1}, {1, 1}) end,
      "linalg.solve: the solution overflows (pivot U(1,1) = ")
    for _, assume in ipairs{"sym", "lower", "upper", "pos"} do
      assert.error_matches(function() la.solve(la.diag{1e-320, 1}, {1, 1}, {assume = assume}) end,
        "linalg.solve: the solution overflows")
      assert.near({{1}, {1}}, la.solve(la.diag{1e-320, 1}, {1e-320, 1}, {assume = assume}), 0)
    end
  end)

  it("det is the product of the pivots whatever their scale", function()
    -- np.linalg.det(np.diag([1e-320, 1e300])) -> nan; exactly 1e-320 * 1e300
    local d = la.det(la.diag{1e-320, 1e300})
    assert.is_true(rel(1e-320 * 2 ^ 600 * (1e300 * 2 ^ -600), d, 4))
    assert.is_true(math.abs(d - 1e-20) <= 1e-4 * 1e-20)   -- 1e-320 carries 4 digits
    assert.equal(-1e-320, la.det(la.matrix{{0, 1e-320}, {1, 0}}))
    -- float32: 1e-44 is a subnormal float (below 1.18e-38)
    local d32 = la.det(f32{{1e-44, 0}, {0, 1e30}})
    assert.is_true(rel(f32{{1e-44}}(1, 1) * f32{{1e30}}(1, 1), d32, 4))
  end)

  it("lu factors past a subnormal pivot (L and U finite, P A = L U)", function()
    -- scipy.linalg.lu([[1e-320, 1], [1e-320, 2]]) -> U(2,2) = -inf, L(2,1) = inf;
    -- exactly L = [[1, 0], [1, 1]], U = [[1e-320, 1], [0, 1]]
    for _, t in ipairs{"float64", "float32"} do
      local v = t == "float32" and 1e-44 or 1e-320
      local A = la.matrix({{v, 1}, {v, 2}}, {dtype = t})
      local Lm, U, _, P = la.lu(A)
      assert.is_true(finite(Lm) and finite(U))
      assert.near({{1, 0}, {1, 1}}, Lm, 0)
      assert.near({{0, 1}, {0, 1}}, U, 1e-40)
      assert.equal(A(1, 1), U(1, 1))
      assert.near(P * A, Lm * U, 0)
    end
  end)

  it("inv, matrix_power and cond: overflow past a subnormal pivot is named or inf", function()
    -- inv(diag(1e-320, 1)) = diag(1e320, 1): not representable
    assert.error_matches(function() la.inv(la.diag{1e-320, 1}) end,
      "linalg.inv: the inverse overflows (pivot U(1,1) = ")
    assert.error_matches(function() la.matrix_power(la.diag{1e-320, 1}, -2) end,
      "linalg.matrix_power: the inverse overflows")
    assert.error_matches(function() la.inv(f32{{1e-44, 0}, {0, 1}}) end,
      "linalg.inv: the inverse overflows")
    -- np.linalg.cond(np.diag([1e-320, 1]), 1) -> nan; exactly 1e320: inf
    assert.equal(math.huge, la.cond(la.diag{1e-320, 1}, 1))
  end)

  it("float32 solve past a subnormal pivot", function()
    -- np.linalg.solve(np.diag([1e-44, 1]).astype(np.float32), [1e-44, 1]) -> [nan, nan]
    local x = la.solve(f32{{1e-44, 0}, {0, 1}}, f32{{1e-44}, {1}})
    assert.equal("float32", x.dtype)
    assert.near({{1}, {1}}, x, 0)
  end)

  it("gram_schmidt of subnormal columns", function()
    -- exactly Q = [[1, -1], [1, 1]] / sqrt(2), R = [[sqrt(2) v, v / sqrt(2)], [0, v / sqrt(2)]]
    for _, t in ipairs{"float64", "float32"} do
      local v = t == "float32" and 1e-44 or 1e-320
      for _, method in ipairs{"mgs", "cgs", "cgs2"} do
        local V = la.matrix({{v, 0}, {v, v}}, {dtype = t})
        local Q, R = la.gram_schmidt(V, {method = method})
        local e = t == "float32" and 1e-6 or 1e-15
        assert.near({{1 / math.sqrt(2), -1 / math.sqrt(2)}, {1 / math.sqrt(2), 1 / math.sqrt(2)}}, Q, e)
        assert.near(la.eye(2), Q.T * Q, e)
        assert.is_true(R(1, 1) > 0 and R(2, 2) > 0 and finite(R))
      end
      local Q = la.gram_schmidt(la.diag(la.vector({v, v}, {dtype = t})))
      assert.near(la.eye(2), Q, t == "float32" and 1e-7 or 1e-15)
    end
  end)

  it("gram_schmidt near the largest double: scaled, or a named overflow", function()
    -- columns of norm sqrt(2) * 1e308 (representable) and 1.5e308 * sqrt(2) (not)
    local Q, R = la.gram_schmidt(la.matrix{{1e308, 1e308}, {1e308, -1e308}})
    assert.near({{1, 1}, {1, -1}} , Q * math.sqrt(2), 1e-15)
    assert.is_true(rel(math.sqrt(2) * 1e308, R(1, 1), 4))
    assert.error_matches(function() la.gram_schmidt(la.matrix{{1.5e308, 1}, {1.5e308, -1}}) end,
      "linalg.gram_schmidt: R overflows")
  end)
end)

describe("cosine, angle and cosine_matrix at any scale", function()
  -- numpy 1.24: x = [1, 2, 3], y = [4, -5, 6]: x @ y / (norm(x) * norm(y)) =
  -- 0.3654869423239036, arccos: 1.1966404427876283; at scale 3e154 or 1e-200
  -- the same formula gives nan (the dot product overflows / underflows)
  local C0, A0 = 0.3654869423239036, 1.1966404427876283
  local x, y = {1, 2, 3}, {4, -5, 6}
  local function scaled(v, s, t)
    local r = {}
    for i = 1, #v do r[i] = v[i] * s end
    return la.matrix(r, {dtype = t}):t()
  end

  it("float64 vectors of entries near 1e154 or 1e-200 (and beyond)", function()
    for _, s in ipairs{3e154, 1e-200, 1e300, 1e-310, 2 ^ 400, 2 ^ -401} do
      local u, v = scaled(x, s), scaled(y, s)
      assert.is_true(rel(C0, la.cosine(u, v), 8), "cosine at scale " .. s)
      assert.is_true(rel(A0, la.angle(u, v), 8), "angle at scale " .. s)
      -- the two vectors at different scales
      assert.is_true(rel(C0, la.cosine(u, scaled(y, 1)), 8))
      local C = la.cosine_matrix(la.vstack{u, v}, la.vstack{v, u})
      assert.is_true(rel(C0, C(1, 1), 8) and rel(C0, C(2, 2), 8), "cosine_matrix at scale " .. s)
      assert.is_true(rel(1, C(1, 2), 4) and rel(1, C(2, 1), 4))
    end
  end)

  it("float32 vectors of entries near 1e20 or 1e-25", function()
    for _, s in ipairs{1e20, 1e-25, 1e30, 1e-30} do
      local u, v = scaled(x, s, "float32"), scaled(y, s, "float32")
      assert.is_true(rel(C0, la.cosine(u, v), 8, EPS32), "cosine at scale " .. s)
      local C = la.cosine_matrix(la.vstack{u, v}, la.vstack{v, u})
      assert.equal("float32", C.dtype)
      assert.is_true(rel(C0, C(1, 1), 8, EPS32) and rel(C0, C(2, 2), 8, EPS32),
        "cosine_matrix at scale " .. s)
      assert.is_true(rel(1, C(1, 2), 4, EPS32))
    end
  end)

  it("float32 vectors: the bits of the same values as float64, NaN and Inf as float64's", function()
    -- a product of two floats is exact in double, so the float32 pass (its
    -- sums alone) and the float64 one (with its scale checks) add the same
    -- terms in the same blocks
    for _, n in ipairs{1, 7, 16, 129, 1000, 4099} do
      for _, s in ipairs{1, 1e-40, 3e37} do
        local u = (la.randn(n, 1, n) * s):astype("float32")
        local v = (la.randn(n, 1, n + 1) * s):astype("float32")
        local c32, c64 = la.cosine(u, v), la.cosine(u:astype("float64"), v:astype("float64"))
        assert.equal(c64, c32, ("n = %d, scale %g"):format(n, s))
        assert.is_true(math.abs(la.cosine(u, u * 2) - 1) < 1e-12)
        if n > 1 then
          for _, bad in ipairs{0 / 0, math.huge, -math.huge} do
            local w = u:copy()
            w:set(math.floor(n / 2) + 1, 1, bad)
            assert.is_true(la.cosine(w, v) ~= la.cosine(w, v), "NaN from " .. tostring(bad))
            assert.is_true(la.cosine(v, w) ~= la.cosine(v, w))
          end
        end
      end
    end
    local z = la.zeros(300, 1, {dtype = "float32"})
    local o = la.ones(300, 1, {dtype = "float32"})
    assert.error_matches(function() la.cosine(z, o) end, "linalg.cosine: first vector is zero")
    assert.error_matches(function() la.cosine(o, z) end, "linalg.cosine: second vector is zero")
  end)

  it("keeps the results of ordinary vectors and the zero-vector error", function()
    assert.equal(C0, la.cosine(x, y))
    assert.error_matches(function() la.cosine({0, 0}, {1e-320, 0}) end,
      "linalg.cosine: first vector is zero")
    assert.error_matches(function() la.angle({1e-320, 0}, {0, 0}) end,
      "linalg.angle: second vector is zero")
    assert.error_matches(function() la.cosine_matrix(la.matrix{{1e300, 1}, {0, 0}}, la.matrix{{1, 1}}) end,
      "linalg.cosine_matrix: row 2 of U is zero")
  end)
end)

describe("row means", function()
  it("are the row sums divided by n, entry by entry; float32's rounded once", function()
    for _, shape in ipairs{{1037, 7}, {5, 3}, {100000, 10}, {9, 1}} do
      local m, n = shape[1], shape[2]
      local A = la.randn(m, n, m + n)
      local M, S = A:mean(2), A:sum(2)
      local F = A:astype("float32")
      local M32, S64 = F:mean(2), F:astype("float64"):sum(2)
      assert.equal("float32", M32.dtype)
      local bad, bad32 = 0, 0
      for i = 1, m do
        if M(i, 1) ~= S(i, 1) / n then bad = bad + 1 end
        if M32(i, 1) ~= la.matrix{{S64(i, 1) / n}}:astype("float32")(1, 1) then bad32 = bad32 + 1 end
      end
      assert.equal(0, bad, "float64 " .. m .. "x" .. n)
      assert.equal(0, bad32, "float32 " .. m .. "x" .. n)
    end
  end)
end)

describe("nnls and convex span_check of empty problems", function()
  -- scipy.optimize.nnls (SciPy 1.10.1) raises "too many iterations" for an A
  -- of 0 rows or 0 columns; the answer is x = 0 with residual 0 for m = 0
  -- (every x fits), and x empty with residual ||b|| for n = 0
  it("A of zero rows, zero columns or both", function()
    local x, r = la.nnls(la.zeros(0, 3), la.zeros(0, 1))
    assert.near(la.zeros(3, 1), x, 0)
    assert.equal(0, r)
    x, r = la.nnls(la.zeros(0, 2), {})
    assert.near(la.zeros(2, 1), x, 0)
    assert.equal(0, r)
    x, r = la.nnls(la.zeros(3, 0), {1, 2, 3})
    assert.same({0, 1}, {x:shape()})
    assert.is_true(rel(math.sqrt(14), r, 2))
    x, r = la.nnls(la.zeros(0, 0), la.zeros(0, 1))
    assert.same({0, 1}, {x:shape()})
    assert.equal(0, r)
    x, r = la.nnls(la.zeros(0, 2, {dtype = "float32"}), la.zeros(0, 1, {dtype = "float32"}))
    assert.equal("float32", x.dtype)
    assert.near(la.zeros(2, 1), x, 0)
  end)

  it("span_check{convex = true}: zero rows, and X and y at a tiny scale", function()
    -- any weights summing to 1 put the empty point in the hull of 3 points of R^0
    local inside, info = la.span_check(la.zeros(0, 3), la.zeros(0, 2), {convex = true})
    assert.is_true(inside)
    assert.equal(0, info.rank)
    for j = 1, 2 do
      local w = info.coeffs:col(j)
      assert.is_true(rel(1, w:sum(), 2) and w:min() >= 0)
    end
    -- y = (e1 + e2) / 2 at scale 1e-200 (NNLS's gradients, products of two
    -- entries, underflowed: weights 0, "outside") and 1e300
    for _, s in ipairs{1e-200, 1e300} do
      inside, info = la.span_check(la.diag{s, s}, {0.5 * s, 0.5 * s}, {convex = true})
      assert.is_true(inside, "scale " .. s)
      assert.near({{0.5}, {0.5}}, info.coeffs, 1e-12)
    end
    -- outside: (e1 + e2) needs weights summing to 2 (at 1e-150: the residual's
    -- norm, a BLAS dnrm2, stays in range without extended precision too)
    assert.is_false((la.span_check(la.diag{1e-150, 1e-150}, {1e-150, 1e-150}, {convex = true})))
  end)

  it("reads no uninitialised memory (valgrind on a script of these calls)", function()
    local sh = require "shell"
    local under = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true)
    local _, have = sh("command -v valgrind")
    if under or not have or os.getenv("ASAN_OPTIONS") then return end
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write([[
      package.path = "./lua/?.lua;./lua/?/init.lua;" .. package.path
      package.cpath = "./]] .. require("interp").build .. [[/?.so;" .. package.cpath
      local la = require "linalg"
      la.nnls(la.zeros(0, 3), la.zeros(0, 1))
      la.nnls(la.zeros(3, 0), {1, 2, 3})
      la.nnls(la.zeros(0, 0), la.zeros(0, 1))
      la.span_check(la.zeros(0, 3), la.zeros(0, 1), {convex = true})
    ]])
    f:close()
    local out, ok = sh("OPENBLAS_NUM_THREADS=1 valgrind -q --error-exitcode=1 " .. require("interp").lua .. " " .. path)
    os.remove(path)
    assert.is_true(ok, out)
  end)
end)

describe("tolerances: rcond >= 1, NaN, negative, inf", function()
  local A = la.matrix{{2, 0}, {0, 1}, {0, 0}}
  local b = {1, 1, 1}

  -- NumPy documents lstsq's rcond as "singular values smaller than rcond *
  -- largest are treated as zero" (pinv and matrix_rank: kept when s >
  -- rcond * s_max); linalg keeps s > rcond * s_max for every method, so
  -- rcond >= 1 leaves rank 0 and x = 0. NumPy 1.24.2's lstsq hands rcond to
  -- LAPACK's dgelsd, whose dlalsd takes machine precision for rcond >= 1:
  -- np.linalg.lstsq(A, b, rcond=2) -> ([0.5, 1], [1.], 2, [2., 1.]), against
  -- its own rule.
  it("lstsq with rcond = 1, 2, inf: rank 0, x = 0, the singular values still", function()
    for _, rc in ipairs{1, 2, math.huge} do
      for _, t in ipairs{"float64", "float32"} do
        local x, res, rank, sv = la.lstsq(la.matrix({{2, 0}, {0, 1}, {0, 0}}, {dtype = t}), b, {rcond = rc})
        assert.near({{0}, {0}}, x, 0)
        assert.equal(0, rank)
        assert.is_nil(res)
        assert.near({{2}, {1}}, sv, 1e-6)       -- np.linalg.svd(A)[1]: [2., 1.]
        x, res, rank = la.lstsq(la.matrix({{2, 0}, {0, 1}, {0, 0}}, {dtype = t}), b,
                                {rcond = rc, method = "qrp"})
        assert.near({{0}, {0}}, x, 0)
        assert.equal(0, rank)
      end
      assert.error_matches(function() la.lstsq(A, b, {rcond = rc, method = "qr"}) end,
        "linalg.lstsq: A is rank deficient (|R(1,1)| = 2.0 <= ")
      -- the tall path (TSQR, m >= 4n) and the least-squares state
      local T = la.vstack{A, la.zeros(6, 2)}
      local x, _, rank = la.lstsq(T, la.ones(9, 1), {rcond = rc})
      assert.near({{0}, {0}}, x, 0)
      assert.equal(0, rank)
      local s = la.lsq_state(2)
      s:add(T, la.ones(9, 1))
      x, _, rank = s:solve{rcond = rc, method = "qrp"}
      assert.near({{0}, {0}}, x, 0)
      assert.equal(0, rank)
    end
  end)

  it("lstsq below 1, at 0 and negative as NumPy", function()
    -- np.linalg.lstsq(A, b, rcond=0.5) -> ([0.5, 0.], [], 1, [2., 1.])
    local x, res, rank = la.lstsq(A, b, {rcond = 0.5})
    assert.near({{0.5}, {0}}, x, 1e-15)
    assert.equal(1, rank)
    assert.is_nil(res)
    -- rcond=-1 and rcond=0 (dlalsd: machine precision) -> ([0.5, 1.], [1.], 2, [2., 1.])
    for _, rc in ipairs{-1, 0} do
      for _, method in ipairs{"svd", "qrp", "qr"} do
        x, res, rank = la.lstsq(A, b, {rcond = rc, method = method})
        assert.near({{0.5}, {1}}, x, 1e-15)
        assert.equal(2, rank)
        assert.near({{1}}, res, 1e-15)
      end
    end
    -- gelsy given rcond = 0 kept an exactly zero R(2,2) and divided by it
    -- (x = [-inf, inf]); np.linalg.lstsq(ones((3, 2)), [1, 2, 3], rcond=0)
    -- -> ([1., 1.], [], 1, ...)
    x, _, rank = la.lstsq(la.ones(3, 2), {1, 2, 3}, {method = "qrp", rcond = 0})
    assert.near({{1}, {1}}, x, 1e-14)
    assert.equal(1, rank)
  end)

  it("a NaN tolerance is an error naming the function and the option", function()
    local nan = 0 / 0
    local s = la.lsq_state(2)
    s:add(A, b)
    local cases = {
      {function() la.rank(la.eye(3), nan) end, "linalg.rank: bad argument #2 (tol is NaN)"},
      {function() la.pinv(la.eye(3), nan) end, "linalg.pinv: bad argument #2 (rcond is NaN)"},
      {function() la.pinv(la.eye(3, {dtype = "float32"}), nan) end, "linalg.pinv: bad argument #2 (rcond is NaN)"},
      {function() la.null(la.eye(3), nan) end, "linalg.null: bad argument #2 (tol is NaN)"},
      {function() la.orth(la.eye(3), nan) end, "linalg.orth: bad argument #2 (tol is NaN)"},
      {function() la.allclose(1, 1, nan) end, "linalg.allclose: bad argument #3 (rtol is NaN)"},
      {function() la.allclose(1, 1, 0, nan) end, "linalg.allclose: bad argument #4 (atol is NaN)"},
      {function() la.lstsq(A, b, {rcond = nan}) end, "linalg.lstsq: rcond is NaN"},
      {function() la.lstsq(A, b, {ridge = nan}) end, "linalg.lstsq: ridge is NaN"},
      {function() s:solve{rcond = nan} end, "linalg.lsq_state.solve: rcond is NaN"},
      {function() s:solve{ridge = nan} end, "linalg.lsq_state.solve: ridge is NaN"},
      {function() la.linear_regression(A, b, {ridge = nan}) end, "linalg.linear_regression: ridge is NaN"},
      {function() la.span_check(A, b, {tol = nan}) end, "linalg.span_check: tol must be a number >= 0"},
      {function() la.gram_schmidt(A, {tol = nan}) end, "linalg.gram_schmidt: tol must be >= 0"},
    }
    for _, c in ipairs(cases) do assert.error_matches(c[1], c[2]) end
  end)

  it("a negative tolerance is an error; inf keeps nothing", function()
    -- rank(A, -1) counted every singular value, zeros too (numpy: S > tol);
    -- pinv(A, -1) inverted the zero singular values (numpy: inf and nan)
    assert.error_matches(function() la.rank(la.zeros(2, 2), -1) end,
      "linalg.rank: bad argument #2 (tol must be >= 0)")
    assert.error_matches(function() la.pinv(la.diag{1, 0}, -1) end,
      "linalg.pinv: bad argument #2 (rcond must be >= 0")
    assert.error_matches(function() la.allclose(1, 1, -1) end,
      "linalg.allclose: bad argument #3 (rtol must be >= 0")
    assert.error_matches(function() la.null(la.eye(2), -1) end, "linalg.null: bad argument #2 (tol must be >= 0")
    assert.equal(0, la.rank(la.eye(3), math.huge))
    assert.near(la.zeros(2, 2), la.pinv(la.eye(2), math.huge), 0)
    assert.same({2, 0}, {la.orth(la.eye(2), math.huge):shape()})
    assert.is_true(la.allclose(1, 2, 0, math.huge))
    -- tables still mean options, absent means the default
    assert.equal(3, la.rank(la.eye(3), {check_finite = true}))
  end)
end)

describe("least squares and ridge near the largest double", function()
  local b = {1, 2, 3, 4, 5, 6, 7, 8}
  -- 8 x 2: tall (m >= 4n), so lstsq takes the TSQR path
  local T = la.matrix{{1, 0.5}, {0.5, 1.5}, {1.5, -1}, {0.25, 1}, {-1, 1}, {1.5, 0.5}, {1, -1.5}, {1, 1}}
  local function relm(e, M, tol)
    for i = 1, #e do
      if not (math.abs(M(i, 1) - e[i]) <= tol * math.abs(e[i])) then return false end
    end
    return true
  end

  it("A whose column norms overflow: finite x for every method and ridge", function()
    -- numpy 1.24: np.linalg.lstsq(T * 1e308, b) -> x = [3.1238095238095223e-308,
    -- 1.3714285714285717e-308], residuals [107.5047619047619], rank 2, sv [inf, inf];
    -- linalg's TSQR said "A's scale overflows the QR factor"
    local A = T * 1e308
    for _, method in ipairs{"svd", "qr", "qrp"} do
      for _, ridge in ipairs{0, 1, 2, 1e300} do
        local x, res, rank = la.lstsq(A, b, {method = method, ridge = ridge})
        assert.is_true(finite(x), method .. " ridge " .. ridge)
        -- a ridge of 2 (or 1e300) against singular values of 3e308 does not show
        assert.is_true(relm({3.1238095238095223e-308, 1.3714285714285717e-308}, x, 1e-13),
          method .. " ridge " .. ridge)
        assert.equal(2, rank)
        assert.is_true(rel(107.5047619047619, res(1, 1), 64))
      end
    end
  end)

  it("one entry near the largest double, with a ridge (was a LAPACK argument error or NaN)", function()
    -- numpy 1.24: np.linalg.lstsq(vstack([A, eye(2)]), r_[b, 0, 0]) ->
    -- [5.88235294117647e-309, 0.], rank 1 (s2 / s1 ~ 3e-308 < eps)
    local A = la.copy(T)
    A:set(1, 1, 1.7e308)
    for _, ridge in ipairs{1e-300, 1} do
      for _, method in ipairs{"svd", "qrp"} do
        local x, _, rank = la.lstsq(A, b, {method = method, ridge = ridge})
        assert.is_true(finite(x))
        assert.is_true(rel(5.88235294117647e-309, x(1, 1), 64))
        assert.is_true(math.abs(x(2, 1)) < 1e-300)
        assert.equal(1, rank)
      end
      assert.error_matches(function() la.lstsq(A, b, {method = "qr", ridge = ridge}) end,
        "linalg.lstsq: A is rank deficient (|R(2,2)| = ")
      -- the state: rows with that entry added, then solved with the ridge
      -- (the ridge's merge overflowed). The state adds rows unscaled: where
      -- BLAS's dnrm2 has no extended range (valgrind's CPU) the add itself
      -- overflows, a named error.
      local s = la.lsq_state(2)
      local ok, e = pcall(s.add, s, A, b)
      if ok then
        local x = s:solve{ridge = ridge}
        assert.is_true(finite(x) and rel(5.88235294117647e-309, x(1, 1), 64))
      else
        assert.truthy(tostring(e):find("linalg.lsq_state.add: A's scale overflows", 1, true))
      end
    end
  end)

  it("b near the largest double: x as NumPy, the residual sum beyond the doubles", function()
    -- numpy 1.24: np.linalg.lstsq(T, b * 1e307) -> x = [3.1238095238095235e+307,
    -- 1.3714285714285712e+307], residuals [inf]
    local B = la.matrix(b) * 1e307
    for _, method in ipairs{"svd", "qr", "qrp"} do
      local x, res = la.lstsq(T, B, {method = method})
      assert.is_true(relm({3.1238095238095235e+307, 1.3714285714285712e+307}, x, 1e-13))
      assert.equal(math.huge, res(1, 1))
    end
    -- an x beyond the doubles is a named error: T's rows scaled down by 1e-10
    assert.error_matches(function() la.lstsq(T * 1e-10, B) end, "linalg.lstsq: the solution overflows")
  end)

  it("float32 near the largest float", function()
    local A = (T * 1e38):astype("float32")
    local x, _, rank = la.lstsq(A, la.matrix(b):astype("float32"), {ridge = 1})
    assert.equal("float32", x.dtype)
    assert.equal(2, rank)
    assert.is_true(relm({3.1238095238095223e-38, 1.3714285714285717e-38}, x, 1e-5))
  end)

  it("linear_regression of data near the largest double (its means overflowed)", function()
    -- X and y at 2^1020 are the unit-scale problem times a power of 2: the
    -- coefficients are the same, the intercept and R^2 scale alike
    local X, y = la.rand(40, 3, 7), la.rand(40, 1, 8)
    local m1 = la.linear_regression(X, y)
    for _, method in ipairs{"qr", "svd", "qrp"} do
      local mb = la.linear_regression(X * 2 ^ 1020, y * 2 ^ 1020, {method = method})
      assert.near(m1.coef, mb.coef, 1e-12)
      assert.is_true(rel(m1.intercept * 2 ^ 1020, mb.intercept, 64))
      assert.is_true(rel(m1.r2, mb.r2, 64))
      -- a ridge of 2 beside X^T X ~ 2^2040 does not show
      local mr = la.linear_regression(X * 2 ^ 1020, y * 2 ^ 1020, {method = method, ridge = 2})
      assert.near(m1.coef, mr.coef, 1e-12)
    end
    -- different scales of X and y: coef = the unit coefficients * 2^(1000 - -1000)
    -- would overflow: named
    assert.error_matches(function() la.linear_regression(X * 2 ^ -1000, y * 2 ^ 1000) end,
      "linalg.linear_regression: the coefficients overflow")
    assert.error_matches(function() la.linear_regression(X, y, {ridge = 0 / 0}) end,
      "linalg.linear_regression: ridge is NaN")
  end)
end)
