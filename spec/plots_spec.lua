-- Pictures: scatter, lineplot and histogram (SVG with ticks at round values,
-- log axes, legends, escaped text), plot_vectors' labels clear of the
-- arrowheads, and a thin heatmap stretched to a readable band. Each picture
-- is rendered with rsvg-convert (tools/deps.sh installs it): it must exit 0
-- and give a PNG of sensible size.
local la = require "linalg"

local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)

local function slurp(path) local f = assert(io.open(path, "rb")); local s = f:read("*a"); f:close(); return s end

-- the PNG's width and height, after rsvg-convert has rendered the SVG
local function png_size(svg)
  local png = svg:gsub("%.svg$", ".png")
  assert(require("interp").sh(string.format("env -u LD_PRELOAD -u ASAN_OPTIONS rsvg-convert -f png -o %s %s", png, svg)),
    "rsvg-convert failed on " .. svg)
  local head = slurp(png):sub(1, 24)
  assert(head:sub(2, 4) == "PNG", "not a PNG")
  local function be32(i) local a, b, c, d = head:byte(i, i + 3); return ((a * 256 + b) * 256 + c) * 256 + d end
  return be32(17), be32(21)
end

-- the texts of a <g class="..."> group
local function group(s, class)
  local g = s:match('<g class="' .. class .. '"[^>]*>(.-)</g>')
  assert(g, "no group " .. class)
  local t = {}
  for text in g:gmatch("<text[^>]*>(.-)</text>") do t[#t + 1] = text end
  return t
end

teardown(function() os.execute("rm -rf " .. dir) end)

describe("linalg.scatter, lineplot and histogram", function()
  it("scatter draws every finite point on axes with round ticks and escaped text", function()
    local path = dir .. "/s.svg"
    local x = la.vector{0, 1, 2, 3, 4, 0 / 0}
    la.scatter(x, {0, 10, 20, 35, 40, 7}, path, {title = "a < b & \"c\"", xlabel = "x <m>", ylabel = "y's"})
    local s = slurp(path)
    assert.are.equal(5, select(2, s:gsub("<circle ", "")))         -- the NaN point is not drawn
    assert.are.same({"0", "1", "2", "3", "4"}, group(s, "xticks"))
    assert.are.same({"0", "10", "20", "30", "40"}, group(s, "yticks"))
    assert.is_truthy(s:find("a &lt; b &amp; &quot;c&quot;", 1, true))
    assert.is_truthy(s:find("x &lt;m&gt;", 1, true))
    assert.is_truthy(s:find("y&#39;s", 1, true))
    assert.is_falsy(s:find("<m>", 1, true))
    local w, h = png_size(path)
    assert.is_true(w >= 600 and w <= 1200 and h >= 400 and h <= 800)
    assert.error_matches(function() la.scatter({1, 2}, {1}, path) end, "linalg.scatter: x has 2 entries but y has 1", 1, true)
    assert.error_matches(function() la.scatter(la.eye(2), {1}, path) end, "linalg.scatter: x must be a vector, got 2x2", 1, true)
    assert.error_matches(function() la.scatter({1}, {1}, path, {color = "url(x)"}) end, "is not a colour", 1, true)
  end)

  it("lineplot draws several series with a legend, and log axes with powers of ten", function()
    local path = dir .. "/l.svg"
    local x = la.linspace(0, 6, 61)
    la.lineplot(x, la.hstack{la.sin(x), la.cos(x)}, path, {labels = {"sin", "cos & co"}, xlabel = "t"})
    local s = slurp(path)
    assert.are.equal(2, select(2, s:gsub('class="series"', "")))
    assert.are.same({"sin", "cos &amp; co"}, group(s, "legend"))
    assert.are.same({"-1", "-0.5", "0", "0.5", "1"}, group(s, "yticks"))
    local w, h = png_size(path)
    assert.is_true(w >= 600 and h >= 400)
    -- a list of series, log axes: ticks at the powers of ten
    local xl = la.logspace(-2, 3, 20)
    la.lineplot(xl, {xl, la.sqrt(xl)}, path, {xlog = true, ylog = true, title = "log-log"})
    s = slurp(path)
    assert.are.same({"0.01", "0.1", "1", "10", "100", "1000"}, group(s, "xticks"))
    assert.are.same({"0.01", "0.1", "1", "10", "100", "1000"}, group(s, "yticks"))
    png_size(path)
    -- NaN breaks a line into two pieces
    la.lineplot({1, 2, 3, 4, 5}, {1, 2, 0 / 0, 4, 5}, path)
    assert.are.equal(2, select(2, slurp(path):match('class="series" d="([^"]*)"'):gsub("M", "")))
    assert.error_matches(function() la.lineplot({1, 2}, {1, -1}, path, {ylog = true}) end,
      "linalg.lineplot: y has a value <= 0 (-1, entry 2) on a log axis (ylog)", 1, true)
    assert.error_matches(function() la.lineplot({1, 2}, {{1, 2}, {1}}, path) end,
      "linalg.lineplot: series 2 has 1 values for 2 x values", 1, true)
    assert.error_matches(function() la.lineplot({1, 2}, {1, 2}, path, {labels = {"a", "b"}}) end,
      "option 'labels' has 2 entries for 1 series", 1, true)
  end)

  it("histogram counts as np.histogram and draws the bars on round ticks", function()
    local path = dir .. "/h.svg"
    -- numpy 1.24: np.histogram([0, 1, 1, 2, 3, 3, 3, 4], bins=4)
    --   -> (array([1, 2, 1, 4]), array([0., 1., 2., 3., 4.]))
    local counts, edges = la.histogram({0, 1, 1, 2, 3, 3, 3, 4}, path, {bins = 4, title = "h"})
    assert.are.same({1, 2, 1, 4}, counts)
    assert.are.same({0, 1, 2, 3, 4}, edges)
    local s = slurp(path)
    assert.are.equal(4, select(2, s:match('<g class="bars"[^>]*>(.-)</g>'):gsub("<rect ", "")))
    assert.are.same({"0", "1", "2", "3", "4"}, group(s, "yticks"))
    assert.is_truthy(s:find('class="ylabel"[^>]*>count<'))
    local w, h = png_size(path)
    assert.is_true(w >= 600 and h >= 400)
    la.histogram(la.randn(1000, 1, 2), path)                            -- 10 bins by default
    assert.are.equal(10, select(2, slurp(path):match('<g class="bars"[^>]*>(.-)</g>'):gsub("<rect ", "")))
    png_size(path)
    assert.error_matches(function() la.histogram({0 / 0}, path) end, "linalg.histogram: no finite value to count", 1, true)
    assert.error_matches(function() la.histogram({1}, path, {bins = 0}) end, "option 'bins' must be in 1..1000", 1, true)
  end)
end)

describe("linalg.plot_vectors' labels", function()
  it("stay clear of the arrowheads, whichever way the arrows point", function()
    local path = dir .. "/v.svg"
    la.plot_vectors{path = path, {la.vector{2, 1}, label = "u"}, {la.vector{-1.5, -1}, label = "down-left"},
      {la.vector{0, -2}, label = "down"}, {la.vector{-2, 0.3}, label = "west"},
      {la.vector{1, 1}, from = la.vector{2, 1}, label = "mid"}}
    local s = slurp(path)
    local lines, texts = {}, {}
    for x1, y1, x2, y2 in s:gmatch('<line x1="([-%d.]+)" y1="([-%d.]+)" x2="([-%d.]+)" y2="([-%d.]+)" stroke="#%x+" stroke%-width="2.5"') do
      lines[#lines + 1] = {tonumber(x1), tonumber(y1), tonumber(x2), tonumber(y2)}
    end
    for x, y, rest, text in s:gmatch('<text x="([-%d.]+)" y="([-%d.]+)"([^>]*)>(.-)</text>') do
      texts[#texts + 1] = {tonumber(x), tonumber(y), rest:match('text%-anchor="(%a+)"') or "start", text}
    end
    assert.are.equal(5, #lines)
    assert.are.equal(5, #texts)
    for k, l in ipairs(lines) do
      -- the head: a triangle 20 px long, 20 px wide, drawn back from the tip
      local dx, dy = l[3] - l[1], l[4] - l[2]
      local n = math.sqrt(dx * dx + dy * dy)
      local ux, uy = dx / n, dy / n
      local px = {l[3], l[3] - 20 * ux + 10 * uy, l[3] - 20 * ux - 10 * uy}
      local py = {l[4], l[4] - 20 * uy - 10 * ux, l[4] - 20 * uy + 10 * ux}
      local hx0, hx1 = math.min(px[1], px[2], px[3]), math.max(px[1], px[2], px[3])
      local hy0, hy1 = math.min(py[1], py[2], py[3]), math.max(py[1], py[2], py[3])
      -- the label's box: about 8 px a character at 14 px, 13 px above the baseline
      local t = texts[k]
      local w = 8 * #t[4]
      local tx0 = t[3] == "start" and t[1] or t[3] == "end" and t[1] - w or t[1] - w / 2
      local ty0, ty1 = t[2] - 13, t[2] + 3
      local apart = tx0 > hx1 or tx0 + w < hx0 or ty0 > hy1 or ty1 < hy0
      assert(apart, string.format("label %q overlaps its arrowhead", t[4]))
    end
    local w, h = png_size(path)
    assert.is_true(w >= 300 and h >= 300)
  end)
end)

describe("linalg.heatmap of a thin matrix", function()
  it("keeps each of the 512 weights of a 1 x 512 row and stretches the band to be readable", function()
    local path = dir .. "/t.svg"
    la.heatmap(la.rand(1, 512, 3), path, {title = "weights"})
    local s = slurp(path)
    local cells, hmin = 0, math.huge
    for h in s:match('<g shape%-rendering="crispEdges"[^>]*>(.-)</g>'):gmatch('<rect [^>]-height="(%d+)"') do
      cells = cells + 1; hmin = math.min(hmin, tonumber(h))
    end
    assert.are.equal(512, cells)                 -- not block means
    assert.is_true(hmin >= 24, "cells are " .. hmin .. " px high")
    assert.is_falsy(s:find("block means", 1, true))
    local w, h = png_size(path)
    assert.is_true(w >= 512 and h >= 100, w .. "x" .. h)
    -- and a 512 x 1 column likewise across
    la.heatmap(la.rand(512, 1, 3), path)
    local wmin = math.huge
    for cw in slurp(path):match('<g shape%-rendering="crispEdges"[^>]*>(.-)</g>'):gmatch('<rect [^>]-width="(%d+)"') do
      wmin = math.min(wmin, tonumber(cw))
    end
    assert.is_true(wmin >= 24)
    png_size(path)
  end)
end)
