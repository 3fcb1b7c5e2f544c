-- The NumPy code blocks of seed 004 (shared/seeds/004_*.txt) whose data
-- are thousands of random draws, ported with la.random: np.random.seed(42)
-- then np.random.randn(m, n) is la.random.seed(42) then
-- la.random.randn(m, n), the same numbers bit for bit, and
-- np.random.default_rng(seed) is la.random.default_rng(seed). Each block
-- asserts the numbers NumPy prints (numpy 1.24.2, Debian's python3-numpy;
-- values printed with repr): high_dim_alignment,
-- least_squares_via_projection, the LinearRegressionProjection test,
-- attention_scaling_analysis, cosine_retrieval_demo and MultiHeadAttention.
-- (examples/numpy_port.lua has the other blocks.)
local la = require "linalg"

-- an error unless |x - want| <= tol everywhere (numbers are 1 x 1 matrices)
local function near(x, want, tol, what)
  if la.allclose(x, want, 0, tol) then return end
  local function show(v)
    if type(v) == "number" then return string.format("%.17g", v) end
    return tostring(type(v) == "table" and not la.is_matrix(v) and la.matrix(v) or v)
  end
  error(what .. ": got " .. show(x) .. ", NumPy gives " .. show(want), 2)
end

local function rounded(v, digits)                          -- v.round(4) of a vector, as NumPy prints it
  local out = {}
  for i = 1, v:numel() do out[i] = string.format("%." .. digits .. "f", v(i)) end
  return "[" .. table.concat(out, " ") .. "]"
end

print("-- 004 high_dim_alignment")
do
  la.random.seed(42)
  local results, dims = {}, {2, 10, 100, 1000}
  for _, d in ipairs(dims) do
    local u, v = la.random.randn(d), la.random.randn(d)
    u = u / la.norm(u)                                     -- u /= np.linalg.norm(u)
    v = v / la.norm(v)
    results[d] = la.dot(u, v)                              -- u @ v
  end
  print("Cosine similarity between random unit vectors:")
  for _, d in ipairs(dims) do
    local cos = results[d]
    print(string.format(" d=%5d: cos(theta) = %.4f (theta ~= %.1f deg)", d, cos, math.deg(math.acos(math.abs(cos)))))
  end
  near(results[2], 0.13023721636004668, 1e-15, "d = 2")
  near(results[10], 0.10591607712373635, 1e-15, "d = 10")
  near(results[100], -0.04211720716070822, 1e-15, "d = 100")
  near(results[1000], -0.03938634368753427, 1e-15, "d = 1000")
end

print("\n-- 004 least_squares_via_projection")
do
  la.random.seed(42)
  local n, d = 100, 5
  local x_true = la.vector{2.0, -1.0, 3.0, 0.5, -2.0}
  local A = la.random.randn(n, d)
  local b = A * x_true + 0.1 * la.random.randn(n)
  local ATA, ATb = A.T * A, A.T * b
  local x_normal = la.solve(ATA, ATb)
  local P = A * la.solve(ATA, A.T)                         -- hat matrix (n x n)
  local b_proj = P * b
  local x_proj = la.solve(ATA, A.T * b_proj)
  local x_lstsq, residuals = la.lstsq(A, b)                -- rcond=None is the default
  local Q, R = la.qr(A)
  local x_qr = la.solve(R, Q.T * b)
  print("Least squares solutions:")
  print(" Normal equations: " .. rounded(x_normal, 4))
  print(" Projection: " .. rounded(x_proj, 4))
  print(" lstsq (SVD): " .. rounded(x_lstsq, 4))
  print(" QR decomposition: " .. rounded(x_qr, 4))
  print("\nAll methods agree: " .. tostring(la.allclose(x_normal, x_lstsq, 1e-5, 1e-8)))
  local residual = b - A * x_normal
  local ss = la.sum(la.pow(residual, 2))                   -- np.sum(residual**2)
  print(" Residual orthogonal to col(A): " .. tostring(la.allclose(A.T * residual, la.zeros(d, 1), 1e-5, 1e-8)))
  print(string.format(" ||residual||^2 (minimum error): %.4f", ss))
  print(" Symmetric: " .. tostring(la.allclose(P, P.T)) .. ", Idempotent: " .. tostring(la.allclose(P * P, P)))
  print(string.format(" trace(P) = rank(A) = %.4f", la.trace(P)))
  local want = {2.00577765, -0.98767046, 2.99938079, 0.51415298, -2.00025063}   -- repr of each x
  for _, x in ipairs({x_normal, x_proj, x_lstsq, x_qr}) do near(x, want, 5e-9, "x") end
  assert(la.allclose(x_normal, x_lstsq, 1e-5, 1e-8) and la.allclose(A.T * residual, la.zeros(d, 1), 1e-5, 1e-8))
  near(ss, 0.8239267600800596, 1e-13, "||residual||^2"); near(residuals, {0.82392676}, 1e-8, "lstsq residuals")
  assert(la.allclose(P, P.T) and la.allclose(P * P, P))
  near(la.trace(P), 5, 1e-13, "trace(P)")
end

print("\n-- 004 LinearRegressionProjection")
local LinearRegressionProjection = {}
LinearRegressionProjection.__index = LinearRegressionProjection
function LinearRegressionProjection.new(fit_intercept)
  return setmetatable({fit_intercept = fit_intercept ~= false}, LinearRegressionProjection)
end
function LinearRegressionProjection:fit(X, y)
  local n = X:rows()
  local A = self.fit_intercept and la.hstack{la.ones(n, 1), X} or X   -- np.column_stack([np.ones(n), X])
  local Q, R = la.qr(A)
  local theta = la.solve(R, Q.T * y)
  if self.fit_intercept then
    self.intercept_, self.coef_ = theta(1), theta:slice("2:end", 1)   -- theta[0], theta[1:]
  else
    self.intercept_, self.coef_ = 0.0, theta
  end
  return self
end
function LinearRegressionProjection:predict(X) return X * self.coef_ + self.intercept_ end
function LinearRegressionProjection:score(X, y)              -- R^2
  local y_pred = self:predict(X)
  local ss_res = la.sum(la.pow(y - y_pred, 2))
  local ss_tot = la.sum(la.pow(y - la.mean(y), 2))
  return 1 - ss_res / ss_tot
end
do
  la.random.seed(42)
  local n = 200
  local X = la.random.randn(n, 3)
  local beta_true = la.vector{1.5, -2.0, 0.8}
  local y = X * beta_true + 1.2 + 0.5 * la.random.randn(n)
  local lr = LinearRegressionProjection.new(true):fit(X, y)
  print("Estimated: " .. rounded(lr.coef_, 4))
  print(string.format("Estimated: %.4f", lr.intercept_))
  print(string.format("R^2 score: %.4f", lr:score(X, y)))
  local A_aug = la.hstack{la.ones(n, 1), X}
  local theta_np = la.lstsq(A_aug, y)
  print(string.format("numpy lstsq intercept: %.4f", theta_np(1)))
  local match = la.allclose(la.vstack{lr.intercept_, lr.coef_}, theta_np, 1e-5, 1e-8)   -- [intercept] + list(coef)
  print("Match: " .. tostring(match))
  near(lr.coef_, {1.48808132, -1.95381517, 0.85927237}, 5e-9, "coef_")
  near(lr.intercept_, 1.20941194, 5e-9, "intercept_")
  near(lr:score(X, y), 0.9610539992462066, 1e-14, "R^2")
  assert(match)
end

print("\n-- 004 attention_scaling_analysis")
do
  la.random.seed(42)
  -- numpy 1.24: raw_scores.std(), entropy_raw, entropy_scaled for each d_k
  local want = {
    [4] = {0.5558517650978243, 2.8532444387584244, 2.957962600075446},
    [64] = {0.12477406488875632, 2.9878384740686745, 2.995610421918141},
    [512] = {0.05670877217091646, 2.9941653540997906, 2.9957291346587582},
    [4096] = {0.013891596851982156, 2.9956360026553086, 2.9957322479981197},
  }
  for _, d_k in ipairs({4, 64, 512, 4096}) do
    local q = la.random.randn(d_k)
    q = q / la.norm(q)
    local K = la.random.randn(20, d_k)
    K = K:ediv(la.vecnorm(K, 2, 2))                        -- K /= norm(K, axis=1, keepdims=True)
    local raw_scores = K * q
    local scaled_scores = raw_scores / math.sqrt(d_k)
    local softmax_raw = la.exp(raw_scores - raw_scores:max())
    softmax_raw = softmax_raw / softmax_raw:sum()
    local softmax_scaled = la.exp(scaled_scores - scaled_scores:max())
    softmax_scaled = softmax_scaled / softmax_scaled:sum()
    local entropy_raw = -la.sum(softmax_raw:emul(la.log(softmax_raw + 1e-10)))
    local entropy_scaled = -la.sum(softmax_scaled:emul(la.log(softmax_scaled + 1e-10)))
    print(string.format("d_k=%5d: raw score std=%.2f, entropy (raw)=%.3f, entropy (scaled)=%.3f",
      d_k, raw_scores:std(), entropy_raw, entropy_scaled))
    near(raw_scores:std(), want[d_k][1], 1e-14, "std")
    near(entropy_raw, want[d_k][2], 1e-13, "entropy (raw)")
    near(entropy_scaled, want[d_k][3], 1e-13, "entropy (scaled)")
  end
end

print("\n-- 004 cosine_retrieval_demo")
do
  la.random.seed(42)
  local d = 128
  local doc_embeddings = la.random.randn(100, d)
  doc_embeddings = doc_embeddings:ediv(la.vecnorm(doc_embeddings, 2, 2))
  local query = la.random.randn(d)
  query = query / la.norm(query)
  local similarities = doc_embeddings * query              -- (100 x 1)
  local top_k = 5
  local top_indices = la.flip(la.argsort(similarities)):slice("1:" .. top_k, 1)   -- argsort(s)[::-1][:top_k]
  local top_scores = similarities:slice(top_indices, 1)
  print("Query embedding: " .. rounded(query:slice("1:5", 1), 4) .. "...")
  print(string.format("\nTop-%d most similar documents:", top_k))
  for i = 1, top_k do                                      -- NumPy's doc numbers count from 0
    print(string.format(" Rank %d: doc %3d, cosine similarity = %.4f", i, top_indices(i) - 1, top_scores(i)))
  end
  near(query:slice("1:5", 1), {0.14475509, -0.09217668, -0.02068485, 0.00867821, -0.08717037}, 5e-9, "query[:5]")
  near(top_indices - 1, {90, 21, 55, 60, 49}, 0, "top_indices")
  near(top_scores, {0.24497714937661716, 0.1920586244771012, 0.1701485497937476, 0.1480639531308073,
                    0.13638292539182467}, 1e-15, "top_scores")
end

print("\n-- 004 MultiHeadAttention (default_rng(42) weights; X after np.random.seed(42))")
local MultiHeadAttention = {}
MultiHeadAttention.__index = MultiHeadAttention
function MultiHeadAttention.new(d_model, n_heads, seed)
  assert(d_model % n_heads == 0, "d_model must be divisible by n_heads")
  local self = setmetatable({d_model = d_model, n_heads = n_heads}, MultiHeadAttention)
  self.d_k = math.floor(d_model / n_heads)                 -- d_model // n_heads
  self.d_v = self.d_k
  local rng = la.random.default_rng(seed or 42)
  -- rng.standard_normal((n_heads, d_model, d_k)): no 3-D arrays here, so a
  -- list of n_heads matrices drawn one after another, as NumPy fills them
  local function heads(cols)
    local W = {}
    for h = 1, n_heads do W[h] = rng:standard_normal(d_model, cols) * 0.02 end
    return W
  end
  self.W_Q, self.W_K, self.W_V = heads(self.d_k), heads(self.d_k), heads(self.d_v)
  self.W_O = rng:standard_normal(n_heads * self.d_v, d_model) * 0.02
  return self
end
function MultiHeadAttention:_attention(Q, K, V)
  local d_k = Q:cols()
  local scores = Q * K.T / math.sqrt(d_k)
  scores = scores - scores:max(2)                          -- max(axis=-1, keepdims=True)
  local weights = la.exp(scores)
  weights = weights:ediv(weights:sum(2))
  return weights * V, weights
end
function MultiHeadAttention:forward(X)
  local head_outputs, all_weights = {}, {}
  for h = 1, self.n_heads do
    local out_h, w_h = self:_attention(X * self.W_Q[h], X * self.W_K[h], X * self.W_V[h])
    head_outputs[h], all_weights[h] = out_h, w_h
  end
  local concat = la.hstack(head_outputs)                   -- np.concatenate(..., axis=-1)
  return concat * self.W_O, all_weights                    -- np.stack(all_weights): a list
end
do
  local d_model, n_heads, seq_len = 64, 8, 10
  local mha = MultiHeadAttention.new(d_model, n_heads)
  -- the seed text draws X from the unseeded global stream; seeded here
  -- (np.random.seed(42) in the NumPy run too) so the numbers can be checked
  la.random.seed(42)
  local X = la.random.randn(seq_len, d_model)
  local output, weights = mha:forward(X)
  print("Input shape:", X:shape())
  print("Output shape:", output:shape())
  print("Weights:", #weights, weights[1]:shape())
  for h = 1, n_heads do
    local row_sums = weights[h]:sum(2)
    print(string.format(" Head %d: min=%.6f, max=%.6f", h - 1, row_sums:min(), row_sums:max()))
    near(row_sums, la.ones(seq_len, 1), 1e-15, "row sums")
  end
  print("\nd_k per head: " .. mha.d_k)
  -- the weights are the draws times 0.02: equal to the last bit
  near(mha.W_Q[1]:slice(1, "1:3"), {{0.006094341595088627, -0.020799682124809912, 0.015009023916129145}}, 0, "W_Q[0][0, :3]")
  near(mha.W_O:slice(64, "63:64"), {{-0.00936462223462232, 0.0072826179374717035}}, 0, "W_O[63, -2:]")
  near(output:slice(1, "1:4"), {{0.004001827471342624, 0.012854546458016904, -0.009464316013939255, 0.010580386030240689}}, 1e-16, "output[0, :4]")
  near(output:slice(10, "62:64"), {{-0.004043078869685379, -0.00012000294946307863, -0.012510201653571227}}, 1e-16, "output[9, -3:]")
  near(weights[1]:slice(1, "1:4"), {{0.0976418706002818, 0.10392332088638616, 0.09856831810018657, 0.10084043046582648}}, 1e-15, "weights[0, 0, :4]")
  near(weights[8]:slice(10, "9:10"), {{0.10285569514145104, 0.09946688467516632}}, 1e-15, "weights[7, 9, -2:]")
end

print("\nall NumPy values reproduced (random blocks)")
