-- Hostile cases for this round's changes: row sums four columns at a time,
-- the LuaJIT method lookup and its error messages. Every case has a known
-- answer (exact arithmetic) or compares two ways to one result.
local la = require "linalg"

describe("linalg.sum along dim 2 (float32)", function()
  -- README: float32 sums are accumulated in double and rounded once, so a
  -- row sum is the sum of the same row as a column or a vector
  it("adds in double: {2^24, 1, 1, 0} sums to 2^24 + 2 (a float32 number)", function()
    local F = la.matrix({{2 ^ 24, 1, 1, 0}, {2 ^ 24, 1, 1, 0}}, {dtype = "float32"})
    assert.equal(2 ^ 24 + 2, la.sum(F, 2):get(1, 1))
    assert.equal(2 ^ 24 + 2, la.sum(F:t(), 1):get(1, 1))
    assert.equal((2 ^ 24 + 2) / 4, la.mean(F, 2):get(2, 1))
  end)

  it("agrees with the sum down the columns of the transpose at every vector width", function()
    -- 1 + k 2^-24 is exact in double, then rounded once to float32; in
    -- float32 1 + 2^-24 alone rounds to 1
    for _, m in ipairs{2, 7, 8, 9, 16, 17, 33} do
      for _, n in ipairs{4, 5, 8, 9, 130} do
        local F = la.zeros(m, n, {dtype = "float32"}) + 2 ^ -24
        for i = 1, m do F:set(i, 1, 1) end
        local r, c = la.sum(F, 2), la.sum(F:t(), 1)
        local want = la.matrix({{1 + (n - 1) * 2 ^ -24}}, {dtype = "float32"}):get(1, 1)
        for i = 1, m do
          assert.equal(c:get(1, i), r:get(i, 1))
          assert.equal(want, r:get(i, 1))
        end
      end
    end
  end)
end)

describe("linalg.matrix's unknown-field message", function()
  local LUA = require("interp").lua
  -- the message in a fresh interpreter (5.4 seeds its string hashes anew
  -- each run, so the module table's traversal order changes)
  local function fresh(code)
    local p = io.popen(string.format("LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH='%s' "
      .. LUA .. " -e %q 2>&1", package.cpath, code))
    local out = p:read("*a")
    p:close()
    return out
  end

  it("suggests the same name every run: of equally close names, the first in byte order", function()
    -- 'eps' is two edits from abs, cos, exp, eye, ...: 'abs' comes first
    local code = "local la = require 'linalg'; print(select(2, pcall(function() return la.ones(1, 1).eps end)))"
    for _ = 1, 6 do
      assert.equal("linalg.matrix: no method or field 'eps' (did you mean 'abs'?)\n", fresh(code))
    end
    local ok, err = pcall(function() return la.ones(1, 1).eps end)
    assert.is_false(ok)
    assert.equal("linalg.matrix: no method or field 'eps' (did you mean 'abs'?)", err)
  end)
end)

describe("linalg.matrix's fields T and dtype", function()
  it("are the whole key: a key with an embedded zero byte is no field", function()
    local A = la.ones(2, 3)
    assert.equal(3, (A.T:shape()))
    assert.equal("float64", A.dtype)
    local ok, err = pcall(function() return A["T\0x"] end)
    assert.is_false(ok)
    assert.matches("^linalg%.matrix: no method or field 'T'", err)
    ok = pcall(function() return A["dtype\0"] end)
    assert.is_false(ok)
  end)
end)

-- a view of a bool matrix copied column by column (kernels/copy.c): bytes,
-- not floats (the fuzzer's finding: read as floats, 4 bytes an entry, past
-- the column's end)
describe("copies of bool views", function()
  it("copy, astype and reshape of a bool view move bytes", function()
    for _, m in ipairs{1, 3, 7, 16, 33, 65} do
      local P = la.gt(la.randn(m + 3, 5, m), 0)
      local V = P:sub(2, m + 1, 2, 4)              -- leading dimension m + 3
      local C = V:copy()
      assert.equal("bool", C.dtype)
      for i = 1, m do
        for j = 1, 3 do assert.equal(P:get(i + 1, j + 1), C:get(i, j)) end
      end
      local F = V:astype("float64")
      for i = 1, m do assert.equal(P:get(i + 1, 2) and 1 or 0, F:get(i, 1)) end
    end
  end)
end)

