-- The specs' byte helpers on every Lua: string.pack / string.unpack (5.3+)
-- for the formats the specs use ("<" or ">", then d f i4 i8 I2 I4 I8), in
-- pure Lua where the library has none (5.1, 5.2, LuaJIT: 64-bit integers
-- within 2^53), and FNV-1a 64 (the lsq_state checksum) in 16-bit limbs.
local floor = math.floor
local unpack = table.unpack or unpack
local M = {}

local function bxor(a, b)            -- of non-negative integers < 2^16
  local r, bit = 0, 1
  while a > 0 or b > 0 do
    if a % 2 ~= b % 2 then r = r + bit end
    a, b, bit = floor(a / 2), floor(b / 2), bit * 2
  end
  return r
end
M.bxor = bxor

-- little-endian bytes of the unsigned integer v (< 2^53) in n bytes
local function uint(v, n)
  local t = {}
  for i = 1, n do t[i] = v % 256; v = floor(v / 256) end
  return string.char(unpack(t))
end

local function float(x, single)
  local ebits, mbits, bias = single and 8 or 11, single and 23 or 52, single and 127 or 1023
  local sign = (x < 0 or 1 / x < 0) and 1 or 0
  x = math.abs(x)
  local e, m
  if x ~= x then e, m = 2 ^ ebits - 1, 2 ^ (mbits - 1)
  elseif x == math.huge then e, m = 2 ^ ebits - 1, 0
  elseif x == 0 then e, m = 0, 0
  else
    local f, ex = math.frexp(x)             -- x = f 2^ex, 0.5 <= f < 1
    e = ex + bias - 1
    if e <= 0 then m = floor(x / 2 ^ (1 - bias - mbits) + 0.5); e = 0    -- subnormal
    else m = floor((f * 2 - 1) * 2 ^ mbits + 0.5) end
    if m >= 2 ^ mbits and e > 0 then m, e = 0, e + 1 end
    if e >= 2 ^ ebits - 1 then e, m = 2 ^ ebits - 1, 0 end         -- overflows to inf
  end
  if single then return uint((sign * 2 ^ ebits + e) * 2 ^ mbits + m, 4) end
  local lo = m % 2 ^ 32
  local hi = (sign * 2 ^ ebits + e) * 2 ^ 20 + floor(m / 2 ^ 32)
  return uint(lo, 4) .. uint(hi, 4)
end

local function readuint(s, i, n)
  local v = 0
  for k = i + n - 1, i, -1 do v = v * 256 + s:byte(k) end
  return v
end

local function readfloat(s, i, single)
  local n, ebits, mbits, bias = single and 4 or 8, single and 8 or 11, single and 23 or 52, single and 127 or 1023
  local top = readuint(s, i + n - 2, 2)
  local sign = top >= 32768 and -1 or 1
  local e = floor((top % 32768) / 2 ^ (16 - 1 - ebits))
  local m = single and readuint(s, i, 4) % 2 ^ 23 or readuint(s, i, 4) + (readuint(s, i + 4, 4) % 2 ^ 20) * 2 ^ 32
  if e == 2 ^ ebits - 1 then return m == 0 and sign * math.huge or 0 / 0 end
  if e == 0 then return sign * m * 2 ^ (1 - bias - mbits) end
  return sign * (1 + m / 2 ^ mbits) * 2 ^ (e - bias)
end

local function items(fmt)
  local big, list = fmt:sub(1, 1) == ">", {}
  for c, n in fmt:gmatch("([dfiI])(%d*)") do list[#list + 1] = {c, tonumber(n) or 4} end
  return big, list
end

local function pack(fmt, ...)
  local big, list = items(fmt)
  local out = {}
  for k, it in ipairs(list) do
    local v, s = select(k, ...), nil
    if it[1] == "d" then s = float(v, false)
    elseif it[1] == "f" then s = float(v, true)
    elseif it[2] == 8 then s = uint(v % 2 ^ 32, 4) .. uint(floor(v / 2 ^ 32) % 2 ^ 32, 4)
    else s = uint(v % 2 ^ (8 * it[2]), it[2]) end
    out[k] = big and s:reverse() or s
  end
  return table.concat(out)
end

local function unpackf(fmt, s, pos)
  local big, list = items(fmt)
  local out, p = {}, pos or 1
  for k, it in ipairs(list) do
    local n = (it[1] == "d" and 8) or (it[1] == "f" and 4) or it[2]
    local b = s:sub(p, p + n - 1)
    if big then b = b:reverse() end
    local v
    if it[1] == "d" then v = readfloat(b, 1, false)
    elseif it[1] == "f" then v = readfloat(b, 1, true)
    else
      v = readuint(b, 1, n)
      if it[1] == "i" and v >= 2 ^ (8 * n - 1) then v = v - 2 ^ (8 * n) end
    end
    out[k], p = v, p + n
  end
  out[#list + 1] = p
  return unpack(out, 1, #list + 1)
end

M.pack = string.pack or pack
M.unpack = string.unpack or unpackf

-- FNV-1a 64 of str as 8 little-endian bytes
function M.fnv64(str)
  local h = {0x2325, 0x8422, 0x9ce4, 0xcbf2}         -- 0xcbf29ce484222325, low limb first
  local p = {0x01b3, 0x0000, 0x0100, 0x0000}         -- 0x100000001b3
  for i = 1, #str do
    h[1] = h[1] - h[1] % 256 + bxor(h[1] % 256, str:byte(i))
    local r = {0, 0, 0, 0}
    for a = 1, 4 do
      for c = 1, 5 - a do r[a + c - 1] = r[a + c - 1] + h[a] * p[c] end
    end
    local carry = 0
    for k = 1, 4 do
      local v = r[k] + carry
      r[k], carry = v % 65536, floor(v / 65536)
    end
    h = r
  end
  local t = {}
  for k = 1, 4 do t[2 * k - 1], t[2 * k] = h[k] % 256, floor(h[k] / 256) end
  return string.char(unpack(t))
end

return M
