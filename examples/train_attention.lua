-- Training one attention layer with gradients from la.attention_backward,
-- following the seed texts (002, 003): scores Q K^T scaled by 1/sqrt(d_k) so
-- that softmax does not saturate (a saturated softmax passes back almost no
-- gradient), and the eigen/singular spectrum of the learned bilinear form
-- W_Q W_K^T as a picture of training (an orthogonal start: all singular
-- values equal, condition number 1).
--
-- The task: 8 keys each carry a distinct token (one-hot, 8 columns) and a
-- random payload (4 columns); 8 queries carry the same tokens in another
-- order plus 4 columns of noise. Query i must return the payload of the key
-- with its token, so the model must learn W_Q W_K^T ~ c I on the token
-- columns (attend to the same token) and W_V = [0; I] (read the payload).
-- Loss: mean over queries of 0.5 ||o_i - y_i||^2; plain SGD on fresh
-- batches, gradients clipped to norm 1 (la.clip_grad_norm).
--
-- Usage: lua examples/train_attention.lua [loss.svg]
local la = require "linalg"
assert(la.attention_backward, "this example needs la.attention_backward (linalg with training attention)")

local svg = arg and arg[1] or os.tmpname()
local N, DT, DP, DK = 8, 8, 4, 8            -- tokens = keys = queries, token and payload widths, d_k
local D = DT + DP                           -- input width
local BATCH, STEPS, LR, CLIP = 8, 400, 1.0, 0.5
local g = la.random.default_rng(2024)

-- a random permutation of 1..n (the order of argsort of uniform draws)
local function perm(n) return la.argsort(g:random(1, n), 2) end

-- one sequence: query inputs Xq, key inputs Xk (N x D) and targets Y (N x DP)
local function sample()
  local pk, pq = perm(N), perm(N)
  local Xk, Xq, Y = la.zeros(N, D), la.zeros(N, D), la.zeros(N, DP)
  local payload, noise = g:standard_normal(N, DP), g:standard_normal(N, DP)
  local where = {}                                    -- token -> key row
  for j = 1, N do
    Xk:set(j, pk(1, j), 1)
    Xk:set(j, "9:12", payload:row(j))
    where[pk(1, j)] = j
  end
  for i = 1, N do
    Xq:set(i, pq(1, i), 1)
    Xq:set(i, "9:12", noise:row(i))
    Y:set(i, ":", payload:row(where[pq(1, i)]))
  end
  return {Xq = Xq, Xk = Xk, Y = Y}
end

-- the loss of W on the batch and, with grad, its gradients dW_Q, dW_K, dW_V
local function loss(W, batch, grad)
  local total, dWQ, dWK, dWV = 0, la.zeros(D, DK), la.zeros(D, DK), la.zeros(D, DP)
  for _, s in ipairs(batch) do
    local Q, K, V = s.Xq * W.Q, s.Xk * W.K, s.Xk * W.V
    local O, lse = la.attention(Q, K, V, {lse = true})
    local R = O - s.Y
    total = total + 0.5 * la.sum(la.emul(R, R)) / (N * #batch)
    if grad then
      local dQ, dK, dV = la.attention_backward(R / (N * #batch), Q, K, V, O, lse)
      dWQ = dWQ + s.Xq:t() * dQ
      dWK = dWK + s.Xk:t() * dK
      dWV = dWV + s.Xk:t() * dV
    end
  end
  return total, dWQ, dWK, dWV
end

-- mean entropy (nats) of the rows of softmax(S * scale)
local function entropy(S, scale)
  local P = la.softmax(S * scale)
  return -la.sum(la.emul(P, la.log(la.maximum(P, 1e-300)))) / S:rows()
end

-- the median over rows of each row's 2-norm
local function median_row_norm(G)
  local r = la.sort(la.vecnorm(G, 2, 2), 1)
  return r(math.floor((r:rows() + 1) / 2), 1)
end

print("-- saturation (seed 002): 32 random queries and keys with unit-variance entries; the")
print("-- gradient through softmax (la.softmax_backward) of a random dP, raw and scaled scores")
print("-- (median over rows of a row's norm)")
print("   d_k  entropy raw  entropy scaled  |grad| raw  |grad| scaled   (max entropy log 32 = 3.466)")
local dP = g:standard_normal(32, 32)
for _, dk in ipairs{4, 16, 64, 256, 1024} do
  local S = g:standard_normal(32, dk) * g:standard_normal(32, dk):t()
  local graw = median_row_norm(la.softmax_backward(la.softmax(S), dP))
  local gscaled = median_row_norm(la.softmax_backward(la.softmax(S / math.sqrt(dk)), dP))
  print(string.format("  %4d  %11.3f  %14.3f  %10.2e  %13.2e", dk, entropy(S, 1), entropy(S, 1 / math.sqrt(dk)),
    graw, gscaled))
  if dk == 1024 then assert(entropy(S, 1) < 0.1 * entropy(S, 1 / math.sqrt(dk)) and graw < 0.01 * gscaled) end
end

-- orthogonal start (seed 003): W_Q, W_K with orthonormal columns (times 0.5),
-- so W_Q W_K^T = 0.25 U1 U2^T has DK equal singular values
local function orthonormal(m, n) return (la.qr(g:standard_normal(m, n))) end
local W = {Q = 0.5 * orthonormal(D, DK), K = 0.5 * orthonormal(D, DK), V = 0.1 * g:standard_normal(D, DP)}

-- the gradients against central differences, on one batch, before training
local batch = {sample(), sample()}
local _, dWQ, dWK, dWV = loss(W, batch, true)
local worst, h = 0, 1e-6
for name, G in pairs{Q = dWQ, K = dWK, V = dWV} do
  local M = W[name]
  for i = 1, M:rows() do
    for j = 1, M:cols() do
      local x = M(i, j)
      M:set(i, j, x + h); local a = loss(W, batch)
      M:set(i, j, x - h); local b = loss(W, batch)
      M:set(i, j, x)
      worst = math.max(worst, math.abs((a - b) / (2 * h) - G(i, j)) / math.max(1e-3, math.abs(G(i, j))))
    end
  end
end
print(string.format("\n-- gradient check: %d entries of dW_Q, dW_K, dW_V against central differences, max rel. error %.1e",
  2 * D * DK + D * DP, worst))
assert(worst < 1e-5, "attention_backward's gradients disagree with finite differences")

-- the spectrum of the bilinear form q^T (W_Q W_K^T) k: singular values 1..3, DK - 1 and DK, and
-- the condition number of the leading DK - 1. Softmax ignores a constant added to a row of scores
-- (the rows of softmax_backward's result sum to 0), so the token block needs only rank DK - 1
-- (c (I - 11^T / DK) attends as well as c I): s_DK carries no signal and is left behind.
local function spectrum()
  local _, s = la.svd(W.Q * W.K:t())
  return string.format("s = %.2f %.2f %.2f .. %.2f | %.3f, cond(1..%d) %.1f", s(1), s(2), s(3), s(DK - 1),
    s(DK), DK - 1, s(1) / s(DK - 1))
end

print("\n-- training: SGD, lr " .. LR .. ", batch " .. BATCH .. ", gradients clipped to norm " .. CLIP)
local test = {}
for k = 1, 16 do test[k] = sample() end
local function attn_entropy(scale)  -- the model's attention on the test batch
  local e = 0
  for _, s in ipairs(test) do e = e + entropy((s.Xq * W.Q) * (s.Xk * W.K):t(), scale) end
  return e / #test
end
print("(entropy: of the model's attention, as it runs (scaled by 1/sqrt(d_k)) and unscaled; max log 8 = 2.079)")
local steps, losses, first, clipped = {}, {}, nil, 0
for step = 0, STEPS do
  local b = {}
  for k = 1, BATCH do b[k] = sample() end
  local l, gQ, gK, gV = loss(W, b, true)
  if step % 50 == 0 then
    local lt = loss(W, test)
    first = first or lt
    print(string.format("step %3d  test loss %.4f  entropy %.3f (unscaled %.3f)  W_Q W_K^T: %s", step, lt,
      attn_entropy(1 / math.sqrt(DK)), attn_entropy(1), spectrum()))
  end
  steps[#steps + 1], losses[#losses + 1] = step, l
  local norm = la.clip_grad_norm({gQ, gK, gV}, CLIP)
  if norm > CLIP then clipped = clipped + 1 end
  W.Q, W.K, W.V = W.Q - LR * gQ, W.K - LR * gK, W.V - LR * gV
end
local final = loss(W, test)
print(string.format("gradient norm clipped in %d of %d steps; test loss %.4f -> %.4f", clipped, STEPS + 1, first, final))

la.lineplot(steps, losses, svg, {title = "one attention layer, SGD", xlabel = "step", ylabel = "batch loss",
  ylog = true})
print("loss curve: " .. svg)

local LEVEL = 0.05
assert(final < LEVEL, string.format("the test loss %.4f did not fall below %.2f", final, LEVEL))
print(string.format("the loss fell below %.2f", LEVEL))
