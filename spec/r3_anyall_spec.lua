-- any / all over every entry stop at the first block of about 4096
-- entries that decides: the one entry that decides is put at every place
-- near a block's edge (whole columns per block, or pieces of a long
-- column), in all three element types and in views, and the answer is
-- checked against its definition (NumPy's any / all: NaN is true).
local la = require "linalg"

local function filled(m, n, dtype, x)
  if dtype == "bool" then return la.full(m, n, x):astype("bool") end
  return la.full(m, n, x, {dtype = dtype})
end

local function put(A, i, j, x)
  if A.dtype == "bool" then A:set(i, j, x ~= 0 and 1 or 0) else A:set(i, j, x) end
end

-- positions near the edges of the blocks any and all read
local function places(m, n)
  local t, len = {}, m * n
  for _, k in ipairs{1, 2, 4095, 4096, 4097, 8192, 8193, len - 1, len} do
    if k >= 1 and k <= len then t[#t + 1] = {(k - 1) % m + 1, math.floor((k - 1) / m) + 1} end
  end
  return t
end

describe("linalg.any and linalg.all over every entry", function()
  local SHAPES = {{1, 1}, {9000, 1}, {1, 9000}, {4096, 3}, {4097, 2}, {100, 100}, {3, 3000}, {41, 203}}
  for _, dtype in ipairs{"float64", "float32", "bool"} do
    it("finds the one entry that decides, wherever it is (" .. dtype .. ")", function()
      for _, s in ipairs(SHAPES) do
        local m, n = s[1], s[2]
        assert.is_false(la.any(filled(m, n, dtype, 0)))
        assert.is_true(la.all(filled(m, n, dtype, 1)))
        for _, p in ipairs(places(m, n)) do
          local what = ("%s %dx%d at (%d, %d)"):format(dtype, m, n, p[1], p[2])
          local Z = filled(m, n, dtype, 0)
          put(Z, p[1], p[2], dtype == "bool" and 1 or 0 / 0)     -- NaN is true
          assert.is_true(la.any(Z), what)
          assert.are.equal(m * n == 1, la.all(Z), what)
          local O = filled(m, n, dtype, 1)
          put(O, p[1], p[2], 0)
          assert.are.equal(m * n > 1, la.any(O), what)
          assert.is_false(la.all(O), what)
          assert.are.equal(m * n - 1, la.count_nonzero(O), what)
        end
      end
    end)
  end

  it("reads views through their parent's leading dimension", function()
    for _, dtype in ipairs{"float64", "float32", "bool"} do
      local P = filled(5000, 6, dtype, 0)
      put(P, 1, 1, 1); put(P, 5000, 6, 1)         -- outside the view below
      local V = P:sub(2, 4999, 2, 5)
      assert.is_false(la.any(V), dtype)
      put(P, 4999, 5, 1)                          -- the view's last entry
      assert.is_true(la.any(V), dtype)
      local Q = filled(5000, 6, dtype, 1)
      put(Q, 1, 2, 0); put(Q, 5000, 5, 0)
      assert.is_true(la.all(Q:sub(2, 4999, 2, 5)), dtype)
      put(Q, 2, 2, 0)                             -- the view's first entry
      assert.is_false(la.all(Q:sub(2, 4999, 2, 5)), dtype)
    end
  end)

  it("answers false / true on empty matrices", function()
    for _, s in ipairs{{0, 0}, {0, 5}, {5, 0}} do
      assert.is_false(la.any(la.zeros(s[1], s[2])))
      assert.is_true(la.all(la.zeros(s[1], s[2])))
    end
  end)
end)
