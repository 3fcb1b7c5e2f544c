-- exp, log, tanh and pow of float64 matrices (src/kernels/vecmath.c): known answers
-- within 1 ulp (exp, log, pow) and 2 ulp (tanh) of the correctly rounded values
-- (mpmath 1.2.1 at 50 digits, rounded to double), C99's special values,
-- tanh's oddness, and the same bits for a value wherever it stands: alone
-- (a number), in a 100x100 or a 1000x1000 matrix, at any place of a
-- vector, on any thread count. float32 keeps its own loops: checked
-- against the float64 results.
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local NZ = -1 / INF   -- -0.0 made at run time: Lua 5.1 merges the constants 0 and -0.0

-- vecmath's AVX-512 loops run on this CPU (elsewhere float64 exp, log, tanh
-- and pow are libmvec's, within 4 ulp, whose vector body and scalar tail
-- may differ in the last bit: the tests of the same bits wait)
local NATIVE = la.config().simd_active == "avx512f"
local ULP = NATIVE and 1 or 4
local function native_it(name, f)
  if NATIVE then it(name, f) else pending(name .. " (needs AVX-512)") end
end

-- |got - want| in units of the last place of want (a double)
local function ulps(got, want)
  if got == want then return 0 end
  if got ~= got or want ~= want then return math.huge end
  local a = math.abs(want)
  if a < 2.2250738585072014e-308 then return math.abs(got - want) / 4.9406564584124654e-324 end
  local e = math.floor(math.log(a) / math.log(2))
  while 2 ^ e > a do e = e - 1 end
  while 2 ^ (e + 1) <= a do e = e + 1 end
  return math.abs(got - want) / 2 ^ (e - 52)
end

local function vec(t) return la.vector(t) end

-- the same bits: equal, or both NaN, and zeros of one sign
local function same(a, b)
  if a ~= a then return b ~= b end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

-- how many entries of the 100x100 S differ in bits from B's top left corner
local function corner_diffs(S, B)
  local bad = 0
  for i = 1, 100 do
    for j = 1, 100 do
      if not same(S(i, j), B(i, j)) then bad = bad + 1 end
    end
  end
  return bad
end

-- mpmath: float(mp.tanh(x)), float(mp.exp(x))
local TANH = {
  {1e-300, 1e-300}, {2.5e-09, 2.5e-09}, {1e-05, 9.999999999666668e-06},
  {0.1, 0.09966799462495582}, {0.25, 0.24491866240370913}, {0.5, 0.46211715726000974},
  {0.5624999999999999, 0.5098299737352565}, {0.5625, 0.5098299737352566},
  {0.57, 0.5153592780074097}, {0.75, 0.6351489523872873}, {1, 0.7615941559557649},
  {1.5, 0.9051482536448664}, {2, 0.9640275800758169}, {3.75, 0.9988944427261528},
  {7, 0.9999983369439447}, {12.5, 0.9999999999722241}, {18.9, 0.9999999999999999},
  {19.1, 1.0}}
local EXP = {
  {-745.1, 5e-324}, {-744.4, 5e-324}, {-708.5, 2.006132305331306e-308},
  {-700, 9.85967654375977e-305}, {-20.25, 1.6052280551856116e-09}, {-1, 0.36787944117144233},
  {-1e-10, 0.9999999999}, {1e-10, 1.0000000001}, {0.5, 1.6487212707001282},
  {1, 2.718281828459045}, {2.302585092994046, 10.000000000000002}, {10, 22026.465794806718},
  {100.5, 4.4319559098458955e+43}, {300, 1.9424263952412558e+130},
  {700, 1.0142320547350045e+304}, {709.78, 1.7928227943945155e+308}}

-- f over the first entries of each pair, as one vector; the worst error
local function worst(f, pairs, sign)
  local x = {}
  for i, p in ipairs(pairs) do x[i] = sign * p[1] end
  local y, w = f(vec(x)), 0
  for i, p in ipairs(pairs) do w = math.max(w, ulps(y(i), sign * p[2])) end
  return w
end

describe("linalg.exp (float64)", function()
  it("is within 1 ulp of the correctly rounded value", function()
    assert.is_true(worst(la.exp, EXP, 1) <= ULP)
  end)

  it("gives C99's special values", function()
    local y = la.exp(vec({0, NZ, INF, -INF, NAN, 710, 1e300, -746, -1e300, -745.1}))
    local want = {1, 1, INF, 0, NAN, INF, INF, 0, 0, 4.9406564584124654e-324}
    for i = 1, #want do assert.is_true(same(y(i), want[i]), "entry " .. i) end
  end)
end)

describe("linalg.tanh (float64)", function()
  it("is within 2 ulp of the correctly rounded value, both signs", function()
    assert.is_true(worst(la.tanh, TANH, 1) <= 2 * ULP)
    assert.is_true(worst(la.tanh, TANH, -1) <= 2 * ULP)
  end)

  it("gives +-1 for large |x|, x for tiny x, keeps the sign of zero and NaN", function()
    local y = la.tanh(vec({0, NZ, INF, -INF, NAN, 20, -20, 800, -1e300, 1e-200, -3e-320}))
    local want = {0, NZ, 1, -1, NAN, 1, -1, 1, -1, 1e-200, -3e-320}
    for i = 1, #want do assert.is_true(same(y(i), want[i]), "entry " .. i) end
  end)

  it("is odd: tanh(-x) = -tanh(x) bit for bit", function()
    local A = la.randn(300, 7) * 3
    local P, N = la.tanh(A), la.tanh(-A)
    for i = 1, 300 do
      for j = 1, 7 do assert.is_true(same(N(i, j), -P(i, j))) end
    end
  end)
end)

describe("exp and tanh give the same bits wherever a value stands", function()
  for _, name in ipairs({"exp", "tanh"}) do
    local f = la[name]
    native_it(name .. ": alone, in any place of a vector, in 100x100 and 1000x1000", function()
      local big = la.randn(1000, 1000) * 4
      local B = f(big)
      local small = big:sub(1, 100, 1, 100):copy()
      local bad = corner_diffs(f(small), B)
      assert.are.equal(0, bad)
      for n = 1, 19 do                 -- every tail length of an 8-lane loop
        local x = {}
        for i = 1, n do x[i] = big(i, n) end
        local y = f(vec(x))
        for i = 1, n do
          if not (same(y(i), B(i, n)) and same(f(x[i]), B(i, n))) then bad = bad + 1 end
        end
      end
      assert.are.equal(0, bad)
    end)

    it(name .. ": on 1 and on 2 threads", function()
      local A = la.randn(600, 600) * 4
      local old = la.threads()
      la.threads(1)
      local Y1 = f(A)
      la.threads(2)
      local Y2 = f(A)
      la.threads(old)
      assert.is_true(la.allclose(Y1, Y2, 0, 0))
    end)
  end
end)

describe("exp and tanh of float32", function()
  it("stay float32 and agree with float64 to float32's precision", function()
    local A = la.randn(50, 40) * 3
    local A32 = A:astype("float32")
    for _, name in ipairs({"exp", "tanh"}) do
      local Y32, Y = la[name](A32), la[name](A32:astype("float64"))
      assert.are.equal("float32", Y32.dtype)
      for i = 1, 50 do
        for j = 1, 40 do
          assert.is_true(math.abs(Y32(i, j) - Y(i, j)) <= 4e-7 * math.abs(Y(i, j)) + 1e-45)
        end
      end
    end
  end)
end)

-- mpmath: float(mp.power(x, y))
local POW = {
  {0.5, 2.5, 0.1767766952966369}, {1.4999, 2.5, 2.755216704268015},
  {0.7, -3.3, 3.244714338485836}, {2.0, 0.5, 1.4142135623730951},
  {10.0, -7.25, 5.6234132519034905e-08}, {1.0001, 7000.5, 2.0137829136518346},
  {0.999, -70000.25, 2.605750376458301e+30}, {3.0, 1e-05, 1.0000109861832343},
  {1e-300, 0.75, 1e-225}, {123.456, 140.125, 1.1834427490871249e+293},
  {5e-324, 0.5, 2.2227587494850775e-162}, {0.9, 7000.0, 4.985e-321},
  {-2.0, 5.0, -32.0}, {-1.5, -7.0, -0.05852766346593507}, {-0.5, 62.0, 2.168404344971009e-19}}

describe("linalg.pow (float64)", function()
  it("is within 1 ulp of the correctly rounded value, exact powers exact", function()
    local x, y = {}, {}
    for i, p in ipairs(POW) do x[i], y[i] = p[1], p[2] end
    local z, w = la.pow(vec(x), vec(y)), 0
    for i, p in ipairs(POW) do
      w = math.max(w, ulps(z(i), p[3]))
      assert.is_true(not NATIVE or same(la.pow(p[1], p[2]), z(i)), "two numbers: entry " .. i)
    end
    assert.is_true(w <= ULP)
    local e = la.pow(vec({3, -3, 2, 10, 2, 4, 7, 0.5}), vec({4, 3, -3, 15, -1074, 0.5, 1, -3}))
    local want = {81, -27, 0.125, 1e15, 4.9406564584124654e-324, 2, 7, 8}
    for i = 1, #want do assert.is_true(same(e(i), want[i]), "exact entry " .. i) end
  end)

  it("gives C99's special values (F.9.4.4)", function()
    local cases = {   -- x, y, pow(x, y)
      {NAN, 0, 1}, {INF, NZ, 1}, {1, NAN, 1}, {1, INF, 1}, {NAN, 1, NAN}, {2, NAN, NAN},
      {-2, 0.5, NAN}, {-0.5, -1.5, NAN}, {-1, INF, 1}, {-1, -INF, 1},
      {0, -1, INF}, {NZ, -1, -INF}, {NZ, -2, INF}, {0, -0.5, INF}, {NZ, -INF, INF},
      {0, 3, 0}, {NZ, 3, NZ}, {NZ, 2, 0}, {NZ, 0.5, 0}, {0, INF, 0},
      {0.5, INF, 0}, {0.5, -INF, INF}, {2, INF, INF}, {2, -INF, 0}, {-0.5, INF, 0}, {-2, INF, INF},
      {-INF, 3, -INF}, {-INF, 2, INF}, {-INF, 0.5, INF}, {-INF, -3, NZ}, {-INF, -2, 0},
      {-INF, -0.5, 0}, {INF, 0.5, INF}, {INF, -0.5, 0},
      {2, 1024, INF}, {-2, 1025, -INF}, {10, 400, INF}, {2, -1075, 0}, {-2, -1077, NZ}, {0.1, 400, 0}}
    local x, y = {}, {}
    for i, c in ipairs(cases) do x[i], y[i] = c[1], c[2] end
    local z = la.pow(vec(x), vec(y))
    for i, c in ipairs(cases) do
      assert.is_true(same(z(i), c[3]), "pow(" .. tostring(c[1]) .. ", " .. tostring(c[2]) .. ")")
      assert.is_true(same(la.pow(c[1], c[2]), c[3]), "two numbers, case " .. i)
    end
  end)

  native_it("gives the same bits in 100x100 and 1000x1000, with a fixed or a moving exponent", function()
    local P = la.rand(1000, 1000) + 0.5
    local Q = la.randn(1000, 1000) * 3
    local B, C = la.pow(P, 2.5), la.pow(P, Q)
    local p, q = P:sub(1, 100, 1, 100):copy(), Q:sub(1, 100, 1, 100):copy()
    local bad = corner_diffs(la.pow(p, 2.5), B) + corner_diffs(la.pow(p, q), C)
    for i = 1, 13 do
      if not same(la.pow(P(i, 1), 2.5), B(i, 1)) then bad = bad + 1 end
    end
    assert.are.equal(0, bad)
  end)
end)

-- mpmath: float(mp.log(x))
local LOG = {
  {5e-324, -744.4400719213812}, {1e-310, -713.8013788281542},
  {2.2250738585072014e-308, -708.3964185322641}, {1e-100, -230.25850929940458},
  {0.5, -0.6931471805599453}, {0.7071, -0.346583180371942}, {0.99, -0.01005033585350145},
  {0.9999999, -1.0000000494736474e-07}, {1.0000001, 9.999999505838704e-08},
  {1.03, 0.02955880224154443}, {1.5, 0.4054651081081644}, {2.0, 0.6931471805599453},
  {10.0, 2.302585092994046}, {1e+100, 230.25850929940458},
  {1.7976931348623157e+308, 709.782712893384}}

describe("linalg.log (float64)", function()
  it("is within 1 ulp of the correctly rounded value", function()
    assert.is_true(worst(la.log, LOG, 1) <= ULP)
  end)

  it("gives C99's special values", function()
    local y = la.log(vec({1, 0, NZ, -1, -INF, INF, NAN, -4.9406564584124654e-324}))
    local want = {0, -INF, -INF, NAN, NAN, INF, NAN, NAN}
    for i = 1, #want do assert.is_true(same(y(i), want[i]), "entry " .. i) end
  end)

  native_it("gives the same bits alone, in 100x100 and 1000x1000, with subnormals among them", function()
    local A = la.rand(1000, 1000) * 3
    A:set(5, 5, 1e-310)
    A:set(7, 3, 0)
    local B = la.log(A)
    local bad = corner_diffs(la.log(A:sub(1, 100, 1, 100):copy()), B)
    for i = 1, 9 do
      if not (same(la.log(A(i, 5)), B(i, 5)) and same(la.log(A(i, 3)), B(i, 3))) then bad = bad + 1 end
    end
    assert.are.equal(0, bad)
  end)
end)
