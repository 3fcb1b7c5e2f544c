-- frombuffer and tobytes in bulk: elements already in the host's order are
-- copied (order "F") or transposed (order "C") as one block, and tobytes
-- hands back a matrix's storage (a view's columns packed first). Each
-- result is checked entry by entry against bytes written by lepack (the
-- same little-endian encoding as struct.pack / NumPy's tobytes), and the
-- bulk paths against the element loop they replace (a misaligned offset).
local lepack = require "lepack"
local la = require "linalg"

-- bytes of the m x n values v(i, j) in `order`, each packed by fmt
local function bytes_of(m, n, order, fmt, v)
  local t = {}
  if order == "C" then
    for i = 1, m do for j = 1, n do t[#t + 1] = lepack.pack(fmt, v(i, j)) end end
  else
    for j = 1, n do for i = 1, m do t[#t + 1] = lepack.pack(fmt, v(i, j)) end end
  end
  return table.concat(t)
end

local function check(A, m, n, dtype, v, what)
  assert.are.equal(dtype, A.dtype, what)
  assert.are.same({m, n}, {A:shape()}, what)
  for i = 1, m do for j = 1, n do
    local got, want = A:get(i, j), v(i, j)
    if dtype == "bool" then got = got and 1 or 0 end
    if got ~= want then
      error(("%s: (%d, %d) is %s, expected %s"):format(what, i, j, tostring(got), tostring(want)))
    end
  end end
end

-- distinct values, exact in float32 too
local function v(i, j) return i + 64 * j - 0.25 end

local SHAPES = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {17, 9}, {33, 40}}

describe("linalg.frombuffer in bulk", function()
  it("reads float64 and float32 in both orders, entry for entry", function()
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      for _, t in ipairs{{"<f8", "<d", "float64"}, {"<f4", "<f", "float32"}} do
        for _, order in ipairs{"C", "F"} do
          local what = ("%s %s %dx%d"):format(t[1], order, m, n)
          check(la.frombuffer(bytes_of(m, n, order, t[2], v), m, n, {dtype = t[1], order = order}),
                m, n, t[3], v, what)
        end
      end
    end
  end)

  it("gives the element loop's answer at a misaligned offset", function()
    for _, t in ipairs{{"<f8", "<d"}, {"<f4", "<f"}} do
      for _, order in ipairs{"C", "F"} do
        local b = bytes_of(17, 9, order, t[2], v)
        local aligned = la.frombuffer(b, 17, 9, {dtype = t[1], order = order})
        for off = 1, 7 do
          local B = la.frombuffer(("x"):rep(off) .. b, 17, 9, {dtype = t[1], order = order, offset = off})
          assert.are.same(aligned:totable(), B:totable(), t[1] .. " " .. order .. " offset " .. off)
        end
      end
    end
  end)

  it("reads any nonzero byte as true, in both orders", function()
    -- bytes 0, 1, 2, 255 cycling: true unless the byte is 0
    local function byte(i, j) return ((i - 1) * 5 + j) % 4 end
    local function truth(i, j) return byte(i, j) == 0 and 0 or 1 end
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      for _, order in ipairs{"C", "F"} do
        local t = {}
        local function put(i, j) t[#t + 1] = string.char(({0, 1, 2, 255})[byte(i, j) + 1]) end
        if order == "C" then for i = 1, m do for j = 1, n do put(i, j) end end
        else for j = 1, n do for i = 1, m do put(i, j) end end end
        local M = la.frombuffer(table.concat(t), m, n, {dtype = "|b1", order = order})
        check(M, m, n, "bool", truth, ("b1 %s %dx%d"):format(order, m, n))
        -- stored as 0 / 1: the bytes written back are the normalized ones
        local back = M:tobytes()
        for k = 1, #back do assert.is_true(back:byte(k) <= 1) end
      end
    end
  end)

  it("makes empty matrices from empty strings", function()
    for _, order in ipairs{"C", "F"} do
      assert.are.same({0, 3}, {la.frombuffer("", 0, 3, {order = order}):shape()})
      assert.are.same({4, 0}, {la.frombuffer("", 4, 0, {dtype = "<f4", order = order}):shape()})
    end
  end)
end)

describe("tobytes in bulk", function()
  it("writes the storage of float64, float32 and bool matrices", function()
    for _, s in ipairs(SHAPES) do
      local m, n = s[1], s[2]
      local A = la.frombuffer(bytes_of(m, n, "F", "<d", v), m, n, {order = "F"})
      assert.are.equal(bytes_of(m, n, "F", "<d", v), A:tobytes())
      assert.are.equal(bytes_of(m, n, "F", "<f", v), A:astype("float32"):tobytes())
      local M = la.gt(A, 20)
      local want = {}
      for j = 1, n do for i = 1, m do want[#want + 1] = v(i, j) > 20 and "\1" or "\0" end end
      assert.are.equal(table.concat(want), M:tobytes())
    end
  end)

  it("packs a view's columns (its leading dimension is the parent's)", function()
    local P = la.frombuffer(bytes_of(33, 40, "F", "<d", v), 33, 40, {order = "F"})
    for _, dtype in ipairs{"float64", "float32"} do
      local A = P:astype(dtype)
      local fmt = dtype == "float32" and "<f" or "<d"
      for _, r in ipairs{{2, 32, 3, 39}, {5, 5, 1, 40}, {1, 33, 7, 7}, {4, 3, 1, 40}} do
        local S = A:sub(r[1], r[2], r[3], r[4])
        local m, n = S:shape()
        local function w(i, j) return v(r[1] + i - 1, r[3] + j - 1) end
        assert.are.equal(bytes_of(m, n, "F", fmt, w), S:tobytes(),
                         dtype .. " view " .. table.concat(r, ","))
      end
    end
    local M = la.gt(P, 1000):sub(3, 20, 2, 30)
    local want = {}
    for j = 2, 30 do for i = 3, 20 do want[#want + 1] = v(i, j) > 1000 and "\1" or "\0" end end
    assert.are.equal(table.concat(want), M:tobytes())
  end)

  it("round-trips through frombuffer; C order is the transpose's bytes", function()
    for _, dtype in ipairs{"float64", "float32"} do
      local A = la.randn(37, 53, 5, {dtype = dtype})
      local descr = dtype == "float32" and "<f4" or "<f8"
      assert.are.same(A:totable(), la.frombuffer(A:tobytes(), 37, 53, {dtype = descr, order = "F"}):totable())
      assert.are.same(A:totable(), la.frombuffer(A:t():tobytes(), 37, 53, {dtype = descr}):totable())
    end
  end)
end)
