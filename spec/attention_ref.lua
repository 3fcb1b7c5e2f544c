-- A reference for la.attention_backward written with la's matrix
-- operations from the explicit formulas (the weights P materialised), for
-- the specs (an independent check of the fused kernel) and for developing
-- examples/train_attention.lua before the C function exists:
--   S = scale Q K^T + bias, masked entries (mask == 0, causal) -inf
--   P = exp(S - lse)                 (lse from the forward: P's rows sum to 1)
--   dV = P^T dO,  dP = dO V^T
--   D = rowsum(dO .* O)              (= rowsum(P .* dP), as FlashAttention-2 computes it)
--   dS = P .* (dP - D)               (la.softmax_backward(P, dP))
--   dQ = scale dS K,  dK = scale dS^T Q,  dbias = dS (summed over broadcast dimensions)
-- A fully masked row (lse = -inf) has P = 0 and so zero gradients.
-- Options: scale, causal (true, "upper_left", "lower_right"), mask, bias,
-- bias_grad. Float64 throughout (float32 arguments are read as float64).
local la = require "linalg"

local M = {}

local function f64(A)
  if A == nil then return nil end
  A = la.asmatrix(A)
  return A.dtype == "float32" and la.astype(A, "float64") or A
end

-- an nq x nk matrix from one that may be 1 x nk or nq x 1
local function full(B, nq, nk)
  if B:rows() == nq and B:cols() == nk then return B end
  return B + la.zeros(nq, nk)
end

-- the weights P (nq x nk) of the forward
function M.weights(Q, K, lse, opts)
  opts = opts or {}
  local nq, nk, dk = Q:rows(), K:rows(), Q:cols()
  local scale = opts.scale or (dk > 0 and 1 / math.sqrt(dk) or 1)
  local S = (Q * K:t()) * scale
  if opts.bias then S = S + full(f64(opts.bias), nq, nk) end
  local mask = opts.mask and full(f64(opts.mask), nq, nk)
  local coff = opts.causal == "lower_right" and nk - nq or 0
  local P = la.zeros(nq, nk)
  for i = 1, nq do
    local l = lse:get(i, 1)
    for j = 1, nk do
      local masked = (opts.causal and j > i + coff) or (mask and mask:get(i, j) == 0)
      if not masked and l > -math.huge then P:set(i, j, math.exp(S:get(i, j) - l)) end
    end
  end
  return P, scale
end

-- dQ, dK, dV [, dbias]
function M.backward(dO, Q, K, V, O, lse, opts)
  opts = opts or {}
  dO, Q, K, V, O, lse = f64(dO), f64(Q), f64(K), f64(V), f64(O), f64(lse)
  local P, scale = M.weights(Q, K, lse, opts)
  local dV = P:t() * dO
  local dP = dO * V:t()
  local D = la.sum(la.emul(dO, O), 2)
  local dS = la.emul(P, dP - D)
  local dQ, dK = (dS * K) * scale, (dS:t() * Q) * scale
  if not opts.bias_grad then return dQ, dK, dV end
  local B = opts.bias and f64(opts.bias)
  local dB = dS
  if B and B:rows() == 1 and Q:rows() ~= 1 then dB = la.sum(dS, 1) end
  if B and B:cols() == 1 and K:rows() ~= 1 then dB = la.sum(dS, 2) end
  return dQ, dK, dV, dB
end

return M
