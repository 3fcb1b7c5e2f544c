-- la.pow's fast scalar exponents (src/kernels/arith_gen.h), as NumPy's:
-- x ^ -1 is 1 / x (correctly rounded), x ^ 1 is x, x ^ 0 is 1, with C99's
-- pow values at the special points (F.9.4.4): pow(+-0, -1) = +-inf,
-- pow(+-inf, -1) = +-0, pow(NaN, 1) = NaN, pow(x, 0) = 1 even for NaN.
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local X = {0.0, -0.0, 1, -1, 3, -7.5, 0.1, 1e-310, 1e308, INF, -INF, NAN}

local function same(a, b)
  if a ~= a then return b ~= b end
  return a == b and 1 / a == 1 / b
end

describe("pow with exponent -1, 1 and 0", function()
  for _, dt in ipairs{"float64", "float32"} do
    it(dt .. ": entry by entry, at every length to 40, on views", function()
      for n = 1, 40 do
        local t = {}
        for i = 1, n do t[i] = {X[(i - 1) % #X + 1] * (1 + (i > #X and 0.5 or 0))} end
        local P = la.matrix(t, {dtype = dt})
        local V = la.vstack{P, P}:sub(1, n, 1, 1)        -- a view with ld 2n
        for _, A in ipairs{P, V} do
          local R, I, O = la.pow(A, -1), la.pow(A, 1), la.pow(A, 0)
          assert.equal(dt, R.dtype)
          for i = 1, n do
            local x = A:get(i, 1)
            local r = la.matrix({{1}}, {dtype = dt}):get(1, 1) / x     -- 1 / x in this type
            if dt == "float32" then r = la.matrix({{r}}, {dtype = dt}):get(1, 1) end
            assert(same(r, R:get(i, 1)), string.format("%s pow(%.17g, -1) = %.17g", dt, x, R:get(i, 1)))
            assert(same(x, I:get(i, 1)), string.format("%s pow(%.17g, 1)", dt, x))
            assert.equal(1, O:get(i, 1))
          end
        end
      end
    end)
  end

  it("matches NumPy 1.24 (x ** -1 of [2, -0.0, inf, 3])", function()
    -- np.array([2, -0.0, np.inf, 3]) ** -1 -> [0.5, -inf, 0., 0.3333333333333333]
    local R = la.pow(la.vector{2, -0.0, INF, 3}, -1)
    assert.equal(0.5, R(1)); assert.equal(-INF, R(2)); assert.equal(0, R(3))
    assert.equal(0.3333333333333333, R(4))
  end)
end)
