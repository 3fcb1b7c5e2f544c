-- Hostile checks of the bulk byte paths (frombuffer / tobytes), any / all
-- stopping at the first deciding block, bool counts by byte lanes, and the
-- row (strips of 512) and column (one loop for short columns) reductions.
-- Answers come from definitions (the element path, a count, the first NaN
-- winning, IEEE maximum / minimum of -0 and +0) or from NumPy 1.24 where
-- noted.
local lepack = require "lepack"
local la = require "linalg"

local NEGZ = -1 / math.huge           -- -0 made at run time (Lua 5.1 folds -0.0 into 0)
local NAN = 0 / 0

local function same(a, b)             -- equal, NaN equal to NaN, zeros by sign
  if a ~= a then return b ~= b end
  if a == 0 and b == 0 then return 1 / a == 1 / b end
  return a == b
end

local function entries(A)             -- column-major list of A's entries
  local m, n = A:shape()
  local t = {}
  for j = 1, n do for i = 1, m do t[#t + 1] = A:get(i, j) end end
  return t
end

local function assert_entries(want, A, what)
  local got = entries(A)
  assert.are.equal(#want, #got, what)
  for k = 1, #want do
    if not same(want[k], got[k]) then
      error(("%s: entry %d is %s, expected %s"):format(what, k, tostring(got[k]), tostring(want[k])))
    end
  end
end

-- m x n bytes of v(i, j) packed by fmt, the k-th element (0-based) of
-- order "C" at row k / n, of order "F" at row k % m
local function bytes_of(m, n, order, fmt, v)
  local t = {}
  for k = 0, m * n - 1 do
    local i, j
    if order == "C" then i, j = math.floor(k / n) + 1, k % n + 1
    else i, j = k % m + 1, math.floor(k / m) + 1 end
    t[k + 1] = lepack.pack(fmt, v(i, j))
  end
  return table.concat(t)
end

local function val(i, j) return (i * 13 + j * 7) % 19 - 9.5 + (i == 2 and j == 1 and 0.25 or 0) end

local SHAPES = {{0, 3}, {3, 0}, {1, 1}, {1, 6}, {6, 1}, {5, 4}, {17, 9}}

describe("frombuffer: the bulk paths against the element path", function()
  it("little-endian (bulk) and big-endian (element loop) bytes give the same matrix at offsets 0..15", function()
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      for _, t in ipairs{{"<f8", ">f8", "d", "float64"}, {"<f4", ">f4", "f", "float32"}} do
        for _, order in ipairs{"C", "F"} do
          local le = bytes_of(m, n, order, "<" .. t[3], val)
          local be = bytes_of(m, n, order, ">" .. t[3], val)
          local want = {}
          for j = 1, n do for i = 1, m do want[#want + 1] = val(i, j) end end
          for off = 0, 15 do
            local pad = ("\7"):rep(off)
            local what = ("%s %s %dx%d offset %d"):format(t[1], order, m, n, off)
            local A = la.frombuffer(pad .. le, m, n, {dtype = t[1], order = order, offset = off})
            local B = la.frombuffer(pad .. be, m, n, {dtype = t[2], order = order, offset = off})
            assert.are.equal(t[4], A.dtype, what)
            assert.are.equal(t[4], B.dtype, what)
            assert_entries(want, A, what)
            assert_entries(want, B, what .. " (big-endian)")
          end
        end
      end
    end
  end)

  it("keeps NaN, Inf and -0 through both orders", function()
    local sp = {NAN, math.huge, -math.huge, NEGZ, 0, 1.5}
    local function w(i, j) return sp[(i + 2 * j) % 6 + 1] end
    for _, t in ipairs{{"<f8", "<d"}, {"<f4", "<f"}, {">f8", ">d"}} do
      for _, order in ipairs{"C", "F"} do
        local A = la.frombuffer(bytes_of(4, 3, order, t[2], w), 4, 3, {dtype = t[1], order = order})
        local want = {}
        for j = 1, 3 do for i = 1, 4 do want[#want + 1] = w(i, j) end end
        assert_entries(want, A, t[1] .. " " .. order)
      end
    end
  end)

  it("reads integer descrs as float64 at any offset", function()
    local function iv(i, j) return (i * 1000 - j * 77) * (j % 2 == 0 and -1 or 1) end
    for _, t in ipairs{{"<i4", "<i4"}, {"<i8", "<i8"}, {">i4", ">i4"}, {">i8", ">i8"}} do
      for _, order in ipairs{"C", "F"} do
        for off = 0, 5 do
          local A = la.frombuffer(("x"):rep(off) .. bytes_of(5, 3, order, t[2], iv), 5, 3,
                                  {dtype = t[1], order = order, offset = off})
          assert.are.equal("float64", A.dtype)
          local want = {}
          for j = 1, 3 do for i = 1, 5 do want[#want + 1] = iv(i, j) end end
          assert_entries(want, A, t[1] .. " " .. order .. " " .. off)
        end
      end
    end
  end)

  it("makes any nonzero byte true and stores 0 / 1, for vectors in C order too", function()
    local function byte(i, j) return ({0, 1, 2, 255, 128, 0, 3})[(i * 3 + j) % 7 + 1] end
    for _, s in ipairs{{1, 9}, {9, 1}, {4, 5}, {0, 4}, {70, 3}} do
      local m, n = s[1], s[2]
      for _, order in ipairs{"C", "F"} do
        local t = {}
        if order == "C" then for i = 1, m do for j = 1, n do t[#t + 1] = string.char(byte(i, j)) end end
        else for j = 1, n do for i = 1, m do t[#t + 1] = string.char(byte(i, j)) end end end
        for off = 0, 3 do
          local M = la.frombuffer(("\9"):rep(off) .. table.concat(t), m, n,
                                  {dtype = off % 2 == 0 and "|b1" or "bool", order = order, offset = off})
          local back, count = {}, 0
          for j = 1, n do for i = 1, m do
            local b = byte(i, j) ~= 0
            assert.are.equal(b, M:get(i, j))
            back[#back + 1] = b and "\1" or "\0"
            if b then count = count + 1 end
          end end
          assert.are.equal(table.concat(back), M:tobytes())
          assert.are.equal(count, la.count_nonzero(M))
          assert.are.equal(count, M:sum())
        end
      end
    end
  end)
end)

describe("tobytes of views", function()
  local function views(A)
    return {
      {"whole", A}, {"sub", A:sub(2, 5, 2, 6)}, {"row", A:row(3)}, {"col", A:col(4)},
      {"0 rows", A:sub(3, 2, 1, 6)}, {"0 cols", A:sub(1, 7, 3, 2)}, {"1 x 1", A:sub(7, 7, 6, 6)},
      {"last row", A:sub(7, 7, 1, 6)}, {"transposed copy", A:t()}, {"row of the transpose", A:t():row(2)},
    }
  end
  local tmp = os.tmpname()
  after_each(function() os.remove(tmp) end)

  it("packs each kind of view, and round-trips through frombuffer and save_npy / load_npy", function()
    local P = la.frombuffer(bytes_of(7, 6, "F", "<d", val), 7, 6, {order = "F"})
    P:set(4, 4, NAN); P:set(5, 2, NEGZ)
    for _, t in ipairs{{"float64", "<f8", "<d"}, {"float32", "<f4", "<f"}, {"bool", "|b1"}} do
      local A = t[1] == "bool" and la.gt(P, 0) or P:astype(t[1])
      for _, v in ipairs(views(A)) do
        local V, what = v[2], t[1] .. " " .. v[1]
        local m, n = V:shape()
        local want = entries(V)
        local b = V:tobytes()
        assert.are.equal(m * n * (t[1] == "float64" and 8 or t[1] == "float32" and 4 or 1), #b, what)
        local hasnan = false
        for k = 1, #want do if want[k] ~= want[k] then hasnan = true end end
        if t[3] and not hasnan then
          -- the bytes themselves, element by element (lepack; a NaN's bits
          -- are whichever NaN the platform makes, so not with one)
          local e = {}
          for k = 1, #want do e[k] = lepack.pack(t[3], want[k]) end
          assert.are.equal(table.concat(e), b, what .. " bytes")
        end
        assert_entries(want, la.frombuffer(b, m, n, {dtype = t[2], order = "F"}), what .. " frombuffer")
        la.save_npy(V, tmp)
        local W = la.load_npy(tmp)
        assert.are.equal(V.dtype, W.dtype, what)
        assert.are.same({m, n}, {W:shape()}, what)
        assert_entries(want, W, what .. " npy")
      end
    end
  end)
end)

describe("any / all over every entry, block by block", function()
  local function conv(A, dt)
    if dt == "bool" then return la.ne(A, 0) end
    return dt == "float32" and A:astype("float32") or A
  end
  -- one deciding entry x at p in a field of the other value; in a view, the
  -- parent's border holds the opposite value, so a view that read past its
  -- rows or columns would see it
  local function spot(m, n, view, dt, p, x)
    local o = view and 1 or 0
    local rows, cols = ("%d:%d"):format(1 + o, m + o), ("%d:%d"):format(1 + o, n + o)
    local Z, O = la.ones(m + 2 * o, n + 2 * o), la.zeros(m + 2 * o, n + 2 * o)
    Z:set(rows, cols, la.zeros(m, n)); O:set(rows, cols, la.ones(m, n))
    Z:set(p[1] + o, p[2] + o, x)
    O:set(p[1] + o, p[2] + o, x == 1 and 0 or x)
    Z, O = conv(Z, dt), conv(O, dt)
    if view then Z, O = Z:sub(1 + o, m + o, 1 + o, n + o), O:sub(1 + o, m + o, 1 + o, n + o) end
    local what = ("%s %dx%d view %s at %d,%d x %s"):format(dt, m, n, tostring(view), p[1], p[2], tostring(x))
    local nz = x ~= 0               -- NaN is true, -0 is not
    assert.are.equal(nz, la.any(Z), "any " .. what)
    assert.are.equal(x ~= 1 and nz, la.all(O), "all " .. what)
    assert.are.equal(nz and 1 or 0, la.count_nonzero(Z), "count " .. what)
  end
  -- block edges: 4096 entries, whole columns or pieces of a long one
  local SH = {{1, 4097}, {4097, 1}, {4095, 3}, {4096, 2}, {4097, 2}, {3, 2731}, {64, 129}, {8193, 1}}
  it("finds the single deciding entry wherever it sits, in views too", function()
    for _, sh in ipairs(SH) do
      local m, n = sh[1], sh[2]
      local spots = {{1, 1}, {m, n}, {m, 1}, {1, n}}
      for _, k in ipairs{4095, 4096, 4097, 8192} do
        local i, j = (k - 1) % m + 1, math.floor((k - 1) / m) + 1
        if j <= n then spots[#spots + 1] = {i, j} end
      end
      for c = 0, 2 * 3 * #spots * 3 - 1 do   -- view x dtype x spot x value
        local x = ({1, NAN, NEGZ})[c % 3 + 1]
        local p = spots[math.floor(c / 3) % #spots + 1]
        local dt = ({"float64", "float32", "bool"})[math.floor(c / (3 * #spots)) % 3 + 1]
        spot(m, n, c >= 9 * #spots, dt, p, x)
      end
    end
  end)

  it("gives false / true for empty matrices and matrices of one value", function()
    for _, s in ipairs{{0, 5}, {5, 0}, {0, 0}} do
      assert.is_false(la.any(la.ones(s[1], s[2])))
      assert.is_true(la.all(la.zeros(s[1], s[2])))
    end
    for _, s in ipairs{{1, 1}, {4096, 1}, {1, 9000}, {5000, 2}} do
      local Z, O = la.zeros(s[1], s[2]), la.ones(s[1], s[2])
      assert.is_false(la.any(Z)); assert.is_false(la.all(Z))
      assert.is_true(la.any(O)); assert.is_true(la.all(O))
      assert.is_true(la.all(la.eq(Z, 0))); assert.is_false(la.any(la.ne(Z, 0)))
    end
  end)
end)

describe("bool counts by byte lanes", function()
  -- lengths around 64 (two 32-byte lanes) and 255 * 64 (a lane flush)
  local LENS = {1, 63, 64, 65, 127, 128, 129, 16319, 16320, 16321, 32640, 32703, 32704, 48961}
  it("count_nonzero, sum, mean and per-column counts equal a plain count #heavy", function()
    for _, len in ipairs(LENS) do
      for _, sh in ipairs{{len, 1}, {1, len}, {len, 2}} do
        local m, n = sh[1], sh[2]
        local X = la.zeros(m, n)
        local want, colw, roww = 0, {}, {}
        for j = 1, n do colw[j] = 0 end
        for i = 1, m do roww[i] = 0 end
        for j = 1, n do for i = 1, m do
          -- true except in a pattern of holes, so every lane sees both
          if (i * 7 + j * 3) % 11 ~= 0 and (i + j) % 5 ~= 0 then
            X:set(i, j, 1); want = want + 1; colw[j] = colw[j] + 1; roww[i] = roww[i] + 1
          end
        end end
        local M = la.ne(X, 0)
        local what = ("%dx%d"):format(m, n)
        assert.are.equal(want, la.count_nonzero(M), what)
        assert.are.equal(want, M:sum(), what)
        assert.are.equal(want / (m * n), M:mean(), what)
        local C, S = la.count_nonzero(M, 1), M:sum(1)
        for j = 1, n do
          assert.are.equal(colw[j], C:get(1, j), what)
          assert.are.equal(colw[j], S:get(1, j), what)
        end
        if m > 2 then                         -- a view: rows 2..m-1
          local V, vw = M:sub(2, m - 1, 1, n), 0
          for i = 2, m - 1 do vw = vw + roww[i] end
          assert.are.equal(vw, la.count_nonzero(V), what .. " view")
          assert.are.equal(vw, V:sum(), what .. " view")
        end
        local all = la.ones(m, n):ne(0)
        assert.are.equal(m * n, la.count_nonzero(all), what .. " all true")
        assert.are.equal(m * n, all:sum(), what .. " all true")
      end
    end
  end)
end)

-- K (9 x 5) with NaN, +-Inf and -0 / +0 ties; the answers are NumPy 1.24's:
-- K.max(axis=1), K.min(axis=1), K.argmax(axis=1) + 1, K.argmin(axis=1) + 1,
-- np.ptp(K, axis=1), K.sum(axis=1), K.var(axis=1, ddof=1); the zeros' signs
-- are IEEE 754-2019's maximum / minimum (max of -0, +0 is +0; min is -0).
local KT = {
  {5, -3, 0, 3, -5}, {1, 4, NAN, -1, NAN}, {NAN, 0, 3, -5, -2}, {NEGZ, 0, NEGZ, -1, 0},
  {0, NEGZ, 1, 0, NEGZ}, {-4, -1, 2, math.huge, -3}, {3, -math.huge, -2, 1, -math.huge},
  {-1, 2, 5, -3, 0}, {-5, -2, 1, 4, NAN},
}
local KMAX = {5, NAN, NAN, 0, 1, math.huge, 3, 5, NAN}
local KMIN = {-5, NAN, NAN, -1, NEGZ, -4, -math.huge, -3, NAN}
local KARGMAX = {1, 3, 1, 1, 3, 4, 1, 3, 5}
local KARGMIN = {5, 3, 1, 4, 1, 1, 2, 4, 5}
local KPTP = {10, NAN, NAN, 1, 1, math.huge, math.huge, 8, NAN}
local KSUM = {0, NAN, NAN, -1, 1, math.huge, -math.huge, 3, NAN}
local KVAR1 = {17, NAN, NAN, 0.2, 0.2, NAN, NAN, 9.3, NAN}

describe("row reductions against NumPy, rows in and across strips", function()
  -- K's rows placed at rows r0 + 1 .. r0 + 9 of an h x 5 matrix (other rows
  -- small integers), so they fall in the first strip, across a strip edge
  -- (512 / 513) and in a last strip of fewer than 8 rows
  local function tall(h, r0, dtype, view)
    local P = la.zeros(h + (view and 3 or 0), 5 + (view and 1 or 0), {dtype = dtype})
    local o = view and 2 or 0
    for i = 1, h do for j = 1, 5 do P:set(i + o, j, (i * 5 + j) % 7 - 3) end end
    for k = 1, 9 do for j = 1, 5 do P:set(r0 + k + o, j, KT[k][j]) end end
    if view then return P:sub(1 + o, h + o, 1, 5) end
    return P
  end
  local CASES = {{9, 0}, {20, 5}, {520, 507}, {1030, 1021}, {1025, 1016}, {3, -1}}
  for _, dtype in ipairs{"float64", "float32"} do
    for _, c in ipairs(CASES) do
      for _, view in ipairs{false, true} do
        it(("%s height %d, K at row %d, view %s"):format(dtype, c[1], c[2] + 1, tostring(view)), function()
          local h, r0 = c[1], c[2]
          local A
          if r0 < 0 then                      -- K's rows 2, 3 and 6 alone: fewer than 8 rows
            A = la.zeros(3, 5, {dtype = dtype})
            for k, r in ipairs{2, 3, 6} do for j = 1, 5 do A:set(k, j, KT[r][j]) end end
            -- numpy 1.24: K[[1,2,5],:].argmax(axis=1) + 1, argmin likewise
            assert_entries({3, 1, 4}, A:argmax(2), "argmax of 3 rows")
            assert_entries({3, 1, 1}, A:argmin(2), "argmin of 3 rows")
            assert_entries({NAN, NAN, math.huge}, A:max(2), "max of 3 rows")
            assert_entries({NAN, NAN, -4}, A:min(2), "min of 3 rows")
            return
          end
          A = tall(h, r0, dtype, view)
          local R = {A:max(2), A:min(2), A:argmax(2), A:argmin(2), la.ptp(A, 2), A:sum(2), A:var(2, {ddof = 1})}
          local W = {KMAX, KMIN, KARGMAX, KARGMIN, KPTP, KSUM, KVAR1}
          local names = {"max", "min", "argmax", "argmin", "ptp", "sum", "var"}
          for q = 1, #R do
            assert.are.same({h, 1}, {R[q]:shape()})
            assert.are.equal((q == 3 or q == 4) and "float64" or dtype, R[q].dtype)
            for k = 1, 9 do
              local got, want = R[q]:get(r0 + k, 1), W[q][k]
              local ok = same(want, got)
              if q == 7 and want == want then ok = math.abs(got - want) <= 1e-6 * math.abs(want) end
              if not ok then
                error(("%s of K's row %d (row %d): %s, expected %s"):format(names[q], k, r0 + k,
                      tostring(got), tostring(want)))
              end
            end
          end
          -- the other rows, from their definition
          for i = 1, h do
            if i <= r0 or i > r0 + 9 then
              local mx, mn, am, s = -math.huge, math.huge, 0, 0
              for j = 1, 5 do
                local x = A:get(i, j)
                s = s + x
                if x > mx then mx, am = x, j end
                if x < mn then mn = x end
              end
              assert.are.equal(mx, R[1]:get(i, 1)); assert.are.equal(mn, R[2]:get(i, 1))
              assert.are.equal(am, R[3]:get(i, 1)); assert.are.equal(mx - mn, R[5]:get(i, 1))
              assert.are.equal(s, R[6]:get(i, 1))
            end
          end
        end)
      end
    end
  end

  it("the zero's sign of max / min does not depend on the order of -0 and +0", function()
    for _, dtype in ipairs{"float64", "float32"} do
      for _, h in ipairs{1, 3, 8, 17, 513} do
        local A = la.zeros(h, 4, {dtype = dtype})
        for i = 1, h do
          -- row i: -0 in the columns whose bit of i - 1 is set, else +0
          for j = 1, 4 do if math.floor((i - 1) / 2 ^ (j - 1)) % 2 == 1 then A:set(i, j, NEGZ) end end
        end
        local X, N = A:max(2), A:min(2)
        for i = 1, h do
          local k = (i - 1) % 16
          assert.are.equal(k == 15 and -math.huge or math.huge, 1 / X:get(i, 1))   -- +0 unless all -0
          assert.are.equal(k == 0 and math.huge or -math.huge, 1 / N:get(i, 1))    -- -0 unless all +0
        end
      end
    end
  end)
end)

describe("column reductions of short columns: the bits of the same column alone", function()
  local function f32(x)       -- x rounded to float32
    if x ~= x or x == math.huge or x == -math.huge then return x end
    return la.full(1, 1, x, {dtype = "float32"}):get(1, 1)
  end
  local function fill(m, n, scale, special)
    local A = la.zeros(m + 2, n)
    for j = 1, n do for i = 1, m do A:set(i, j, scale * (((i * 29 + j * 13) % 17) - 7.5) / 3) end end
    if special and m > 2 then A:set(math.floor(m / 2), 2, NAN); A:set(m, 3, math.huge) end
    return A:sub(1, m, 1, n)                  -- a view: ld = m + 2
  end
  local function columns(m, scale, special, dtype)
    local A = fill(m, 4, dtype == "float32" and 1 or scale, special)
    if dtype == "float32" then A = A:astype("float32") end
    local what = ("%s m %d scale %g special %s"):format(dtype, m, scale, tostring(special))
    local S, M, V0, S1 = A:sum(1), A:mean(1), A:var(1), m > 1 and A:std(1, {ddof = 1})
    local N1, N2 = la.vecnorm(A, 1, 1), la.vecnorm(A, 2, 1)
    assert.are.equal(dtype, S.dtype, what)
    local r = dtype == "float32" and f32 or function(x) return x end
    for j = 1, 4 do
      local c = A:col(j):copy()
      assert.is_true(same(r(c:sum()), S:get(1, j)), what .. " sum")
      assert.is_true(same(r(c:mean()), M:get(1, j)), what .. " mean")
      assert.is_true(same(r(c:var()), V0:get(1, j)), what .. " var")
      if S1 then assert.is_true(same(r(c:std({ddof = 1})), S1:get(1, j)), what .. " std ddof 1") end
      assert.is_true(same(r(la.norm(c, 1)), N1:get(1, j)), what .. " 1-norm")
      assert.is_true(same(r(la.norm(c, 2)), N2:get(1, j)), what .. " 2-norm")
    end
  end
  it("sum, mean, var, std (ddof 0 and 1), 1- and 2-norms for heights 1..131", function()
    for m = 1, 131 do
      if m <= 20 or m % 7 == 0 or (m >= 126 and m <= 131) or m == 32 or m == 64 or m == 96 then
        for _, sc in ipairs{{1, false}, {1e300, false}, {1e-300, false}, {1, true}} do
          columns(m, sc[1], sc[2], "float64")
          columns(m, sc[1], sc[2], "float32")
        end
      end
    end
  end)

  it("keeps 2-norms of tiny and huge columns finite and right (rescaled pass)", function()
    -- |x| = 3e-200 or 3e200 in every entry of m: the norm is 3e+-200 sqrt(m)
    for _, m in ipairs{1, 7, 64, 128} do
      for _, x in ipairs{3e-200, 3e200} do
        local A = la.full(m, 2, x)
        A:set(1, 2, -x)
        local N = la.vecnorm(A, 2, 1)
        for j = 1, 2 do
          assert.is_true(math.abs(N:get(1, j) - x * math.sqrt(m)) <= 1e-14 * x * math.sqrt(m),
                         ("m %d x %g: %g"):format(m, x, N:get(1, j)))
        end
      end
    end
  end)
end)
