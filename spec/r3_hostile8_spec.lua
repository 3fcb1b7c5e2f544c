-- Hostile cases for the gather/scatter slice and set, bool sums, kron,
-- isclose writing bytes, bool conversions, float32 dot/outer, softmax along
-- columns and the sorting network. Known answers (NumPy/SciPy values noted),
-- or a reference written out here from the definition.
local la = require "linalg"

local inf, nan = math.huge, 0 / 0
local unpack = table.unpack or unpack

local function expect_error(pattern, f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  assert.is_truthy(tostring(e):find(pattern, 1, true), tostring(e))
end

local function close(M)
  debug.getmetatable(M).__close(M)
  return M
end

local function f32(x) return la.matrix({{x}}, {dtype = "float32"})(1, 1) end

describe("linalg.isclose with infinite or overflowing tolerances", function()
  -- numpy 1.24: an infinite x or y is close only to itself (x == y),
  -- whatever the tolerance; |inf - y| = inf passes inf <= atol + rtol |y|
  -- when the tolerance is inf or rtol |y| overflows
  it("an infinity is not close to a finite number", function()
    -- np.isclose(np.inf, 1, atol=np.inf) -> False; (np.inf, 1e308, rtol=2) -> False
    assert.is_false(la.isclose(inf, 1, {atol = inf}))
    assert.is_false(la.isclose(inf, 1e308, {rtol = 2}))
    assert.is_false(la.isclose(-inf, 2, {rtol = inf}))
    assert.is_true(la.isclose(-inf, -inf, {atol = inf}))
    assert.is_true(la.isclose(1, 5, {atol = inf}))
    assert.is_true(la.isclose(nan, nan, {atol = inf, equal_nan = true}))
    assert.is_false(la.isclose(nan, nan, {atol = inf}))
    -- a number against a float32 matrix, float32 against float64
    local o = {dtype = "float32"}
    assert.same({{false, true}}, la.isclose(inf, la.matrix({{1, inf}}, o), {atol = inf}):totable())
    assert.same({{false, true}}, la.isclose(la.matrix({{1, inf}}), inf, {atol = inf}):totable())
    assert.same({{false, true}},
      la.isclose(la.matrix({{1, -inf}}, o), la.matrix({{inf, -inf}}), {rtol = inf}):totable())
  end)

  it("broadcasting a column against a row, both types, all dtypes of the result", function()
    -- np.isclose([[inf], [1], [-inf], [nan]], [[1, inf, 1e308, -inf]], rtol=2)
    -- (float32: 3e38 for 1e308; also with atol=np.inf)
    local want = {{0, 1, 0, 0}, {1, 0, 1, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}}
    for _, dt in ipairs{"float64", "float32"} do
      local big = dt == "float32" and 3e38 or 1e308
      local X = la.matrix({{inf}, {1}, {-inf}, {nan}}, {dtype = dt})
      local Y = la.matrix({{1, inf, big, -inf}}, {dtype = dt})
      for _, o in ipairs{{rtol = 2}, {atol = inf}, {rtol = inf, atol = inf}} do
        local C = la.isclose(X, Y, o)
        assert.equal("bool", C.dtype)
        for i = 1, 4 do
          for j = 1, 4 do assert.equal(want[i][j] == 1, C(i, j)) end
        end
        o.dtype = "float32"
        assert.same(want, la.isclose(X, Y, o):totable())
        o.dtype = "float64"
        assert.same(want, la.isclose(X, Y, o):totable())
        o.dtype = nil
        -- same-shape operands (the contiguous column loop), as views
        local P = la.zeros(6, 5, {dtype = dt})
        P:set("2:5", "2:5", la.matrix(Y):astype(dt) + la.zeros(4, 4, {dtype = dt}))
        local Q = la.zeros(6, 5, {dtype = dt})
        Q:set("2:5", "2:5", X + la.zeros(4, 4, {dtype = dt}))
        local D = la.isclose(Q:slice("2:5", "2:5"), P:slice("2:5", "2:5"), o)
        for i = 1, 4 do
          for j = 1, 4 do assert.equal(want[i][j] == 1, D(i, j)) end
        end
      end
    end
  end)
end)

describe("linalg.dot and linalg.outer of closed float32 vectors", function()
  it("are errors, as for float64", function()
    local o = {dtype = "float32"}
    for _, dt in ipairs{"float64", "float32"} do
      local u, v = la.matrix({1, 2, 3}, {dtype = dt}), la.matrix({4, 5, 6}, {dtype = dt})
      assert.equal(32, la.dot(u, v))
      expect_error("linalg.dot: bad argument #1 (matrix is closed)", la.dot, close(la.matrix({1, 2, 3}, o)), v)
      expect_error("linalg.dot: bad argument #2 (matrix is closed)", la.dot, u, close(la.matrix({1, 2, 3}, o)))
      expect_error("linalg.outer: bad argument #1 (matrix is closed)", la.outer, close(la.matrix({1, 2, 3}, o)), v)
      expect_error("linalg.outer: bad argument #2 (matrix is closed)", la.outer, u, close(la.matrix({1, 2, 3}, o)))
    end
  end)

  it("float32 rows with ld, mixed types, lengths and empty vectors", function()
    local o = {dtype = "float32"}
    local A = la.matrix({{1, 2, 3}, {4, 5, 6}}, o)
    assert.equal(32, la.dot(A:row(2), A:row(1)))                    -- 4 + 10 + 18
    assert.equal(32, la.dot(A:row(2), la.matrix({1, 2, 3})))
    assert.equal(0, la.dot(la.zeros(0, 1, o), la.zeros(1, 0, o)))
    -- dsdot: float32 products summed in double (2^24 + 1 + 1 exact)
    assert.equal(2 ^ 24 + 2, la.dot(la.matrix({2 ^ 24, 1, 1}, o), la.ones(3, 1, o)))
    expect_error("linalg.dot: vector lengths 3 and 2 differ", la.dot, A:row(1), la.zeros(2, 1, o))
    -- contiguous float32 vectors of every length to 70 (the vector loop's
    -- blocks of 32 and 8 and its tail), one entry 2^24 so a float32 sum
    -- would round: the double sum is exact here
    for n = 0, 70 do
      local x, y, want = {}, {}, 0
      for i = 1, n do
        x[i] = i == math.floor(n * 3 / 4) + 1 and 2 ^ 24 or (i % 7) - 3
        y[i] = (i % 5) - 2
        want = want + x[i] * y[i]
      end
      local u = n == 0 and la.zeros(0, 1, o) or la.matrix(x, o)
      local v = n == 0 and la.zeros(0, 1, o) or la.matrix(y, o)
      assert.equal(want, la.dot(u, v), "n = " .. n)
      assert.equal(want, la.dot(u:t(), v), "n = " .. n)
      -- rows of a matrix: strided lines
      local W = la.zeros(3, n, o)
      W:set(2, ":", u:t()); W:set(3, ":", v:t())
      assert.equal(want, la.dot(W:row(2), W:row(3)), "rows, n = " .. n)
    end
    local C = la.outer(A:row(2), A:col(3))
    assert.equal("float32", C.dtype)
    assert.same({{12, 24}, {15, 30}, {18, 36}}, C:totable())
    assert.same({0, 3}, {la.outer(la.zeros(0, 1, o), A:row(1)):shape()})
    assert.equal("float64", la.outer(A:row(1), la.matrix({1, 2})).dtype)
  end)
end)

describe("A:set(rows, cols, B) with B a row view (ld > 1) into one column", function()
  -- NumPy: A[:, 0] = M[1, :] writes M's second row down the column
  it("writes the row's entries, not the column's memory after its first", function()
    for _, dt in ipairs{"float64", "float32", "bool"} do
      local M = la.matrix({{1, 2, 3}, {4, 5, 0}, {7, 0, 9}}):astype(dt)
      local A = la.zeros(3, 3):astype(dt)
      A:set(":", 1, M:row(2))                -- a range of rows: a column copy
      A:set({3, 2, 1}, 2, M:row(3))          -- an index list: the scatter
      A:set("3:-1:1", 3, M:row(1))           -- a negative step
      local want = la.matrix({{4, 9, 3}, {5, 0, 2}, {0, 7, 1}}):astype(dt)
      assert.is_true(la.all(la.eq(want, A)), dt)
      -- through a view of A with ld > rows, B a row of A itself (overlap)
      local P = la.matrix({{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}):astype(dt)
      local V = P:slice("2:4", "2:4")
      V:set(":", 2, V:row(1))
      local Q = la.matrix({{1, 2, 3, 4}, {5, 6, 6, 8}, {9, 10, 7, 12}, {13, 14, 8, 16}}):astype(dt)
      assert.is_true(la.all(la.eq(Q, P)), dt)
    end
  end)
end)

-- slice and set against NumPy's A[np.ix_(r, c)] (and = B) written out here
describe("slice and set: gather and scatter against the definition", function()
  local dts = {"float64", "float32", "bool"}
  local function val(dt)
    if dt == "bool" then return math.random() < 0.5 and 1 or 0 end
    return math.random(-50, 50) / 4
  end
  local function all(len) local t = {} for i = 1, len do t[i] = i end return t end
  -- a selection argument and its list of 1-based indices
  local function gensel(len)
    local k = math.random(7)
    if k == 1 then return nil, all(len) end
    if k == 2 then
      local t = {}
      for i = 1, math.random(0, 5) do t[i] = math.random(len) end   -- repeats
      return t, t
    end
    if k == 3 then
      local a, b = math.random(len), math.random(len)
      local st = math.random(1, 3) * (math.random() < 0.5 and -1 or 1)
      local t = {}
      if a == b or (b > a) == (st > 0) then for i = a, b, st do t[#t + 1] = i end end
      return string.format("%s:%d:%s", a == len and "end" or a, st, b == len and "end" or b), t
    end
    if k == 4 then
      local a = math.random(len)
      local b = math.random(a, len)
      local t = {}
      for i = a, b do t[#t + 1] = i end
      return a .. ":" .. b, t
    end
    if k == 5 then                                 -- a mask, bool or 1/0
      local m, t = {}, {}
      for i = 1, len do
        m[i] = math.random() < 0.5 and 1 or 0
        if m[i] == 1 then t[#t + 1] = i end
      end
      local M = la.matrix(m)
      if math.random() < 0.5 then M = M:t() end
      return math.random() < 0.5 and M:astype("bool") or M, t
    end
    if k == 6 then local i = math.random(len) return i, {i} end
    return ":", all(len)
  end
  local function conv(dt, x)
    if type(x) == "boolean" then x = x and 1 or 0 end
    if dt == "bool" then return x ~= 0 end
    if dt == "float32" then return f32(x) end
    return x
  end

  it("2000 random selections of views and copies, all types, B of either type or broadcast", function()
    math.randomseed(3)
    for _ = 1, 2000 do
      local dt = dts[math.random(3)]
      local m, n = math.random(1, 7), math.random(1, 7)
      local P = la.zeros(m + 3, n + 2, {dtype = dt})
      for i = 1, m + 3 do for j = 1, n + 2 do P:set(i, j, val(dt)) end end
      local A = math.random() < 0.5 and P:slice("2:" .. (m + 1), "2:" .. (n + 1))
        or P:slice("1:" .. m, "1:" .. n):copy()
      local ref = {}
      for i = 1, m do ref[i] = {} for j = 1, n do ref[i][j] = A(i, j) end end
      local rsel, rl = gensel(m)
      local csel, cl = gensel(n)
      local S = A:slice(rsel, csel)
      assert.same({#rl, #cl}, {S:shape()})
      assert.equal(dt, S.dtype)
      for i = 1, #rl do
        for j = 1, #cl do
          if ref[rl[i]][cl[j]] ~= S(i, j) then
            error(string.format("%s %dx%d view=%s rows %s cols %s: S(%d,%d)", dt, m, n, "?",
              tostring(rsel), tostring(csel), i, j))
          end
        end
      end
      -- set: B the selection's shape, a row, a column, 1 x 1, a number, a
      -- transposed vector (a view with ld > 1 when a row), or a view of A
      local r, c = #rl, #cl
      local bdt = math.random() < 0.3 and dts[math.random(3)] or dt
      local shape, br, bc, B = math.random(6), r, c, nil
      if shape == 2 then br = 1 elseif shape == 3 then bc = 1 elseif shape == 4 then br, bc = 1, 1 end
      if shape == 5 then
        B = val(dt)
        if dt == "bool" and math.random() < 0.5 then B = B ~= 0 end
      else
        local T = la.zeros(br + 2, bc + 2, {dtype = bdt})
        for i = 1, br + 2 do for j = 1, bc + 2 do T:set(i, j, val(bdt)) end end
        B = T:slice(br > 0 and "2:" .. (br + 1) or {}, bc > 0 and "2:" .. (bc + 1) or {})
        if math.random() < 0.2 and br <= m and bc <= n and br > 0 and bc > 0 then
          B = A:slice("1:" .. br, "1:" .. bc)
        end
      end
      local snap = {}
      for i = 1, br do
        snap[i] = {}
        for j = 1, bc do
          if type(B) == "userdata" then snap[i][j] = B(i, j) else snap[i][j] = B end
        end
      end
      if shape == 6 and (r == 1 or c == 1) and r * c > 1 then B = B:t() end   -- either orientation
      local want = {}
      for i = 1, m do want[i] = {} for j = 1, n do want[i][j] = ref[i][j] end end
      for i = 1, r do
        for j = 1, c do want[rl[i]][cl[j]] = conv(dt, snap[math.min(i, br)][math.min(j, bc)]) end
      end
      A:set(rsel, csel, B)
      for i = 1, m do
        for j = 1, n do
          if want[i][j] ~= A(i, j) then
            error(string.format("%s <- %s (shape %d, %dx%d into %dx%d) rows %s cols %s: A(%d,%d) = %s, want %s",
              dt, type(B) == "userdata" and B.dtype or type(B), shape, br, bc, r, c, tostring(rsel),
              tostring(csel), i, j, tostring(A(i, j)), tostring(want[i][j])))
          end
        end
      end
    end
  end)
end)

describe("linalg.sum and linalg.mean of a bool matrix", function()
  it("equal those of its float64 copy, views and dims, vectors and empty", function()
    math.randomseed(4)
    for _ = 1, 300 do
      local m, n = math.random(0, 9), math.random(0, 9)
      local P = la.zeros(m + 2, n + 1)
      for i = 1, m + 2 do for j = 1, n + 1 do P:set(i, j, math.random() < 0.4 and 1 or 0) end end
      P = P:astype("bool")
      local A = P:slice(m > 0 and "2:" .. (m + 1) or {}, n > 0 and "1:" .. n or {})
      local F = A:astype("float64")
      assert.equal(la.sum(F), la.sum(A))
      assert.equal(la.sum(F), la.sum(A, {}))
      for d = 1, 2 do
        assert.same(la.sum(F, d):totable(), la.sum(A, d):totable())
        assert.same(la.sum(F, d):totable(), la.sum(A, d, {}):totable())
        assert.equal("float64", la.sum(A, d).dtype)
        if m > 0 and n > 0 then assert.same(la.mean(F, d):totable(), la.mean(A, d):totable()) end
      end
      if m > 0 and n > 0 then assert.equal(la.mean(F), la.mean(A)) end
    end
    local B = la.matrix({{1, 0, 1, 1}, {0, 0, 1, 0}, {1, 1, 1, 0}}):astype("bool")
    assert.equal(7, la.sum(B))
    assert.equal(7 / 12, la.mean(B))
    assert.same({{2, 1, 3, 1}}, la.sum(B, "1"):totable())
    assert.same({0.75, 0.25, 0.75}, la.mean(B, 2):totable())
    expect_error("linalg.sum: bad argument #2 (dim must be 1 or 2)", la.sum, B, 3)
    expect_error("linalg.sum: bad argument #2 (integer expected, got 1.5)", la.sum, B, 1.5)
    expect_error("linalg.sum: unknown option 'foo'", la.sum, B, {foo = 1})
    expect_error("linalg.mean: mean of an empty matrix", la.mean, la.zeros(0, 3):astype("bool"))
    expect_error("linalg.sum: bad argument #1 (matrix is closed)", la.sum, close(B:copy()))
    expect_error("linalg.mean: bad argument #1 (matrix is closed)", la.mean, close(B:copy()), 1)
  end)
end)

describe("linalg.kron", function()
  it("is a_ij b_rs for views, every mix of types, empty and 1 x 1", function()
    math.randomseed(5)
    local dts = {"float64", "float32", "bool"}
    local function rnd(m, n, dt)
      local P = la.zeros(m + 2, n + 1)
      for i = 1, m + 2 do
        for j = 1, n + 1 do P:set(i, j, math.random() < 0.1 and nan or math.random(-3, 3)) end
      end
      return P:astype(dt):slice(m > 0 and "2:" .. (m + 1) or {}, n > 0 and "1:" .. n or {})
    end
    for _ = 1, 300 do
      local ma, na, mb, nb = math.random(0, 4), math.random(0, 4), math.random(0, 4), math.random(0, 4)
      local A, B = rnd(ma, na, dts[math.random(3)]), rnd(mb, nb, dts[math.random(3)])
      local C = la.kron(A, B)
      local Af, Bf = A:astype("float64"), B:astype("float64")
      assert.same({ma * mb, na * nb}, {C:shape()})
      for i = 1, ma do for j = 1, na do for r = 1, mb do for s = 1, nb do
        local want = Af(i, j) * Bf(r, s)
        if C.dtype == "float32" then want = f32(want) end
        local got = C((i - 1) * mb + r, (j - 1) * nb + s)
        assert.is_true(got == want or (got ~= got and want ~= want))
      end end end end
    end
    assert.same({{30, 42}}, la.kron({{2}}, {{3}}, la.matrix({{5, 7}}, {dtype = "float32"})):totable())
  end)
end)

describe("astype to and from bool", function()
  it("NaN and subnormals are true, -0 false, through views", function()
    local vals = {0, -0.0, nan, inf, -inf, 5e-324, 1e-40, 1}
    for _, dt in ipairs{"float64", "float32"} do
      local P = la.zeros(5, 4)
      for k = 1, 8 do P:set(2 + (k - 1) % 3, 2 + math.floor((k - 1) / 3), vals[k]) end
      P = P:astype(dt)
      local V = P:slice("2:4", "2:4")
      local B = V:astype("bool")
      local D = la.zeros(6, 6):astype("bool")
      D:set("2:4", "3:5", B)
      local back = D:slice("2:4", "3:5"):astype(dt)
      for i = 1, 3 do
        for j = 1, 3 do
          local x = V(i, j)
          assert.equal(x ~= 0, B(i, j))
          assert.equal(x ~= 0 and 1 or 0, back(i, j))
        end
      end
      -- float32: 5e-324 flushes to 0 (false), 1e-40 stays a subnormal (true)
      assert.equal(dt == "float64", B(3, 2))
      assert.is_true(B(1, 3))
    end
  end)
end)

describe("linalg.softmax and log_softmax along either dim", function()
  local S = {{1, 2, 3, -inf}, {-inf, -inf, -inf, -inf}, {0, -inf, 0, 0.5}}
  -- scipy 1.10: scipy.special.softmax / log_softmax(S, axis); a row of only
  -- -inf is NaN there, zeros (-inf for log) here
  local rows = {{0.09003057317038043, 0.24472847105479767, 0.6652409557748218, 0},
    {0, 0, 0, 0}, {0.274068619061197, 0, 0.274068619061197, 0.45186276187760605}}
  local lrows = {{-2.4076059644443806, -1.4076059644443804, -0.40760596444438035, -inf},
    {-inf, -inf, -inf, -inf}, {-1.2943767694176431, -inf, -1.2943767694176431, -0.7943767694176431}}
  local cols = {{0.7310585786300049, 1, 0.9525741268224334, 0}, {0, 0, 0, 0},
    {0.26894142136999516, 0, 0.04742587317756678, 1}}
  local lcols = {{-0.3132616875182228, 0, -0.04858735157374197, -inf}, {-inf, -inf, -inf, -inf},
    {-1.3132616875182228, -inf, -3.048587351573742, 0}}
  local function check(want, got, tol)
    for i = 1, #want do
      for j = 1, #want[1] do
        local w, g = want[i][j], got(i, j)
        if w == -inf or w == 0 then assert.equal(w, g)
        else assert.is_true(math.abs(w - g) <= tol * math.abs(w), w .. " " .. g) end
      end
    end
  end
  it("matches SciPy on views of both types, -inf rows and columns", function()
    for _, dt in ipairs{"float64", "float32"} do
      local tol = dt == "float32" and 1e-6 or 1e-15
      local P = la.zeros(5, 6, {dtype = dt})
      P:set("2:4", "2:5", la.matrix(S))
      local V = P:slice("2:4", "2:5")
      check(rows, la.softmax(V, 2), tol)
      check(lrows, la.log_softmax(V, 2), tol)
      check(cols, la.softmax(V, 1), tol)
      check(lcols, la.log_softmax(V, 1), tol)
      assert.same({{0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, -inf, 0}}, P:slice("1:2", ":"):totable())  -- unchanged
      check({{1}, {0}, {1}}, la.softmax(V:slice(":", "1:1"), 2), 0)
      check({{1, 0, 1, 1}}, la.softmax(V:slice("3:3", ":"), 1), 0)
      check({{1, 1, 1, 0}}, la.softmax(V:slice("1:1", ":"), 1), 0)
      assert.same({0, 4}, {la.softmax(la.zeros(0, 4, {dtype = dt}), 1):shape()})
      assert.same({3, 0}, {la.log_softmax(la.zeros(3, 0, {dtype = dt}), 2):shape()})
    end
  end)

  it("a NaN makes its line NaN and only its line", function()
    for _, dt in ipairs{"float64", "float32"} do
      local A = la.matrix({{1, nan}, {2, 3}}, {dtype = dt})
      for _, f in ipairs{la.softmax, la.log_softmax} do
        local R, C = f(A, 2), f(A, 1)
        assert.is_true(R(1, 1) ~= R(1, 1) and R(1, 2) ~= R(1, 2))
        assert.is_true(R(2, 1) == R(2, 1) and R(2, 2) == R(2, 2))
        assert.is_true(C(1, 2) ~= C(1, 2) and C(2, 2) ~= C(2, 2))
        assert.is_true(C(1, 1) == C(1, 1) and C(2, 1) == C(2, 1))
      end
    end
  end)
end)

-- np.sort / np.argsort(kind='stable'): NaN last (first descending), -0.0
-- and 0.0 equal and kept in input order, ties in input order both ways
describe("sort and argsort of short lines (the sorting network) against a stable sort", function()
  local pack = string.pack
  local function nanbits(hi, lo)   -- a NaN with a payload (Lua 5.3+), else the plain one
    if not pack then return 0 / 0 end
    return (string.unpack("<d", pack("<I4I4", lo, hi)))
  end
  local specials = {0.0, -0.0, inf, -inf, 0 / 0, -(0 / 0), nanbits(0x7ff80000, 1), nanbits(0x7ff80100, 0),
    nanbits(0xfff80000, 7), 5e-324, -5e-324, 1e-310, 1.5, -1.5, 1, 2, 3}
  local function same(x, y)
    if x ~= x or y ~= y then
      if not (x ~= x and y ~= y) then return false end
      return not pack or pack("<d", x) == pack("<d", y)
    end
    return x == y and (x ~= 0 or 1 / x == 1 / y)
  end
  local function gen(n, kind)
    local t = {}
    for i = 1, n do
      if kind == 1 then t[i] = math.random(-3, 3) + 0.0
      elseif kind == 2 then t[i] = specials[math.random(#specials)]
      else
        t[i] = math.random() < 0.2 and specials[math.random(#specials)]
          or (math.random() - 0.5) * 10 ^ math.random(-40, 40)
      end
    end
    return t
  end
  local function ref(x, desc)
    local p = {}
    for i = 1, #x do p[i] = i end
    table.sort(p, function(a, b)
      local xa, xb = x[a], x[b]
      local na, nb = xa ~= xa, xb ~= xb
      if na ~= nb then if desc then return na else return nb end end
      if not na and xa ~= xb then if desc then return xa > xb else return xa < xb end end
      return a < b
    end)
    return p
  end

  it("every length 0..300, both types, descending, columns and row views", function()
    math.randomseed(6)
    for n = 0, 300 do
      local kind = n % 3 + 1
      for _, dt in ipairs{"float64", "float32"} do
        local X = (n == 0 and la.zeros(0, 1) or la.matrix(gen(n, kind))):astype(dt)
        local x = {}
        for i = 1, n do x[i] = X(i, 1) end
        local R = la.zeros(3, n + 2, {dtype = dt})
        if n > 0 then R:set(2, "2:" .. (n + 1), X:t()) end
        local lines = {{X, 1}, {n > 0 and R:slice("2:2", "2:" .. (n + 1)) or la.zeros(1, 0, {dtype = dt}), 2}}
        for _, desc in ipairs{false, true} do
          local p = ref(x, desc)
          for _, l in ipairs(lines) do
            local V, dim = l[1], l[2]
            local S, I = la.sort(V, dim, {descending = desc})
            local S2 = la.sort(V, dim, {descending = desc, indices = false})
            local I2 = la.argsort(V, dim, {descending = desc})
            assert.equal(dt, S2.dtype)
            for i = 1, n do
              local w = x[p[i]]
              if not (I(i) == p[i] and I2(i) == p[i] and same(w, S(i)) and same(w, S2(i))) then
                error(string.format("%s n=%d desc=%s dim=%d at %d: want %d %.17g, got %d %d %.17g %.17g",
                  dt, n, tostring(desc), dim, i, p[i], w, I(i), I2(i), S(i), S2(i)))
              end
            end
          end
        end
      end
    end
  end)

  it("lines of a matrix along either dim (the transposed rows)", function()
    math.randomseed(8)
    for _, dt in ipairs{"float64", "float32"} do
      for _, mn in ipairs{{9, 130}, {129, 7}, {40, 257}} do
        local m, n = unpack(mn)
        local t = {}
        for i = 1, m do t[i] = gen(n, 2 + i % 2) end
        local A = la.matrix(t):astype(dt)
        for dim = 1, 2 do
          local S = la.sort(A, dim, {indices = false, descending = dim == 2})
          local I = la.argsort(A, dim, {descending = dim == 2})
          for k = 1, dim == 1 and n or m do
            local x = {}
            for i = 1, dim == 1 and m or n do x[i] = dim == 1 and A(i, k) or A(k, i) end
            local p = ref(x, dim == 2)
            for i = 1, #x do
              local si, ii = dim == 1 and S(i, k) or S(k, i), dim == 1 and I(i, k) or I(k, i)
              assert.is_true(ii == p[i] and same(x[p[i]], si))
            end
          end
        end
      end
    end
  end)
end)
