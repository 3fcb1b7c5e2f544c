-- Scaled dot-product attention, following the seed texts (000, 002, 004):
-- the one-query example as a convex combination of values, the two-query
-- example, a causal mask, and multi-head attention. Claims are asserted.
local la = require "linalg"

print("-- one query (seed 000)")
local Q = la.matrix{{1, 0}}
local K = la.matrix{{1, 0}, {0, 1}, {1, 1}}
local V = la.matrix{{1, 0}, {0, 2}, {1, 1}}
local o, a = la.attention(Q, K, V, {weights = true})
print(string.format("a = [%.4f, %.4f, %.4f], sum %.15g", a(1, 1), a(1, 2), a(1, 3), a:sum()))
print(string.format("o = [%.4f, %.4f]", o(1, 1), o(1, 2)))
local combo = a(1, 1) * V:row(1) + a(1, 2) * V:row(2) + a(1, 3) * V:row(3)
print("o combo = a1 v1 + a2 v2 + a3 v3:", la.allclose(o, combo, 1e-15, 0))
assert(math.abs(a(1, 1) - 0.4011) < 5e-5 and math.abs(a(1, 2) - 0.1978) < 5e-5)
assert(math.abs(o(1, 1) - 0.8022) < 5e-5 and math.abs(o(1, 2) - 0.7967) < 5e-5)
local inside, info = la.span_check(V.T, o.T, {convex = true})
print(string.format("o in the convex hull of the values: %s (weights %s, residual %.1e)",
  tostring(inside), table.concat(info.coeffs:map(function(x) return math.floor(x * 1e4 + 0.5) / 1e4 end):totable(), ", "),
  info.residual_norm))
local outside = la.span_check(V.T, {3, 3}, {convex = true})
print("[3, 3] is in the span of the values:", (la.span_check(V.T, {3, 3})), " in their hull:", outside)
assert(inside and not outside)

print("\n-- two queries (seed 002)")
local Q2 = la.matrix{{1, 0}, {0, 1}}
local K2 = la.matrix{{1, 0}, {1, 1}, {0, 1}}
local O2, A2 = la.attention(Q2, K2, V, {weights = true})
print("A =", A2)
print("A row sums:", A2:sum(2).T)
print("O =", O2)
assert(la.allclose(A2:sum(2), 1, 0, 1e-15))

print("\n-- causal mask: token i attends to j <= i (4 tokens, d = 8)")
local X = la.randn(4, 8, 42)
local Qc, Kc, Vc = X, la.randn(4, 8, 43), la.randn(4, 8, 44)
local Oc, Ac = la.attention(Qc, Kc, Vc, {causal = true, weights = true})
print("weights (upper triangle = 0):", Ac)
for i = 1, 4 do for j = i + 1, 4 do assert(Ac(i, j) == 0) end end
assert(la.allclose(Oc, la.attention(Qc, Kc, Vc, {causal = true}), 1e-14, 1e-14))
print("fused (no weights) and materialized outputs agree: true")

print("\n-- multi-head attention: d_model 64, 8 heads, sequence of 10")
local d_model, heads, seq = 64, 8, 10
local Wq, Wk = 0.02 * la.randn(d_model, d_model, 1), 0.02 * la.randn(d_model, d_model, 2)
local Wv, Wo = 0.02 * la.randn(d_model, d_model, 3), 0.02 * la.randn(d_model, d_model, 4)
local Xs = la.randn(seq, d_model, 5)
local out, W = la.multihead_attention(Xs, Wq, Wk, Wv, Wo, heads, {weights = true})
print(string.format("input %dx%d, output %dx%d, %d weight matrices of %dx%d, d_k per head %d",
  seq, d_model, out:rows(), out:cols(), #W, W[1]:rows(), W[1]:cols(), math.floor(d_model / heads)))
for h = 1, heads do
  local s = W[h]:sum(2)
  print(string.format("  head %d: row sums min=%.6f, max=%.6f", h, s:min(), s:max()))
  assert(math.abs(s:min() - 1) < 1e-14 and math.abs(s:max() - 1) < 1e-14)
end
