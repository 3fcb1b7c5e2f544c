-- SVG pictures: rendered with a real renderer (rsvg-convert, then pngtopnm
-- to read pixels) and checked for size and content.
local la = require "linalg"

local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)

-- Renders an SVG file; returns width, height and the set of pixel colours.
local function render(svg)
  local png, ppm = svg .. ".png", svg .. ".ppm"
  -- the renderers are not ours: no sanitizer preload (make check-asan) for them
  assert(require("interp").sh(string.format("env -u LD_PRELOAD -u ASAN_OPTIONS rsvg-convert -f png -o %s %s && " ..
    "env -u LD_PRELOAD pngtopnm %s > %s", png, svg, png, ppm)),
    "rendering failed: " .. svg)
  local f = assert(io.open(ppm, "rb"))
  local data = f:read("*a")
  f:close()
  local w, h, maxv, pos = data:match("^P6%s+(%d+)%s+(%d+)%s+(%d+)%s()")
  w, h = tonumber(w), tonumber(h)
  assert(tonumber(maxv) == 255 and #data - pos + 1 == 3 * w * h, "unexpected PPM")
  local colors, n = {}, 0
  for i = pos, #data - 2, 3 * 7 do            -- every 7th pixel is plenty
    local c = data:sub(i, i + 2)
    if not colors[c] then colors[c] = true; n = n + 1 end
  end
  return w, h, colors, n
end

-- Renders an SVG file; returns width, height and pixel(x, y) -> "\r\g\b"
-- (0-based coordinates).
local function pixels(svg)
  render(svg)
  local f = assert(io.open(svg .. ".ppm", "rb"))
  local data = f:read("*a")
  f:close()
  local w, h, pos = data:match("^P6%s+(%d+)%s+(%d+)%s+255%s()")
  w, h = tonumber(w), tonumber(h)
  return w, h, function(x, y)
    local i = pos + 3 * (y * w + x)
    return data:sub(i, i + 2)
  end
end

local function dark(px) local r, g, b = px:byte(1, 3); return r < 110 and g < 110 and b < 110 end

local function slurp(path) local f = assert(io.open(path)); local s = f:read("*a"); f:close(); return s end

local function rgb(hex)
  return string.char(tonumber(hex:sub(2, 3), 16), tonumber(hex:sub(4, 5), 16), tonumber(hex:sub(6, 7), 16))
end

describe("linalg.heatmap", function()
  it("draws a matrix with a legend, labels and a title", function()
    local path = dir .. "/a.svg"
    local _, A = la.attention(la.randn(6, 4, 1), la.randn(6, 4, 2), la.randn(6, 4, 3), {weights = true})
    la.heatmap(A, path, {title = "weights", row_labels = {"a", "b", "c", "d", "e", "f"}, col_labels = {"1", "2", "3", "4", "5", "6"}})
    local w, h, colors, n = render(path)
    assert.is_true(w > 200 and h > 200)
    assert.is_true(n > 20)                          -- cells, legend and text, not a blank page
    assert.is_true(colors["\255\255\255"])          -- white background
    local f = io.open(path); local s = f:read("*a"); f:close()
    assert.is_truthy(s:find(">weights</text>", 1, true))
    assert.is_truthy(s:find(">c</text>", 1, true))
  end)

  it("thins labels so they stay readable at 100 x 100", function()
    local path = dir .. "/l.svg"
    local labels = {}
    for i = 1, 100 do labels[i] = "t" .. i end
    la.heatmap(la.rand(100, 100, 5), path, {row_labels = labels, col_labels = labels})
    local f = io.open(path); local s = f:read("*a"); f:close()
    local shown = select(2, s:gsub(">t%d+</text>", ""))
    assert.is_true(shown > 20 and shown < 100)      -- every 3rd of 2 x 100 labels at 6 px cells
    local w, h = render(path)
    assert.is_true(w >= 600 and h >= 600)
  end)

  it("uses a diverging scale centred on zero for signed data", function()
    local path = dir .. "/p.svg"
    la.heatmap(la.matrix{{-1, 0}, {0, 1}}, path, {cell = 40})
    local _, _, colors = render(path)
    assert.is_true(colors[rgb("#2166ac")] ~= nil and colors[rgb("#b2182b")] ~= nil)  -- both ends
  end)

  it("stays readable at 1000 x 1000 by block averaging", function()
    local path = dir .. "/big.svg"
    la.heatmap(la.randn(1000, 1000, 4), path)
    local f = io.open(path); local s = f:read("*a"); f:close()
    assert.is_truthy(s:find("1000x1000 shown as 200x200 block means", 1, true))
    assert.is_true(#s < 4e6)
    local w, h, _, n = render(path)
    assert.is_true(w >= 600 and h >= 600 and n > 50)
  end)

  it("rejects bad input", function()
    assert.error_matches(function() la.heatmap(la.zeros(0, 3), dir .. "/e.svg") end, "linalg.heatmap: empty 0x3 matrix")
    assert.error_matches(function() la.heatmap({{1}}, dir .. "/e.svg", {cmap = "jet"}) end,
      [[linalg.heatmap: option 'cmap' must be "viridis" or "rdbu", got "jet"]], 1, true)
    assert.error_matches(function() la.heatmap("x", dir .. "/e.svg") end, "linalg.heatmap: bad argument #1")
  end)
end)

describe("linalg.plot_vectors", function()
  it("draws the seed's projection picture", function()
    local path = dir .. "/v.svg"
    local u, v = la.vector{4, 3}, la.vector{2, 0}
    local p, r = la.project(u, v)
    la.plot_vectors{path = path, title = "projection", {u, label = "u"}, {v, label = "v"},
      {p, label = "proj", dashed = true}, {r, from = p, label = "residual"},
      right_angles = {{at = p, a = r, b = -1 * v}}}
    local w, h, colors, n = render(path)
    assert.is_true(w > 300 and h > 200 and n > 10)
    assert.is_true(colors[rgb("#1f77b4")] ~= nil)   -- the first arrow's colour is drawn
    local f = io.open(path); local s = f:read("*a"); f:close()
    assert.are.equal(4, select(2, s:gsub("marker%-end", "")))
    assert.is_truthy(s:find("stroke-dasharray", 1, true))
  end)

  it("rejects bad specifications", function()
    assert.error_matches(function() la.plot_vectors{path = dir .. "/x.svg", {{1, 2, 3}}} end,
      "linalg.plot_vectors: entry 1 must be a 2-D vector, got 3x1")
    assert.error_matches(function() la.plot_vectors{{{1, 2}}} end, "linalg.plot_vectors: spec.path must be a file name")
    assert.error_matches(function() la.plot_vectors(5) end, "linalg.plot_vectors: bad argument #1 (table expected, got number)")
  end)
end)

describe("linalg.heatmap's axes and legend", function()
  -- where the picture put its cells and its legend bar, read off the SVG
  local function layout(s)
    local left, top = s:match('<g shape%-rendering="crispEdges" transform="translate%((%d+),(%d+)%)">')
    local lx = s:match('<rect x="(%d+)" y="[%d.]+" width="16"')
    return tonumber(left), tonumber(top), tonumber(lx)
  end

  it("shows row and column indices when no labels are given", function()
    local path = dir .. "/idx.svg"
    la.heatmap(la.rand(5, 8, 1), path, {cell = 30})
    local s = slurp(path)
    for i = 1, 5 do assert.is_truthy(s:find(string.format('y="%.1f">%d</text>', (i - 0.5) * 30 + select(2, layout(s)), i), 1, true)) end
    for j = 1, 8 do assert.is_truthy(s:find('rotate%(%-60%)">' .. j .. '</text>')) end
    -- rendered: dark text pixels left of the cells and above them
    local w, h, px = pixels(path)
    local left, top = layout(s)
    local leftdark, topdark = 0, 0
    for y = top, top + 5 * 30 - 1 do for x = 0, left - 2 do if dark(px(x, y)) then leftdark = leftdark + 1 end end end
    for y = 0, top - 2 do for x = left, left + 8 * 30 - 1 do if dark(px(x, y)) then topdark = topdark + 1 end end end
    assert.is_true(leftdark > 20 and topdark > 20, leftdark .. " " .. topdark)
    assert.is_true(w > left + 8 * 30 and h > top + 5 * 30)
  end)

  it("labels the first row and column of each block when averaging", function()
    local path = dir .. "/idxbig.svg"
    la.heatmap(la.rand(300, 300, 1), path, {max_cells = 100})
    local s = slurp(path)
    -- 3 x 3 blocks at 6 px, every 3rd block labelled: rows 1, 10, ..., 298
    assert.is_truthy(s:find(">1</text>", 1, true) and s:find(">10</text>", 1, true) and s:find(">298</text>", 1, true))
    assert.is_falsy(s:find(">2</text>", 1, true) or s:find(">4</text>", 1, true))
  end)

  it("has ticks at round values on the legend", function()
    local path = dir .. "/ticks.svg"
    la.heatmap(la.matrix{{0, 0.25}, {0.5, 1}}, path, {cell = 100})
    local s = slurp(path)
    local shown = {}
    for t in s:match('<g class="legend">(.-)</g>'):gmatch(">([^<]+)</text>") do shown[#shown + 1] = t end
    assert.are.same({"0", "0.2", "0.4", "0.6", "0.8", "1"}, shown)
    -- rendered: one dark tick mark per value just right of the bar
    local _, h, px = pixels(path)
    local _, _, lx = layout(s)
    local marks, was = 0, false
    for y = 0, h - 1 do
      local d = dark(px(lx + 18, y))
      if d and not was then marks = marks + 1 end
      was = d
    end
    assert.are.equal(6, marks)
  end)

  it("tells values apart on a narrow range", function()
    local path = dir .. "/narrow.svg"
    la.heatmap(la.matrix{{100000, 100000.001}}, path)
    local s = slurp(path)
    local shown = {}
    for t in s:match('<g class="legend">(.-)</g>'):gmatch(">([^<]+)</text>") do shown[#shown + 1] = t end
    assert.is_true(#shown >= 2)
    for i = 2, #shown do assert.is_true(tonumber(shown[i]) > tonumber(shown[i - 1]), table.concat(shown, " ")) end
  end)

  it("shows NaN in the legend when the picture has NaN, and only then", function()
    local path = dir .. "/nan.svg"
    local A = la.matrix{{1, 2}, {0 / 0, 4}}
    local grey = rgb("#bbbbbb")
    for _, case in ipairs{{A, true}, {la.matrix{{1, 2}, {3, 4}}, false}} do
      la.heatmap(case[1], path, {cell = 40})
      local s = slurp(path)
      local _, h, px = pixels(path)
      local _, _, lx = layout(s)
      local found = false
      for y = 0, h - 1 do for x = lx + 2, lx + 13 do found = found or px(x, y) == grey end end
      assert.are.equal(case[2], found)
      assert.are.equal(case[2], s:find(">NaN</text>", 1, true) ~= nil)
    end
  end)

  it("keeps a constant matrix's value in the legend", function()
    local path = dir .. "/const.svg"
    la.heatmap(la.ones(3, 4) * 7, path)
    local s = slurp(path)
    local shown = {}
    for t in s:match('<g class="legend">(.-)</g>'):gmatch(">([^<]+)</text>") do shown[#shown + 1] = t end
    assert.are.same({"7"}, shown)
    la.heatmap(la.ones(2, 2) * -2.5, path)
    shown = {}
    for t in slurp(path):match('<g class="legend">(.-)</g>'):gmatch(">([^<]+)</text>") do shown[#shown + 1] = t end
    assert.are.same({"-2.5"}, shown)
    render(path)
  end)

  it("rejects label lists of the wrong length", function()
    assert.error_matches(function() la.heatmap(la.ones(3, 2), dir .. "/e.svg", {row_labels = {"a", "b"}}) end,
      "linalg.heatmap: option 'row_labels' has 2 entries for 3 rows", 1, true)
    assert.error_matches(function() la.heatmap(la.ones(3, 2), dir .. "/e.svg", {col_labels = {"a", "b", "c"}}) end,
      "linalg.heatmap: option 'col_labels' has 3 entries for 2 columns", 1, true)
    assert.error_matches(function() la.heatmap(la.ones(1, 2), dir .. "/e.svg", {col_labels = {"a", {}}}) end,
      "linalg.heatmap: option 'col_labels': entry 2 must be a string or number, got table", 1, true)
  end)
end)

describe("heatmap and plot_vectors options", function()
  local p = dir .. "/o.svg"
  local cases = {
    {{cell = 0.5}, "linalg.heatmap: option 'cell' must be an integer, got number"},
    {{cell = "x"}, "linalg.heatmap: option 'cell' must be an integer, got string"},
    {{cell = 0}, "linalg.heatmap: option 'cell' must be in 1..100, got 0"},
    {{max_cells = "x"}, "linalg.heatmap: option 'max_cells' must be an integer, got string"},
    {{max_cells = 0}, "linalg.heatmap: option 'max_cells' must be in 1..1000, got 0"},
    {{vmin = "a"}, "linalg.heatmap: option 'vmin' must be a number, got string"},
    {{vmin = 0 / 0}, "linalg.heatmap: option 'vmin' must be finite"},
    {{vmax = math.huge}, "linalg.heatmap: option 'vmax' must be finite"},
    {{vmin = 2, vmax = 1}, "linalg.heatmap: option 'vmin' (2) must be below 'vmax' (1)"},
    {{vmin = 9}, "linalg.heatmap: option 'vmin' (9) leaves no range"},
    {{row_labels = 5}, "linalg.heatmap: option 'row_labels' must be a table, got number"},
    {{title = {}}, "linalg.heatmap: option 'title' must be a string, got table"},
    {{colormap = "viridis"}, "linalg.heatmap: unknown option 'colormap'"},
    {{titel = "x"}, "linalg.heatmap: unknown option 'titel' (did you mean 'title'?)"},
  }
  for _, c in ipairs(cases) do
    it("heatmap: " .. c[2], function()
      assert.error_matches(function() la.heatmap(la.matrix{{1, 2}}, p, c[1]) end, c[2], 1, true)
    end)
  end

  local v = {1, 2}
  local pcases = {
    {{path = p, {v}, right_angles = 5}, "linalg.plot_vectors: option 'right_angles' must be a table, got number"},
    {{path = p, {v}, right_angles = {5}}, "linalg.plot_vectors: right_angles[1] must be {at = point, a = direction, b = direction}, got number"},
    {{path = p, {v}, right_angles = {{at = v, a = v}}}, "linalg.plot_vectors: right_angles[1].b is missing"},
    {{path = p, {v}, right_angles = {{at = v, a = v, c = v}}}, "linalg.plot_vectors: unknown option 'c'"},
    {{path = p, {{math.huge, 1}}}, "linalg.plot_vectors: entry 1 has a coordinate that is not finite (inf, " .. tostring(1.0) .. ")"},
    {{path = p, {{0 / 0, 1}}}, "linalg.plot_vectors: entry 1 has a coordinate that is not finite"},
    {{path = p, {v, from = {1, -math.huge}}}, "linalg.plot_vectors: entry 1.from has a coordinate that is not finite"},
    {{path = p, {{1e308, 0}}, {{-1e308, 0}}}, "linalg.plot_vectors: the coordinates span too wide a range to draw"},
    {{path = p, {{1e308, 0}, from = {1e308, 0}}}, "linalg.plot_vectors: entry 1 ends at a point that is not finite"},
    {{path = p, {v, dashed = 1}}, "linalg.plot_vectors: option 'dashed' must be true or false, got number"},
    {{path = p, {v, colour = "red"}}, "linalg.plot_vectors: unknown option 'colour' (did you mean 'color'?)"},
    {{path = p, {v, label = {}}}, "linalg.plot_vectors: entry 1.label must be a string or number, got table"},
    {{path = p, {v, v}}, "linalg.plot_vectors: entry 1 must hold one vector, it holds 2 entries"},
    {{path = p, titel = "x", {v}}, "linalg.plot_vectors: unknown option 'titel' (did you mean 'title'?)"},
    {{path = p, {v}, [3] = {v}}, "linalg.plot_vectors: the specification has a key 3 that is neither a name nor part of the list 1..1"},
    {{path = 5, {v}}, "linalg.plot_vectors: option 'path' must be a string, got number"},
  }
  for _, c in ipairs(pcases) do
    it("plot_vectors: " .. c[2], function()
      assert.error_matches(function() la.plot_vectors(c[1]) end, c[2], 1, true)
    end)
  end
end)

describe("SVG markup", function()
  it("accepts only colours from a strict grammar", function()
    local p = dir .. "/c.svg"
    local bad = {'"/><script>alert(1)</script><g x="', "red;", "url(#x)", "#12345", "#ggg", "rgb(1,2)",
                 "rgb(256,0,0)", "rgb(1%,2,3)", "rgb(1,2,3) x", "javascript:alert(1)", "", "none"}
    for _, c in ipairs(bad) do
      assert.error_matches(function() la.plot_vectors{path = p, {{1, 2}, color = c}} end,
        "linalg.plot_vectors: entry 1.color " .. string.format("%q", c) .. " is not a colour", 1, true)
    end
    la.plot_vectors{path = p, {{1, 2}, color = "#0a0"}, {{2, 1}, color = "#00ff00"}, {{1, 1}, color = "Teal"},
                    {{-1, 1}, color = "rgb(255, 0, 0)"}, {{-1, -1}, color = "rgb(0%,0%,100%)"}}
    local s = slurp(p)
    assert.is_truthy(s:find('stroke="teal"', 1, true) and s:find('stroke="rgb(255,0,0)"', 1, true))
    local _, _, colors = render(p)
    assert.is_true(colors[rgb("#ff0000")] ~= nil and colors[rgb("#0000ff")] ~= nil and colors[rgb("#008080")] ~= nil)
  end)

  it("escapes every text and survives bytes XML does not allow", function()
    local p = dir .. "/t.svg"
    local nasty = '"/><script>alert(1)</script>\0\1\27 \255\254 é \239\191\191\'&'
    la.plot_vectors{path = p, title = nasty, {{1, 2}, label = nasty}}
    local s = slurp(p)
    assert.is_falsy(s:find("<script", 1, true))
    assert.is_falsy(s:find("[%z\1-\8\11\12\14-\31]"))
    assert.is_truthy(require("linalg.compat").utf8len(s))
    render(p)                                       -- well-formed: the renderer reads it
    la.heatmap({{1, 2}}, p, {title = nasty, row_labels = {nasty}, col_labels = {nasty, "\195"}})
    s = slurp(p)
    assert.is_falsy(s:find("<script", 1, true))
    assert.is_truthy(require("linalg.compat").utf8len(s))
    assert.are.equal(3, select(2, s:gsub("&lt;script&gt;alert%(1%)&lt;/script&gt;", "")))
    render(p)
  end)

  it("writes pictures through the checked writer", function()
    assert.error_matches(function() la.heatmap({{1}}, "/dev/full") end, "linalg.heatmap: /dev/full: No space left on device", 1, true)
    assert.error_matches(function() la.plot_vectors{path = "/dev/full", {{1, 2}}} end,
      "linalg.plot_vectors: /dev/full: No space left on device", 1, true)
    assert.error_matches(function() la.heatmap({{1}}, dir) end, "linalg.heatmap: " .. dir .. ": Is a directory", 1, true)
    assert.error_matches(function() la.heatmap({{1}}, 5) end, "linalg.heatmap: bad argument #2 (path expected, got number)", 1, true)
    assert.error_matches(function() la.heatmap({{1}}, "") end, "linalg.heatmap: bad argument #2 (path is empty)", 1, true)
    -- plot_vectors' path is a field of its one argument
    assert.error_matches(function() la.plot_vectors{path = "", {{1, 2}}} end,
      "linalg.plot_vectors: bad argument #1 (path is empty)", 1, true)
    assert.error_matches(function() la.plot_vectors{path = "a\0b", {{1, 2}}} end,
      "linalg.plot_vectors: bad argument #1 (path contains a zero byte)", 1, true)
  end)
end)
