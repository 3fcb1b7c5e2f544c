-- .npy and CSV input and output. Fixtures in spec/fixtures were written by
-- NumPy (see spec/fixtures/README.md); A = [[1.5, -2, 3.25], [4, 5.5, -6.75]].
local lepack = require "lepack"                  -- string.pack on every Lua
local NEGZERO = -1 / math.huge   -- -0.0 made at run time: Lua 5.1 and 5.2 merge the constants -0.0 and 0
local LUA = require("interp").lua      -- the Lua running the specs: children run it too
local sh = require("interp").sh
local la = require "linalg"

local A = la.matrix{{1.5, -2, 3.25}, {4, 5.5, -6.75}}
local function fixture(name) return "spec/fixtures/" .. name .. ".npy" end
local tmp = os.tmpname()

local function numpy()
  return sh("/usr/bin/python3 -c 'import numpy' 2>/dev/null")
end

describe("save_csv of a matrix without columns", function()
  it("writes no rows and costs nothing however many rows it has (found by the fuzzer)", function()
    local tmp = os.tmpname()
    local t = os.clock()
    la.save_csv(la.zeros(2 ^ 31 - 1, 0), tmp)
    assert.is_true(os.clock() - t < 1)
    local f = io.open(tmp, "rb")
    assert.are.equal("", f:read("*a"))
    f:close()
    os.remove(tmp)
  end)
end)

describe("linalg.load_npy", function()
  for _, name in ipairs{"f8_c", "f8_f", "f8_be", "v2", "v3"} do
    it("reads " .. name .. ".npy exactly", function()
      local B = la.load_npy(fixture(name))
      assert.are.equal("float64", B.dtype)
      assert.is_true(B == A)
    end)
  end
  for _, name in ipairs{"f4", "f4_f"} do
    it("reads " .. name .. ".npy exactly, as float32", function()
      local B = la.load_npy(fixture(name))
      assert.are.equal("float32", B.dtype)
      assert.are.same(A:totable(), B:totable())
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
    B:set(1, 1, 0 / 0); B:set(2, 2, math.huge); B:set(3, 3, NEGZERO); B:set(4, 4, 4.9e-324)
    la.save_npy(B:sub(1, 6, 2, 5), tmp)
    local C = la.load_npy(tmp)
    assert.are.same({6, 4}, {C:shape()})
    for i = 1, 6 do for j = 1, 4 do
      local x, y = B(i, j + 1), C(i, j)
      assert.is_true(x == y or (x ~= x and y ~= y))
    end end
    la.save_npy(A, tmp)
    local f = io.open(tmp, "rb"); local s = f:read("*a"); f:close()
    assert.are.equal(0, (#s - 48) % 64)                  -- header padded to 64 bytes
    assert.is_truthy(s:find("'fortran_order': True, 'shape': (2, 3)", 1, true))
  end)

  it("writes files NumPy reads (when NumPy is installed)", function()
    if not numpy() then pending("no NumPy for /usr/bin/python3") return end
    la.save_npy(A, tmp)
    local p = io.popen("/usr/bin/python3 -c \"import numpy as np; a = np.load('" .. tmp ..
                       "'); print(a.shape, repr(a.tolist()))\"")
    local out = p:read("*a"); p:close()
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

  it("writes each entry as string.format('%.17g') does, in pieces of any length", function()
    -- the text save_csv wrote in Lua before its rows were formatted in C
    local function expect(A, sep)
      local lines = {}
      for i = 1, A:rows() do
        local row = {}
        for j = 1, A:cols() do
          local x = A(i, j)
          row[j] = x ~= x and "nan" or x == math.huge and "inf" or x == -math.huge and "-inf"
            or string.format("%.17g", x)
        end
        lines[i] = table.concat(row, sep) .. "\n"
      end
      return table.concat(lines)
    end
    local function written(A, sep)
      la.save_csv(A, tmp, {sep = sep})
      local g = io.open(tmp, "rb"); local s = g:read("*a"); g:close()
      return s
    end
    local E = la.matrix{{0 / 0, math.huge, -math.huge}, {-0.0, 5e-324, 1.7976931348623157e308},
                        {1 / 3, -2, 1e21}, {123456789012345678, 0.1, -1e-300}}
    assert.are.equal(expect(E, ","), written(E, ","))
    assert.are.equal(expect(E:astype("float32"), " ; "), written(E:astype("float32"), " ; "))
    local V = la.randn(9, 8, 4):slice("2:7", "3:6")            -- a view
    assert.are.equal(expect(V, "\t"), written(V, "\t"))
    -- 100000 rows of one column: three pieces of about 1 MB
    local x = la.randn(100000, 1, 5) * 1e5
    assert.are.equal(expect(x, ","), written(x, ","))
    assert.are.equal("", written(la.zeros(0, 3), ","))
  end)

  it("reads separators, headers, blank lines and CRLF", function()
    local f = io.open(tmp, "w"); f:write("a; b\r\n1; 2.5\r\n\r\n-3; 1e3\r\n"); f:close()
    local C, names = la.load_csv(tmp, {sep = ";", header = true})
    assert.are.same({{1, 2.5}, {-3, 1000}}, C:totable())
    assert.are.same({"a", "b"}, names)
    la.save_csv(C, tmp, {header = {"x", "y"}, sep = "\t"})
    local g = io.open(tmp); local s = g:read("*a"); g:close()
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

-- A .npy file from a header dictionary and data bytes (format 1.0).
local function npy(dict, data, path)
  path = path or os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write("\147NUMPY\1\0", lepack.pack("<I2", #dict + 1), dict, "\n", data)
  f:close()
  return path
end
local function header(shape, extra)
  return "{'descr': '<f8', 'fortran_order': False, 'shape': " .. shape .. ", " .. (extra or "") .. "}"
end

describe("the .npy header", function()
  it("is read as the Python literal it is", function()
    local d = lepack.pack("<ddd", 1, 2, 3)
    assert.are.same({1, 2, 3}, la.load_npy(npy(header("(3,)"), d)):totable())
    assert.are.same({{1, 2, 3}}, la.load_npy(npy(header("(1, 3)"), d)):totable())
    -- any whitespace between tokens, double quotes, no trailing comma, key order free
    assert.are.same({{1, 2, 3}}, la.load_npy(npy('{ "shape" :( 1 ,3 ) ,\t"fortran_order":True,"descr":"<f8"}', d)):totable())
    -- Python 2's long suffix in format 1.0 files, as NumPy's own reader accepts it
    assert.are.same({1, 2, 3}, la.load_npy(npy(header("(3L,)"), d)):totable())
  end)

  it("takes the last of duplicate keys, as Python's dict (and NumPy) do", function()
    local d = lepack.pack("<ddd", 1, 2, 3)
    local p = npy("{'descr': '<i4', 'descr': '<f8', 'fortran_order': False, 'shape': (3, 1), 'shape': (1, 3)}", d)
    assert.are.same({{1, 2, 3}}, la.load_npy(p):totable())
  end)

  it("does not take a key from inside another string", function()
    local d = lepack.pack("<ddd", 1, 2, 3)
    local p = npy("{'fortran_order': False, 'shape': (3,), 'x': \"'descr': '<f8'\", 'descr': '<f8'}", d)
    assert.error_matches(function() la.load_npy(p) end, "malformed header: unexpected key 'x'", 1, true)
    p = npy("{'fortran_order': False, 'shape': (3,), 'notes': \"'descr': '<f8', \"}", d)
    assert.error_matches(function() la.load_npy(p) end, "malformed header", 1, true)
  end)

  it("rejects what is not that literal", function()
    local d = lepack.pack("<ddd", 1, 2, 3)
    for _, case in ipairs{
      {header("(3,,,)"), "a shape entry must be an integer"},
      {header("((3,),)"), "a shape entry must be an integer"},
      {header("(3)"), "(n) is not a tuple"},
      {header("(,)"), "a shape entry must be an integer"},
      {header("(-3,)"), "a shape entry must be an integer"},
      {header("(03,)"), "leading zero"},
      {header("(3.0,)"), "bad integer"},
      {header("(3,)", "'extra': 1, "), "unexpected key 'extra'"},
      {"{'descr': '<f8', 'shape': (3,)}", "'fortran_order' must be True or False"},
      {"{'descr': '<f8', 'fortran_order': 0, 'shape': (3,)}", "'fortran_order' must be True or False"},
      {"{'descr': '<f8', 'fortran_order': Truest, 'shape': (3,)}", "unsupported value"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': [3]}", "unsupported value"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,)} x", "text after the dictionary"},
      {"{'descr': '<f8' 'fortran_order': False, 'shape': (3,)}", "expected ','"},
      {"{'descr': '<f\\x38', 'fortran_order': False, 'shape': (3,)}", "bad string"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,)", "expected ',' at byte 56"},
      {"", "expected '{'"},
    } do
      assert.error_matches(function() la.load_npy(npy(case[1], d)) end, case[2], 1, true)
      assert.error_matches(function() la.load_npy(npy(case[1], d)) end, "linalg.load_npy: ", 1, true)
    end
  end)

  it("checks the shape against the data without overflowing", function()
    local d = string.rep("\0", 24)
    -- 99999999999999999999 wrapped to a small number once: 24 bytes loaded as 3 x 1
    assert.error_matches(function() la.load_npy(npy(header("(99999999999999999999, 3)"), d)) end,
      "shape (99999999999999999999, 3): 99999999999999999999 is too large", 1, true)
    -- each entry fits, their product in bytes does not
    assert.error_matches(function() la.load_npy(npy(header("(100000000000000000, 1000)"), d)) end,
      "shape (100000000000000000, 1000) of '<f8' overflows a byte count", 1, true)
    assert.error_matches(function() la.load_npy(npy(header("(576460752303423488, 2)"), d)) end,
      "overflows a byte count", 1, true)
    assert.error_matches(function() la.npy_info(npy(header("(2305843009213693952, 1)"), d)) end,
      "linalg.npy_info: ", 1, true)
    -- zero elements whatever the other extent: the data must be empty
    assert.error_matches(function() la.load_npy(npy(header("(0, 99999999999)"), d)) end,
      "header says shape (0, 99999999999) of '<f8' (0 bytes) but the file holds 24 bytes", 1, true)
    assert.error_matches(function() la.load_npy(npy(header("(0, 99999999999)"), "")) end,
      "99999999999 columns exceed the limit of 2147483647", 1, true)
    assert.are.same({0, 5}, {la.load_npy(npy(header("(0, 5)"), "")):shape()})
  end)
end)

describe("linalg.npy_info", function()
  it("reads the header only", function()
    assert.are.same({shape = {2, 3}, dtype = "<f8", fortran_order = false}, la.npy_info(fixture("f8_c")))
    assert.are.same({shape = {2, 3}, dtype = "<f8", fortran_order = true}, la.npy_info(fixture("f8_f")))
    assert.are.same({shape = {7, 3}, dtype = ">f4", fortran_order = true}, la.npy_info(fixture("rows_f4_f")))
    assert.are.same({shape = {7, 1}, dtype = "<f8", fortran_order = false}, la.npy_info(fixture("rows_vec")))
    assert.are.same({shape = {0, 3}, dtype = "<f8", fortran_order = false}, la.npy_info(fixture("empty")))
  end)

  it("checks the file as load_npy does", function()
    assert.error_matches(function() la.npy_info(fixture("lies")) end,
      "linalg.npy_info: spec/fixtures/lies.npy: header says shape (3, 3) of '<f8' (72 bytes) but the file holds 48 bytes", 1, true)
    assert.error_matches(function() la.npy_info(fixture("three_d")) end, "3-D array", 1, true)
    assert.error_matches(function() la.npy_info("spec/fixtures") end, "linalg.npy_info: spec/fixtures is not a regular file (a directory)", 1, true)
    assert.error_matches(function() la.npy_info({}) end, "linalg.npy_info: bad argument #1 (path expected, got table)", 1, true)
  end)
end)

describe("linalg.load_npy by rows", function()
  -- the fixtures hold A(i, j) = 10 i + j, 7 x 3 (the vector: its first column)
  local function expect(first, last, ncols)
    local t = {}
    for i = first, last do
      local r = {}
      for j = 1, ncols do r[j] = 10 * i + j end
      t[#t + 1] = r
    end
    return t
  end
  for _, name in ipairs{"rows_c", "rows_f", "rows_f4_f", "rows_f4_c", "rows_i8_f"} do
    it("reads any run of rows of " .. name .. ".npy (NumPy wrote it)", function()
      local dtype = name:find("f4") and "float32" or "float64"
      assert.are.same(expect(1, 7, 3), la.load_npy(fixture(name)):totable())
      for first = 1, 8 do
        for last = first - 1, 7 do
          local B = la.load_npy(fixture(name), {rows = {first, last}})
          assert.are.equal(dtype, B.dtype)
          assert.are.same({last - first + 1, 3}, {B:shape()})
          if last >= first then assert.are.same(expect(first, last, 3), B:totable()) end
        end
      end
    end)
  end

  it("agrees with NumPy's own slicing (when NumPy is installed)", function()
    if not numpy() then pending("no NumPy for /usr/bin/python3") return end
    local d = os.tmpname(); os.remove(d); os.execute("mkdir " .. d)
    -- random files in both orders and several dtypes, and NumPy's slice of each
    local py = "import numpy as np; r = np.random.default_rng(5); A = r.standard_normal((57, 4)) * 1e3\n" ..
      "for name, B in [('c', A), ('f', np.asfortranarray(A)), ('f4', np.asfortranarray(A.astype('>f4'))),\n" ..
      "                ('i4', A.astype('<i4')), ('i8f', np.asfortranarray(A.astype('>i8')))]:\n" ..
      "    np.save('" .. d .. "/' + name + '.npy', B)\n" ..
      "    np.save('" .. d .. "/' + name + '_s.npy', np.ascontiguousarray(B[16:33].astype('<f8')))\n"
    local f = io.open(d .. "/gen.py", "w"); f:write(py); f:close()
    assert(sh("/usr/bin/python3 " .. d .. "/gen.py"))
    for _, name in ipairs{"c", "f", "f4", "i4", "i8f"} do
      local B = la.load_npy(d .. "/" .. name .. ".npy", {rows = {17, 33}})
      assert.are.equal(name == "f4" and "float32" or "float64", B.dtype)
      assert.is_true(B:astype("float64") == la.load_npy(d .. "/" .. name .. "_s.npy"), name)
      assert.are.same({57, 4}, la.npy_info(d .. "/" .. name .. ".npy").shape)
    end
    os.execute("rm -r " .. d)
  end)

  it("reads rows of a 1-D array", function()
    assert.are.same({31, 41}, la.load_npy(fixture("rows_vec"), {rows = {3, 4}}):totable())
  end)

  it("rejects rows outside the file and bad option values", function()
    local f = fixture("rows_c")
    assert.error_matches(function() la.load_npy(f, {rows = {0, 2}}) end, "linalg.load_npy: spec/fixtures/rows_c.npy: rows {0, 2} outside 1..7", 1, true)
    assert.error_matches(function() la.load_npy(f, {rows = {5, 8}}) end, "rows {5, 8} outside 1..7", 1, true)
    assert.error_matches(function() la.load_npy(f, {rows = {5, 3}}) end, "rows {5, 3} outside 1..7", 1, true)
    assert.error_matches(function() la.load_npy(f, {rows = {1.5, 3}}) end, "option 'rows' must be {first, last} (two integers)", 1, true)
    assert.error_matches(function() la.load_npy(f, {rows = {1}}) end, "option 'rows' must be {first, last}", 1, true)
    assert.error_matches(function() la.load_npy(f, {rows = 3}) end, "linalg.load_npy: option 'rows' must be a table, got number", 1, true)
    assert.error_matches(function() la.load_npy(f, {row = {1, 2}}) end, "linalg.load_npy: unknown option 'row' (did you mean 'rows'?)", 1, true)
  end)

  it("seeks to the rows: a slice of a 48 GB (sparse) file loads", function()
    -- 3e9 x 2 float64 written as a sparse file: only the header and the
    -- last two rows hold data; reading the file whole is impossible here
    local m = 3000000000
    for _, fortran in ipairs{false, true} do
      local dict = string.format("{'descr': '<f8', 'fortran_order': %s, 'shape': (%d, 2), }",
                                 fortran and "True" or "False", m)
      local path = npy(dict, "")
      local f = assert(io.open(path, "r+b"))
      local start = f:seek("end")
      if fortran then
        f:seek("set", start + (m - 2) * 8); f:write(lepack.pack("<dd", 1, 2))
        f:seek("set", start + (2 * m - 2) * 8); f:write(lepack.pack("<dd", 3, 4))
      else
        f:seek("set", start + (m - 2) * 16); f:write(lepack.pack("<dddd", 1, 3, 2, 4))
      end
      if not f:close() then os.remove(path); pending("no sparse 48 GB file here"); return end
      assert.are.same({shape = {m, 2}, dtype = "<f8", fortran_order = fortran}, la.npy_info(path))
      assert.are.same({{1, 3}, {2, 4}}, la.load_npy(path, {rows = {m - 1, m}}):totable())
      assert.are.same({{0, 0}}, la.load_npy(path, {rows = {5, 5}}):totable())
      assert.error_matches(function() la.load_npy(path) end,
        "3000000000 rows exceed the limit of 2147483647; read it in slices with {rows = {first, last}}", 1, true)
      os.remove(path)
    end
  end)
end)

-- load_npy reads the data straight into the matrix, save_npy writes it
-- from the matrix (src/bytes.c): the paths by layout and dtype
describe("the .npy data path", function()
  local util = require "linalg.util"
  local A = la.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}}

  it("writes a view column by column and reads any rows of it back", function()
    local path = os.tmpname()
    local big = la.randn(9, 7, 3)
    local V = big:slice("2:6", "3:5")        -- 5 x 3, leading dimension 9
    for _, W in ipairs{V, V:astype("float32"), la.gt(V, 0)} do
      la.save_npy(W, path)
      local B = la.load_npy(path)
      assert.are.equal(W.dtype, B.dtype)
      assert.are.same(W:totable(), B:totable())
      -- Fortran order, rows 2..4: a run per column at a stride of 5 entries
      assert.are.same(W:slice("2:4", ":"):totable(), la.load_npy(path, {rows = {2, 4}}):totable())
      assert.are.equal(W:tobytes(), B:tobytes())
    end
    os.remove(path)
  end)

  it("reads every byte order and dtype through its conversion", function()
    -- A^T's bytes (C order of A) as each dtype; NumPy's np.save(A.astype(dt)) holds these
    local cases = {{"<f8", "<d"}, {">f8", ">d"}, {"<f4", "<f"}, {">f4", ">f"},
                   {"<i4", "<i4"}, {">i8", ">i8"}}
    for _, c in ipairs(cases) do
      for _, fortran in ipairs{false, true} do
        local data = {}
        local m, n = A:shape()
        for a = 1, fortran and n or m do
          for b = 1, fortran and m or n do
            local v = fortran and A(b, a) or A(a, b)
            data[#data + 1] = lepack.pack(c[2], math.floor(v) == v and c[1]:find("i") and math.floor(v) or v)
          end
        end
        local dict = string.format("{'descr': '%s', 'fortran_order': %s, 'shape': (4, 3), }", c[1],
                                   fortran and "True" or "False")
        local path = npy(dict, table.concat(data))
        local B = la.load_npy(path)
        assert.are.equal(c[1]:find("f4") and "float32" or "float64", B.dtype, c[1])
        assert.are.same(A:totable(), B:totable(), c[1])
        assert.are.same(A:slice("2:3", ":"):totable(), la.load_npy(path, {rows = {2, 3}}):totable(), c[1])
        os.remove(path)
      end
    end
  end)

  it("reads bool bytes other than 0 and 1 as true, whichever the order", function()
    for _, fortran in ipairs{"True", "False"} do
      local path = npy("{'descr': '|b1', 'fortran_order': " .. fortran .. ", 'shape': (2, 2), }", "\0\7\255\1")
      local B = la.load_npy(path)
      assert.are.equal("bool", B.dtype)
      assert.are.equal("\0\1\1\1", B:tobytes():gsub("[\2-\255]", "?"))
      os.remove(path)
    end
  end)

  it("names a file shorter than the runs it is asked to read", function()
    local path = npy(header("(2, 2)"), lepack.pack("<dddd", 1, 2, 3, 4))
    assert.error_matches(function()
      util.withfile(path, "load_npy", 1, function(h)
        return util.readmatrix(h, 2, 2, "<f8", false, 1e4, 0, path, "load_npy")
      end)
    end, "linalg.load_npy: " .. path .. ": the file changed while being read", 1, true)
    os.remove(path)
  end)
end)

describe("reading and writing files", function()
  local A2 = la.matrix{{1, 2}, {3, 4}}

  it("names a directory instead of failing inside", function()
    assert.error_matches(function() la.load_npy("spec") end, "linalg.load_npy: spec is not a regular file (a directory)", 1, true)
    assert.error_matches(function() la.load_csv("spec") end, "linalg.load_csv: spec is not a regular file (a directory)", 1, true)
    assert.error_matches(function() la.save_npy(A2, "spec") end, "linalg.save_npy: spec: Is a directory", 1, true)
    assert.error_matches(function() la.save_csv(A2, "spec") end, "linalg.save_csv: spec: Is a directory", 1, true)
  end)

  it("reports a full device instead of succeeding", function()
    assert.error_matches(function() la.save_npy(A2, "/dev/full") end, "linalg.save_npy: /dev/full: No space left on device", 1, true)
    assert.error_matches(function() la.save_csv(A2, "/dev/full") end, "linalg.save_csv: /dev/full: No space left on device", 1, true)
    -- a device is written in place, never replaced
    local f = assert(io.open("/dev/full", "rb")); assert.are.equal("\0\0", f:read(2)); f:close()
    la.save_csv(A2, "/dev/null")
  end)

  -- Runs code in a child Lua whose files may not grow past 512 bytes (the
  -- write fails with EFBIG; SIGXFSZ ignored); returns its output.
  local function limited(code)
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write(string.format("package.path = %q\npackage.cpath = %q\n", package.path, package.cpath),
            'local la = require "linalg"\n', code)
    f:close()
    local p = io.popen("sh -c 'trap \"\" XFSZ; ulimit -f 1; exec " .. LUA .. " " .. script .. "' 2>&1")
    local out = p:read("*a"); p:close()
    os.remove(script)
    return out
  end
  local function listing(dir)
    local p = io.popen("ls -A " .. dir); local s = p:read("*a"); p:close()
    return s
  end

  it("leaves the old file, and no temporary, when a write fails", function()
    local dir = os.tmpname(); os.remove(dir); os.execute("mkdir " .. dir)
    for _, call in ipairs{"la.save_npy(la.ones(100, 100), '%s')", "la.save_csv(la.ones(100, 100), '%s')"} do
      local target = dir .. "/out"
      local f = io.open(target, "w"); f:write("old"); f:close()
      local out = limited("print(pcall(function() " .. call:format(target) .. " end))")
      assert.is_truthy(out:find("false\tlinalg.save_%a+: " .. dir .. "/out: File too large\n"), out)
      f = io.open(target); assert.are.equal("old", f:read("*a")); f:close()
      assert.are.equal("out\n", listing(dir))
      os.remove(target)
      out = limited("print(pcall(function() " .. call:format(target) .. " end))")
      assert.is_truthy(out:find("File too large"), out)
      assert.are.equal("", listing(dir))                -- no file at all
    end
    -- and a write that succeeds replaces the file whole
    local target = dir .. "/out"
    local f = io.open(target, "w"); f:write(string.rep("x", 5000)); f:close()
    la.save_csv(A2, target)
    f = io.open(target); assert.are.equal("1,2\n3,4\n", f:read("*a")); f:close()
    assert.are.equal("out\n", listing(dir))
    os.remove(target); os.remove(dir)
  end)
end)

describe("CSV options", function()
  it("are checked: unknown keys, types, separators and header names", function()
    assert.error_matches(function() la.save_csv(A, tmp, {sep = {}}) end, "linalg.save_csv: option 'sep' must be a string, got table", 1, true)
    assert.error_matches(function() la.save_csv(A, tmp, {header = {{}, "b", "c"}}) end, "linalg.save_csv: header entry 1 must be a string or a number, got table", 1, true)
    assert.error_matches(function() la.save_csv(A, tmp, {header = {"a", "b,c", "d"}}) end, "header entry 2 (\"b,c\") contains the separator or a line break", 1, true)
    assert.error_matches(function() la.save_csv(A, tmp, {sep = "."}) end, "linalg.save_csv: option 'sep' must be a non-empty string without digits", 1, true)
    assert.error_matches(function() la.save_csv(A, tmp, {sep = ""}) end, "option 'sep' must be a non-empty string", 1, true)
    assert.error_matches(function() la.save_csv(A, tmp, {hedaer = {"a", "b", "c"}}) end, "linalg.save_csv: unknown option 'hedaer' (did you mean 'header'?)", 1, true)
    assert.error_matches(function() la.load_csv(tmp, {seperator = ";"}) end, "linalg.load_csv: unknown option 'seperator'", 1, true)
    assert.error_matches(function() la.load_csv(tmp, {header = 1}) end, "linalg.load_csv: option 'header' must be true or false, got number", 1, true)
    assert.error_matches(function() la.load_csv(tmp, {sep = "\n"}) end, "linalg.load_csv: option 'sep' must be a non-empty string without line breaks", 1, true)
    la.save_csv(A, tmp, {sep = " ; ", header = {"a", "b", 3}})
    local B, names = la.load_csv(tmp, {sep = ";", header = true})
    assert.is_true(A == B)
    assert.are.same({"a", "b", "3"}, names)
  end)
end)

describe("float32 .npy files", function()
  -- f4_tenths.npy: NumPy's float32 values of [[0.1, 1/3], [2/3, 1e-8], [3.4e38, -0.7]],
  -- printed as float64 by T.astype('f8').tolist() (spec/fixtures/README.md)
  local tenths = {{0.10000000149011612, 0.3333333432674408}, {0.6666666865348816, 9.99999993922529e-09},
                  {3.3999999521443642e+38, -0.699999988079071}}

  it("load_npy keeps <f4 as float32, values exactly NumPy's", function()
    local T = la.load_npy(fixture("f4_tenths"))
    assert.are.equal("float32", T.dtype)
    assert.are.same(tenths, T:totable())
    assert.are.same({shape = {3, 2}, dtype = "<f4", fortran_order = false}, la.npy_info(fixture("f4_tenths")))
    assert.are.same({shape = {2, 3}, dtype = "<f4", fortran_order = true}, la.npy_info(fixture("f4_f")))
  end)

  it("save_npy writes a float32 matrix as <f4 (4 bytes an element) and a float64 one as <f8", function()
    local T = la.load_npy(fixture("f4_tenths"))
    la.save_npy(T, tmp)
    local f = io.open(tmp, "rb"); local s = f:read("*a"); f:close()
    assert.is_truthy(s:find("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", 1, true))
    assert.are.equal(128 + 6 * 4, #s)
    -- the data: column-major little-endian float32
    assert.are.equal(lepack.pack("<ffffff", 0.1, 2 / 3, 3.4e38, 1 / 3, 1e-8, -0.7), s:sub(129))
    assert.are.same({shape = {3, 2}, dtype = "<f4", fortran_order = true}, la.npy_info(tmp))
    la.save_npy(T:astype("float64"), tmp)
    assert.are.same({shape = {3, 2}, dtype = "<f8", fortran_order = true}, la.npy_info(tmp))
    assert.are.same(tenths, la.load_npy(tmp):totable())
    assert.are.equal("float64", la.load_npy(tmp).dtype)
  end)

  it("round-trips float32 exactly: views, NaN, infinities, -0 and subnormals", function()
    local B = la.randn(7, 5, 3, {dtype = "float32"})
    B:set(1, 2, 0 / 0); B:set(2, 2, math.huge); B:set(3, 3, NEGZERO); B:set(4, 4, 1.401298464324817e-45)
    B:set(5, 5, -math.huge)
    la.save_npy(B:sub(1, 6, 2, 5), tmp)
    local C = la.load_npy(tmp)
    assert.are.equal("float32", C.dtype)
    assert.are.same({6, 4}, {C:shape()})
    for i = 1, 6 do for j = 1, 4 do
      local x, y = B(i, j + 1), C(i, j)
      assert.is_true(x == y or (x ~= x and y ~= y))
    end end
    assert.are.equal(-math.huge, 1 / C(3, 2))                        -- the sign of zero survives
    assert.are.equal(1.401298464324817e-45, C(4, 3))
    -- and by rows, from our Fortran-order file
    local R = la.load_npy(tmp, {rows = {5, 6}})
    assert.are.equal("float32", R.dtype)
    assert.are.same(C:sub(5, 6, 1, 4):totable(), R:totable())
  end)

  it("round-trips both types in C and Fortran order through frombuffer", function()
    for _, dtype in ipairs{"float64", "float32"} do
      local B = la.randn(4, 3, 11, {dtype = dtype})
      local descr = dtype == "float32" and "<f4" or "<f8"
      local fmt = dtype == "float32" and "<f" or "<d"
      local rowsfirst = {}
      for i = 1, 4 do for j = 1, 3 do rowsfirst[#rowsfirst + 1] = lepack.pack(fmt, B(i, j)) end end
      for order, bytes in pairs{F = B:tobytes(), C = table.concat(rowsfirst)} do
        local C = la.frombuffer(bytes, 4, 3, {dtype = descr, order = order})
        assert.are.equal(dtype, C.dtype)
        assert.are.same(B:totable(), C:totable())
      end
    end
  end)

  it("NumPy reads the <f4 file save_npy writes as float32 (when NumPy is installed)", function()
    if not numpy() then pending("no NumPy for /usr/bin/python3") return end
    la.save_npy(la.load_npy(fixture("f4_tenths")), tmp)
    local p = io.popen("/usr/bin/python3 -c \"import numpy as np; a = np.load('" .. tmp ..
                       "'); print(a.dtype, a.shape, repr(a.astype('f8').tolist()))\"")
    local out = p:read("*a"); p:close()
    assert.are.equal("float32 (3, 2) [[0.10000000149011612, 0.3333333432674408], [0.6666666865348816, " ..
      "9.99999993922529e-09], [3.3999999521443642e+38, -0.699999988079071]]\n", out)
  end)
end)

describe("linalg.frombuffer and tobytes with float32", function()
  local four = lepack.pack("<ffff", 1.5, -2, 0.1, 3.4e38)     -- 4 little-endian floats

  it("reads f4 descrs of either byte order, and the names float32 / float64, into their own type", function()
    local want = {{1.5, 0.10000000149011612}, {-2, 3.3999999521443642e+38}}
    for _, dt in ipairs{"<f4", "f4", "=f4", "|f4", "float32"} do
      local B = la.frombuffer(four, 2, 2, {dtype = dt, order = "F"})
      assert.are.equal("float32", B.dtype, dt)
      assert.are.same(want, B:totable(), dt)
    end
    local big = lepack.pack(">ffff", 1.5, -2, 0.1, 3.4e38)
    assert.are.same(want, la.frombuffer(big, 2, 2, {dtype = ">f4", order = "F"}):totable())
    assert.are.equal("float32", la.frombuffer(big, 2, 2, {dtype = ">f4"}).dtype)
    -- C order: row by row
    assert.are.same({{1.5, -2}, {0.10000000149011612, 3.3999999521443642e+38}},
                    la.frombuffer(four, 2, 2, {dtype = "<f4"}):totable())
    -- float64 and the integers give float64
    local B = la.frombuffer(lepack.pack("<dd", 0.1, -3), 2, 1, {dtype = "float64"})
    assert.are.equal("float64", B.dtype)
    assert.are.same({0.1, -3}, B:totable())
    assert.are.equal("float64", la.frombuffer(lepack.pack("<i4", 7), 1, 1, {dtype = "<i4"}).dtype)
    assert.are.equal("float64", la.frombuffer(lepack.pack("<d", 7), 1, 1).dtype)
    -- an offset, and a size check in 4-byte elements
    assert.are.same({{0.10000000149011612, 3.3999999521443642e+38}},
                    la.frombuffer(four, 1, 2, {dtype = "<f4", offset = 8}):totable())
    assert.error_matches(function() la.frombuffer(four, 2, 3, {dtype = "<f4"}) end,
      "linalg.frombuffer: 2x3 elements of 4 bytes need 24 bytes, the buffer holds 16", 1, true)
    assert.error_matches(function() la.frombuffer(four, 2, 2, {dtype = "float16"}) end,
      "linalg.frombuffer: option 'dtype' must be", 1, true)
  end)

  it("tobytes gives 4-byte little-endian floats of a float32 matrix, column by column", function()
    local B = la.matrix({{1.5, 0.1}, {-2, 3.4e38}}, {dtype = "float32"})
    assert.are.equal(four, B:tobytes())
    assert.are.equal(lepack.pack("<dddd", 1.5, -2, 0.10000000149011612, 3.3999999521443642e+38),
                     B:astype("float64"):tobytes())
    -- a view: its own elements only
    assert.are.equal(lepack.pack("<ff", 0.1, 3.4e38), B:col(2):tobytes())
    assert.are.equal(lepack.pack("<ff", -2, 3.4e38), B:row(2):tobytes())
    assert.are.equal("", la.zeros(0, 5, {dtype = "float32"}):tobytes())
    -- NaN and -0 keep their bits
    B:set(1, 1, NEGZERO); B:set(2, 1, 0 / 0)
    local s = B:tobytes()
    assert.are.equal("\0\0\0\128", s:sub(1, 4))
    local nan = lepack.unpack("<f", s, 5)
    assert.is_true(nan ~= nan)
  end)
end)

describe("files, found by a hostile review", function()
  it("load_csv: a column far past the file's is an error at once, whatever its number", function()
    local f = assert(io.open(tmp, "wb")); f:write("1,2,3\n4,5,6\n"); f:close()
    -- the map of kept columns held every number up to c: 1e8 took 3.4 s and
    -- 2.5 GB, 2^31 the machine's memory; 1e300 (a float key on 5.3+) once
    -- reached C as column 0
    for _, c in ipairs{1e8, 2147483647} do
      local t0 = os.clock()
      assert.error_matches(function() la.load_csv(tmp, {columns = {1, c}}) end,
        "column " .. string.format("%d", c) .. " is outside 1..3", 1, true)
      assert.is_true(os.clock() - t0 < 1)
    end
    for _, c in ipairs{2 ^ 31, 1e300, -1e300, 2 ^ 63, math.maxinteger or 2 ^ 53} do
      assert.error_matches(function() la.load_csv(tmp, {columns = {1, c}}) end,
        "columns entry 2 must be in 1..2147483647, got ", 1, true)
    end
    local B = la.load_csv(tmp, {columns = {3, 1}})
    assert.are.same({{3, 1}, {6, 4}}, B:totable())
  end)

  it("save_csv refuses header names that would not read back as themselves", function()
    for _, h in ipairs{{"#id", "x", "y"}, {'"a', "b", "c"}, {" a", "b", "c"}, {"a", "b\0", "c"},
                       {"\239\187\191a", "b", "c"}, {"a", "b", "c\t"}} do
      assert.error_matches(function() la.save_csv(A, tmp, {header = h}) end, "it would not read back", 1, true)
    end
    assert.error_matches(function() la.save_csv(A, tmp, {header = {"#id", "x", "y"}}) end,
      "linalg.save_csv: header entry 1 (\"#id\") holds a '#' (a comment): it would not read back", 1, true)
    assert.error_matches(function() la.save_csv(la.ones(2, 1), tmp, {header = {""}}) end,
      "holds nothing (a blank line is skipped)", 1, true)
    assert.error_matches(function() la.save_csv(A, tmp, {sep = " ", header = {"a\tb", "c", "d"}}) end,
      "holds a tab", 1, true)
    la.save_csv(A, tmp, {header = {"a b", "x-1", 3}})
    local _, names = la.load_csv(tmp, {header = true})
    assert.are.same({"a b", "x-1", "3"}, names)
  end)

  it("load_csv shows control bytes of a bad field escaped", function()
    local f = assert(io.open(tmp, "wb")); f:write("1,\0002\n"); f:close()
    assert.error_matches(function() la.load_csv(tmp) end, '"\\x002" is not a number', 1, true)
    f = assert(io.open(tmp, "wb")); f:write("1\r2\r"); f:close()
    assert.error_matches(function() la.load_csv(tmp) end, '"1\\x0D2" is not a number', 1, true)
  end)

  it("load_npy: no hint of row slices when the columns are too many", function()
    local hdr = "{'descr': '|b1', 'fortran_order': False, 'shape': (1, 2147483648), }"
    hdr = hdr .. string.rep(" ", 127 - 10 - #hdr) .. "\n"
    local f = assert(io.open(tmp, "wb"))
    f:write("\147NUMPY\1\0", string.char(#hdr % 256, math.floor(#hdr / 256)), hdr)
    f:seek("cur", 2147483647); f:write("\0"); f:close()             -- sparse
    local ok, err = pcall(la.load_npy, tmp)
    assert.is_false(ok)
    assert.is_truthy(err:find("2147483648 columns exceed the limit", 1, true), err)
    assert.is_falsy(err:find("slices", 1, true), err)
    os.remove(tmp)
  end)
end)
