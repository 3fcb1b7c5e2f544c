-- Pictures of the seed examples as SVG files in build/pictures/ (or the
-- directory given as the first argument): the projection of u onto v with
-- the residual and a right-angle mark, attention weights, a projection
-- matrix, and a 1000 x 1000 matrix shown as block means.
local la = require "linalg"
local dir = arg and arg[1] or "build/pictures"
os.execute("mkdir -p " .. dir)

local u, v = la.vector{4, 3}, la.vector{2, 0}
local p, r = la.project(u, v)
la.plot_vectors{
  path = dir .. "/projection.svg", title = "proj_v(u) and the residual u - proj_v(u)",
  {u, label = "u"}, {v, label = "v"}, {p, label = "proj_v(u)", dashed = true},
  {r, from = p, label = "residual"},
  right_angles = {{at = p, a = r, b = -1 * v}},
}

local X = la.randn(8, 4, 42)
local _, A = la.attention(X, X, X, {causal = true, weights = true})
local toks = {"the", "cat", "sat", "on", "the", "mat", "and", "slept"}
la.heatmap(A, dir .. "/attention.svg", {title = "causal self-attention weights", row_labels = toks, col_labels = toks})

la.heatmap(la.projection_matrix(la.randn(12, 3, 7)), dir .. "/projection_matrix.svg",
  {title = "P onto a 3-D subspace of R^12 (trace 3)"})
local wave = la.zeros(1000, 1000):map(function(_, i, j) return math.sin(i / 90) * math.cos(j / 140) end)
la.heatmap(wave + 0.3 * la.randn(1000, 1000, 3), dir .. "/large.svg", {title = "1000 x 1000: sin(i/90) cos(j/140) + noise"})
for _, f in ipairs{"projection", "attention", "projection_matrix", "large"} do
  print("wrote " .. dir .. "/" .. f .. ".svg")
end
