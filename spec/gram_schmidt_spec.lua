-- Gram-Schmidt (API.md: la.gram_schmidt). Reference numbers: the seed's own
-- NumPy functions gram_schmidt / modified_gram_schmidt run on its V_bad.
local la = require "linalg"

local function orth_err(Q)
  return la.norm(Q.T * Q - la.eye(Q:cols()), math.huge) / Q:cols()  -- ~ max |entry|
end

local function maxabs(A) return math.max(math.abs(A:max()), math.abs(A:min())) end

-- A matrix with 2-norm condition number 1e8: U diag(logspace(0, -8)) V^T
local function ill(m, n, seed)
  local U = la.qr(la.randn(m, n, seed))
  local V = la.qr(la.randn(n, n, seed + 1))
  local s = la.zeros(n, 1):map(function(_, i) return 10 ^ (-8 * (i - 1) / (n - 1)) end)
  return U * la.diag(s) * V.T
end

describe("linalg.gram_schmidt", function()
  for _, method in ipairs{"mgs", "cgs", "cgs2"} do
    it(method .. " gives V = Q R with orthonormal Q and upper-triangular R", function()
      local V = la.randn(30, 8, 21)
      local Q, R = la.gram_schmidt(V, {method = method})
      assert.are.same({30, 8}, {Q:shape()})
      assert.are.same({8, 8}, {R:shape()})
      assert.is_true(maxabs(Q.T * Q - la.eye(8)) < 1e-14)
      assert.is_true(la.allclose(Q * R, V, 1e-13, 1e-13))
      for j = 1, 8 do
        assert.is_true(R(j, j) > 0)
        for i = j + 1, 8 do assert.are.equal(0, R(i, j)) end
      end
    end)
  end

  it("spans the same space as Householder QR (columns agree up to sign)", function()
    local V = la.randn(4, 3, 42)
    local Q = la.gram_schmidt(V)
    local Qh = la.qr(V)
    for j = 1, 3 do assert.near(1, math.abs(la.dot(Q:col(j), Qh:col(j))), 1e-14) end
  end)

  it("reproduces the seed's V_bad orthogonality errors", function()
    -- seed code in NumPy: classical 1e-08, modified 1e-08 (max |Q^T Q - I|)
    local eps = 1e-8
    local V_bad = la.matrix{{1, 1, 1}, {eps, eps, 0}, {0, eps, eps}}
    local e = {}
    for _, m in ipairs{"cgs", "mgs", "cgs2"} do
      e[m] = maxabs(la.gram_schmidt(V_bad, {method = m}).T * la.gram_schmidt(V_bad, {method = m}) - la.eye(3))
    end
    assert.near(1e-8, e.cgs, 1e-3)
    assert.near(1e-8, e.mgs, 1e-3)
    assert.is_true(e.cgs2 < 1e-15)
  end)

  -- 20 columns run column by column; 50 and 100 run in panels (blocked
  -- MGS in compact WY form, BCGS2): the same stability classes must hold.
  for _, k in ipairs{20, 50, 100} do
    it("orders the methods by stability at condition number 1e8 (" .. k .. " columns)", function()
      local A = ill(3 * k, k, 100 + k)
      local e = {}
      for _, m in ipairs{"cgs", "mgs", "cgs2"} do
        local Q, R = la.gram_schmidt(A, {method = m, tol = 0})
        e[m] = maxabs(Q.T * Q - la.eye(k))
        assert.is_true(la.allclose(Q * R, A, 1e-12, 1e-14))
      end
      local Qh = la.qr(A)
      local eh = maxabs(Qh.T * Qh - la.eye(k))
      assert.is_true(e.cgs > 1e-2)                      -- classical: orthogonality lost
      assert.is_true(e.mgs > 1e-12 and e.mgs < 1e-7)    -- modified: ~ cond * eps
      assert.is_true(e.cgs2 < 1e-14)                    -- twice is enough
      assert.is_true(eh < 1e-14)
    end)
  end

  it("blocked and column-by-column runs agree", function()
    local V = la.randn(300, 90, 7)
    for _, m in ipairs{"mgs", "cgs2"} do
      local Qb, Rb = la.gram_schmidt(V, {method = m})
      local Qc, Rc = la.gram_schmidt(V, {method = m, drop = true})   -- unblocked path
      assert.is_true(la.allclose(Qb, Qc, 1e-12, 1e-12))
      assert.is_true(la.allclose(Rb, Rc, 1e-12, 1e-12))
    end
  end)

  it("names a dependent column inside a later panel", function()
    local V = la.randn(100, 70, 8)
    V:col(65):set(1, 0)
    local W = la.hstack{V:sub(1, 100, 1, 64), V:col(3) * 2, V:sub(1, 100, 66, 70)}
    for _, m in ipairs{"mgs", "cgs2", "cgs"} do
      assert.error_matches(function() la.gram_schmidt(W, {method = m}) end, "column 65 is linearly dependent")
    end
  end)

  it("names a dependent column", function()
    local D = la.matrix{{1, 2, 1}, {1, 2, 3}, {1, 2, 5}}      -- column 2 = 2 * column 1
    assert.error_matches(function() la.gram_schmidt(D) end,
      "linalg.gram_schmidt: column 2 is linearly dependent on the columns before it")
    assert.error_matches(function() la.gram_schmidt({{1, 0}, {1, 0}}) end, "column 2 is linearly dependent")
    assert.error_matches(function() la.gram_schmidt({{0, 1}, {0, 1}}, {method = "cgs"}) end, "column 1 is linearly dependent")
  end)

  for _, method in ipairs{"mgs", "cgs", "cgs2"} do
    it(method .. " with drop = true returns a basis of the span and the kept columns", function()
      local a, b = la.vector{1, 1, 1, 1}, la.vector{1, 2, 3, 4}
      local V = la.hstack{a, 2 * a, b, la.zeros(4, 1), a + b}
      local Q, R, kept = la.gram_schmidt(V, {method = method, drop = true})
      assert.are.same({1, 3}, kept)
      assert.are.same({4, 2}, {Q:shape()})
      assert.are.same({2, 5}, {R:shape()})
      assert.is_true(maxabs(Q.T * Q - la.eye(2)) < 1e-14)
      assert.is_true(la.allclose(Q * R, V, 1e-13, 1e-13))     -- every column rebuilt
    end)
  end

  it("handles empty input and checks its options", function()
    local Q, R = la.gram_schmidt(la.zeros(3, 0))
    assert.are.same({3, 0}, {Q:shape()})
    assert.are.same({0, 0}, {R:shape()})
    assert.error_matches(function() la.gram_schmidt(la.eye(2), {method = "qr"}) end,
      'linalg.gram_schmidt: option \'method\' must be "mgs", "cgs" or "cgs2", got "qr"')
    assert.error_matches(function() la.gram_schmidt{{0 / 0}} end, "linalg.gram_schmidt: V(1,1) is NaN")
  end)
end)

describe("linalg.gram_schmidt in float32", function()
  local F32 = {dtype = "float32"}
  local V64 = la.randn(60, 6, 11):astype("float32"):astype("float64")   -- exact in float32
  local V = V64:astype("float32")
  local EPS32 = 2 ^ -23

  for _, method in ipairs{"mgs", "cgs", "cgs2"} do
    it(method .. " runs in float32: float32 Q and R, the float64 factors within float32 precision", function()
      local Q, R = la.gram_schmidt(V, {method = method})
      local Q64, R64 = la.gram_schmidt(V64, {method = method})
      assert.are.equal("float32", Q.dtype)
      assert.are.equal("float32", R.dtype)
      -- orthonormal to float32 precision (a float64 run would give ~1e-16 here)
      local orth = maxabs(Q.T * Q - la.eye(6, F32))
      assert.is_true(orth < 100 * EPS32, method .. " orthogonality " .. orth)
      assert.is_true(orth > 1e-12, "float32 arithmetic, not float64 rounded")
      assert.is_true(la.allclose(Q * R, V, 1e-5, 1e-5))
      assert.is_true(maxabs(Q:astype("float64") - Q64) < 1e-5)     -- R's diagonal > 0: no sign freedom
      assert.is_true(maxabs(R:astype("float64") - R64) < 1e-5 * maxabs(R64))
    end)
  end

  it("uses tol = 1e-4 for float32: a column dependent within float32 rounding is found, a 5% direction is kept", function()
    local a, b = la.randn(200, 1, 3), la.randn(200, 1, 4)
    local D = la.hstack{a, b, a / 3 + b / 7}:astype("float32")   -- column 3 rounded: remainder ~1e-7
    for _, method in ipairs{"mgs", "cgs", "cgs2"} do
      local Q, _, kept = la.gram_schmidt(D, {method = method, drop = true})
      assert.are.same({1, 2}, kept)
      assert.are.same({200, 2}, {Q:shape()})
      -- float64's tol keeps the rounding noise as a "direction"
      local _, _, kept64 = la.gram_schmidt(D, {method = method, drop = true, tol = 1e-10})
      assert.are.same({1, 2, 3}, kept64)
    end
    assert.error_matches(function() la.gram_schmidt(D) end,
      "linalg.gram_schmidt: column 3 is linearly dependent on the columns before it")
    assert.error_matches(function() la.gram_schmidt(D) end, "tol * ||v|| = 0.0001 *")
    -- a direction of 5% of a column's norm is a direction, in either type
    local N = la.matrix({{1, 1}, {0, 0.05}}, F32)
    local Qn = la.gram_schmidt(N)
    assert.near({{1, 0}, {0, 1}}, Qn, 1e-6)
    local Z = la.zeros(3, 0, F32)
    local Q, R = la.gram_schmidt(Z)
    assert.are.equal("float32", Q.dtype); assert.are.same({0, 0}, {R:shape()})
    assert.error_matches(function() la.gram_schmidt(la.matrix({{0 / 0}}, F32)) end,
      "linalg.gram_schmidt: V(1,1) is NaN")
  end)
end)
