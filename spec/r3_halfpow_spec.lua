-- pow of float32 by a fixed half-integer or integer y = k/2, |y| <= 8.5
-- (src/kernels/arith.c's halfpow: products, a square root and a
-- reciprocal in double, rounded once): the value of C's pow in double
-- rounded to float32 (Lua's x ^ y is C's pow), at C99's special values
-- (F.9.4.4) and on random arguments, and the same bits as the general
-- path's pow of a float32 exponent matrix wherever that is correctly
-- rounded.
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local NZ = -1 / INF   -- -0.0 made at run time: Lua 5.1 merges the constants 0 and -0.0

-- the general path is correctly rounded (but for a few in 10^6) where
-- vecmath.c's AVX-512 loops run; elsewhere it is libmvec's powf, within 1 ulp
local NATIVE = la.config().simd_active == "avx512f"
local function native_it(name, f)
  if NATIVE then it(name, f) else pending(name .. " (needs AVX-512)") end
end

local function f32(t) return la.matrix({t}, {dtype = "float32"}) end
local function tof32(v) return f32({v})(1, 1) end

local function same(a, b)
  if a ~= a then return b ~= b end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

local YS = {}
for k = -17, 17 do
  local y = k / 2
  if y ~= 2 and y ~= 0.5 and y ~= 1 and y ~= -1 and y ~= 0 then YS[#YS + 1] = y end
end

describe("pow of float32 by a half-integer", function()
  it("gives C99's special values", function()
    local xs = {0, NZ, INF, -INF, NAN, 1, -1, -2, 2, 0.5, -0.5, 2 ^ -149, -2 ^ -149, 2 ^ -126,
                tof32(3.4e38), -tof32(3.4e38), 1e-20, 1e20, -1e20, 3, -3}
    for i, x in ipairs(xs) do xs[i] = tof32(x) end
    local X = f32(xs)
    for _, y in ipairs(YS) do
      local Z = la.pow(X, y)
      assert.are.equal("float32", Z.dtype)
      for j, x in ipairs(xs) do
        local want = tof32(x ^ y)
        assert.is_true(same(want, Z(1, j)), ("pow(%.9g, %g) = %.9g, not %.9g"):format(x, y, Z(1, j), want))
        assert.is_true(same(want, la.pow(f32({x}), y)(1, 1)))
      end
    end
  end)

  it("is pow in double rounded once, on random arguments (both signs)", function()
    local X = la.randn(200, 50, 21, {dtype = "float32"}) * 4
    local bad, checked = 0, 0
    for _, y in ipairs(YS) do
      local Z = la.pow(X, y)
      for j = 1, 50 do
        for i = 1, 200 do
          local x = X(i, j)
          checked = checked + 1
          if not same(tof32(x ^ y), Z(i, j)) then bad = bad + 1 end
        end
      end
    end
    assert.are.equal(30, #YS)
    assert.are.equal(30 * 10000, checked)
    assert.are.equal(0, bad)
  end)

  native_it("agrees with the general path (a float32 exponent matrix) at every tail length", function()
    local P = la.abs(la.randn(37, 41, 22, {dtype = "float32"})) * 3 + 0.01
    for _, y in ipairs{2.5, -2.5, 3, 1.5, 7.5, -8.5, 8} do
      local Z = la.pow(P, y)
      local G = la.pow(P, la.full(37, 41, y, {dtype = "float32"}))
      local V = la.pow(P:sub(3, 37, 2, 41), y)        -- a view: its own leading dimension
      local bad = 0
      for j = 1, 41 do
        for i = 1, 37 do
          if Z(i, j) ~= G(i, j) then bad = bad + 1 end
          if i >= 3 and j >= 2 and V(i - 2, j - 1) ~= Z(i, j) then bad = bad + 1 end
        end
      end
      assert.are.equal(0, bad, "y = " .. y)
    end
  end)
end)
