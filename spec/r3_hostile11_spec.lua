-- Hostile checks, bit for bit against plain-Lua references, of:
--  * rows' extremes four columns a pass (A:max(2), A:min(2), A:argmax(2),
--    A:argmin(2), la.ptp(A, 2)): the first extreme wins ties, the first NaN
--    of a row wins, max{-0.0, 0.0} = 0.0 and min = -0.0 in any order;
--  * rows' products (A:prod(2)): the sequential product in column order;
--  * sum / mean of a view's entries in place: the bits of its copy's;
--  * tobytes of large strings with the collector stopped, generational,
--    incremental;
--  * sort / argsort of many lines of 17..128 entries (and around the
--    thresholds of 8 / 16 lines): stable, NaN last, -0.0 == 0.0.
-- Shapes around the vector widths (8 doubles, 16 floats), the groups of four
-- columns and the strips of rows; views (leading dimension past the rows),
-- float64 and float32; data with ties, NaN in every column position of a
-- group of four, +-inf, -0.0 / 0.0 mixes.
local la = require "linalg"
local lepack = require "lepack"

local seed = 11261126
local function rnd(k)            -- 1..k
  seed = (seed * 1103515245 + 12345) % 2147483648
  return math.floor(seed / 65536) % k + 1
end

local NAN, INF = 0 / 0, math.huge
-- zeros made at run time: Lua 5.1 and LuaJIT merge the constants 0.0 and -0.0
local POSZ = tonumber("0.0")
local NEGZ = -POSZ
local function isnan(x) return x ~= x end
local function bits(x) return lepack.pack("<d", x) end
local function same(x, y)        -- bit for bit, any NaN equal to any NaN
  if isnan(x) or isnan(y) then return isnan(x) and isnan(y) end
  return bits(x) == bits(y)
end
local function hexs(b)
  local t = {}
  for k = #b, 1, -1 do t[#t + 1] = string.format("%02X", b:byte(k)) end
  return table.concat(t)
end
local function show(x)
  if isnan(x) then return "nan" end
  if x == 0 and 1 / x < 0 then return "-0.0" end
  return string.format("%.17g", x)
end

-- a row's entries of one of several kinds (a kind a row)
local function entry(kind)
  if kind == 1 then return rnd(4) - 2                          -- ties
  elseif kind == 2 then                                        -- -0.0 / 0.0 mixes
    local r = rnd(6)
    if r <= 2 then return POSZ elseif r <= 4 then return NEGZ end
    return r == 5 and -1 or -INF
  elseif kind == 3 then                                        -- +-inf and ties
    local r = rnd(5)
    if r == 1 then return INF elseif r == 2 then return -INF end
    return rnd(3) - 2
  elseif kind == 4 then                                        -- distinct mostly
    return (rnd(65536) - 32768) / 64
  elseif kind == 5 then return rnd(2) == 1 and POSZ or NEGZ     -- zeros only
  else                                                         -- an all-equal value
    return 2.5
  end
end

-- an m x n matrix (dtype dt) as a table of columns; rows get a kind, some rows
-- a NaN at a chosen column (init, first/middle/last of a group of four, tail)
local function makedata(m, n)
  local t = {}
  for j = 1, n do t[j] = {} end
  for i = 1, m do
    local kind = rnd(6)
    for j = 1, n do t[j][i] = entry(kind) end
    local r = rnd(4)
    if r == 1 then                                             -- one NaN somewhere
      local choices = {1, 2, 3, 4, 5, n, math.floor((n + 1) / 2), rnd(n)}
      local j = choices[rnd(#choices)]
      if j >= 1 and j <= n then t[j][i] = NAN end
    elseif r == 2 and n > 1 then                               -- two NaN
      t[rnd(n)][i] = NAN; t[rnd(n)][i] = NAN
    end
  end
  return t
end

-- the matrix (float64 or float32) with data t, and a view of a larger parent
-- holding the same entries
local function build(t, m, n, dt, asview)
  local pm, pn, r0, c0 = m, n, 0, 0
  if asview then pm, pn, r0, c0 = m + 3, n + 2, 2, 1 end
  local cells = {}
  for j = 1, pn do
    for i = 1, pm do
      local x
      if i > r0 and i <= r0 + m and j > c0 and j <= c0 + n then x = t[j - c0][i - r0]
      else x = (i + j) % 3 == 0 and NAN or 1e300 end            -- junk around the view
      cells[#cells + 1] = bits(x)
    end
  end
  local P = la.frombuffer(table.concat(cells), pm, pn, {dtype = "<f8", order = "F"})
  if dt == "float32" then P = P:astype("float32") end
  if asview then return P:sub(r0 + 1, r0 + m, c0 + 1, c0 + n) end
  return P
end

-- reference extremes of row i (values read back from A: float32 rounded)
local function refext(A, i, n, wantmax)
  local best, bi, anyp, anyn = nil, nil, false, false
  for j = 1, n do
    local x = A(i, j)
    if isnan(x) then return NAN, j end
    if best == nil or (wantmax and x > best) or (not wantmax and x < best) then best, bi = x, j end
  end
  if best == 0 then                    -- IEEE maximum / minimum of the zeros
    for j = 1, n do
      local x = A(i, j)
      if x == 0 then if 1 / x > 0 then anyp = true else anyn = true end end
    end
    if wantmax then best = anyp and POSZ or NEGZ else best = anyn and NEGZ or POSZ end
  end
  return best, bi
end

local function f32round(M) return M:astype("float32"):astype("float64") end

local function checkrows(A, m, n, tag)
  local f32 = A.dtype == "float32"
  local mx, mn = A:max(2), A:min(2)
  local ax, an = A:argmax(2), A:argmin(2)
  local pt = la.ptp(A, 2)
  local pr = A:prod(2)
  assert.are.same({m, 1}, {mx:shape()})
  assert.are.same({m, 1}, {ax:shape()})
  assert.are.same({m, 1}, {pr:shape()})
  -- references: products and ptp in double, rounded once to float32 if so
  local refp, reft = {}, {}
  for i = 1, m do
    local p = A(i, 1)
    for j = 2, n do p = p * A(i, j) end
    refp[i] = bits(p)
    local hi = refext(A, i, n, true)
    local lo = refext(A, i, n, false)
    reft[i] = bits(hi - lo)
  end
  local RP = la.frombuffer(table.concat(refp), m, 1, {dtype = "<f8"})
  local RT = la.frombuffer(table.concat(reft), m, 1, {dtype = "<f8"})
  if pr.dtype == "float32" then RP = f32round(RP) end
  if pt.dtype == "float32" then RT = f32round(RT) end
  for i = 1, m do
    local hv, hj = refext(A, i, n, true)
    local lv, lj = refext(A, i, n, false)
    if not same(mx(i, 1), hv) then
      error(string.format("%s: max row %d: got %s want %s", tag, i, show(mx(i, 1)), show(hv)))
    end
    if not same(mn(i, 1), lv) then
      error(string.format("%s: min row %d: got %s want %s", tag, i, show(mn(i, 1)), show(lv)))
    end
    if ax(i, 1) ~= hj then error(string.format("%s: argmax row %d: got %s want %d", tag, i, show(ax(i, 1)), hj)) end
    if an(i, 1) ~= lj then error(string.format("%s: argmin row %d: got %s want %d", tag, i, show(an(i, 1)), lj)) end
    if not same(pt(i, 1), RT(i, 1)) then
      error(string.format("%s: ptp row %d: got %s want %s", tag, i, show(pt(i, 1)), show(RT(i, 1))))
    end
    if not same(pr(i, 1), RP(i, 1)) then
      error(string.format("%s: prod row %d: got %s want %s", tag, i, show(pr(i, 1)), show(RP(i, 1))))
    end
  end
  -- the copy gives the same bits (a view's path against the packed one)
  local C = A:copy()
  assert.are.equal(la.tobytes(C:max(2)), la.tobytes(mx))
  assert.are.equal(la.tobytes(C:min(2)), la.tobytes(mn))
  if la.tobytes(C:prod(2)) ~= la.tobytes(pr) then
    local cp = C:prod(2)
    local cb, pb = la.tobytes(cp), la.tobytes(pr)
    local es = pr.dtype == "float32" and 4 or 8
    for i = 1, m do if cb:sub(i * es - es + 1, i * es) ~= pb:sub(i * es - es + 1, i * es) then
      local row = {}
      for j = 1, n do row[j] = show(A(i, j)) end
      error(string.format("%s: copy prod row %d: %s vs view %s; bytes %s vs %s; row %s", tag, i, show(cp(i, 1)), show(pr(i, 1)),
        hexs(cb:sub(i * es - es + 1, i * es)), hexs(pb:sub(i * es - es + 1, i * es)), table.concat(row, " "))) end end
    for i = 1, m do if not same(cp(i, 1), pr(i, 1)) then
      error(string.format("%s: copy prod row %d: %s vs view %s", tag, i, show(cp(i, 1)), show(pr(i, 1)))) end end
  end
  if f32 then assert.are.equal("float32", A.dtype) end
end

local SIZES = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100, 129, 513, 1000}

describe("rows' extremes and products four columns a pass", function()
  it("match plain-Lua references bit for bit (float64 / float32, views)", function()
    local cases = 0
    for _, m in ipairs(SIZES) do
      for _, n in ipairs(SIZES) do
        if m * n <= 40000 or (m == 1000 and n <= 17) or (n == 1000 and m <= 9) then
          local t = makedata(m, n)
          for _, dt in ipairs({"float64", "float32"}) do
            for _, asview in ipairs({false, true}) do
              if (m * n <= 4000) or asview == (dt == "float32") then
                local A = build(t, m, n, dt, asview)
                checkrows(A, m, n, string.format("%dx%d %s%s", m, n, dt, asview and " view" or ""))
                cases = cases + 1
              end
            end
          end
        end
      end
    end
    -- heights around the strips of 512 rows (a last strip under 8 rows too)
    for _, m in ipairs({511, 512, 519, 520, 1030}) do
      for _, n in ipairs({2, 5, 6, 9, 17}) do
        local t = makedata(m, n)
        for _, dt in ipairs({"float64", "float32"}) do
          checkrows(build(t, m, n, dt, true), m, n, string.format("%dx%d %s view", m, n, dt))
          cases = cases + 1
        end
      end
    end
    assert.is_true(cases > 300)
  end)

  it("a NaN at each column of a group of four, every row position of a vector", function()
    for _, dt in ipairs({"float64", "float32"}) do
      for _, n in ipairs({5, 8, 9, 13}) do
        local m = 40
        for c = 1, n do
          local t = {}
          for j = 1, n do t[j] = {} for i = 1, m do t[j][i] = (j % 3 == 0) and 7 or j end end
          for i = 1, m do t[(c + i - 2) % n + 1][i] = NAN end     -- the NaN's column moves by row
          for i = 1, m, 3 do t[c][i] = NAN end                      -- some rows two NaN
          checkrows(build(t, m, n, dt, c % 2 == 0), m, n, string.format("nan col %d %dx%d %s", c, m, n, dt))
        end
      end
    end
  end)

  it("-0.0 and 0.0 in every order: max 0.0, min -0.0", function()
    for _, dt in ipairs({"float64", "float32"}) do
      local n = 6
      local m = 64                          -- rows: all patterns of 6 zeros' signs
      local t = {}
      for j = 1, n do t[j] = {} end
      for i = 1, m do
        local k = i - 1
        for j = 1, n do t[j][i] = (k % 2 == 1) and NEGZ or POSZ; k = math.floor(k / 2) end
      end
      for _, asview in ipairs({false, true}) do
        local A = build(t, m, n, dt, asview)
        checkrows(A, m, n, "zeros " .. dt)
        local mx, mn = A:max(2), A:min(2)
        for i = 1, m do
          local allneg, allpos = i == m, i == 1
          assert.are.equal(allneg and -INF or INF, 1 / mx(i, 1))
          assert.are.equal(allpos and INF or -INF, 1 / mn(i, 1))
        end
      end
    end
  end)
end)

-- A 1 x n matrix's A:prod(2) was not the sequential product of its row: with
-- one row, reduction() skipped byrows for the line's lak_reduce, whose
-- stride-1 product (pprod, a contiguous row) is associated otherwise, while a
-- view's row (stride ld > 1) is multiplied in order. So a row's product
-- depended on whether it lay in a 1 x n matrix or a view of one (found
-- 2026-11-26). Rows' products now always go through byrows.
describe("rows' products of a one-row matrix", function()
  it("1 x n: A:prod(2) the sequential product, as for a view of the row", function()
    local n, s, t = 129, 7, {}
    for j = 1, n do s = (s * 16807) % 2147483647; t[j] = 1 + (s % 100000) / 1e5 * 0.37 end
    local q = t[1]
    for j = 2, n do q = q * t[j] end
    local A = la.matrix({t})
    local B = la.zeros(3, n)
    for j = 1, n do B:set(1, j, t[j]) end
    assert.are.equal(bits(q), bits(B:sub(1, 1, 1, n):prod(2)(1, 1)))   -- holds
    assert.are.equal(bits(q), bits(A:prod(2)(1, 1)))
    -- float32: the same product in double, rounded once, either layout (the
    -- interleaved product in double would round to the same float almost
    -- always: these catch a product accumulated in float32, not that bug)
    local A32, B32 = A:astype("float32"), B:astype("float32")
    local q32 = A32(1, 1)
    for j = 2, n do q32 = q32 * A32(1, j) end
    q32 = la.matrix({{q32}}, {dtype = "float32"})(1, 1)
    assert.are.equal(bits(q32), bits(A32:prod(2)(1, 1)))
    assert.are.equal(bits(q32), bits(B32:sub(1, 1, 1, n):prod(2)(1, 1)))
  end)
end)

-- sums of views against their copies
local function sumdata(m, n)
  local t = {}
  for j = 1, n do
    t[j] = {}
    for i = 1, m do
      local r = rnd(20)
      t[j][i] = (rnd(2) == 1 and -1 or 1) * (rnd(1000) + rnd(1000) / 1024) * 2 ^ (rnd(60) - 30)
      if r == 1 then t[j][i] = NEGZ end
    end
  end
  return t
end

local function checksum(V, tag)
  local C = V:copy()
  local s, cs = V:sum(), C:sum()
  local a, ca = V:mean(), C:mean()
  if not same(s, cs) then error(string.format("%s: sum %s copy %s", tag, show(s), show(cs))) end
  if not same(a, ca) then error(string.format("%s: mean %s copy %s", tag, show(a), show(ca))) end
end

describe("sum and mean of a view in place", function()
  it("the bits of its copy's, any shape, float64 and float32", function()
    local shapes = {{1, 1}, {1, 2}, {2, 1}, {1, 127}, {1, 128}, {1, 129}, {1, 1000}, {1, 5000},
                    {127, 1}, {128, 1}, {129, 1}, {5000, 1}, {3, 43}, {7, 40}, {9, 100},
                    {64, 3}, {100, 100}, {127, 129}, {129, 127}, {255, 9}, {2, 3000}, {3000, 3},
                    {17, 33}, {513, 5}, {5, 513}, {16, 8}, {33, 31}}
    for _, sh in ipairs(shapes) do
      local m, n = sh[1], sh[2]
      local t = sumdata(m + 4, n + 3)
      for _, dt in ipairs({"float64", "float32"}) do
        local P = build(t, m + 4, n + 3, dt, false)
        for _, o in ipairs({{0, 0}, {1, 2}, {4, 3}, {3, 0}}) do
          local V = P:sub(o[1] + 1, o[1] + m, o[2] + 1, o[2] + n)
          checksum(V, string.format("%dx%d+%d+%d %s", m, n, o[1], o[2], dt))
        end
        -- views of views
        if m > 2 and n > 2 then
          local V = P:sub(2, m + 3, 2, n + 2):sub(2, m, 1, n - 1)
          checksum(V, string.format("view of view %dx%d %s", m, n, dt))
          local W = V:sub(1, 1, 1, n - 1)
          checksum(W, string.format("row of view of view %dx%d %s", m, n, dt))
          local K = V:sub(1, m - 1, 2, 2)
          checksum(K, string.format("column of view of view %dx%d %s", m, n, dt))
        end
      end
    end
  end)

  it("inf, NaN and overflow propagate as in the copy", function()
    local t = sumdata(40, 30)
    t[5][7], t[9][3] = INF, -INF
    for _, dt in ipairs({"float64", "float32"}) do
      local P = build(t, 40, 30, dt, false)
      checksum(P:sub(2, 39, 2, 29), "inf-inf " .. dt)
      checksum(P:sub(2, 39, 6, 29), "inf only " .. dt)
    end
    local u = sumdata(10, 300)
    for j = 1, 300 do u[j][5] = 1e308 end
    checksum(build(u, 10, 300, "float64", false):sub(2, 9, 1, 300), "overflow")
  end)
end)

describe("tobytes of large strings under every collector mode", function()
  it("the same bytes as element by element, collector stopped, generational, incremental", function()
    local m, n = 150, 130                      -- 156 KB float64, 78 KB float32
    local t = sumdata(m, n)
    local want = {}
    local cells = {}
    for j = 1, n - 2 do for i = 2, m do cells[#cells + 1] = bits(t[j][i]) end end
    want.view = table.concat(cells)
    cells = {}
    for j = 1, n do for i = 1, m do cells[#cells + 1] = bits(t[j][i]) end end
    want.full = table.concat(cells)
    local modes = {"stop", "generational", "incremental"}
    local ok, results = true, {}
    for _, mode in ipairs(modes) do
      local good = pcall(collectgarbage, mode)
      if mode ~= "stop" and not good then mode = mode .. " (n/a)" end
      for round = 1, 3 do
        local A = build(t, m, n, "float64", false)
        local big = la.tobytes(A)
        local v = la.tobytes(A:sub(2, m, 1, n - 2))
        local F = A:astype("float32")
        local f = la.tobytes(F)
        local G = la.frombuffer(f, m, n, {dtype = "<f4", order = "F"})
        if big ~= want.full or v ~= want.view or la.tobytes(G) ~= f
          or #f ~= 4 * m * n then ok = false; results[#results + 1] = mode .. " " .. round end
        -- a larger one, dropped at once: the collector's step must not free live strings
        local keep = {}
        for k = 1, 4 do keep[k] = la.tobytes(la.frombuffer(want.full, m, n, {dtype = "<f8", order = "F"})) end
        for k = 1, 4 do if keep[k] ~= want.full then ok = false; results[#results + 1] = mode .. " keep" end end
      end
      collectgarbage("restart")
    end
    collectgarbage("restart")
    pcall(collectgarbage, "incremental")
    assert.is_true(ok, table.concat(results, ", "))
  end)
end)

-- sorts of many lines of 17..128 entries
local refsort = require "sortref"   -- spec/sortref.lua

local function checksort(A, dim, down, tag)
  local m, n = A:shape()
  local S, I = la.sort(A, dim, {descending = down})
  local V = la.sort(A, dim, {descending = down, indices = false})
  local J = la.argsort(A, dim, {descending = down})
  assert.are.equal(la.tobytes(S), la.tobytes(V))
  local nl, len = dim == 1 and n or m, dim == 1 and m or n
  local raw = la.tobytes(A:astype("float64"))
  local sraw = la.tobytes(S:astype("float64"))
  for k = 1, nl do
    local t = {}
    for x = 1, len do t[x] = dim == 1 and A(x, k) or A(k, x) end
    local p = refsort(t, down)
    for x = 1, len do
      local i, j = dim == 1 and x or k, dim == 1 and k or x
      local si, sj = dim == 1 and p[x] or k, dim == 1 and k or p[x]
      local o, so = (j - 1) * m + i, (sj - 1) * m + si
      if I(i, j) ~= p[x] or J(i, j) ~= p[x] then
        error(string.format("%s: line %d pos %d: index %s/%s want %d", tag, k, x, show(I(i, j)), show(J(i, j)), p[x]))
      end
      if sraw:sub(o * 8 - 7, o * 8) ~= raw:sub(so * 8 - 7, so * 8) then
        error(string.format("%s: line %d pos %d: value %s want %s", tag, k, x, show(S(i, j)), show(A(si, sj))))
      end
    end
  end
end

describe("sort / argsort of many lines of 17..128 entries", function()
  it("stable, NaN last, -0.0 == 0.0, the values bit for bit", function()
    local lens = {16, 17, 18, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129}
    local counts = {7, 8, 9, 15, 16, 17, 33}
    local cases = 0
    for li, len in ipairs(lens) do
      for ci, nl in ipairs(counts) do
        for _, dt in ipairs({"float64", "float32"}) do
          if (li + ci) % 2 == 0 or nl == 8 or nl == 16 or nl == 15 or nl == 7 then
            local dim = (li + ci) % 2 + 1
            local m, n = dim == 1 and len or nl, dim == 1 and nl or len
            local t = makedata(m, n)
            local asview = (li * ci) % 3 ~= 0
            local A = build(t, m, n, dt, asview)
            local down = (li + 2 * ci) % 3 == 0
            checksort(A, dim, down, string.format("%dx%d dim %d %s%s%s", m, n, dim, dt,
              asview and " view" or "", down and " desc" or ""))
            -- the other dim too, on the transpose's data
            cases = cases + 1
          end
        end
      end
    end
    assert.is_true(cases > 100)
  end)

  it("many lines: 1000 of 17, 200 of 128, 300 of 65, both dims, views", function()
    for _, c in ipairs({{17, 1000}, {128, 200}, {65, 300}, {100, 64}}) do
      local len, nl = c[1], c[2]
      for dim = 1, 2 do
        for _, dt in ipairs({"float64", "float32"}) do
          local m, n = dim == 1 and len or nl, dim == 1 and nl or len
          local A = build(makedata(m, n), m, n, dt, dim == 2)
          checksort(A, dim, dt == "float32", string.format("%dx%d dim %d %s", m, n, dim, dt))
        end
      end
    end
  end)
end)
