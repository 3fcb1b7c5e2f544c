--- linalg.io: NumPy .npy files and CSV, in and out.
-- Loaded on first use by `la.load_npy`, `la.save_npy`, `la.load_csv` and
-- `la.save_csv`.
-- @module linalg.io
local core = require "linalg.core"

local util = require "linalg.util"
local fail, typename = util.fail, util.typename

local M = {}

local function readfile(path, fname)
  if type(path) ~= "string" then fail(fname, "bad argument #1 (path expected, got %s)", typename(path)) end
  local f, err = io.open(path, "rb")
  if not f then fail(fname, "%s", err) end
  local s = f:read("a")
  f:close()
  return s
end

local function writefile(path, s, fname)
  if type(path) ~= "string" then fail(fname, "bad argument #2 (path expected, got %s)", typename(path)) end
  local f, err = io.open(path, "wb")
  if not f then fail(fname, "%s", err) end
  local ok, werr = f:write(s)
  f:close()
  if not ok then fail(fname, "%s: %s", path, werr) end
end

-- The header dictionary of a .npy file: descr, fortran_order, shape.
local function parse_header(h, path)
  local descr = h:match("'descr'%s*:%s*'([^']*)'")
  local fortran = h:match("'fortran_order'%s*:%s*(%a+)")
  local shape = h:match("'shape'%s*:%s*(%b())")
  if not (descr and fortran and shape) then
    fail("load_npy", "%s: malformed header %q", path, h:sub(1, 80))
  end
  if fortran ~= "True" and fortran ~= "False" then
    fail("load_npy", "%s: malformed fortran_order %q", path, fortran)
  end
  local dims = {}
  for d in shape:gmatch("%d+") do dims[#dims + 1] = math.tointeger(tonumber(d)) end
  if shape:gsub("[%s,()%d]", "") ~= "" then fail("load_npy", "%s: malformed shape %s", path, shape) end
  return descr, fortran == "True", dims
end

--- Reads a NumPy .npy file (format 1.0, 2.0 or 3.0).
-- float64 is read as is; float32, int32 and int64 are converted; either
-- byte order, C or Fortran order. A 1-D array becomes a column vector.
-- Anything else (more dimensions, other dtypes, a truncated file, a bad
-- magic string, a header whose shape does not match the data) is an error.
-- @string path
-- @return matrix
function M.load_npy(path)
  local s = readfile(path, "load_npy")
  if s:sub(1, 6) ~= "\x93NUMPY" then fail("load_npy", "%s: bad magic (not a .npy file)", path) end
  if #s < 10 then fail("load_npy", "%s: truncated header", path) end
  local major = s:byte(7)
  local hlen, start
  if major == 1 then hlen, start = string.unpack("<I2", s, 9), 11
  elseif major == 2 or major == 3 then
    if #s < 12 then fail("load_npy", "%s: truncated header", path) end
    hlen, start = string.unpack("<I4", s, 9), 13
  else fail("load_npy", "%s: unsupported format version %d", path, major) end
  if #s < start - 1 + hlen then fail("load_npy", "%s: truncated header", path) end
  local descr, fortran, dims = parse_header(s:sub(start, start - 1 + hlen), path)
  local m, n
  if #dims == 1 then m, n = dims[1], 1
  elseif #dims == 2 then m, n = dims[1], dims[2]
  else fail("load_npy", "%s: %d-D array (shape (%s)) is not supported: 1-D and 2-D are",
            path, #dims, table.concat(dims, ", ")) end
  if not descr:match("^[<>|=]?[fi][48]$") then
    fail("load_npy", "%s: unsupported dtype '%s' (float64/32 and int64/32 are)", path, descr)
  end
  local size = tonumber(descr:sub(-1))
  local have = #s - (start - 1 + hlen)
  if m * n * size ~= have then
    fail("load_npy", "%s: header says shape (%d, %d) of '%s' (%d bytes) but the file holds %d bytes of data",
         path, m, n, descr, m * n * size, have)
  end
  return core.frombuffer(s, m, n, {dtype = descr, order = fortran and "F" or "C", offset = start - 1 + hlen})
end

--- Writes a matrix as a NumPy .npy file (format 1.0, little-endian float64,
-- Fortran order, 2-D: an n x 1 vector is saved with shape (n, 1)).
-- @param A matrix (or table)
-- @string path
function M.save_npy(A, path)
  A = core.asmatrix(A, "save_npy", 1)
  local m, n = A:shape()
  local dict = string.format("{'descr': '<f8', 'fortran_order': True, 'shape': (%d, %d), }", m, n)
  local total = 10 + #dict + 1
  local pad = (64 - total % 64) % 64
  local header = dict .. string.rep(" ", pad) .. "\n"
  writefile(path, "\x93NUMPY\1\0" .. string.pack("<I2", #header) .. header .. core.tobytes(A), "save_npy")
end

-- a CSV field as a number: Lua's tonumber, plus nan / inf / -inf as
-- NumPy and other tools write them
local function number(v)
  local t = v:match("^%s*(.-)%s*$")
  local x = tonumber(t)
  if x then return x end
  local sign, word = t:lower():match("^([%+%-]?)(%a+)$")
  if word == "nan" then return 0 / 0 end
  if word == "inf" or word == "infinity" then return sign == "-" and -math.huge or math.huge end
  return nil
end

local function split(line, sep)
  local out, pos = {}, 1
  while true do
    local a, b = line:find(sep, pos, true)
    if not a then out[#out + 1] = line:sub(pos); return out end
    out[#out + 1] = line:sub(pos, a - 1)
    pos = b + 1
  end
end

--- Reads a CSV file of numbers into a matrix.
-- @string path
-- @tparam[opt] table opts `sep` (default ","), `header` (default false: when
--   true the first line is skipped and returned as a table of names)
-- @return matrix [, names]
function M.load_csv(path, opts)
  opts = opts or {}
  if type(opts) ~= "table" then fail("load_csv", "bad argument #2 (options table expected, got %s)", typename(opts)) end
  local sep = opts.sep or ","
  if type(sep) ~= "string" or sep == "" then fail("load_csv", "sep must be a non-empty string") end
  local s = readfile(path, "load_csv")
  local rows, names, width, lineno = {}, nil, nil, 0
  for line in (s:gsub("\r\n", "\n") .. (s:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do
    lineno = lineno + 1
    if opts.header and lineno == 1 then
      names = split(line, sep)
      for i, v in ipairs(names) do names[i] = v:match("^%s*(.-)%s*$") end
    elseif line:match("%S") then
      local fields = split(line, sep)
      local r = #rows + 1
      if width and #fields ~= width then
        fail("load_csv", "%s: row %d (line %d) has %d fields, expected %d", path, r, lineno, #fields, width)
      end
      width = #fields
      for j, v in ipairs(fields) do
        local x = number(v)
        if not x then
          fail("load_csv", "%s: row %d, column %d (line %d): %q is not a number", path, r, j, lineno, v)
        end
        fields[j] = x
      end
      rows[r] = fields
    end
  end
  local A = #rows > 0 and core.matrix(rows) or core.zeros(0, names and #names or 0)
  return A, names
end

--- Writes a matrix as CSV with 17 significant digits, so reading it back
-- gives the same numbers exactly.
-- @param A matrix (or table)
-- @string path
-- @tparam[opt] table opts `sep` (default ","), `header` (a table of column names)
function M.save_csv(A, path, opts)
  A = core.asmatrix(A, "save_csv", 1)
  opts = opts or {}
  if type(opts) ~= "table" then fail("save_csv", "bad argument #3 (options table expected, got %s)", typename(opts)) end
  local sep = opts.sep or ","
  local m, n = A:shape()
  local out = {}
  if opts.header then
    if type(opts.header) ~= "table" or #opts.header ~= n then
      fail("save_csv", "header must be a table of %d names", n)
    end
    out[1] = table.concat(opts.header, sep)
  end
  for i = 1, m do
    local row = {}
    for j = 1, n do
      local x = A(i, j)
      row[j] = x ~= x and "nan" or x == math.huge and "inf" or x == -math.huge and "-inf"
        or string.format("%.17g", x)
    end
    out[#out + 1] = table.concat(row, sep)
  end
  writefile(path, table.concat(out, "\n") .. (#out > 0 and "\n" or ""), "save_csv")
end

return M
