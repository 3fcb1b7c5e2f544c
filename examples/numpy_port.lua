-- The NumPy code blocks of the seed texts (shared/seeds/*.txt), ported the
-- way a NumPy user would write them with linalg: `*` for `@`, views and
-- `A:set(rows, cols, B)` for `A[rows, cols] = B`, `la.softmax(S, 2)` for a
-- row softmax, dims for axes. Each block asserts the numbers NumPy prints
-- (numpy 1.24.2, Debian's python3-numpy; values printed with repr).
--
-- Ported here: seed 000 (span and one-query attention), 002 (two-query
-- attention), and from 004: dot_product_demo, orthogonality_demo,
-- projection_demo (without its picture), project_onto_subspace,
-- projection_matrix_properties, gram_schmidt and its test,
-- modified_gram_schmidt on V_bad, the Part 7 reference, the Level 1
-- answers, scaled_dot_product_attention (with its causal mask) and
-- fixed_attention. Blocks that draw after np.random.seed(42) draw the same
-- numbers from la.random (NumPy's legacy stream bit for bit). The blocks
-- whose draws run to thousands (high_dim_alignment,
-- least_squares_via_projection, the LinearRegressionProjection test,
-- attention_scaling_analysis, cosine_retrieval_demo, MultiHeadAttention)
-- are in examples/numpy_port_random.lua.
local la = require "linalg"

local function near(x, want, tol, what)
  local ok = type(x) == "number" and math.abs(x - want) <= tol
    or type(x) ~= "number" and la.allclose(x, want, 0, tol)
  if not ok then error(what .. ": got " .. tostring(x) .. ", NumPy gives " .. tostring(la.is_matrix(want) and want or la.matrix(want)), 2) end
end

print("-- seed 000: predictions in the span of X's columns, attention in the span of V's rows")
do
  local X = la.matrix{{1, 2}, {3, 4}, {5, 6}}
  local w = la.vector{2, -1}
  local yhat = X * w                                       -- X @ w
  print("yhat:", yhat.T)
  print("check combo:", (2 * X:col(1) - 1 * X:col(2)).T)   -- 2*X[:,0] - 1*X[:,1]
  near(yhat, {0, 2, 4}, 0, "yhat")
  local Q = la.matrix{{1, 0}}
  local K = la.matrix{{1, 0}, {0, 1}, {1, 1}}
  local V = la.matrix{{1, 0}, {0, 2}, {1, 1}}
  local scores = (Q * K.T) / math.sqrt(2)
  local a = la.softmax(scores, 2):reshape(-1)              -- softmax(scores, axis=1).reshape(-1)
  local o = V.T * a                                        -- a @ V of a 1-D a
  print("a:", a.T, "sum:", a:sum())
  print("o:", o.T)
  local combo = a(1) * V:row(1) + a(2) * V:row(2) + a(3) * V:row(3)
  print("o combo:", combo)
  near(a, {0.4011120926797859, 0.1977758146404282, 0.4011120926797859}, 1e-15, "a")
  near(a:sum(), 1, 1e-15, "a.sum()")
  near(o, {0.8022241853595719, 0.7966637219606423}, 1e-15, "o")
  near(combo.T, o, 1e-15, "o combo")
end

print("\n-- seed 002: attention as Q K^T, then A V")
do
  local Q = la.matrix{{1, 0}, {0, 1}}
  local K = la.matrix{{1, 0}, {1, 1}, {0, 1}}
  local V = la.matrix{{1, 0}, {0, 2}, {1, 1}}
  local scores = Q * K.T / math.sqrt(2)
  local A = la.softmax(scores, 2)                          -- softmax(scores, axis=1)
  local O = A * V
  print("A row sums:", A:sum(2).T)                         -- A.sum(axis=1)
  print("O:\n" .. tostring(O))
  near(A:sum(2), {1, 1}, 1e-15, "row sums")
  near(O, {{0.5988879073202141, 1.0}, {0.5988879073202141, 1.2033362780393577}}, 1e-15, "O")
end

print("\n-- 004 dot_product_demo")
do
  local u, v = la.vector{3, 4}, la.vector{1, 0}
  local dot_algebraic = la.dot(u, v)                       -- u @ v
  local norm_u, norm_v = la.norm(u), la.norm(v)
  local cos_theta = dot_algebraic / (norm_u * norm_v)
  local theta_deg = math.deg(math.acos(la.clip(cos_theta, -1, 1)))
  print(string.format("Geometric: ||u||*||v||*cos(theta) = %.2f * %.2f * %.4f = %g", norm_u, norm_v, cos_theta, dot_algebraic))
  print(string.format("Angle between u and v: %.2f degrees", theta_deg))
  print("Commutativity:", la.isclose(la.dot(u, v), la.dot(v, u)))
  local w = la.vector{2, 1}
  print(string.format("u.(v+w) = %.4f, u.v + u.w = %.4f", la.dot(u, v + w), la.dot(u, v) + la.dot(u, w)))
  print(string.format("Scalar projection of u onto v: %.4f", dot_algebraic / norm_v))
  near(dot_algebraic, 3, 0, "u.v"); near(norm_u, 5, 0, "||u||")
  near(theta_deg, 53.13010235415598, 1e-12, "theta")     -- np.degrees(np.arccos(0.6))
  assert(la.isclose(la.dot(u, v + w), la.dot(u, v) + la.dot(u, w)) and la.dot(u, v + w) == 13)
end

print("\n-- 004 orthogonality_demo (np.random.seed(42))")
do
  local e1, e2 = la.vector{1, 0, 0}, la.vector{0, 1, 0}
  print("e1 . e2 =", la.dot(e1, e2), " e1 . e1 =", la.dot(e1, e1))
  la.random.seed(42)
  local A = la.random.randn(4, 4)
  local Q = la.qr(A)
  print("Q^T Q = I:", la.allclose(Q.T * Q, la.eye(4), 0, 1e-15))
  local v = la.random.randn(4)
  print(string.format("||v|| = %.6f, ||Qv|| = %.6f", la.norm(v), la.norm(Q * v)))
  local u = la.random.randn(4)
  print(string.format("u . v = %.6f, (Qu) . (Qv) = %.6f", la.dot(u, v), la.dot(Q * u, Q * v)))
  local g = la.random.randn(4)
  print(string.format("||grad|| = %.6f, ||Q^T grad|| = %.6f", la.norm(g), la.norm(Q.T * g)))
  near(la.norm(v), 1.9858720328592785, 1e-14, "||v||"); near(la.norm(Q * v), 1.9858720328592783, 1e-14, "||Qv||")
  near(la.dot(u, v), 0.3954556163919394, 1e-14, "u . v"); near(la.dot(Q * u, Q * v), 0.39545561639193877, 1e-14, "(Qu).(Qv)")
  near(la.norm(Q.T * g), 1.3321379763093835, 1e-14, "||Q^T g||")
end

print("\n-- 004 projection_demo, project_onto_subspace")
do
  local function vector_projection(u, v)
    local v_unit = v / la.norm(v)
    return la.dot(u, v_unit) * v_unit
  end
  local u, v = la.vector{4, 3}, la.vector{2, 0}
  local proj = vector_projection(u, v)
  local residual = u - proj
  print("proj_v(u) =", proj.T, "residual =", residual.T)
  print(string.format("residual . v = %.10f; u = proj + residual: %s", la.dot(residual, v),
    tostring(la.allclose(u, proj + residual))))
  near(proj, {4, 0}, 0, "proj"); near(residual, {0, 3}, 0, "residual")
  local A = la.matrix{{1, 0}, {0, 1}, {0, 0}}
  local b = la.vector{3, 4, 5}
  local p = A * (la.pinv(A) * b)                           -- A @ (pinv(A) @ b)
  local r = b - p
  print("proj onto xy-plane:", p.T, "residual:", r.T)
  print(string.format("residual . col1 = %.4f, residual . col2 = %.4f", la.dot(r, A:col(1)), la.dot(r, A:col(2))))
  near(p, {3, 4, 0}, 1e-15, "proj onto the plane"); near(r, {0, 0, 5}, 1e-15, "residual")
end

print("\n-- 004 projection_matrix_properties")
do
  local v = la.vector{3, 4, 0}
  local v_hat = v / la.norm(v)
  local P_line = la.outer(v_hat, v_hat)
  print("P =\n" .. tostring(P_line))
  local eigenvalues = la.eigvalsh(P_line)
  local zero_or_one = la.maximum(la.isclose(eigenvalues, 0), la.isclose(eigenvalues, 1))   -- |
  print("Idempotent:", la.allclose(P_line * P_line, P_line), " Symmetric:", la.allclose(P_line.T, P_line))
  print("Eigenvalues:", eigenvalues.T, " all in {0, 1}:", la.all(zero_or_one))
  print(string.format("trace(P) = %.4f, rank(P) = %d", la.trace(P_line), la.rank(P_line)))
  near(P_line, {{0.36, 0.48, 0}, {0.48, 0.64, 0}, {0, 0, 0}}, 1e-15, "P_line")
  near(eigenvalues, {0, 0, 1}, 1e-15, "eigenvalues")
  assert(la.all(zero_or_one) and la.rank(P_line) == 1)
  local A = la.hstack{la.vector{1, 0, 0}, la.vector{0, 1, 0}}   -- np.column_stack
  local P_plane = A * la.pinv(A)
  local P_complement = la.eye(3) - P_plane
  local b = la.vector{2, 3, 7}
  print(string.format("plane: trace(P) = %.4f; P b =", la.trace(P_plane)), (P_plane * b).T, "(I - P) b =", (P_complement * b).T)
  near(P_plane * b, {2, 3, 0}, 1e-15, "P b"); near(P_complement * b, {0, 0, 7}, 1e-15, "(I - P) b")
end

-- the seed's gram_schmidt: V's columns one by one, each minus its
-- projections on the columns already made (Q[:, i] = q / norm is a set)
local function gram_schmidt(V)
  local n, k = V:shape()
  local Q = la.zeros(n, k)
  for i = 1, k do
    local q = V:col(i):copy()
    for j = 1, i - 1 do q = q - la.dot(Q:col(j), V:col(i)) * Q:col(j) end
    local norm = la.norm(q)
    if norm < 1e-12 then error(string.format("Vector %d is linearly dependent on previous vectors", i - 1)) end
    Q:set(":", i, q / norm)
  end
  return Q
end

-- the seed's modified_gram_schmidt: in place, on a copy of V
local function modified_gram_schmidt(V)
  local _, k = V:shape()
  local Q = V:copy()
  for i = 1, k do
    local norm = la.norm(Q:col(i))
    if norm < 1e-12 then error(string.format("Vector %d is linearly dependent", i - 1)) end
    Q:set(":", i, Q:col(i) / norm)                                        -- Q[:, i] /= norm
    for j = i + 1, k do
      Q:set(":", j, Q:col(j) - la.dot(Q:col(i), Q:col(j)) * Q:col(i))     -- Q[:, j] -= ...
    end
  end
  return Q
end

print("\n-- 004 gram_schmidt of np.random.randn(4, 3) after seed 42")
do
  la.random.seed(42)
  local V = la.random.randn(4, 3)
  local Q = gram_schmidt(V)
  print("Q shape:", Q:shape())
  print("Orthonormal: Q^T Q = I:", la.allclose(Q.T * Q, la.eye(3), 0, 1e-15))
  for j = 1, 3 do
    local v_j = V:col(j)
    print(string.format("Column %d reconstruction residual: %.2e", j - 1, la.norm(v_j - Q * (Q.T * v_j))))
    assert(la.norm(v_j - Q * (Q.T * v_j)) < 1e-15)
  end
  local Q_np = la.qr(V)
  for j = 1, 3 do
    local cos_sim = math.abs(la.dot(Q:col(j), Q_np:col(j)))
    print(string.format(" Column %d cos similarity: %.8f", j - 1, cos_sim))
    near(cos_sim, 1, 1e-15, "cos similarity")
  end
  near(Q, {{0.21465540335099464, -0.20698989722471128, 0.8632162430447302},
           {0.6581785241289049, -0.4256118345858013, 0.027051808163567136},
           {0.682458033125811, 0.6714757201456432, -0.13029027908242857},
           {0.2344677402325695, -0.5702018116091019, -0.48698086265832413}}, 1e-15, "Q")
end

print("\n-- 004 modified_gram_schmidt on nearly dependent vectors")
do
  local eps = 1e-8
  local V_bad = la.matrix{{1, 1, 1}, {eps, eps, 0}, {0, eps, eps}}
  local Q_classical, Q_modified = gram_schmidt(V_bad), modified_gram_schmidt(V_bad)
  local err_c = la.max(la.abs(Q_classical.T * Q_classical - la.eye(3)))
  local err_m = la.max(la.abs(Q_modified.T * Q_modified - la.eye(3)))
  print("Classical GS orthogonality error:", err_c)
  print("Modified GS orthogonality error:", err_m)
  near(err_c, 1e-08, 1e-16, "classical"); near(err_m, 1e-08, 1e-16, "modified")   -- NumPy prints 1e-08 twice
end

print("\n-- 004 Part 7 reference")
do
  local u, v = la.vector{1, 2, 3}, la.vector{4, 5, 6}
  local dot1, dot2, dot3, dot4 = la.dot(u, v), la.dot(u, v), la.inner(u, v), la.dot(u.T, v)
  print("u @ v =", dot1)
  assert(dot1 == 32 and dot2 == 32 and dot3 == 32 and dot4 == 32)
  -- random data NumPy draws without a seed: the shapes and agreements
  -- hold for any draws, so linalg's own stream serves
  local U, V = la.randn(10, 512, 1), la.randn(20, 512, 2)
  local scores = U * V.T
  print("Attention score matrix shape:", scores:shape())
  local norm_u = la.norm(u)
  local u_hat = u / norm_u
  print(string.format("||u|| = %.4f; u_hat: [%.4f, %.4f, %.4f], ||u_hat|| = %.6f", norm_u, u_hat(1), u_hat(2), u_hat(3), la.norm(u_hat)))
  near(norm_u, 3.7416573867739413, 1e-15, "||u||")
  local function cosine_similarity(a, b) return la.dot(a, b) / (la.norm(a) * la.norm(b)) end
  local function cosine_similarity_matrix(A, B)          -- rows of A against rows of B
    local A_norm = A:ediv(la.vecnorm(A, 2, 2))             -- norm(A, axis=1, keepdims=True)
    local B_norm = B:ediv(la.vecnorm(B, 2, 2))
    return A_norm * B_norm.T
  end
  print(string.format("Cosine similarity (u, v): %.4f", cosine_similarity(u, v)))
  near(cosine_similarity(u, v), 0.9746318461970762, 1e-15, "cosine")
  local A, B = la.randn(5, 3, 3), la.randn(4, 3, 4)
  local cos_mat = cosine_similarity_matrix(A, B)
  print("Cosine similarity matrix:", cos_mat:shape())
  assert(la.allclose(cos_mat, la.cosine_matrix(A, B), 0, 1e-15))
  local V_mat = la.randn(5, 3, 5)
  local Q, R = la.qr(V_mat)
  print("QR: Q orthonormal:", la.allclose(Q.T * Q, la.eye(3)), " Reconstruction:", la.allclose(V_mat, Q * R))
  local A_ls, b_ls = la.randn(100, 5, 6), la.randn(100, 1, 7)
  local x_lstsq = la.lstsq(A_ls, b_ls)
  local x_normal = la.solve(A_ls.T * A_ls, A_ls.T * b_ls)
  local Q_ls, R_ls = la.qr(A_ls)
  local x_qr = la.solve(R_ls, Q_ls.T * b_ls)
  local agree = la.allclose(x_lstsq, x_normal) and la.allclose(x_lstsq, x_qr)
  print("Least squares methods agree:", agree)
  assert(agree)
end

print("\n-- 004 Level 1: which projection is longer?")
do
  local u, v = la.vector{3, 4}, la.vector{4, 3}
  local proj_vu = (la.dot(u, v) / la.dot(v, v)) * v
  local proj_uv = (la.dot(u, v) / la.dot(u, u)) * u
  print(la.norm(u), la.norm(v), la.norm(proj_vu), la.norm(proj_uv))
  near(la.norm(proj_vu), 4.8, 1e-15, "||proj_v(u)||"); near(la.norm(proj_uv), 4.8, 1e-15, "||proj_u(v)||")
end

-- the seed's scaled_dot_product_attention, step by step
local function scaled_dot_product_attention(Q, K, V, mask)
  local d_k = Q:cols()
  local scores = Q * K.T / math.sqrt(d_k)
  if mask then scores = la.where(la.eq(mask, 0), -1e9, scores) end
  local exp_scores = la.exp(scores - scores:max(2))        -- max(axis=-1, keepdims=True)
  local weights = exp_scores:ediv(exp_scores:sum(2))
  return weights * V, weights
end

local function rounded(M, digits)                          -- M.round(3) as text
  local rows = {}
  for i = 1, M:rows() do
    local r = {}
    for j = 1, M:cols() do r[j] = string.format("%." .. digits .. "f", M(i, j)) end
    rows[i] = "[" .. table.concat(r, " ") .. "]"
  end
  return table.concat(rows, "\n")
end

print("\n-- 004 scaled_dot_product_attention, seed 42")
do
  la.random.seed(42)
  local Q, K, V = la.random.randn(4, 8), la.random.randn(4, 8), la.random.randn(4, 8)
  local output, weights = scaled_dot_product_attention(Q, K, V)
  print("Output shape:", output:shape())
  print("Attention weights (each row sums to 1):\n" .. rounded(weights, 3))
  print("Row sums:", weights:sum(2).T)
  near(output, {
    {-0.13081040453308582, 0.7721257332476152, 0.10108920682592497, 0.168073280195703, -0.46588683818918336, -0.436812631594308, 0.468514578355879, -0.42075407416034666},
    {0.40109275719622817, 1.1908039778504107, -0.35037301523906883, 0.9466890823909009, 0.08274232038648473, -0.5301010625908376, 0.1768336854670238, 0.4192338532385489},
    {0.17910025130083848, 0.9845614496933821, -0.06763014182474494, 0.8067809228234084, -0.14453165624904626, -0.49373080567582245, 0.15002953774400338, 0.10067087696249832},
    {0.014213684639893389, 1.1490767125540389, -0.9923948522717734, 0.6045170112935582, -0.1460001757665041, -0.4049681571877211, 0.24215066949543812, -0.8277707259205068}},
    1e-14, "output")
  near(la.attention(Q, K, V), output, 1e-14, "la.attention")
  local causal_mask = la.tril(la.ones(4, 4))
  local output_causal, weights_causal = scaled_dot_product_attention(Q, K, V, causal_mask)
  print("Causal attention weights (upper triangle = 0):\n" .. rounded(weights_causal, 3))
  near(weights_causal:slice("2:3", "1:3"), {{0.828, 0.172, 0}, {0.702, 0.131, 0.166}}, 5e-4, "causal weights")
  near(output_causal:row(2), {{0.6664130135063833, 1.392133672164557, -0.5108100246490639, 0.9722504451971185,
    0.3143431910366732, -0.5855083388064521, 0.314956027754243, 0.930816681363572}}, 1e-14, "causal output")
  near(la.attention(Q, K, V, {causal = true}), output_causal, 1e-14, "la.attention causal")
end

print("\n-- 004 Level 2: fixed_attention, seed 42")
do
  la.random.seed(42)
  local Q, K, V = la.random.randn(3, 8), la.random.randn(5, 8), la.random.randn(5, 4)
  local output, weights = scaled_dot_product_attention(Q, K, V)
  print("Output shape:", output:shape())
  print("Attention weight row sums:", weights:sum(2).T)
  near(weights:sum(2), {1, 1, 1}, 1e-15, "row sums")
  near(output, {{0.18429576387749386, 0.4573193959287378, -0.31725637016117725, -0.42002121446836627},
                {0.25468685106942585, 0.03634853633470413, 0.1629635911737728, 0.9589418425615771},
                {0.19075920382666756, 0.0954003068219877, 0.37611588427151343, 0.4763939966660722}}, 1e-14, "output")
end

print("\nall NumPy values reproduced")
