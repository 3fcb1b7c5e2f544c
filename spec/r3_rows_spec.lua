-- Reductions along rows (dim 2) of tall matrices: the kernels take the
-- rows in strips (4 KiB of a column: 512 rows of float64, 1024 of float32)
-- and write a float64 result in place, so heights around one and two
-- strips, in both types, are checked row by row
-- against each reduction's definition on small integers (exact), with a
-- NaN, an Inf and a -0 / +0 tie in rows of the later strips.
local la = require "linalg"

local function entry(i, j) return ((i * 37 + j * 11) % 23) - 11 end

local function build(m, n, dtype)
  local A = la.zeros(m, n, {dtype = dtype})
  for i = 1, m do for j = 1, n do A:set(i, j, entry(i, j)) end end
  return A
end

local function same(a, b) return a == b or (a ~= a and b ~= b) end

describe("row reductions of tall matrices", function()
  for _, dtype in ipairs{"float64", "float32"} do
    for _, m in ipairs{511, 512, 513, 1023, 1024, 1025, 1100} do
      for _, n in ipairs{1, 3, 10} do
        it(("%s %dx%d: sum, mean, prod, max, min, argmax, ptp, var"):format(dtype, m, n), function()
          local A = build(m, n, dtype)
          local special = {}
          if m > 700 and n > 1 then
            A:set(600, 2, 0 / 0); special[600] = true
            A:set(700, 1, math.huge); special[700] = true
            -- -0 made at run time: Lua 5.1 folds the constant -0.0 into 0
            for j = 1, n do A:set(650, j, j == 1 and -1 / math.huge or 0) end; special[650] = true
          end
          if m > 1050 and n > 1 then A:set(1060, n, 0 / 0); special[1060] = true end   -- float32's 2nd strip
          local S, M, P, X, N, I, T, V = A:sum(2), A:mean(2), A:prod(2), A:max(2), A:min(2),
            A:argmax(2), la.ptp(A, 2), A:var(2)
          for i = 1, m do
            local s, p, mx, mn, at = 0, 1, -math.huge, math.huge, 1
            local row = {}
            for j = 1, n do
              local x = A:get(i, j)
              row[j] = x
              s = s + x; p = p * x
              if x ~= x then
                if mx == mx then at = j end
                mx, mn = x, x
              elseif mx == mx then
                if x > mx then mx, at = x, j end
                if x < mn then mn = x end
              end
            end
            local what = ("%s %dx%d row %d"):format(dtype, m, n, i)
            assert.is_true(same(s, S:get(i, 1)), what .. " sum")
            assert.is_true(same(s / n, M:get(i, 1)) or math.abs(s / n - M:get(i, 1)) < 1e-6, what .. " mean")
            assert.is_true(same(p, P:get(i, 1)), what .. " prod")
            assert.is_true(same(mx, X:get(i, 1)), what .. " max")
            assert.is_true(same(mn, N:get(i, 1)), what .. " min")
            assert.are.equal(at, I:get(i, 1), what .. " argmax")
            assert.is_true(same(mx - mn, T:get(i, 1)), what .. " ptp")
            if not special[i] then
              local mean, d = s / n, 0
              for j = 1, n do d = d + (row[j] - mean) ^ 2 end
              assert.is_true(math.abs(d / n - V:get(i, 1)) <= 1e-6 * (1 + d / n), what .. " var")
            end
          end
          if special[650] then
            -- the largest of {-0, +0, ...}: +0 (IEEE 754-2019 maximum), whatever the order
            assert.are.equal(math.huge, 1 / X:get(650, 1))
            assert.are.equal(-math.huge, 1 / N:get(650, 1))
          end
        end)
      end
    end
  end
end)

-- max / min / ptp over every entry of a view go a column at a time: the
-- same answers as of the view's packed copy (NaN wins; of -0 and +0 the
-- largest is +0 and the smallest -0, in whichever column either is)
describe("extremes of views over every entry", function()
  local negzero = -1 / math.huge           -- made at run time (Lua 5.1 folds -0.0)
  local function same(a, b) return (a ~= a and b ~= b) or (a == b and 1 / a == 1 / b) end
  for _, dtype in ipairs{"float64", "float32"} do
    it(dtype .. ": NaN, Inf, signed zeros in any column", function()
      local cases = {
        function(P) end,
        function(P) P:set(5, 7, 0 / 0) end,
        function(P) P:set(2, 2, 0 / 0); P:set(9, 9, math.huge) end,
        function(P) P:set(3, 4, -math.huge) end,
      }
      for c, prep in ipairs(cases) do
        local P = la.zeros(12, 11, {dtype = dtype})
        for i = 1, 12 do for j = 1, 11 do P:set(i, j, entry(i, j) / 4) end end
        prep(P)
        local V = P:sub(2, 10, 2, 10)
        local C = V:copy()
        local what = dtype .. " case " .. c
        assert.is_true(same(C:max(), V:max()), what .. " max")
        assert.is_true(same(C:min(), V:min()), what .. " min")
        assert.is_true(same(la.ptp(C), la.ptp(V)), what .. " ptp")
      end
      -- all zeros, one +0 (max) or one -0 (min) somewhere: its sign wins
      for _, at in ipairs{{2, 2}, {10, 10}, {6, 3}} do
        local Z = la.zeros(12, 11, {dtype = dtype})
        for i = 1, 12 do for j = 1, 11 do Z:set(i, j, negzero) end end
        Z:set(at[1], at[2], 0)
        assert.are.equal(math.huge, 1 / Z:sub(2, 10, 2, 10):max())
        local Y = la.zeros(12, 11, {dtype = dtype})
        Y:set(at[1], at[2], negzero)
        assert.are.equal(-math.huge, 1 / Y:sub(2, 10, 2, 10):min())
        assert.are.equal(math.huge, 1 / Y:sub(2, 10, 2, 10):max())
      end
    end)
  end
end)

-- max / min down columns (dim 1) take every column's position in one
-- kernel call: NaN wins, a zero's sign follows the -0 / +0 rule, float32
-- results are float32; each column against its own line's answer
describe("column extremes", function()
  local negzero = -1 / math.huge
  local function same(a, b) return (a ~= a and b ~= b) or (a == b and 1 / a == 1 / b) end
  for _, dtype in ipairs{"float64", "float32"} do
    it(dtype .. ": NaN, Inf, signed zeros, views", function()
      for _, m in ipairs{1, 3, 10, 130} do
        local P = la.zeros(m + 2, 9, {dtype = dtype})
        for i = 1, m + 2 do for j = 1, 9 do P:set(i, j, entry(i, j) / 4) end end
        P:set(2, 2, 0 / 0); P:set(m + 1, 3, math.huge); P:set(2, 4, -math.huge)
        for i = 1, m + 2 do P:set(i, 5, negzero); P:set(i, 6, 0) end
        P:set(m + 1, 5, 0); P:set(m + 1, 6, negzero)          -- +0 last / -0 last
        for _, A in ipairs{P, P:sub(2, m + 1, 1, 9)} do
          local X, N = A:max(1), A:min(1)
          assert.are.equal(dtype, X.dtype)
          for j = 1, 9 do
            local col = A:sub(1, A:shape(), j, j):copy()
            assert.is_true(same(col:max(), X:get(1, j)), ("%s m %d max col %d"):format(dtype, m, j))
            assert.is_true(same(col:min(), N:get(1, j)), ("%s m %d min col %d"):format(dtype, m, j))
          end
        end
      end
      -- the -0 / +0 rule itself: of {-0, +0} in either order, max +0, min -0
      local Z = la.zeros(2, 2, {dtype = dtype})
      Z:set(1, 1, negzero); Z:set(2, 2, negzero)
      for j = 1, 2 do
        assert.are.equal(math.huge, 1 / Z:max(1):get(1, j))
        assert.are.equal(-math.huge, 1 / Z:min(1):get(1, j))
      end
    end)
  end
end)
