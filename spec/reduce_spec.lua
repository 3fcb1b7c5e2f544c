-- Reductions along a dimension, scans and sorting (larith.c).
-- Reference values: NumPy 1.24.2 (Debian's python3-numpy) on
-- A = [[4,-1,2.5],[3,7,-6],[0.5,2,9],[-2,8,1]]; axis=0 is dim 1, axis=1 is dim 2,
-- and NumPy's 0-based indices are shifted by one.
local la = require "linalg"

local nan = 0 / 0
local A = la.matrix{{4, -1, 2.5}, {3, 7, -6}, {0.5, 2, 9}, {-2, 8, 1}}
local function row(t) return la.matrix{t} end
local function col(t) return la.vector(t) end

describe("reductions along a dimension", function()
  local ref = {
    sum = {{5.5, 16.0, 6.5}, {5.5, 4.0, 11.5, 7.0}},
    mean = {{1.375, 4.0, 1.625}, {1.8333333333333333, 1.3333333333333333, 3.8333333333333335, 2.3333333333333335}},
    prod = {{-12.0, -112.0, -135.0}, {-10.0, -126.0, 9.0, -16.0}},
    min = {{-2.0, -1.0, -6.0}, {-1.0, -6.0, 0.5, -2.0}},
    max = {{4.0, 8.0, 9.0}, {4.0, 7.0, 9.0, 8.0}},
    std = {{2.3284920012746446, 3.6742346141747673, 5.331217028034031},
           {2.094967514996089, 5.436502143433363, 3.704351795148811, 4.189935029992178}},
    var = {{5.421875, 13.5, 28.421875},
           {4.388888888888888, 29.555555555555554, 13.722222222222221, 17.555555555555554}},
    argmin = {{4, 1, 2}, {2, 3, 1, 1}},
    argmax = {{1, 4, 3}, {1, 2, 3, 2}},
  }
  for name, want in pairs(ref) do
    it(name .. " matches NumPy along both dims", function()
      assert.near(row(want[1]), la[name](A, 1), 1e-14)
      assert.near(col(want[2]), A[name](A, 2), 1e-14)
    end)
  end

  it("over all entries", function()
    assert.are.equal(28, A:sum())
    assert.are.equal(-181440, A:prod())                       -- np.prod(A)
    assert.near(4.1449433718152955, A:std(), 1e-14)           -- np.std(A)
    assert.near(18.742424242424242, A:var{ddof = 1}, 1e-14)   -- np.var(A, ddof=1)
    local i, j = A:argmax()                                    -- unravel_index: (2, 2)
    assert.are.same({3, 3}, {i, j})
    i, j = A:argmin()
    assert.are.same({2, 3}, {i, j})
  end)

  it("std and var take ddof (Octave's default is ddof = 1)", function()
    -- np.std(A, axis=0, ddof=1)
    assert.near(row{2.688710967483613, 4.242640687119285, 6.155959172487528}, A:std(1, {ddof = 1}), 1e-14)
    assert.error_matches(function() A:var(1, {ddof = 4}) end,
      "linalg.var: ddof = 4 leaves no degrees of freedom in 4 entries")
    assert.error_matches(function() A:std(1, {dof = 1}) end, "unknown option 'dof' (did you mean 'ddof'?)")
    assert.error_matches(function() A:std(1, {ddof = -1}) end, "linalg.std: option 'ddof' must be >= 0")
    assert.error_matches(function() A:sum(1, {ddof = 1}) end, "linalg.sum: unknown option 'ddof'")
  end)

  it("work on views", function()
    local V = A:sub(2, 4, 2, 3)
    assert.near(row{17, 4}, V:sum(1))
    assert.near(col{-6, 2, 1}, V:min(2))
    assert.are.equal(21, V:sum())
    assert.near(la.std(V:copy()), la.std(V), 1e-15)
  end)

  it("propagate NaN; argmin/argmax point at the first NaN (NumPy)", function()
    local N = la.matrix{{1, nan}, {nan, 2}, {3, 0}}
    local m = N:max(1)
    assert.is_true(m(1) ~= m(1) and m(2) ~= m(2))
    assert.near(row{2, 1}, N:argmax(1))
    assert.near(col{2, 1, 2}, N:argmin(2))
    assert.is_true(N:sum() ~= N:sum())
  end)

  it("empty: sum 0 and prod 1; the rest an error; an empty other dim is fine", function()
    local E = la.zeros(0, 3)
    assert.near(row{0, 0, 0}, E:sum(1))
    assert.near(row{1, 1, 1}, E:prod(1))
    assert.are.equal(1, E:prod())
    assert.are.same({0, 1}, {E:max(2):shape()})
    assert.error_matches(function() E:max(1) end, "linalg.max: max of an empty dimension")
    assert.error_matches(function() E:argmin() end, "linalg.argmin: argmin of an empty matrix")
    assert.error_matches(function() E:std() end, "linalg.std: std of an empty matrix")
    assert.error_matches(function() A:mean(3) end, "linalg.mean: bad argument #2 (dim must be 1 or 2)")
  end)
end)

describe("cumsum and cumprod", function()
  it("match NumPy along both dims", function()
    assert.near({{4.0, -1.0, 2.5}, {7.0, 6.0, -3.5}, {7.5, 8.0, 5.5}, {5.5, 16.0, 6.5}}, A:cumsum(1))
    assert.near({{4.0, 3.0, 5.5}, {3.0, 10.0, 4.0}, {0.5, 2.5, 11.5}, {-2.0, 6.0, 7.0}}, A:cumsum(2))
    assert.near({{4.0, -1.0, 2.5}, {12.0, -7.0, -15.0}, {6.0, -14.0, -135.0}, {-12.0, -112.0, -135.0}}, A:cumprod(1))
    assert.near({{4.0, -4.0, -10.0}, {3.0, 21.0, -126.0}, {0.5, 1.0, 9.0}, {-2.0, -16.0, -16.0}}, A:cumprod(2))
  end)
  it("default to the length of a vector, else down columns (Octave)", function()
    assert.near(row{1, 3, 6}, la.cumsum(row{1, 2, 3}))
    assert.near(col{1, 3, 6}, la.cumsum{1, 2, 3})
    assert.near(A:cumsum(1), A:cumsum())
    assert.are.same({0, 2}, {la.cumsum(la.zeros(0, 2)):shape()})
  end)
  it("keep a zero's sign as NumPy's scans (cumsum from the first entry; minimum/maximum.accumulate)", function()
    -- NumPy 1.24: np.cumsum([-0., -0.]) is [-0., -0.]; np.cumsum([-0., 0.]) [-0., 0.];
    -- np.minimum.accumulate([-0., 0.]) [-0., 0.]; np.maximum.accumulate([0., -0.]) [0., -0.];
    -- np.minimum.accumulate([1., nan, 0.]) [1., nan, nan]
    local inf = math.huge
    -- zeros made at run time: 5.1 and 5.2 keep one constant for 0.0 and -0.0
    local pz = 0.0
    local nz = -pz
    local function signs(M)
      local t = {}
      for i = 1, M:numel() do t[i] = 1 / M(i) end
      return t
    end
    for _, dt in ipairs{"float64", "float32"} do
      local o = {dtype = dt}
      assert.are.same({-inf, -inf}, signs(la.cumsum(la.matrix({nz, nz}, o))))
      assert.are.same({-inf, inf}, signs(la.cumsum(la.matrix({nz, pz}, o))))
      assert.are.same({-inf, inf}, signs(la.cummin(la.matrix({nz, pz}, o))))
      assert.are.same({inf, -inf}, signs(la.cummax(la.matrix({pz, nz}, o))))
      assert.are.same({inf, -inf}, signs(la.cummin(la.matrix({{pz, nz}}, o), 2)))
      local m = la.cummin(la.matrix({1, 0 / 0, 0}, o))
      assert.is_true(m(1) == 1 and m(2) ~= m(2) and m(3) ~= m(3))
      local M = la.cummax(la.matrix({0 / 0, 5}, o))
      assert.is_true(M(1) ~= M(1) and M(2) ~= M(2))
      assert.are.same({1, 3, 3, 3}, la.cummax(la.matrix({1, 3, 2, 3}, o)):totable())
    end
  end)
end)

describe("sort and argsort", function()
  it("match NumPy (stable; NaN last)", function()
    assert.near({{-2.0, -1.0, -6.0}, {0.5, 2.0, 1.0}, {3.0, 7.0, 2.5}, {4.0, 8.0, 9.0}}, (A:sort(1)))
    -- np.argsort(A, axis=1, kind='stable') + 1
    assert.near({{2, 3, 1}, {3, 1, 2}, {1, 2, 3}, {1, 3, 2}}, A:argsort(2))
    local s, i = la.sort{3, nan, 1, 2}                    -- np.sort: [1, 2, 3, nan]
    assert.near(col{1, 2, 3}, s:sub(1, 3, 1, 1)); assert.is_true(s(4) ~= s(4))
    assert.near(col{3, 4, 1, 2}, i)
    assert.near(col{2, 4, 1, 3}, la.argsort{2, 1, 2, 1})  -- np.argsort(kind='stable'): [1,3,0,2]
  end)
  it("sorts descending with NaN first (Octave's 'descend'), ties in order", function()
    local s, i = la.sort(row{2, nan, 5, 2}, {descending = true})
    assert.is_true(s(1) ~= s(1))
    assert.near(row{5, 2, 2}, s:sub(1, 1, 2, 4)); assert.near(row{2, 3, 1, 4}, i)
    assert.error_matches(function() la.sort(A, 1, {decending = true}) end,
      "linalg.sort: unknown option 'decending' (did you mean 'descending'?)")
    assert.error_matches(function() la.sort(A, 1, {descending = 1}) end,
      "linalg.sort: option 'descending' must be true or false, got number")
  end)
end)

describe("vecnorm", function()
  it("matches np.linalg.norm(A, ord, axis)", function()
    assert.near(row{5.408326913195984, 10.862780491200215, 11.146748404803978}, la.vecnorm(A), 1e-14)
    assert.near(col{7.5, 16.0, 11.5, 11.0}, la.vecnorm(A, 1, 2))
    assert.near(row{4, 8, 9}, la.vecnorm(A, math.huge, 1))
    assert.error_matches(function() la.vecnorm(A, 0 / 0) end, "linalg.vecnorm: bad argument #2 (order is NaN)")
  end)
end)

describe("float32 reductions, scans and sorts", function()
  -- A's entries are exact in float32, so both calls see the same numbers;
  -- sums accumulate in double and results are stored as float32 (rtol 2^-24)
  local A32 = A:astype("float32")
  local function same32(want, got, what)
    assert.are.equal("float32", got.dtype, what)
    assert.near(want, got, 2 ^ -23)
  end

  it("give float32 lines with the float64 values rounded; argmin/argmax float64", function()
    for _, name in ipairs{"sum", "mean", "prod", "min", "max", "var", "std"} do
      for dim = 1, 2 do same32(la[name](A, dim), la[name](A32, dim), name .. " dim " .. dim) end
      assert.near(la[name](A), la[name](A32), 2 ^ -23)
    end
    for _, name in ipairs{"argmin", "argmax"} do
      for dim = 1, 2 do
        local I = la[name](A32, dim)
        assert.are.equal("float64", I.dtype)
        assert.are.same(la[name](A, dim):totable(), I:totable())
      end
      assert.are.same({la[name](A)}, {la[name](A32)})
    end
    -- np.mean(A.astype(np.float32), axis=1): float32 means
    same32(col{1.8333333730697632, 1.3333333730697632, 3.8333332538604736, 2.3333332538604736}, A32:mean(2))
    assert.are.equal(1.8333333730697632, A32:mean(2)(1))
  end)

  it("accumulate in double: 2^24 + 1 + 1 + 1 + 1 is 2^24 + 4 (float32 adds would lose every 1)", function()
    local x = la.vector({2 ^ 24, 1, 1, 1, 1}, {dtype = "float32"})
    assert.are.equal(16777220, x:sum())                -- np.sum(x, dtype=np.float64)
    assert.are.equal(16777220, x:sum(1)(1))
    -- np.cumsum(x, dtype=np.float64).astype(np.float32); np.cumsum(x) gives 2^24 five times
    local c = x:cumsum()
    assert.are.equal("float32", c.dtype)
    assert.are.same({16777216, 16777216, 16777218, 16777220, 16777220}, c:totable())
    assert.are.equal(1, la.var(la.vector({2 ^ 24 + 2, 2 ^ 24}, {dtype = "float32"})))
  end)

  it("cumsum, cumprod and sort keep float32; sort's I and argsort are float64", function()
    for dim = 1, 2 do
      same32(A:cumsum(dim), A32:cumsum(dim), "cumsum")
      same32(A:cumprod(dim), A32:cumprod(dim), "cumprod")
      local s64, i64 = A:sort(dim, {descending = dim == 2})
      local s32, i32 = A32:sort(dim, {descending = dim == 2})
      assert.are.equal("float32", s32.dtype)
      assert.are.same(s64:totable(), s32:totable())
      assert.are.equal("float64", i32.dtype)
      assert.are.same(i64:totable(), i32:totable())
      assert.are.equal("float64", A32:argsort(dim).dtype)
      assert.are.same(A:argsort(dim):totable(), A32:argsort(dim):totable())
    end
  end)

  it("work on float32 views and keep NaN rules", function()
    local V = A32:sub(2, 4, 2, 3)
    assert.are.equal(21, V:sum())
    same32(row{17, 4}, V:sum(1))
    assert.near(la.std(A:sub(2, 4, 2, 3)), la.std(V), 1e-15)
    local N = la.matrix({{1, nan}, {nan, 2}, {3, 0}}, {dtype = "float32"})
    assert.are.same({2, 1}, {N:argmax()})
    assert.are.same(row{2, 1}:totable(), N:argmax(1):totable())
    local s = la.sort(N, 1)
    assert.are.equal(3, s(2, 1)); assert.is_true(s(3, 1) ~= s(3, 1))
    local E = la.zeros(0, 3, {dtype = "float32"})
    assert.are.equal("float32", E:sum(1).dtype)
    assert.error_matches(function() E:max(1) end, "linalg.max: max of an empty dimension")
  end)
end)
