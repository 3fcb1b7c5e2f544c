-- sort / argsort (kernels/sort.c: radix and merge sorts on integer keys)
-- against a plain-Lua reference; the block copies of copy, reshape, vstack,
-- hstack, tile, flip, roll on views of awkward sizes; matrix_power by
-- repeated squaring from A (NumPy's order of products); cholesky's checks.
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local NEG0 = -1 / math.huge   -- at run time: Lua 5.1 folds a -0.0 literal into 0.0
local POOL = {-2, -1, NEG0, 0.0, 0.5, 1, 3, INF, -INF, NAN}

-- a deterministic stream of values: ties, NaN, +-Inf, -0.0, and distinct
-- values (exact in float32) in between
local seed = 12345
local function nextval()
  seed = (seed * 1103515245 + 12345) % 2147483648
  local r = seed % 1000
  if r < 400 then return POOL[r % #POOL + 1] end
  return (r - 700) / 8
end

local function isnan(x) return x ~= x end
-- same value, same sign of zero, NaN for NaN
local function same(x, y)
  if isnan(x) or isnan(y) then return isnan(x) and isnan(y) end
  return x == y and (x ~= 0 or 1 / x == 1 / y)
end

local refsort = require "sortref"   -- spec/sortref.lua

-- an m x n matrix of the stream, as a view with leading dimension > m
local function streammat(m, n, dtype)
  local P = la.zeros(m + 3, n + 2, dtype and {dtype = dtype} or nil)
  for j = 1, n do for i = 1, m do P:set(i + 2, j + 1, nextval()) end end
  if m == 0 or n == 0 then return la.zeros(m, n, dtype and {dtype = dtype} or nil) end
  return P:sub(3, m + 2, 2, n + 1)
end

local function checksort(A, dim, down)
  local m, n = A:shape()
  local opts = down and {descending = true} or nil
  local S, I = la.sort(A, dim, opts)
  local J = la.argsort(A, dim, opts)
  local V = la.sort(A, dim, {descending = down, indices = false})   -- keys alone: the same bits
  for j = 1, n do
    for i = 1, m do
      if not same(V(i, j), S(i, j)) then
        error(string.format("%dx%d %s dim %d: values-only sort differs at (%d, %d)", m, n, A.dtype, dim, i, j))
      end
    end
  end
  assert.are.equal(A.dtype, S.dtype)
  assert.are.equal("float64", I.dtype)
  local lines, len = dim == 1 and n or m, dim == 1 and m or n
  for k = 1, lines do
    local t = {}
    for x = 1, len do t[x] = dim == 1 and A(x, k) or A(k, x) end
    local p = refsort(t, down)
    for x = 1, len do
      local i, j = dim == 1 and x or k, dim == 1 and k or x
      if I(i, j) ~= p[x] or J(i, j) ~= p[x] or not same(S(i, j), t[p[x]]) then
        error(string.format("%dx%d %s dim %d line %d entry %d: got %s from %s, expected %s from %d",
          m, n, A.dtype, dim, k, x, tostring(S(i, j)), tostring(I(i, j)), tostring(t[p[x]]), p[x]))
      end
    end
  end
end

describe("sort and argsort (kernels/sort.c)", function()
  -- lengths 0..70, then across the networks' sizes (kernels/sortnet.c: 128
  -- words of 64 bits, 256 of 32) and past them
  local LENS = {}
  for len = 0, 70 do LENS[#LENS + 1] = len end
  -- (and float32 words packed with 9 and 10 position bits: to 512 and 1024)
  for _, len in ipairs{77, 96, 113, 127, 128, 129, 150, 201, 255, 256, 257, 512, 513, 1024, 1025} do
    LENS[#LENS + 1] = len
  end

  it("match a stable table.sort reference, lengths 0..70 and past 256, both dims, views, both types", function()
    for _, dtype in ipairs({"float64", "float32"}) do
      for _, len in ipairs(LENS) do
        local A = streammat(len, 3, dtype)
        checksort(A, 1, false)
        checksort(A, 1, true)
        local B = streammat(2, len, dtype)
        checksort(B, 2, false)
        checksort(B, 2, true)
      end
    end
  end)

  it("match the reference on many short lines at once (kernels/sortshort.c), lengths 2..129", function()
    -- lines of 2..128 go through vector lanes side by side: 8 (float64) or
    -- 16 (float32) at a time, so the counts straddle those; ties, -0.0 and
    -- NaN take its scalar finish, distinct values its vector path
    local distinct = function(m, n, dtype)
      local A = la.zeros(m + 2, n, dtype and {dtype = dtype} or nil)
      for j = 1, n do for i = 1, m + 2 do
        seed = (seed * 1103515245 + 12345) % 2147483648
        A:set(i, j, (seed % 2000003 - 1000001) / 64)
      end end
      return A:sub(2, m + 1, 1, n)
    end
    for _, dtype in ipairs({"float64", "float32"}) do
      local lens = {24, 33, 64, 100, 128, 129}     -- past 16: a vector's width of lines at least
      for len = 17, 2, -1 do table.insert(lens, 1, len) end
      for _, len in ipairs(lens) do
        for _, nl in ipairs(len <= 17 and {8, 9, 17, 40} or {15, 16, 40}) do
          for _, make in ipairs({streammat, distinct}) do
            local A, B = make(len, nl, dtype), make(nl, len, dtype)
            checksort(A, 1, false); checksort(A, 1, true)
            checksort(B, 2, false); checksort(B, 2, true)
          end
        end
      end
    end
  end)

  it("match the reference on 1e5 entries (the radix sort), column and row", function()
    for _, dtype in ipairs({"float64", "float32"}) do
      checksort(streammat(100000, 1, dtype), 1, false)
      checksort(streammat(1, 100000, dtype), 2, true)
    end
  end)

  it("float32 past 1024 entries without a zero or NaN: values from the sorted keys, the same bits", function()
    -- those lines write the values back from their keys (kernels/sort.c,
    -- swordsout), not from the input: infinities, denormals, ties, the
    -- largest floats and values one unit apart must come back bit for bit
    local special = {INF, -INF, 1e-45, -1e-45, 1.1754942e-38, -3.4028235e38, 3.4028235e38,
                     1 + 2^-23, 1, -1 - 2^-23, 2.5, 2.5}
    for _, len in ipairs({1025, 3000, 20000}) do
      local A = la.zeros(len + 2, 2, {dtype = "float32"})
      for j = 1, 2 do for i = 1, len + 2 do
        seed = (seed * 1103515245 + 12345) % 2147483648
        local v = (seed % 2000003 - 1000001) / 64
        if v == 0 or i % 97 == 0 then v = special[i % #special + 1] end
        A:set(i, j, v)
      end end
      local V = A:sub(2, len + 1, 1, 2)
      checksort(V, 1, false); checksort(V, 1, true)
      local R = V:t():copy()
      checksort(R, 2, false); checksort(R, 2, true)
    end
  end)

  it("order -0.0 and 0.0 as equal (input order kept) and NaN last, as NumPy's stable sort", function()
    -- numpy 1.24: np.argsort([0., -0., nan, -inf, 0., -0.], kind="stable") -> [3, 0, 1, 4, 5, 2]
    local v = la.vector({0.0, NEG0, NAN, -INF, 0.0, NEG0})
    local S, I = la.sort(v)
    local want = {4, 1, 2, 5, 6, 3}
    for i = 1, 6 do assert.are.equal(want[i], I(i)) end
    assert.is_true(1 / S(2) > 0 and 1 / S(3) < 0 and 1 / S(4) > 0 and 1 / S(5) < 0)
    assert.is_true(isnan(S(6)) and S(1) == -INF)
  end)

  it("sorts distinct doubles that differ in the last bit and huge/tiny magnitudes", function()
    local x = {1 + 2 ^ -52, 1, -1 - 2 ^ -52, -1, 2 ^ -1074, -2 ^ -1074, 1.7976931348623157e308,
               -1.7976931348623157e308, 2 ^ -1022, 0.0}
    local vals = {}
    for r = 1, 30 do vals[r] = x[(r * 7) % #x + 1] end  -- repeats, for the merge and radix paths
    local big = {}
    for r = 1, 300 do big[r] = x[(r * 3) % #x + 1] end
    for _, t in ipairs({vals, big}) do
      local S, I = la.sort(la.vector(t))
      local p = refsort(t, false)
      for i = 1, #t do
        assert.are.equal(p[i], I(i))
        assert.is_true(same(t[p[i]], S(i)))
      end
    end
  end)
end)

-- A(i, j) for every entry, against f(i, j)
local function allequal(A, m, n, f)
  local p, q = A:shape()
  assert.are.same({m, n}, {p, q})
  for j = 1, n do for i = 1, m do
    if not same(f(i, j), A(i, j)) then
      error(string.format("entry (%d,%d): %s, expected %s", i, j, tostring(A(i, j)), tostring(f(i, j))))
    end
  end end
end

describe("block copies of views", function()
  it("copy, reshape, vec, vstack, hstack, tile, flip, roll move every entry exactly", function()
    for _, dtype in ipairs({"float64", "float32"}) do
      for _, sz in ipairs({{1, 1}, {7, 5}, {13, 3}, {1, 9}, {33, 17}}) do
        local m, n = sz[1], sz[2]
        local V = streammat(m, n, dtype)
        local W = streammat(m, n, dtype)
        local function v(i, j) return V(i, j) end
        allequal(la.copy(V), m, n, v)
        allequal(la.reshape(V, n, m), n, m, function(i, j)
          local k = (j - 1) * n + i - 1
          return V(k % m + 1, math.floor(k / m) + 1)
        end)
        allequal(la.vec(V), m * n, 1, function(k) return V((k - 1) % m + 1, math.floor((k - 1) / m) + 1) end)
        allequal(la.vstack({V, W}), 2 * m, n, function(i, j) if i <= m then return V(i, j) end return W(i - m, j) end)
        allequal(la.hstack({V, W}), m, 2 * n, function(i, j) if j <= n then return V(i, j) end return W(i, j - n) end)
        allequal(la.tile(V, 2, 3), 2 * m, 3 * n, function(i, j) return V((i - 1) % m + 1, (j - 1) % n + 1) end)
        allequal(la.flipud(V), m, n, function(i, j) return V(m + 1 - i, j) end)
        allequal(la.fliplr(V), m, n, function(i, j) return V(i, n + 1 - j) end)
        allequal(la.roll(V, 2, 1), m, n, function(i, j) return V((i - 3) % m + 1, j) end)
        allequal(V:t(), n, m, function(i, j) return V(j, i) end)
        assert.are.equal(dtype, la.copy(V).dtype)
        assert.are.equal(dtype, la.vstack({V, W}).dtype)
      end
    end
  end)

  it("transposes every shape around the 2x2 / 4x4 blocks and 32x32 tiles, views, both types", function()
    local sizes = {1, 2, 3, 4, 5, 6, 7, 31, 32, 33, 34, 35, 37, 66}
    for _, dtype in ipairs({"float64", "float32"}) do
      for _, m in ipairs(sizes) do
        for _, n in ipairs({1, 3, 4, 5, 33, 38}) do
          local V = streammat(m, n, dtype)
          local T = V:t()
          assert.are.equal(dtype, T.dtype)
          allequal(T, n, m, function(i, j) return V(j, i) end)
          allequal(la.t(V), n, m, function(i, j) return V(j, i) end)
        end
      end
    end
  end)

  it("copy of a float32 view into a float64 stack converts entry by entry", function()
    local V, W = streammat(5, 4, "float32"), streammat(3, 4)
    allequal(la.vstack({V, W}), 8, 4, function(i, j) if i <= 5 then return V(i, j) end return W(i - 5, j) end)
    assert.are.equal("float64", la.vstack({V, W}).dtype)
  end)
end)

describe("matrix_power by repeated squaring from A", function()
  local A = la.matrix({{1, 2, 0}, {-1, 1, 3}, {2, 0, 1}})
  -- numpy 1.24: np.linalg.matrix_power(A, k).tolist()
  local want = {
    [0] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    [1] = {{1, 2, 0}, {-1, 1, 3}, {2, 0, 1}},
    [2] = {{-1, 4, 6}, {4, -1, 6}, {4, 4, 1}},
    [3] = {{7, 2, 18}, {17, 7, 3}, {2, 12, 13}},
    [5] = {{73, 98, 72}, {23, 73, 147}, {98, 48, 97}},
    [10] = {{14639, 17764, 26646}, {17764, 14639, 26646}, {17764, 17764, 23521}},
  }
  it("matches NumPy's exact integer powers, both types", function()
    for k, w in pairs(want) do
      allequal(la.matrix_power(A, k), 3, 3, function(i, j) return w[i][j] end)
      local P = la.matrix_power(la.astype(A, "float32"), k)
      assert.are.equal("float32", P.dtype)
      allequal(P, 3, 3, function(i, j) return w[i][j] end)
      allequal(A ^ k, 3, 3, function(i, j) return w[i][j] end)
    end
    -- numpy 1.24: np.linalg.matrix_power(A, -2)
    assert.near({{-0.1111111111111111, 0.08888888888888889, 0.13333333333333336},
                 {0.08888888888888889, -0.1111111111111111, 0.13333333333333333},
                 {0.08888888888888888, 0.08888888888888889, -0.06666666666666667}},
                la.matrix_power(A, -2), 1e-14)
  end)

  it("does not multiply by the identity: A^1 of a matrix with Inf is A (no 0 * Inf = NaN)", function()
    -- numpy 1.24: np.linalg.matrix_power([[1, inf], [0, 1]], 1) -> [[1, inf], [0, 1]]
    local B = la.matrix({{1, INF}, {0, 1}})
    allequal(la.matrix_power(B, 1), 2, 2, function(i, j) return B(i, j) end)
    -- (B^2 itself has 0 * inf in a product, NaN as in NumPy; the view and ld do not matter)
    local V = streammat(4, 4):sub(1, 3, 1, 3)
    local M = la.matrix({{0.5, 0.25, 0}, {0, 0.5, 0.25}, {0.125, 0, 0.5}})
    assert.near(M * M * M * M * M * M * M, la.matrix_power(M, 7), 1e-15)
    assert.are.same({3, 3}, {la.matrix_power(V, 0):shape()})
    assert.are.same({0, 0}, {la.matrix_power(la.zeros(0, 0), 5):shape()})
  end)
end)

describe("cholesky after its faster checks", function()
  -- L known: A = L L^T exactly in binary
  local Lk = la.matrix({{2, 0, 0}, {1, 3, 0}, {-1, 0.5, 1}})
  local A = Lk * Lk:t()
  it("gives L (lower) and U = L^T (upper) with the other triangle zero, both types", function()
    assert.near(Lk, la.cholesky(A), 1e-15)
    assert.near(Lk:t(), la.cholesky(A, {lower = false}), 1e-15)
    local C = la.cholesky(la.astype(A, "float32"))
    assert.are.equal("float32", C.dtype)
    assert.near(Lk, C, 1e-6)
    assert.are.equal(0, la.cholesky(A)(1, 3))
    assert.are.equal(0, la.cholesky(A, {lower = false})(3, 1))
  end)
  it("still refuses a non-symmetric matrix, naming the first pair", function()
    local B = la.copy(A)
    B:set(3, 2, B(3, 2) + 1e-3)
    assert.error_matches(function() la.cholesky(B) end, "linalg.cholesky: matrix is not symmetric (A(3,2)")
    local N = la.copy(A)
    N:set(2, 1, NAN)
    assert.error_matches(function() la.cholesky(N, {check_finite = false}) end, "not symmetric")
    local E = la.eye(3)
    E:set(2, 1, NAN)
    assert.error_matches(function() la.cholesky(E) end,
      "linalg.cholesky: A(2,1) is NaN (pass check_finite = false to skip this check)")
    E = la.eye(3)
    E:set(1, 3, INF); E:set(3, 1, INF)
    assert.error_matches(function() la.cholesky(E) end, "linalg.cholesky: A(3,1) is Inf")
    -- NaN on the diagonal, unchecked: no pair differs, dpotrf gets it (as before)
    E = la.eye(3)
    E:set(2, 2, NAN)
    assert.is_true(la.cholesky(E, {check_finite = false})(2, 2) ~= la.cholesky(E, {check_finite = false})(2, 2))
    -- 70 x 70 (tiles of 32): a pair far from the diagonal, and the tolerance
    -- sqrt(eps) * max |entry| on both sides of it
    local M = la.eye(70) * 4
    M:set(65, 3, 1); M:set(3, 65, 1 + 5.9604644775390625e-08 * 0.99)
    assert.near(2, la.cholesky(M)(1, 1), 0)
    M:set(3, 65, 1 + 5.9604644775390625e-08 * 1.01)
    assert.error_matches(function() la.cholesky(M) end, "not symmetric (A(65,3) = 1")
    local F = la.astype(A, "float32")
    F:set(1, 3, F(1, 3) + 0.5)
    assert.error_matches(function() la.cholesky(F) end, "not symmetric (A(3,1)")
  end)
end)
