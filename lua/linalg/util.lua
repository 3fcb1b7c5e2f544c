--- linalg.util: helpers shared by the Lua modules of linalg (internal).
-- The one place the Lua front reads options (`options`, which calls the C
-- core's reader, and `stringlist`), raises errors (`fail`, `filefail`,
-- `typename`), checks paths (`checkpath`), reads files (`withfile`, `read`,
-- `seek`, `readfile`) and writes them (`writefile`: every write and the
-- close checked, a temporary renamed onto the target).
-- @module linalg.util
local core = require "linalg.core"
local compat = require "linalg.compat"

-- The C option reader: read here once, as `require "linalg"` removes it from
-- the public table after loading this module.
local checkopts, nargs = core.checkopts, core.nargs
assert(checkopts and nargs, "linalg.util: load it before linalg.core's checkopts is hidden")
-- The same for the C file access (src/files.c): open for reading refusing
-- what is not a regular file, and the exclusive temporary of a write.
local files = core.files

local M = {}

-- load_csv's streaming parser (src/csv.c), kept for linalg.io
M.csv = core.csv

--- Reads an options table: `opts` (nil, or a plain table) checked against
-- `spec` (`{key = "boolean"|"number"|"integer"|"string"|"table"|"matrix"|
-- "function"|"any"|{"choice", ...}}`). Returns a plain table holding each
-- known option, read once and type-checked; an unknown key is an error naming
-- the closest known one. The same code checks the options of the C core.
function M.options(opts, fname, arg, spec)
  return checkopts(opts, fname, arg, spec)
end

--- Bounds the argument counts of the functions of `t`, as the C core bounds
-- its own: `counts` maps a name to the most positional arguments (a
-- number), or to `{n, opts = true}` when an options table may follow them.
-- A call with more is an error naming the first extra argument; trailing
-- nils count as absent. Returns t. A call with at most the positional
-- count goes straight to f, past the check's C closure: a C-to-Lua call
-- on every call (about 0.1 us of `la.inner`'s 1.1-1.2 for two 10 x 10
-- matrices), which LuaJIT does not compile through; any other call goes
-- through the check.
function M.arity(t, counts)
  for name, n in pairs(counts) do
    local f = t[name]
    assert(type(f) == "function", name)
    local most = type(n) == "table" and n[1] or n
    local checked = type(n) == "table" and nargs(f, name, n[1], n.opts) or nargs(f, name, n)
    t[name] = function(...)
      if select("#", ...) <= most then return f(...) end
      return checked(...)
    end
  end
  return t
end

-- ---------------------------------------------- numbers as text, C locale

-- The decimal point string.format writes: "." unless a host set LC_NUMERIC
-- to a locale with another (PUC Lua's printf follows it; LuaJIT's does not),
-- as a gsub pattern; nil for "."
local function decpoint()
  local dp = string.format("%.1f", 0.5):sub(2, -2)
  if dp == "." then return nil end
  return (dp:gsub("%p", "%%%0"))
end

--- tostring of a number (or anything) with '.' as its decimal point
-- whatever the C locale: the text linalg writes (SVG, messages, CSV
-- headers) is read back in the C locale.
function M.cstr(v)
  local s = tostring(v)
  local dp = type(v) == "number" and decpoint()
  return dp and (s:gsub(dp, ".")) or s
end

-- string.format with the decimal point dp (a pattern) of every number it
-- formats written as '.'
local function dotformat(dp, fmt, ...)
  local args, i = compat.pack(...), 0
  return (fmt:gsub("%%[-+ #0]*%d*%.?%d*[%a%%]", function(spec)
    if spec == "%%" then return "%" end
    i = i + 1
    local s = string.format(spec, args[i])
    if spec:find("[aAeEfgG]$") then s = s:gsub(dp, ".") end
    return s
  end))
end

--- string.format with '.' as the decimal point of every number it formats
-- (%e %f %g, whatever the C locale); strings (%s) are left as they are.
function M.cformat(fmt, ...)
  local dp = decpoint()
  if not dp then return string.format(fmt, ...) end
  return dotformat(dp, fmt, ...)
end

--- A cformat for a run of calls under one locale (a whole SVG): string.format
-- itself when the decimal point is '.', so a hot loop pays nothing (cformat
-- reads the locale again each call: 2.3 us against 0.7)
function M.cformatter()
  local dp = decpoint()
  if not dp then return string.format end
  return function(fmt, ...) return dotformat(dp, fmt, ...) end
end

--- Raises "linalg.<fname>: <message>" without a position, like the C core.
function M.fail(fname, fmt, ...)
  error("linalg." .. fname .. ": " .. M.cformat(fmt, ...), 0)
end

--- A list option: exactly `count` strings or numbers (raw entries
-- 1..count), returned as strings. Otherwise returns nil and why, for the
-- caller to word: "length" and the list's length, or "entry", the index
-- and the value that is neither a string nor a number.
function M.stringlist(t, count)
  local len = compat.rawlen(t)
  if len ~= count then return nil, "length", len end
  local out = {}
  for i = 1, count do
    local v = rawget(t, i)
    if type(v) ~= "string" and type(v) ~= "number" then return nil, "entry", i, v end
    out[i] = M.cstr(v)
  end
  return out
end

--- A value's type for messages: a metatable's __name when it has one (FILE*),
-- the name a protected metatable gives, else type(x).
function M.typename(x)
  local mt = getmetatable(x)
  if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
  if type(mt) == "string" then return mt end
  if type(mt) == "table" and type(x) == "userdata" then   -- no __name (Lua 5.1, 5.2): registered name
    for k, v in pairs(debug.getregistry()) do
      if v == mt and type(k) == "string" then return k end
    end
  end
  return type(x)
end

-- ------------------------------------------------------------------ files

--- Raises "linalg.<fname>: <path>: <reason>", the reason formatted from
-- `fmt` and the rest (the path is not a format: any bytes are safe in it).
function M.filefail(fname, path, fmt, ...)
  error("linalg." .. fname .. ": " .. path .. ": " .. M.cformat(fmt, ...), 0)
end

-- The same for a message of Lua's io library or the OS: those already
-- start with the path, others get it prefixed.
local function ioerror(fname, path, msg)
  msg = tostring(msg or "unknown error")
  if msg:sub(1, #path + 2) == path .. ": " then msg = msg:sub(#path + 3) end
  M.filefail(fname, path, "%s", msg)
end

--- A path argument (argument `argno` of `fname`): a non-empty string
-- without zero bytes, else an error that says which.
function M.checkpath(path, fname, argno)
  if type(path) ~= "string" then
    M.fail(fname, "bad argument #%d (path expected, got %s)", argno, M.typename(path))
  end
  if path == "" then M.fail(fname, "bad argument #%d (path is empty)", argno) end
  if path:find("\0", 1, true) then M.fail(fname, "bad argument #%d (path contains a zero byte)", argno) end
end

-- Opens a file for reading: path checked (argument `argno` of `fname`).
-- Only a regular file (or a link to one) is read: a FIFO, a device (such as
-- /dev/zero or /dev/stdin on a pipe), a directory or a socket is refused at
-- once, "linalg.<fname>: <path> is not a regular file (a FIFO)", without
-- blocking in open. A missing or unreadable file is a named error. Returns
-- the handle (read, seek, close as io's).
local function open_read(path, fname, argno)
  M.checkpath(path, fname, argno)
  local f, err = files.openread(path)
  if not f then
    if err:find("^not a regular file") then M.fail(fname, "%s is %s", path, err) end
    ioerror(fname, path, err)
  end
  return f
end

--- Reads `n` bytes at the handle's position (fewer at the end of the
-- file; "*a": the rest); a read error is a named error. Returns a string
-- ("" at the end).
-- The caller owns f and closes it on every path (read and seek never do:
-- a second close would be a raw "attempt to use a closed file").
function M.read(f, n, path, fname)
  if n == 0 then return "" end
  local ok, s, err = pcall(f.read, f, n)
  if not ok then ioerror(fname, path, s) end   -- not enough memory
  if s == nil then
    if err then ioerror(fname, path, err) end
    return ""
  end
  return s
end

--- Reads a k x n matrix of .npy dtype `descr` at byte `start` of the
-- handle: one run of k n elements, or (stride > 0, Fortran order) column j's
-- k elements at start + j stride, read straight into the matrix where no
-- conversion is needed (src/bytes.c). A read error is a named error.
function M.readmatrix(f, k, n, descr, fortran, start, stride, path, fname)
  local A, err = f:readmatrix(k, n, descr, fortran, start, stride, fname)
  if not A then ioerror(fname, path, err) end
  return A
end

--- Moves the handle to byte `pos` (0-based) or, with `whence` "end", to the
-- end; returns the position. An error is named.
function M.seek(f, pos, path, fname, whence)
  local p, err = f:seek(whence or "set", pos)
  if not p then ioerror(fname, path, err) end
  return p
end

--- Opens `path` for reading (only a regular file: see open_read), calls `body(f)` and closes the
-- file whatever happens; returns what body returns. An error is raised again
-- named after `fname` ("linalg.<fname>: <path>: <reason>" unless it already
-- names fname: not enough memory, or an error of a core function).
function M.withfile(path, fname, argno, body)
  local f = open_read(path, fname, argno)
  local r = compat.pack(pcall(body, f))
  f:close()                  -- opened for reading: closing it can lose nothing
  if not r[1] then
    local e = tostring(r[2])
    if e:sub(1, #fname + 8) == "linalg." .. fname .. ":" then error(e, 0) end
    ioerror(fname, path, e)
  end
  return compat.unpack(r, 2, r.n)
end

--- Reads a whole file as a string; every failure (missing, a directory, a
-- read error) is an error "linalg.<fname>: <path>: <reason>"; what is not a
-- regular file is refused as open_read says.
function M.readfile(path, fname, argno)
  return M.withfile(path, fname, argno, function(f) return M.read(f, "*a", path, fname) end)
end

local tmpcount = 0

-- A name for a temporary next to path: same directory, hidden, unique in
-- this process (a table's address and a counter) and unlikely elsewhere.
local function tmpname(path)
  local dir, base = path:match("^(.-)([^/]*)$")
  tmpcount = tmpcount + 1
  return string.format("%s.%s.%s-%d-%d.tmp", dir, base, tostring({}):match("0x(%x+)") or "0",
                       tmpcount, os.time())
end

-- Writes parts (a string or a list of strings) to the open handle f, then
-- closes it; returns nil on success, the error message otherwise (f closed).
local function writeall(f, parts, fname)
  if type(parts) == "string" then parts = {parts} end
  for i = 1, #parts do
    local p = parts[i]
    local ok, err
    if type(p) == "string" then ok, err = f:write(p) else ok, err = f:writematrix(p, fname) end
    if not ok then f:close(); return err or "write failed" end   -- that error is the one reported
  end
  local ok, err = f:close()
  if not ok then return err or "close failed" end
  return nil
end

--- Writes `parts` (a string or a list of strings and matrices, a matrix
-- written as its `tobytes`) to `path` so that the file
-- is either complete or untouched: the bytes go to a temporary file next to
-- the file written, every write and the close are checked, and only then is
-- the temporary renamed onto it (on failure it is removed and the error,
-- "linalg.<fname>: <path>: <reason>", raised).
-- A file replaced keeps its permission bits (and, written by root, its owner
-- and group; by others, its group when they may), as editors and rsync do:
-- the temporary has them before a byte is written. A new file gets
-- 0666 minus the umask. A file we may not write (mode 0400 for another
-- user than root) is an error, "Permission denied", as NumPy's np.save
-- gives. A symbolic link at `path` is kept and the file it names (through
-- a chain of links; created if missing) is replaced, as `sed -i
-- --follow-symlinks`, Vim and Emacs do. What is not a regular file (a
-- device such as /dev/full, a pipe, anything under /dev or /proc, whose
-- links name descriptors) is written in place, with the same checks; a FIFO
-- with no reader is an error at once ("a FIFO with no reader"), as nothing
-- would ever read what is written.
function M.writefile(path, parts, fname, argno)
  M.checkpath(path, fname, argno)
  local special = path:find("^/dev/") or path:find("^/proc/")
  local plan, target, mode, uid, gid
  if not special then
    plan, target, mode, uid, gid = files.writeplan(path)
    if not plan then ioerror(fname, path, target) end   -- a directory, no permission, a loop
    special = plan == "special"
  end
  if special then
    local f, err = files.openwrite(path)   -- a FIFO with no reader: refused, not waited for
    if not f then ioerror(fname, path, err) end
    local werr = writeall(f, parts, fname)
    if werr then ioerror(fname, path, werr) end
    return
  end
  local tmp = tmpname(target)
  local f, err = files.opentemp(tmp, mode, uid, gid)     -- the messages name no path
  if not f then ioerror(fname, path, err) end
  local werr = writeall(f, parts, fname)
  if not werr then
    local ok, rerr = os.rename(tmp, target)
    if ok then return end
    werr = rerr or "rename failed"
  end
  os.remove(tmp)
  ioerror(fname, path, werr)
end

return M
