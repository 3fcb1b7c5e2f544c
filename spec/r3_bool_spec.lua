-- The bool element type: one byte an element (0 or 1), what comparisons,
-- isnan/isinf/isfinite and isclose return; accepted wherever a mask is;
-- every other function computes with it as 1.0/0.0 (a float64 copy).
-- Reference values: NumPy 1.24.2 (/usr/bin/python3), as noted.
local la = require "linalg"

local nan, inf = 0 / 0, math.huge
local T, F = true, false
local A = la.matrix{{1.5, -2, nan}, {0, inf, 3}}

-- a bool matrix with the entries want (a table of rows of booleans)
local function isbool(want, M)
  assert.are.equal("bool", M.dtype)
  assert.are.same(want, M:totable())
end

describe("bool matrices from comparisons and tests", function()
  it("comparisons give bool matrices, NaN false except ne, broadcasting", function()
    -- numpy 1.24: (A > 0).tolist() = [[True, False, False], [False, True, True]]
    isbool({{T, F, F}, {F, T, T}}, la.gt(A, 0))
    isbool({{F, T, F}, {F, F, F}}, la.lt(A, 0))
    isbool({{T, F, F}, {T, T, T}}, la.ge(A, 0))
    isbool({{F, T, F}, {T, F, F}}, la.le(A, 0))
    isbool({{F, F, F}, {T, F, F}}, la.eq(A, 0))
    isbool({{T, T, T}, {F, T, T}}, la.ne(A, 0))
    isbool({{T, F, F}, {F, T, F}}, la.gt(A, {{1}, {3}}))          -- a column broadcasts
    isbool({{F, F, F}, {F, F, F}}, la.lt(A, la.matrix{{-5, -5, -5}}))
    assert.are.equal(true, la.lt(1, 2)); assert.are.equal(false, la.eq(nan, nan))
  end)

  it("isnan, isinf, isfinite give bool matrices; numbers give booleans", function()
    -- numpy 1.24: np.isfinite(A).tolist() = [[True, True, False], [True, False, True]]
    isbool({{T, T, F}, {T, F, T}}, la.isfinite(A))
    isbool({{F, F, T}, {F, F, F}}, la.isnan(A))
    isbool({{F, F, F}, {F, T, F}}, la.isinf(A))
    isbool({{F, F, F}, {F, T, F}}, la.isinf(A:astype("float32")))
    assert.are.equal(true, la.isnan(nan)); assert.are.equal(false, la.isinf(1))
    isbool({{T, F, F}, {F, T, T}}, la.isclose(A, {{1.5, 0, 0}, {1, inf, 3}}))
  end)

  it("float32 operands give bool too; {dtype} gives the 1/0 float mask", function()
    local A32 = A:astype("float32")
    isbool(la.gt(A, 0):totable(), la.gt(A32, 0))
    isbool(la.isnan(A):totable(), la.isnan(A32))
    local G = la.gt(A, 0, {dtype = "float64"})
    assert.are.equal("float64", G.dtype)
    assert.are.same({{1, 0, 0}, {0, 1, 1}}, G:totable())
    assert.are.equal("float32", la.gt(A, 0, {dtype = "float32"}).dtype)
    assert.are.equal("float32", la.isnan(A, {dtype = "float32"}).dtype)
    assert.are.same({{0, 0, 1}, {0, 0, 0}}, la.isnan(A32, {dtype = "float64"}):totable())
    assert.are.equal("float64", la.isclose(A, A, {dtype = "float64"}).dtype)
    assert.are.equal("bool", la.gt(A, 0, {dtype = "bool"}).dtype)
    assert.error_matches(function() la.gt(A, 0, {dtype = "int8"}) end,
      [[linalg.gt: option 'dtype' must be "float64", "float32" or "bool", got "int8"]], 1, true)
    assert.error_matches(function() la.isnan(A, {dtyp = "bool"}) end,
      "linalg.isnan: unknown option 'dtyp' (did you mean 'dtype'?)", 1, true)
  end)

  it("every length 0..40 and views agree with the float mask (the vector loops' tails)", function()
    for n = 0, 40 do
      local X = la.randn(n, 3, n + 1)
      local Y = la.randn(n, 3, n + 2)
      local V = la.randn(n + 3, 4, 9):sub(2, n + 1, 2, 4)      -- a view with a gap
      for _, f in ipairs{"lt", "le", "gt", "ge", "eq", "ne"} do
        assert.are.same(la[f](X, Y, {dtype = "float64"}):totable(),
                        la[f](X, Y):astype("float64"):totable(), f)
        assert.are.same(la[f](V, 0.25, {dtype = "float64"}):totable(),
                        la[f](V, 0.25):astype("float64"):totable(), f .. " view")
        assert.are.same(la[f](X:astype("float32"), 0, {dtype = "float64"}):totable(),
                        la[f](X:astype("float32"), 0):astype("float64"):totable(), f .. " float32")
      end
      if n > 0 then X:set(n, 2, nan); X:set(1, 3, -inf) end
      for _, f in ipairs{"isnan", "isinf", "isfinite"} do
        assert.are.same(la[f](X, {dtype = "float64"}):totable(), la[f](X):astype("float64"):totable())
        assert.are.same(la[f](V, {dtype = "float64"}):totable(), la[f](V):astype("float64"):totable())
      end
    end
  end)
end)

describe("bool loops against plain Lua, every length through two 64-entry steps", function()
  -- special values in every position: the 64-entry (AVX-512) and 8-entry
  -- steps and the tails must all give the scalar answer
  local special = {0 / 0, math.huge, -math.huge, 0, -0.0, 1, -1, 2.5e-308, 4.9e-324, 1e308, 3.4e38,
                   1e39, 1.5, 0.1}
  local function column(n, seed)
    local t = {}
    for i = 1, n do t[i] = special[(i * 7 + seed) % #special + 1] end
    return la.vector(t)
  end
  local tests = {isnan = function(x) return x ~= x end,
                 isinf = function(x) return x == math.huge or x == -math.huge end,
                 isfinite = function(x) return x == x and x ~= math.huge and x ~= -math.huge end}
  local cmps = {lt = function(x, y) return x < y end, le = function(x, y) return x <= y end,
                gt = function(x, y) return x > y end, ge = function(x, y) return x >= y end,
                eq = function(x, y) return x == y end, ne = function(x, y) return x ~= y end}
  -- one length and type: X, Y packed columns, XV a view of X's values
  local function check(n, dtype)
    local X, Y = column(n, 1):astype(dtype), column(n, 4):astype(dtype)
    local P = la.vstack{column(3, 2), column(n, 1), column(2, 3)}:astype(dtype)
    local XV = la.hstack{P, P}:sub(4, n + 3, 2, 2)            -- a column view of a matrix
    local x, y = X:totable(), Y:totable()
    local c1 = la.matrix({{0.1}}, {dtype = dtype})(1, 1)     -- 0.1 as the operands' type
    for name, f in pairs(tests) do
      local R, RV = la[name](X):totable(), la[name](XV):totable()
      for i = 1, n do
        assert(R[i] == f(x[i]), string.format("%s %s n=%d at %d (%g)", name, dtype, n, i, x[i]))
        assert(RV[i] == f(x[i]), string.format("%s view %s n=%d at %d", name, dtype, n, i))
      end
    end
    for name, f in pairs(cmps) do
      local R, R0, R1 = la[name](X, Y):totable(), la[name](X, 1.5):totable(), la[name](0.1, Y):totable()
      for i = 1, n do
        assert(R[i] == f(x[i], y[i]), string.format("%s %s n=%d at %d", name, dtype, n, i))
        assert(R0[i] == f(x[i], 1.5), string.format("%s with a number %s n=%d at %d", name, dtype, n, i))
        assert(R1[i] == f(c1, y[i]), string.format("%s number first %s n=%d at %d", name, dtype, n, i))
      end
    end
  end

  it("isnan, isinf, isfinite and the comparisons, float64 and float32, packed and views", function()
    for _, n in ipairs{1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200} do
      check(n, "float64")
      check(n, "float32")
    end
  end)
end)

describe("a bool matrix as a value", function()
  it("reads as booleans: get, A(i, j), linear index, totable", function()
    local M = la.gt(A, 0)
    assert.are.equal(true, M(1, 1)); assert.are.equal(false, M(1, 2))
    assert.are.equal(true, M:get(2, 3)); assert.are.equal(true, M(4))   -- column-major (2, 2)
    assert.are.same({{T, F, F}, {F, T, T}}, M:totable())
    assert.are.same({T, F}, la.gt(la.vector{1, -1}, 0):totable())
    assert.are.same({2, 3}, {M:shape()})
    assert.are.equal(2, M:rows()); assert.are.equal(3, M:cols()); assert.are.equal(6, M:numel())
    assert.are.equal(2, #M)
    assert.is_true(la.is_matrix(M))
  end)

  it("set takes booleans and numbers (nonzero is true), fill too", function()
    local M = la.zeros(2, 2, {dtype = "bool"})
    M:set(1, 2, true); M:set(2, 1, 5); M:set(2, 2, nan); M:set(1, 1, 0)
    isbool({{F, T}, {T, T}}, M)
    M:set(3, false)
    isbool({{F, F}, {T, T}}, M)
    M:set(1, ":", la.matrix{{1, 0}})
    isbool({{T, F}, {T, T}}, M)
    M:set(2, ":", true)
    isbool({{T, F}, {T, T}}, M)
    M:fill(false); isbool({{F, F}, {F, F}}, M)
    M:fill(-0.5); isbool({{T, T}, {T, T}}, M)
    assert.error_matches(function() M:set(1, 1, "x") end,
      "linalg.set: bad argument #4 (boolean or number expected, got string)", 1, true)
    assert.error_matches(function() la.zeros(2, 2):set(1, 1, true) end,
      "linalg.set: bad argument #4 (number expected, got boolean)", 1, true)
  end)

  it("views (row, col, sub, slice) write through to their bool parent", function()
    local M = la.zeros(3, 3, {dtype = "bool"})
    M:row(2):fill(true)
    M:col(3):set(1, true)
    M:sub(3, 3, 1, 2):set(1, 2, true)
    M:slice("1:2", 1):set(1, true)
    isbool({{T, F, T}, {T, T, T}, {F, T, F}}, M)
    isbool({{T, T, F}, {F, T, T}, {T, T, F}}, M:t())
    isbool({{T, T, F}, {F, T, T}, {T, T, F}}, M.T)
    local C = M:copy(); C:set(1, 1, false)
    assert.are.equal(true, M(1, 1))
    isbool({T, T, F, F, T, T, T, T, F}, M:reshape(9, 1))
    assert.is_true(M == M:copy())
    assert.is_true(la.gt(A, 0) == la.matrix{{1, 0, 0}, {0, 1, 1}})   -- equal values
  end)

  it("prints true/false", function()
    local s = tostring(la.matrix{{1, 0}, {-1, 2}}:gt(0))
    assert.are.equal("2x2 bool matrix\n   true  false\n  false   true", s)
    assert.are.equal("1x3 bool matrix (view)\n[ true false  true]", tostring(la.matrix{{1, 0, 3}, {0, 0, 0}}:gt(0):row(1)))
  end)

  it("astype to and from bool: nonzero and NaN are true (NumPy's astype(bool))", function()
    -- numpy 1.24: np.array([0.0, -0.0, nan, 2, -inf]).astype(bool) = [F, F, T, T, T]
    local v = la.vector{0, -0.0, nan, 2, -inf}
    isbool({F, F, T, T, T}, v:astype("bool"))
    isbool({F, F, T, T, T}, v:astype("float32"):astype("bool"))
    local M = la.gt(A, 0)
    assert.are.same({{1, 0, 0}, {0, 1, 1}}, M:astype("float64"):totable())
    assert.are.equal("float32", M:astype("float32").dtype)
    assert.are.same({{1, 0, 0}, {0, 1, 1}}, M:astype("float32"):totable())
    isbool(M:totable(), M:astype("bool"))
  end)

  it("zeros, ones and full make bool matrices", function()
    isbool({{F, F}}, la.zeros(1, 2, {dtype = "bool"}))
    isbool({{T, T}}, la.ones(1, 2, {dtype = "bool"}))
    isbool({T, T}, la.full(2, 1, 7, {dtype = "bool"}))
    isbool({F}, la.full(1, 1, 0, {dtype = "bool"}))
    assert.are.same({0, 4}, {la.zeros(0, 4, {dtype = "bool"}):shape()})
    assert.are.equal("0x4 bool matrix", tostring(la.zeros(0, 4, {dtype = "bool"})))
  end)
end)

describe("a bool matrix as a mask", function()
  local M = la.gt(A, 0)                      -- {{T, F, F}, {F, T, T}}

  it("where picks by it (fast path and broadcast path)", function()
    -- numpy 1.24: np.where(A > 0, A, -1).tolist() = [[1.5, -1, -1], [-1, inf, 3]]
    assert.are.same({{1.5, -1, -1}, {-1, inf, 3}}, la.where(M, A, -1):totable())
    assert.are.same({{1.5, 7, 7}, {7, inf, 3}}, la.where(M, A, la.full(2, 3, 7)):totable())
    local W = la.where(M, A:astype("float32"), -1)
    assert.are.equal("float32", W.dtype)
    assert.are.same({{1.5, -1, -1}, {-1, inf, 3}}, W:totable())
    assert.are.same({{1, 2, 2}, {2, 1, 1}}, la.where(M, 1, 2):totable())
    -- a row of the mask broadcasts (the general path)
    assert.are.same({{1.5, 0, 0}, {0, 0, 0}}, la.where(M:row(1), A, 0):totable())
    assert.are.same({{5, 0, 0}, {5, 0, 0}}, la.where(la.gt({{1, 0, 0}}, 0), 5, {{0, 0, 0}, {0, 0, 0}}):totable())
    assert.are.same({{1.5, 9, 9}, {9, inf, 3}}, la.where(M, A:sub(1, 2, 1, 3), 9):totable())
  end)

  -- a number on either side or both: own loops (a select a lane), checked
  -- entry by entry over vector bodies and tails, in views, both types
  it("where with numbers picks every entry right past the vector width", function()
    for _, dt in ipairs{"float64", "float32"} do
      local X = la.randn(41, 6, 3, {dtype = dt})
      X:set(5, 2, 0 / 0); X:set(40, 6, -math.huge)
      local V = X:sub(2, 38, 1, 6)                 -- 37 rows, ld 41
      local K = la.gt(la.randn(37, 6, 4), 0.3)
      local cases = {
        {V, -2.5, function(k, x) return k and x or -2.5 end},
        {7, V, function(k, x) return k and 7 or x end},
        {7, -2.5, function(k) return k and 7 or -2.5 end},
      }
      for c, case in ipairs(cases) do
        local W = la.where(K, case[1], case[2])
        assert.are.equal(dt == "float32" and c ~= 3 and "float32" or "float64", W.dtype)
        for j = 1, 6 do
          for i = 1, 37 do
            local want, got = case[3](K(i, j), V(i, j)), W(i, j)
            assert.is_true(want == got or (want ~= want and got ~= got),
                           string.format("%s case %d (%d,%d): %s, want %s", dt, c, i, j, got, want))
          end
        end
      end
    end
  end)

  -- a float64 and a float32 matrix: float64 (NumPy 1.24: np.where(M, f8,
  -- f4).dtype = float64), the float32 values exactly, either side, views
  it("where with a float64 and a float32 matrix gives float64, their values", function()
    local X = la.randn(40, 5, 5)
    local Y = la.randn(41, 5, 6, {dtype = "float32"}):sub(2, 41, 1, 5)
    Y:set(3, 4, 0 / 0)
    local K = la.gt(la.randn(40, 5, 7), 0)
    local W1, W2 = la.where(K, X, Y), la.where(K, Y, X)
    assert.are.equal("float64", W1.dtype)
    assert.are.equal("float64", W2.dtype)
    for j = 1, 5 do
      for i = 1, 40 do
        local k, x, y = K(i, j), X(i, j), Y(i, j)
        local w1, w2 = W1(i, j), W2(i, j)
        assert.is_true(w1 == (k and x or y) or (not k and y ~= y and w1 ~= w1), i .. "," .. j)
        assert.is_true(w2 == (k and y or x) or (k and y ~= y and w2 ~= w2), i .. "," .. j)
      end
    end
  end)

  it("any, all, count_nonzero, sum and mean count its true entries", function()
    -- numpy 1.24: np.sum(M) = 3, np.mean(M) = 0.5, np.any(M, axis=0) = [T, T, T],
    -- np.all(M, axis=1) = [F, F]
    assert.is_true(la.any(M)); assert.is_false(la.all(M))
    assert.are.equal(3, la.count_nonzero(M))
    assert.are.equal(3, la.sum(M)); assert.are.equal(0.5, la.mean(M))
    isbool({{T, T, T}}, la.any(M, 1))
    isbool({F, F}, la.all(M, 2))
    assert.are.same({{1, 1, 1}}, la.count_nonzero(M, 1):totable())
    assert.are.same({1, 2}, la.count_nonzero(M, 2):totable())
    assert.are.same({{1, 1, 1}}, la.sum(M, 1):totable())
    assert.is_true(la.all(la.ones(0, 3, {dtype = "bool"})))
    assert.are.equal(0, la.count_nonzero(la.zeros(300, 301, {dtype = "bool"})))
    assert.are.equal(300 * 301, la.count_nonzero(la.ones(300, 301, {dtype = "bool"})))
    assert.are.equal(4, la.count_nonzero(la.ones(3, 3, {dtype = "bool"}):sub(1, 2, 2, 3)))
  end)

  it("find and nonzero give its true entries' indices", function()
    -- numpy 1.24: np.nonzero(M) = ([0, 1, 1], [0, 1, 2]), here 1-based
    assert.are.same({1, 4, 6}, la.find(M):totable())
    local r, c = la.nonzero(M)
    assert.are.same({1, 2, 2}, r:totable()); assert.are.same({1, 2, 3}, c:totable())
  end)

  it("selects rows and columns in slice, and must have the dimension's length", function()
    local B = la.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
    local keep = la.vector{1, 0, 1}:gt(0)
    assert.are.same({{1, 3}, {4, 6}, {7, 9}}, B:slice(nil, keep):totable())
    assert.are.same({{1, 2, 3}, {7, 8, 9}}, B:slice(keep, ":"):totable())
    assert.are.same({{4, 5, 6}}, B:slice(la.vector{0, 1, 0}:gt(0)):totable())   -- one true
    assert.error_matches(function() B:slice(la.vector{1, 1}:gt(0)) end,
      "linalg.slice: row mask has 2 entries, expected 3", 1, true)
    isbool({{T, F}}, la.gt(A, 0):slice(1, keep))        -- a bool matrix sliced stays bool
  end)

  it("is read as 1/0 in arithmetic: float64, or float32 with float32 (NumPy's promotion)", function()
    -- numpy 1.24: (A * M)[0] = [1.5, -0.0, nan]; M + np.float32 array: float32
    local P = A:emul(M)
    assert.are.equal("float64", P.dtype)
    assert.are.equal(1.5, P(1, 1)); assert.are.equal(0, P(1, 2)); assert.is_true(P(1, 3) ~= P(1, 3))
    assert.are.same({{2, 1, 1}, {1, 2, 2}}, (M + 1):totable())
    assert.are.same({{2, 0, 0}, {0, 2, 2}}, (M * 2):totable())
    assert.are.same({{2, 0, 0}, {0, 2, 2}}, (M + M):totable())
    assert.are.same({{-1, 0, 0}, {0, -1, -1}}, (-M):totable())
    local S = M + la.ones(2, 3, {dtype = "float32"})
    assert.are.equal("float32", S.dtype)
    assert.are.same({{2, 1, 1}, {1, 2, 2}}, S:totable())
    assert.are.equal("float32", la.emul(M, la.ones(2, 3, {dtype = "float32"})).dtype)
    assert.are.same({1, 2}, (M * la.ones(3, 1)):totable())     -- matmul
  end)

  it("masks attention as a table of booleans does (true attends)", function()
    local Q, K, V = la.randn(2, 4, 1), la.randn(3, 4, 2), la.randn(3, 2, 3)
    local tbl = {{true, false, true}, {true, true, false}}
    local bm = la.matrix{{1, 0, 1}, {1, 1, 0}}:gt(0)
    assert.is_true(la.attention(Q, K, V, {mask = tbl}) == la.attention(Q, K, V, {mask = bm}))
    local O32 = la.attention(Q:astype("float32"), K:astype("float32"), V:astype("float32"), {mask = bm})
    assert.are.equal("float32", O32.dtype)
  end)
end)

describe("a bool matrix anywhere else", function()
  local M = la.gt(la.matrix{{2, -1}, {1, 3}}, 0)   -- {{T, F}, {T, T}}
  local M64 = M:astype("float64")

  it("is computed as its 1.0/0.0 float64 copy", function()
    -- (flip, roll, tile, vec and stacks keep bool: below)
    for _, f in ipairs{"exp", "sqrt", "abs", "det", "inv", "trace", "norm", "cumsum", "sort",
                       "triu", "diag", "max", "argmax", "softmax", "prod"} do
      local a, b = la[f](M), la[f](M64)
      if la.is_matrix(b) then
        assert.are.equal("float64", a.dtype, f)
        assert.are.same(b:totable(), a:totable(), f)
      else
        assert.are.equal(b, a, f)
      end
    end
    assert.are.same(la.solve(M, {1, 2}):totable(), la.solve(M64, {1, 2}):totable())
    assert.are.same(la.hstack{M, M64}:totable(), la.hstack{M64, M64}:totable())
    assert.are.same(la.matrix(M):totable(), M64:totable())
    assert.are.equal(la.dot(la.vector{1, 0}:gt(0), la.vector{3, 4}), 3)
    assert.are.same(la.map(M, function(x) return x + 1 end):totable(), {{2, 1}, {2, 2}})
  end)

  it("is an error when closed, as any matrix", function()
    local C = la.gt(la.ones(2, 2), 0)
    debug.getmetatable(C).__close(C)
    assert.error_matches(function() C:get(1, 1) end, "matrix is closed", 1, true)
    assert.error_matches(function() la.exp(C) end, "matrix is closed", 1, true)
    assert.error_matches(function() la.sum(C) end, "matrix is closed", 1, true)
    assert.error_matches(function() la.where(C, 1, 2) end, "matrix is closed", 1, true)
    assert.error_matches(function() la.attention(la.ones(1, 1), la.ones(1, 1), la.ones(1, 1), {mask = C}) end,
      "closed", 1, true)
  end)
end)

describe("bool in bytes and .npy files", function()
  it("tobytes and frombuffer: one byte an element, 0 or 1", function()
    local M = la.matrix{{1, 0, 1}, {0, 0, 1}}:gt(0)
    assert.are.equal("\1\0\0\0\1\1", la.tobytes(M))           -- column-major
    isbool({{T, F, T}, {F, F, T}}, la.frombuffer("\1\0\1\0\0\7", 2, 3, {dtype = "|b1"}))
    isbool({{T, F}, {T, F}}, la.frombuffer("\1\1\0\0", 2, 2, {dtype = "bool", order = "F"}))
    assert.error_matches(function() la.frombuffer("\1\0", 1, 3, {dtype = "b1"}) end,
      "1x3 elements of 1 bytes need 3 bytes, the buffer holds 2", 1, true)
  end)

  it("save_npy writes '|b1', which load_npy reads back as bool", function()
    local path = os.tmpname()
    local M = la.matrix{{1, 0, 1}, {0, 0, 1}}:gt(0)
    la.save_npy(M, path)
    assert.are.equal("|b1", la.npy_info(path).dtype)
    isbool(M:totable(), la.load_npy(path))
    isbool({{T, F, T}}, la.load_npy(path, {rows = {1, 1}}))
    -- np.save(path, np.array([[True, False], [False, True]])): a C-order '|b1' file
    local f = io.open(path, "wb")
    local dict = "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }"
    dict = dict .. string.rep(" ", 64 - 10 - #dict - 1) .. "\n"
    f:write("\147NUMPY\1\0", string.char(#dict, 0), dict, "\1\0\0\1")
    f:close()
    isbool({{T, F}, {F, T}}, la.load_npy(path))
    os.remove(path)
  end)
end)

-- Shape functions keep the bool type as NumPy's do (np.flip, np.roll,
-- np.tile, np.ravel(order='F'), np.vstack / np.hstack of bool arrays are
-- bool); a bool item stacked with float items becomes 1.0 / 0.0 in their
-- type (np.vstack((b, f64)).dtype is float64, with float32 float32).
describe("bool through flip, roll, tile, vec and stacks", function()
  local la = require "linalg"
  -- M = {{T, F, T}, {F, T, T}}: a 2 x 3 mask, and views of a larger one
  local M = la.gt(la.matrix{{1, -1, 2}, {-2, 3, 4}}, 0)
  local function bools(A)
    local t, m, n = {}, A:shape()
    for i = 1, m do
      local r = {}
      for j = 1, n do r[j] = A:get(i, j) end
      t[i] = r
    end
    return t
  end
  it("keeps bool and moves the entries", function()
    assert.are.equal("bool", la.flip(M, 1).dtype)
    assert.are.same({{false, true, true}, {true, false, true}}, bools(la.flip(M, 1)))
    assert.are.same({{true, false, true}, {true, true, false}}, bools(la.flip(M, 2)))
    assert.are.same({{false, true, true}, {true, false, true}}, bools(la.roll(M, 1, 1)))
    assert.are.same({{true, true, false}, {true, false, true}}, bools(la.roll(M, 1, 2)))
    assert.are.same({{true, false, true, true, false, true}, {false, true, true, false, true, true}},
                    bools(la.tile(M, 1, 2)))
    assert.are.same(bools(la.tile(M, 2, 1)), bools(la.repmat(M, 2, 1)))
    assert.are.same({{true}, {false}, {false}, {true}, {true}, {true}}, bools(la.vec(M)))
    assert.are.same({{true, false, true}, {false, true, true}, {true, false, true}, {false, true, true}},
                    bools(la.vstack{M, M}))
    assert.are.same({{true, false, true, true, false, true}, {false, true, true, false, true, true}},
                    bools(la.hstack{M, M}))
    for _, R in ipairs{la.flip(M, 2), la.roll(M, 2, 1), la.tile(M, 2, 2), la.vec(M), la.vstack{M, M},
                       la.hstack{M}} do
      assert.are.equal("bool", R.dtype)
    end
  end)
  it("of views", function()
    local big = la.gt(la.reshape(la.arange(1, 31), 5, 6), 12)       -- entries > 12
    local V = big:sub(2, 4, 2, 5)                                      -- 3 x 4, ld 5
    assert.are.same(bools(la.flip(V:copy(), 2)), bools(la.flip(V, 2)))
    assert.are.same(bools(la.roll(V:copy(), 1, 1)), bools(la.roll(V, 1, 1)))
    assert.are.same(bools(la.vstack{V:copy(), V:copy()}), bools(la.vstack{V, V}))
  end)
  it("promotes a bool item stacked with float items as NumPy", function()
    local S = la.vstack{M, la.ones(1, 3)}
    assert.are.equal("float64", S.dtype)
    assert.are.same({{1, 0, 1}, {0, 1, 1}, {1, 1, 1}}, S:totable())
    assert.are.equal("float32", la.hstack{M, la.zeros(2, 1, {dtype = "float32"})}.dtype)
    assert.are.equal("float64", la.vstack{M, {{5, 6, 7}}}.dtype)
    assert.are.equal(7, la.vstack{M, {{5, 6, 7}}}:get(3, 3))
  end)
end)

describe("sum and mean of a bool matrix (counts of its bytes)", function()
  it("are the float64 1/0 copy's, over all entries and along each dim, of views too", function()
    local big = la.gt(la.reshape(la.arange(1, 31), 5, 6), 12)       -- entries > 12
    for _, M in ipairs{big, big:sub(2, 4, 2, 5)} do
      local F = M:astype("float64")
      assert.are.equal(la.sum(F), la.sum(M))
      assert.are.equal(la.mean(F), la.mean(M))
      for dim = 1, 2 do
        local s, m = la.sum(M, dim), la.mean(M, dim)
        assert.are.equal("float64", s.dtype)
        assert.are.same(la.sum(F, dim):totable(), s:totable())
        assert.are.same(la.mean(F, dim):totable(), m:totable())
      end
    end
    -- numpy 1.24: m = np.arange(1, 31.).reshape(5, 6, order='F') > 12; m.sum(), m.mean(), m.sum(axis=0)
    assert.are.equal(18, la.sum(big))
    assert.are.equal(0.6, la.mean(big))
    assert.are.same({{0, 0, 3, 5, 5, 5}}, la.sum(big, 1):totable())
  end)
  it("keep the general path's errors and options", function()
    local M = la.gt(la.zeros(0, 3), 0)
    assert.are.equal(0, la.sum(M))
    assert.has_error(function() la.mean(M) end)
    assert.has_error(function() la.sum(la.gt(la.ones(2, 2), 0), 3) end)
  end)
end)
