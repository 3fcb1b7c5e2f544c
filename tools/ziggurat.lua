-- Writes src/kernels/ziggurat.h: the 256-layer ziggurat of the normal
-- density f(x) = exp(-x^2/2) behind NumPy's Generator.standard_normal
-- (Marsaglia and Tsang, "The Ziggurat Method for Generating Random
-- Variables", 2000), as NumPy's kernel indexes it. usage (from the checkout):
--   lua5.4 tools/ziggurat.lua > src/kernels/ziggurat.h
--
-- The construction. Layers of equal area V; the base (layer 0) is the
-- rectangle [0, r] x [0, f(r)] plus the tail beyond r. With x_255 = r,
--   x_(i-1) = sqrt(-2 log(f(x_i) + V / x_i)),   i = 255 .. 2,   x_0 = 0,
-- layer i (1..255) is [0, x_i] x [f(x_i), f(x_(i-1))]. For a 52-bit uniform
-- integer u in layer i, NumPy returns u * w_i when u < k_i, with
--   w_i = x_i / 2^52, k_i = round(x_(i-1) / x_i * 2^52) (k_1 = 0),
--   w_0 = (V / f(r)) / 2^52, k_0 = round(r f(r) / V * 2^52),
-- and f_i = f(x_i) (f_0 = 1) for the wedge test. NumPy's constants: r =
-- 3.6541528853610088 and V = 0.0049286732339746519 (the area
-- r f(r) + integral_r^inf f, for that r, to double precision).
--
-- NumPy's tables were computed in double precision, step by step as above
-- (so the top layers carry the recurrence's rounding, ~1e-13 relative at
-- x_1); to give its draws bit for bit the tables must carry the same
-- rounding. This file does the same arithmetic with the C library's exp and
-- log (glibc's here) and rounds ties to even. One step differs from glibc:
-- exp(-x_38^2 / 2) is within 0.002 ulp of a halfway point between two
-- doubles (glibc returns the lower, 0.498 ulp away; the machine that made
-- NumPy's tables returned the upper), and NumPy's draws from layers 1..38
-- (spec/random_spec.lua) show the upper one; TIE_UP names that step.
local R = 3.6541528853610087963519472518
local V = 0.0049286732339746519
local M = 2.0 ^ 52
local TIE_UP = 38          -- f(x_38) taken as the upper neighbour (see above)

local function f(x) return math.exp(-0.5 * x * x) end

-- the next double above y > 0 (y normal)
local function up(y)
  local e = 0
  while 2.0 ^ e > y do e = e - 1 end
  while 2.0 ^ (e + 1) <= y do e = e + 1 end
  return y + 2.0 ^ (e - 52)
end

-- nearest integer, ties to even (y >= 0, y < 2^53)
local function round(y)
  local fl = math.floor(y)
  local d = y - fl
  if d > 0.5 or (d == 0.5 and fl % 2 == 1) then fl = fl + 1 end
  return fl
end

local x, fx = {}, {}
x[255] = R
fx[255] = f(R)
for i = 255, 2, -1 do
  local fi = f(x[i])
  if i == TIE_UP then fi = up(fi) end
  fx[i] = fi
  x[i - 1] = math.sqrt(-2 * math.log(fi + V / x[i]))
end
fx[1] = f(x[1])
x[0], fx[0] = 0.0, 1.0

local k, w = {}, {}
k[0] = round(R * f(R) / V * M)
w[0] = V / f(R) / M
k[1] = 0
w[1] = x[1] / M
for i = 2, 255 do
  k[i] = round(x[i - 1] / x[i] * M)
  w[i] = x[i] / M
end

local function rows(fmt, t)
  local out = {}
  for i = 0, 255, 2 do
    out[#out + 1] = "  " .. string.format(fmt, t[i]) .. ", " .. string.format(fmt, t[i + 1]) ..
      (i < 254 and "," or "")
  end
  return table.concat(out, "\n")
end

io.write([[
/*
** kernels/ziggurat.h: the tables of NumPy's 256-layer normal ziggurat
** (Generator.standard_normal), written by tools/ziggurat.lua (the
** construction is described there). numpy_rng.c defines the tables
** (LAK_ZIG_DEFINE), rng.c (la.randn) reads them through the declarations.
** k: acceptance thresholds on 52-bit integers, w: layer widths / 2^52,
** f: the density at each layer's edge. Do not edit: run the tool.
*/
static const double lak_zig_r = 3.6541528853610088;
static const double lak_zig_inv_r = ]] .. string.format("%a", 0.27366123732975827203338247596) .. [[;  /* NumPy's literal for 1/r */
extern const uint64_t lak_zig_k[256];
extern const double lak_zig_w[256], lak_zig_f[256];
#ifdef LAK_ZIG_DEFINE
const uint64_t lak_zig_k[256] = {
]], rows("0x%013XULL", (function()
  local t = {}
  for i = 0, 255 do t[i] = math.tointeger(k[i]) end
  return t
end)()), "\n};\nconst double lak_zig_w[256] = {\n", rows("%a", w),
  "\n};\nconst double lak_zig_f[256] = {\n", rows("%a", fx), "\n};\n#endif\n")
