-- Construction and shape (lshape.c). Reference values: NumPy 1.24.2
-- (Debian's python3-numpy), printed with .tolist(); Octave's semantics
-- where noted.
local MAXINT, MININT = math.maxinteger or 2 ^ 53, math.mininteger or -2 ^ 53   -- where numbers are doubles: 2^53
local unpack = table.unpack or unpack
local la = require "linalg"

local A = la.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}

describe("ranges", function()
  it("arange matches NumPy (stop excluded), as a column", function()
    assert.near({1.0, 1.3, 1.6, 1.9000000000000001}, la.arange(1, 2, 0.3), 0)   -- np.arange(1, 2, 0.3)
    assert.near({5, 3, 1}, la.arange(5, 0, -2), 0)
    assert.near({0, 1, 2, 3}, la.arange(4), 0)
    assert.are.equal(10, la.arange(0, 1, 0.1):rows())                             -- len(np.arange(0, 1, 0.1))
    assert.are.same({0, 1}, {la.arange(3, 1):shape()})
    assert.error_matches(function() la.arange(0, 1, 0) end, "linalg.arange: bad argument #3 (step must not be 0)")
    assert.error_matches(function() la.arange(0, 1 / 0) end, "linalg.arange: bad argument #2 (finite number expected")
    assert.error_matches(function() la.arange(0, 1e12) end, "exceed 2147483647")
  end)
  it("linspace and logspace match NumPy", function()
    assert.near({0.0, 0.16666666666666666, 0.3333333333333333, 0.5, 0.6666666666666666, 0.8333333333333333, 1.0},
      la.linspace(0, 1, 7), 1e-16)
    assert.are.equal(50, la.linspace(0, 1):rows())
    assert.near({1.0, 3.162277660168379, 10.0, 31.622776601683796, 100.0}, la.logspace(0, 2, 5), 1e-15)
    assert.near({1, 2, 4, 8}, la.logspace(0, 3, 4, 2), 1e-15)
    assert.near({3}, la.linspace(3, 9, 1))
    assert.are.same({0, 1}, {la.linspace(0, 1, 0):shape()})
    assert.error_matches(function() la.linspace(0, 1, -1) end, "linalg.linspace: bad argument #3 (count must be")
  end)
end)

describe("filled matrices", function()
  it("full, zeros_like, ones_like, full_like", function()
    assert.near({{7, 7, 7}, {7, 7, 7}}, la.full(2, 3, 7))
    assert.near(la.zeros(3, 3), A:zeros_like()); assert.near(la.ones(3, 3), A:ones_like())
    assert.near(la.full(3, 3, -1), A:full_like(-1))
    assert.error_matches(function() la.full(2, 2, "x") end, "linalg.full: bad argument #3 (number expected, got string)")
  end)
end)

describe("triangles, products, tiling", function()
  it("triu and tril take NumPy's k", function()
    assert.near({{1, 2, 3}, {4, 5, 6}, {0, 8, 9}}, la.triu(A, -1))   -- np.triu(A, -1)
    assert.near({{1, 2, 0}, {4, 5, 6}, {7, 8, 9}}, la.tril(A, 1))    -- np.tril(A, 1)
    assert.near({{1, 2, 3}, {0, 5, 6}, {0, 0, 9}}, A:triu())
    assert.near({{0, 0}, {0, 0}}, la.tril(la.ones(2, 2), -5))
  end)
  it("kron matches NumPy", function()
    assert.near({{0, 5, 0, 10}, {6, 7, 12, 14}, {0, 15, 0, 20}, {18, 21, 24, 28}},
      la.kron({{1, 2}, {3, 4}}, {{0, 5}, {6, 7}}))
    assert.are.same({0, 6}, {la.kron(la.zeros(0, 2), la.ones(2, 3)):shape()})
  end)
  it("tile (both counts) and repmat (Octave's)", function()
    assert.near({{1, 2, 1, 2, 1, 2}, {1, 2, 1, 2, 1, 2}}, la.tile({{1, 2}}, 2, 3))   -- np.tile(.., (2, 3))
    assert.near({{1, 2, 1, 2}, {1, 2, 1, 2}}, la.repmat({{1, 2}}, 2))
    assert.error_matches(function() la.tile(A, 2) end, "linalg.tile: bad argument #3 (column count expected")
    assert.error_matches(function() la.repmat(A, -1) end, "linalg.repmat: repetition counts must be >= 0")
    assert.error_matches(function() la.repmat(A, 2000000000) end, "linalg.repmat: result of 3 x 2000000000 rows")
  end)
end)

describe("flips, shifts, vec, blkdiag", function()
  it("flip defaults as Octave (a row along its length, else down columns)", function()
    assert.near({{7, 8, 9}, {4, 5, 6}, {1, 2, 3}}, A:flip())
    assert.near({{3, 2, 1}}, la.flip{{1, 2, 3}})
    assert.near({{3, 2, 1}, {6, 5, 4}, {9, 8, 7}}, A:fliplr())
    assert.near(A:flip(1), A:flipud()); assert.near(A:fliplr(), A:flip(2))
  end)
  it("roll and circshift match np.roll with an axis", function()
    assert.near({{7, 8, 9}, {1, 2, 3}, {4, 5, 6}}, la.roll(A, 1, 1))          -- np.roll(A, 1, axis=0)
    assert.near({{2, 3, 1}, {5, 6, 4}, {8, 9, 7}}, la.circshift(A, -4, 2))    -- np.roll(A, -4, axis=1)
    assert.near({{3, 1, 2}}, la.roll({{1, 2, 3}}, 1))
    assert.near(A, la.roll(A, 3, 2))
    assert.near(la.roll(A, 1, 2), la.roll(A, MININT, 2))   -- mininteger % 3 == 1
    assert.are.same({0, 3}, {la.roll(la.zeros(0, 3), 2):shape()})
  end)
  it("vec stacks columns (A(:)), views included", function()
    assert.near({1, 4, 7, 2, 5, 8, 3, 6, 9}, A:vec())
    assert.near({5, 8, 6, 9}, A:sub(2, 3, 2, 3):vec())
  end)
  it("blkdiag puts the blocks on the diagonal", function()
    assert.near({{1, 2, 0}, {0, 0, 3}, {0, 0, 4}}, la.blkdiag({{1, 2}}, {3, 4}))
    assert.are.same({0, 0}, {la.blkdiag():shape()})
    assert.error_matches(function() la.blkdiag(A, "x") end, "linalg.blkdiag: bad argument #2 (matrix expected, got string)")
  end)
  it("blkdiag writes every entry: blocks of any shape (empty ones too, views), zeros +0 elsewhere", function()
    -- scipy.linalg.block_diag's rule: entry (i, j) is block k's where i and j
    -- fall in its rows and columns, else 0; a matrix of 7s of the result's
    -- size is dropped first, so an entry left unwritten would likely show one
    local shapes = {{2, 3}, {0, 2}, {3, 0}, {1, 1}, {4, 2}, {0, 0}, {2, 5}}
    for _, dt in ipairs({"float64", "float32", "bool"}) do
      for trial = 1, 6 do
        local args, ref_r, ref_c = {}, 0, 0
        for k = 1, 2 + trial % 4 do
          local sh = shapes[(trial * 3 + k * 5) % #shapes + 1]
          local P = la.randn(sh[1] + 2, sh[2] + 3, {dtype = dt == "bool" and "float64" or dt})
          if dt == "bool" then P = la.gt(P, 0) end
          args[k] = k % 2 == 0 and P:sub(2, sh[1] + 1, 3, sh[2] + 2) or P:sub(1, sh[1], 1, sh[2]):copy()
          ref_r, ref_c = ref_r + sh[1], ref_c + sh[2]
        end
        local junk = la.full(ref_r, ref_c, 7, {dtype = dt == "bool" and "float64" or dt})
        junk = nil                                        -- its storage back to the cache
        collectgarbage()
        local C = la.blkdiag(table.unpack(args))
        assert.are.same({ref_r, ref_c}, {C:shape()})
        assert.are.equal(dt == "bool" and "float64" or dt, C.dtype)   -- bool blocks: numbers
        local r0, c0 = 0, 0
        local owner = {}
        for _, B in ipairs(args) do
          local m, n = B:shape()
          for j = 1, n do owner[c0 + j] = {B, r0, c0, m} end
          r0, c0 = r0 + m, c0 + n
        end
        for j = 1, ref_c do
          local B, br, bc, bm = table.unpack(owner[j])
          for i = 1, ref_r do
            local v = C(i, j)
            if i > br and i <= br + bm then
              local b = B(i - br, j - bc)
              if type(b) == "boolean" then b = b and 1 or 0 end
              assert.are.equal(b, v)
            else
              assert.are.equal(0, v)
              assert.are.equal(math.huge, 1 / v)             -- +0, not -0
            end
          end
        end
      end
    end
  end)
end)

describe("slice", function()
  local B = la.matrix{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
  it("takes Octave ranges with a step and 'end' (as NumPy's B[0:2, 0::2])", function()
    assert.near({{1, 3}, {5, 7}}, B:slice("1:2", "1:2:end"))
    assert.near({{4, 3, 2, 1}, {8, 7, 6, 5}, {12, 11, 10, 9}}, B:slice(":", "end:-1:1"))
    assert.near({{5, 6, 7, 8}}, B:slice(2))
    assert.near({{3}, {7}, {11}}, B:slice(nil, 3))
    assert.are.same({0, 4}, {B:slice("3:2"):shape()})
  end)
  it("is a view for a unit-step row range and a positive column step, else a copy", function()
    local C = B:copy()
    local V = C:slice("2:3", "2:2:4")
    assert.is_truthy(tostring(V):find("(view)", 1, true))
    V:set(1, 2, -1)
    assert.are.equal(-1, C(2, 4))
    local W = C:slice("1:2:3", ":")            -- rows with a step: a copy
    W:set(1, 1, 99)
    assert.are.equal(1, C(1, 1))
  end)
  it("keeps float32: views into the float32 parent, copies of its type", function()
    local C = B:astype("float32")
    local V = C:slice("1:2", "2:2:4")
    assert.are.equal("float32", V.dtype)
    assert.is_truthy(tostring(V):find("(view)", 1, true))
    V:set(2, 1, 0.1)
    assert.are.equal(0.10000000149011612, C(2, 2))                    -- float32(0.1), written through
    local W = C:slice("3:-2:1", {4, 1})                                -- reversed rows, a column list: a copy
    assert.are.equal("float32", W.dtype)
    assert.are.same({{12, 9}, {4, 1}}, W:totable())
    W:set(1, 1, 5)
    assert.are.equal(12, C(3, 4))
    assert.are.same({{1, 4}}, C:slice(1, la.matrix({{1, 0, 0, 1}}, {dtype = "float32"})):totable())   -- a float32 mask
    assert.are.same({0, 2}, {C:slice("2:1", "1:2"):shape()})
    assert.are.equal("float32", C:slice("2:1", "1:2").dtype)
  end)
  it("takes index lists (tables or matrices, repeats allowed) and 1/0 masks", function()
    assert.near({{10}, {2}}, B:slice({3, 1}, 2))
    assert.near({{1, 1}, {5, 5}, {9, 9}}, B:slice(nil, {1, 1}))
    assert.near({{5, 6, 7, 8}, {9, 10, 11, 12}}, B:slice(la.gt(B:col(1), 4)))     -- mask
    assert.near({{2, 4}}, B:slice(1, la.eq(la.matrix{{0, 1, 0, 1}}, 1)))
    assert.near({{9, 10, 11, 12}}, B:slice(la.vector{3}))                         -- index matrix
  end)
  it("reports indices and ranges out of range", function()
    assert.error_matches(function() B:slice(4) end, "linalg.slice: row index 4 out of range 1..3")
    assert.error_matches(function() B:slice(nil, "0:2") end, "linalg.slice: column range \"0:2\" out of range 1..4")
    assert.error_matches(function() B:slice("1:0:3") end, "linalg.slice: bad argument #2 (range step must not be 0)")
    assert.error_matches(function() B:slice("1-3") end, "linalg.slice: bad argument #2 (bad range \"1-3\"")
    assert.error_matches(function() B:slice({1, 5}) end, "linalg.slice: row index list: entry 2 is 5, expected an integer in 1..3")
    assert.error_matches(function() B:slice(la.vector{1.5}) end, "linalg.slice: row index 1.5 out of range 1..3")
  end)
end)

-- float32: every function above computes in its argument's type. Values
-- are compared with the float64 call on the same (float32-exact) values,
-- rounded to float32: moving elements is exact, and kron's products of two
-- float32 values are the float32 products.
describe("float32 in construction and shape", function()
  local F32 = {dtype = "float32"}
  local function f32(X) return la.astype(X, "float32") end
  local A32 = f32(la.matrix{{1, -2.5, 3}, {0.1, 5, 6}, {7, 8, 0.3}})
  local A64 = A32:astype("float64")               -- the float32 values, exactly
  local function same32(r32, r64, where)
    assert.are.equal("float32", r32.dtype, where)
    assert.are.same(f32(r64):totable(), r32:totable(), where)
  end
  it("arange, linspace and logspace take {dtype} (NumPy's dtype=): the float64 values rounded", function()
    for _, c in ipairs{{"arange", {1, 2, 0.3}}, {"arange", {4}}, {"linspace", {0, 1, 7}},
                       {"linspace", {0, 1}}, {"logspace", {0, 2, 5}}, {"logspace", {0, 3, 4, 2}}} do
      local f, args = la[c[1]], c[2]
      local a = {unpack(args)}
      a[#a + 1] = F32
      same32(f(unpack(a)), f(unpack(args)), c[1])
    end
    assert.are_not.same(la.linspace(0, 1, 7):totable(), la.linspace(0, 1, 7, F32):totable())   -- rounded
    assert.are.equal("float64", la.arange(3, {dtype = "float64"}).dtype)
    assert.are.equal("float32", la.full(2, 2, 0.1, F32).dtype)
    assert.error_matches(function() la.arange(3, {dtype = "int8"}) end,
      [[linalg.arange: option 'dtype' must be "float64" or "float32", got "int8"]], 1, true)
    assert.error_matches(function() la.linspace(0, 1, 3, {dtyp = "float32"}) end,
      "linalg.linspace: unknown option 'dtyp' (did you mean 'dtype'?)", 1, true)
  end)
  it("diag, triu, tril, tile, repmat, flip*, roll, circshift, vec: float32 in, float32 out", function()
    local calls = {
      {"diag", {}}, {"triu", {}}, {"triu", {-1}}, {"tril", {1}}, {"triu", {MININT}},
      {"tril", {MAXINT}}, {"tril", {MININT}}, {"tile", {2, 3}}, {"repmat", {1, 2}},
      {"flip", {}}, {"flip", {2}}, {"fliplr", {}}, {"flipud", {}}, {"roll", {1, 1}}, {"roll", {-4, 2}},
      {"circshift", {MININT, 2}}, {"vec", {}}, {"zeros_like", {}}, {"full_like", {0.1}},
    }
    for _, c in ipairs(calls) do
      same32(la[c[1]](A32, unpack(c[2])), la[c[1]](A64, unpack(c[2])), c[1])
      local S32 = A32:sub(2, 3, 1, 2)            -- a view with a leading dimension of 3
      same32(la[c[1]](S32, unpack(c[2])), la[c[1]](A64:sub(2, 3, 1, 2), unpack(c[2])), c[1] .. " of a view")
    end
    same32(la.diag(f32(la.vector{0.1, 2})), la.diag(la.vector{0.1, 2}), "diag of a vector")
    same32(la.diag(f32(la.matrix{{0.1, 2}})), la.diag(la.matrix{{0.1, 2}}), "diag of a row")
    assert.are.same({{0.10000000149011612, 0}, {0, 2}}, la.diag(f32(la.vector{0.1, 2})):totable())
    assert.are.same({{0, 0, 0}, {0.10000000149011612, 0, 0}, {7, 8, 0}}, la.tril(A32, -1):totable())
  end)
  it("kron and blkdiag: float32 when every argument is, float64 when any is float64", function()
    local B32 = f32(la.matrix{{0.1, -1}, {3, 0.7}})
    same32(la.kron(A32, B32), la.kron(A64, B32:astype("float64")), "kron")
    same32(la.blkdiag(A32, B32, A32:sub(1, 0, 1, 2)), la.blkdiag(A64, B32:astype("float64"), la.zeros(0, 2)), "blkdiag")
    local k = la.kron(A32, B32:astype("float64"))
    assert.are.equal("float64", k.dtype)
    assert.are.same(la.kron(A64, B32:astype("float64")):totable(), k:totable())
    assert.are.equal(0.10000000149011612 * 0.10000000149011612, k(3, 1))   -- A(2,1) B(1,1), in float64
    assert.are.equal("float64", la.blkdiag(A32, la.eye(2)).dtype)
    assert.are.equal("float64", la.blkdiag(la.eye(2), A32).dtype)
    assert.are.equal("float64", la.blkdiag().dtype)
    assert.are.same({{0.10000000149011612, 0}, {0, 2}}, la.blkdiag(f32(la.matrix{{0.1}}), {{2}}):totable())
  end)
  it("costs nothing on a 0 x 2^31-1 float32 matrix", function()
    local t = os.clock()
    local Z = la.zeros(0, 2 ^ 31 - 1, F32)
    for _, f in ipairs{"triu", "tril", "flip", "fliplr", "flipud", "vec", "zeros_like", "diag"} do
      assert.are.equal("float32", la[f](Z).dtype, f)
    end
    assert.are.same({0, 2 ^ 31 - 1}, {la.roll(Z, 5, 2):shape()})
    assert.are.same({0, 2 ^ 31 - 1}, {la.tile(Z, 7, 1):shape()})
    assert.are.same({0, 2 ^ 31 - 1}, {la.blkdiag(Z, la.zeros(0, 0, F32)):shape()})
    assert.are.same({0, 2 ^ 31 - 1}, {la.kron(Z, la.ones(3, 1, F32)):shape()})
    assert.is_true(os.clock() - t < 0.1, string.format("%.2f s CPU", os.clock() - t))
  end)
end)
