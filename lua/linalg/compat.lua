--- linalg.compat: what differs between Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT
-- for the Lua front, in one place (internal). The other modules are written
-- in the syntax all of them parse (no `//`, bitwise operators, `goto`,
-- `<close>`) and call these where the libraries differ:
-- `isint` (5.3+ has `math.type`; an integral float counts everywhere),
-- `idiv` (floor division), `tointeger`, `tostring`, `maxinteger` (2^53 where numbers
-- are doubles), `pack`/`unpack`, `rawlen`, `searchpath`, `load` with an environment
-- (5.1: `loadstring` and `setfenv`), `methodindex` and `maploop` (LuaJIT's
-- method lookup and map loop),
-- `u16le`/`u32le`/`readle` (5.3's `string.pack`), `utf8len`/`utf8codes`/`utf8char`,
-- `log10`. No `\x` escapes either (5.1 reads "\x41" as "x41"): bytes are
-- written in decimal, "\147". Pure Lua.
-- @module linalg.compat
local M = {}

local floor, huge = math.floor, math.huge

--- The Lua running: "Lua 5.4", "Lua 5.3", ..., or "LuaJIT 2.1.0-beta3".
M.lua = rawget(_G, "jit") and jit.version or _VERSION

--- Largest integer n such that every integer of -n..n is a number.
M.maxinteger = math.maxinteger or 2^53

--- A number with an integral value (any subtype: 3 and 3.0).
function M.isint(x)
  return type(x) == "number" and x == floor(x) and x > -huge and x < huge
end

--- x as an integer where it has an integral value in range, else nil
-- (math.tointeger; 5.1/5.2: the range of a 64-bit integer, as doubles).
M.tointeger = math.tointeger or function(x)
  if M.isint(x) and x >= -2 ^ 63 and x < 2 ^ 63 then return x end
  return nil
end

--- Floor division a // b (5.3+: the operator itself, exact on integers,
-- compiled from a string so that this file parses on 5.1).
M.idiv = math.type and load("return function(a, b) return a // b end")() or function(a, b)
  return floor(a / b)
end

--- log10(x) (5.1 has no base argument to math.log; 5.4 no math.log10)
M.log10 = math.log10 or function(x) return math.log(x, 10) end

M.unpack = table.unpack or unpack

--- tostring(v) as 5.3+ has it: a __tostring that returns neither a string
-- nor a number raises "'__tostring' must return a string" (5.1, 5.2 and
-- LuaJIT return what it returned), and a number it returns is made a string.
M.tostring = tostring
if pcall(tostring, setmetatable({}, {__tostring = function() return {} end})) then
  local tostring, type, error = tostring, type, error    -- the session's _G may change
  function M.tostring(v)
    local s = tostring(v)
    if type(s) == "number" then return tostring(s) end
    if type(s) ~= "string" then error("'__tostring' must return a string", 0) end
    return s
  end
end

--- package.searchpath (5.2+)
M.searchpath = package.searchpath or function(name, path)
  local file = name:gsub("%.", "/")
  for template in path:gmatch("[^;]+") do
    local f = template:gsub("%?", file)
    local h = io.open(f, "r")
    if h then h:close(); return f end
  end
  return nil
end
M.pack = table.pack or function(...) return {n = select("#", ...), ...} end
-- 5.1 has no rawlen; there # on a table never calls __len
M.rawlen = rawget(_G, "rawlen") or function(t) return #t end

--- load(src, name, mode, env) on every version (text chunks).
if _VERSION == "Lua 5.1" then
  function M.load(src, name, mode, env)
    if mode and not mode:find("t", 1, true) then return nil, "attempt to load a text chunk" end
    local f, err = loadstring(src, name)
    if f and env then setfenv(f, env) end
    return f, err
  end
else
  M.load = load
end

--- The matrix metatable's __index for method calls `A:f(...)`, or nil where
-- the C one (`cindex`, src/matrix.c's m_index) is best. LuaJIT: a Lua
-- function, which its JIT compiles into the caller's trace, where a C
-- __index is a call out of it (A:get(i, j) in a loop took 1.5x the time);
-- 5.1-5.4 interpret a C function faster. `mod` is the module table, which
-- cindex reads raw; the keys cindex computes from A ("T", "dtype") and every
-- miss (its error names the key) still go to cindex.
function M.methodindex(mod, cindex)
  if not rawget(_G, "jit") then return nil end
  local rawget = rawget
  return function(A, k)
    if k ~= "T" and k ~= "dtype" then
      local f = rawget(mod, k)
      if f ~= nil then return f end
    end
    return cindex(A, k)
  end
end

--- LuaJIT with its FFI: map's loop over the entries (src/arith.c's l_map
-- calls it inside the call of map, with A's and the result's arrays as light
-- userdata, their sizes and leading dimensions, all checked there), which the
-- JIT compiles with f inlined: a C loop leaves compiled code at each call of
-- f (A:map(f) on 32 x 32 took 1.15x 5.4's time). nil elsewhere: the C loop.
if rawget(_G, "jit") then
  local ok, ffi = pcall(require, "ffi")
  if ok then
    local cast, dptr, type, error, format = ffi.cast, ffi.typeof("double *"), type, error, string.format
    function M.maploop(f, a, b, m, n, lda, ldb, fname)
      a, b = cast(dptr, a), cast(dptr, b)
      for j = 0, n - 1 do
        local ja, jb = j * lda, j * ldb
        for i = 0, m - 1 do
          local v = f(a[ja + i], i + 1, j + 1)
          if type(v) ~= "number" then
            error(format("linalg.%s: function returned %s at (%d,%d), expected a number",
              fname, type(v), i + 1, j + 1), 0)
          end
          b[jb + i] = v
        end
      end
    end
  end
end

--- Little-endian unsigned integers as bytes (string.pack("<I2") / "<I4").
function M.u16le(n) return string.char(n % 256, floor(n / 256) % 256) end
function M.u32le(n)
  return string.char(n % 256, floor(n / 256) % 256, floor(n / 65536) % 256, floor(n / 16777216) % 256)
end
--- The unsigned little-endian integer of bytes i..j of s.
function M.readle(s, i, j)
  local v = 0
  for k = j, i, -1 do v = v * 256 + s:byte(k) end
  return v
end

-- UTF-8 as Lua 5.3's utf8 library reads it (strict: no overlong forms,
-- no surrogates, at most U+10FFFF)
local function decode(s, i)
  local c = s:byte(i)
  if c < 0x80 then return c, i end
  local n, v, min
  if c >= 0xF0 and c <= 0xF4 then n, v, min = 3, c - 0xF0, 0x10000
  elseif c >= 0xE0 then n, v, min = 2, c - 0xE0, 0x800
  elseif c >= 0xC2 and c < 0xE0 then n, v, min = 1, c - 0xC0, 0x80
  else return nil end
  for k = i + 1, i + n do
    local b = s:byte(k)
    if not b or b < 0x80 or b > 0xBF then return nil end
    v = v * 64 + (b - 0x80)
  end
  if v < min or v > 0x10FFFF or (v >= 0xD800 and v <= 0xDFFF) then return nil end
  return v, i + n
end

--- utf8.len(s [, i]): the number of characters from byte i on, or nil and
-- the position of the first invalid byte.
function M.utf8len(s, i)
  if utf8 then return utf8.len(s, i) end
  local n = 0
  i = i or 1
  while i <= #s do
    local c, last = decode(s, i)
    if not c then return nil, i end
    n, i = n + 1, last + 1
  end
  return n
end

--- for _, c in utf8codes(s) (s valid UTF-8)
function M.utf8codes(s)
  if utf8 then return utf8.codes(s) end
  local i = 1
  return function()
    if i > #s then return nil end
    local p = i
    local c, last = decode(s, i)
    if not c then error("invalid UTF-8 code", 2) end
    i = last + 1
    return p, c
  end
end

--- utf8.char(c): the bytes of code point c
function M.utf8char(c)
  if utf8 then return utf8.char(c) end
  if c < 0x80 then return string.char(c) end
  if c < 0x800 then return string.char(0xC0 + floor(c / 64), 0x80 + c % 64) end
  if c < 0x10000 then
    return string.char(0xE0 + floor(c / 4096), 0x80 + floor(c / 64) % 64, 0x80 + c % 64)
  end
  return string.char(0xF0 + floor(c / 262144), 0x80 + floor(c / 4096) % 64,
                     0x80 + floor(c / 64) % 64, 0x80 + c % 64)
end

return M
