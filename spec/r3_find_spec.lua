-- find and nonzero (src/elementwise.c): tables filled in place from the
-- counts, entries found branch-free a column at a time. Expected values:
-- Octave's find (column-major, 1-based) and numpy 1.24's np.nonzero
-- (row-major; + 1 here) of the matrix below; NaN counts as nonzero, -0.0
-- does not.
local la = require "linalg"

local NAN = 0 / 0
local T = {{0, 1, NAN}, {-0.0, 2, 0}, {3, 0, 0}}

describe("find and nonzero", function()
  for _, dt in ipairs{"float64", "float32"} do
    it(dt .. ": known answers, on a matrix and on a view of it", function()
      local A = la.matrix(T, {dtype = dt})
      local P = la.zeros(5, 4, {dtype = dt})
      P:sub(2, 4, 2, 4):fill(0)
      for i = 1, 3 do for j = 1, 3 do P:set(i + 1, j + 1, T[i][j]) end end
      for _, M in ipairs{A, P:sub(2, 4, 2, 4)} do
        assert.same({3, 4, 5, 7}, la.find(M))
        assert.same({3, 4}, la.find(M, 2))
        assert.same({}, la.find(M, 0))
        local r, c = la.nonzero(M)
        assert.same({1, 1, 2, 3}, r)       -- np.nonzero: (array([0, 0, 1, 2]), array([1, 2, 1, 0]))
        assert.same({2, 3, 2, 1}, c)
      end
    end)
  end

  it("agrees with a plain scan on random patterns and shapes", function()
    for _, s in ipairs{{1, 1}, {7, 3}, {33, 17}, {100, 100}} do
      local M = la.gt(la.randn(s[1], s[2], s[1] * s[2]), 0.3)
      local f = la.find(M)
      local rr, cc = select(1, la.nonzero(M)), select(2, la.nonzero(M))
      local wf, wr, wc = {}, {}, {}
      for j = 1, s[2] do
        for i = 1, s[1] do if M:get(i, j) ~= 0 and M:get(i, j) ~= false then wf[#wf + 1] = (j - 1) * s[1] + i end end
      end
      for i = 1, s[1] do
        for j = 1, s[2] do
          if M:get(i, j) ~= 0 and M:get(i, j) ~= false then wr[#wr + 1] = i; wc[#wc + 1] = j end
        end
      end
      assert.same(wf, f)
      assert.same(wr, rr)
      assert.same(wc, cc)
      assert.equal(la.count_nonzero(M), #f)
    end
  end)

  it("gives empty tables for empty matrices", function()
    assert.same({}, la.find(la.zeros(0, 3)))
    local r, c = la.nonzero(la.zeros(3, 0))
    assert.same({}, r)
    assert.same({}, c)
  end)
end)
