-- attention_backward: the gradients of attention against PyTorch autograd
-- (fixtures), an explicit formula on la's own products, finite differences
-- of la.attention, threads, float32, empty inputs and errors.
local la = require "linalg"

-- PyTorch 1.13.1 autograd through the explicit formula, float64: written by
-- spec/fixtures/attention_bwd_torch.py (inputs and gradients)
local CASES = dofile("spec/fixtures/attention_bwd_torch.lua")
local F32 = {dtype = "float32"}

-- max |E - A| <= tol * max(floor, max |E|), same shape (E a matrix or
-- table); floor defaults to 1e-300
local function relclose(E, A, tol, floor)
  if not la.is_matrix(E) then E = la.matrix(E) end
  local m, n = E:shape()
  local p, q = A:shape()
  assert.are.same({m, n}, {p, q})
  local big, diff = floor or 1e-300, 0
  for i = 1, m do
    for j = 1, n do
      big = math.max(big, math.abs(E(i, j)))
      diff = math.max(diff, math.abs(E(i, j) - A(i, j)))
    end
  end
  assert(diff <= tol * big, string.format("max difference %g > %g * max %g", diff, tol, big))
end

-- the options of a fixture case (mask and bias as matrices of type dtype)
local function caseopts(c, dtype)
  local o = {scale = c.scale, causal = c.causal, lse = true}
  local function mat(t) return dtype and la.matrix(t, {dtype = dtype}) or la.matrix(t) end
  if c.mask then
    o.mask = type(c.mask[1][1]) == "boolean" and c.mask or mat(c.mask)
  end
  if c.bias then o.bias = mat(c.bias); o.bias_grad = true end
  return o
end

-- the forward's options: o without bias_grad (attention does not take it)
local function fwd(o)
  local f = {}
  for k, v in pairs(o) do if k ~= "bias_grad" then f[k] = v end end
  return f
end

local function exact_equal(A, B)
  local m, n = A:shape()
  assert.are.same({m, n}, {B:shape()})
  for i = 1, m do for j = 1, n do
    if A(i, j) ~= B(i, j) then return false end
  end end
  return true
end

describe("linalg.attention_backward against PyTorch autograd", function()
  for _, c in ipairs(CASES) do
    it("float64, " .. c.name .. ": dQ, dK, dV (and dbias) to 1e-12", function()
      local Q, K, V, dO = la.matrix(c.Q), la.matrix(c.K), la.matrix(c.V), la.matrix(c.dO)
      local o = caseopts(c)
      local O, lse = la.attention(Q, K, V, fwd(o))
      relclose(c.O, O, 1e-12)
      local dQ, dK, dV, dB = la.attention_backward(dO, Q, K, V, O, lse, o)
      relclose(c.dQ, dQ, 1e-12)
      relclose(c.dK, dK, 1e-12)
      relclose(c.dV, dV, 1e-12)
      -- an nq x 1 bias shifts whole rows: its gradient is 0 but for rounding
      local floor = c.bias and #c.bias[1] == 1 and 1 or nil
      if c.bias then relclose(c.dbias, dB, 1e-12, floor) else assert.is_nil(dB) end
      -- from PyTorch's own O and lse too
      local tQ, tK, tV = la.attention_backward(dO, Q, K, V, la.matrix(c.O), la.matrix(c.lse), o)
      relclose(c.dQ, tQ, 1e-12); relclose(c.dK, tK, 1e-12); relclose(c.dV, tV, 1e-12)
    end)

    it("float32, " .. c.name .. ": float32 results to 1e-4", function()
      local Q, K = la.matrix(c.Q, F32), la.matrix(c.K, F32)
      local V, dO = la.matrix(c.V, F32), la.matrix(c.dO, F32)
      local o = caseopts(c, "float32")
      local O, lse = la.attention(Q, K, V, fwd(o))
      local dQ, dK, dV, dB = la.attention_backward(dO, Q, K, V, O, lse, o)
      for _, G in ipairs{dQ, dK, dV, dB or dQ} do assert.are.equal("float32", G.dtype) end
      relclose(c.dQ, dQ, 1e-4)
      relclose(c.dK, dK, 1e-4)
      relclose(c.dV, dV, 1e-4)
      if c.bias then relclose(c.dbias, dB, 1e-4, #c.bias[1] == 1 and 1 or nil) end
    end)
  end

  it("gives a fully masked row zero gradients, never NaN", function()
    local c = CASES[7]                         -- row 2 of its mask is all false
    assert.are.equal("boolean mask, a row fully masked", c.name)
    local Q, K, V, dO = la.matrix(c.Q), la.matrix(c.K), la.matrix(c.V), la.matrix(c.dO)
    local o = caseopts(c)
    o.bias_grad = true
    local O, lse = la.attention(Q, K, V, fwd(o))
    assert.are.equal(-math.huge, lse(2, 1))
    local dQ, dK, dV, dB = la.attention_backward(dO, Q, K, V, O, lse, o)
    for j = 1, 3 do assert.are.equal(0, dQ(2, j)) end
    for j = 1, 6 do assert.are.equal(0, dB(2, j)) end
    for _, G in ipairs{dQ, dK, dV, dB} do assert.is_true(la.all(la.isfinite(G))) end
    -- every row masked: all zeros
    local none = la.zeros(4, 6)
    O, lse = la.attention(Q, K, V, {mask = none, lse = true})
    dQ, dK, dV = la.attention_backward(dO, Q, K, V, O, lse, {mask = none})
    for _, G in ipairs{dQ, dK, dV} do assert.are.equal(0, la.max(la.abs(G))) end
  end)
end)

-- The explicit formula on la's products: P from attention's weights, dV =
-- P^T dO, dP = dO V^T, dS = P .* (dP - rowsum(dO .* O)), dQ = scale dS K,
-- dK = scale dS^T Q, dbias = dS; sizes that span several tiles of the
-- kernel (256 query rows, 128 keys).
local function explicit(dO, Q, K, V, opts)
  local o = {weights = true}
  for k, v in pairs(opts) do if k ~= "bias_grad" then o[k] = v end end
  local O, P = la.attention(Q, K, V, fwd(o))
  local scale = opts.scale or 1 / math.sqrt(select(2, Q:shape()))
  local D = la.sum(la.emul(dO, O), 2)
  local dP = la.matmul(dO, V:t())
  local nq, nk = P:shape()
  local dS = la.emul(P, dP - la.matmul(D, la.ones(1, nk)))
  return la.matmul(dS, K) * scale, la.matmul(dS:t(), Q) * scale, la.matmul(P:t(), dO), dS
end

describe("linalg.attention_backward against the explicit formula", function()
  local nq, nk, dk, dv = 300, 530, 24, 20
  local Q, K, V = la.randn(nq, dk, 11), la.randn(nk, dk, 12), la.randn(nk, dv, 13)
  local dO = la.randn(nq, dv, 14)
  local mask = la.ones(nq, nk)
  for i = 1, nq do for j = 1, nk do if (3 * i + j) % 7 == 0 then mask:set(i, j, 0) end end end
  local combos = {
    {name = "defaults", opts = {}},
    {name = "scale and causal upper_left", opts = {scale = 0.21, causal = true}},
    {name = "causal lower_right", opts = {causal = "lower_right"}},
    {name = "mask, bias, bias_grad", opts = {mask = mask, bias = la.randn(nq, nk, 15),
                                             bias_grad = true}},
  }
  for _, c in ipairs(combos) do
    it(c.name .. " (several tiles)", function()
      local o = {lse = true}
      for k, v in pairs(c.opts) do o[k] = v end
      local O, lse = la.attention(Q, K, V, fwd(o))
      local dQ, dK, dV, dB = la.attention_backward(dO, Q, K, V, O, lse, o)
      local eQ, eK, eV, eS = explicit(dO, Q, K, V, c.opts)
      relclose(eQ, dQ, 1e-12); relclose(eK, dK, 1e-12); relclose(eV, dV, 1e-12)
      if o.bias_grad then relclose(eS, dB, 1e-12) end
    end)
  end

  it("float32 over several tiles: the float64 results to 1e-4", function()
    local o = {causal = "lower_right", lse = true}
    local q, k, v, d = Q:astype("float32"), K:astype("float32"), V:astype("float32"), dO:astype("float32")
    local O, lse = la.attention(q, k, v, o)
    local r32 = {la.attention_backward(d, q, k, v, O, lse, o)}
    O, lse = la.attention(Q, K, V, o)
    local r64 = {la.attention_backward(dO, Q, K, V, O, lse, o)}
    for i = 1, 3 do
      assert.are.equal("float32", r32[i].dtype)
      relclose(r64[i], r32[i], 1e-4)
    end
  end)

  it("causal lower_right with nq > nk (the first rows see no key)", function()
    local Q2, dO2 = la.randn(nk, dk, 16), la.randn(nk, dv, 17)
    local K2, V2 = la.randn(nq, dk, 18), la.randn(nq, dv, 19)
    local o = {causal = "lower_right", lse = true}
    local O, lse = la.attention(Q2, K2, V2, fwd(o))
    local dQ, dK, dV = la.attention_backward(dO2, Q2, K2, V2, O, lse, o)
    local eQ, eK, eV = explicit(dO2, Q2, K2, V2, {causal = "lower_right"})
    relclose(eQ, dQ, 1e-12); relclose(eK, dK, 1e-12); relclose(eV, dV, 1e-12)
    assert.are.equal(0, la.max(la.abs(dQ:sub(1, nk - nq, 1, dk))))
  end)

  it("sums a broadcast bias's gradient over its broadcast dimension", function()
    for _, shape in ipairs{{1, nk}, {nq, 1}} do
      local B = la.randn(shape[1], shape[2], 20)
      local o = {bias = B, bias_grad = true, causal = true, lse = true}
      local O, lse = la.attention(Q, K, V, fwd(o))
      local _, _, _, dB = la.attention_backward(dO, Q, K, V, O, lse, o)
      local _, _, _, eS = explicit(dO, Q, K, V, {bias = B, causal = true})
      relclose(la.sum(eS, shape[1] == 1 and 1 or 2), dB, 1e-12, shape[2] == 1 and 1 or nil)
    end
  end)

  it("gives dbias = dS for no bias, nq x nk", function()
    local O, lse = la.attention(Q, K, V, {lse = true})
    local _, _, _, dB = la.attention_backward(dO, Q, K, V, O, lse, {bias_grad = true})
    local _, _, _, eS = explicit(dO, Q, K, V, {})
    relclose(eS, dB, 1e-12)
  end)

  it("is bitwise the same on 1 and 2 threads", function()
    local old = la.threads()
    local o = {causal = "lower_right", bias = la.randn(nq, nk, 21), bias_grad = true, lse = true}
    for _, dtype in ipairs{"float64", "float32"} do
      local q, k, v, d = Q:astype(dtype), K:astype(dtype), V:astype(dtype), dO:astype(dtype)
      local oo = {causal = o.causal, bias = o.bias:astype(dtype), bias_grad = true, lse = true}
      la.threads(1)
      local O, lse = la.attention(q, k, v, fwd(oo))
      local r1 = {la.attention_backward(d, q, k, v, O, lse, oo)}
      la.threads(2)
      for _ = 1, 4 do        -- a race shows now and then: several runs
        local r2 = {la.attention_backward(d, q, k, v, O, lse, oo)}
        for i = 1, 4 do assert.is_true(exact_equal(r1[i], r2[i])) end
      end
      la.threads(old)
    end
  end)
end)

describe("linalg.attention_backward against finite differences of la.attention", function()
  local nq, nk, dk, dv = 4, 6, 3, 2
  local W = la.randn(nq, dv, 31)            -- loss = sum(O .* W): dO = W
  local function loss(Q, K, V, o) return la.sum(la.emul(la.attention(Q, K, V, fwd(o)), W)) end
  local combos = {
    {}, {scale = 0.6, causal = "lower_right"},
    {causal = true, mask = {{true, false, true, true, true, true}}},
  }
  for n, opts in ipairs(combos) do
    it("option set " .. n, function()
      local Q, K, V = la.randn(nq, dk, 32), la.randn(nk, dk, 33), la.randn(nk, dv, 34)
      local bias = la.randn(nq, nk, 35)
      local o = {bias = bias, bias_grad = true, lse = true}
      for k, v in pairs(opts) do o[k] = v end
      local O, lse = la.attention(Q, K, V, fwd(o))
      local dQ, dK, dV, dB = la.attention_backward(W, Q, K, V, O, lse, o)
      local h, worst = 1e-6, 0
      for _, pair in ipairs{{Q, dQ}, {K, dK}, {V, dV}, {bias, dB}} do
        local X, G = pair[1], pair[2]
        local m, p = X:shape()
        for i = 1, m do for j = 1, p do
          local x = X(i, j)
          X:set(i, j, x + h); local lp = loss(Q, K, V, o)
          X:set(i, j, x - h); local lm = loss(Q, K, V, o)
          X:set(i, j, x)
          worst = math.max(worst, math.abs((lp - lm) / (2 * h) - G(i, j)))
        end end
      end
      assert(worst < 1e-8, "finite differences differ by " .. worst)
    end)
  end
end)

describe("linalg.attention_backward's memory", function()
  -- fused: at n = 16384, d = 64 (float32, about a second) the backward adds
  -- its results (12 MiB), packed copies of Q and dO (16 MiB) and tiles to
  -- the peak resident memory, never the nq x nk weights (1 GiB); measured
  -- in a child process by VmHWM
  local fh = io.open("/proc/self/status")
  if fh then fh:close() end
  local run = fh and it or pending
  run("adds less than 256 MiB at n = 16384, d = 64 #heavy", function()
    local interp = require "interp"
    -- bench/attention_mem.lua: the same measure as the bench's
    local p = io.popen(string.format("OPENBLAS_NUM_THREADS=1 LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' " ..
      "LUA_CPATH='%s' %s bench/attention_mem.lua float32 2>&1", interp.cpath, interp.lua))
    local out = p:read("*a")
    p:close()
    local mib = tonumber(out:match("trmem32_mib ([%d%.]+)"))
    assert(mib, "child said: " .. out)
    assert(mib < 256, "the backward added " .. mib .. " MiB")
    assert.is_truthy(out:find("dtype float32", 1, true))
  end)
end)

describe("linalg.attention_backward's edges and errors", function()
  local Q, K, V = la.randn(3, 2, 41), la.randn(4, 2, 42), la.randn(4, 5, 43)
  local O, lse = la.attention(Q, K, V, {lse = true})
  local dO = la.randn(3, 5, 44)

  it("takes no key or no query: zero gradients of the right shapes", function()
    local K0, V0 = la.zeros(0, 2), la.zeros(0, 5)
    local O0, l0 = la.attention(Q, K0, V0, {lse = true})
    local dQ, dK, dV, dB = la.attention_backward(dO, Q, K0, V0, O0, l0, {bias_grad = true})
    assert.are.same({3, 2}, {dQ:shape()}); assert.are.equal(0, la.max(la.abs(dQ)))
    assert.are.same({0, 2}, {dK:shape()}); assert.are.same({0, 5}, {dV:shape()})
    assert.are.same({3, 0}, {dB:shape()})
    local Q0, dO0 = la.zeros(0, 2), la.zeros(0, 5)
    dQ, dK, dV = la.attention_backward(dO0, Q0, K, V, la.zeros(0, 5), la.zeros(0, 1))
    assert.are.same({0, 2}, {dQ:shape()}); assert.are.equal(0, la.max(la.abs(dK)))
    assert.are.equal(0, la.max(la.abs(dV)))
  end)

  it("accepts the forward's options table as it is", function()
    local a = {la.attention_backward(dO, Q, K, V, O, lse, {lse = true, weights = false})}
    local b = {la.attention_backward(dO, Q, K, V, O, lse)}
    for i = 1, 3 do assert.is_true(exact_equal(a[i], b[i])) end
  end)

  it("raises errors that name attention_backward", function()
    local f = la.attention_backward
    assert.error_matches(function() f(dO, Q, la.randn(4, 3), V, O, lse) end,
      "linalg.attention_backward: Q is 3x2 but K is 4x3")
    assert.error_matches(function() f(dO, Q, K, la.randn(5, 5), O, lse) end,
      "linalg.attention_backward: K has 4 rows but V has 5")
    assert.error_matches(function() f(dO, Q, K, V, la.randn(3, 4), lse) end,
      "linalg.attention_backward: O is 3x4, expected 3x5")
    assert.error_matches(function() f(la.randn(2, 5), Q, K, V, O, lse) end,
      "linalg.attention_backward: dO is 2x5, expected 3x5")
    assert.error_matches(function() f(dO, Q, K, V, O, la.randn(1, 3)) end,
      "linalg.attention_backward: lse is 1x3, expected 3x1")
    assert.error_matches(function() f(dO, Q, K, V, O, lse, {bias = la.randn(2, 2)}) end,
      "linalg.attention_backward: bias is 2x2, expected 3x4")
    assert.error_matches(function() f(dO, Q, K, V, O, lse, {casual = true}) end,
      "linalg.attention_backward: unknown option 'casual'")
    assert.error_matches(function() f(dO, Q, K, V, O, lse, {causal = "middle"}) end,
      "linalg.attention_backward:")
    assert.error_matches(function() f(dO, Q, K, V, O, lse, {mask = {{true, 1}}}) end,
      "linalg.attention_backward: mask(1,2) is a number in a boolean mask")
    assert.error_matches(function() f(dO, Q, K, V, O) end, "linalg.attention_backward:")
  end)
end)
