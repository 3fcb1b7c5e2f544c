-- log_softmax's loops (src/kernels/attention_gen.h): the exps of a row feed
-- its sum through the vectorized exp of the softmax, one log a row. Values
-- from SciPy 1.10.1: scipy.special.log_softmax(A, axis=1) and axis=0 of
-- the matrix below (rows far apart: -800 and +-1000 stress the shift).
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local A = {{1, 2, 3, 4}, {-1000, 0, 1000, 5}, {0.5, -0.25, -800, 2}}
local ROWS = {
  {-3.4401896985611953e+00, -2.4401896985611953e+00, -1.4401896985611953e+00, -4.4018969856119533e-01},
  {-2.0000000000000000e+03, -1.0000000000000000e+03, 0.0, -9.9500000000000000e+02},
  {-1.7840726046861715e+00, -2.5340726046861715e+00, -8.0228407260468612e+02, -2.8407260468617140e-01}}
local COLS = {
  {-4.7407698418010669e-01, -2.1570354924866678e-01, -9.9700000000000000e+02, -1.3490122167681862e+00},
  {-1.0014740769841801e+03, -2.2157035492486670e+00, 0.0, -3.4901221676818628e-01},
  {-9.7407698418010669e-01, -2.4657035492486670e+00, -1.8000000000000000e+03, -3.3490122167681862e+00}}

local function near(M, want, rtol)
  for i = 1, #want do
    for j = 1, #want[1] do
      local w, g = want[i][j], M:get(i, j)
      assert(math.abs(g - w) <= rtol * math.max(1, math.abs(w)),
             string.format("(%d,%d): %.17g, want %.17g", i, j, g, w))
    end
  end
end

describe("log_softmax", function()
  it("matches SciPy along rows and columns, float64 and float32", function()
    near(la.log_softmax(la.matrix(A), 2), ROWS, 1e-14)
    near(la.log_softmax(la.matrix(A), 1), COLS, 1e-14)
    near(la.log_softmax(la.matrix(A, {dtype = "float32"}), 2), ROWS, 1e-6)
    near(la.log_softmax(la.matrix(A, {dtype = "float32"}), 1), COLS, 1e-6)
  end)

  it("is log(softmax) where that is finite, on every row length to 67", function()
    for n = 1, 67 do
      local X = la.randn(5, n, n)
      local L, P = la.log_softmax(X, 2), la.softmax(X, 2)
      assert.is_true(la.allclose(L, la.log(P), {rtol = 1e-13, atol = 1e-13}))
      assert.is_true(la.allclose(la.sum(la.exp(L), 2), la.ones(5, 1), {rtol = 1e-14, atol = 0}))
    end
  end)

  it("keeps -inf entries, gives -inf for a row of only -inf, NaN for a row with NaN", function()
    local L = la.log_softmax(la.matrix{{0, -INF, 0}, {-INF, -INF, -INF}, {1, NAN, 2}}, 2)
    near(L:sub(1, 1, 1, 1), {{-math.log(2)}}, 1e-15)
    assert.equal(-INF, L:get(1, 2))
    for j = 1, 3 do assert.equal(-INF, L:get(2, j)) end
    for j = 1, 3 do assert.is_true(L:get(3, j) ~= L:get(3, j)) end
  end)
end)

describe("float32 softmax of long lines (sums in double)", function()
  it("sums to 1 within float32 rounding over a row and a column of 1e6", function()
    local S = la.randn(1, 1000000, 3):astype("float32") * 4
    -- a row's sum once accumulated in float32: off by 5e-5 here
    assert.is_true(math.abs(la.sum(la.softmax(S)) - 1) < 2e-6)
    assert.is_true(math.abs(la.sum(la.softmax(S:t(), 1)) - 1) < 2e-6)
    assert.is_true(math.abs(la.sum(la.exp(la.log_softmax(S))) - 1) < 2e-6)
  end)
end)
