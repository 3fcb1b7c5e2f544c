-- float64 <-> float32 conversion (src/kernels/convert.c): rounding to
-- nearest, ties to even, overflow to inf, underflow to zero or subnormal,
-- NaN and -0.0 kept; views (leading dimension past the rows) and long
-- contiguous runs (vector bodies and tails) give the same as one entry at
-- a time. Expected values: IEEE 754 binary32 rounding (numpy 1.24:
-- np.float32(x) for each x below gives the same).
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge
local cases = {
  {1 + 2 ^ -24, 1},                      -- a tie: to even
  {1 + 3 * 2 ^ -24, 1 + 2 ^ -22},        -- a tie: to even, upward
  {1 + 2 ^ -24 + 2 ^ -40, 1 + 2 ^ -23},  -- past the tie
  {3.4028235677973366e38, INF},          -- FLT_MAX + half an ulp: overflows
  {3.4028234663852886e38, 3.4028234663852886e38},
  {1e-46, 0},                            -- below half the least subnormal
  {2 ^ -149, 2 ^ -149},                  -- the least subnormal
  {-0.0, -0.0}, {INF, INF}, {-INF, -INF}, {0.1, 0.100000001490116119384765625},
}

describe("float32 conversion", function()
  it("rounds as IEEE binary32", function()
    local t = {}
    for i, c in ipairs(cases) do t[i] = {c[1]} end
    local S = la.matrix(t):astype("float32")
    for i, c in ipairs(cases) do
      local got = S:get(i, 1)
      assert.equal(c[2], got)
      assert.equal(1 / c[2], 1 / got)            -- the sign of zero
    end
    local N = la.matrix{{NAN}}:astype("float32")
    assert.is_true(N:get(1, 1) ~= N:get(1, 1))
  end)

  it("gives the same on views and long runs as entry by entry", function()
    for _, m in ipairs{1, 7, 16, 33, 67, 1000} do
      local P = la.randn(m + 3, 5, m) * 1e3
      local V = P:sub(2, m + 1, 1, 5)          -- leading dimension m + 3
      local S, C = V:astype("float32"), V:copy():astype("float32")
      for i = 1, m, math.max(1, math.floor(m / 13)) do
        for j = 1, 5 do
          local want = la.matrix({{V:get(i, j)}}):astype("float32"):get(1, 1)
          assert.equal(want, S:get(i, j))
          assert.equal(want, C:get(i, j))
        end
      end
      local D = S:astype("float64")            -- back: exact
      assert.is_true(la.all(la.eq(D:astype("float32"), S)))
      assert.equal("float64", D.dtype)
    end
  end)
end)
