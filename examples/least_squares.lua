-- Least squares four ways (normal equations, projection, lstsq, QR) and
-- the linear-regression example, following the seed text 004.
local la = require "linalg"

print("-- 100 equations, 5 unknowns")
local n, d = 100, 5
local x_true = la.vector{2, -1, 3, 0.5, -2}
local A = la.randn(n, d, 42)
local b = A * x_true + 0.1 * la.randn(n, 1, 43)

local ATA, ATb = A.T * A, A.T * b
local x_normal = la.solve(ATA, ATb)
local P = A * la.solve(ATA, A.T)                 -- hat matrix
local x_proj = la.solve(ATA, A.T * (P * b))
local x_lstsq, residuals, rank, sv = la.lstsq(A, b)
local Q, R = la.qr(A)
local x_qr = la.solve(R, Q.T * b)
local function row(name, x) print(string.format("%-18s %s", name, table.concat(x:map(function(v) return math.floor(v * 1e4 + 0.5) / 1e4 end):totable(), "  "))) end
row("normal equations", x_normal); row("projection", x_proj); row("lstsq (SVD)", x_lstsq)
row("QR", x_qr); row("true x*", x_true)
local agree = la.allclose(x_normal, x_lstsq, 0, 1e-8) and la.allclose(x_qr, x_lstsq, 0, 1e-8)
  and la.allclose(x_proj, x_lstsq, 0, 1e-8)
print("all methods agree:", agree, " rank:", rank, string.format(" cond: %.3f", sv(1) / sv(d)))
assert(agree and rank == d)

local residual = b - A * x_normal
print("residual orthogonal to col(A):", la.norm(A.T * residual, math.huge) < 1e-8)
print(string.format("||residual||^2 = %.4f (lstsq residuals: %.4f)", la.dot(residual, residual), residuals(1)))
print("hat matrix: symmetric", la.allclose(P, P.T), " idempotent", la.allclose(P * P, P),
      string.format(" trace %.4f", la.trace(P)))
assert(math.abs(la.trace(P) - d) < 1e-10 and math.abs(la.dot(residual, residual) - residuals(1)) < 1e-10)

print("\n-- the rank-deficient example: A = [[1,2],[2,4],[3,6]], b = [1,2,3]")
local x, res, r = la.lstsq({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3})
print("minimum-norm x =", x.T, " rank", r, " residuals", res)
assert(la.allclose(x, {0.2, 0.4}) and r == 1 and res == nil)

print("\n-- linear regression with intercept (200 samples, 3 features)")
local X = la.randn(200, 3, 44)
local beta = la.vector{1.5, -2.0, 0.8}
local y = X * beta + 1.2 + 0.5 * la.randn(200, 1, 45)
local model = la.linear_regression(X, y)
print("true coefficients  1.5  -2.0  0.8; estimated", model.coef.T)
print(string.format("true intercept 1.2000; estimated %.4f; R^2 %.4f", model.intercept, model.r2))
local theta = la.lstsq(la.hstack{la.ones(200, 1), X}, y)
local match = la.allclose(theta, la.vstack{{{model.intercept}}, model.coef}, 0, 1e-8)
print("lstsq on [1, X] matches:", match)
assert(match and model.r2 > 0.9)
