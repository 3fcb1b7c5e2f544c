-- Elementwise functions, comparisons, masks and selection (lelem.c).
-- Reference values: NumPy 1.24.2 (Debian's python3-numpy), printed with
-- repr(np.<f>(x).tolist()).
local la = require "linalg"

local nan, inf = 0 / 0, math.huge
local x = la.matrix{{-2.5, -0.5, 0.0}, {0.5, 1.5, 2.5}}     -- rows of 3
local function flat(t) return la.matrix{{t[1], t[2], t[3]}, {t[4], t[5], t[6]}} end
-- a bool matrix (what comparisons and tests return) with the 1/0 entries want
local function ismask(want, M)
  assert.are.equal("bool", M.dtype)
  assert.near(want, M:astype("float64"))
end

describe("elementwise functions", function()
  -- np.<f>([-2.5, -0.5, 0.0, 0.5, 1.5, 2.5])
  local ref = {
    exp = {0.0820849986238988, 0.6065306597126334, 1.0, 1.6487212707001282, 4.481689070338065, 12.182493960703473},
    expm1 = {-0.9179150013761012, -0.3934693402873666, 0.0, 0.6487212707001282, 3.481689070338065, 11.182493960703473},
    sin = {-0.5984721441039564, -0.47942553860420295, 0.0, 0.47942553860420295, 0.9974949866040544, 0.5984721441039564},
    cos = {-0.8011436155469338, 0.8775825618903725, 1.0, 0.8775825618903725, 0.0707372016677029, -0.8011436155469338},
    tan = {0.7470222972386602, -0.5463024898437905, 0.0, 0.5463024898437905, 14.10141994717172, -0.7470222972386602},
    tanh = {-0.9866142981514303, -0.46211715726000974, 0.0, 0.46211715726000974, 0.9051482536448665, 0.9866142981514303},
    sinh = {-6.0502044810397875, -0.5210953054937474, 0.0, 0.5210953054937474, 2.1292794550948173, 6.0502044810397875},
    cosh = {6.132289479663686, 1.1276259652063807, 1.0, 1.1276259652063807, 2.352409615243247, 6.132289479663686},
    atan = {-1.1902899496825317, -0.4636476090008061, 0.0, 0.4636476090008061, 0.982793723247329, 1.1902899496825317},
    sign = {-1, -1, 0, 1, 1, 1},
    floor = {-3, -1, 0, 0, 1, 2},
    ceil = {-2, 0, 0, 1, 2, 3},
    round = {-2, 0, 0, 0, 2, 2},         -- half to even, as np.round
    abs = {2.5, 0.5, 0, 0.5, 1.5, 2.5},
  }
  for name, want in pairs(ref) do
    it(name .. " matches NumPy", function()
      -- row-major reference against a 2x3 matrix: compare entry by entry
      assert.near(flat(want), la[name](x), 1e-15)
    end)
  end

  -- np.<f>([0.1, 0.5, 0.9])
  local pos = la.vector{0.1, 0.5, 0.9}
  local ref2 = {
    log = {-2.3025850929940455, -0.6931471805599453, -0.10536051565782628},
    sqrt = {0.31622776601683794, 0.7071067811865476, 0.9486832980505138},
    asin = {0.1001674211615598, 0.5235987755982989, 1.1197695149986342},
    acos = {1.4706289056333368, 1.0471975511965976, 0.45102681179626236},
    log2 = {-3.321928094887362, -1.0, -0.15200309344504997},
    log10 = {-1.0, -0.3010299956639812, -0.045757490560675115},
    log1p = {0.09531017980432487, 0.4054651081081644, 0.6418538861723948},
  }
  for name, want in pairs(ref2) do
    it(name .. " matches NumPy", function() assert.near(want, la[name](pos), 1e-15) end)
  end

  -- float64 log10 is src/kernels/vecmath.c's where AVX-512 runs (exact at
  -- powers of ten, NumPy's bits below); elsewhere (and under valgrind)
  -- libmvec's, within 4 ulp (its log10(1e7) is 7.000000000000001)
  it("log10 is exact at powers of ten and matches NumPy's values elsewhere", function()
    local exact = la.config().simd_active == "avx512f"
    local p, k = {}, {}
    for i = 0, 22 do p[#p + 1], k[#k + 1] = 10.0 ^ i, i end
    -- np.log10([2, 3, 0.5, 7e-300, 1.7e308]) (NumPy 1.24), the shortest decimals of its bits
    local x = {2, 3, 0.5, 7e-300, 1.7e308}
    local want = {0.3010299956639812, 0.47712125471966244, -0.3010299956639812, -299.15490195998575,
                  308.2304489213783}
    -- np.all(np.log10(10.0 ** np.arange(23)) == np.arange(23)) is True (NumPy 1.24)
    for i = 1, #x do p[#p + 1], k[#k + 1] = x[i], want[i] end
    local got = la.log10(la.vector(p)):totable()
    if exact then
      assert.are.same(k, got)
    else
      for i = 1, #k do assert(math.abs(got[i] - k[i]) <= 4 * 2.3e-16 * math.abs(k[i]), got[i]) end
    end
    local s = la.log10(la.vector{0, -0.0, -1, 1 / 0, 0 / 0, 5e-324}):totable()
    assert.are.same({-1 / 0, -1 / 0}, {s[1], s[2]})
    assert.is_true(s[3] ~= s[3] and s[4] == 1 / 0 and s[5] ~= s[5])
    assert.near(-323.30621534311581, s[6], 1e-13)                  -- log10(2^-1074)
  end)

  it("agree with Lua's math within 4 ulp on 2000 values, views included", function()
    local A = la.abs(la.randn(50, 40, 7) * 3)
    local V = A:sub(2, 49, 3, 40)            -- a view with gaps between columns
    for _, f in ipairs{"exp", "log", "sin", "cos", "tan", "atan", "sqrt", "floor", "ceil"} do
      local Y = la[f](V)
      for j = 1, V:cols() do
        for i = 1, V:rows() do
          local v, got = V(i, j), Y(i, j)
          local want = math[f](v)
          assert(math.abs(got - want) <= 4 * 2.3e-16 * math.abs(want),
            string.format("%s(%.17g): %.17g vs %.17g", f, v, got, want))
        end
      end
    end
  end)

  it("take numbers and give numbers, like math", function()
    assert.are.equal(math.exp(1), la.exp(1))
    assert.are.equal(2, la.sqrt(4))
    assert.are.equal(-1, la.sign(-3))
    assert.is_true(la.isnan(0 / 0))
    assert.is_false(la.isinf(1))
    assert.are.equal(5, la.hypot(3, 4))
  end)

  it("are methods and accept tables", function()
    assert.near({{1, 2}}, la.matrix{{1, 4}}:sqrt())
    assert.near({1, 0}, la.abs{-1, 0})
  end)

  it("propagate NaN and Inf as libm does", function()
    local Y = la.exp{nan, inf, -inf, 800, -800}
    assert.is_true(Y(1) ~= Y(1))
    assert.are.same({inf, 0, inf, 0}, {Y(2), Y(3), Y(4), Y(5)})
    local Z = la.log{-1, 0}
    assert.is_true(Z(1) ~= Z(1)); assert.are.equal(-inf, Z(2))
    assert.is_true(la.sign(nan) ~= la.sign(nan))
    -- NumPy 1.24: np.sign(np.array([-0.0, 0.0])) is [0., 0.], both +0
    for _, dt in ipairs{"float64", "float32"} do
      local S = la.sign(la.matrix({{-0.0, 0.0, -2.5, 3}}, {dtype = dt}))
      assert.are.equal("0.0 0.0 -1.0 1.0", string.format("%.1f %.1f %.1f %.1f", S(1), S(2), S(3), S(4)))
      assert.are.equal(math.huge, 1 / S(1), dt)
    end
    assert.are.equal(math.huge, 1 / la.sign(-0.0))
    assert.is_true(la.sqrt(-1) ~= la.sqrt(-1))
  end)

  it("keep empty shapes", function()
    assert.are.same({0, 3}, {la.exp(la.zeros(0, 3)):shape()})
    assert.are.same({2, 0}, {la.isnan(la.zeros(2, 0)):shape()})
  end)

  it("isnan, isinf and isfinite give bool masks (1/0 float masks on request)", function()
    local A = la.matrix{{1, nan}, {inf, -inf}}
    ismask({{0, 1}, {0, 0}}, la.isnan(A))
    ismask({{0, 0}, {1, 1}}, la.isinf(A))
    ismask({{1, 0}, {0, 0}}, la.isfinite(A))
    local F = la.isfinite(A, {dtype = "float64"})
    assert.are.equal("float64", F.dtype); assert.near({{1, 0}, {0, 0}}, F)
  end)

  it("name the function and argument in errors", function()
    assert.error_matches(function() la.exp("x") end, "linalg.exp: bad argument #1 (matrix expected, got string)")
    assert.error_matches(function() la.tanh({{1}, {1, 2}}) end, "linalg.tanh: row 2 has 2 entries")
  end)
end)

describe("maximum, minimum, clip, atan2", function()
  local A = la.matrix{{1, 5}, {nan, -2}}
  it("broadcast as + does and propagate NaN (np.maximum)", function()
    -- np.maximum([[1,5],[nan,-2]], [[2],[0]]) = [[2,5],[nan,0]]
    local M = la.maximum(A, la.matrix{{2}, {0}})
    assert.are.equal(2, M(1, 1)); assert.are.equal(5, M(1, 2))
    assert.is_true(M(2, 1) ~= M(2, 1)); assert.are.equal(0, M(2, 2))
    -- np.minimum([[1,5],[nan,-2]], [[3, 0]]) = [[1,0],[nan,-2]]
    local N = la.minimum(A, la.matrix{{3, 0}})
    assert.are.same({1, 0, -2}, {N(1, 1), N(1, 2), N(2, 2)})
    assert.is_true(N(2, 1) ~= N(2, 1))
    assert.is_true(la.maximum(1, nan) ~= la.maximum(1, nan))
    assert.are.equal(3, la.maximum(3, 2))
  end)

  it("clip as np.clip, bounds broadcasting", function()
    -- np.clip([[-1,0.5],[2,nan]], 0, 1) = [[0,0.5],[1,nan]]
    local C = la.clip(la.matrix{{-1, 0.5}, {2, nan}}, 0, 1)
    assert.are.same({0, 0.5, 1}, {C(1, 1), C(1, 2), C(2, 1)})
    assert.is_true(C(2, 2) ~= C(2, 2))
    -- np.clip([[5,5],[5,5]], [[0,6]], 7) = [[5,6],[5,6]]
    assert.near({{5, 6}, {5, 6}}, la.clip(la.matrix(2, 2, 5), la.matrix{{0, 6}}, 7))
    assert.are.equal(1, la.clip(3, 0, 1))
  end)

  it("atan2 matches NumPy", function()
    -- np.arctan2([1,-1],[-1,-1]) = [2.356194490192345, -2.356194490192345]
    assert.near({2.356194490192345, -2.356194490192345}, la.atan2({1, -1}, {-1, -1}), 1e-15)
  end)

  it("reject shapes that do not broadcast, naming them all", function()
    assert.error_matches(function() la.maximum(la.ones(2, 2), la.ones(3, 1)) end,
      "linalg.maximum: shapes 2x2 and 3x1 do not broadcast")
    assert.error_matches(function() la.clip(la.ones(2, 2), la.ones(1, 3), 1) end,
      "linalg.clip: shapes 2x2, 1x3 and 1x1 do not broadcast")
    assert.error_matches(function() la.where(la.ones(2, 2), 1, la.ones(2, 3)) end,
      "linalg.where: shapes 2x2, 1x1 and 2x3 do not broadcast")
  end)
end)

describe("comparisons and masks", function()
  local A = la.matrix{{1, 2}, {3, nan}}
  it("give bool masks, broadcasting, NaN false except ne", function()
    ismask({{1, 0}, {0, 0}}, la.lt(A, 2))
    ismask({{1, 1}, {0, 0}}, la.le(A, 2))
    ismask({{0, 0}, {1, 0}}, la.gt(A, 2))
    ismask({{0, 1}, {1, 0}}, la.ge(A, 2))
    ismask({{0, 1}, {0, 0}}, la.eq(A, 2))
    ismask({{1, 0}, {1, 1}}, la.ne(A, 2))
    ismask({{0, 1}, {1, 0}}, la.ge(A, la.matrix{{2, 2}}))   -- row broadcast
    ismask({{0, 1}, {0, 0}}, A:gt{{1}, {5}})                   -- column broadcast
    assert.near({{1, 0}, {1, 1}}, la.ne(A, 2, {dtype = "float64"}))   -- the 1/0 float mask
    assert.is_true(la.lt(1, 2)); assert.is_false(la.eq(nan, nan))
  end)

  it("any, all and count_nonzero over all entries or along dim", function()
    local M = la.matrix{{0, 1, 0}, {0, 2, nan}}
    assert.is_true(la.any(M)); assert.is_false(la.all(M))
    assert.are.equal(3, la.count_nonzero(M))          -- np.count_nonzero counts NaN
    assert.near({{0, 1, 1}}, la.any(M, 1))
    assert.near({{0, 1, 0}}, la.all(M, 1))
    assert.near({{1}, {2}}, la.count_nonzero(M, 2))
    assert.is_false(la.any(la.zeros(0, 2))); assert.is_true(la.all(la.zeros(0, 2)))
    assert.near({{0, 0}}, la.count_nonzero(la.zeros(0, 2), 1))
    assert.error_matches(function() la.any(M, 3) end, "linalg.any: bad argument #2 (dim must be 1 or 2)")
  end)

  it("where picks from A where the mask is nonzero, else from B", function()
    local W = la.where(la.gt(A, 1.5), A, 0)
    assert.near({{0, 2}, {3, 0}}, W)
    -- np.where([[1],[0]], [[1,2]], [[3,4]]) = [[1,2],[3,4]]
    assert.near({{1, 2}, {3, 4}}, la.where({{1}, {0}}, {{1, 2}}, {{3, 4}}))
    assert.are.equal(7, la.where(nan, 7, 8))                -- NaN is true
    assert.are.equal(8, la.where(0, 7, 8))
  end)

  it("find gives Octave's column-major indices, nonzero NumPy's row-major pairs", function()
    local M = la.matrix{{0, 5}, {7, 0}, {0, 9}}
    -- Octave: find([0 5; 7 0; 0 9]) = [2; 4; 6]
    assert.are.same({2, 4, 6}, la.find(M):totable())
    assert.are.same({2}, la.find(M, 1):totable())
    assert.are.same({}, la.find(la.zeros(2, 2)):totable())
    -- np.nonzero([[0,5],[7,0],[0,9]]) = ([0,1,2], [1,0,1]), here 1-based
    local r, c = la.nonzero(M)
    assert.are.same({1, 2, 3}, r:totable()); assert.are.same({2, 1, 2}, c:totable())
    assert.error_matches(function() la.find(M, -1) end, "linalg.find: bad argument #2 (count must be >= 0)")
  end)
end)

describe("float32 elementwise functions, comparisons and masks", function()
  local F32 = {dtype = "float32"}
  local x32 = x:astype("float32")
  -- within n float32 ulps of the float64 answer (relative, 2^-24 each)
  local function close32(want, got, ulps, what)
    assert.are.equal("float32", got.dtype, what)
    assert.near(want, got, (ulps or 4) * 2 ^ -24)
  end

  it("compute in float32 and give float32: NumPy float32 values within 4 ulp", function()
    -- /usr/bin/python3, NumPy 1.24.2: np.<f>(np.float32([-2.5, -0.5, 0.0, 0.5, 1.5, 2.5]))
    close32(flat{0.0820850059390068, 0.6065306663513184, 1.0, 1.6487212181091309, 4.481688976287842,
                 12.182493209838867}, la.exp(x32), 4, "exp")
    close32(flat{-0.5984721779823303, -0.4794255495071411, 0.0, 0.4794255495071411, 0.9974949955940247,
                 0.5984721779823303}, la.sin(x32), 4, "sin")
    close32(flat{-0.9866142868995667, -0.46211719512939453, 0.0, 0.46211719512939453, 0.9051482081413269,
                 0.9866142868995667}, la.tanh(x32), 4, "tanh")
    close32(flat{1.252763032913208, 0.40546512603759766, 0.0, 0.40546512603759766, 0.9162907600402832,
                 1.252763032913208}, la.log1p(la.abs(x32)), 4, "log1p")
  end)

  it("every math function agrees with its float64 call within float32 precision", function()
    local u = la.matrix({{-0.75, -0.25, 0}, {0.25, 0.5, 0.875}}, F32)      -- in asin/acos's domain
    local p = la.matrix({{0.125, 0.5, 1}, {2, 3.5, 1000}}, F32)            -- positive
    for _, f in ipairs{"exp", "expm1", "sqrt", "abs", "sign", "floor", "ceil", "round", "sin", "cos",
                       "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "log", "log1p", "log2",
                       "log10"} do
      local a = (f == "asin" or f == "acos" or f == "tan") and u or
                (f:sub(1, 3) == "log" or f == "sqrt") and p or x32
      close32(la[f](a:astype("float64")), la[f](a), 4, f)
    end
    assert.are.same({0, 2, -2}, la.round(la.vector({0.5, 1.5, -2.5}, F32)):totable())   -- half to even
    -- 10^|decimals| past the largest float: NumPy 1.24's np.round(a, 40) of
    -- float32 [1e-30, 1.5, 3.25e-20, -2.5, 0] is [1e-30, inf, 3.25e-20, -inf, 0]
    -- and np.round(float32 [1e30, -3e38, 5], -39) [0, -0, 0] (all NaN before)
    local w = la.round(la.vector({1e-30, 1.5, 3.25e-20, -2.5, 0}, F32), 40)
    local f32 = function(x) return la.vector({x}, F32)(1) end
    assert.are.same({f32(1e-30), inf, f32(3.25e-20), -inf, 0}, w:totable())
    local z = la.round(la.vector({1e30, -3e38, 5}, F32), -39)
    assert.are.same({inf, -inf, inf}, {1 / z(1), 1 / z(2), 1 / z(3)})
    local s = la.matrix({{nan, inf, -inf, 1}}, F32)
    assert.are.same({{true, false, false, false}}, la.isnan(s):totable())
    assert.are.same({{false, true, true, false}}, la.isinf(s):totable())
    assert.are.same({{false, false, false, true}}, la.isfinite(s):totable())
    assert.are.equal("float32", la.isfinite(s, F32).dtype)
    assert.are.same({{0, 0, 0, 1}}, la.isfinite(s, F32):totable())
    assert.are.equal("float32", la.exp(x32:sub(1, 2, 2, 3)).dtype)               -- a view
    close32(la.exp(x:sub(1, 2, 2, 3)), la.exp(x32:sub(1, 2, 2, 3)), 4, "exp of a view")
  end)

  it("binary functions: float32 with numbers stays float32, with float64 gives float64", function()
    local y = la.matrix{{1, -1, 0.5}}                                       -- a row, broadcasts
    local y32 = y:astype("float32")
    for _, f in ipairs{"lt", "le", "gt", "ge", "eq", "ne"} do   -- bool whatever the operands
      assert.are.same(la[f](x, y):totable(), la[f](x32, y32):totable(), f)
      assert.are.same(la[f](x, 0.5):totable(), la[f](x32, 0.5):totable(), f)
      assert.are.equal("bool", la[f](x32, y32).dtype, f)
      close32(la[f](x, y, {dtype = "float64"}), la[f](x32, y32, F32), 0, f .. " as float32")
    end
    for _, f in ipairs{"maximum", "minimum", "atan2", "hypot"} do
      close32(la[f](x, y), la[f](x32, y32), 4, f)
      close32(la[f](x, 0.5), la[f](x32, 0.5), 4, f .. " with a number")
      close32(la[f](-1, x), la[f](-1, x32), 4, f .. " after a number")
      assert.are.equal("float64", la[f](x32, y).dtype, f .. " mixed")
      assert.are.equal("float64", la[f](x, y32).dtype, f .. " mixed")
      assert.near(la[f](x, y), la[f](x32, y), 1e-15)
    end
    local m = la.maximum(la.matrix({{nan, 1}}, F32), 2)                     -- NaN propagates
    assert.is_true(m(1, 1) ~= m(1, 1)); assert.are.equal(2, m(1, 2))
    assert.are.equal(true, la.lt(1, 2))                                     -- numbers stay numbers
    assert.error_matches(function() la.maximum(x32, la.zeros(3, 1, F32)) end,
      "linalg.maximum: shapes 2x3 and 3x1 do not broadcast")
  end)

  it("where and clip: float32 operands (and numbers) give float32", function()
    local mask = la.matrix({{1, 0, 1}, {0, 1, 0}}, F32)
    local w = la.where(mask, x32, -9)
    assert.are.equal("float32", w.dtype)
    assert.are.same({{-2.5, -9, 0}, {-9, 1.5, -9}}, w:totable())
    assert.are.equal("float64", la.where(mask, x, -9).dtype)
    local c = la.clip(x32, -1, la.matrix({{2, 2, 2}}, F32))
    assert.are.equal("float32", c.dtype)
    assert.are.same({{-1, -0.5, 0}, {0.5, 1.5, 2}}, c:totable())
    assert.are.same(la.clip(x, -1, 1):totable(), la.clip(x32, -1, 1):totable())
  end)

  it("any, all, count_nonzero, find and nonzero read float32; counts are float64", function()
    local z = la.matrix({{0, 2, nan}, {0, 0, 1}}, F32)
    assert.is_true(la.any(z)); assert.is_false(la.all(z))
    assert.are.equal(3, la.count_nonzero(z))
    local a1, l2 = la.any(z, 1), la.all(z, 2)
    assert.are.equal("float32", a1.dtype); assert.are.same({{0, 1, 1}}, a1:totable())
    assert.are.equal("float32", l2.dtype); assert.are.same({0, 0}, l2:totable())
    local c = la.count_nonzero(z, 1)
    assert.are.equal("float64", c.dtype); assert.are.same({{0, 1, 2}}, c:totable())
    assert.are.same({3, 5, 6}, la.find(z):totable())                        -- column-major
    local r64, c64 = la.nonzero(z:astype("float64"))
    local r32, c32 = la.nonzero(z)
    assert.are.same({r64:totable(), c64:totable()}, {r32:totable(), c32:totable()})
    assert.are.same({1, 3, 4}, la.find(z:sub(1, 2, 2, 3)):totable())        -- a view
    assert.are.same({3, 5}, la.find(z, 2):totable())
  end)
end)
