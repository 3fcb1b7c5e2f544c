-- Construction, access, views, copies and printing (API.md: Construction,
-- Access and views).
local MAXINT, MININT = math.maxinteger or 2 ^ 53, math.mininteger or -2 ^ 53   -- where numbers are doubles: 2^53
local la = require "linalg"

describe("linalg construction", function()
  it("builds a matrix from a table of rows", function()
    local X = la.matrix{{1, 2}, {3, 4}, {5, 6}}
    assert.are.same({3, 2}, {X:shape()})
    assert.are.equal(4, X(2, 2))
    assert.are.equal(5, X(3, 1))
    assert.are.same({{1, 2}, {3, 4}, {5, 6}}, X:totable())
  end)

  it("builds a column vector from a flat table", function()
    for _, v in ipairs{la.matrix{1, 2, 3}, la.vector{1, 2, 3}} do
      assert.are.same({3, 1}, {v:shape()})
      assert.are.same({1, 2, 3}, v:totable())
    end
  end)

  it("vector() turns a 1 x n row into a column", function()
    local v = la.vector(la.matrix{{7, 8, 9}})
    assert.are.same({3, 1}, {v:shape()})
    assert.are.same({7, 8, 9}, v:totable())
  end)

  it("fills, zeros, ones, eye, diag", function()
    assert.are.same({{7, 7, 7}, {7, 7, 7}}, la.matrix(2, 3, 7):totable())
    assert.are.same({{0, 0}}, la.matrix(1, 2):totable())
    assert.are.same({{0, 0}, {0, 0}}, la.zeros(2, 2):totable())
    assert.are.same({{1, 1, 1}}, la.ones(1, 3):totable())
    assert.are.same({{1, 0}, {0, 1}}, la.eye(2):totable())
    assert.are.same({{1, 0, 0}, {0, 1, 0}}, la.eye(2, 3):totable())
    assert.are.same({{2, 0}, {0, 3}}, la.diag{2, 3}:totable())
    assert.are.same({1, 4}, la.diag{{1, 2}, {3, 4}, {5, 6}}:totable())
  end)

  it("accepts empty shapes", function()
    assert.are.same({0, 3}, {la.zeros(0, 3):shape()})
    assert.are.same({3, 0}, {la.ones(3, 0):shape()})
    assert.are.same({0, 1}, {la.matrix{}:shape()})
    assert.are.same({1, 0}, {la.matrix{{}}:shape()})
  end)

  it("hstack and vstack concatenate; hstack of vectors is column_stack", function()
    local a, b = la.vector{1, 2}, la.vector{3, 4}
    assert.are.same({{1, 3}, {2, 4}}, la.hstack{a, b}:totable())
    assert.are.same({1, 2, 3, 4}, la.vstack{a, b}:totable())
    assert.are.same({{1, 2}, {3, 4}, {5, 6}},
      la.vstack{{{1, 2}}, la.matrix{{3, 4}, {5, 6}}}:totable())
    assert.are.same({{1, 2, 9}, {3, 4, 9}}, la.hstack{{{1, 2}, {3, 4}}, {9, 9}}:totable())
    assert.are.same({0, 0}, {la.hstack{}:shape()})
    assert.error_matches(function() la.hstack{a, la.vector{1, 2, 3}} end,
      "linalg.hstack: item 2 has 3 rows, expected 2")
    assert.error_matches(function() la.vstack{la.ones(1, 2), la.ones(1, 3)} end,
      "linalg.vstack: item 2 has 3 columns, expected 2")
  end)

  it("is_matrix tells matrices from anything else", function()
    assert.is_true(la.is_matrix(la.zeros(1, 1)))
    assert.is_false(la.is_matrix({1}))
    assert.is_false(la.is_matrix(io.stdout))
    assert.is_false(la.is_matrix(nil))
  end)

  describe("rand and randn", function()
    -- Reference values: the xoshiro256** and splitmix64 reference algorithms
    -- (Blackman & Vigna) re-implemented in Python with integer arithmetic,
    -- seed 42, (next() >> 11) * 2^-53, column-major fill.
    it("uniform draws match the reference generator bit for bit", function()
      local U = la.rand(2, 2, 42)
      assert.are.equal(0.08386297105988216, U(1, 1))
      assert.are.equal(0.3789802506626686, U(2, 1))
      assert.are.equal(0.6800434110281394, U(1, 2))
      assert.are.equal(0.9246929453253876, U(2, 2))
    end)

    it("same seed gives the same numbers; different seeds differ", function()
      assert.is_true(la.randn(5, 4, 7) == la.randn(5, 4, 7))
      assert.is_false(la.randn(5, 4, 7) == la.randn(5, 4, 8))
      assert.is_false(la.rand(3, 3) == la.rand(3, 3))
    end)

    it("has the right moments", function()
      local N = 200000
      local z = la.randn(N, 1, 1)
      local mean = z:mean()
      local var = (z - mean):emul(z - mean):sum() / (N - 1)
      assert.is_true(math.abs(mean) < 0.01)
      assert.is_true(math.abs(var - 1) < 0.01)
      local u = la.rand(N, 1, 2)
      assert.is_true(u:min() >= 0 and u:max() < 1)
      assert.is_true(math.abs(u:mean() - 0.5) < 0.005)
    end)
  end)

  describe("errors", function()
    it("names the row of a ragged table", function()
      assert.error_matches(function() la.matrix{{1, 2}, {3}} end,
        "linalg.matrix: row 2 has 1 entries, expected 2")
    end)
    it("names row and column of a non-number", function()
      assert.error_matches(function() la.matrix{{1, 2}, {3, "x"}} end,
        "linalg.matrix: entry (2,2) is not a number (got string)")
      assert.error_matches(function() la.matrix{1, true} end,
        "entry (2,1) is not a number (got boolean)")
      assert.error_matches(function() la.matrix{{1}, 2} end,
        "linalg.matrix: row 2 is not a table (got number)")
    end)
    it("rejects negative, fractional and oversized sizes before allocating", function()
      assert.error_matches(function() la.zeros(-1, 2) end, "size must be in 0..")
      assert.error_matches(function() la.zeros(1.5, 2) end, "integer expected, got 1.5")
      assert.error_matches(function() la.zeros(0 / 0, 2) end, "integer expected")
      assert.error_matches(function() la.ones(2 ^ 40, 1) end, "size must be in 0..")
      assert.error_matches(function() la.zeros(100000, 100000) end,
        "linalg.zeros: size 100000x100000 exceeds 2147483647 elements")
      assert.error_matches(function() la.zeros("a", 2) end,
        "linalg.zeros: bad argument #1 (integer expected, got string)")
    end)
    it("rejects wrong argument types", function()
      assert.error_matches(function() la.shape("x") end,
        "linalg.shape: bad argument #1 (matrix expected, got string)")
      assert.error_matches(function() la.shape(io.stdout) end,
        "(matrix expected, got FILE*)")
      assert.error_matches(function() la.hstack(3) end, "(table expected, got number)")
    end)
  end)
end)

describe("linalg access", function()
  local X
  before_each(function() X = la.matrix{{1, 2}, {3, 4}, {5, 6}} end)

  it("reports sizes", function()
    assert.are.equal(3, #X)
    assert.are.equal(3, X:rows())
    assert.are.equal(2, X:cols())
    assert.are.equal(6, X:numel())
  end)

  it("reads with A(i,j), A:get and linear column-major v(i)", function()
    assert.are.equal(6, X(3, 2))
    assert.are.equal(6, X:get(3, 2))
    assert.are.equal(2, la.vector{1, 2, 3}(2))
    assert.are.equal(3, la.matrix{{1, 2, 3}}(3))
    assert.are.equal(3, X(2))   -- column-major, as in Octave
    assert.are.equal(2, X(4))
  end)

  it("writes with set, and set returns the matrix", function()
    assert.are.equal(X, X:set(1, 2, 9))
    assert.are.equal(9, X(1, 2))
    local v = la.vector{1, 2, 3}
    v:set(3, 7)
    assert.are.same({1, 2, 7}, v:totable())
  end)

  it("checks bounds and index types", function()
    assert.error_matches(function() return X(4, 1) end, "linalg.get: row index 4 out of range 1..3")
    assert.error_matches(function() return X(0, 1) end, "row index 0 out of range")
    assert.error_matches(function() return X(1, 3) end, "column index 3 out of range 1..2")
    assert.error_matches(function() return X(-1, 1) end, "row index -1 out of range")
    assert.error_matches(function() return X(1.5, 1) end, "integer expected, got 1.5")
    assert.error_matches(function() return X(MAXINT, 1) end, "out of range")
    assert.error_matches(function() return X(7) end, "linear index 7 out of range 1..6")
    assert.error_matches(function() X:set(1, 1, "a") end,
      "linalg.set: bad argument #4 (number expected, got string)")
    assert.error_matches(function() X:set(4, 1, 0) end, "linalg.set: row index 4 out of range")
  end)

  describe("views", function()
    it("row, col and sub share memory with the parent", function()
      local r, c, s = X:row(2), X:col(2), X:sub(2, 3, 1, 2)
      assert.are.same({{3, 4}}, r:totable())
      assert.are.same({2, 4, 6}, c:totable())
      assert.are.same({{3, 4}, {5, 6}}, s:totable())
      s:set(1, 1, 30)
      assert.are.equal(30, X(2, 1))
      assert.are.equal(30, r(1))
      X:set(3, 2, 60)
      assert.are.equal(60, c(3))
      assert.are.equal(60, s(2, 2))
    end)

    it("views of views and empty views work", function()
      local s = X:sub(2, 3, 1, 2):col(2)
      assert.are.same({4, 6}, s:totable())
      assert.are.same({0, 2}, {X:sub(2, 1, 1, 2):shape()})
      assert.are.same({3, 0}, {X:sub(1, 3, 3, 2):shape()})
    end)

    it("keep the parent alive", function()
      local v = la.matrix{{1, 2}, {3, 4}}:col(2)
      collectgarbage(); collectgarbage()
      local junk = {}
      for i = 1, 1000 do junk[i] = la.ones(10, 10) end
      collectgarbage(); collectgarbage()
      assert.are.same({2, 4}, v:totable())
    end)

    it("copy detaches", function()
      local c = X:col(1):copy()
      c:set(1, 100)
      assert.are.equal(1, X(1, 1))
      assert.are.same({100, 3, 5}, c:totable())
    end)

    it("check their ranges", function()
      assert.error_matches(function() X:row(4) end, "linalg.row: row index 4 out of range 1..3")
      assert.error_matches(function() X:col(0) end, "linalg.col: column index 0 out of range")
      assert.error_matches(function() X:sub(0, 2, 1, 1) end,
        "linalg.sub: rows 0..2 out of range for a 3x2 matrix")
      assert.error_matches(function() X:sub(1, 2, 2, 3) end, "columns 2..3 out of range")
      assert.error_matches(function() X:sub(3, 1, 1, 1) end, "rows 3..1 out of range")
    end)
  end)

  it("reshape is column-major, like Octave", function()
    local R = X:reshape(2, 3)
    assert.are.same({{1, 5, 4}, {3, 2, 6}}, R:totable())
    assert.are.same({{3, 4}, {5, 6}}, X:sub(2, 3, 1, 2):reshape(2, 2):totable())
    assert.error_matches(function() X:reshape(4, 2) end, "linalg.reshape: cannot reshape 3x2 into 4x2")
  end)

  it("transposes with .T and :t()", function()
    assert.are.same({{1, 3, 5}, {2, 4, 6}}, X.T:totable())
    assert.are.same({{1, 3, 5}, {2, 4, 6}}, X:t():totable())
    assert.are.same({3, 4}, X:row(2).T:totable())
    assert.are.same({2, 0}, {la.zeros(0, 2).T:shape()})
  end)

  it("prints aligned with a shape header", function()
    -- numbers as NumPy prints them (printoptions); a vector on one line
    assert.are.equal("3x2 matrix\n  1.  2.\n  3.  4.\n  5.  6.", tostring(X))
    assert.are.equal("2x1 matrix\n[ 0.5 -1.5]", tostring(la.vector{0.5, -1.5}))
    assert.are.equal("1x2 matrix (view)\n[3. 4.]", tostring(X:row(2)))
    assert.are.equal("0x3 matrix", tostring(la.zeros(0, 3)))
    assert.are.equal("1x3 matrix\n[ nan  inf -inf]", tostring(la.matrix{{0 / 0, 1 / 0, -1 / 0}}))
  end)

  it("elides large matrices like NumPy", function()
    local s = tostring(la.matrix(40, 40, 1))
    local lines = {}
    for l in s:gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.are.equal("40x40 matrix", lines[1])
    assert.are.equal(8, #lines)            -- header, 3 rows, ':' row, 3 rows
    assert.is_truthy(lines[2]:find("...", 1, true))
    assert.are.equal(7, select(2, lines[2]:gsub("1", "")) + 1)
    -- a vector of 1000 wraps at 75 columns, "]" included: 42 lines as
    -- numpy 1.24's str(np.zeros(1000)) (with our header line instead of none)
    assert.are.equal(42, #tostring(la.zeros(1000, 1)):gsub("[^\n]", "") + 1)
  end)

  it("__close marks a matrix unusable", function()
    if _VERSION ~= "Lua 5.4" then pending("to-be-closed variables are Lua 5.4") return end
    local A = la.ones(2, 2)
    -- the 5.4 syntax through load, so that this file parses on every Lua
    assert(load("local A = ...; do local B <close> = A end"))(A)
    assert.error_matches(function() return A(1, 1) end, "matrix is closed")
    assert.error_matches(function() return A + 1 end, "matrix is closed")
  end)

  -- storage of 64 KiB and more is outside the Lua heap, 128 KiB under a
  -- memory limit or LuaJIT (la.config().storage)
  local function stored()
    local s = la.config().storage
    return collectgarbage("count") + s.bytes / 1024
  end
  local function limited()          -- under a memory limit (or strict overcommit)?
    local f = io.popen("ulimit -v; ulimit -d; cat /proc/sys/vm/overcommit_memory 2>/dev/null")
    local s = f:read("*a")
    f:close()
    return not s:find("^unlimited\nunlimited\n") or s:find("\n2\n$") ~= nil
  end

  it("is accounted for by collectgarbage('count') and la.config().storage", function()
    collectgarbage(); collectgarbage()
    local before = stored()
    local big = la.zeros(1000, 1000)      -- 8 MB
    local after = stored()
    assert.is_true(after - before > 7800)
    assert.are.equal(0, big(1, 1))
    local small = la.zeros(50, 50)        -- 20 KB: in the Lua heap
    local kib = collectgarbage("count")
    small = la.zeros(50, 50)
    assert.is_true(collectgarbage("count") - kib > 19)
    -- (LuaJIT's own allocator keeps them in its heap: 128 KiB there too)
    assert.are.equal((limited() or jit) and 131072 or 65536, la.config().storage.min)
  end)

  -- results of 64 to 128 KiB dropped a few at a time by the collector:
  -- in the Lua heap glibc trimmed its free top, and every result paid its
  -- pages again (20 page faults a call at 100 x 100)
  it("keeps results of 64 to 128 KiB out of the Lua heap", function()
    if limited() or jit then pending("under a memory limit or LuaJIT: 128 KiB") return end
    local A = la.randn(100, 100, 1)
    collectgarbage(); collectgarbage()          -- no garbage for the pace's steps to free
    local s0 = la.config().storage.bytes
    local C = A + 1                             -- 80 KB
    assert.is_true(la.config().storage.bytes - s0 >= 80000)
    local F = la.ones(128, 128, {dtype = "float32"})   -- 64 KiB
    assert.is_true(la.config().storage.bytes - s0 >= 80000 + 65536)
    assert.are.equal(A(7, 9) + 1, C(7, 9))
    assert.are.equal(128 * 128, la.sum(F))
  end)

  -- (a block given back by an earlier spec file may serve a request up to
  -- 1/8 smaller: it counts at its own size, so the bounds allow 1/8 more)
  it("is accounted for at 4 bytes an element in float32", function()
    collectgarbage(); collectgarbage()
    local before = stored()
    local big = la.zeros(1000, 1000, {dtype = "float32"})      -- 4 MB: 3906.25 KiB
    local kib = stored() - before
    assert.is_true(kib > 3900 and kib < 3950 * 9 / 8, kib .. " KiB")
    local copy = big:astype("float64")                           -- 8 MB more
    local kib64 = stored() - before - kib
    assert.is_true(kib64 > 7800 and kib64 < 7850 * 9 / 8, kib64 .. " KiB")
    local v = big:sub(1, 1000, 1, 500)                           -- a view: a header only
    local kibv = stored() - before - kib - kib64
    assert.is_true(kibv < 16, kibv .. " KiB")     -- (a copy: 1953 KiB)
    big, copy, v = nil, nil, nil
    collectgarbage(); collectgarbage()
    assert.is_true(stored() - before < 50)       -- all of it given back
  end)

  it("reuses storage given back for the next matrix of its size", function()
    -- (a process under a memory limit keeps no storage for reuse)
    local f = io.popen("ulimit -v; ulimit -d")
    local limits = f:read("*a")
    f:close()
    if limits ~= "unlimited\nunlimited\n" then pending("under a memory limit: " .. limits) return end
    collectgarbage(); collectgarbage()
    local A = la.zeros(500, 400)                -- 1.6 MB
    A = nil
    collectgarbage(); collectgarbage()
    local s = la.config().storage
    assert.is_true(s.cached >= 1600000, s.cached)
    local B = la.ones(500, 400)                 -- takes the cached block
    local t = la.config().storage
    assert.is_true(t.cached <= s.cached - 1600000, t.cached)
    assert.are.equal(200000, la.sum(B))
    local C = la.zeros(500, 400)                -- a fresh block comes zeroed
    assert.are.equal(0, la.sum(la.abs(C)))
  end)
end)

describe("float32 results of functions written for float64", function()
  local F32 = {dtype = "float32"}
  local X = la.matrix({{1, 0}, {0, 2}, {1, 1}}, F32)
  it("come back float32 also inside a table result (span_check's info, linear_regression's model)", function()
    local inside, info = la.span_check(X, la.vector({1, 2, 2}, F32))
    assert.is_true(inside)
    for _, k in ipairs{"coeffs", "residual", "projection"} do assert.are.equal("float32", info[k].dtype, k) end
    assert.near({1, 1}, info.coeffs, 1e-6)                  -- float32 lstsq: to float32 rounding
    assert.are.equal("number", type(info.residual_norm))
    assert.are.same({true}, info.inside_each)
    local model = la.linear_regression(X, la.vector({1, 5, 3.5}, F32), {intercept = false})
    assert.are.equal("float32", model.coef.dtype)
    assert.near({1, 2.5}, model.coef, 1e-6)                 -- y = X (1, 2.5): an exact fit
    assert.are.equal("float32", model:predict(X).dtype)      -- its methods still work
  end)
  it("keep float64 when an argument is float64, and float32 matrices a function made itself", function()
    local _, info = la.span_check(X, la.vector{1, 2, 2})
    assert.are.equal("float64", info.coeffs.dtype)
    local W = la.eye(2, F32)
    local _, ws = la.multihead_attention(X, W, W, W, W, 2, {weights = true})
    assert.are.equal("float32", ws[1].dtype)
  end)
end)

describe("conversions between the element types", function()
  it("cost nothing for a matrix without elements, however long its other side", function()
    local t = os.clock()
    for _, shape in ipairs{{0, 2 ^ 31 - 1}, {2 ^ 31 - 1, 0}} do
      local Z = la.zeros(shape[1], shape[2], {dtype = "float32"})
      local Z64 = Z:astype("float64")
      assert.are.same(shape, {Z64:shape()})
      assert.are.equal("float32", Z64:astype("float32").dtype)
      assert.are.same(shape, {la.matrix(Z64, {dtype = "float32"}):shape()})
      -- functions written for float64 convert the argument (la_convert) and the results back
      assert.are.equal("float32", la.exp(Z).dtype)
      assert.are.equal("float32", la.abs(Z.T).dtype)
      assert.are.equal("float32", la.vstack{Z:sub(1, 0, 1, 0), Z:sub(1, 0, 1, 0)}.dtype)
      assert.are.equal("float64", la.hstack{Z:sub(1, 0, 1, 0), Z64:sub(1, 0, 1, 0)}.dtype)
    end
    assert.is_true(os.clock() - t < 0.1, string.format("%.2f s CPU", os.clock() - t))
  end)
end)
