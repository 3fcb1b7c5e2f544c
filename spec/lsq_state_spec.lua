-- la.lsq_state: the mergeable least-squares state, and la.lstsq's tall path
-- (which is that state: add, then solve).
local la = require "linalg"
local lepack = require "lepack"          -- string.pack on every Lua

-- ||a - b|| / ||b|| (Frobenius), 0 when both are zero
local function rel(a, b)
  local nb = la.norm(b)
  local d = la.norm(a - b)
  if nb == 0 then return d end
  return d / nb
end

-- the rows first..last of A as a new matrix (0 rows when last < first)
local function rows(A, first, last)
  if last < first then return la.zeros(0, A:cols()) end
  return A:sub(first, last, 1, A:cols()):copy()
end

-- a random split of m rows into p blocks (some may be empty): block ends
local function split(m, p)
  local cuts = {}
  for i = 1, p - 1 do cuts[i] = math.random(0, m) end
  table.sort(cuts)
  cuts[p] = m
  return cuts
end

-- states for the blocks of a split
local function shards(A, b, cuts)
  local out, first = {}, 1
  for i, last in ipairs(cuts) do
    local s = la.lsq_state(A:cols(), b:cols())
    s:add(rows(A, first, last), rows(b, first, last))
    out[i] = s
    first = last + 1
  end
  return out
end

-- merges a list of states in a random tree shape and order
local function merge_random(states)
  local pool = {}
  for i, s in ipairs(states) do pool[i] = s end
  while #pool > 1 do
    local i = math.random(#pool)
    local s = table.remove(pool, i)
    local j = math.random(#pool)
    -- either side may absorb the other; both are left in the pool as one
    if math.random() < 0.5 then pool[j]:merge(s) else s:merge(pool[j]); pool[j] = s end
  end
  return pool[1]
end

-- x, residuals, rank and sv of a state's solve against lstsq's, 1e-12 relative
local function agree(s, A, b, opts)
  local x, res, rank, sv = s:solve(opts)
  local x0, res0, rank0, sv0 = la.lstsq(A, b, opts)
  assert.equal(rank0, rank)
  assert.is_true(rel(x, x0) <= 1e-12, "x differs by " .. rel(x, x0))
  assert.equal(res0 == nil, res == nil)
  if res0 then assert.is_true(rel(res, res0) <= 1e-12, "residuals differ by " .. rel(res, res0)) end
  assert.equal(sv0 == nil, sv == nil)
  if sv0 then assert.is_true(rel(sv, sv0) <= 1e-12, "sv differ by " .. rel(sv, sv0)) end
end

-- FNV-1a 64 of a string (the state's checksum), as 8 little-endian bytes
local function fnv(str) return lepack.fnv64(str) end

-- replaces bytes at 0-based offset off of a state's body and fixes the checksum
local function forge(bytes, off, repl)
  local body = bytes:sub(1, -9)
  body = body:sub(1, off) .. repl .. body:sub(off + #repl + 1)
  return body .. fnv(body)
end

describe("linalg.lsq_state", function()
  before_each(function() math.randomseed(1234) end)

  it("merged shards give lstsq's x, residuals, rank and sv for any split and tree", function()
    local A, b = la.randn(300, 7, 1), la.randn(300, 1, 2)
    for trial = 1, 12 do
      local s = merge_random(shards(A, b, split(300, 1 + trial % 6)))
      assert.equal(300, s.rows)
      for _, method in ipairs{"svd", "qr", "qrp"} do agree(s, A, b, {method = method}) end
    end
  end)

  it("agrees for k > 1 right-hand sides, including a shard of zero rows", function()
    local A, B = la.randn(120, 5, 3), la.randn(120, 3, 4)
    local s = merge_random(shards(A, B, {40, 40, 90, 120}))  -- block 2 has no rows
    assert.equal(120, s.rows)
    for _, method in ipairs{"svd", "qr", "qrp"} do agree(s, A, B, {method = method}) end
  end)

  it("adding rows one call at a time equals adding them at once", function()
    local A, b = la.randn(50, 4, 5), la.randn(50, 1, 6)
    local s = la.lsq_state(4)
    for i = 1, 50 do s:add(rows(A, i, i), rows(b, i, i)) end
    agree(s, A, b)
  end)

  it("solves rank-deficient data with svd and qrp (minimum norm), rejects it with qr", function()
    local X = la.randn(200, 3, 7)
    local A = la.hstack{X, X:col(1) + X:col(2), X:col(3) * 2}       -- rank 3 of 5
    local b = la.randn(200, 2, 8)
    local s = merge_random(shards(A, b, split(200, 5)))
    local x, res, rank, sv = s:solve()
    assert.equal(3, rank)
    assert.is_nil(res)
    assert.equal(5, sv:rows())
    assert.is_true(sv(4, 1) < 1e-12 * sv(1, 1))
    agree(s, A, b, {method = "svd"})
    agree(s, A, b, {method = "qrp"})
    -- the minimum-norm solution is orthogonal to the null space
    assert.is_true(math.abs(la.dot(x:col(1), la.vector{1, 1, 0, -1, 0})) < 1e-10)
    assert.error_matches(function() s:solve{method = "qr"} end,
      "linalg.lsq_state.solve: A is rank deficient")
  end)

  it("agrees with lstsq when there are fewer rows than unknowns", function()
    local A, b = la.randn(3, 6, 9), la.randn(3, 1, 10)
    local s = la.lsq_state(6):add(rows(A, 1, 1), rows(b, 1, 1)):merge(
      la.lsq_state(6):add(rows(A, 2, 3), rows(b, 2, 3)))
    for _, method in ipairs{"svd", "qr", "qrp"} do agree(s, A, b, {method = method}) end
  end)

  it("applies ridge once, in solve, whatever the number of shards", function()
    local A, b, lambda = la.randn(100, 4, 11), la.randn(100, 1, 12), 3.5
    local s = merge_random(shards(A, b, split(100, 6)))
    local x, res = s:solve{ridge = lambda}
    -- the normal equations of ridge: (A^T A + lambda I) x = A^T b
    local x0 = la.solve(A.T * A + lambda * la.eye(4), A.T * b)
    assert.is_true(rel(x, x0) <= 1e-12)
    local r = A * x - b
    assert.near(la.dot(r, r), res(1, 1), 1e-12)    -- residual of the data, not the augmented system
    agree(s, A, b, {ridge = lambda})
    agree(s, A, b, {ridge = lambda, method = "qr"})
  end)

  it("an empty state solves to zeros, and merging it changes nothing", function()
    local s = la.lsq_state(3, 2)
    assert.equal(0, s.rows)
    local x, res, rank, sv = s:solve()
    assert.same({{0, 0}, {0, 0}, {0, 0}}, x:totable())
    assert.is_nil(res)
    assert.equal(0, rank)
    assert.same({0, 1}, {sv:shape()})
    local A, B = la.randn(20, 3, 13), la.randn(20, 2, 14)
    local t = la.lsq_state(3, 2):add(A, B)
    local before = t:tobytes()
    t:merge(la.lsq_state(3, 2))
    assert.equal(before, t:tobytes())
    t:add(la.zeros(0, 3), la.zeros(0, 2))
    assert.equal(before, t:tobytes())
    agree(la.lsq_state(3, 2):merge(t), A, B)
  end)

  it("n = 0: residuals are the squared norms of b", function()
    local b = la.matrix{{1, 2}, {3, 4}}
    local x, res, rank = la.lsq_state(0, 2):add(la.zeros(2, 0), b):solve()
    assert.same({0, 2}, {x:shape()})
    assert.same({{10, 20}}, res:totable())
    assert.equal(0, rank)
  end)

  it("round trips through bytes bit-exactly", function()
    local A, B = la.randn(60, 4, 15), la.randn(60, 2, 16)
    local s = la.lsq_state(4, 2):add(A, B)
    local bytes = s:tobytes()
    assert.equal("LSQS", bytes:sub(1, 4))
    assert.equal(1, lepack.unpack("<I4", bytes, 5))
    local n, k, m = lepack.unpack("<I4I4I8", bytes, 9)
    assert.same({4, 2, 60}, {n, k, m})
    assert.equal(24 + 8 * (10 + 8 + 2) + 8, #bytes)
    local t = la.lsq_state(bytes)
    assert.equal(60, t.rows)
    assert.equal(bytes, t:tobytes())
    local x1, r1 = s:solve()
    local x2, r2 = t:solve()
    assert.same(x1:totable(), x2:totable())
    assert.same(r1:totable(), r2:totable())
    local e = la.lsq_state(la.lsq_state(5, 0):tobytes())
    assert.equal(0, e.rows)
    assert.equal(tostring(e), "lsq_state (n = 5, k = 0, rows = 0)")
  end)

  it("rejects truncated, corrupted, wrong-version and hostile bytes cleanly", function()
    local bytes = la.lsq_state(3):add(la.randn(10, 3, 17), la.randn(10, 1, 18)):tobytes()
    for len = 0, #bytes - 1 do
      assert.error_matches(function() la.lsq_state(bytes:sub(1, len)) end, "linalg.lsq_state: bad bytes")
    end
    assert.error_matches(function() la.lsq_state(bytes .. "\0") end, "length does not match")
    assert.error_matches(function() la.lsq_state(bytes:sub(1, -9)) end, "length does not match")
    for i = 1, #bytes do             -- any one flipped bit
      local c = bytes:sub(1, i - 1) .. string.char(lepack.bxor(bytes:byte(i), 4)) .. bytes:sub(i + 1)
      assert.error_matches(function() la.lsq_state(c) end, "linalg.lsq_state: bad bytes")
    end
    local p = 24 + 8 * 6 + 8 * 3           -- the offset of rss
    assert.error_matches(function() la.lsq_state(forge(bytes, 4, lepack.pack("<I4", 2))) end,
      "unsupported version")
    assert.error_matches(function() la.lsq_state(forge(bytes, 0, "LSQT")) end, "bad magic")
    assert.error_matches(function() la.lsq_state(forge(bytes, 8, lepack.pack("<I4", 0xffffffff))) end,
      "n or k out of range")
    assert.error_matches(function() la.lsq_state(forge(bytes, 8, lepack.pack("<I4", 0x7fffffff))) end,
      "length does not match")
    assert.error_matches(function() la.lsq_state(forge(bytes, 12, lepack.pack("<I4", 2))) end,
      "length does not match")
    assert.error_matches(function() la.lsq_state(forge(bytes, 16, lepack.pack("<i8", -1))) end,
      "row count out of range")
    assert.error_matches(function() la.lsq_state(forge(bytes, 16, lepack.pack("<i8", 0))) end,
      "no rows holds nonzero data")
    assert.error_matches(function() la.lsq_state(forge(bytes, 24, lepack.pack("<d", 0 / 0))) end,
      "NaN or Inf")
    assert.error_matches(function() la.lsq_state(forge(bytes, 24 + 8, lepack.pack("<d", math.huge))) end,
      "NaN or Inf")
    assert.error_matches(function() la.lsq_state(forge(bytes, p, lepack.pack("<d", -1))) end,
      "negative or NaN residual")
    -- a forged, valid state is accepted
    local ok = forge(bytes, p, lepack.pack("<d", 5))
    assert.near(5 + 0, la.lsq_state(ok):tobytes() == ok and 5 or 0)
  end)

  it("counts rows and guards the row count against overflow", function()
    local s = la.lsq_state(1):add(la.ones(3, 1), la.ones(3, 1))
    assert.equal(3, s.rows)
    -- 2^63 - 1 rows (a number near it where Lua has no 64-bit integers)
    local maxint = math.maxinteger or 2 ^ 63
    local big = la.lsq_state(forge(s:tobytes(), 16, "\255\255\255\255\255\255\255\127"))
    assert.equal(maxint, big.rows)
    assert.error_matches(function() big:merge(s) end, "linalg.lsq_state.merge: row count overflows")
    assert.error_matches(function() big:add(la.ones(1, 1), la.ones(1, 1)) end,
      "linalg.lsq_state.add: row count overflows")
    assert.equal(maxint, big.rows)
  end)

  it("names every bad argument", function()
    local s = la.lsq_state(2)
    assert.error_matches(function() la.lsq_state(-1) end, "linalg.lsq_state: n must be in 0..2147483647, got -1")
    assert.error_matches(function() la.lsq_state(2, -3) end, "k must be in 0..2147483647, got -3")
    assert.error_matches(function() la.lsq_state(1.5) end, "integer expected, got 1.5")
    assert.error_matches(function() la.lsq_state({}) end, "(integer or string expected, got table)")
    assert.error_matches(function() la.lsq_state() end, "(integer or string expected, got no value)")
    assert.error_matches(function() la.lsq_state(2^31 - 1, 2^31 - 1) end,
      "linalg.lsq_state: a state for n = 2147483647, k = 2147483647 is too large")
    assert.error_matches(function() la.lsq_state(2^21) end, "linalg.lsq_state: not enough memory")
    assert.error_matches(function() s:add(la.ones(3, 3), la.ones(3, 1)) end,
      "linalg.lsq_state.add: A has 3 columns but the state has n = 2")
    assert.error_matches(function() s:add(la.ones(3, 2), la.ones(4, 1)) end, "A has 3 rows but b has 4")
    assert.error_matches(function() s:add(la.ones(3, 2), la.ones(3, 2)) end,
      "b has 2 columns but the state has k = 1")
    assert.error_matches(function() s:add(la.matrix{{0 / 0, 1}}, la.ones(1, 1)) end, "NaN")
    assert.error_matches(function() s:add(la.ones(1, 2), la.matrix{{math.huge}}) end, "Inf")
    assert.equal(0, s.rows)                                  -- failed adds leave s as it was
    assert.error_matches(function() s:add(la.matrix{{1.5e308, 1}, {1.5e308, 1}}, la.ones(2, 1)) end,
      "overflows")
    assert.equal(la.lsq_state(2):tobytes(), s:tobytes())
    assert.error_matches(function() s:merge(la.lsq_state(3)) end,
      "linalg.lsq_state.merge: states differ in shape (n = 2, k = 1 and n = 3, k = 1)")
    assert.error_matches(function() s:merge(la.ones(2, 2)) end, "(lsq_state expected, got linalg.matrix)")
    assert.error_matches(function() s.add(5) end, "(lsq_state expected, got number)")
    assert.error_matches(function() s:solve{method = "lu"} end,
      "linalg.lsq_state.solve: option 'method' must be \"svd\", \"qr\" or \"qrp\", got \"lu\"")
    assert.error_matches(function() s:solve{ridge = -1} end, "ridge must be finite and >= 0")
    assert.error_matches(function() s:solve(5) end, "options table")
    assert.is_nil(s.nonexistent)
  end)
end)

describe("linalg.lstsq's tall path", function()
  it("sizes its workspace by the rows (4 x 1 with 100000 right-hand sides)", function()
    local A, B = la.randn(4, 1, 21), la.randn(4, 100000, 22)
    local x, res = la.lstsq(A, B)
    local a2 = la.dot(A, A)
    local x0 = (A.T * B) / a2                  -- one unknown: x = a^T b / a^T a
    assert.is_true(rel(x, x0) <= 1e-12)
    assert.same({1, 100000}, {res:shape()})
    local r = A * x:sub(1, 1, 1, 1) - B:col(1)
    assert.near(la.dot(r, r), res(1, 1), 1e-10)
  end)

  it("lets NaN in b through to a NaN x with check_finite = false, as on the other paths", function()
    local A, b = la.randn(40, 2, 25), la.randn(40, 1, 26)
    b:set(3, 1, 0 / 0)
    for _, method in ipairs{"svd", "qr", "qrp"} do
      local x = la.lstsq(A, b, {check_finite = false, method = method})
      assert.is_true(x(1, 1) ~= x(1, 1))
    end
    assert.error_matches(function() la.lstsq(A, b) end, "linalg.lstsq: b(3,1) is NaN")
  end)

  it("names b when b's scale overflows a state; lstsq solves such data scaled", function()
    local b = la.ones(8, 1)
    b:set(1, 1, 1.5e308); b:set(2, 1, 1.5e308)
    -- the same problem at 2^-20 of the scale, scaled back (powers of 2:
    -- exact); the residual sum of squares is beyond the doubles (numpy
    -- 1.24 on such data: residuals [inf])
    local A = la.randn(8, 1, 27)
    local x, res = la.lstsq(A, b)
    local xs = la.lstsq(A, b * 2 ^ -20) * 2 ^ 20
    assert.near(xs, x, 0)
    assert.are.equal(math.huge, res(1, 1))
    assert.error_matches(function() la.lsq_state(1):add(la.ones(8, 1), b) end,
      "linalg.lsq_state.add: b's scale overflows")
  end)

  it("is the state: lstsq on tall data equals add then solve bit for bit", function()
    local A, b = la.randn(400, 9, 23), la.randn(400, 2, 24)
    for _, opts in ipairs{{}, {method = "qr"}, {method = "qrp"}, {ridge = 2}} do
      local x0, r0 = la.lstsq(A, b, opts)
      local x, r = la.lsq_state(9, 2):add(A, b):solve(opts)
      assert.same(x0:totable(), x:totable())
      assert.same(r0:totable(), r:totable())
    end
  end)
end)

describe("linalg.lsq_state and float32", function()
  it("accumulates float32 rows in float64; lstsq's float32 tall path agrees within cond eps32", function()
    local A = la.randn(800, 12, 61):astype("float32")
    local b = la.randn(800, 2, 62):astype("float32")
    local s = la.lsq_state(12, 2):add(A:sub(1, 300, 1, 12), b:sub(1, 300, 1, 2))
    s:merge(la.lsq_state(12, 2):add(A:sub(301, 800, 1, 12), b:sub(301, 800, 1, 2)))
    local x, res, rank, sv = s:solve()
    assert.equal("float64", x.dtype)                   -- the state is float64
    assert.equal("float64", res.dtype)
    local x64 = la.lstsq(A:astype("float64"), b:astype("float64"))
    assert.is_true(rel(x, x64) <= 1e-12)                -- the float32 numbers, solved in float64
    local x32, res32, rank32, sv32 = la.lstsq(A, b)     -- 800 x 12: float32 TSQR
    assert.equal("float32", x32.dtype)
    assert.equal("float32", sv32.dtype)
    local tol = 20 * la.cond(A:astype("float64")) * 2 ^ -23
    assert.is_true(rel(x32:astype("float64"), x) <= tol)
    assert.is_true(rel(res32:astype("float64"), res) <= tol)
    assert.is_true(rel(sv32:astype("float64"), sv) <= tol)
    assert.equal(rank, rank32)
  end)
end)

describe("linalg.lsq_state options", function()
  it("rejects unknown keys, naming the closest", function()
    assert.error_matches(function() la.lsq_state(2):solve{methd = "qr"} end, "linalg.lsq_state.solve:")
    assert.error_matches(function() la.lsq_state(2):solve{methd = "qr"} end, "method")
    assert.error_matches(function() la.lsq_state(2):solve{rcond = 0 / 0} end, "rcond is NaN")
  end)

  it("lstsq's tall path takes k = 0 right-hand sides", function()
    local A = la.randn(40, 3, 31)
    for _, method in ipairs{"svd", "qr", "qrp"} do
      local x, res, rank, sv = la.lstsq(A, la.zeros(40, 0), {method = method})
      assert.same({3, 0}, {x:shape()})
      assert.same({1, 0}, {res:shape()})
      assert.equal(3, rank)
      if method == "svd" then assert.near(select(4, la.lstsq(A, la.ones(40, 1))), sv, 1e-12) end
    end
  end)
end)

describe("lsq_state fields", function()
  local la = require "linalg"
  it("are read only: setting one is linalg's error naming the state (Lua's named neither)", function()
    local s = la.lsq_state(2)
    local ok, err = pcall(function() s.rows = 5 end)
    assert.is_false(ok)
    assert.matches("linalg.lsq_state: an lsq_state takes no fields (s.rows = ...)", err, 1, true)
    assert.are.equal(0, s.rows)
    ok, err = pcall(function() s[true] = 1 end)
    assert.is_false(ok)
    assert.matches("linalg.lsq_state: an lsq_state takes no fields (s[true] = ...)", err, 1, true)
  end)
end)
