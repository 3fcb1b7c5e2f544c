-- find and nonzero (src/elementwise.c): float64 column vectors of indices,
-- written straight into the result, entries found branch-free a column at
-- a time. Expected values: Octave's find (column-major, 1-based, a column
-- vector) and numpy 1.24's np.nonzero (row-major; + 1 here) of the matrix
-- below; NaN counts as nonzero, -0.0 does not.
local la = require "linalg"

local NAN = 0 / 0
local T = {{0, 1, NAN}, {-0.0, 2, 0}, {3, 0, 0}}

-- a k x 1 float64 vector's entries as a table, after checking its shape
local function entries(v)
  assert.equal("float64", v.dtype)
  local m, n = v:shape()
  assert.equal(1, n)
  local t = v:totable()
  assert.equal(m, #t)
  return t
end

describe("find and nonzero", function()
  for _, dt in ipairs{"float64", "float32", "bool"} do
    it(dt .. ": known answers, on a matrix and on a view of it", function()
      local A = la.matrix(T):astype(dt)
      local P = la.zeros(5, 4):astype(dt)
      P:sub(2, 4, 2, 4):set(":", ":", A)
      for _, M in ipairs{A, P:sub(2, 4, 2, 4)} do
        assert.same({3, 4, 5, 7}, entries(la.find(M)))
        assert.same({3, 4}, entries(la.find(M, 2)))
        assert.same({3, 4, 5, 7}, entries(la.find(M, 99)))
        assert.same({}, entries(la.find(M, 0)))
        local r, c = la.nonzero(M)
        assert.same({1, 1, 2, 3}, entries(r))       -- np.nonzero: (array([0, 0, 1, 2]), array([1, 2, 1, 0]))
        assert.same({2, 3, 2, 1}, entries(c))
      end
    end)
  end

  -- a plain scan of M: its column-major linear indices, and the rows and
  -- columns in row-major order
  local function scan(M)
    local m, n = M:shape()
    local nz = function(i, j) local x = M:get(i, j); return x ~= 0 and x ~= false end
    local wf, wr, wc = {}, {}, {}
    for j = 1, n do for i = 1, m do if nz(i, j) then wf[#wf + 1] = (j - 1) * m + i end end end
    for i = 1, m do for j = 1, n do if nz(i, j) then wr[#wr + 1] = i; wc[#wc + 1] = j end end end
    return wf, wr, wc
  end

  it("agrees with a plain scan on random patterns, shapes and counts", function()
    for _, s in ipairs{{1, 1}, {7, 3}, {33, 17}, {100, 100}, {1, 300}, {300, 1}} do
      for _, p in ipairs{"all", -1, 0.3, 1, "none"} do    -- all, most, some, few, none nonzero
        local M = p == "all" and la.ones(s[1], s[2], {dtype = "bool"})
               or p == "none" and la.zeros(s[1], s[2], {dtype = "bool"})
               or la.gt(la.randn(s[1], s[2], s[1] * s[2]), p)
        local wf, wr, wc = scan(M)
        assert.same(wf, entries(la.find(M)))
        local r, c = la.nonzero(M)
        assert.same(wr, entries(r))
        assert.same(wc, entries(c))
        assert.equal(la.count_nonzero(M), la.find(M):rows())
        -- the first k: counts around a column's length, the total and past it
        for _, k in ipairs{1, s[1] - 1, s[1], s[1] + 1, #wf - 1, #wf + s[1] + 1} do
          if k >= 0 then
            local first = {}
            for i = 1, math.min(k, #wf) do first[i] = wf[i] end
            assert.same(first, entries(la.find(M, k)))
          end
        end
      end
    end
  end)

  it("indices select what the mask does", function()
    local A = la.randn(6, 5, 11)
    local M = la.gt(A, 0)
    local a = A:reshape(-1)
    assert.same(a:slice(M:reshape(-1), 1):totable(), a:slice(la.find(M), 1):totable())
  end)

  it("gives 0 x 1 vectors for empty matrices", function()
    assert.same({0, 1}, {la.find(la.zeros(0, 3)):shape()})
    local r, c = la.nonzero(la.zeros(3, 0))
    assert.same({0, 1}, {r:shape()})
    assert.same({0, 1}, {c:shape()})
  end)
end)
