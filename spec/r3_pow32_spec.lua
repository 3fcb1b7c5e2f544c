-- pow of float32 matrices (src/kernels/vecmath.c's lak_vpowf: double precision
-- inside, rounded once): correctly rounded known answers (mpmath 1.2.1 at 60
-- digits, rounded to 24 bits; NumPy 1.24's float32 power differs from 11 of
-- these 66), agreement with float64 pow rounded to float32 (libmvec's powf,
-- used before, differs in many), C99's special values (F.9.4.4), and the
-- same bits wherever a value stands: alone, in a 100x100 or a 1000x1000
-- matrix, at any place of a vector, with a matrix or a number for an
-- operand, on any thread count. Where AVX-512 is missing pow of float32
-- is libmvec's (within 1 ulp): the exact tests wait there.
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local NZ = -1 / INF   -- -0.0 made at run time: Lua 5.1 merges the constants 0 and -0.0

local NATIVE = la.config().simd_active == "avx512f"
local function native_it(name, f)
  if NATIVE then it(name, f) else pending(name .. " (needs AVX-512)") end
end

local function f32(t) return la.matrix({t}, {dtype = "float32"}) end

-- the same bits: equal, or both NaN, and zeros of one sign
local function same(a, b)
  if a ~= a then return b ~= b end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

-- {x, y, x^y correctly rounded to float32}, x and y float32 values
local KNOWN = {
  {0.5, 2.5, 0.1767766922712326},
  {0.5, 1.7000000476837158, 0.30778610706329346},
  {0.5, -0.30000001192092896, 1.2311444282531738},
  {0.5, 3, 0.125},
  {0.5, -2.5, 5.6568541526794434},
  {0.5, 0.10000000149011612, 0.93303298950195312},
  {0.75, 2.5, 0.48713928461074829},
  {0.75, 1.7000000476837158, 0.61320281028747559},
  {0.75, -0.30000001192092896, 1.09013831615448},
  {0.75, 3, 0.421875},
  {0.75, -2.5, 2.0528008937835693},
  {0.75, 0.10000000149011612, 0.9716416597366333},
  {1.1000000238418579, 2.5, 1.2690588235855103},
  {1.1000000238418579, 1.7000000476837158, 1.1758923530578613},
  {1.1000000238418579, -0.30000001192092896, 0.97181183099746704},
  {1.1000000238418579, 3, 1.3310000896453857},
  {1.1000000238418579, -2.5, 0.78798556327819824},
  {1.1000000238418579, 0.10000000149011612, 1.0095765590667725},
  {1.5, 2.5, 2.7556760311126709},
  {1.5, 1.7000000476837158, 1.9923019409179688},
  {1.5, -0.30000001192092896, 0.88546746969223022},
  {1.5, 3, 3.375},
  {1.5, -2.5, 0.36288738250732422},
  {1.5, 0.10000000149011612, 1.0413796901702881},
  {2.2000000476837158, 2.5, 7.1788806915283203},
  {2.2000000476837158, 1.7000000476837158, 3.8204858303070068},
  {2.2000000476837158, -0.30000001192092896, 0.78935647010803223},
  {2.2000000476837158, 3, 10.648000717163086},
  {2.2000000476837158, -2.5, 0.1392974853515625},
  {2.2000000476837158, 0.10000000149011612, 1.0820374488830566},
  {3.2999999523162842, 2.5, 19.78266716003418},
  {3.2999999523162842, 1.7000000476837158, 7.6115608215332031},
  {3.2999999523162842, -0.30000001192092896, 0.69894951581954956},
  {3.2999999523162842, 3, 35.937000274658203},
  {3.2999999523162842, -2.5, 0.050549302250146866},
  {3.2999999523162842, 0.10000000149011612, 1.1268118619918823},
  {4.6999998092651367, 2.5, 47.889972686767578},
  {4.6999998092651367, 1.7000000476837158, 13.885654449462891},
  {4.6999998092651367, -0.30000001192092896, 0.62859457731246948},
  {4.6999998092651367, 3, 103.82299041748047},
  {4.6999998092651367, -2.5, 0.020881196483969688},
  {4.6999998092651367, 0.10000000149011612, 1.1673734188079834},
  {10, 2.5, 316.22775268554688},
  {10, 1.7000000476837158, 50.118728637695312},
  {10, -0.30000001192092896, 0.50118720531463623},
  {10, 3, 1000},
  {10, -2.5, 0.0031622776295989752},
  {10, 0.10000000149011612, 1.2589254379272461},
  {123.45600128173828, 2.5, 169348.171875},
  {123.45600128173828, 1.7000000476837158, 3593.940185546875},
  {123.45600128173828, -0.30000001192092896, 0.23580136895179749},
  {123.45600128173828, 3, 1881640.375},
  {123.45600128173828, -2.5, 5.9049943956779316e-06},
  {123.45600128173828, 0.10000000149011612, 1.6186435222625732},
  {0.0099999997764825821, 2.5, 9.9999997473787516e-06},
  {0.0099999997764825821, 1.7000000476837158, 0.00039810707676224411},
  {0.0099999997764825821, -0.30000001192092896, 3.981071949005127},
  {0.0099999997764825821, 3, 9.9999988378840499e-07},
  {0.0099999997764825821, -2.5, 100000.0078125},
  {0.0099999997764825821, 0.10000000149011612, 0.63095736503601074},
  {6.9999997778586578e-20, 1.7000000476837158, 2.7331643229579632e-33},
  {6.9999997778586578e-20, -0.30000001192092896, 557790.125},
  {6.9999997778586578e-20, 0.10000000149011612, 0.012148139998316765},
  {3000000028082176, 1.7000000476837158, 2.0469483056949618e+26},
  {3000000028082176, -0.30000001192092896, 2.2743821318726987e-05},
  {3000000028082176, 0.10000000149011612, 35.294914245605469}
}

describe("pow of float32", function()
  native_it("is correctly rounded at known answers, in each path", function()
    local byy = {}
    for _, k in ipairs(KNOWN) do
      local x, y, want = k[1], k[2], k[3]
      assert.are.equal(want, la.pow(f32({x}), y)(1, 1), x .. " ^ " .. y)
      assert.are.equal(want, la.pow(f32({x}), f32({y}))(1, 1), x .. " ^ " .. y)
      assert.are.equal(want, la.pow(x, f32({y}))(1, 1), x .. " ^ " .. y)
      byy[y] = byy[y] or {x = {}, w = {}}
      table.insert(byy[y].x, x); table.insert(byy[y].w, want)
    end
    for y, t in pairs(byy) do
      local X = f32(t.x)
      local Z, Z2 = la.pow(X, y), la.pow(X, la.full(1, #t.x, y, {dtype = "float32"}))
      assert.are.equal("float32", Z.dtype)
      for j = 1, #t.x do
        assert.are.equal(t.w[j], Z(1, j))
        assert.are.equal(t.w[j], Z2(1, j))
      end
    end
  end)

  native_it("agrees with float64 pow rounded to float32 on 4 x 90000 values", function()
    local P = la.abs(la.randn(300, 300, 7, {dtype = "float32"})) * 3 + 0.01
    local bad = 0
    for _, y in ipairs({2.5, 1.7, -0.3, 3}) do
      y = f32({y})(1, 1)             -- the float32 exponent, for float64 too
      local Z = la.pow(P, y)
      local W = la.pow(P:astype("float64"), y):astype("float32")
      for i = 1, 300 do
        for j = 1, 300 do
          if Z(i, j) ~= W(i, j) then bad = bad + 1 end
        end
      end
    end
    assert.are.equal(0, bad)
  end)

  it("follows C99's special cases", function()
    local cases = {   -- x, y, C99 F.9.4.4's powf(x, y)
      {NAN, 0, 1}, {INF, NZ, 1}, {-3, 0, 1}, {1, NAN, 1}, {1, INF, 1}, {1, -7.5, 1},
      {-1, INF, 1}, {-1, -INF, 1}, {0, -3, INF}, {NZ, -3, -INF}, {NZ, -2, INF},
      {0, -0.5, INF}, {NZ, -INF, INF}, {0, 3, 0}, {NZ, 3, NZ}, {NZ, 2, 0}, {NZ, 0.5, 0},
      {0, INF, 0}, {0.5, -INF, INF}, {2, INF, INF}, {0.5, INF, 0}, {2, -INF, 0},
      {-0.5, INF, 0}, {-2, INF, INF}, {INF, -1, 0}, {INF, 0.5, INF}, {-INF, 3, -INF},
      {-INF, 2, INF}, {-INF, 0.5, INF}, {-INF, -3, NZ}, {-INF, -2, 0}, {-INF, -0.5, 0},
      {-2, 3, -8}, {-2, -3, -0.125}, {-3, 2, 9}, {-2, 128, INF}, {-2, 127, -2 ^ 127},
      {-2, -149, -2 ^ -149}, {2, 128, INF}, {2, -150, 0}, {2, -149, 2 ^ -149},
      {2, -126, 2 ^ -126}, {2 ^ -140, 0.5, 2 ^ -70}, {2 ^ -149, 1, 2 ^ -149},
      {1e-30, 1e9, 0}, {10, 1e30, INF}, {10, 7, 1e7}, {16, 0.25, 2}, {-8, 1 / 3, NAN},
      {-2, 0.5, NAN}, {NAN, 1, NAN}, {2, NAN, NAN}, {-1, NAN, NAN}}
    local xs, ys = {}, {}
    for i, c in ipairs(cases) do xs[i], ys[i] = c[1], c[2] end
    local Z = la.pow(f32(xs), f32(ys))
    for i, c in ipairs(cases) do
      assert.is_true(same(Z(1, i), c[3]), "pow(" .. c[1] .. ", " .. c[2] .. ") = " .. Z(1, i))
      assert.is_true(same(la.pow(f32({c[1]}), c[2])(1, 1), c[3]))
    end
  end)
end)

describe("pow of float32 gives the same bits wherever a value stands", function()
  native_it("alone, in any place of a vector, in 100x100 and 1000x1000", function()
    local big = la.abs(la.randn(1000, 1000, 3, {dtype = "float32"})) * 2 + 0.5
    local E = la.randn(1000, 1000, 4, {dtype = "float32"}) * 3
    local bad = 0
    for _, y in ipairs({2.5, -0.3, E}) do
      local B = la.pow(big, y)
      local ys = y == E and E:sub(1, 100, 1, 100):copy() or y
      local S = la.pow(big:sub(1, 100, 1, 100):copy(), ys)
      for i = 1, 100 do
        for j = 1, 100 do
          if not same(S(i, j), B(i, j)) then bad = bad + 1 end
        end
      end
      for n = 1, 35 do               -- every tail length of a 16-lane loop
        local x, e = {}, {}
        for i = 1, n do x[i] = big(i, n); e[i] = y == E and E(i, n) or y end
        local Z = la.pow(f32(x), y == E and f32(e) or y)
        for i = 1, n do
          if not (same(Z(1, i), B(i, n)) and same(la.pow(f32({x[i]}), e[i])(1, 1), B(i, n))) then
            bad = bad + 1
          end
        end
      end
    end
    assert.are.equal(0, bad)
  end)

  it("on 1 and on 2 threads", function()
    local A = la.abs(la.randn(600, 600, 5, {dtype = "float32"})) + 0.5
    local E = la.randn(600, 600, 6, {dtype = "float32"})
    local old = la.threads()
    la.threads(1)
    local Y1, M1 = la.pow(A, 1.7), la.pow(A, E)
    la.threads(2)
    local Y2, M2 = la.pow(A, 1.7), la.pow(A, E)
    la.threads(old)
    assert.is_true(la.allclose(Y1, Y2, 0, 0) and la.allclose(M1, M2, 0, 0))
  end)
end)

-- A fixed half-integer or integer y = k/2, |y| <= 8.5 (src/kernels/arith.c's
-- halfpow: products, a square root and a reciprocal in double, rounded
-- once): C's pow in double rounded to float32 (Lua's x ^ y is C's pow), at
-- C99's special values and on random arguments, and the general path's bits
-- where that is correctly rounded (AVX-512).
local function tof32(v) return f32({v})(1, 1) end

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
