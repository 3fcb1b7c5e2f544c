-- Gram-Schmidt, classical vs modified (and twice), and QR, following the
-- seed text 004. The orthogonality errors printed are asserted too.
local la = require "linalg"

local function maxabs(A) return math.max(math.abs(A:max()), math.abs(A:min())) end
local function orth(Q) return maxabs(Q.T * Q - la.eye(Q:cols())) end

print("-- three random vectors in R^4")
local V = la.randn(4, 3, 42)
local Q, R = la.gram_schmidt(V)
print("Q^T Q =", Q.T * Q)
for j = 1, 3 do
  local vj = V:col(j)
  print(string.format("column %d reconstruction residual: %.2e", j, la.norm(vj - Q * (Q.T * vj))))
end
local Qh = la.qr(V)
for j = 1, 3 do
  print(string.format("column %d |cos| with Householder QR's: %.8f", j, math.abs(la.dot(Q:col(j), Qh:col(j)))))
end
assert(orth(Q) < 1e-14 and la.allclose(Q * R, V, 1e-13, 1e-13))

print("\n-- the seed's nearly dependent V_bad (eps = 1e-8)")
local eps = 1e-8
local V_bad = la.matrix{{1, 1, 1}, {eps, eps, 0}, {0, eps, eps}}
for _, m in ipairs{"cgs", "mgs", "cgs2"} do
  print(string.format("%-4s orthogonality error max|Q^T Q - I| = %.3e", m, orth(la.gram_schmidt(V_bad, {method = m}))))
end

print("\n-- a 200 x 50 matrix with condition number 1e8")
local n = 50
local U = la.qr(la.randn(200, n, 1))
local W = la.qr(la.randn(n, n, 2))
local s = la.zeros(n, 1):map(function(_, i) return 10 ^ (-8 * (i - 1) / (n - 1)) end)
local A = U * la.diag(s) * W.T
print(string.format("cond(A) = %.3e", la.cond(A)))
local errs = {}
for _, m in ipairs{"cgs", "mgs", "cgs2"} do
  errs[m] = orth(la.gram_schmidt(A, {method = m, tol = 0}))
  print(string.format("%-11s max|Q^T Q - I| = %.3e", m, errs[m]))
end
errs.householder = orth((la.qr(A)))
print(string.format("%-11s max|Q^T Q - I| = %.3e", "householder", errs.householder))
assert(errs.cgs > 1e-2 and errs.mgs < 1e-6 and errs.cgs2 < 1e-14 and errs.householder < 1e-14)

print("\n-- a dependent column is named; drop = true keeps a basis")
local D = la.hstack{V:col(1), 2 * V:col(1), V:col(2)}
print(select(2, pcall(la.gram_schmidt, D)))
local Qd, _, kept = la.gram_schmidt(D, {drop = true})
print("kept columns:", table.concat(kept, ", "), " basis size:", Qd:cols())
assert(#kept == 2 and kept[1] == 1 and kept[2] == 3)
