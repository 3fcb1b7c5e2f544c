-- Copies and shape functions (flip, roll, repmat/tile, hstack/vstack,
-- copies and reshapes of views): exact results for both element types, at
-- shapes that exercise the vector loops' edges (lengths that are not a
-- multiple of a vector's 2, 4, 8 or 16 lanes), views whose leading
-- dimension is odd, empty and 1 x n / n x 1 shapes. The expected entries
-- come from each function's definition on a matrix of distinct integers
-- (A(i, j) = i + 1000 j), and a few from NumPy 1.24 (noted).
local la = require "linalg"

local DTYPES = {"float64", "float32"}

-- an m x n matrix of the given type with A(i, j) = i + 1000 j
local function ints(m, n, dtype)
  local A = la.zeros(m, n, {dtype = dtype})
  for j = 1, n do
    for i = 1, m do A:set(i, j, i + 1000 * j) end
  end
  return A
end

-- B is m x n of dtype and B(i, j) == f(i, j) everywhere
local function check(B, m, n, dtype, f, what)
  local r, c = B:shape()
  assert.are.equal(m, r, what .. ": rows")
  assert.are.equal(n, c, what .. ": columns")
  assert.are.equal(dtype, B.dtype, what .. ": dtype")
  for j = 1, n do
    for i = 1, m do
      local want, got = f(i, j), B:get(i, j)
      if got ~= want then
        error(string.format("%s: (%d, %d) is %s, expected %s", what, i, j, tostring(got), tostring(want)))
      end
    end
  end
end

-- the parent's entry at (i, j) of a view starting at (i0, j0)
local function at(i0, j0) return function(i, j) return (i0 + i - 1) + 1000 * (j0 + j - 1) end end

-- shapes: empty, single lines, lengths past 2, 4, 8, 16 lanes and not a multiple
local SHAPES = {{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 9}, {9, 1}, {2, 2}, {5, 3}, {17, 5},
  {33, 4}, {7, 31}, {64, 3}, {67, 6}}

-- a view of a (m + 3) x (n + 2) parent at (2, 2): leading dimension m + 3
-- (odd when m is even), so its columns are not contiguous
local function view(m, n, dtype)
  local P = ints(m + 3, n + 2, dtype)
  return P:sub(2, m + 1, 2, n + 1), P
end

describe("linalg.flip (vectorized column reversal and column order)", function()
  for _, dt in ipairs(DTYPES) do
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      it(string.format("reverses %dx%d %s along each dim, of matrices and of views", m, n, dt), function()
        local A = ints(m, n, dt)
        check(la.flip(A, 1), m, n, dt, function(i, j) return (m + 1 - i) + 1000 * j end, "flip 1")
        check(la.flipud(A), m, n, dt, function(i, j) return (m + 1 - i) + 1000 * j end, "flipud")
        check(la.flip(A, 2), m, n, dt, function(i, j) return i + 1000 * (n + 1 - j) end, "flip 2")
        check(la.fliplr(A), m, n, dt, function(i, j) return i + 1000 * (n + 1 - j) end, "fliplr")
        local V = view(m, n, dt)
        check(la.flip(V, 1), m, n, dt, function(i, j) return (m + 2 - i) + 1000 * (j + 1) end, "flip view 1")
        check(la.flip(V, 2), m, n, dt, function(i, j) return (i + 1) + 1000 * (n + 2 - j) end, "flip view 2")
      end)
    end
  end

  it("matches NumPy 1.24's flip", function()
    local A = la.reshape(la.arange(12), 3, 4)
    -- numpy 1.24: np.flip(np.arange(12.0).reshape(3, 4, order='F'), 0).flatten(order='F')
    assert.are.same({2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9}, la.totable(la.vec(la.flip(A, 1))))
    -- numpy 1.24: np.flip(..., 1).flatten(order='F')
    assert.are.same({9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1, 2}, la.totable(la.vec(la.flip(A, 2))))
  end)

  it("moves bits exactly: -0, NaN payloads, infinities and subnormals", function()
    local bytes = "\0\0\0\0\0\0\0\128" .. "\1\0\0\0\0\0\248\127" .. "\0\0\0\0\0\0\240\255" ..
      "\1\0\0\0\0\0\0\0" .. "\255\255\255\255\255\255\239\127"
    local v = la.frombuffer(bytes, 5, 1, {dtype = "<f8", order = "F"})
    local rev = {}
    for k = 5, 1, -1 do rev[#rev + 1] = bytes:sub(8 * k - 7, 8 * k) end
    assert.are.equal(table.concat(rev), la.tobytes(la.flip(v, 1)))
    assert.are.equal(bytes, la.tobytes(la.flip(la.flip(v, 1), 1)))
    assert.are.equal(bytes, la.tobytes(la.copy(v)))
  end)
end)

describe("linalg.roll (each column's two pieces in one pass)", function()
  for _, dt in ipairs(DTYPES) do
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      it(string.format("rotates %dx%d %s down and across, of matrices and views", m, n, dt), function()
        local A, V = ints(m, n, dt), view(m, n, dt)
        for _, k in ipairs{0, 1, 3, -2, 17, -40} do
          local sm = m > 0 and k % m or 0
          local sn = n > 0 and k % n or 0
          check(la.roll(A, k, 1), m, n, dt, function(i, j) return (i - 1 - sm) % m + 1 + 1000 * j end,
            "roll " .. k .. " 1")
          check(la.roll(A, k, 2), m, n, dt, function(i, j) return i + 1000 * ((j - 1 - sn) % n + 1) end,
            "roll " .. k .. " 2")
          check(la.roll(V, k, 1), m, n, dt, function(i, j) return (i - 1 - sm) % m + 2 + 1000 * (j + 1) end,
            "roll view " .. k .. " 1")
        end
      end)
    end
  end

  -- columns of 1 KiB and more shifted by 1 to 33 entries (their pieces land where the two
  -- blocks put them modulo 4096); and tile(x, 1, 3) of a column of m entries, whose second
  -- and third thirds are copies of the first m and 2m entries on: 4 to 28 bytes past their
  -- source modulo 4096 for these m, where kernels/copy.c moves 64 bytes at a time instead
  -- of glibc's memcpy (slow there on AMD's rep movsb)
  for _, dt in ipairs(DTYPES) do
    it("rotates long columns by small shifts and tiles runs just past a page, exactly, " .. dt, function()
      for _, m in ipairs{1027, 2100} do
        local A = ints(m, 2, dt)
        for _, k in ipairs{1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, -1, -3} do
          check(la.roll(A, k, 1), m, 2, dt, function(i, j) return (i - 1 - k) % m + 1 + 1000 * j end,
            "roll " .. k .. " of " .. m)
        end
      end
      for _, m in ipairs(dt == "float32" and {1025, 1027, 1031} or {513, 514, 515}) do
        check(la.tile(ints(m, 1, dt), 1, 3), m, 3, dt, function(i) return i + 1000 end, "tile of " .. m)
      end
    end)
  end

  it("matches NumPy 1.24's roll", function()
    local A = la.reshape(la.arange(12), 3, 4)
    -- numpy 1.24: np.roll(np.arange(12.0).reshape(3, 4, order='F'), -4, axis=0).flatten(order='F')
    assert.are.same({1, 2, 0, 4, 5, 3, 7, 8, 6, 10, 11, 9}, la.totable(la.vec(la.roll(A, -4, 1))))
    -- numpy 1.24: np.roll(..., 5, axis=1).flatten(order='F')
    assert.are.same({9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8}, la.totable(la.vec(la.roll(A, 5, 2))))
  end)
end)

describe("copies of views (column loops, not memcpy)", function()
  for _, dt in ipairs(DTYPES) do
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      it(string.format("copy, reshape, astype and vec of a %dx%d %s view", m, n, dt), function()
        local V = view(m, n, dt)
        check(V:copy(), m, n, dt, at(2, 2), "copy")
        if m * n > 0 then
          -- reshape: the entries in column-major order
          local R = V:reshape(n, m)
          check(R, n, m, dt, function(i, j)
            local k = (j - 1) * n + (i - 1)
            return at(2, 2)(k % m + 1, (k - k % m) / m + 1)
          end, "reshape")
        end
        check(la.vec(V), m * n, 1, dt, function(k)
          return at(2, 2)((k - 1) % m + 1, (k - 1 - (k - 1) % m) / m + 1)
        end, "vec")
        check(V:astype(dt), m, n, dt, at(2, 2), "astype")
        -- a write to the copy does not reach the parent
        if m * n > 0 then
          local C = V:copy()
          C:set(1, 1, -1)
          assert.are.equal(at(2, 2)(1, 1), V:get(1, 1))
        end
      end)
    end
  end
end)

describe("linalg.hstack / linalg.vstack / linalg.repmat / linalg.tile", function()
  for _, dt in ipairs(DTYPES) do
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      it(string.format("stacks and tiles %dx%d %s matrices and views", m, n, dt), function()
        local A, V = ints(m, n, dt), view(m, n, dt)
        check(la.hstack{A, V}, m, 2 * n, dt, function(i, j)
          if j <= n then return i + 1000 * j end
          return at(2, 2)(i, j - n)
        end, "hstack")
        check(la.vstack{V, A}, 2 * m, n, dt, function(i, j)
          if i <= m then return at(2, 2)(i, j) end
          return (i - m) + 1000 * j
        end, "vstack")
        for _, r in ipairs{{1, 1}, {2, 3}, {3, 1}, {0, 2}} do
          local rm, rn = r[1], r[2]
          local want = function(i, j) return at(2, 2)((i - 1) % m + 1, (j - 1) % n + 1) end
          check(la.repmat(V, rm, rn), m * rm, n * rn, dt, want, "repmat " .. rm .. " " .. rn)
          check(la.tile(V, rm, rn), m * rm, n * rn, dt, want, "tile " .. rm .. " " .. rn)
        end
      end)
    end
  end

  it("matches NumPy 1.24's tile", function()
    local A = la.reshape(la.arange(12), 3, 4)
    -- numpy 1.24: np.tile(np.arange(12.0).reshape(3, 4, order='F')[:2, :3], (2, 3)).flatten(order='F')
    assert.are.same({0, 1, 0, 1, 3, 4, 3, 4, 6, 7, 6, 7, 0, 1, 0, 1, 3, 4, 3, 4, 6, 7, 6, 7, 0, 1, 0, 1,
      3, 4, 3, 4, 6, 7, 6, 7}, la.totable(la.vec(la.repmat(A:sub(1, 2, 1, 3), 2, 3))))
  end)

  it("gives large results (past the huge-page size) exactly", function()
    local A = la.reshape(la.arange(1000 * 700), 1000, 700)     -- 5.6 MB: huge pages asked for
    local R = la.repmat(A, 2, 1)
    assert.are.equal(0, R:get(1, 1))
    assert.are.equal(999 + 1000 * 699, R:get(2000, 700))
    assert.are.equal(A:get(437, 311), R:get(1437, 311))
    local F = la.flip(A, 1)
    assert.are.equal(999, F:get(1, 1))
    assert.are.equal(1000 * 699, F:get(1000, 700))
  end)

  -- kernels/copy.c: past 4 MiB, columns of 640 to 2560 bytes take the
  -- vector loop and the others memcpy; both, with views and reversed
  -- column order, against A(i, j) = i + 1000 j at every entry (the
  -- expected matrix from the row and column indices by broadcasting)
  local function expect(rows, cols)
    return la.vector(rows) + 1000 * la.vector(cols):t()
  end
  local function same(B, E, what)
    assert.are.same({E:shape()}, {B:shape()}, what .. ": shape")
    assert.are.equal(0, la.count_nonzero(la.ne(B, E)), what)
  end
  local function seq(a, b, step)
    local t = {}
    for i = a, b, step or 1 do t[#t + 1] = i end
    return t
  end
  for _, c in ipairs{{100, 5300, "float64"}, {50, 10600, "float64"}, {400, 1400, "float64"},
                     {200, 5300, "float32"}, {1000, 1100, "float32"}} do
    local m, n, dt = c[1], c[2], c[3]
    it(string.format("copies %dx%d %s views, stacks, flips and rolls past 4 MiB exactly", m, n, dt), function()
      local A = la.astype(expect(seq(1, m + 3), seq(1, n + 2)), dt)
      local V = A:sub(2, m + 1, 2, n + 1)
      local rows, cols = seq(2, m + 1), seq(2, n + 1)
      same(V:copy(), expect(rows, cols), "copy of a view")
      local twice = seq(2, m + 1)
      for i = 2, m + 1 do twice[#twice + 1] = i end
      same(la.vstack{V, V}, expect(twice, cols), "vstack")
      same(la.flip(V, 2), expect(rows, seq(n + 1, 2, -1)), "flip(V, 2)")
      local rolled = {}
      for i = 1, m do rolled[i] = (i - 8) % m + 2 end
      same(la.roll(V, 7, 1), expect(rolled, cols), "roll(V, 7, 1)")
      assert.are.equal(dt, V:copy().dtype)
    end)
  end
end)

-- Large results ask for transparent huge pages (helpers.c's la_hugepages,
-- madvise): with 4 KiB pages a 48 MB repmat took 12 000 page faults, 3/4
-- of its time. Checked through the kernel's count of this process's huge
-- pages, where the kernel gives them on request.
describe("storage of large matrices", function()
  local function read(path)               -- nil when the file is not there
    local f = io.open(path, "r")
    local s = f and f:read("*a")
    if f then f:close() end
    return s
  end
  local function hugekb()
    local s = read("/proc/self/smaps_rollup")
    return s and tonumber(s:match("AnonHugePages:%s*(%d+) kB"))
  end
  local mode = read("/sys/kernel/mm/transparent_hugepage/enabled")
  local usable = mode and not mode:find("%[never%]") and hugekb() ~= nil

  it("is in transparent huge pages where the kernel has them on request", function()
    if not usable then pending("no transparent huge pages here") return end
    -- 24 MB, written whole by zeros; its block may come from the storage
    -- cache (already in huge pages), so the count is read while it lives
    -- rather than compared with the one before (0 kB without the request)
    local Z = la.zeros(3001, 1003)
    local after = hugekb()
    assert.are.equal(3001, (Z:shape()))
    assert.is_true(after >= 4096, string.format("huge pages %d kB with a 24 MB matrix alive", after))
  end)
end)

-- arange and linspace's vector loop (kernels/fill.c) rounds as the scalar
-- expression does: value i is start + i * delta, delta = (start + step) -
-- start (NumPy's), computed here by Lua in doubles, so equal bit for bit
describe("linalg.arange / linalg.linspace (vectorized progressions)", function()
  local cases = {{0, 1, 1}, {0, 7, 1}, {0.1, 100, 0.7}, {-3.3, 7.1, 0.013}, {1e6, -1e6, -3700.37},
    {5, 5, 1}, {0.5, 17.5, 1}}
  for _, c in ipairs(cases) do
    it(string.format("arange(%g, %g, %g) in both types", c[1], c[2], c[3]), function()
      local start, stop, step = c[1], c[2], c[3]
      local n = math.max(0, math.ceil((stop - start) / step))
      local delta = (start + step) - start
      local want = {}
      for i = 0, n - 1 do want[i + 1] = start + i * delta end
      local x = la.arange(start, stop, step)
      check(x, n, 1, "float64", function(i) return want[i] end, "arange")
      if n > 0 then
        local w32 = la.vector(want, {dtype = "float32"})     -- each value rounded once
        check(la.arange(start, stop, step, {dtype = "float32"}), n, 1, "float32",
          function(i) return w32:get(i, 1) end, "arange float32")
      end
    end)
  end

  it("linspace's values are i * step + a, the last one b", function()
    for _, c in ipairs{{-1.7, 2.3, 1001}, {0, 1, 2}, {3, -5, 37}, {1e-3, 1e3, 10}} do
      local a, b, n = c[1], c[2], c[3]
      local step = (b - a) / (n - 1)
      check(la.linspace(a, b, n), n, 1, "float64", function(i)
        if i == n then return b end
        return (i - 1) * step + a
      end, "linspace")
    end
  end)

  -- float32: computed in float64 and rounded once (NumPy's linspace and
  -- logspace with dtype=float32 cast their float64 values), in the vector
  -- loops as float64's, so equal to float64's result rounded
  it("linspace and logspace in float32 are float64's values rounded", function()
    local F = {dtype = "float32"}
    for _, c in ipairs{{-1.7, 2.3, 1001}, {0, 1, 2}, {3, -5, 37}, {1e-3, 1e3, 10}, {0, 2, 17},
                       {5, 5, 9}, {0, 1e-320, 5}, {1, 0 / 0, 4}, {0, 1, 1}, {2, 3, 0}} do
      local a, b, n = c[1], c[2], c[3]
      for _, f in ipairs{la.linspace, la.logspace} do
        local x, w = f(a, b, n, F), f(a, b, n):astype("float32")
        assert.are.equal("float32", x.dtype)
        assert.are.same({n, 1}, {x:shape()})
        for i = 1, n do
          local u, v = x(i, 1), w(i, 1)
          assert.is_true(u == v or (u ~= u and v ~= v), string.format("%g %g %d: %d %s %s", a, b, n, i, u, v))
        end
      end
    end
    -- numpy 1.24: np.logspace(0, 2, 5, dtype=np.float32).tolist()
    assert.are.same({1.0, 3.1622776985168457, 10.0, 31.62277603149414, 100.0},
                    la.logspace(0, 2, 5, F):totable())
  end)

  it("matches NumPy 1.24's arange at a few entries", function()
    local x = la.arange(-3.3, 7.1, 0.013)
    -- numpy 1.24: x = np.arange(-3.3, 7.1, 0.013); len(x), repr(x[-1])
    assert.are.equal(800, (x:shape()))
    assert.are.equal(7.086999999999921, x:get(800, 1))
  end)
end)

describe("A:slice and A:set with index lists, masks and steps (gather and scatter kernels)", function()
  -- rows and columns as the selections give them, 1-based
  local function pick(sel, len)
    if type(sel) == "table" then return sel end
    local t = {}
    if sel == ":" then for k = 1, len do t[k] = k end
    else
      local a, s, b = sel:match("^(%-?%d+):(%-?%d+):(%-?%d+)$")
      for k = tonumber(a), tonumber(b), tonumber(s) do t[#t + 1] = k end
    end
    return t
  end
  local SELS = {{{3, 1, 3, 2}, ":"}, {":", {2, 2, 1}}, {"5:-2:1", "1:2:3"}, {{4}, "3:-1:1"},
    {{1, 2, 3, 4, 5}, {3}}, {"1:2:5", ":"}}
  for _, dt in ipairs{"float64", "float32", "bool"} do
    for _, src in ipairs{"matrix", "view"} do
      it(string.format("slice gathers %s entries of a %s", dt, src), function()
        local A = src == "matrix" and ints(5, 3, "float64") or view(5, 3, "float64")
        local base = src == "matrix" and function(i, j) return i + 1000 * j end or at(2, 2)
        if dt == "bool" then A = la.gt(la.ediv(A, 2) - la.floor(la.ediv(A, 2)), 0) end
        if dt == "float32" then A = A:astype("float32") end
        local val = function(i, j)
          local x = base(i, j)
          if dt == "bool" then return x % 2 == 1 end
          return x
        end
        if dt == "bool" and src == "view" then return end     -- a bool A is a fresh matrix here
        for _, s in ipairs(SELS) do
          local r, c = pick(s[1], 5), pick(s[2], 3)
          check(A:slice(s[1], s[2]), #r, #c, dt, function(i, j) return val(r[i], c[j]) end,
            "slice " .. tostring(s[1]) .. ", " .. tostring(s[2]))
        end
      end)
    end
    it(string.format("set scatters %s values, broadcasting, the last repeated index winning", dt), function()
      local one = dt == "bool" and true or 7
      local A = la.zeros(5, 3, {dtype = dt})
      A:set({4, 2, 4}, {3, 1}, one)
      check(A, 5, 3, dt, function(i, j)
        local hit = (i == 4 or i == 2) and (j == 3 or j == 1)
        if dt == "bool" then return hit end
        return hit and 7 or 0
      end, "set number")
      if dt == "bool" then return end
      local B = la.zeros(5, 3, {dtype = dt})
      B:set({2, 5, 2}, "1:2:3", la.matrix({{1, 2}, {3, 4}, {5, 6}}, {dtype = dt}))
      check(B, 5, 3, dt, function(i, j)
        if i == 2 and j == 1 then return 5 elseif i == 2 and j == 3 then return 6
        elseif i == 5 and j == 1 then return 3 elseif i == 5 and j == 3 then return 4 end
        return 0
      end, "set matrix, repeated row 2: the last wins (NumPy's rule)")
      local C = la.zeros(4, 3, {dtype = dt})
      C:set("1:3", {3, 1}, la.vector({8, 9, 10}, {dtype = dt}))        -- a column broadcast
      check(C, 4, 3, dt, function(i, j) return (i <= 3 and j ~= 2) and 7 + i or 0 end, "set column")
      local V = la.zeros(6, 5, {dtype = dt})
      local W = V:sub(2, 5, 2, 4)
      W:set("4:-2:2", ":", la.matrix({{1, 2, 3}}, {dtype = dt}))       -- a row broadcast, into a view
      check(V, 6, 5, dt, function(i, j)
        if (i == 5 or i == 3) and j >= 2 and j <= 4 then return j - 1 end
        return 0
      end, "set row into a view")
    end)
  end
  it("set converts a value of another type entry by entry", function()
    local A = la.zeros(3, 2)
    A:set({3, 1}, ":", la.matrix({{0.1, 2}, {3, 4}}, {dtype = "float32"}))
    assert.are.equal(la.matrix({{0.1}}, {dtype = "float32"}):get(1, 1), A:get(3, 1))
    assert.are.equal(4, A:get(1, 2))
    local F = la.zeros(2, 2, {dtype = "float32"})
    F:set({2}, {2, 1}, la.matrix{{1 / 3, 5}})
    assert.are.equal(la.matrix({{1 / 3}}, {dtype = "float32"}):get(1, 1), F:get(2, 2))
  end)
  it("matches NumPy 1.24's fancy indexing", function()
    local A = la.reshape(la.arange(12), 3, 4)
    -- numpy 1.24: a = np.arange(12.0).reshape(3, 4, order='F'); a[[2, 0, 2]][:, [3, 1]].flatten(order='F')
    assert.are.same({11, 9, 11, 5, 3, 5}, la.totable(la.vec(A:slice({3, 1, 3}, {4, 2}))))
    -- numpy 1.24: a[[1, 1], :] = [[1, 2, 3, 4], [5, 6, 7, 8]]; a.flatten(order='F')
    A:set({2, 2}, ":", la.matrix{{1, 2, 3, 4}, {5, 6, 7, 8}})
    assert.are.same({0, 5, 2, 3, 6, 5, 6, 7, 8, 9, 8, 11}, la.totable(la.vec(A)))
  end)
end)

describe("linalg.kron (one pass a column of the product)", function()
  for _, dt in ipairs(DTYPES) do
    it("is A(i, j) * B(r, s) at (i mb + r, j nb + s), " .. dt .. ", of views and odd shapes", function()
      for _, s in ipairs{{1, 1, 1, 1}, {3, 2, 17, 5}, {5, 4, 1, 9}, {2, 7, 33, 3}} do
        local ma, na, mb, nb = s[1], s[2], s[3], s[4]
        local A, B = view(ma, na, dt), ints(mb, nb, dt) * 0.5
        local C = la.kron(A, B)
        check(C, ma * mb, na * nb, dt, function(I, J)
          local i, r = math.floor((I - 1) / mb) + 1, (I - 1) % mb + 1
          local j, c = math.floor((J - 1) / nb) + 1, (J - 1) % nb + 1
          return la.matrix({{A:get(i, j) * B:get(r, c)}}, {dtype = dt}):get(1, 1)   -- rounded to dt
        end, "kron")
      end
    end)
  end
  it("matches NumPy 1.24's kron", function()
    -- numpy 1.24: np.kron([[1, 2], [3, 4]], [[0, 5], [6, 7]]).flatten(order='F')
    local C = la.kron(la.matrix{{1, 2}, {3, 4}}, la.matrix{{0, 5}, {6, 7}})
    assert.are.same({0, 6, 0, 18, 5, 7, 15, 21, 0, 12, 0, 24, 10, 14, 20, 28}, la.totable(la.vec(C)))
  end)
end)

describe("linalg.totable (rows filled eight at a time, down the columns)", function()
  it("has A(i, j) at [i][j] for 0..19 rows and 0..3 columns, views, every type", function()
    for _, dt in ipairs{"float64", "float32", "bool"} do
      for m = 0, 19 do
        for n = 0, 3 do
          local A, P = view(m, n, dt == "bool" and "float64" or dt)
          if dt == "bool" then   -- a view of a bool matrix, true from the middle row and column on
            local cut = 1000 * (2 + math.floor(n / 2)) + math.floor(m / 2) + 1
            A = la.gt(P, cut):sub(2, m + 1, 2, n + 1)
          end
          local t = A:totable()
          assert.are.equal(m, #t)
          for i = 1, m do
            local row = n == 1 and {t[i]} or t[i]
            assert.are.equal(n, #row)
            for j = 1, n do
              local want = A:get(i, j)
              if dt == "bool" then want = want ~= 0 and want ~= false end
              if row[j] ~= want then
                error(string.format("%s %dx%d: [%d][%d] is %s, A(i, j) %s", dt, m, n, i, j,
                  tostring(row[j]), tostring(want)))
              end
            end
          end
        end
      end
    end
  end)
end)
