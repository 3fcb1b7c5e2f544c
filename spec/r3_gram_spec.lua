-- A matrix times its own transpose (NumPy's X.T @ X and X @ X.T, here
-- X:t() * X and X * X:t()): computed by syrk (or kernels/gram.c's X^T X
-- up to 32 columns) at every size, symmetric bit for bit, with the values
-- of the general product; a right operand that is not quite the transpose
-- takes the general product.
local la = require "linalg"

-- X (k x m) with X(i, j) = f(i, j)
local function build(k, m, f, o)
  local X = la.zeros(k, m, o)
  for j = 1, m do
    for i = 1, k do X:set(i, j, f(i, j)) end
  end
  return X
end

-- the largest |G(i, j) - want(i, j)|
local function offby(G, want)
  local m, n = G:shape()
  local d = 0
  for j = 1, n do
    for i = 1, m do d = math.max(d, math.abs(G(i, j) - want(i, j))) end
  end
  return d
end

describe("a matrix times its own transpose", function()
  for _, dt in ipairs{"float64", "float32"} do
    local o = {dtype = dt}
    it("X:t() * X: sum over i of X(i, a) X(i, b), exactly (" .. dt .. ")", function()
      -- X(i, j) = j: (X^T X)(a, b) = 20 a b; X(i, j) = i: 1 + 4 + ... + 400 = 2870
      local X = build(20, 130, function(_, j) return j end, o)
      local G = X:t() * X
      assert.are.same({130, 130}, {G:shape()})
      assert.are.equal(dt, G.dtype)
      assert.are.equal(0, offby(G, function(a, b) return 20 * a * b end))
      local Y = build(20, 130, function(i) return i end, o)
      assert.are.equal(0, offby(Y:t() * Y, function() return 2870 end))
    end)

    it("X * X:t() (" .. dt .. ")", function()
      local X = build(150, 24, function(i, j) return i - 2 * j end, o)
      local G = X * X:t()
      assert.are.same({150, 150}, {G:shape()})
      -- sum over j of (a - 2j)(b - 2j) = 24 a b - 600 (a + b) + 19600
      assert.are.equal(0, offby(G, function(a, b) return 24 * a * b - 600 * (a + b) + 19600 end))
    end)
  end

  it("gives a symmetric product, equal to the columns' products", function()
    local X = la.randn(170, 140, 7)
    local G = X:t() * X
    assert.is_true(G == G:t())
    local d = 0
    for j = 1, 140 do
      local c = X:t() * X:col(j)                     -- a product by a vector (gemv)
      d = math.max(d, la.max(la.abs(G:col(j) - c)))
    end
    assert.is_true(d < 1e-11, d)
    assert.is_true(la.allclose(G, la.cov(X) * 169 + la.outer(la.sum(X, 1):t(), la.sum(X, 1)) / 170,
                               1e-10, 1e-10))
  end)

  it("takes the general product when the right operand is not the transpose", function()
    local X = la.randn(150, 140, 8)
    for _, at in ipairs{{140, 150}, {1, 1}, {3, 70}} do
      local Xt = X:t()
      Xt:set(at[1], at[2], 99)
      local G = Xt * X
      local want = Xt:row(at[1]) * X                 -- the row that changed
      assert.is_true(la.allclose(G:row(at[1]), want, 1e-12, 1e-12))
      assert.is_false(G == G:t())
    end
  end)

  it("writes every entry over storage a dropped result left (syrk, beta 0)", function()
    local X = la.randn(150, 200, 3)
    for _ = 1, 3 do local N = la.ones(200, 200) * (0 / 0); assert(N(9, 9) ~= N(9, 9)) end
    collectgarbage(); collectgarbage()              -- their blocks wait in the cache
    local G = X:t() * X
    assert.is_true(la.all(la.isfinite(G)))
    assert.is_true(G == G:t())
  end)

  it("keeps NaN where it reaches (the product by its transpose)", function()
    local X = la.randn(140, 130, 9)
    X:set(5, 7, 0 / 0)
    local G = X:t() * X
    assert.is_true(G(7, 100) ~= G(7, 100) and G(100, 7) ~= G(100, 7))
    assert.is_true(G(6, 100) == G(6, 100))
  end)
end)
