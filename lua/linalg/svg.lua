--- linalg.svg: pictures of matrices and vectors as SVG files.
-- Loaded on first use by `la.heatmap` and `la.plot_vectors`.
-- @module linalg.svg
local core = require "linalg.core"

local util = require "linalg.util"
local compat = require "linalg.compat"
local fail, typename = util.fail, util.typename
-- numbers written with '.' whatever the C locale (an SVG with "60,5" draws
-- nothing): each writer sets format for its run (util.cformatter)
local format, cstr = string.format, util.cstr

local M = {}

-- Text as XML character data or an attribute value: markup characters
-- escaped; bytes that are not UTF-8, and characters XML 1.0 does not allow
-- (controls other than tab and line breaks, U+FFFE, U+FFFF), replaced by
-- U+FFFD, so that any string gives a well-formed file.
local REPL = "\239\191\189"
local function xmltext(s)
  local ok = compat.utf8len(s) and not s:find("[%z\1-\8\11\12\14-\31\127]") and not s:find("\239\191[\190\191]")
  if not ok then
    local out, i = {}, 1
    while i <= #s do
      local len, bad = compat.utf8len(s, i)
      local stop = len and #s or bad - 1
      for _, c in compat.utf8codes(s:sub(i, stop)) do
        if (c < 32 and c ~= 9 and c ~= 10 and c ~= 13) or c == 127 or c == 0xFFFE or c == 0xFFFF then
          out[#out + 1] = REPL
        else
          out[#out + 1] = compat.utf8char(c)
        end
      end
      if len then break end
      out[#out + 1] = REPL
      i = bad + 1
    end
    s = table.concat(out)
  end
  return (s:gsub("[&<>\"']", {["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;"}))
end
local function esc(s) return xmltext(cstr(s)) end

-- ------------------------------------------------------------------ colours

-- CSS named colours (CSS Color Module Level 4)
local NAMED = {}
for name in ([[aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
  blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan
  darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen
  darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey
  darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite
  forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink
  indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral
  lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen
  lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta
  maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue
  mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin
  navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen
  paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red
  rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue
  slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
  whitesmoke yellow yellowgreen]]):gmatch("%a+") do NAMED[name] = true end

-- A colour from the user, checked against a strict grammar: #rgb, #rrggbb,
-- rgb(r, g, b) with integers 0..255 (or percentages 0..100%), or a CSS
-- colour name. Returns it in a form safe in an attribute.
local function checkcolor(c, fname, what)
  if type(c) ~= "string" then fail(fname, "%s must be a colour string, got %s", what, typename(c)) end
  if c:match("^#%x%x%x$") or c:match("^#%x%x%x%x%x%x$") then return c end
  if NAMED[c:lower()] then return c:lower() end
  local args = c:match("^rgb%((.*)%)$")
  if args then
    local vals, pct = {}, nil
    for v in (args .. ","):gmatch("%s*([^,]-)%s*,") do vals[#vals + 1] = v end
    local good = #vals == 3
    for i = 1, #vals do
      local d, p = vals[i]:match("^(%d+)(%%?)$")
      if not d or #d > 3 then good = false; break end
      if pct == nil then pct = p end
      good = good and p == pct and tonumber(d) <= (p == "%" and 100 or 255)
    end
    if good then return "rgb(" .. table.concat(vals, ",") .. ")" end
  end
  fail(fname, "%s %q is not a colour (#rgb, #rrggbb, rgb(r, g, b) or a CSS colour name)", what, c)
end

-- colour maps: anchors from 0 to 1, interpolated linearly
local MAPS = {
  viridis = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}},
  rdbu = {{33, 102, 172}, {146, 197, 222}, {247, 247, 247}, {244, 165, 130}, {178, 24, 43}},
}
local NANCOLOR = "#bbbbbb"

local function color(map, t)
  if t ~= t then return NANCOLOR end
  t = math.max(0, math.min(1, t))
  local k = t * (#map - 1)
  local i = math.min(#map - 1, math.floor(k))
  local f, a, b = k - i, map[i + 1], map[i + 2] or map[i + 1]
  return format("#%02x%02x%02x", math.floor(a[1] + f * (b[1] - a[1]) + 0.5),
    math.floor(a[2] + f * (b[2] - a[2]) + 0.5), math.floor(a[3] + f * (b[3] - a[3]) + 0.5))
end

local function finite(x) return x == x and x > -math.huge and x < math.huge end

-- ----------------------------------------------------------------- heatmap

-- Block means so that at most `capr` cells are drawn down and `capc` across.
local function downsample(A, capr, capc)
  local m, n = A:shape()
  local fr, fc = math.max(1, math.ceil(m / capr)), math.max(1, math.ceil(n / capc))
  if fr == 1 and fc == 1 then return A, 1, 1 end
  local R = core.zeros(math.ceil(m / fr), math.ceil(n / fc))
  for i = 1, R:rows() do
    for j = 1, R:cols() do
      local i2, j2 = math.min(m, i * fr), math.min(n, j * fc)
      R:set(i, j, A:sub((i - 1) * fr + 1, i2, (j - 1) * fc + 1, j2):mean())
    end
  end
  return R, fr, fc
end

-- A list of labels: exactly `count` strings or numbers.
local function labels(t, count, key, what)
  if t == nil then return nil end
  local out, why, i, v = util.stringlist(t, count)
  if why == "length" then fail("heatmap", "option '%s' has %d entries for %d %s", key, i, count, what) end
  if why == "entry" then
    fail("heatmap", "option '%s': entry %d must be a string or number, got %s", key, i, typename(v))
  end
  return out
end

-- Legend ticks for [lo, hi]: about `want` round values (1, 2 or 5 times a
-- power of ten apart), formatted with as many digits as tell them apart.
local function ticks(lo, hi, want)
  if lo == hi then return {lo} end
  local raw = (hi * 0.5 - lo * 0.5) / want * 2      -- halves: hi - lo may overflow
  local p = 10 ^ math.floor(compat.log10(raw))
  local step = p
  for _, f in ipairs{2, 5, 10} do if step < raw then step = f * p end end
  local out = {}
  if not (step > 0 and step < math.huge) then return {lo, hi} end
  local k = math.ceil(lo / step)
  for _ = 1, 1000 do                                 -- k * step may repeat near 2^53
    if #out >= 25 then break end
    local v = k * step
    if v > hi then break end
    if v >= lo then out[#out + 1] = v == 0 and 0.0 or v end
    k = k + 1
  end
  if #out < 2 then return {lo, hi} end
  return out
end

local function tickfmt(values, step)
  local big = 0
  for _, v in ipairs(values) do big = math.max(big, math.abs(v)) end
  local digits = 4
  if step and step > 0 and big > 0 then
    digits = math.max(digits, math.floor(compat.log10(big)) - math.floor(compat.log10(step)) + 1)
  end
  digits = math.min(17, digits)
  local out = {}
  for i, v in ipairs(values) do out[i] = format("%." .. digits .. "g", v) end
  return out
end

-- A rough text width in pixels at 12 px sans-serif.
local function textwidth(s) return 7 * (compat.utf8len(s) or #s) end

-- Labels of every step-th of `count` cells on an axis where a cell is a
-- block of `block` rows or columns: the given labels, else indices; the
-- first of each block. Returns them (keyed by cell) and the widest's width.
local function axislabels(count, step, block, given)
  local text, width = {}, 0
  for i = 1, count, step do
    local r = (i - 1) * block + 1
    text[i] = given and given[r] or cstr(r)
    width = math.max(width, textwidth(text[i]))
  end
  return text, width
end

local HEATMAP = {title = "string", row_labels = "table", col_labels = "table", cmap = {"viridis", "rdbu"},
                 vmin = "number", vmax = "number", cell = "integer", max_cells = "integer"}

--- Writes an SVG heatmap of a matrix (attention weights, projection
-- matrices, correlations) with a colour legend.
-- Rows and columns are labelled on the axes (their indices unless labels
-- are given; when the matrix is shown as block means, the first row or
-- column of each block); the legend has ticks at round values, a grey NaN
-- swatch when the picture shows NaN, and for a constant matrix its value.
-- @param A matrix (or table)
-- @string path
-- @tparam[opt] table opts `title`, `row_labels`, `col_labels` (tables of
--   strings or numbers, one per row or column), `cmap` ("viridis", or
--   "rdbu" — the default when the values have both signs, centred on 0),
--   `vmin`, `vmax` (finite; values outside take the end colours), `cell`
--   (pixels, 1..100, default chosen from the size), `max_cells` (per side
--   before block averaging, 1..1000, default 200)
function M.heatmap(A, path, opts)
  format = util.cformatter()
  A = core.asmatrix(A, "heatmap", 1)
  util.checkpath(path, "heatmap", 2)
  opts = util.options(opts, "heatmap", 3, HEATMAP)
  local m, n = A:shape()
  if m == 0 or n == 0 then fail("heatmap", "empty %dx%d matrix", m, n) end
  for _, k in ipairs{"vmin", "vmax"} do
    if opts[k] and not finite(opts[k]) then fail("heatmap", "option '%s' must be finite, got %s", k, cstr(opts[k])) end
  end
  if opts.vmin and opts.vmax and not (opts.vmin < opts.vmax) then
    fail("heatmap", "option 'vmin' (%.17g) must be below 'vmax' (%.17g)", opts.vmin, opts.vmax)
  end
  local cap = opts.max_cells or 200
  if cap < 1 or cap > 1000 then fail("heatmap", "option 'max_cells' must be in 1..1000, got %d", cap) end
  if opts.cell and (opts.cell < 1 or opts.cell > 100) then
    fail("heatmap", "option 'cell' must be in 1..100, got %d", opts.cell)
  end
  local rl = labels(opts.row_labels, m, "row_labels", "rows")
  local cl = labels(opts.col_labels, n, "col_labels", "columns")
  -- a thin matrix (a weight row, a column) keeps up to 800 cells along
  -- itself unless max_cells says otherwise
  local thin = not opts.max_cells and math.min(m, n) <= 8
  local D, fr, fc = downsample(A, thin and n <= 8 and 800 or cap, thin and m <= 8 and 800 or cap)
  local dm, dn = D:shape()
  local lo, hi, nan = math.huge, -math.huge, false     -- the range of the cells shown
  for j = 1, dn do for i = 1, dm do
    local x = D(i, j)
    if finite(x) then lo = math.min(lo, x); hi = math.max(hi, x) elseif x ~= x then nan = true end
  end end
  if lo > hi then lo, hi = 0, 1 end                       -- nothing finite
  local diverging = opts.cmap == "rdbu" or (opts.cmap == nil and lo < 0 and hi > 0)
  if diverging and not (opts.vmin or opts.vmax) then
    local b = math.max(-lo, hi); lo, hi = -b, b
  end
  lo, hi = opts.vmin or lo, opts.vmax or hi
  if lo > hi then
    fail("heatmap", "option '%s' (%.17g) leaves no range: the values shown run from %.17g to %.17g",
         opts.vmin and "vmin" or "vmax", opts.vmin or opts.vmax, lo, hi)
  end
  local map = MAPS[diverging and "rdbu" or (opts.cmap or "viridis")]
  -- where a value sits on the scale; a constant picture sits in the middle
  local function scale(x)
    if hi == lo then return x ~= x and x or x < lo and 0 or x > hi and 1 or 0.5 end
    return (x * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5)
  end
  local cell = opts.cell or math.max(2, math.min(40, math.floor(600 / math.max(dm, dn))))
  -- cells cw wide and ch high: a thin picture is stretched across its short
  -- side to a readable band (at least 80 px, cells at most 40)
  local cw, ch = cell, cell
  if not opts.cell and dm * ch < 80 then ch = math.max(cell, math.min(40, math.floor(80 / dm))) end
  if not opts.cell and dn * cw < 80 then cw = math.max(cell, math.min(40, math.floor(80 / dn))) end
  -- labels at least 13 px apart
  local rstep, cstep = math.max(1, math.ceil(13 / ch)), math.max(1, math.ceil(13 / cw))
  -- axis labels: the given ones, else indices; the first of each block
  local rowtext, rw = axislabels(dm, rstep, fr, rl)
  local coltext, cwid = axislabels(dn, cstep, fc, cl)
  local left = math.min(240, math.max(20, rw + 12))
  local top = (opts.title and 36 or 12) + math.min(200, math.floor(cwid * 0.87) + 10)
  -- legend: a vertical colour bar, ticks at round values, NaN below it
  local lx, ly, lh = left + dn * cw + 20, top, math.max(60, math.min(300, dm * ch))
  local tv = ticks(lo, hi, math.max(2, math.min(6, compat.idiv(lh, 40))))
  local tt = tickfmt(tv, #tv > 1 and tv[2] - tv[1] or nil)
  local tw = 0
  for _, s in ipairs(tt) do tw = math.max(tw, textwidth(s)) end
  local W = lx + 16 + 8 + math.max(tw, nan and 28 or 0) + 12
  local H = math.max(top + dm * ch + 30, ly + lh + (nan and 40 or 16))
  if opts.title then W = math.max(W, left + compat.idiv(textwidth(opts.title) * 16, 12) + 12) end
  local out = {format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">\n', W, H, W, H),
    '<rect width="100%" height="100%" fill="white"/>\n'}
  if opts.title then
    out[#out + 1] = format('<text x="%d" y="22" font-size="16">%s</text>\n', left, esc(opts.title))
  end
  out[#out + 1] = format('<g shape-rendering="crispEdges" transform="translate(%d,%d)">\n', left, top)
  for i = 1, dm do
    for j = 1, dn do
      out[#out + 1] = format('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>\n',
        (j - 1) * cw, (i - 1) * ch, cw, ch, color(map, scale(D(i, j))))
    end
  end
  out[#out + 1] = "</g>\n"
  out[#out + 1] = '<g class="row-labels" text-anchor="end" dominant-baseline="middle">\n'
  for i = 1, dm, rstep do
    out[#out + 1] = format('<text x="%d" y="%.1f">%s</text>\n', left - 4, top + (i - 0.5) * ch, esc(rowtext[i]))
  end
  out[#out + 1] = '</g>\n<g class="col-labels">\n'
  for j = 1, dn, cstep do
    out[#out + 1] = format('<text transform="translate(%d,%d) rotate(-60)">%s</text>\n',
      math.floor(left + (j - 0.5) * cw), top - 4, esc(coltext[j]))
  end
  out[#out + 1] = '</g>\n<g class="legend">\n'
  for k = 0, 49 do
    out[#out + 1] = format('<rect x="%d" y="%.2f" width="16" height="%.2f" fill="%s"/>\n',
      lx, ly + (49 - k) * lh / 50, lh / 50 + 0.5, color(map, (k + 0.5) / 50))
  end
  for k, v in ipairs(tv) do
    local y = ly + lh * (1 - scale(v))
    local yl = math.floor(y) + 0.5                      -- one pixel row: a crisp line
    out[#out + 1] = format('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black"/>\n', lx + 16, yl, lx + 21, yl)
    out[#out + 1] = format('<text x="%d" y="%.1f" dominant-baseline="middle">%s</text>\n', lx + 24, y, esc(tt[k]))
  end
  if nan then
    out[#out + 1] = format('<rect x="%d" y="%d" width="16" height="14" fill="%s"/>\n', lx, ly + lh + 12, NANCOLOR)
    out[#out + 1] = format('<text x="%d" y="%d" dominant-baseline="middle">NaN</text>\n', lx + 24, ly + lh + 19)
  end
  out[#out + 1] = "</g>\n"
  if fr > 1 or fc > 1 then
    out[#out + 1] = format('<text x="%d" y="%d" fill="#555">%dx%d shown as %dx%d block means</text>\n',
      left, top + dm * ch + 18, m, n, dm, dn)
  end
  out[#out + 1] = "</svg>\n"
  util.writefile(path, out, "heatmap", 2)
end

-- ------------------------------------------------------------ plot_vectors

local COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"}

local function vec2(x, fname, what)
  local v = core.asmatrix(x, fname, 1)
  if v:numel() ~= 2 then fail(fname, "%s must be a 2-D vector, got %dx%d", what, v:rows(), v:cols()) end
  local a, b = v(1), v(2)
  if not (finite(a) and finite(b)) then
    fail(fname, "%s has a coordinate that is not finite (%s, %s)", what, cstr(a), cstr(b))
  end
  return a, b
end

-- Splits a table into its list part (raw entries 1..n, n the first hole)
-- and a plain table of its string keys; any other key is an error.
local function split(t, fname, what)
  local n = 0
  while rawget(t, n + 1) ~= nil do n = n + 1 end
  local named = {}
  for k, v in next, t do
    if type(k) == "string" then named[k] = v
    elseif not (compat.isint(k) and k >= 1 and k <= n) then
      fail(fname, "%s has a key %s that is neither a name nor part of the list 1..%d", what, tostring(k), n)
    end
  end
  return n, named
end

-- Where an arrow's label goes (pixels from (x0, y0) to (x1, y1)): beyond the
-- tip along the arrow, clear of its head (the head is 20 px long, drawn
-- back from the tip), or, for an arrow drawn from a point, beside the
-- middle of its shaft; anchored so that the text runs away from the arrow.
-- Returns x, y (the text's baseline), the anchor and the rest of args.
local function labelat(x0, y0, x1, y1, mid, ...)
  local dx, dy = x1 - x0, y1 - y0
  local len = math.sqrt(dx * dx + dy * dy)
  if len == 0 then return x1 + 6, y1 - 6, "start", ... end
  local ux, uy = dx / len, dy / len
  local ox, oy, cx, cy
  if mid then                               -- beside the shaft, on its left
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ox, oy = uy, -ux
  else
    cx, cy, ox, oy = x1, y1, ux, uy
  end
  local x, y = cx + ox * 10, cy + oy * 10
  local anchor = ox > 0.35 and "start" or ox < -0.35 and "end" or "middle"
  -- the baseline: text hangs below a point under the arrow, sits above one over it
  y = y + (oy > 0.35 and 12 or oy < -0.35 and -2 or 5)
  return x, y, anchor, ...
end

local SPEC = {path = "string", title = "string", right_angles = "table"}
local ARROW = {label = "any", from = "matrix", color = "string", dashed = "boolean"}
local MARK = {at = "matrix", a = "matrix", b = "matrix"}

--- Writes an SVG of 2-D vectors drawn as arrows, as in the seed's
-- projection picture.
-- @tparam table spec the arrows as entries `{vector, label = "u", from = point,
--   color = "#rrggbb", dashed = true}` (a colour is #rgb, #rrggbb,
--   rgb(r, g, b) or a CSS colour name); `path` (required), `title`, and
--   `right_angles = {{at = point, a = direction, b = direction}, ...}` for
--   right-angle marks. Coordinates must be finite.
function M.plot_vectors(spec)
  format = util.cformatter()
  if type(spec) ~= "table" or core.is_matrix(spec) then
    fail("plot_vectors", "bad argument #1 (table expected, got %s)", typename(spec))
  end
  local count, named = split(spec, "plot_vectors", "the specification")
  local o = util.options(named, "plot_vectors", 1, SPEC)
  if o.path == nil then fail("plot_vectors", "spec.path must be a file name") end
  local arrows, xs, ys = {}, {0}, {0}
  for k = 1, count do
    local a = spec[k]
    if type(a) ~= "table" or core.is_matrix(a) or rawget(a, 1) == nil then
      fail("plot_vectors", "entry %d must be {vector, label = ...}", k)
    end
    local what = "entry " .. k
    local n, anamed = split(a, "plot_vectors", what)
    if n ~= 1 then fail("plot_vectors", "%s must hold one vector, it holds %d entries", what, n) end
    local ao = util.options(anamed, "plot_vectors", 1, ARROW)
    local x, y = vec2(rawget(a, 1), "plot_vectors", what)
    local fx, fy = 0, 0
    if ao.from then fx, fy = vec2(ao.from, "plot_vectors", what .. ".from") end
    if ao.label ~= nil and type(ao.label) ~= "string" and type(ao.label) ~= "number" then
      fail("plot_vectors", "%s.label must be a string or number, got %s", what, typename(ao.label))
    end
    local col = ao.color and checkcolor(ao.color, "plot_vectors", what .. ".color") or COLORS[(k - 1) % #COLORS + 1]
    arrows[k] = {fx, fy, fx + x, fy + y, ao.label, col, ao.dashed}
    if not (finite(fx + x) and finite(fy + y)) then
      fail("plot_vectors", "%s ends at a point that is not finite", what)
    end
    xs[#xs + 1], xs[#xs + 2], ys[#ys + 1], ys[#ys + 2] = fx, fx + x, fy, fy + y
  end
  local marks = {}
  if o.right_angles then
    local n = split(o.right_angles, "plot_vectors", "right_angles")
    for k = 1, n do
      local r = rawget(o.right_angles, k)
      local what = "right_angles[" .. k .. "]"
      if type(r) ~= "table" or core.is_matrix(r) then
        fail("plot_vectors", "%s must be {at = point, a = direction, b = direction}, got %s", what, typename(r))
      end
      local _, rnamed = split(r, "plot_vectors", what)
      local ro = util.options(rnamed, "plot_vectors", 1, MARK)
      for _, key in ipairs{"at", "a", "b"} do
        if ro[key] == nil then fail("plot_vectors", "%s.%s is missing", what, key) end
      end
      local ax, ay = vec2(ro.at, "plot_vectors", what .. ".at")
      local ux, uy = vec2(ro.a, "plot_vectors", what .. ".a")
      local vx, vy = vec2(ro.b, "plot_vectors", what .. ".b")
      marks[k] = {ax, ay, ux, uy, vx, vy}
    end
  end
  local function range(t)
    local lo, hi = math.huge, -math.huge
    for _, v in ipairs(t) do lo = math.min(lo, v); hi = math.max(hi, v) end
    local pad = math.max(0.5, 0.12 * (hi - lo))
    return lo - pad, hi + pad
  end
  local x0, x1 = range(xs)
  local y0, y1 = range(ys)
  if not (finite(x1 - x0) and finite(y1 - y0)) then
    fail("plot_vectors", "the coordinates span too wide a range to draw (x %g..%g, y %g..%g)", x0, x1, y0, y1)
  end
  local size = 480
  local s = size / math.max(x1 - x0, y1 - y0)               -- one scale: right angles look right
  local W, H = math.floor((x1 - x0) * s) + 40, math.floor((y1 - y0) * s) + (o.title and 70 or 40)
  local oy = o.title and 50 or 20
  local function px(x) return 20 + (x - x0) * s end
  local function py(y) return oy + (y1 - y) * s end
  local out = {format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="14">\n', W, H, W, H),
    '<rect width="100%" height="100%" fill="white"/>\n', "<defs>\n"}
  for k, a in ipairs(arrows) do
    out[#out + 1] = format('<marker id="h%d" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>\n', k, esc(a[6]))
  end
  out[#out + 1] = "</defs>\n"
  if o.title then
    out[#out + 1] = format('<text x="20" y="28" font-size="17">%s</text>\n', esc(o.title))
  end
  out[#out + 1] = format('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>\n', px(x0), py(0), px(x1), py(0))
  out[#out + 1] = format('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/>\n', px(0), py(y0), px(0), py(y1))
  for _, r in ipairs(marks) do
    local ax, ay, ux, uy, vx, vy = compat.unpack(r)
    local nu, nv = math.sqrt(ux * ux + uy * uy), math.sqrt(vx * vx + vy * vy)
    if nu > 0 and nv > 0 and nu < math.huge and nv < math.huge then
      local d = 14 / s
      ux, uy, vx, vy = ux / nu * d, uy / nu * d, vx / nv * d, vy / nv * d
      out[#out + 1] = format('<path d="M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f" fill="none" stroke="#333"/>\n',
        px(ax + ux), py(ay + uy), px(ax + ux + vx), py(ay + uy + vy), px(ax + vx), py(ay + vy))
    end
  end
  for k, a in ipairs(arrows) do
    out[#out + 1] = format('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2.5"%s marker-end="url(#h%d)"/>\n',
      px(a[1]), py(a[2]), px(a[3]), py(a[4]), esc(a[6]), a[7] and ' stroke-dasharray="7,5"' or "", k)
    if a[5] then
      out[#out + 1] = format('<text x="%.1f" y="%.1f" text-anchor="%s" fill="%s">%s</text>\n',
        labelat(px(a[1]), py(a[2]), px(a[3]), py(a[4]), a[1] ~= 0 or a[2] ~= 0, esc(a[6]), esc(a[5])))
    end
  end
  out[#out + 1] = "</svg>\n"
  util.writefile(o.path, out, "plot_vectors", 1)     -- spec.path: in argument #1
end

-- --------------------------------------------- scatter, lineplot, histogram

-- a vector argument as a Lua list of its entries (a matrix of one row or
-- column, or a table of numbers)
local function values(x, fname, argno, what)
  local v = core.asmatrix(x, fname, argno)
  local m, n = v:shape()
  if m ~= 1 and n ~= 1 then fail(fname, "%s must be a vector, got %dx%d", what, m, n) end
  local t = {}
  for i = 1, v:numel() do t[i] = v(i) end
  return t
end

-- an axis: its range over the values given (finite ones; positive ones on
-- a log axis, where a value <= 0 is an error), with the position function
-- and nice ticks
local function axis(lists, log, fname, name, zero)
  local lo, hi = math.huge, -math.huge
  for _, t in ipairs(lists) do
    for i, x in ipairs(t) do
      if finite(x) then
        if log and x <= 0 then
          fail(fname, "%s has a value <= 0 (%.17g, entry %d) on a log axis (%slog)", name, x, i, name)
        end
        local u = log and compat.log10(x) or x
        lo, hi = math.min(lo, u), math.max(hi, u)
      end
    end
  end
  if lo > hi then lo, hi = 0, 1 end                       -- nothing finite
  if zero and not log then lo, hi = math.min(lo, 0), math.max(hi, 0) end
  if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
  if not finite(hi - lo) then fail(fname, "the %s values span too wide a range to draw", name) end
  local tv
  local pad = (hi - lo) * 0.04
  if log then
    tv = {}
    local a, b = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
    local every = math.max(1, math.ceil((b - a + 1) / 8))
    for k = a, b, every do tv[#tv + 1] = k end
    if #tv < 2 then                                        -- under a decade: linear ticks, placed in log
      tv = {}
      for _, v in ipairs(ticks(10 ^ lo, 10 ^ hi, 4)) do if v > 0 then tv[#tv + 1] = compat.log10(v) end end
    end
  else
    tv = ticks(zero and lo or lo - pad, hi + pad, 6)
  end
  -- a margin of 4 % around the data (bars stand on zero)
  lo, hi = (zero and not log and lo >= 0) and lo or lo - pad, hi + pad
  local shown = {}
  for _, v in ipairs(tv) do shown[#shown + 1] = log and 10 ^ v or v end
  local text = tickfmt(shown, #shown > 1 and not log and shown[2] - shown[1] or nil)
  return {lo = lo, hi = hi, log = log, ticks = tv, text = text}
end

local PLOT_W, PLOT_H = 640, 420

-- The frame of a plot: title, axes with ticks and labels, returned as the
-- list of SVG parts and the functions from data to pixels. legend: labels
-- (with colours) drawn at the right.
local function frame(o, X, Y, legend)
  local lw = 0
  for _, l in ipairs(legend or {}) do lw = math.max(lw, textwidth(l[1]) + 30) end
  local ytw = 0
  for _, t in ipairs(Y.text) do ytw = math.max(ytw, textwidth(t)) end
  local left = ytw + 16 + (o.ylabel and 22 or 0)
  local top = o.title and 40 or 16
  local W = left + PLOT_W + 20 + (lw > 0 and lw + 16 or 0)
  local H = top + PLOT_H + 34 + (o.xlabel and 22 or 0)
  if o.title then W = math.max(W, left + compat.idiv(textwidth(o.title) * 16, 12) + 12) end
  local function pos(A, u, a, b)
    if A.log then u = compat.log10(u) end
    return a + (u - A.lo) / (A.hi - A.lo) * (b - a)
  end
  local function px(x) return pos(X, x, left, left + PLOT_W) end
  local function py(y) return pos(Y, y, top + PLOT_H, top) end
  local out = {format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">\n', W, H, W, H),
    '<rect width="100%" height="100%" fill="white"/>\n'}
  if o.title then
    out[#out + 1] = format('<text class="title" x="%d" y="26" font-size="16">%s</text>\n', left, esc(o.title))
  end
  out[#out + 1] = '<g class="grid" stroke="#e4e4e4">\n'
  for _, v in ipairs(X.ticks) do
    local x = math.floor(left + (v - X.lo) / (X.hi - X.lo) * PLOT_W) + 0.5
    out[#out + 1] = format('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n', x, top, x, top + PLOT_H)
  end
  for _, v in ipairs(Y.ticks) do
    local y = math.floor(top + PLOT_H - (v - Y.lo) / (Y.hi - Y.lo) * PLOT_H) + 0.5
    out[#out + 1] = format('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>\n', left, y, left + PLOT_W, y)
  end
  out[#out + 1] = "</g>\n"
  out[#out + 1] = format('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>\n', left, top, PLOT_W, PLOT_H)
  out[#out + 1] = '<g class="xticks" text-anchor="middle">\n'
  for k, v in ipairs(X.ticks) do
    local x = math.floor(left + (v - X.lo) / (X.hi - X.lo) * PLOT_W) + 0.5
    out[#out + 1] = format('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333"/><text x="%.1f" y="%d">%s</text>\n',
      x, top + PLOT_H, x, top + PLOT_H + 5, x, top + PLOT_H + 18, esc(X.text[k]))
  end
  out[#out + 1] = '</g>\n<g class="yticks" text-anchor="end">\n'
  for k, v in ipairs(Y.ticks) do
    local y = math.floor(top + PLOT_H - (v - Y.lo) / (Y.hi - Y.lo) * PLOT_H) + 0.5
    out[#out + 1] = format('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#333"/><text x="%d" y="%.1f">%s</text>\n',
      left - 5, y, left, y, left - 8, y + 4, esc(Y.text[k]))
  end
  out[#out + 1] = "</g>\n"
  if o.xlabel then
    out[#out + 1] = format('<text class="xlabel" x="%d" y="%d" text-anchor="middle">%s</text>\n',
      left + PLOT_W / 2, top + PLOT_H + 40, esc(o.xlabel))
  end
  if o.ylabel then
    out[#out + 1] = format('<text class="ylabel" transform="translate(16,%d) rotate(-90)" text-anchor="middle">%s</text>\n',
      top + PLOT_H / 2, esc(o.ylabel))
  end
  if legend and #legend > 0 then
    local lx = left + PLOT_W + 16
    out[#out + 1] = '<g class="legend">\n'
    for k, l in ipairs(legend) do
      local y = top + 10 + (k - 1) * 20
      out[#out + 1] = format('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5"/><text x="%d" y="%d">%s</text>\n',
        lx, y, lx + 22, y, l[2], lx + 28, y + 4, esc(l[1]))
    end
    out[#out + 1] = "</g>\n"
  end
  -- the data is drawn clipped to the frame
  out[#out + 1] = format('<clipPath id="plot"><rect x="%d" y="%d" width="%d" height="%d"/></clipPath>\n<g clip-path="url(#plot)">\n',
    left, top, PLOT_W, PLOT_H)
  return out, px, py
end

local function finish(out, path, fname, argno)
  out[#out + 1] = "</g>\n</svg>\n"
  util.writefile(path, out, fname, argno)
end

local PLOT = {title = "string", xlabel = "string", ylabel = "string", xlog = "boolean", ylog = "boolean",
              color = "string"}

--- Writes an SVG scatter plot of the points (x[i], y[i]).
-- Axes have ticks at round values (powers of ten on a log axis); points
-- whose coordinates are not finite are not drawn.
-- @param x vector (matrix or table)
-- @param y vector of the same length
-- @string path
-- @tparam[opt] table opts `title`, `xlabel`, `ylabel`, `xlog`, `ylog` (log
--   axes: the values must be > 0), `color`, `size` (the points' radius in
--   pixels, 0.5..20, default 3)
function M.scatter(x, y, path, opts)
  format = util.cformatter()
  local xs, ys = values(x, "scatter", 1, "x"), values(y, "scatter", 2, "y")
  util.checkpath(path, "scatter", 3)
  local spec = {size = "number"}
  for k, v in pairs(PLOT) do spec[k] = v end
  local o = util.options(opts, "scatter", 4, spec)
  if #xs ~= #ys then fail("scatter", "x has %d entries but y has %d", #xs, #ys) end
  local r = o.size or 3
  if not (r >= 0.5 and r <= 20) then fail("scatter", "option 'size' must be in 0.5..20, got %s", cstr(r)) end
  local col = o.color and checkcolor(o.color, "scatter", "option 'color'") or COLORS[1]
  local X, Y = axis({xs}, o.xlog, "scatter", "x"), axis({ys}, o.ylog, "scatter", "y")
  local out, px, py = frame(o, X, Y)
  out[#out + 1] = format('<g class="points" fill="%s" fill-opacity="0.75">\n', col)
  for i = 1, #xs do
    if finite(xs[i]) and finite(ys[i]) then
      out[#out + 1] = format('<circle cx="%.2f" cy="%.2f" r="%g"/>\n', px(xs[i]), py(ys[i]), r)
    end
  end
  out[#out + 1] = "</g>\n"
  finish(out, path, "scatter", 3)
end

-- the series of lineplot's ys: a vector, a matrix whose columns are series
-- (rows = #x), or a list of vectors
local function series(ys, n)
  local first = type(ys) == "table" and not core.is_matrix(ys) and rawget(ys, 1)
  if first and (type(first) == "table" or core.is_matrix(first)) then
    local out = {}
    for k = 1, compat.rawlen(ys) do out[k] = values(rawget(ys, k), "lineplot", 2, "series " .. k) end
    return out
  end
  local Y = core.asmatrix(ys, "lineplot", 2)
  local m, c = Y:shape()
  if m == 1 and c == n and n ~= 1 then Y = Y:t(); m, c = c, 1 end
  if m ~= n then fail("lineplot", "ys has %d rows for %d x values", m, n) end
  local out = {}
  for j = 1, c do
    local t = {}
    for i = 1, m do t[i] = Y(i, j) end
    out[j] = t
  end
  return out
end

--- Writes an SVG line plot of one or more series over x.
-- A value that is not finite breaks its line.
-- @param x vector (matrix or table) of n values
-- @param ys a vector of n values, an n x k matrix (k series, one a column)
--   or a list of vectors of n values
-- @string path
-- @tparam[opt] table opts `labels` (one name per series: a legend),
--   `title`, `xlabel`, `ylabel`, `xlog`, `ylog` (log axes: the values must be
--   > 0), `color` (of a single series)
function M.lineplot(x, ys, path, opts)
  format = util.cformatter()
  local xs = values(x, "lineplot", 1, "x")
  local S = series(ys, #xs)
  util.checkpath(path, "lineplot", 3)
  local spec = {labels = "table"}
  for k, v in pairs(PLOT) do spec[k] = v end
  local o = util.options(opts, "lineplot", 4, spec)
  for k, t in ipairs(S) do
    if #t ~= #xs then fail("lineplot", "series %d has %d values for %d x values", k, #t, #xs) end
  end
  if #S == 0 then fail("lineplot", "no series to draw") end
  local names
  if o.labels then
    local why, i, v
    names, why, i, v = util.stringlist(o.labels, #S)
    if why == "length" then fail("lineplot", "option 'labels' has %d entries for %d series", i, #S) end
    if why == "entry" then fail("lineplot", "option 'labels': entry %d must be a string or number, got %s", i, typename(v)) end
  end
  local cols = {}
  for k = 1, #S do cols[k] = COLORS[(k - 1) % #COLORS + 1] end
  if o.color then cols[1] = checkcolor(o.color, "lineplot", "option 'color'") end
  local X, Y = axis({xs}, o.xlog, "lineplot", "x"), axis(S, o.ylog, "lineplot", "y")
  local legend
  if names then
    legend = {}
    for k = 1, #S do legend[k] = {names[k], cols[k]} end
  end
  local out, px, py = frame(o, X, Y, legend)
  for k, t in ipairs(S) do
    local d, pen = {}, "M"
    for i = 1, #xs do
      if finite(xs[i]) and finite(t[i]) then
        d[#d + 1] = format("%s%.2f,%.2f", pen, px(xs[i]), py(t[i]))
        pen = "L"
      else
        pen = "M"
      end
    end
    if #d > 0 then
      out[#out + 1] = format('<path class="series" d="%s" fill="none" stroke="%s" stroke-width="2"/>\n',
        table.concat(d, " "), cols[k])
    end
  end
  finish(out, path, "lineplot", 3)
end

--- Writes an SVG histogram of the values of x: `bins` bars of equal width
-- from the smallest to the largest finite value (NumPy's np.histogram: each
-- bin holds [a, b), the last [a, b]); values that are not finite are
-- counted apart and named under the plot.
-- @param x vector (matrix or table)
-- @string path
-- @tparam[opt] table opts `bins` (1..1000, default 10), `title`, `xlabel`,
--   `ylabel` (default "count"), `color`
-- @return the counts (a Lua list) and the bin edges (a list of bins + 1)
function M.histogram(x, path, opts)
  format = util.cformatter()
  local xs = values(x, "histogram", 1, "x")
  util.checkpath(path, "histogram", 2)
  local o = util.options(opts, "histogram", 3, {bins = "integer", title = "string", xlabel = "string",
                                                ylabel = "string", color = "string"})
  local bins = o.bins or 10
  if bins < 1 or bins > 1000 then fail("histogram", "option 'bins' must be in 1..1000, got %d", bins) end
  local col = o.color and checkcolor(o.color, "histogram", "option 'color'") or COLORS[1]
  local lo, hi, skipped = math.huge, -math.huge, 0
  for _, v in ipairs(xs) do
    if finite(v) then lo, hi = math.min(lo, v), math.max(hi, v) else skipped = skipped + 1 end
  end
  if lo > hi then fail("histogram", "no finite value to count") end
  if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end       -- NumPy's range for a constant
  local counts, edges, w = {}, {}, (hi - lo) / bins
  for b = 1, bins do counts[b] = 0 end
  for b = 0, bins do edges[b + 1] = b == bins and hi or lo + b * w end
  for _, v in ipairs(xs) do
    if finite(v) then
      local b = math.min(bins, math.floor((v - lo) / w) + 1)
      counts[b] = counts[b] + 1
    end
  end
  local O = {title = o.title, xlabel = o.xlabel, ylabel = o.ylabel or "count"}
  local X, Y = axis({edges}, false, "histogram", "x"), axis({counts}, false, "histogram", "count", true)
  local out, px, py = frame(O, X, Y)
  out[#out + 1] = format('<g class="bars" fill="%s" stroke="white" stroke-width="0.5">\n', col)
  for b = 1, bins do
    local x0, x1, y = px(edges[b]), px(edges[b + 1]), py(counts[b])
    out[#out + 1] = format('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>\n', x0, y, x1 - x0, py(0) - y)
  end
  out[#out + 1] = "</g>\n"
  if skipped > 0 then
    out[#out + 1] = "</g>\n"
    out[#out + 1] = format('<text class="note" x="8" y="14" fill="#555">%d values that are not finite are not counted</text>\n<g>\n', skipped)
  end
  finish(out, path, "histogram", 2)
  return counts, edges
end

-- at most these arguments (the rest would be ignored)
return util.arity(M, {heatmap = {2, opts = true}, plot_vectors = 1, scatter = {3, opts = true},
                      lineplot = {3, opts = true}, histogram = {2, opts = true}})
