-- Coming from NumPy: indexed assignment (set with selections), fill,
-- isclose, eigvalsh, inner, reshape(-1), slice("end"), and the table of
-- NumPy names behind help, completion and the README.
-- Reference values: NumPy 1.24.2 (Debian's python3-numpy), as noted.
local la = require "linalg"
local names = require "linalg.numpy_names"

local function A34() return la.matrix{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}} end

describe("A:set(rows, cols, B)", function()
  -- numpy 1.24: A = np.arange(1., 13.).reshape(3, 4), then each assignment
  it("writes blocks chosen by ranges, index lists and steps", function()
    local A = A34()
    assert.are.same({{1, -1, -2, -3}, {5, 6, 7, 8}, {9, -1, -2, -3}},
      A:set({1, 3}, "2:end", la.matrix{{-1, -2, -3}}):totable())     -- A[[0, 2], 1:] = [[-1, -2, -3]]
    A = A34()
    assert.are.same({{0, 2, 3, 0}, {5, 6, 7, 8}, {0, 10, 11, 0}},
      A:set("1:2:end", "1:3:end", 0):totable())                      -- A[::2, ::3] = 0
    A = A34()
    A:set("2:3", {2, 3}, {{-5, -6}, {-7, -8}})                        -- a table of the block's shape
    assert.are.same({{1, 2, 3, 4}, {5, -5, -6, 8}, {9, -7, -8, 12}}, A:totable())
    A = A34()
    A:set(la.vector{1, 0, 1}, 4, 0)                                   -- a 1/0 mask, as slice takes
    assert.are.same({0, 8, 0}, A:col(4):totable())
  end)

  it("broadcasts a row, a column and a number as NumPy does", function()
    local A = A34()
    A:set(":", {4, 1}, la.vector{10, 20, 30})                        -- A[:, [3, 0]] = [[10], [20], [30]]
    assert.are.same({{10, 2, 3, 10}, {20, 6, 7, 20}, {30, 10, 11, 30}}, A:totable())
    A = A34()
    A:set("1:2", ":", {{0, 1, 2, 3}})                                -- a 1 x 4 row down both rows
    assert.are.same({{0, 1, 2, 3}, {0, 1, 2, 3}, {9, 10, 11, 12}}, A:totable())
    A = A34()
    A:set(2, ":", 7)
    assert.are.same({{7, 7, 7, 7}}, A:row(2):totable())
    A:set(":", 2, la.matrix{{5}})                                    -- 1 x 1 everywhere
    assert.are.same({5, 5, 5}, A:col(2):totable())
  end)

  it("fills a one-row or one-column selection with a vector of either orientation", function()
    local A = A34()
    A:set(2, ":", la.vector{-1, -2, -3, -4})           -- NumPy's A[1, :] = v with a 1-D v
    assert.are.same({{-1, -2, -3, -4}}, A:row(2):totable())
    A:set(":", 3, la.matrix{{7, 8, 9}})                -- a 1 x 3 row into a column
    assert.are.same({7, 8, 9}, A:col(3):totable())
    A:set(1, "2:3", {100, 200})                        -- a flat table (a column) into a row
    assert.are.same({{1, 100, 200, 4}}, A:row(1):totable())
  end)

  it("keeps the element write and its errors", function()
    local A = A34()
    assert.are.equal(A, A:set(2, 3, -7))
    assert.are.equal(-7, A(2, 3))
    local v = la.vector{1, 2, 3}
    v:set(3, 9)
    assert.are.same({1, 2, 9}, v:totable())
    assert.error_matches(function() A:set(1, 1, "a") end, "linalg.set: bad argument #4 (number expected, got string)", 1, true)
    assert.error_matches(function() A:set(4, 1, 0) end, "linalg.set: row index 4 out of range 1..3", 1, true)
  end)

  it("gives NumPy's answer when the value is a view of the destination", function()
    -- numpy 1.24: B[:, 0] = B[:, 1]
    local A = A34()
    A:set(":", 1, A:col(2))
    assert.are.same({{2, 2, 3, 4}, {6, 6, 7, 8}, {10, 10, 11, 12}}, A:totable())
    -- B[1:3, :] = B[0:2, :] (overlapping blocks: a row-by-row copy would repeat row 1)
    A = A34()
    A:set("2:3", ":", A:slice("1:2", ":"))
    assert.are.same({{1, 2, 3, 4}, {1, 2, 3, 4}, {5, 6, 7, 8}}, A:totable())
    -- B[0:2, :] = B[1:3, :]
    A = A34()
    A:set("1:2", ":", A:sub(2, 3, 1, 4))
    assert.are.same({{5, 6, 7, 8}, {9, 10, 11, 12}, {9, 10, 11, 12}}, A:totable())
    -- B[:, 1:3] = B[:, 0:2][::-1] (a copy in NumPy too)
    A = A34()
    A:set(":", "2:3", A:slice("3:-1:1", "1:2"))
    assert.are.same({{1, 9, 10, 4}, {5, 5, 6, 8}, {9, 1, 2, 12}}, A:totable())
    -- a view of a view, overlapping through the parent
    A = A34()
    local V = A:sub(1, 3, 2, 4)
    V:set(":", "2:3", A:sub(1, 3, 2, 3))
    assert.are.same({{1, 2, 2, 3}, {5, 6, 6, 7}, {9, 10, 10, 11}}, A:totable())
  end)

  it("writes through a view into its parent; repeated indices: the last wins", function()
    local A = A34()
    local V = A:slice("2:3", "2:4")
    V:set(1, ":", 0)
    assert.are.same({{1, 2, 3, 4}, {5, 0, 0, 0}, {9, 10, 11, 12}}, A:totable())
    -- numpy 1.24: B[[0, 0], :2] = [[1, 2], [3, 4]] leaves row 0 = [3, 4, ...]
    A = A34()
    A:set({1, 1}, "1:2", {{1, 2}, {3, 4}})
    assert.are.same({{3, 4, 3, 4}}, A:row(1):totable())
  end)

  it("rounds into a float32 destination and reads a float32 value exactly", function()
    local S = la.zeros(2, 2, {dtype = "float32"})
    S:set(":", 1, 0.1)
    assert.are.equal("float32", S.dtype)
    assert.are.equal(0.10000000149011612, S(2, 1))
    local D = la.zeros(2, 2)
    D:set(1, ":", la.matrix({{0.1, 0.2}}, {dtype = "float32"}))
    assert.are.equal(0.10000000149011612, D(1, 1))
    assert.are.equal(0.20000000298023224, D(1, 2))
  end)

  it("takes empty selections", function()
    local A = A34()
    A:set({}, ":", 5)
    A:set({}, ":", la.ones(1, 4))
    assert.are.same(A34():totable(), A:totable())
  end)

  it("names both shapes, the index, the value's type and a closed matrix in its errors", function()
    local A = A34()
    assert.error_matches(function() A:set("1:2", "1:3", la.zeros(3, 2)) end,
      "linalg.set: 2 x 3 block, value is 3 x 2", 1, true)
    assert.error_matches(function() A:set(":", ":", la.ones(2, 1)) end,
      "linalg.set: 3 x 4 block, value is 2 x 1", 1, true)
    assert.error_matches(function() A:set(1, ":", la.vector{1, 2, 3}) end,
      "linalg.set: 1 x 4 block, value is 3 x 1", 1, true)
    assert.error_matches(function() A:set({1, 5}, ":", 0) end,
      "linalg.set: row index list: entry 2 is 5, expected an integer in 1..3", 1, true)
    assert.error_matches(function() A:set(":", "2:9", 0) end,
      "linalg.set: column range \"2:9\" out of range 1..4", 1, true)
    assert.error_matches(function() A:set(":", 1, "x") end,
      "linalg.set: bad argument #4 (number, matrix or table expected, got string)", 1, true)
    assert.error_matches(function() A:set(":", 1, {{"a"}, {1}, {2}}) end, "linalg.set:")
    local B = la.ones(2, 2)
    debug.getmetatable(B).__close(B)
    assert.error_matches(function() B:set(":", 1, 0) end, "linalg.set: bad argument #1 (matrix is closed)", 1, true)
    assert.error_matches(function() A:set(":", 1, B) end, "linalg.set: bad argument #4 (matrix is closed)", 1, true)
    assert.are.same(A34():totable(), A:totable())                   -- nothing written on error
  end)
end)

describe("A:fill(x)", function()
  it("sets every entry, through a view into its parent", function()
    local A = A34()
    assert.are.equal(A, A:fill(2))
    assert.are.same({{2, 2, 2, 2}, {2, 2, 2, 2}, {2, 2, 2, 2}}, A:totable())
    A = A34()
    A:slice("1:2", "2:2:4"):fill(0)                    -- a view with a column stride
    assert.are.same({{1, 0, 3, 0}, {5, 0, 7, 0}, {9, 10, 11, 12}}, A:totable())
    local S = la.ones(2, 1, {dtype = "float32"}):fill(1 / 3)
    assert.are.equal("float32", S.dtype)
    assert.are.equal(0.3333333432674408, S(1))
  end)

  it("refuses a non-number and a closed matrix", function()
    assert.error_matches(function() la.ones(2, 2):fill("x") end, "linalg.fill: bad argument #2 (number expected, got string)", 1, true)
    local B = la.ones(2, 2)
    debug.getmetatable(B).__close(B)
    assert.error_matches(function() B:fill(0) end, "linalg.fill: bad argument #1 (matrix is closed)", 1, true)
  end)
end)

describe("la.isclose", function()
  local inf, nan = math.huge, 0 / 0
  it("is NumPy's isclose entry by entry", function()
    -- numpy 1.24: np.isclose(a, b) and with equal_nan=True
    local a = {1, 1e10, 1e-8, inf, inf, nan, 1, 0, -inf, 1e-300}
    local b = {1 + 1e-6, 1.00001e10, 0, inf, -inf, nan, inf, 1e-8, -inf, 0}
    local T, F = true, false
    assert.are.same({T, T, T, T, F, F, F, T, T, T}, la.isclose(a, b):totable())
    assert.are.same({T, T, T, T, F, T, F, T, T, T}, la.isclose(a, b, {equal_nan = true}):totable())
    -- np.isclose([1, 2, 3], [1.5, 2.5, 4], rtol=0.2, atol=0.1) -> [0, 1, 0]
    assert.are.same({0, 1, 0}, la.isclose({1, 2, 3}, {1.5, 2.5, 4}, {rtol = 0.2, atol = 0.1,
                                                                  dtype = "float64"}):totable())
  end)

  it("is asymmetric as NumPy's (rtol scales |b|)", function()
    assert.is_true(la.isclose(1, 2, {rtol = 0.5, atol = 0}))
    assert.is_false(la.isclose(2, 1, {rtol = 0.5, atol = 0}))
  end)

  it("broadcasts as the comparisons do; a bool mask, or a float one of the type asked", function()
    -- numpy 1.24: np.isclose(M, [[1], [3.00001], [5.1]])
    local M = la.matrix{{1, 2}, {3, 4}, {5, 6}}
    local T, F = true, false
    assert.are.same({{T, F}, {T, F}, {F, F}}, la.isclose(M, {1, 3.00001, 5.1}):totable())
    assert.are.same({{T, F}, {F, F}, {F, F}}, la.isclose(M, 1):totable())
    assert.are.same({{F, T}, {F, F}, {F, F}}, la.isclose(M, {{1.5, 2}}):totable())
    local R = la.isclose(M:astype("float32"), 2)
    assert.are.equal("bool", R.dtype)
    assert.are.equal("float32", la.isclose(M:astype("float32"), 2, {dtype = "float32"}).dtype)
    assert.are.same({{0, 1}, {0, 0}, {0, 0}}, la.isclose(M, 2, {dtype = "float32"}):totable())
    assert.is_true(la.isclose(0.1, 0.1 + 1e-12))
    assert.has_error(function() la.isclose(M, la.ones(2, 2)) end, "linalg.isclose: shapes 3x2 and 2x2 do not broadcast")
  end)

  it("checks its options", function()
    assert.error_matches(function() la.isclose(1, 1, {rtl = 1}) end, "unknown option 'rtl' (did you mean 'rtol'?)", 1, true)
    assert.error_matches(function() la.isclose(1, 1, {equal_nan = 1}) end, "option 'equal_nan' must be true or false", 1, true)
    assert.error_matches(function() la.isclose(1, 1, 5) end, "linalg.isclose: bad argument #3 (options table expected, got number)", 1, true)
  end)

  it("and allclose never call a finite number close to an infinity", function()
    -- numpy 1.24: np.allclose(1, np.inf) is False (rtol * inf used to admit it)
    assert.is_false(la.allclose(1, inf))
    assert.is_false(la.allclose({1, 2}, {1, -inf}))
    assert.is_true(la.allclose({1, inf}, {1, inf}))
  end)
end)

describe("la.eigvalsh", function()
  it("gives eigh's eigenvalues, ascending (NumPy's values)", function()
    -- numpy 1.24: np.linalg.eigvalsh(S)
    local S = la.matrix{{4, 1, 2}, {1, 5, 0.5}, {2, 0.5, 6}}
    local w = la.eigvalsh(S)
    assert.are.same({3, 1}, {w:shape()})
    assert.near({2.6067385889202916, 4.798694775792867, 7.594566635286839}, w, 1e-14)
    assert.near(la.eigh(S), w, 1e-14)
    local w32 = la.eigvalsh(S:astype("float32"))
    assert.are.equal("float32", w32.dtype)
    assert.near({2.606738567352295, 4.798694610595703, 7.594566822052002}, w32, 1e-6)
    assert.are.same({0, 1}, {la.eigvalsh(la.zeros(0, 0)):shape()})
  end)

  it("reads one triangle with uplo, as NumPy's UPLO; checks symmetry without it", function()
    -- numpy 1.24: eigvalsh([[2, 5], [1, 2]]) -> [1, 3]; UPLO='U' -> [-3, 7]
    local N = {{2, 5}, {1, 2}}
    assert.near({1, 3}, la.eigvalsh(N, {uplo = "L"}), 1e-14)
    assert.near({-3, 7}, la.eigvalsh(N, {uplo = "U"}), 1e-14)
    local w, V = la.eigh(N, {uplo = "U"})
    assert.near({-3, 7}, w, 1e-14)
    assert.near(la.matrix{{2, 5}, {5, 2}} * V, V * la.diag(w), 1e-13)
    assert.error_matches(function() la.eigvalsh(N) end, "linalg.eigvalsh: matrix is not symmetric", 1, true)
    assert.error_matches(function() la.eigvalsh(N, {uplo = "u"}) end, "linalg.eigvalsh: option 'uplo'", 1, true)
    assert.error_matches(function() la.eigvalsh(la.ones(2, 3)) end, "linalg.eigvalsh: matrix must be square, got 2x3", 1, true)
    assert.error_matches(function() la.eigvalsh({{0 / 0}}) end, "linalg.eigvalsh: A(1,1) is NaN", 1, true)
  end)
end)

describe("la.inner", function()
  it("is NumPy's inner", function()
    -- numpy 1.24: np.inner([1, 2, 3], [4, 5, 6]) = 32; np.inner(M, P) = M @ P.T;
    -- np.inner(M, [1, -1]) = np.inner([1, -1], M) = [-1, -1, -1]
    local M, P = la.matrix{{1, 2}, {3, 4}, {5, 6}}, la.matrix{{1, 0}, {1, 1}}
    assert.are.equal(32, la.inner({1, 2, 3}, {4, 5, 6}))
    assert.are.equal(32, la.inner(la.matrix{{1, 2, 3}}, {4, 5, 6}))     -- either orientation
    assert.are.same({{1, 3}, {3, 7}, {5, 11}}, la.inner(M, P):totable())
    assert.are.same({-1, -1, -1}, la.inner(M, {1, -1}):totable())
    assert.are.same({-1, -1, -1}, la.inner({1, -1}, M):totable())
    assert.are.same({2, 4}, la.inner(2, {1, 2}):totable())
    assert.are.equal(6, la.inner(2, 3))
    assert.are.equal("float32", la.inner(M:astype("float32"), P:astype("float32")).dtype)
    assert.error_matches(function() la.inner(M, la.ones(2, 3)) end,
      "linalg.inner: 3x2 and 2x3: the last dimensions differ (2 ~= 3)", 1, true)
    assert.error_matches(function() la.inner({1, 2}, {1, 2, 3}) end, "linalg.inner:", 1, true)
  end)
end)

describe("reshape with -1 and slice with \"end\"", function()
  it("infers one size, in column-major order", function()
    local A = A34()
    local c = A:reshape(-1)
    assert.are.same({12, 1}, {c:shape()})
    assert.are.same({1, 5, 9, 2}, {c(1), c(2), c(3), c(4)})
    assert.are.same({{1, 9, 6, 3, 11, 8}, {5, 2, 10, 7, 4, 12}}, A:reshape(2, -1):totable())
    assert.are.same({6, 2}, {A:reshape(-1, 2):shape()})
    assert.are.same({12, 1}, {A:reshape(12):shape()})
    assert.are.same({0, 1}, {la.zeros(0, 3):reshape(-1):shape()})
    assert.are.same({0, 5}, {la.zeros(0, 3):reshape(0, 5):shape()})
    assert.error_matches(function() A:reshape(5, -1) end, "linalg.reshape: cannot reshape 3x4 into 5x?", 1, true)
    assert.error_matches(function() A:reshape(-1, 0) end, "linalg.reshape: cannot reshape 3x4 into ?x0", 1, true)
    assert.error_matches(function() A:reshape(-1, -1) end, "linalg.reshape: only one size can be -1", 1, true)
    assert.error_matches(function() A:reshape(-2, 6) end, "size must be in 0..2147483647, got -2", 1, true)
    assert.error_matches(function() A:reshape(5) end, "linalg.reshape: cannot reshape 3x4 into 5x1", 1, true)
  end)

  it("takes \"end\" as one index wherever slice takes an index", function()
    local v = la.vector{1, 2, 3}
    assert.are.equal(3, v:slice("end", 1)(1))
    local A = A34()
    local r = A:slice("end", ":")
    assert.are.same({{9, 10, 11, 12}}, r:totable())
    r:set(1, 1, 0)                                     -- a view, as A:row(3)
    assert.are.equal(0, A(3, 1))
    assert.are.same({4, 8, 12}, A:slice(":", "end"):totable())
    assert.are.same({12}, A:slice("end", "end"):totable())
    A:set("end", "end", -1)
    assert.are.equal(-1, A(3, 4))
    assert.error_matches(function() la.zeros(0, 2):slice("end", ":") end, "row range \"end\" out of range 1..0", 1, true)
  end)
end)

-- The NumPy functions the seed texts call (shared/seeds/*.txt), each of
-- which the table must name.
local SEEDS = {"np.array", "np.sqrt", "np.linalg.norm", "np.linalg.matrix_rank", "np.linalg.lstsq",
  "np.linalg.cond", "np.allclose", "np.isclose", "np.degrees", "np.arccos", "np.clip", "np.random.seed",
  "np.random.randn", "np.linalg.qr", "np.round", "np.eye", "np.linalg.pinv", "np.outer", "np.linalg.eigvalsh",
  "np.all", "np.trace", "np.column_stack", "np.zeros", "np.linalg.solve", "np.sum", "np.ones", "np.dot",
  "np.inner", "np.argsort", "np.exp", "np.where", "np.tril", "np.log", "np.concatenate", "np.abs",
  "np.random.default_rng", "np.max", "a.T", "@", "a.reshape", "a.copy", "a.sum", "a.mean", "a.std", "a.max",
  "a.shape", "a[::-1]"}

describe("linalg.numpy_names", function()
  it("names every NumPy function the seed texts call", function()
    for _, name in ipairs(SEEDS) do assert(names.lookup(name), "no row for " .. name) end
  end)

  it("points at linalg functions that exist, and rows keep their parts", function()
    for _, row in ipairs(names.rows) do
      assert(type(row.np) == "table" and #row.np > 0 and type(row.la) == "string", row.la)
      if row.fn then assert(names.target(row, la), "la." .. row.fn .. " is not a function") end
      if row.fn and row.la:match("^la%.") then
        assert(row.la:find("la." .. row.fn, 1, true), row.la .. " does not name la." .. row.fn)
      end
    end
  end)

  it("finds rows by spelling and by last word", function()
    assert.are.equal("la.rank", names.lookup("matrix_rank").la)
    assert.are.equal("la.rank", names.lookup("np.linalg.matrix_rank").la)
    assert.are.equal("la.rank", names.lookup("numpy.linalg.matrix_rank").la)
    assert.are.equal("A * B", names.lookup("@").la)
    assert.is_nil(names.lookup("no_such_thing"))
    local got = {}
    for _, row in ipairs(names.complete("np.linalg.ei")) do got[#got + 1] = row.fn end
    assert.are.same({"eigh", "eigvalsh", "eig"}, got)
  end)

  it("is the README's table, row for row", function()
    local readme = io.open("README.md"):read("*a")
    local table_md = readme:match("<!%-%- numpy_names: the table below is linalg%.numpy_names%.markdown%(%) %-%->\n(.-)<!%-%- numpy_names: end %-%->")
    assert(table_md, "README has no numpy_names table")
    assert.are.equal(names.markdown(), table_md)
  end)
end)

local sh = require "shell"

-- what bin/linalg-repl prints given input on its standard input
local function repl(input)
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  assert(f:write(input))
  assert(f:close())
  local out = sh(string.format("LUA_CPATH='%s' %s bin/linalg-repl < %s", package.cpath, require("interp").lua, name))
  os.remove(name)
  return out
end

describe("help for a NumPy name", function()
  it("says linalg's name, then shows its reference", function()
    local out = repl('help "matrix_rank"\nhelp "np.linalg.eigvalsh"\nhelp "@"\nhelp "np.random.randn"\nhelp "norm"\n')
    assert.is_truthy(out:find("matrix_rank: NumPy's name; linalg calls it la.rank\nla.rank(A [, tol])", 1, true))
    assert.is_truthy(out:find("np.linalg.eigvalsh: NumPy's name; linalg calls it la.eigvalsh\nla.eigvalsh(A [, opts])", 1, true))
    assert.is_truthy(out:find("@: NumPy's name; linalg calls it A * B (`u @ v` of two vectors is `la.dot(u, v)`)\nla.matmul(A, B [, opts])", 1, true))
    assert.is_truthy(out:find("np.random.randn: NumPy's name; linalg calls it la.random.randn(m, n)", 1, true))
    assert.is_falsy(out:find("norm: NumPy's name", 1, true))           -- a linalg name: its own reference
    assert.is_truthy(out:find("la.norm(A [, p] [, dim])", 1, true))
  end)
end)

local tmux_rc = os.execute("command -v tmux >/dev/null 2>&1")
local have_tmux = tmux_rc == true or tmux_rc == 0
local have_rl = pcall(require, "linalg.readline")
local on_tty = (have_tmux and have_rl) and describe or pending

on_tty("Tab completion of a NumPy name", function()
  local sock = require("interp").unique("linalg-numpy-spec-")
  local function screen() return sh("tmux -L " .. sock .. " capture-pane -p -t s") end
  local function wait(text)
    for _ = 1, 300 do
      if screen():find(text, 1, true) then return true end
      os.execute("sleep 0.1")
    end
    return false
  end
  teardown(function() sh("tmux -L " .. sock .. " kill-server") end)

  it("completes np.linalg.matrix_r and la.matrix_r to la.rank", function()
    local hist = os.tmpname()
    sh(string.format("tmux -L %s new-session -d -s s -x 100 -y 30 'env HOME=/nonexistent LINALG_HISTFILE=%s LUA_CPATH=\"%s\" " .. require("interp").lua .. " bin/linalg-repl'",
      sock, hist, package.cpath))
    assert.is_true(wait("la is loaded"), screen())
    sh("tmux -L " .. sock .. " send-keys -t s -l 'np.linalg.matrix_r'")
    sh("tmux -L " .. sock .. " send-keys -t s Tab")
    assert.is_true(wait("> la.rank"), screen())
    sh("tmux -L " .. sock .. " send-keys -t s C-u")
    sh("tmux -L " .. sock .. " send-keys -t s -l 'la.matrix_r'")
    sh("tmux -L " .. sock .. " send-keys -t s Tab")
    sh("tmux -L " .. sock .. " send-keys -t s -l '(la.eye(3))'")
    sh("tmux -L " .. sock .. " send-keys -t s Enter")
    assert.is_true(wait("ans = 3"), screen())
    os.remove(hist)
  end)
end)
