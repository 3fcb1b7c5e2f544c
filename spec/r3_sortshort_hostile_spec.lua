-- sort / argsort of many short lines (kernels/sortshort.c, lines of 2..16
-- entries in AVX-512 lanes; 17 and single lines take sort.c's path) as a
-- hostile user: every element built from its bits (frombuffer) and every
-- result compared by its bits (tobytes) against a plain-Lua stable
-- reference (table.sort on positions with the position as tie-break: NaN
-- last ascending and first descending, -0.0 equal to 0.0, ties in input
-- order, the values those of the input bit for bit). Shapes n x N and
-- N x n (n = 2..17, N around the vector widths 8 and 16), both dims,
-- float64 and float32, views of a larger parent (leading dimension past
-- the rows; the parent must come out unchanged), descending, indices =
-- false and argsort; data: distinct values (the vector path that turns keys
-- back into values), lines all equal, small integers with many ties, -0.0
-- and 0.0 mixed, NaN of several payloads and signs (quiet and signalling),
-- +-inf, denormals, the largest finite values, float32 values one unit in
-- the last place apart, distinct values but for one pair of equal ones
-- (a missed tie leaves the network's unstable order).
local la = require "linalg"
local lepack = require "lepack"

local unpack = table.unpack or unpack

-- little-endian bytes of a big-endian hex pattern
local function hexle(h)
  local t = {}
  for k = #h - 1, 1, -2 do t[#t + 1] = tonumber(h:sub(k, k + 1), 16) end
  return string.char(unpack(t))
end

-- bit patterns by class; ESZ bytes an element
local ESZ = {float64 = 8, float32 = 4}
local BITS = {
  float64 = {
    zero = {"0000000000000000", "8000000000000000"},
    nan = {"7FF8000000000000", "FFF8000000000000", "7FF8000000000001", "7FF0000000000001",
           "FFFFFFFFFFFFFFFF", "7FFFFFFFFFFFFFFF", "FFF0000000000001"},
    -- distinct and ordered, no -0.0 or NaN: -inf, -max, -1-ulp, -1, -max
    -- denormal, -min denormal, +0, min denormal, max denormal, min normal,
    -- 1-ulp, 1, 1+ulp, 1+2ulp, max, inf, and a few between
    spread = {"FFF0000000000000", "FFEFFFFFFFFFFFFF", "BFF0000000000001", "BFF0000000000000",
              "800FFFFFFFFFFFFF", "8000000000000001", "0000000000000000", "0000000000000001",
              "0000000000000002", "000FFFFFFFFFFFFF", "0010000000000000", "3FEFFFFFFFFFFFFF",
              "3FF0000000000000", "3FF0000000000001", "3FF0000000000002", "7FEFFFFFFFFFFFFE",
              "7FEFFFFFFFFFFFFF", "7FF0000000000000", "C000000000000000", "4000000000000000"},
  },
  float32 = {
    zero = {"00000000", "80000000"},
    nan = {"7FC00000", "FFC00000", "7FC00001", "7FA00000", "FFFFFFFF", "7FFFFFFF", "FF800001"},
    spread = {"FF800000", "FF7FFFFF", "BF800001", "BF800000", "807FFFFF", "80000001",
              "00000000", "00000001", "00000002", "007FFFFF", "00800000", "3F7FFFFF",
              "3F800000", "3F800001", "3F800002", "7F7FFFFE", "7F7FFFFF", "7F800000",
              "C0000000", "40000000"},
  },
}
local POOL = {}
for dt, classes in pairs(BITS) do
  POOL[dt] = {}
  for name, list in pairs(classes) do
    POOL[dt][name] = {}
    for i, h in ipairs(list) do POOL[dt][name][i] = hexle(h) end
  end
end

local seed = 20261126
local function rnd(k)            -- 1..k
  seed = (seed * 1103515245 + 12345) % 2147483648
  return math.floor(seed / 65536) % k + 1
end

local function packnum(dt, x) return lepack.pack(dt == "float32" and "<f" or "<d", x) end

-- bytes of one element of kind `kind` in a line (state: per-line data)
local KINDS = {"distinct", "equal", "ties", "zeros", "nans", "mixed", "spread", "ulp", "onetie"}
local element
function element(dt, kind, line)
  local P = POOL[dt]
  if kind == "distinct" then          -- distinct almost surely: the vector path
    return packnum(dt, (rnd(65536) - 32768) / 8 + rnd(1024) * 8192)
  elseif kind == "equal" then         -- the line's one value
    line.v = line.v or packnum(dt, rnd(5) - 3)
    return line.v
  elseif kind == "ties" then return packnum(dt, rnd(3) - 2)
  elseif kind == "zeros" then return P.zero[rnd(2)]
  elseif kind == "nans" then
    local r = rnd(10)
    if r <= 4 then return P.nan[rnd(#P.nan)] end
    if r <= 6 then return P.zero[rnd(2)] end
    return P.spread[rnd(#P.spread)]
  elseif kind == "mixed" then
    local r = rnd(4)
    if r == 1 then return P.nan[rnd(#P.nan)] end
    if r == 2 then return P.zero[rnd(2)] end
    return P.spread[rnd(#P.spread)]
  elseif kind == "onetie" then        -- distinct extremes but for one pair of equal entries
    line.seen = line.seen or {}
    local b
    if not line.dup and #line.seen > 0 and rnd(3) == 1 then
      b, line.dup = line.seen[rnd(#line.seen)], true
    else
      b = element(dt, "spread", line)
    end
    line.seen[#line.seen + 1] = b
    return b
  elseif kind == "spread" then        -- a permutation of distinct extremes: no ties, no -0.0
    if not line.perm then
      local p = {}
      for i = 1, #P.spread do p[i] = i end
      for i = #p, 2, -1 do local j = rnd(i); p[i], p[j] = p[j], p[i] end
      line.perm, line.k = p, 0
    end
    line.k = line.k % #line.perm + 1
    return P.spread[line.perm[line.k]]
  else                                -- ulp: neighbours of +-1 and of 2^-20 (distinct mostly)
    local b = ({"3FF00000000000", "BFF00000000000", "3EB00000000000"})[rnd(3)]
    if dt == "float32" then b = ({"3F8000", "BF8000", "358000"})[rnd(3)] end
    return hexle(b .. string.format("%02X", rnd(16) - 1))
  end
end

local refsort = require "sortref"   -- spec/sortref.lua

local function eb(bytes, es, k) return bytes:sub((k - 1) * es + 1, k * es) end
local function hex(b)
  local t = {}
  for k = #b, 1, -1 do t[#t + 1] = string.format("%02X", b:byte(k)) end
  return table.concat(t)
end

-- an m x n view (rows 3.., cols 2.. of an (m+5) x (n+3) parent) of kind
-- `kind` along lines of dim: returns the view, its parent, the parent's bytes
local views = 0
local function makeview(m, n, dt, kind, dim)
  local es, pm, pn = ESZ[dt], m + 5, n + 3
  local junknan = views % 2 == 0
  views = views + 1
  local cells, lines = {}, {}
  for j = 1, pn do
    for i = 1, pm do
      local inside = i >= 3 and i < 3 + m and j >= 2 and j < 2 + n
      local b
      if inside then
        local key = dim == 1 and j or i
        lines[key] = lines[key] or {}
        b = element(dt, kind, lines[key])
      elseif junknan then
        b = POOL[dt].nan[rnd(#POOL[dt].nan)]     -- junk around the view: NaN (the scalar finish)
      else
        b = element(dt, "distinct", {})          -- or distinct values (the vector path)
      end
      cells[#cells + 1] = b
    end
  end
  local bytes = table.concat(cells)
  assert(#bytes == pm * pn * es)
  local P = la.frombuffer(bytes, pm, pn, {dtype = dt == "float32" and "<f4" or "<f8", order = "F"})
  return P:sub(3, m + 2, 2, n + 1), P, bytes
end

local ncases, nlines = 0, 0

local function fail(what, ...) error(string.format(what, ...), 2) end

-- sort, sort without indices and argsort of A along dim, bit for bit
local function check(A, P, pbytes, dim, down, tag)
  local m, n = A:shape()
  local dt, es = A.dtype, ESZ[A.dtype]
  local opts = {descending = down}
  local S, I = la.sort(A, dim, opts)
  local V = la.sort(A, dim, {descending = down, indices = false})
  local J = la.argsort(A, dim, opts)
  assert.are.equal(dt, S.dtype)
  assert.are.equal(dt, V.dtype)
  assert.are.equal("float64", I.dtype)
  assert.are.equal("float64", J.dtype)
  assert.are.same({m, n}, {S:shape()})
  assert.are.same({m, n}, {J:shape()})
  local ab, sb, vb = la.tobytes(A), la.tobytes(S), la.tobytes(V)
  if la.tobytes(P) ~= pbytes then fail("%s: the parent of the input view changed", tag) end
  local nl, len = dim == 1 and n or m, dim == 1 and m or n
  for k = 1, nl do
    local t = {}
    for x = 1, len do t[x] = dim == 1 and A(x, k) or A(k, x) end
    local p = refsort(t, down)
    for x = 1, len do
      local i, j = dim == 1 and x or k, dim == 1 and k or x
      local o = (j - 1) * m + i                      -- column-major index of (i, j)
      local si, sj = dim == 1 and p[x] or k, dim == 1 and k or p[x]
      local want = eb(ab, es, (sj - 1) * m + si)
      if I(i, j) ~= p[x] or J(i, j) ~= p[x] then
        fail("%s line %d entry %d: position %s (argsort %s), expected %d",
             tag, k, x, tostring(I(i, j)), tostring(J(i, j)), p[x])
      end
      if eb(sb, es, o) ~= want or eb(vb, es, o) ~= want then
        fail("%s line %d entry %d: bits %s (values alone %s), expected %s",
             tag, k, x, hex(eb(sb, es, o)), hex(eb(vb, es, o)), hex(want))
      end
    end
    nlines = nlines + 1
  end
  ncases = ncases + 1
end

local NS = {}
for n = 2, 17 do NS[#NS + 1] = n end
-- line counts around one and two vectors of doubles (8) and one of floats
-- (16); the rest are tagged heavy (memcheck took 160 s over the whole list)
local COUNTS = {1, 8, 9, 16, 17}
local COUNTS_HEAVY = {2, 7, 15, 33}

-- n x N and N x n views of every length n, sorted along both dims; returns
-- how many cases ran
local function manylines(dt, counts)
  local before, kk = ncases, 0
  for _, n in ipairs(NS) do
    for _, N in ipairs(counts) do
      for _, shape in ipairs({{n, N}, {N, n}}) do
        for dim = 1, 2 do
          for _, kind in ipairs(KINDS) do
            kk = kk + 1
            local down = kk % 2 == 0
            local A, P, pb = makeview(shape[1], shape[2], dt, kind, dim)
            check(A, P, pb, dim, down, string.format("%s %dx%d dim %d %s%s", dt,
                  shape[1], shape[2], dim, kind, down and " descending" or ""))
          end
        end
      end
    end
  end
  return ncases - before
end

describe("sort of many short lines (kernels/sortshort.c), bit for bit", function()
  for _, dt in ipairs({"float64", "float32"}) do
    it(dt .. ": n x N and N x n, both dims, every kind of data, both directions", function()
      manylines(dt, COUNTS)
    end)

    it(dt .. ": the same for more line counts #heavy", function()
      local before = ncases
      local ran = manylines(dt, COUNTS_HEAVY)
      ncases = before                                     -- "ran every case" counts the others
      assert.are.equal(#NS * #COUNTS_HEAVY * 2 * 2 * #KINDS, ran)
    end)

    it(dt .. ": 1000 short lines (rows and columns) of every length #heavy", function()
      local before = ncases
      for _, n in ipairs(NS) do
        for _, kind in ipairs({"mixed", "distinct", "onetie"}) do
          for _, down in ipairs({false, true}) do
            local A, P, pb = makeview(n, 1000, dt, kind, 1)
            check(A, P, pb, 1, down, string.format("%s %dx1000 dim 1 %s", dt, n, kind))
            A, P, pb = makeview(1000, n, dt, kind, 2)
            check(A, P, pb, 2, down, string.format("%s 1000x%d dim 2 %s", dt, n, kind))
          end
        end
      end
      local ran = ncases - before
      ncases = before                                     -- "ran every case" counts the others
      assert.are.equal(#NS * 3 * 2 * 2, ran)              -- lengths x kinds x directions x dims
    end)
  end

  it("rows and columns views of a parent (one line, or lines of one)", function()
    for _, dt in ipairs({"float64", "float32"}) do
      for _, n in ipairs({2, 8, 9, 16, 17}) do
        local _, P, pb = makeview(n, n, dt, "mixed", 1)
        for _, down in ipairs({false, true}) do
          check(P:row(4), P, pb, 2, down, dt .. " row view")
          check(P:row(4), P, pb, 1, down, dt .. " row view dim 1")
          check(P:col(3), P, pb, 1, down, dt .. " column view")
          check(P:col(3), P, pb, 2, down, dt .. " column view dim 2")
        end
      end
    end
  end)

  it("keeps -0.0 and 0.0 apart in the values and in input order, 1/x", function()
    local NEG0 = -1 / math.huge
    for _, dt in ipairs({"float64", "float32"}) do
      -- 9 lines (columns) of 4: a lane past one vector of doubles
      local A = la.zeros(4, 9, {dtype = dt})
      for j = 1, 9 do
        A:set(1, j, 0.0); A:set(2, j, NEG0); A:set(3, j, j % 2 == 0 and -1 or 1); A:set(4, j, NEG0)
      end
      local S, I = la.sort(A, 1)
      local D, J = la.sort(A, 1, {descending = true})
      for j = 1, 9 do
        if j % 2 == 0 then      -- -1, 0.0, -0.0, -0.0 ascending; 0.0, -0.0, -0.0, -1 descending
          assert.are.same({3, 1, 2, 4}, {I(1, j), I(2, j), I(3, j), I(4, j)})
          assert.are.same({1, 2, 4, 3}, {J(1, j), J(2, j), J(3, j), J(4, j)})
          assert.are.equal(-1, S(1, j))
          assert.are.same({math.huge, -math.huge, -math.huge}, {1 / S(2, j), 1 / S(3, j), 1 / S(4, j)})
          assert.are.same({math.huge, -math.huge, -math.huge}, {1 / D(1, j), 1 / D(2, j), 1 / D(3, j)})
        else                    -- 0.0, -0.0, -0.0, 1 ascending; 1, 0.0, -0.0, -0.0 descending
          assert.are.same({1, 2, 4, 3}, {I(1, j), I(2, j), I(3, j), I(4, j)})
          assert.are.same({3, 1, 2, 4}, {J(1, j), J(2, j), J(3, j), J(4, j)})
          assert.are.same({math.huge, -math.huge, -math.huge}, {1 / S(1, j), 1 / S(2, j), 1 / S(3, j)})
          assert.are.same({math.huge, -math.huge, -math.huge}, {1 / D(2, j), 1 / D(3, j), 1 / D(4, j)})
        end
      end
      -- a lone -0.0 (no tie in its line): the key alone would give +0.0
      local B = la.zeros(2, 20, {dtype = dt})
      for j = 1, 20 do B:set(1, j, j); B:set(2, j, j == 13 and NEG0 or -j) end
      local T = la.sort(B, 1, {indices = false})
      assert.are.equal(-math.huge, 1 / T(1, 13))
      assert.are.equal(13, T(2, 13))
      T = la.sort(B:t(), 2, {indices = false})
      assert.are.equal(-math.huge, 1 / T(13, 1))
    end
  end)

  it("ran every case", function()
    -- 2 dtypes x 16 lengths x 5 counts x 2 shapes x 2 dims x 9 kinds, 2 x 5 x 2 x 4 views
    -- (the tests tagged heavy check their own count)
    assert.are.equal(2 * #NS * #COUNTS * 2 * 2 * #KINDS + 2 * 5 * 2 * 4, ncases)
    assert.is_true(nlines > 10000)
  end)
end)
