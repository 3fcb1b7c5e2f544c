-- Everyday data: load_csv on ordinary files (quotes, comments, NA cells,
-- runs of spaces, a byte order mark, title lines, column choice, streaming
-- across chunks), printing under printoptions as NumPy prints, and
-- config()'s summary.
local la = require "linalg"

local tmp = os.tmpname()

local function write(s) local f = assert(io.open(tmp, "wb")); f:write(s); f:close() end
local function load(s, opts) write(s); return la.load_csv(tmp, opts) end
local function isnan(x) return x ~= x end

describe("linalg.load_csv on ordinary files", function()
  teardown(function() os.remove(tmp) end)

  it("reads RFC 4180 quoted fields: doubled quotes, separators and line breaks inside", function()
    local A, names = load('"a, ""b""","two\nlines",c\n"1",2.5,"-3"\n4,"5e1", 6\n', {header = true})
    assert.are.same({'a, "b"', "two\nlines", "c"}, names)
    assert.are.same({{1, 2.5, -3}, {4, 50, 6}}, A:totable())
  end)

  it("ignores comment lines and trailing comments, but not a comment character in quotes", function()
    local A, names = load('# made by hand\n"x#1",y\n1,2 # first\n  # indented comment\n3,4\n', {header = true})
    assert.are.same({"x#1", "y"}, names)
    assert.are.same({{1, 2}, {3, 4}}, A:totable())
    -- another comment character, or none
    assert.are.same({{1, 2}}, load("% note\n1,2\n", {comment = "%"}):totable())
    assert.error_matches(function() load("#1,2\n", {comment = false}) end, '"#1" is not a number', 1, true)
  end)

  it("reads empty, NA, NaN and nan cells as NaN, and only the na strings given", function()
    local A = load("1,,3\nNA,NaN,nan\n")
    assert.are.same({1, 3}, {A(1, 1), A(1, 3)})
    assert.is_true(isnan(A(1, 2)) and isnan(A(2, 1)) and isnan(A(2, 2)) and isnan(A(2, 3)))
    local B = load("1,-999\n", {na = {"-999"}})
    assert.is_true(isnan(B(1, 2)))
    assert.error_matches(function() load("1,,3\n", {na = {}}) end,
      'row 1, column 2 (line 1): "" is not a number', 1, true)
    -- the file's very first field empty (no byte of a field read yet)
    assert.error_matches(function() load(",1\n", {na = {}}) end,
      'row 1, column 1 (line 1): "" is not a number', 1, true)
  end)

  it("splits on runs of spaces and tabs with sep = ' '", function()
    local A = load("  1   2\t\t3  \n4 5 6\n\n 7\t8 9\n", {sep = " "})
    assert.are.same({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, A:totable())
    local B, names = load('"first col" b\n1 "2"\n', {sep = " ", header = true})
    assert.are.same({"first col", "b"}, names)
    assert.are.same({{1, 2}}, B:totable())
  end)

  it("skips a UTF-8 byte order mark and title lines", function()
    local A, names = load("\239\187\191a,b\n1,2\n", {header = true})
    assert.are.same({"a", "b"}, names)
    assert.are.same({{1, 2}}, A:totable())
    local B = load('Report "2024", not CSV\nunits: m, s, kg\n1,2,3\r\n4,5,6\r\n', {skip = 2})
    assert.are.same({{1, 2, 3}, {4, 5, 6}}, B:totable())
  end)

  it("refuses a row with another field count, naming the line", function()
    assert.error_matches(function() load("a,b\n1,2\n\n3\n", {header = true}) end,
      "linalg.load_csv: " .. tmp .. ": row 2 (line 4) has 1 fields, expected 2", 1, true)
    assert.error_matches(function() load("a,b\n1,2,3\n", {header = true}) end,
      "row 1 (line 2) has 3 fields, expected 2", 1, true)
    assert.error_matches(function() load("1,2\n3,4,5\n") end, "row 2 (line 2) has 3 fields, expected 2", 1, true)
    assert.error_matches(function() load('1,"2\n3,4\n') end, "quoted field opened on line 1 is not closed", 1, true)
    assert.error_matches(function() load('"1"x,2\n') end, "line 1: text after the closing quote", 1, true)
  end)

  it("keeps the columns asked for, by number or header name, in that order", function()
    local A = load("a,b,c\n1,2,3\n4,5,6\n", {header = true, columns = {"c", 1}})
    assert.are.same({{3, 1}, {6, 4}}, A:totable())
    assert.are.same({2, 5}, load("1,2,3\n4,5,6\n", {columns = {2}}):totable())   -- a column: a flat list
    assert.are.same({{3, 2}}, load("1,2,3\n", {columns = {3, 2}}):totable())
    assert.error_matches(function() load("1,2,3\n", {columns = {4}}) end, "column 4 is outside 1..3", 1, true)
    assert.error_matches(function() load("a,b\n1,2\n", {header = true, columns = {"z"}}) end,
      'no column named "z" in the header', 1, true)
    assert.error_matches(function() load("1,2\n", {columns = {"a"}}) end, "names need header = true", 1, true)
    assert.error_matches(function() load("1,2\n", {columns = {1, 1}}) end, "column 1 is listed twice", 1, true)
    -- a header without rows: 0 rows of the columns chosen
    assert.are.same({0, 1}, {load("a,b\n", {header = true, columns = {"b"}}):shape()})
  end)

  it("gives float32 with dtype and checks its options", function()
    local A = load("0.1,2\n")
    local B = load("0.1,2\n", {dtype = "float32"})
    assert.are.equal("float32", B.dtype)
    assert.is_true(B:astype("float64") == A:astype("float32"):astype("float64"))
    assert.error_matches(function() load("1\n", {sep = ";;"}) end, "option 'sep' must be one character", 1, true)
    assert.error_matches(function() load("1\n", {quote = ","}) end, "'sep', 'quote' and 'comment' must differ", 1, true)
    assert.error_matches(function() load("1\n", {skip = -1}) end, "option 'skip' must be >= 0", 1, true)
    assert.error_matches(function() load("1\n", {na = {1}}) end, "na entry 1 must be a string, got number", 1, true)
    assert.error_matches(function() load("1\n", {dtype = "int8"}) end, "linalg.load_csv: option 'dtype'", 1, true)
  end)

  it("streams a file of several chunks: records, quotes and comments cut at any byte", function()
    -- 1 MiB chunks: 60000 records of 3 fields, quoted and commented, cross
    -- the chunk boundaries at many positions
    local parts, n = {"# title comment\n", 'i,"x, quoted",y\n'}, 60000
    for i = 1, n do
      parts[#parts + 1] = string.format('%d,"%d.5",%s # c%d\n', i, i, i % 7 == 0 and "NA" or tostring(-i), i)
    end
    local A, names = load(table.concat(parts), {header = true})
    assert.are.same({"i", "x, quoted", "y"}, names)
    assert.are.same({n, 3}, {A:shape()})
    local s = la.sum(A:col(1)) + la.sum(A:col(2))
    assert.are.equal(n * (n + 1) + n * 0.5, s)                 -- 2 * n(n+1)/2 + n * 0.5
    local nan, ysum = 0, 0
    for i = 1, n do local y = A(i, 3); if isnan(y) then nan = nan + 1 else ysum = ysum + y end end
    assert.are.equal(math.floor(n / 7), nan)
    assert.are.equal(A(n, 3), -n)
  end)

  it("still refuses what is not a regular file", function()
    assert.error_matches(function() la.load_csv("spec") end, "linalg.load_csv: spec is not a regular file (a directory)", 1, true)
  end)
end)

describe("linalg.printoptions and printing", function()
  local saved
  before_each(function() saved = la.printoptions() end)
  after_each(function() la.printoptions(saved) end)

  -- the expected strings after the header line are NumPy 1.24's str(array)
  -- under the same np.set_printoptions
  local function body(A) return (tostring(A):gsub("^[^\n]*\n", "")) end

  it("prints a vector on one line as NumPy prints a 1-D array", function()
    assert.are.equal("3x1 matrix\n[ 1.5   2.25 -3.  ]", tostring(la.vector{1.5, 2.25, -3}))
    assert.are.equal("[ 0.3333  0.6667 10.    ]", body(la.vector{1 / 3, 2 / 3, 10}))
    assert.are.equal("[1.5e-05 2.0e+00]", body(la.vector{1.5e-5, 2}))
    assert.are.equal("[1.e-05 1.e+00]", body(la.vector{1e-5, 1}))
    assert.are.equal("[ nan  1.5 -inf]", body(la.vector{0 / 0, 1.5, -1 / 0}))
    assert.are.equal("[3. 4.]", body(la.matrix{{3, 4}}))               -- a row too
    assert.are.equal("[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n" ..
                     " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]", body(la.arange(0, 30)))
  end)

  it("summarises past threshold and wraps at linewidth; a 500-vector is no longer 500 lines", function()
    assert.are.equal("[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]", body(la.arange(0, 2000)))
    assert.are.equal(21, select(2, body(la.zeros(500, 1)):gsub("\n", "")) + 1)   -- str(np.zeros(500)): 21 lines
    la.printoptions{threshold = 5, edgeitems = 2}
    assert.are.equal("[0. 1. ... 8. 9.]", body(la.arange(0, 10)))
    local lines = {}
    for l in tostring(la.matrix(6, 6, 1)):gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.are.equal(6, #lines)                            -- header, 2 rows, ':', 2 rows
    assert.are.equal("   1.   1.  ...   1.   1.", lines[2])   -- columns as wide as "..."
    la.printoptions{threshold = 1000, linewidth = 30}
    assert.are.equal("[0.     0.1429 0.2857 0.4286\n 0.5714 0.7143 0.8571 1.\n 1.1429 1.2857 1.4286 1.5714]",
                     body(la.arange(0, 12) / 7))
  end)

  it("formats matrices with one number format and returns the previous options", function()
    local old = la.printoptions{precision = 2}
    assert.are.same({precision = 4, threshold = 1000, edgeitems = 3, linewidth = 75, suppress = false}, old)
    assert.are.equal(2, la.printoptions().precision)
    -- numpy: [[  0.33  -2.5 ] [100.     0.12]]: the same numbers, aligned
    assert.are.equal("    0.33   -2.5 \n  100.      0.12", body(la.matrix{{1 / 3, -2.5}, {100, 0.125}}))
    la.printoptions{precision = 8, suppress = true}
    assert.are.equal("[0.00001 1.     ]", body(la.vector{1e-5, 1}))
    assert.error_matches(function() la.printoptions{precision = -1} end,
      "linalg.printoptions: option 'precision' must be in 0..17, got -1", 1, true)
    assert.error_matches(function() la.printoptions{precison = 1} end,
      "linalg.printoptions: unknown option 'precison' (did you mean 'precision'?)", 1, true)
    assert.error_matches(function() la.printoptions{suppress = 1} end, "option 'suppress' must be true or false", 1, true)
    assert.error_matches(function() la.printoptions(5) end, "linalg.printoptions: bad argument #1", 1, true)
  end)
end)

describe("tostring(la.config())", function()
  it("is a readable summary of the same table", function()
    local c = la.config()
    local s = tostring(c)
    assert.are.equal("linalg " .. la.version, s:match("^[^\n]*"))
    assert.is_truthy(s:find("\n  BLAS: " .. c.blas, 1, true))
    assert.is_truthy(s:find("\n  threads: " .. tostring(c.threads), 1, true))
    assert.is_truthy(s:find("\n  SIMD compiled: " .. table.concat(c.simd, " "), 1, true))
    assert.is_falsy(s:find("table: 0x", 1, true))
    assert.are.equal("number", type(c.threads))
    assert.are.equal("string", type(c.blas_version))
  end)
end)
