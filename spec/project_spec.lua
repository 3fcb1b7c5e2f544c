-- Projections and span checks (API.md: project, projection_matrix,
-- scalar_projection, span_check, nnls). Expected values are the seed texts'.
local la = require "linalg"

describe("linalg.project", function()
  it("projects onto a line (seed: u = [4,3], v = [2,0] -> proj [4,0], residual [0,3])", function()
    local p, r = la.project({4, 3}, {2, 0})
    assert.near({4, 0}, p, 1e-15)
    assert.near({0, 3}, r, 1e-15)
    assert.near(0, la.dot(r, {2, 0}), 1e-15)
  end)

  it("projects onto a subspace (seed: b = [3,4,5] onto the xy-plane -> [3,4,0])", function()
    local p, r = la.project({3, 4, 5}, {{1, 0}, {0, 1}, {0, 0}})
    assert.near({3, 4, 0}, p, 1e-15)
    assert.near({0, 0, 5}, r, 1e-15)
  end)

  it("leaves a residual orthogonal to every column, rank-deficient X included", function()
    local X = la.randn(10, 3, 1)
    X = la.hstack{X, X:col(1) + X:col(2)}            -- rank 3, 4 columns
    local Y = la.randn(10, 2, 2)
    local P, R = la.project(Y, X)
    assert.is_true(la.norm(X.T * R, math.huge) < 1e-13)
    assert.is_true(la.allclose(P + R, Y, 1e-15, 1e-15))
    assert.is_true(la.allclose(la.project(P, X), P, 1e-13, 1e-13))   -- idempotent
  end)

  it("checks shapes", function()
    assert.error_matches(function() la.project({1, 2, 3}, {1, 2}) end, "linalg.project: y has 3 rows but X has 2")
  end)
end)

describe("linalg.projection_matrix", function()
  it("onto a line (seed: v = [3,4,0]): symmetric, idempotent, eigenvalues 0,0,1, trace 1", function()
    local P = la.projection_matrix{3, 4, 0}
    assert.near({{0.36, 0.48, 0}, {0.48, 0.64, 0}, {0, 0, 0}}, P, 1e-15)
    assert.is_true(la.allclose(P * P, P, 1e-14, 1e-15))
    assert.is_true(P == P.T or la.allclose(P, P.T, 0, 1e-16))
    assert.near({0, 0, 1}, (la.eigh(P)), 1e-15)
    assert.near(1, la.trace(P), 1e-15)
    assert.are.equal(1, la.rank(P))
  end)

  it("onto the xy-plane, and I - P onto the z-axis (seed: b = [2,3,7])", function()
    local X = la.matrix{{1, 0}, {0, 1}, {0, 0}}
    local P, C = la.projection_matrix(X), la.projection_matrix(X, {complement = true})
    assert.near(2, la.trace(P), 1e-15)
    assert.near({2, 3, 0}, P * {2, 3, 7}, 1e-15)
    assert.near({0, 0, 7}, C * {2, 3, 7}, 1e-15)
  end)

  it("has trace = rank for a rank-deficient X", function()
    local X = la.randn(8, 2, 4)
    X = la.hstack{X, X * {1, -1}}
    local P = la.projection_matrix(X)
    assert.near(2, la.trace(P), 1e-13)
    local w = la.eigh(P)
    for i = 1, 8 do assert.is_true(math.abs(w(i)) < 1e-13 or math.abs(w(i) - 1) < 1e-13) end
  end)
end)

describe("linalg.scalar_projection", function()
  it("is u.v / ||v|| (seed: 4.0 for u = [4,3], v = [2,0])", function()
    assert.near(4, la.scalar_projection({4, 3}, {2, 0}), 1e-15)
    assert.near(la.norm((la.project({4, 3}, {2, 0}))), la.scalar_projection({4, 3}, {2, 0}), 1e-15)
    assert.error_matches(function() la.scalar_projection({1, 2}, {0, 0}) end, "linalg.scalar_projection: v is the zero vector")
  end)
end)

describe("linalg.span_check", function()
  local X = la.matrix{{1, 2}, {3, 4}, {5, 6}}

  it("finds the seed's coefficients: X w = [0,2,4] with w = [2,-1]", function()
    local inside, info = la.span_check(X, {0, 2, 4})
    assert.is_true(inside)
    assert.near({2, -1}, info.coeffs, 1e-13)
    assert.are.equal(2, info.rank)
    assert.is_true(info.residual_norm < 1e-13)
    assert.near({0, 2, 4}, info.projection, 1e-13)
  end)

  it("tells a point outside the span", function()
    local inside, info = la.span_check(X, {1, 0, 0})
    assert.is_false(inside)
    -- distance to the plane spanned by X's columns: |n . e1| / ||n||, n = [1,-2,1]
    assert.near(1 / math.sqrt(6), info.residual_norm, 1e-13)
  end)

  it("checks every column of an m x k block", function()
    local inside, info = la.span_check(X, la.hstack{{0, 2, 4}, {1, 0, 0}})
    assert.is_false(inside)
    assert.are.same({true, false}, info.inside_each)
    assert.are.same({2, 2}, {info.coeffs:shape()})
  end)

  describe("convex = true", function()
    -- the seed's attention example: a = [0.4011, 0.1978, 0.4011],
    -- o = a V = [0.8022241853595719, 0.7966637219606423] (NumPy)
    local V = la.matrix{{1, 0}, {0, 2}, {1, 1}}
    local o = {0.8022241853595719, 0.7966637219606423}

    it("finds nonnegative weights summing to one for a point in the hull", function()
      local inside, info = la.span_check(V.T, o, {convex = true})
      assert.is_true(inside)
      local w = info.coeffs
      assert.near(1, w:sum(), 1e-14)
      assert.is_true(w:min() >= 0)
      assert.is_true(info.residual_norm < 1e-10)
    end)

    it("tells a point in the span but outside the hull", function()
      local in_span = la.span_check(V.T, {3, 3})
      local in_hull, info = la.span_check(V.T, {3, 3}, {convex = true})
      assert.is_true(in_span)
      assert.is_false(in_hull)
      assert.near(1, info.coeffs:sum(), 1e-14)
      assert.is_true(info.coeffs:min() >= 0)
      -- nearest hull point to (3,3) is the vertex (1,1) = V row 3
      assert.near({0, 0, 1}, info.coeffs, 1e-9)
      assert.near(math.sqrt(8), info.residual_norm, 1e-9)
    end)

    it("works with duplicate points and vertices", function()
      local P = la.matrix{{0, 1, 1, 0}, {0, 0, 0, 1}}    -- columns: (0,0), (1,0), (1,0), (0,1)
      assert.is_true((la.span_check(P, {0.25, 0.25}, {convex = true})))
      assert.is_true((la.span_check(P, {1, 0}, {convex = true})))
      assert.is_false((la.span_check(P, {0.6, 0.6}, {convex = true})))
    end)
  end)

  it("rejects NaN under its own name and checks shapes", function()
    assert.error_matches(function() la.span_check(X, {0 / 0, 1, 1}) end, "linalg.span_check: y(1,1) is NaN")
    assert.error_matches(function() la.span_check(X, {1, 2}) end, "linalg.span_check: y has 2 rows but X has 3")
  end)
end)

describe("linalg.nnls", function()
  it("solves nonnegative least squares (Lawson-Hanson)", function()
    -- unconstrained solution [3.5, 1.4] is already nonnegative
    local x, rn = la.nnls({{1, 1}, {1, 2}, {1, 3}, {1, 4}}, {6, 5, 7, 10})
    assert.near({3.5, 1.4}, x, 1e-13)
    assert.near(math.sqrt(4.2), rn, 1e-13)
    -- min ||[1 0; 0 1] x - [-1, 2]|| over x >= 0 is x = [0, 2]
    local y = la.nnls(la.eye(2), {-1, 2})
    assert.near({0, 2}, y, 1e-15)
    assert.error_matches(function() la.nnls(la.eye(2), {1, 2, 3}) end, "linalg.nnls: A is 2x2 but b is 3x1")
  end)
end)

describe("span_check in float32", function()
  local F32 = {dtype = "float32"}
  local X = la.matrix({{1, 2}, {3, 4}, {5, 6}}, F32)
  it("computes in float32 with tol 1e-4: inside within float32 rounding, outside at 1e-3", function()
    local inside, info = la.span_check(X, X * la.vector({2, -1}, F32))
    assert.is_true(inside)
    assert.are.equal("float32", info.coeffs.dtype)
    assert.near({2, -1}, info.coeffs, 1e-5)
    assert.is_true(info.residual_norm < 1e-5)
    local y = X * la.vector({2, -1}, F32) + la.vector({1, -2, 1}, F32) * 1e-3   -- (1,-2,1) is normal to X's columns
    assert.is_false((la.span_check(X, y)))
    assert.is_true((la.span_check(X, y, {tol = 1e-2})))
    -- a float64 check keeps its own tol: the same y in float64 is outside
    assert.is_false((la.span_check(X:astype("float64"), y:astype("float64"))))
  end)
end)

describe("projections of float32 and mixed arguments", function()
  local F32 = {dtype = "float32"}
  -- [[1, 2], [2, 4], [3, 6.0000001]] in float32 is exactly rank 1 (6.0000001
  -- rounds to 6): the column space is the line through (1, 2, 3), whose
  -- projector has trace 1 and projects e1 to (1, 2, 3) / 14
  local X32 = la.matrix({{1, 2}, {2, 4}, {3, 6.0000001}}, F32)
  it("cut float32 singular values at float32's eps (rank-deficient X)", function()
    assert.are.equal(1, la.rank(X32))
    local P = la.projection_matrix(X32)
    assert.are.equal("float32", P.dtype)
    assert.is_true(math.abs(la.trace(P) - 1) < 1e-6)
    local p, r = la.project(la.vector({1, 0, 0}, F32), X32)
    assert.is_true(la.allclose(p, la.vector{1 / 14, 2 / 14, 3 / 14}, 1e-5, 1e-6))
    assert.is_true(math.abs(la.dot(r, la.vector{1, 2, 3})) < 1e-6)
    local C = la.projection_matrix(X32, {complement = true})
    assert.are.equal("float32", C.dtype)
    assert.is_true(math.abs(la.trace(C) - 2) < 1e-6)
  end)
  it("compute a float64 y against a float32 X in float64 (NumPy's rule)", function()
    local X = la.matrix{{4, 1}, {1, 3}, {0, 1}}
    local y = la.vector{1, 2, 3}
    local p, r = la.project(y, X:astype("float32"))     -- X's entries are exact in float32
    local p64, r64 = la.project(y, X)
    assert.are.equal("float64", p.dtype)
    assert.is_true(la.norm(p - p64) < 1e-14)
    assert.is_true(la.norm(X.T * r) < 1e-13)        -- float32 arithmetic leaves 1e-7
    -- a table takes the float32 argument's type, as in la.solve
    assert.are.equal("float32", (la.project({1, 2, 3}, X:astype("float32"))).dtype)
  end)
  it("span_check convex: a float32 convex combination is inside, coefficients float32", function()
    local X = la.matrix({{0, 1, 0.3}, {0, 0.2, 1}, {1, 0.7, 0.1}}, F32)
    local y = X * la.vector({0.2, 0.3, 0.5}, F32)
    local inside, info = la.span_check(X, y, {convex = true})
    assert.is_true(inside)
    assert.are.equal("float32", info.coeffs.dtype)
    assert.are.equal("float32", info.residual.dtype)
    assert.is_true(la.allclose(info.coeffs, la.vector{0.2, 0.3, 0.5}, 1e-4, 1e-5))
  end)
  it("linear_regression of float32 X and float64 y: rank deficiency seen in float64", function()
    -- 3 samples, 3 features, centred: rank 2 at most whatever the rounding
    local X = la.matrix{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}
    local y = la.vector{1, 2, 3}
    local msg = "linalg.linear_regression: X is rank deficient"
    for _, args in ipairs{{X, y}, {X:astype("float32"), y}, {X, y:astype("float32")}} do
      local ok, e = pcall(la.linear_regression, args[1], args[2])
      assert.is_false(ok)
      assert.are.equal(msg, tostring(e):sub(1, #msg))
    end
  end)
end)
