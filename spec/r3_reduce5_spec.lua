-- argmin/argmax down the columns (one kernel call for all columns, the
-- lanes merged in registers) and row sums four columns at a time: known
-- answers, NumPy 1.24 values, and the definition (first NaN, else the
-- first extreme) checked entry by entry at lengths around the vector
-- widths (2, 4, 8 and 16 lanes), in float64 and float32, on views.
local la = require "linalg"

-- numpy 1.24: A below
local K = {{3, 1, 4, 1, 5}, {9, 2, 6, 5, 3}, {5, 8, 9, 7, 9}, {3, 2, 3, 8, 4}, {6, 2, 6, 4, 3},
           {3, 8, 3, 2, 7}, {9, 5, 0, 2, 8}, {8, 4, 1, 9, 7}, {1, 6, 9, 3, 9}}

local function row(M)
  local t = {}
  local _, n = M:shape()
  for j = 1, n do t[j] = M:get(1, j) end
  return t
end

local function col(M)
  local t = {}
  local m = M:shape()
  for i = 1, m do t[i] = M:get(i, 1) end
  return t
end

-- the 1-based index of the first NaN of column j of A, else of its first
-- largest (max) or smallest entry
local function argref(A, j, max)
  local at, best, m = 1, A:get(1, j), A:shape()
  for i = 1, m do
    local v = A:get(i, j)
    if v ~= v then return i end
    if (max and v > best) or (not max and v < best) then at, best = i, v end
  end
  return at
end

-- a pseudo-random m x n matrix with ties (values of a few levels), of the type dt
local function tied(m, n, seed, dt)
  local A, s = la.zeros(m, n, {dtype = dt}), seed
  for j = 1, n do
    for i = 1, m do
      s = (s * 1103515245 + 12345) % 2147483648
      A:set(i, j, (s % 7) - 3)
    end
  end
  return A
end

local function check_cols(A, what)
  for _, f in ipairs{"argmax", "argmin"} do
    local r = row(A[f](A, 1))
    local _, n = A:shape()
    for j = 1, n do
      local want = argref(A, j, f == "argmax")
      if r[j] ~= want then
        error(string.format("%s: %s of column %d: %s, expected %d", what, f, j, tostring(r[j]), want))
      end
    end
  end
end

describe("linalg.argmax/argmin along dim 1", function()
  it("gives NumPy's indices, 1-based", function()
    local A = la.matrix(K)
    -- numpy 1.24: np.argmax(A, axis=0) = [1 2 2 7 2], np.argmin(A, axis=0) = [8 0 6 0 1]
    assert.same({2, 3, 3, 8, 3}, row(A:argmax(1)))
    assert.same({9, 1, 7, 1, 2}, row(A:argmin(1)))
    assert.same({2, 3, 3, 8, 3}, row(la.astype(la.matrix(K), "float32"):argmax(1)))
  end)

  it("lets the first NaN win", function()
    local A = la.matrix(K)
    A:set(5, 2, 0 / 0); A:set(8, 4, 0 / 0); A:set(3, 4, 0 / 0)
    -- numpy 1.24: B = A with NaN at [4,1], [7,3], [2,3]:
    -- np.argmax(B, axis=0) = [1 4 2 2 2], np.argmin(B, axis=0) = [8 4 6 2 1]
    assert.same({2, 5, 3, 3, 3}, row(A:argmax(1)))
    assert.same({9, 5, 7, 3, 2}, row(A:argmin(1)))
  end)

  it("keeps the first of -0 and +0", function()
    -- numpy 1.24: np.argmax([-0., 0., 0.]) = 0, np.argmin([0., -0.]) = 0
    assert.same({1}, row(la.matrix{{-0.0}, {0.0}, {0.0}}:argmax(1)))
    assert.same({1}, row(la.matrix{{0.0}, {-0.0}}:argmin(1)))
  end)

  it("matches the definition at every length around the vector widths", function()
    for _, dt in ipairs{"float64", "float32"} do
      for m = 1, 70 do
        check_cols(tied(m, 5, m, dt), dt .. " " .. m .. " rows")
      end
      for _, m in ipairs{127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4097} do
        check_cols(tied(m, 3, m, dt), dt .. " " .. m .. " rows")
      end
    end
  end)

  it("finds a NaN, an Inf or the extreme wherever it is", function()
    for _, dt in ipairs{"float64", "float32"} do
      for _, m in ipairs{3, 8, 9, 16, 17, 31, 33, 100, 600, 1030} do
        local A = la.zeros(m, m, {dtype = dt})
        for j = 1, m do
          for i = 1, m do A:set(i, j, ((i * 7 + j * 3) % 11) / 11) end
          A:set(j, j, j % 3 == 0 and 0 / 0 or j % 3 == 1 and 1 / 0 or -1 / 0)
        end
        check_cols(A, dt .. " " .. m .. "x" .. m)
      end
    end
  end)

  it("reads views with odd leading dimensions", function()
    for _, dt in ipairs{"float64", "float32"} do
      local P = tied(53, 9, 5, dt)
      for _, sh in ipairs{{2, 50, 3, 9}, {1, 17, 1, 4}, {4, 4, 2, 8}} do
        local V = P:sub(sh[1], sh[2], sh[3], sh[4])
        check_cols(V, dt .. " view")
        assert.same(row(V:copy():argmax(1)), row(V:argmax(1)))
      end
    end
  end)
end)

describe("linalg.sum/var along dim 2", function()
  it("gives NumPy's values", function()
    local A = la.matrix(K)
    -- numpy 1.24: np.sum(A, axis=1), np.var(A, axis=1)
    assert.same({14, 25, 38, 20, 21, 23, 24, 29, 28}, col(A:sum(2)))
    local v, want = col(A:var(2)), {2.56, 6, 2.24, 4.4, 2.56, 5.84, 11.76, 8.56, 10.24}
    for i = 1, 9 do assert.is_true(math.abs(v[i] - want[i]) < 1e-12) end
  end)

  it("sums integers exactly for every column count (four at a time, then the rest)", function()
    for _, dt in ipairs{"float64", "float32"} do
      for n = 1, 140 do
        local A = tied(11, n, n, dt)
        local s = col(A:sum(2))
        for i = 1, 11 do
          local want = 0
          for j = 1, n do want = want + A:get(i, j) end
          assert.equal(want, s[i])
        end
      end
    end
  end)

  it("sums a view's rows and propagates NaN and Inf", function()
    local P = tied(40, 300, 3, "float64")
    P:set(5, 130, 0 / 0); P:set(6, 131, 1 / 0); P:set(7, 1, -1 / 0); P:set(7, 299, 1 / 0)
    local V = P:sub(2, 39, 1, 299)
    local s, c = col(V:sum(2)), col(V:copy():sum(2))
    assert.is_true(s[4] ~= s[4])                    -- row 5 of P: NaN
    assert.equal(1 / 0, s[5])                       -- row 6: +Inf
    assert.is_true(s[6] ~= s[6])                    -- row 7: -Inf + Inf
    for i = 1, 38 do
      if i < 4 or i > 6 then assert.equal(c[i], s[i]) end
    end
  end)

  it("float32 row sums stay within 2^-22 sum|t| (+ float32 rounding) of exact", function()
    -- kernels/reduce.c: a float32 row adds four columns in float, then in
    -- double; the float64 sum of the same (exact float32) values is the
    -- reference, its own error far below the bound
    for _, s in ipairs{{13, 37}, {64, 4}, {1000, 130}, {3, 3}, {9, 7}} do
      local A = la.emul(la.randn(s[1], s[2], s[1] + s[2]), la.exp(la.randn(s[1], s[2], 7) * 4))
      local F = A:astype("float32")
      local D = F:astype("float64")
      local got, want, mag = la.sum(F, 2), la.sum(D, 2), la.sum(la.abs(D), 2)
      for i = 1, s[1] do
        local err = math.abs(got:get(i, 1) - want:get(i, 1))
        local bound = 2 ^ -22 * mag:get(i, 1) + 2 ^ -24 * math.abs(want:get(i, 1))
        assert(err <= bound, string.format("row %d of %dx%d: error %g > %g", i, s[1], s[2], err, bound))
      end
    end
  end)
end)
