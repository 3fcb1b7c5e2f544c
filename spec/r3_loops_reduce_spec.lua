-- The vectorized reduction kernels (kernels/reduce.c) against plain-Lua
-- references: every awkward size around the vector widths (8 doubles, 16
-- floats, blocks of 32 and 128), views with ld > rows, float32 and float64,
-- NaN anywhere (the first NaN wins argmax/argmin), -0/+0 ties, Inf, and
-- norms at the ends of the double range.
local la = require "linalg"

local nan, inf = 0 / 0, math.huge
local negz = -1 / inf      -- -0.0 (Lua 5.1 folds the literal -0.0 to 0)

-- a rows x cols matrix of small integers (exact in float32, sums exact),
-- many ties; as a view with ld = rows + 3 when view is set
local function ints(rows, cols, seed, dtype, view)
  local P = la.zeros(rows + 3, cols + 1, {dtype = dtype})
  for j = 1, cols + 1 do
    for i = 1, rows + 3 do
      seed = (seed * 69069 + 12345) % 4294967296
      P:set(i, j, math.floor(seed / 16777216) % 23 - 11)
    end
  end
  if view then
    if rows == 0 then return la.zeros(0, cols, {dtype = dtype}) end
    return P:sub(2, rows + 1, 2, cols + 1)
  end
  return P:sub(1, rows, 1, cols):copy()
end

local function entries(A)
  local r, c = A:shape()
  local t = {}
  for j = 1, c do for i = 1, r do t[#t + 1] = {A:get(i, j), i, j} end end
  return t
end

-- reference: index in the list of the first NaN, else the first extreme
local function refarg(list, wantmax)
  local at
  for k, x in ipairs(list) do
    if x ~= x then return k end
    if not at or (wantmax and x > list[at]) or (not wantmax and x < list[at]) then at = k end
  end
  return at
end

local function line(A, dim, k)
  local r, c = A:shape()
  local t = {}
  if dim == 1 then for i = 1, r do t[i] = A:get(i, k) end
  else for j = 1, c do t[j] = A:get(k, j) end end
  return t
end

local function sumlist(t) local s = 0 for _, x in ipairs(t) do s = s + x end return s end

local sizes = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 67}

describe("vectorized reductions against plain Lua", function()
  for _, dtype in ipairs{"float64", "float32"} do
    for _, view in ipairs{false, true} do
      it(dtype .. (view and " views" or " matrices") .. ": max/min/argmax/argmin/sum along 1, 2 and whole", function()
        for _, rows in ipairs(sizes) do
          for _, cols in ipairs{1, 2, 3, 17, 67} do
            local A = ints(rows, cols, rows * 100 + cols, dtype, view)
            for dim = 1, 2 do
              local nk = dim == 1 and cols or rows
              local mx, mn, am, an, s = A:max(dim), A:min(dim), A:argmax(dim), A:argmin(dim), A:sum(dim)
              for k = 1, nk do
                local l = line(A, dim, k)
                local at = dim == 1 and {1, k} or {k, 1}
                local ia, in_ = refarg(l, true), refarg(l, false)
                assert.are.equal(l[ia], mx:get(at[1], at[2]))
                assert.are.equal(l[in_], mn:get(at[1], at[2]))
                assert.are.equal(ia, am:get(at[1], at[2]))
                assert.are.equal(in_, an:get(at[1], at[2]))
                assert.are.equal(sumlist(l), s:get(at[1], at[2]))     -- integers: exact
              end
            end
            local e, flat = entries(A), {}
            for k, t in ipairs(e) do flat[k] = t[1] end
            local k = refarg(flat, true)
            local i, j = A:argmax()
            assert.are.same({e[k][2], e[k][3]}, {i, j})
            assert.are.equal(flat[k], A:max())
            assert.are.equal(sumlist(flat), A:sum())
          end
        end
      end)
    end

    it(dtype .. ": the first NaN wins argmax/argmin at every position, along both dims", function()
      for _, n in ipairs{1, 2, 9, 17, 33, 67, 130, 300} do
        for _, p in ipairs{1, 2, 8, 9, 16, 17, 32, 33, n - 1, n} do
          if p >= 1 and p <= n then
            local v = ints(n, 1, n + p, dtype)
            v:set(p, 1, nan)
            if p + 3 <= n then v:set(p + 3, 1, nan) end
            assert.are.same({p, 1}, {v:argmax()})
            assert.are.same({p, 1}, {v:argmin()})
            assert.is_true(v:max() ~= v:max() and v:min() ~= v:min())
            local R = v.T:copy()                        -- 1 x n: along dim 2
            local M = la.hstack{v, v, v}.T:copy()        -- 3 x n rows
            assert.are.equal(p, R:argmax(2):get(1, 1))
            assert.are.equal(p, M:argmin(2):get(2, 1))
            assert.is_true(M:max(2):get(3, 1) ~= M:max(2):get(3, 1))
            assert.are.equal(p, la.hstack{v, v}:argmax(1):get(1, 2))
          end
        end
      end
    end)

    it(dtype .. ": Inf is an ordinary extreme; +-Inf rows along dim 2", function()
      local M = la.matrix({{1, inf, 2, inf}, {-inf, 3, -inf, 0}, {5, 6, 7, 8}}, {dtype = dtype})
      assert.are.same({2, 2, 4}, {M:argmax(2):get(1, 1), M:argmax(2):get(2, 1), M:argmax(2):get(3, 1)})
      assert.are.same({1, 1, 1}, {M:argmin(2):get(1, 1), M:argmin(2):get(2, 1), M:argmin(2):get(3, 1)})
      assert.are.equal(inf, M:max()); assert.are.equal(-inf, M:min())
      assert.are.equal(inf, M:max(2):get(1, 1)); assert.are.equal(-inf, M:min(2):get(2, 1))
    end)
  end

  it("-0 and +0: max gives +0, min -0 in any order; argmax the first (numpy 1.24: np.max([-0.0, 0.0]) = 0.0, np.min([0.0, -0.0]) = -0.0, np.argmax([-0.0, 0.0]) = 0)", function()
    local function sign(x) return 1 / x end
    for _, n in ipairs{2, 9, 40} do
      for p = 1, n do
        local a, b = la.zeros(n, 1), la.zeros(n, 1)
        for i = 1, n do a:set(i, 1, negz) end
        a:set(p, 1, 0.0); b:set(p, 1, negz)
        assert.are.equal(inf, sign(a:max())); assert.are.equal(-inf, sign(a:min()))
        assert.are.equal(inf, sign(b:max())); assert.are.equal(-inf, sign(b:min()))
        assert.are.equal(inf, sign(a.T:copy():max(2):get(1, 1)))
        assert.are.equal(-inf, sign(b.T:copy():min(2):get(1, 1)))
        assert.are.same({1, 1}, {a:argmax()})
      end
    end
  end)

  it("sums of non-integers within the pairwise bound (ceil(log2(n/128)) + 10) u sum|x|", function()
    for _, dtype in ipairs{"float64", "float32"} do
      for _, n in ipairs{5, 127, 128, 129, 1000, 4099} do
        local v = la.zeros(n, 1, {dtype = dtype})
        local ref, abs = 0, 0
        for i = 1, n do v:set(i, 1, 1 / (i + 0.5) - 0.3) end
        for i = 1, n do local x = v:get(i, 1); ref = ref + x; abs = abs + math.abs(x) end
        local bound = (math.log(n) / math.log(2) + 12) * 2 ^ -52 * abs + (dtype == "float32" and 2 ^ -24 * math.abs(ref) or 0)
        assert.is_true(math.abs(v:sum() - ref) <= bound, dtype .. " n=" .. n)
        local M = la.hstack{v, v, v}
        assert.is_true(math.abs(M.T:copy():sum(2):get(2, 1) - ref) <= (n / 128 + 130) * 2 ^ -52 * abs +
          (dtype == "float32" and 2 ^ -24 * math.abs(ref) or 0))
        assert.is_true(math.abs(M:mean(1):get(1, 3) - ref / n) <= 2 * bound / n)
      end
    end
  end)

  it("var and std along both dims as two passes", function()
    local M = la.matrix{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 4}}
    -- numpy 1.24: np.var([1..10]) = 8.25, np.var([2]*9 + [4], ddof=1) = 0.4
    assert.near(8.25, M:var(2):get(1, 1), 1e-14)
    assert.near(0.4, M:var(2, {ddof = 1}):get(2, 1), 1e-15)
    assert.near(math.sqrt(8.25), M.T:copy():std(1):get(1, 1), 1e-14)
  end)
end)

describe("norms without overflow or underflow", function()
  it("2-norm and Frobenius norm at 1e300 and 1e-300 (numpy 1.24 np.linalg.norm overflows: inf)", function()
    for _, s in ipairs{1e300, 1e-300, 1e-320, 1} do
      local v = la.zeros(1000, 1)
      for i = 1, 1000 do v:set(i, 1, s * (i % 7 - 3)) end
      -- sum of (i % 7 - 3)^2 over i = 1..1000: 142 full periods of 28, then i = 995..1000
      local q = 0
      for i = 1, 1000 do q = q + (i % 7 - 3) ^ 2 end
      local want = s * math.sqrt(q)
      assert.is_true(math.abs(la.norm(v) - want) <= 1e-14 * want + 1e-323, "scale " .. s)
      local A = v:reshape(100, 10)
      assert.is_true(math.abs(la.norm(A, "fro") - want) <= 1e-14 * want + 1e-323)
      local W = la.zeros(102, 11):sub(2, 101, 1, 10)        -- a view
      W:set(1, 1, 0)
      for j = 1, 10 do for i = 1, 100 do W:set(i, j, A:get(i, j)) end end
      assert.is_true(math.abs(la.norm(W, "fro") - want) <= 1e-14 * want + 1e-323)
      local rn = la.vecnorm(A, 2, 2)
      for i = 1, 100 do
        local r = 0
        for j = 1, 10 do r = r + (A:get(i, j) / s) ^ 2 end
        assert.is_true(math.abs(rn:get(i, 1) - s * math.sqrt(r)) <= 1e-14 * s * math.sqrt(r) + 1e-323)
      end
    end
  end)

  it("NaN and Inf in norms", function()
    local v = la.vector{1, inf, 2}
    assert.are.equal(inf, la.norm(v)); assert.are.equal(inf, la.norm(v:reshape(1, 3), "fro"))
    v:set(3, 1, nan)
    assert.is_true(la.norm(v) ~= la.norm(v))
    assert.is_true(la.norm(la.hstack{v, v}, "fro") ~= la.norm(la.hstack{v, v}, "fro"))
    assert.are.equal(0, la.norm(la.zeros(5, 1)))
    -- 1- and inf-norms of a matrix (numpy 1.24: np.linalg.norm(M, 1) = 9, inf: 10)
    local M = la.matrix{{1, -2, 3}, {-4, 5, -1}, {0, 2, 5}}
    assert.are.equal(9, la.norm(M, 1)); assert.are.equal(10, la.norm(M, inf))
    assert.are.equal(-inf, 1 / la.matrix{{0.0, negz}}:min()) -- min of -0/+0
  end)
end)
