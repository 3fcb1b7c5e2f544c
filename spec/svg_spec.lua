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
  assert(os.execute(string.format("env -u LD_PRELOAD -u ASAN_OPTIONS rsvg-convert -f png -o %s %s && " ..
    "env -u LD_PRELOAD pngtopnm %s > %s", png, svg, png, ppm)),
    "rendering failed: " .. svg)
  local f = assert(io.open(ppm, "rb"))
  local data = f:read("a")
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
    local f = io.open(path); local s = f:read("a"); f:close()
    assert.is_truthy(s:find(">weights</text>", 1, true))
    assert.is_truthy(s:find(">c</text>", 1, true))
  end)

  it("thins labels so they stay readable at 100 x 100", function()
    local path = dir .. "/l.svg"
    local labels = {}
    for i = 1, 100 do labels[i] = "t" .. i end
    la.heatmap(la.rand(100, 100, 5), path, {row_labels = labels, col_labels = labels})
    local f = io.open(path); local s = f:read("a"); f:close()
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
    local f = io.open(path); local s = f:read("a"); f:close()
    assert.is_truthy(s:find("1000x1000 shown as 200x200 block means", 1, true))
    assert.is_true(#s < 4e6)
    local w, h, _, n = render(path)
    assert.is_true(w >= 600 and h >= 600 and n > 50)
  end)

  it("rejects bad input", function()
    assert.error_matches(function() la.heatmap(la.zeros(0, 3), dir .. "/e.svg") end, "linalg.heatmap: empty 0x3 matrix")
    assert.error_matches(function() la.heatmap({{1}}, dir .. "/e.svg", {cmap = "jet"}) end, 'unknown cmap "jet"')
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
    local f = io.open(path); local s = f:read("a"); f:close()
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
