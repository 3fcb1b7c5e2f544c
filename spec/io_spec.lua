-- .npy and CSV input and output. Fixtures in spec/fixtures were written by
-- NumPy (see spec/fixtures/README.md); A = [[1.5, -2, 3.25], [4, 5.5, -6.75]].
local la = require "linalg"

local A = la.matrix{{1.5, -2, 3.25}, {4, 5.5, -6.75}}
local function fixture(name) return "spec/fixtures/" .. name .. ".npy" end
local tmp = os.tmpname()

local function numpy()
  return os.execute("/usr/bin/python3 -c 'import numpy' 2>/dev/null")
end

describe("linalg.load_npy", function()
  for _, name in ipairs{"f8_c", "f8_f", "f8_be", "f4", "v2", "v3"} do
    it("reads " .. name .. ".npy exactly", function()
      assert.is_true(la.load_npy(fixture(name)) == A)
    end)
  end

  it("converts integers and reads 1-D arrays as column vectors", function()
    assert.are.same({{1, -2}, {3, 4}}, la.load_npy(fixture("i4")):totable())
    assert.are.same({{7, -8, 9}}, la.load_npy(fixture("i8_be")):totable())
    assert.are.same({1, 2, 3}, la.load_npy(fixture("vec")):totable())
    assert.are.same({0, 3}, {la.load_npy(fixture("empty")):shape()})
  end)

  it("rejects what it cannot read, with the reason", function()
    local cases = {
      three_d = "3-D array (shape (2, 2, 2)) is not supported",
      object = "unsupported dtype '|O'",
      complex = "unsupported dtype '<c16'",
      truncated = "header says shape (2, 3) of '<f8' (48 bytes) but the file holds 43 bytes",
      badmagic = "bad magic (not a .npy file)",
      lies = "header says shape (3, 3) of '<f8' (72 bytes) but the file holds 48 bytes",
      missing = "No such file or directory",
    }
    for name, msg in pairs(cases) do
      assert.error_matches(function() la.load_npy(fixture(name)) end, msg)
      assert.error_matches(function() la.load_npy(fixture(name)) end, "linalg.load_npy: spec/fixtures/" .. name)
    end
    assert.error_matches(function() la.load_npy(42) end, "linalg.load_npy: bad argument #1 (path expected, got number)")
  end)
end)

describe("linalg.save_npy", function()
  it("round-trips exactly, views and special values included", function()
    local B = la.randn(7, 5, 3)
    B:set(1, 1, 0 / 0); B:set(2, 2, math.huge); B:set(3, 3, -0.0); B:set(4, 4, 4.9e-324)
    la.save_npy(B:sub(1, 6, 2, 5), tmp)
    local C = la.load_npy(tmp)
    assert.are.same({6, 4}, {C:shape()})
    for i = 1, 6 do for j = 1, 4 do
      local x, y = B(i, j + 1), C(i, j)
      assert.is_true(x == y or (x ~= x and y ~= y))
    end end
    la.save_npy(A, tmp)
    local f = io.open(tmp, "rb"); local s = f:read("a"); f:close()
    assert.are.equal(0, (#s - 48) % 64)                  -- header padded to 64 bytes
    assert.is_truthy(s:find("'fortran_order': True, 'shape': (2, 3)", 1, true))
  end)

  it("writes files NumPy reads (when NumPy is installed)", function()
    if not numpy() then pending("no NumPy for /usr/bin/python3") return end
    la.save_npy(A, tmp)
    local p = io.popen("/usr/bin/python3 -c \"import numpy as np; a = np.load('" .. tmp ..
                       "'); print(a.shape, repr(a.tolist()))\"")
    local out = p:read("a"); p:close()
    assert.are.equal("(2, 3) [[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]]\n", out)
  end)
end)

describe("linalg.load_csv and save_csv", function()
  it("round-trips exactly with 17 significant digits", function()
    local B = la.randn(20, 4, 9) * 1e-7 + 1 / 3
    B:set(1, 1, 0 / 0); B:set(1, 2, -math.huge)
    la.save_csv(B, tmp)
    local C = la.load_csv(tmp)
    assert.is_true(C(1, 1) ~= C(1, 1))
    assert.are.equal(-math.huge, C(1, 2))
    assert.is_true(C:sub(2, 20, 1, 4) == B:sub(2, 20, 1, 4))
  end)

  it("reads separators, headers, blank lines and CRLF", function()
    local f = io.open(tmp, "w"); f:write("a; b\r\n1; 2.5\r\n\r\n-3; 1e3\r\n"); f:close()
    local C, names = la.load_csv(tmp, {sep = ";", header = true})
    assert.are.same({{1, 2.5}, {-3, 1000}}, C:totable())
    assert.are.same({"a", "b"}, names)
    la.save_csv(C, tmp, {header = {"x", "y"}, sep = "\t"})
    local g = io.open(tmp); local s = g:read("a"); g:close()
    assert.are.equal("x\ty\n1\t2.5\n-3\t1000\n", s)
  end)

  it("names the row and column of a bad field and ragged rows", function()
    local f = io.open(tmp, "w"); f:write("1,2\n3,x\n"); f:close()
    assert.error_matches(function() la.load_csv(tmp) end, 'row 2, column 2 (line 2): "x" is not a number')
    f = io.open(tmp, "w"); f:write("1,2\n3\n"); f:close()
    assert.error_matches(function() la.load_csv(tmp) end, "row 2 (line 2) has 1 fields, expected 2")
    assert.error_matches(function() la.save_csv(A, tmp, {header = {"a"}}) end, "linalg.save_csv: header must be a table of 3 names")
  end)
end)
