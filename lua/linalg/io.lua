--- linalg.io: NumPy .npy files and CSV, in and out.
-- Loaded on first use by `la.load_npy`, `la.save_npy`, `la.load_csv` and
-- `la.save_csv`; `la.npy_info` reads a header alone.
-- @module linalg.io
local core = require "linalg.core"

local util = require "linalg.util"
local compat = require "linalg.compat"
local fail, filefail, typename = util.fail, util.filefail, util.typename

local M = {}

-- ------------------------------------------------------------ .npy header

local MAXINT = compat.maxinteger
local MAXDIM = 2147483647                 -- the core's limit on rows, columns, elements
local MAXHEADER = 1048576                 -- NumPy writes < 200 bytes for 1-D and 2-D

-- The header is the repr of a Python dict, read here as the literal it is
-- (NumPy reads it with ast.literal_eval): strings in single or double quotes
-- without escapes, True/False, non-negative integers (a Python 2 'L' suffix
-- in format 1.0 and 2.0), tuples of integers; commas where Python allows
-- them, one trailing comma included; any whitespace between tokens. A
-- duplicate key takes the last value, as in Python. Returns the dict as a
-- Lua table (tuples as {tuple = true, "digits", ...}) or nil and a reason.
local function parse_literal(h, version)
  local pos = 1
  local function ws() pos = h:find("[^ \t\r\n\f\v]", pos) or #h + 1 end
  local function peek() ws(); return h:sub(pos, pos) end
  local function fail(what) error({string.format("%s at byte %d", what, pos)}, 0) end
  local function expect(c)
    if peek() ~= c then fail(string.format("expected '%s'", c)) end
    pos = pos + 1
  end
  local function str()
    local q = peek()
    local a, b = h:find(q == "'" and "^'[^'\\\n\r]*'" or '^"[^"\\\n\r]*"', pos)
    if not a then fail("bad string") end
    pos = b + 1
    return h:sub(a + 1, b - 1)
  end
  local function int()
    ws()
    local d = h:match("^%d+", pos)
    if not d then fail("expected an integer") end
    if #d > 1 and d:sub(1, 1) == "0" then fail("integer with a leading zero") end
    pos = pos + #d
    if version <= 2 and h:sub(pos, pos) == "L" then pos = pos + 1 end
    if h:find("^[%w_.]", pos) then fail("bad integer") end
    return d
  end
  local function tuple()
    expect("(")
    local t = {tuple = true}
    if peek() == ")" then pos = pos + 1; return t end
    while true do
      if not peek():match("%d") then fail("a shape entry must be an integer") end
      t[#t + 1] = int()
      local c = peek()
      if c == ")" then
        if #t == 1 then fail("(n) is not a tuple") end
        pos = pos + 1; return t
      end
      expect(",")
      if peek() == ")" then pos = pos + 1; return t end
    end
  end
  local function value()
    local c = peek()
    if c == "'" or c == '"' then return str() end
    if c == "(" then return tuple() end
    local w = h:match("^%a+", pos)
    if w == "True" or w == "False" then
      pos = pos + #w
      if h:find("^[%w_]", pos) then fail("bad name") end
      return w == "True"
    end
    if c:match("%d") then return {int = int()} end
    fail("unsupported value")
  end
  local ok, d = pcall(function()
    expect("{")
    local d = {}
    while peek() ~= "}" do
      local c = peek()
      if c ~= "'" and c ~= '"' then fail("expected a string key") end
      local k = str()
      expect(":")
      d[k] = value()                      -- the last of duplicate keys wins
      if peek() ~= "}" then expect(",") end
    end
    pos = pos + 1
    ws()
    if pos <= #h then fail("text after the dictionary") end
    return d
  end)
  if ok then return d end
  if type(d) == "table" then return nil, d[1] end
  error(d, 0)
end

-- Reads the header of an open .npy file; returns a table {descr, fortran,
-- dims (integers; ndim 1 or 2), m, n, size (bytes per element), start (the
-- 0-based offset of the data), bytes (the data's length)}, the file checked
-- to hold exactly that many bytes after the header.
local function read_header(f, path, fname)
  local pre = util.read(f, 10, path, fname)
  if pre:sub(1, 6) ~= ("\147NUMPY"):sub(1, #pre) or #pre < 6 then
    filefail(fname, path, "bad magic (not a .npy file)")
  end
  if #pre < 10 then filefail(fname, path, "truncated header") end
  local major, minor = pre:byte(7, 8)
  local hlen, start
  if major == 1 then hlen, start = compat.readle(pre, 9, 10), 10
  elseif major == 2 or major == 3 then
    local more = util.read(f, 2, path, fname)
    if #more < 2 then filefail(fname, path, "truncated header") end
    hlen, start = compat.readle(pre:sub(9, 10) .. more, 1, 4), 12
  else filefail(fname, path, "unsupported format version %d.%d", major, minor) end
  if minor ~= 0 then filefail(fname, path, "unsupported format version %d.%d", major, minor) end
  if hlen > MAXHEADER then filefail(fname, path, "header of %d bytes is too long", hlen) end
  local h = util.read(f, hlen, path, fname)
  if #h < hlen then filefail(fname, path, "truncated header") end
  start = start + hlen
  local d, why = parse_literal(h, major)
  if not d then
    local shown = h:gsub("%s+$", ""):sub(1, 80):gsub("[%c\128-\255\\]", function(c)
      return string.format("\\x%02x", c:byte()) end)
    filefail(fname, path, "malformed header (%s): %s", why, shown)
  end
  for k in pairs(d) do
    if k ~= "descr" and k ~= "fortran_order" and k ~= "shape" then
      filefail(fname, path, "malformed header: unexpected key '%s'", k)
    end
  end
  local descr, fortran, shape = d.descr, d.fortran_order, d.shape
  if type(descr) ~= "string" then filefail(fname, path, "malformed header: 'descr' must be a string") end
  if type(fortran) ~= "boolean" then filefail(fname, path, "malformed header: 'fortran_order' must be True or False") end
  if type(shape) ~= "table" or not shape.tuple then
    filefail(fname, path, "malformed header: 'shape' must be a tuple of integers")
  end
  local text = "(" .. table.concat(shape, ", ") .. (#shape == 1 and ",)" or ")")
  if #shape ~= 1 and #shape ~= 2 then
    filefail(fname, path, "%d-D array (shape %s) is not supported: 1-D and 2-D are", #shape, text)
  end
  if not descr:match("^[<>|=]?[fi][48]$") and not descr:match("^[<>|=]?b1$") then
    filefail(fname, path, "unsupported dtype '%s' (float64/32, int64/32 and bool are)", descr)
  end
  local size = tonumber(descr:sub(-1))
  -- entries as integers, their product (the bytes) without overflow
  local dims, total, zero = {}, size, false
  for i, s in ipairs(shape) do
    local v = #s <= 18 and compat.tointeger(tonumber(s))
    if not v then filefail(fname, path, "shape %s: %s is too large", text, s) end
    dims[i] = v
    if v == 0 then zero = true elseif total and total > compat.idiv(MAXINT, v) then total = nil end
    if total then total = total * v end
  end
  if zero then total = 0 end
  if not total then filefail(fname, path, "shape %s of '%s' overflows a byte count", text, descr) end
  local here = util.seek(f, 0, path, fname, "cur")
  local have = util.seek(f, 0, path, fname, "end") - here
  if total ~= have then
    filefail(fname, path, "header says shape %s of '%s' (%d bytes) but the file holds %d bytes of data",
         text, descr, total, have)
  end
  assert(here == start)
  return {descr = descr, fortran = fortran, dims = dims, m = dims[1], n = dims[2] or 1,
          size = size, start = start, bytes = total}
end

--- Reads the header of a NumPy .npy file without reading its data: the
-- shape as `load_npy` would return it (a 1-D array of n entries is n x 1),
-- the dtype (NumPy's descr, such as "<f8") and the storage order. The file
-- is checked as `load_npy` checks it (the header's shape against the file's
-- size), so a file `npy_info` accepts loads, whole or by rows. Shapes too
-- large to load whole are reported: read them with `load_npy`'s `rows`.
-- @string path
-- @treturn table `{shape = {m, n}, dtype = "<f8", fortran_order = bool}`
function M.npy_info(path)
  local h = util.withfile(path, "npy_info", 1, function(f) return read_header(f, path, "npy_info") end)
  return {shape = {h.m, h.n}, dtype = h.descr, fortran_order = h.fortran}
end

-- nil when a k x n matrix can be made, else why not
local function toobig(k, n)
  if k > MAXDIM then return string.format("%d rows exceed the limit of %d", k, MAXDIM) end
  if n > MAXDIM then return string.format("%d columns exceed the limit of %d", n, MAXDIM) end
  if n > 0 and k > compat.idiv(MAXDIM, n) then
    return string.format("%dx%d exceeds the limit of %d elements", k, n, MAXDIM)
  end
end

--- Reads a NumPy .npy file (format 1.0, 2.0 or 3.0).
-- The file's float type is kept: `<f8` (or `>f8`) gives a float64 matrix,
-- `<f4` (or `>f4`) a float32 one, `|b1` a bool one; int32 and int64 are
-- converted to float64;
-- either byte order, C or Fortran order. A 1-D array becomes a column vector.
-- Anything else (more dimensions, other dtypes, a truncated file, a bad
-- magic string, a header that is not the Python literal NumPy writes or
-- whose shape does not match the data) is an error. Only a regular file
-- (or a link to one) is read: a FIFO, a device or a directory is refused at
-- once, as by `npy_info` and `load_csv`.
-- @string path
-- @tparam[opt] table opts `rows = {first, last}`: only rows first..last
--   (1-based, inclusive; last = first - 1 gives 0 rows), read by seeking,
--   so a slice of a file larger than memory loads (see `npy_info`)
-- @return matrix
function M.load_npy(path, opts)
  util.checkpath(path, "load_npy", 1)
  opts = util.options(opts, "load_npy", 2, {rows = "table"})
  return util.withfile(path, "load_npy", 1, function(f)
    local h = read_header(f, path, "load_npy")
    local m, n, size = h.m, h.n, h.size
    local first, last = 1, m
    if opts.rows then
      local r = opts.rows
      first, last = rawget(r, 1), rawget(r, 2)
      if compat.rawlen(r) ~= 2 or not compat.isint(first) or not compat.isint(last) then
        fail("load_npy", "option 'rows' must be {first, last} (two integers)")
      end
      if first < 1 or last > m or last < first - 1 then
        filefail("load_npy", path, "rows {%d, %d} outside 1..%d", first, last, m)
      end
    end
    local k = last - first + 1
    local why = toobig(k, n)
    if why then
      -- (slices of rows help when the rows are too many, not the columns)
      local hint = not opts.rows and n <= MAXDIM and "; read it in slices with {rows = {first, last}}" or ""
      filefail("load_npy", path, "%s%s", why, hint)
    end
    -- the bytes go straight into the matrix (src/bytes.c): rows in C order,
    -- a vector's or all of them are one run; some rows in Fortran order, a
    -- run per column
    local start, stride = h.start + (first - 1) * n * size, 0
    if h.fortran and n > 1 and k < m then start, stride = h.start + (first - 1) * size, m * size end
    return util.readmatrix(f, k, n, h.descr, h.fortran, start, stride, path, "load_npy")
  end)
end

--- Writes a matrix as a NumPy .npy file (format 1.0, Fortran order, 2-D: an
-- n x 1 vector is saved with shape (n, 1)) in the matrix's type:
-- little-endian float64 (`<f8`) or float32 (`<f4`), or bool (`|b1`). A file written over
-- keeps its permission bits, and a symbolic link its target (as `save_csv`
-- and the SVG writers do).
-- @param A matrix (or table)
-- @string path
function M.save_npy(A, path)
  local B = core.asmatrix(A, "save_npy", 1)  -- checked; a bool matrix comes back as float64
  if not (core.is_matrix(A) and A.dtype == "bool") then A = B end
  util.checkpath(path, "save_npy", 2)
  local m, n = A:shape()
  local descr = A.dtype == "float32" and "<f4" or A.dtype == "bool" and "|b1" or "<f8"
  local dict = string.format("{'descr': '%s', 'fortran_order': True, 'shape': (%d, %d), }", descr, m, n)
  local total = 10 + #dict + 1
  local pad = (64 - total % 64) % 64
  local header = dict .. string.rep(" ", pad) .. "\n"
  util.writefile(path, {"\147NUMPY\1\0", compat.u16le(#header), header, A}, "save_npy", 2)
end

local CHUNK = 1048576                     -- bytes read at a time by load_csv

-- a one-byte option of load_csv (sep, quote, comment) as the parser takes
-- it: a byte, or -1 for none (false); sep " " is any run of spaces and tabs
local function byteopt(v, key, default)
  if v == nil then v = default end
  if v == false and key ~= "sep" then return -1 end
  if type(v) ~= "string" or #v ~= 1 or v:find("[\r\n]") then
    if key == "sep" and (v == "" or (type(v) == "string" and v:find("[\r\n]"))) then
      fail("load_csv", "option 'sep' must be a non-empty string without line breaks")
    end
    fail("load_csv", "option '%s' must be one character%s, got %s", key,
         key == "sep" and "" or " or false", type(v) == "string" and string.format("%q", v) or typename(v))
  end
  if key == "sep" and v == " " then return -1 end
  return v:byte()
end

-- the columns option as a map: input column j -> output column
-- (the map holds the listed columns alone, and the largest: a column far
-- past the file's costs nothing before the file is read)
local function colmap(cols, names, ncols, path)
  local map, seen, most = {}, {}, 0
  local n = compat.rawlen(cols)
  if n == 0 then fail("load_csv", "option 'columns' must list at least one column") end
  for k = 1, n do
    local c = rawget(cols, k)
    local j = c
    if type(c) == "string" then
      if not names then fail("load_csv", "columns entry %d (%q) is a name: names need header = true", k, c) end
      for i, name in ipairs(names) do if name == c then j = i; break end end
      if j == c then filefail("load_csv", path, "no column named %q in the header", c) end
    elseif not compat.isint(c) then
      fail("load_csv", "columns entry %d must be a column number or a name, got %s", k, typename(c))
    elseif c < 1 or c > 2147483647 then     -- (a matrix has no more columns)
      fail("load_csv", "columns entry %d must be in 1..2147483647, got %s", k, util.cformat("%.17g", c))
    elseif c > ncols then
      filefail("load_csv", path, "column %d is outside 1..%d", c, ncols)
    end
    if seen[j] then fail("load_csv", "column %s is listed twice in 'columns'", tostring(c)) end
    seen[j] = true
    map[j] = k
    if j > most then most = j end
  end
  return map, most
end

local DEFAULT_NA = {"", "NA", "NaN", "nan"}

--- Reads a CSV (or other delimited) file of numbers into a matrix.
-- The file is read in chunks of 1 MiB and parsed in C into a growing buffer,
-- so a file of any size needs memory for its numbers alone. A UTF-8 byte
-- order mark is skipped; line ends are LF or CRLF; blank lines (and lines
-- holding only a comment) are skipped; fields are trimmed of spaces and tabs.
-- Every record must have the same number of fields as the first (the header
-- when `header` is true): another count is an error naming the line, as is
-- a field that is not a number (nothing is dropped silently). Only a regular
-- file is read (a FIFO or a device is refused, as by `load_npy`).
-- @string path
-- @tparam[opt] table opts
--   `sep` (default ","; one character, or " " for any run of spaces and tabs),
--   `header` (default false; true: the first record holds the column names,
--   returned as a second result),
--   `skip` (default 0: physical lines skipped before anything is read),
--   `comment` (default "#": from it to the end of the line is ignored, outside
--   quotes; false: none),
--   `quote` (default '"': RFC 4180 quoted fields, "" inside for a quote, the
--   separator and line breaks allowed inside; false: none),
--   `na` (default `{"", "NA", "NaN", "nan"}`: fields read as NaN),
--   `dtype` ("float64" (default) or "float32"),
--   `columns` (a list of 1-based column numbers or header names: only those,
--   in that order)
-- @return matrix [, names]
function M.load_csv(path, opts)
  util.checkpath(path, "load_csv", 1)
  opts = util.options(opts, "load_csv", 2, {sep = "string", header = "boolean", skip = "integer",
    comment = "any", quote = "any", na = "table", dtype = {"float64", "float32"}, columns = "table"})
  local sep = byteopt(opts.sep, "sep", ",")
  local quote, comment = byteopt(opts.quote, "quote", '"'), byteopt(opts.comment, "comment", "#")
  if sep >= 0 and (sep == quote or sep == comment) or (quote >= 0 and quote == comment) then
    fail("load_csv", "options 'sep', 'quote' and 'comment' must differ")
  end
  local skip = opts.skip or 0
  if skip < 0 then fail("load_csv", "option 'skip' must be >= 0, got %d", skip) end
  local na = opts.na or DEFAULT_NA
  for i = 1, compat.rawlen(na) do
    if type(rawget(na, i)) ~= "string" then
      fail("load_csv", "na entry %d must be a string, got %s", i, typename(rawget(na, i)))
    end
  end
  local csv = util.csv
  local cols, numeric = opts.columns, true
  if cols then
    for k = 1, compat.rawlen(cols) do
      local c = rawget(cols, k)
      if type(c) == "string" and not opts.header then
        fail("load_csv", "columns entry %d (%q) is a name: names need header = true", k, c)
      end
      numeric = numeric and type(c) ~= "string"
    end
  end
  return util.withfile(path, "load_csv", 1, function(f)
    local p = csv.new(sep, quote, comment, skip, opts.header or false, na)
    local names, first, most = {}, true, 0
    local function feed(s, pos)
      local ok, at = pcall(csv.feed, p, s, pos, names)
      if not ok then filefail("load_csv", path, "%s", tostring(at)) end
      return at
    end
    if cols and numeric then              -- known before a line is read
      local map
      map, most = colmap(cols, nil, math.huge, path)
      csv.keep(p, map, compat.rawlen(cols))
    end
    while true do
      local s = util.read(f, CHUNK, path, "load_csv")
      if s == "" then break end
      local at = first and s:sub(1, 3) == "\239\187\191" and 4 or 1
      first = false
      at = feed(s, at)
      if at then                                 -- the header is read: columns by name
        if cols then csv.keep(p, (colmap(cols, names, #names, path)), compat.rawlen(cols)) end
        feed(s, at)
      end
    end
    local ok, A, ncols = pcall(csv.finish, p, opts.dtype == "float32", names)
    if not ok then filefail("load_csv", path, "%s", tostring(A)) end
    if most > ncols and ncols >= 0 then
      filefail("load_csv", path, "column %d is outside 1..%d", most, ncols)
    end
    if cols and not numeric and ncols >= 0 and A:cols() ~= compat.rawlen(cols) then
      colmap(cols, names, #names, path)          -- a header without rows: the names checked
      A = core.zeros(0, compat.rawlen(cols), {dtype = opts.dtype or "float64"})
    end
    if opts.header then return A, names end
    return A
  end)
end

--- Writes a matrix as CSV with 17 significant digits, so reading it back
-- gives the same numbers exactly.
-- @param A matrix (or table)
-- @string path
-- @tparam[opt] table opts `sep` (default ","), `header` (a table of column names, strings or
-- numbers, each of which reads back as itself: without the separator, '#', '"', a line
-- break or a zero byte, not starting or ending with a space or tab)
function M.save_csv(A, path, opts)
  A = core.asmatrix(A, "save_csv", 1)
  util.checkpath(path, "save_csv", 2)
  opts = util.options(opts, "save_csv", 3, {sep = "string", header = "table"})
  local sep = opts.sep or ","
  -- the separator must not occur in what is written: numbers, nan, inf
  if sep == "" or sep:find("[%d%.%+%-eEnaif\r\n]") then
    fail("save_csv", "option 'sep' must be a non-empty string without digits, '.', '+', '-', 'e', " ..
         "the letters of nan and inf, or line breaks, got %q", sep)
  end
  local m, n = A:shape()
  -- a CSV line cannot hold zero fields that read back: a matrix without
  -- columns writes no rows (and costs nothing, however many rows it has)
  if n == 0 then m = 0 end
  local out = {}
  if opts.header then
    local names, why, j, v = util.stringlist(opts.header, n)
    if why == "length" then fail("save_csv", "header must be a table of %d names, got %d", n, j) end
    if why == "entry" then
      fail("save_csv", "header entry %d must be a string or a number, got %s", j, typename(v))
    end
    -- each name must read back as itself with load_csv's defaults: no
    -- comment (#) or quote character, nothing it trims, no byte order mark
    for k, name in ipairs(names) do
      if name:find(sep, 1, true) or name:find("[\r\n]") then
        fail("save_csv", "header entry %d (%q) contains the separator or a line break", k, name)
      end
      local why = name:find("#", 1, true) and "a '#' (a comment)" or name:find('"', 1, true) and "a quote" or
        name:find("%z") and "a zero byte" or name:find("^[ \t]") and "a leading space or tab" or
        name:find("[ \t]$") and "a trailing space or tab" or
        sep == " " and name:find("\t") and "a tab (a separator of sep ' ')" or
        k == 1 and name:sub(1, 3) == "\239\187\191" and "a byte order mark" or
        n == 1 and name == "" and "nothing (a blank line is skipped)"
      if why then fail("save_csv", "header entry %d (%q) holds %s: it would not read back", k, name, why) end
    end
    out[1] = table.concat(names, sep) .. "\n"
  end
  -- the rows formatted in C (csv.format: "%.17g", nan, inf, -inf), about
  -- 1 MB of text a piece
  local step = math.max(1, compat.idiv(1048576, 24 * n + 1))
  for i = 1, m, step do out[#out + 1] = util.csv.format(A, sep, i, math.min(i + step - 1, m)) end
  util.writefile(path, out, "save_csv", 2)
end

-- at most these arguments (la.load_npy(path, 5) is an error, not a load)
return util.arity(M, {npy_info = 1, load_npy = {1, opts = true}, save_npy = 2,
                      load_csv = {1, opts = true}, save_csv = {2, opts = true}})
