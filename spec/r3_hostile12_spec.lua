-- Hostile checks, bit for bit, of:
--  * sort / argsort of lines around every length where kernels/sort.c
--    changes method (the AVX-512 networks' merged blocks to 800 / 3000 /
--    6000 entries; the LSD radix sort's 11-bit digits from 2000 entries,
--    to 500000 but for float32 keys alone; 8-bit digits past it), both types,
--    ascending and descending, values alone and with indices, along both
--    dims, on views (leading dimension past the rows), with heavy ties,
--    NaN of several payloads (signaling, negative) made from bytes, -0.0
--    mixed with 0.0, denormals, +-Inf, values that differ only in their
--    lowest mantissa bits (every radix digit matters) and keys whose high
--    digits are all equal (radix passes skipped, so the result is left in
--    either buffer). On a host with AVX-512 the networks take float32
--    values alone to 3000 entries and float64 values alone to 6000, so the
--    11-bit digits of those are reached from 3001 / 6001 there (from 2000
--    elsewhere; spec/kernels/sort.c caps the level to run those too). The
--    contract (README, A:sort): stable, NaN last (first
--    when descending), -0.0 == 0.0, each entry's own bits kept, 1-based
--    source positions, float64 indices;
--  * values alone (indices = false) against the values with indices, for
--    many lines of 38..130 entries (reduce.c sortshort declines values alone
--    past 40 float64 / 80 float32 entries);
--  * A:totable() of every shape to 20 x 4, views, bool / float32 / float64,
--    and wide matrices (rows filled eight at a time);
--  * A:prod(2) of 1 x n matrices (the sequential product in column order,
--    in double, rounded once for float32) against a view of the row and the
--    rows of m x n matrices.
local la = require "linalg"
local refsort = require "sortref"   -- spec/sortref.lua: table.sort, stable

local NAN, INF = 0 / 0, math.huge
local POS0 = tonumber("0.0")
local NEG0 = -1 / math.huge          -- at run time: Lua 5.1 / LuaJIT fold a -0.0 literal
local floor = math.floor

local seed = 20261126
local function rnd(k)                -- 1..k, k <= 32768
  seed = (seed * 1103515245 + 12345) % 2147483648
  return floor(seed / 65536) % k + 1
end
local function rndbig(k)             -- 1..k, k <= 2^30
  return ((rnd(32768) - 1) * 32768 + rnd(32768) - 1) % k + 1
end

local function isnan(x) return x ~= x end
local function show(x)
  if isnan(x) then return "nan" end
  if x == 0 and 1 / x < 0 then return "-0.0" end
  return string.format("%.17g", x)
end
local function hex(b)
  local t = {}
  for k = #b, 1, -1 do t[#t + 1] = string.format("%02X", b:byte(k)) end
  return table.concat(t)
end

local WIDTH = {float64 = 8, float32 = 4}
local DESCR = {float64 = "<f8", float32 = "<f4"}
local ULP = {float64 = 2 ^ -52, float32 = 2 ^ -23}
local TINY = {float64 = 2 ^ -1074, float32 = 2 ^ -149}        -- the least denormal
local MINNORM = {float64 = 2 ^ -1022, float32 = 2 ^ -126}
-- NaN of several payloads, little-endian bytes: quiet, negative with a
-- payload, signaling, all ones, negative signaling
local NANS = {
  float64 = {
    string.char(0, 0, 0, 0, 0, 0, 248, 127),      -- 7FF8000000000000
    string.char(1, 0, 0, 0, 0, 0, 248, 255),      -- FFF8000000000001
    string.char(1, 0, 0, 0, 0, 0, 240, 127),      -- 7FF0000000000001 (signaling)
    string.char(255, 255, 255, 255, 255, 255, 255, 127),
    string.char(0, 0, 0, 0, 0, 0, 244, 255),      -- FFF4000000000000 (signaling)
  },
  float32 = {
    string.char(0, 0, 192, 127),                  -- 7FC00000
    string.char(1, 0, 192, 255),                  -- FFC00001
    string.char(1, 0, 128, 127),                  -- 7F800001 (signaling)
    string.char(255, 255, 255, 127),
    string.char(0, 0, 160, 255),                  -- FFA00000 (signaling)
  },
}

-- Entry makers: each returns a number or a string of bytes (a NaN payload)
local KINDS = {}

-- everything at once: ties, zeros of both signs, NaN payloads, +-Inf,
-- denormals, values one or two ulps apart, wide magnitudes
KINDS.mix = function(dt)
  local r = rnd(100)
  if r <= 25 then return rnd(5) - 3
  elseif r <= 33 then return rnd(2) == 1 and POS0 or NEG0
  elseif r <= 38 then return NANS[dt][rnd(#NANS[dt])]
  elseif r <= 42 then return rnd(2) == 1 and INF or -INF
  elseif r <= 52 then
    local s = rnd(2) == 1 and 1 or -1
    local q = rnd(4)
    if q == 4 then return s * (MINNORM[dt] - TINY[dt]) end     -- the largest denormal
    return s * q * TINY[dt]
  elseif r <= 67 then
    return (rnd(2) == 1 and 1 or -1) * (1 + (rnd(4) - 1) * ULP[dt])
  else
    local m = dt == "float64" and rndbig(2 ^ 30) * 2 ^ 22 + rndbig(2 ^ 22) or rndbig(2 ^ 23)
    return (rnd(2) == 1 and 1 or -1) * (1 + (m - 1) * ULP[dt]) * 2 ^ (rnd(121) - 61)
  end
end

-- every radix digit with a few values (heavy ties): the mantissa's 11-bit
-- groups 0..2 each, from 0 to 2, the exponent's low bits (float64's digit
-- 4, float32's digit 2) and the sign
KINDS.digits = function(dt)
  local m
  if dt == "float64" then
    m = (rnd(3) - 1) + (rnd(3) - 1) * 2 ^ 11 + (rnd(3) - 1) * 2 ^ 22 + (rnd(3) - 1) * 2 ^ 33
        + (rnd(3) - 1) * 2 ^ 44
  else
    m = (rnd(3) - 1) + (rnd(3) - 1) * 2 ^ 11 + (rnd(2) - 1) * 2 ^ 22
  end
  local e = ({0, 1, 8, -8})[rnd(4)]
  return (rnd(4) == 1 and -1 or 1) * (1 + m * ULP[dt]) * 2 ^ e
end

-- only the lowest digit differs (one radix pass: the result in the scratch)
KINDS.lowbits = function(dt) return 1.5 + (rnd(2048) - 1) * ULP[dt] end

-- only the lowest two digits differ, positive, the high ones all equal
KINDS.twolow = function(dt)
  return 1 + ((rnd(3) - 1) + (rnd(2048) - 1) * 2 ^ 11) * ULP[dt]
end

-- one value everywhere, some zeros of both signs among -x and x
KINDS.same = function(dt)
  local r = rnd(10)
  if r == 1 then return POS0 elseif r == 2 then return NEG0 end
  return 3.25
end

-- zeros of both signs and NaN payloads only (the values' rewrite in input order)
KINDS.zeronan = function(dt)
  local r = rnd(3)
  if r == 1 then return NANS[dt][rnd(#NANS[dt])] end
  return rnd(2) == 1 and POS0 or NEG0
end

-- the bytes of a line of n entries of a kind, as a table of strings
local function makeline(kind, dt, n)
  local e, nums, at = {}, {}, {}
  for x = 1, n do
    local v = KINDS[kind](dt)
    if type(v) == "string" then e[x] = v else nums[#nums + 1] = v; at[#nums] = x end
  end
  if #nums > 0 then
    local V = la.vector(nums)
    if dt == "float32" then V = V:astype("float32") end
    local b, w = V:tobytes(), WIDTH[dt]
    for k = 1, #nums do e[at[k]] = b:sub((k - 1) * w + 1, k * w) end
  end
  return e
end

-- a matrix whose lines along dim are the given byte lines, as a view with
-- a leading dimension past its rows (padding of -1e300, which would sort
-- first if read); pad = false: a plain matrix
local function linesmatrix(lines, dim, dt, pad)
  local nl, len = #lines, #lines[1]
  local m, n = dim == 1 and len or nl, dim == 1 and nl or len
  local top, left, bottom, right = 0, 0, 0, 0
  if pad then top, left, bottom, right = 2, 1, 3, 1 end
  local filler = la.vector({-1e300}):astype(dt):tobytes()
  local M, N = m + top + bottom, n + left + right
  local t = {}
  for j = 1, N do
    for i = 1, M do
      local ii, jj = i - top, j - left
      if ii >= 1 and ii <= m and jj >= 1 and jj <= n then
        if dim == 1 then t[#t + 1] = lines[jj][ii] else t[#t + 1] = lines[ii][jj] end
      else
        t[#t + 1] = filler
      end
    end
  end
  local P = la.frombuffer(table.concat(t), M, N, {dtype = DESCR[dt], order = "F"})
  if not pad then return P end
  return P:sub(top + 1, top + m, left + 1, left + n)
end

local function linebytes(M, dim, k)
  return (dim == 1 and M:col(k) or M:row(k)):tobytes()
end

-- line k along dim as a flat list (totable: one read per line, where the
-- long vectors' entries one call each were most of this file's time)
local function linetable(M, dim, k)
  return (dim == 1 and M:col(k) or M:row(k):t()):totable()
end

-- x strictly before y in the order (NaN last; first when descending)
local function before(x, y, down)
  if down then
    if isnan(y) then return false elseif isnan(x) then return true end
    return x > y
  end
  if isnan(x) then return false elseif isnan(y) then return true end
  return x < y
end

-- A's lines along dim (byte lines `lines`) sorted: S, I, argsort's J and
-- the values alone V checked; useref: against sortref too (else the O(n)
-- check: a permutation, ordered, equal keys in rising positions, which is
-- the stable sort's result and nothing else)
local function checksort(A, dim, down, lines, what, useref)
  local dt = A.dtype
  local opts = {descending = down}
  local S, I = la.sort(A, dim, opts)
  local J = la.argsort(A, dim, opts)
  local V = la.sort(A, dim, {descending = down, indices = false})
  local am, an = A:shape()
  local ctx = string.format("%s %s %dx%d dim %d %s", what, dt, am, an, dim,
                            down and "descending" or "ascending")
  assert.are.equal(dt, S.dtype, ctx)
  assert.are.equal(dt, V.dtype, ctx)
  assert.are.equal("float64", I.dtype, ctx)
  assert.are.same({A:shape()}, {S:shape()}, ctx)
  assert.are.same({A:shape()}, {I:shape()}, ctx)
  for k = 1, #lines do
    local e = lines[k]
    local n = #e
    local t, p = linetable(A, dim, k), linetable(I, dim, k)
    local lctx = ctx .. " line " .. k
    -- positions: a permutation of 1..n, in order, ties in rising positions
    local seen = {}
    for x = 1, n do
      local q = p[x]
      if type(q) ~= "number" or q ~= floor(q) or q < 1 or q > n or seen[q] then
        error(string.format("%s: index %d is %s (not a fresh position)", lctx, x, tostring(q)))
      end
      seen[q] = true
    end
    for x = 1, n - 1 do
      local a, b = t[p[x]], t[p[x + 1]]
      if before(b, a, down) or (not before(a, b, down) and p[x] > p[x + 1]) then
        error(string.format("%s: entries %d, %d out of order: %s from %d then %s from %d",
          lctx, x, x + 1, show(a), p[x], show(b), p[x + 1]))
      end
    end
    if useref then
      local want = refsort(t, down)
      for x = 1, n do
        if p[x] ~= want[x] then
          error(string.format("%s: index %d is %d, the reference's %d", lctx, x, p[x], want[x]))
        end
      end
    end
    -- values: each entry's own bits, from the position I names
    local w, got = {}, linebytes(S, dim, k)
    for x = 1, n do w[x] = e[p[x]] end
    local want = table.concat(w)
    if got ~= want then
      local ww = WIDTH[dt]
      for x = 1, n do
        local g = got:sub((x - 1) * ww + 1, x * ww)
        if g ~= w[x] then
          error(string.format("%s: value %d has bits %s, expected %s (entry %d)", lctx, x,
            hex(g), hex(w[x]), p[x]))
        end
      end
      error(lctx .. ": values differ")
    end
    local vals = linebytes(V, dim, k)
    if vals ~= want then
      local ww = WIDTH[dt]
      for x = 1, n do
        local g = vals:sub((x - 1) * ww + 1, x * ww)
        if g ~= w[x] then
          error(string.format("%s: values alone: entry %d has bits %s, expected %s (from %d)",
            lctx, x, hex(g), hex(w[x]), p[x]))
        end
      end
    end
    assert.are.equal(linebytes(I, dim, k), linebytes(J, dim, k), lctx .. ": argsort")
  end
end

local DTYPES = {"float64", "float32"}

describe("sort around kernels/sort.c's thresholds", function()
  local LENS = {1023, 1024, 1025, 1999, 2000, 2001, 2047, 2048, 3000, 3001, 4095, 4096, 6000, 6001}

  it("vectors (column, and a row of a view) of every kind match the reference #heavy", function()
    for _, dt in ipairs(DTYPES) do
      for _, n in ipairs(LENS) do
        for _, kind in ipairs({"mix", "digits", "lowbits", "twolow", "same", "zeronan"}) do
          local e = makeline(kind, dt, n)
          local useref = kind == "mix" or kind == "digits"
          local C = linesmatrix({e}, 1, dt, kind == "mix")
          checksort(C, 1, false, {e}, kind, useref)
          checksort(C, 1, true, {e}, kind, useref)
          local R = linesmatrix({e}, 2, dt, true)                 -- 1 x n, stride past 1
          checksort(R, 2, false, {e}, kind, false)
          checksort(R, 2, true, {e}, kind, false)
        end
      end
    end
  end)

  it("matrix lines along both dims, views, match", function()
    for _, dt in ipairs(DTYPES) do
      for _, n in ipairs(LENS) do
        local lines = {makeline("mix", dt, n), makeline("digits", dt, n), makeline("lowbits", dt, n)}
        local A = linesmatrix(lines, 1, dt, true)
        checksort(A, 1, false, lines, "columns", false)
        checksort(A, 1, true, lines, "columns", false)
        local B = linesmatrix(lines, 2, dt, true)
        checksort(B, 2, false, lines, "rows", false)
        checksort(B, 2, true, lines, "rows", false)
      end
    end
  end)

  it("long vectors: 70000, 500000 (11-bit digits) and 500001 (8-bit) #heavy", function()
    for _, dt in ipairs(DTYPES) do
      local full = {mix = makeline("mix", dt, 500001), digits = makeline("digits", dt, 500001)}
      for _, n in ipairs({70000, 500000, 500001}) do
        for _, kind in ipairs({"mix", "digits"}) do
          local e = full[kind]
          if n < #e then e = {} for x = 1, n do e[x] = full[kind][x] end end   -- a prefix: made once
          local C = linesmatrix({e}, 1, dt, false)
          checksort(C, 1, kind == "mix", {e}, kind, false)
          if kind == "mix" then
            local R = linesmatrix({e}, 2, dt, true)
            checksort(R, 2, false, {e}, kind, false)
          end
        end
      end
    end
  end)

  it("values one ulp apart in every digit position, ascending and descending", function()
    -- a ladder of 2^k ulps over every bit of the mantissa, each value twice,
    -- shuffled: sorted, the ladder back in order, pairs in input order
    for _, dt in ipairs(DTYPES) do
      local mb = dt == "float64" and 52 or 23
      for _, n in ipairs({2000, 3001, 6001, 70000}) do
        local nums = {}
        for x = 1, n do
          local b = (x - 1) % mb
          local v = 1 + 2 ^ b * ULP[dt] * (rnd(3) - 1)
          if x % 7 == 0 then v = -v end
          nums[x] = v
        end
        local V = la.vector(nums)
        if dt == "float32" then V = V:astype("float32") end
        local b, w, e = V:tobytes(), WIDTH[dt], {}
        for x = 1, n do e[x] = b:sub((x - 1) * w + 1, x * w) end
        checksort(V, 1, false, {e}, "ladder", n <= 6001)
        checksort(V, 1, true, {e}, "ladder", false)
      end
    end
  end)
end)

describe("values alone vs values with indices on many lines of 38..130 entries", function()
  it("are the same bits and a stable sort, both dims, views, both types #heavy", function()
    for _, dt in ipairs(DTYPES) do
      local few = dt == "float64" and 8 or 16
      for len = 38, 130 do
        for _, nl in ipairs({few, few + 1}) do
          local kind = len % 2 == 0 and "mix" or "digits"
          local lines = {}
          for k = 1, nl do lines[k] = makeline(kind, dt, len) end
          local A = linesmatrix(lines, 1, dt, true)
          local B = linesmatrix(lines, 2, dt, len % 3 == 0)
          for _, down in ipairs({false, true}) do
            checksort(A, 1, down, lines, "short columns", false)
            checksort(B, 2, down, lines, "short rows", false)
          end
        end
      end
    end
  end)
end)

local function same(x, y)
  if type(x) ~= type(y) then return false end
  if type(x) ~= "number" then return x == y end
  if isnan(x) or isnan(y) then return isnan(x) and isnan(y) end
  return x == y and (x ~= 0 or 1 / x == 1 / y)
end

-- t is A:totable(): rows of entries, or a flat list for one column
local function checktable(A, what)
  local m, n = A:shape()
  local t = A:totable()
  local function count(u) local c = 0 for _ in pairs(u) do c = c + 1 end return c end
  local ctx = string.format("%s %s %dx%d", what, A.dtype, m, n)
  assert.are.equal("table", type(t), ctx)
  assert.are.equal(m, count(t), ctx .. ": rows")
  for i = 1, m do
    if n == 1 then
      if not same(t[i], A:get(i, 1)) then
        error(string.format("%s: [%d] is %s, expected %s", ctx, i, tostring(t[i]), tostring(A:get(i, 1))))
      end
    else
      local r = t[i]
      assert.are.equal("table", type(r), ctx)
      assert.are.equal(n, count(r), ctx .. ": row " .. i)
      for j = 1, n do
        if not same(r[j], A:get(i, j)) then
          error(string.format("%s: [%d][%d] is %s, expected %s", ctx, i, j, tostring(r[j]),
            tostring(A:get(i, j))))
        end
      end
    end
  end
end

describe("A:totable()", function()
  local function fill(m, n, dt)
    local A = la.zeros(m, n, {dtype = dt == "bool" and "float64" or dt})
    for i = 1, m do for j = 1, n do
      local r = rnd(8)
      local v = i * 100 + j + 0.25
      if r == 1 then v = NEG0 elseif r == 2 then v = NAN elseif r == 3 then v = -v end
      A:set(i, j, v)
    end end
    if dt == "bool" then return la.gt(A, 0) end
    return A
  end

  it("every shape to 20 x 4, plain and views, bool, float32, float64", function()
    for _, dt in ipairs({"float64", "float32", "bool"}) do
      for m = 0, 20 do
        for n = 0, 4 do
          local A = fill(m, n, dt)
          assert.are.equal(dt, A.dtype)
          checktable(A, "plain")
          local P = fill(m + 5, n + 2, dt)
          local V = P:sub(3, m + 2, 2, n + 1)
          assert.are.same({m, n}, {V:shape()})
          checktable(V, "view")
          if m > 0 then checktable(P:row(m), "row view") end
        end
      end
    end
  end)

  it("gives a flat list for one column, rows for one row, and empty rows for m x 0", function()
    local c = la.vector({1, 2, 3}):totable()
    assert.are.same({1, 2, 3}, c)
    assert.are.same({{1, 2, 3}}, la.matrix({{1, 2, 3}}):totable())
    assert.are.same({{}, {}}, la.zeros(2, 0):totable())
    assert.are.same({}, la.zeros(0, 3):totable())
  end)

  it("wide and tall matrices (several blocks of eight rows and a remainder)", function()
    for _, dt in ipairs({"float64", "float32", "bool"}) do
      for _, s in ipairs({{9, 5000}, {17, 300}, {23, 7}, {8, 1000}, {1000, 2}, {1000, 1}}) do
        local m, n = s[1], s[2]
        local A = la.zeros(m + 3, n, {dtype = dt == "bool" and "float64" or dt})
        for j = 1, n do for i = 1, m + 3 do
          A:set(i, j, dt == "bool" and rnd(2) - 1 or (i * 8192 + j) * (rnd(2) == 1 and 1 or -1))
        end end
        if dt == "bool" then A = la.gt(A, 0) end
        checktable(A, "wide")
        checktable(A:sub(2, m + 1, 1, n), "wide view")
      end
    end
  end)
end)

describe("A:prod(2) of 1 x n", function()
  local function rowvals(n, special)
    local t = {}
    for j = 1, n do t[j] = 1 + (rnd(2001) - 1001) / 4096 + (rnd(1000) - 1) * 2 ^ -40 end
    if special and n >= 3 then
      local r = rnd(4)
      local j = rnd(n)
      if r == 1 then t[j] = NEG0 elseif r == 2 then t[j] = NAN
      elseif r == 3 then t[j] = -INF else t[j] = POS0 end
    end
    return t
  end

  it("is the sequential product (in double, rounded once for float32), as a view's and as rows'", function()
    for _, dt in ipairs(DTYPES) do
      for _, n in ipairs({1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 1000, 4097}) do
        for _, special in ipairs({false, true}) do
          local m = 3
          local P = la.zeros(m + 2, n, {dtype = dt})
          local rows = {}
          for i = 1, m + 2 do
            rows[i] = rowvals(n, special)
            for j = 1, n do P:set(i, j, rows[i][j]) end
          end
          local full = P:prod(2)
          for i = 1, m + 2 do
            local p = 1
            for j = 1, n do p = p * P(i, j) end            -- the stored entries, as doubles
            if dt == "float32" then p = la.vector({p}):astype("float32")(1) end
            local ctx = string.format("%s 1x%d row %d%s", dt, n, i, special and " (special)" or "")
            local one = la.matrix({rows[i]})
            if dt == "float32" then one = one:astype("float32") end
            local r1, rv = one:prod(2), P:row(i):prod(2)
            assert.are.same({1, 1}, {r1:shape()}, ctx)
            assert.are.equal(dt, r1.dtype, ctx)
            for _, got in ipairs({r1(1, 1), rv(1, 1), full(i, 1), P:sub(i, i, 1, n):prod(2)(1, 1)}) do
              if not same(got, p) then
                error(string.format("%s: prod(2) is %s, the sequential product %s", ctx, show(got), show(p)))
              end
            end
          end
        end
      end
    end
  end)
end)
