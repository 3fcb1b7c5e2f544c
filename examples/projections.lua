-- Dot products, projections and projection matrices, following the seed
-- texts (004: dot_product_demo, projection_demo, project_onto_subspace,
-- projection_matrix_properties). Every claim printed is also asserted.
local la = require "linalg"

local function check(ok, what) assert(ok, what); return ok end

print("-- dot product: algebraic and geometric")
local u, v = la.vector{3, 4}, la.vector{1, 0}
local cos = la.cosine(u, v)
print(string.format("u.v = %g; ||u|| ||v|| cos(theta) = %.2f * %.2f * %.4f; angle %.2f degrees",
  la.dot(u, v), la.norm(u), la.norm(v), cos, math.deg(la.angle(u, v))))
check(la.dot(u, v) == 3 and math.abs(math.deg(la.angle(u, v)) - 53.13) < 0.01, "dot/angle")
local w = la.vector{2, 1}
print(string.format("u.(v+w) = %.4f = u.v + u.w = %.4f", la.dot(u, v + w), la.dot(u, v) + la.dot(u, w)))
print(string.format("scalar projection of u onto v: %.4f", la.scalar_projection(u, v)))

print("\n-- projection onto a vector")
u, v = la.vector{4, 3}, la.vector{2, 0}
local p, r = la.project(u, v)
print("proj_v(u) =", p, "residual =", r)
print(string.format("residual . v = %.10f (orthogonal: %s)", la.dot(r, v), tostring(la.dot(r, v) == 0)))
check(p == la.vector{4, 0} and r == la.vector{0, 3}, "line projection")
print(string.format("scalar projection %.4f = ||proj|| %.4f", la.scalar_projection(u, v), la.norm(p)))

print("\n-- projection onto a subspace (the xy-plane in R^3)")
local A = la.matrix{{1, 0}, {0, 1}, {0, 0}}
p, r = la.project({3, 4, 5}, A)
print("proj =", p, "residual =", r)
print(string.format("residual . col1 = %.4f, residual . col2 = %.4f", la.dot(r, A:col(1)), la.dot(r, A:col(2))))
check(la.allclose(p, {3, 4, 0}) and la.allclose(r, {0, 0, 5}), "plane projection")

print("\n-- projection matrices")
local P = la.projection_matrix{3, 4, 0}
print("P onto the line spanned by [3,4,0] =", P)
local eig = la.eigh(P)
print("idempotent:", la.allclose(P * P, P), " symmetric:", la.allclose(P, P.T),
      " eigenvalues:", eig.T, " trace:", la.trace(P), " rank:", la.rank(P))
check(la.allclose(P * P, P) and la.allclose(eig, {0, 0, 1}) and math.abs(la.trace(P) - 1) < 1e-12, "line P")
local Pp = la.projection_matrix(A)
local C = la.projection_matrix(A, {complement = true})
local b = la.vector{2, 3, 7}
print("P onto the xy-plane: trace", la.trace(Pp), "; P b =", (Pp * b).T, "; (I - P) b =", (C * b).T)
check(la.allclose(Pp * b, {2, 3, 0}) and la.allclose(C * b, {0, 0, 7}), "plane P")
