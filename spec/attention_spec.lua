-- Softmax and attention (API.md: attention). Seed values computed with
-- NumPy 1.24: scores = Q@K.T/sqrt(2); a = exp(s - s.max()); a /= a.sum(); o = a@V.
local MAXINT, MININT = math.maxinteger or 2 ^ 53, math.mininteger or -2 ^ 53   -- where numbers are doubles: 2^53
local unpack = table.unpack or unpack
local pack = require("linalg.compat").pack
local la = require "linalg"

local function isnan(x) return x ~= x end

-- Reference attention written out in Lua, entry by entry.
local function reference(Q, K, V, o)
  o = o or {}
  local nq, dk = Q:shape()
  local nk, dv = V:shape()
  local scale = o.scale or (dk > 0 and 1 / math.sqrt(dk) or 1)
  local A, O, L = la.zeros(nq, nk), la.zeros(nq, dv), la.zeros(nq, 1)
  for i = 1, nq do
    local s, mx = {}, -math.huge
    for j = 1, nk do
      local x = 0
      for l = 1, dk do x = x + Q(i, l) * K(j, l) end
      x = x * scale + (o.bias and o.bias(i, j) or 0)
      if (o.mask and o.mask(i, j) == 0) or (o.causal and j > i) then x = -math.huge end
      s[j] = x
      if x > mx then mx = x end
    end
    local sum = 0
    for j = 1, nk do s[j] = s[j] == -math.huge and 0 or math.exp(s[j] - mx); sum = sum + s[j] end
    for j = 1, nk do A:set(i, j, sum > 0 and s[j] / sum or 0) end
    L:set(i, 1, sum > 0 and mx + math.log(sum) or -math.huge)
  end
  for i = 1, nq do
    for c = 1, dv do
      local x = 0
      for j = 1, nk do x = x + A(i, j) * V(j, c) end
      O:set(i, c, x)
    end
  end
  return O, A, L
end

describe("linalg.attention", function()
  local Q = la.matrix{{1, 0}}
  local K = la.matrix{{1, 0}, {0, 1}, {1, 1}}
  local V = la.matrix{{1, 0}, {0, 2}, {1, 1}}

  it("reproduces the seed's one-query example", function()
    local o, a = la.attention(Q, K, V, {weights = true})
    assert.near({{0.4011120926797859, 0.1977758146404282, 0.4011120926797859}}, a, 1e-15)
    assert.near({{0.8022241853595719, 0.7966637219606423}}, o, 1e-15)
    assert.near(o, la.attention(Q, K, V), 1e-15)
  end)

  it("reproduces the seed's two-query example with rows summing to 1", function()
    local O, A = la.attention({{1, 0}, {0, 1}}, {{1, 0}, {1, 1}, {0, 1}}, V, {weights = true})
    local Or, Ar = reference(la.matrix{{1, 0}, {0, 1}}, la.matrix{{1, 0}, {1, 1}, {0, 1}}, V)
    assert.near(Ar, A, 1e-15)
    assert.near(Or, O, 1e-15)
    assert.near({1, 1}, A:sum(2), 1e-15)
  end)

  it("honours scale, bias and mask", function()
    local Qr, Kr, Vr = la.randn(4, 3, 1), la.randn(5, 3, 2), la.randn(5, 2, 3)
    local bias, mask = la.randn(4, 5, 4), la.matrix{{1, 0, 1, 1, 0}, {1, 1, 1, 1, 1}, {0, 0, 0, 0, 1}, {1, 1, 0, 1, 1}}
    local o = {scale = 0.7, bias = bias, mask = mask}
    local Or, Ar = reference(Qr, Kr, Vr, o)
    o.weights = true
    local O, A = la.attention(Qr, Kr, Vr, o)
    assert.near(Ar, A, 1e-14)
    assert.near(Or, O, 1e-14)
    o.weights = nil
    assert.near(Or, la.attention(Qr, Kr, Vr, o), 1e-14)
  end)

  -- sizes around the tile edges (256 query rows, 512 key rows) and several tiles
  local sizes = {{1, 1}, {3, 1}, {1, 3}, {3, 5}, {127, 255}, {255, 511}, {256, 512},
                 {257, 513}, {600, 1100}, {1100, 300}, {5, 1300}}
  for _, s in ipairs(sizes) do
    for _, causal in ipairs{false, true} do
      it(string.format("fused and materialized agree, nq=%d nk=%d causal=%s", s[1], s[2], tostring(causal)), function()
        local nq, nk = s[1], s[2]
        local Qr, Kr, Vr = la.randn(nq, 7, nq), la.randn(nk, 7, nk + 1), la.randn(nk, 5, nk + 2)
        local mask = la.rand(nq, nk, 3):map(function(x) return x < 0.2 and 0 or 1 end)
        for _, o in ipairs{{causal = causal}, {causal = causal, mask = mask, bias = la.randn(nq, nk, 4)}} do
          local O1 = la.attention(Qr, Kr, Vr, o)
          o.weights = true
          local O2, A = la.attention(Qr, Kr, Vr, o)
          assert.is_true(la.allclose(O1, O2, 1e-12, 1e-13))
          local rs = A:sum(2)
          for i = 1, nq do
            assert.is_true(math.abs(rs(i) - 1) < 1e-13 or rs(i) == 0)
          end
          if causal then
            for i = 1, math.min(nq, 40) do for j = i + 1, math.min(nk, 40) do assert.are.equal(0, A(i, j)) end end
          end
        end
      end)
    end
  end

  it("gives bitwise the same result on 1 and 2 threads, and restores the thread count", function()
    local Qr, Kr, Vr = la.randn(1100, 16, 1), la.randn(900, 16, 2), la.randn(900, 8, 3)
    local old = la.threads()
    la.threads(1)
    local O1 = la.attention(Qr, Kr, Vr, {causal = true})
    la.threads(2)
    local O2 = la.attention(Qr, Kr, Vr, {causal = true})
    assert.are.equal(2, la.threads())
    la.threads(old)
    assert.is_true(O1 == O2)
  end)

  it("agrees with the reference on a multi-tile causal problem with nq ~= nk", function()
    for _, s in ipairs{{300, 600}, {600, 300}} do
      local Qr, Kr, Vr = la.randn(s[1], 4, 9), la.randn(s[2], 4, 10), la.randn(s[2], 3, 11)
      local Or = reference(Qr, Kr, Vr, {causal = true})
      assert.is_true(la.allclose(la.attention(Qr, Kr, Vr, {causal = true}), Or, 1e-12, 1e-13))
    end
  end)

  it("gives zero output and zero weights for fully masked rows, never NaN", function()
    local Qr, Kr, Vr = la.randn(300, 4, 1), la.randn(400, 4, 2), la.randn(400, 3, 3)
    local mask = la.ones(300, 400)
    for j = 1, 400 do mask:set(2, j, 0); mask:set(200, j, 0) end
    for _, w in ipairs{false, true} do
      local O, A = la.attention(Qr, Kr, Vr, {mask = mask, weights = w})
      for c = 1, 3 do
        assert.are.equal(0, O(2, c)); assert.are.equal(0, O(200, c))
        assert.is_false(isnan(O(1, c)))
      end
      if w then assert.are.equal(0, A:row(2):max()); assert.are.equal(0, A:row(200):max()) end
    end
    -- a bias of -inf masks too
    local O = la.attention({{1, 2}}, {{1, 0}, {0, 1}}, {{1}, {2}}, {bias = {{-math.huge, -math.huge}}})
    assert.are.equal(0, O(1, 1))
  end)

  it("stays finite for scores near +-1e308", function()
    local O, A = la.attention({{1e308}}, {{1}, {-1}}, {{3}, {5}}, {scale = 1, weights = true})
    assert.near({{1, 0}}, A, 0)
    assert.are.equal(3, O(1, 1))
    local O2 = la.attention({{1e308}, {-1e308}}, {{1}, {-1}, {0.5}}, {{3}, {5}, {7}}, {scale = 1})
    assert.near({3, 5}, O2, 0)
  end)

  it("propagates NaN from Q, K or V (IEEE)", function()
    assert.is_true(isnan(la.attention({{0 / 0, 1}}, K, V)(1, 1)))
    assert.is_true(isnan(la.attention(Q, {{1, 0}, {0 / 0, 1}, {1, 1}}, V)(1, 2)))
    -- NaN in V reaches every row whose product touches it: even a weight of
    -- exactly 0 gives 0 * NaN = NaN, as in NumPy's weights @ V
    local Vn = la.matrix{{1, 0}, {0 / 0, 2}, {1, 1}}
    local O = la.attention({{1, 0}, {0, 1}}, K, Vn, {causal = true})
    assert.is_true(isnan(O(2, 1)))
    assert.is_false(isnan(O(2, 2)))       -- V's second column has no NaN
  end)

  it("handles nk = 0 and dk = 0", function()
    local O, A = la.attention(la.ones(3, 2), la.zeros(0, 2), la.zeros(0, 4), {weights = true})
    assert.are.same({3, 4}, {O:shape()})
    assert.are.equal(0, O:max())
    assert.are.same({3, 0}, {A:shape()})
    assert.are.equal(0, la.attention(la.ones(3, 2), la.zeros(0, 2), la.zeros(0, 4)):max())
    -- dk = 0: every score is 0, so each output is the mean of the values
    local Vr = la.randn(6, 2, 5)
    local O0 = la.attention(la.zeros(4, 0), la.zeros(6, 0), Vr)
    assert.near(Vr:mean(1) + la.zeros(4, 2), O0, 1e-15)
  end)

  it("names every shape mismatch and bad option", function()
    assert.error_matches(function() la.attention(la.ones(2, 3), la.ones(4, 2), la.ones(4, 2)) end,
      "linalg.attention: Q is 2x3 but K is 4x2 (dk 3 ~= 2)")
    assert.error_matches(function() la.attention(la.ones(2, 2), la.ones(4, 2), la.ones(3, 2)) end,
      "linalg.attention: K has 4 rows but V has 3")
    assert.error_matches(function() la.attention(Q, K, V, {mask = la.ones(2, 3)}) end,
      "linalg.attention: mask is 2x3, expected 1x3 (nq x nk)")
    assert.error_matches(function() la.attention(Q, K, V, {bias = la.ones(1, 2)}) end,
      "linalg.attention: bias is 1x2, expected 1x3")
    assert.error_matches(function() la.attention(Q, K, V, {mask = {{1, 0 / 0, 1}}}) end,
      "linalg.attention: mask(1,2) is NaN")
    assert.error_matches(function() la.attention(Q, K, V, {mask = "causal"}) end,
      "linalg.attention: option 'mask' must be a matrix, got string")
    assert.error_matches(function() la.attention(Q, K, V, {scale = "x"}) end,
      "linalg.attention: option 'scale' must be a number")
    assert.error_matches(function() la.attention(Q, K, V, 5) end,
      "linalg.attention: bad argument #4 (options table expected, got number)")
  end)
end)

describe("linalg.softmax and log_softmax", function()
  it("normalise rows by default and columns with dim 1", function()
    -- e / e.sum() for [1,2,3]: [0.09003057317038046, 0.24472847105479767, 0.6652409557748219]
    local S = la.softmax{{1, 2, 3}, {1, 1, 1}}
    assert.near({{0.09003057317038046, 0.24472847105479767, 0.6652409557748219}, {1 / 3, 1 / 3, 1 / 3}}, S, 1e-15)
    assert.near(la.softmax{{1, 2, 3}}.T, la.softmax({{1}, {2}, {3}}, 1), 1e-15)
    assert.near({{-2.4076059644443806, -1.4076059644443806, -0.4076059644443806}}, la.log_softmax{{1, 2, 3}}, 1e-15)
  end)

  it("is stable for huge entries and all -inf rows", function()
    assert.near({{0.5, 0.5}}, la.softmax{{1e308, 1e308}}, 0)
    assert.near({{1, 0}}, la.softmax{{1e308, -1e308}}, 0)
    assert.near({{0, 0}}, la.softmax{{-math.huge, -math.huge}}, 0)
    assert.are.equal(-math.huge, la.log_softmax{{-math.huge, -math.huge}}(1, 1))
    assert.is_true(isnan(la.softmax{{0 / 0, 1}}(1, 2)))
    assert.error_matches(function() la.softmax({{1}}, 3) end, "linalg.softmax: bad argument #2 (dim must be 1 or 2)")
  end)
end)

describe("linalg.multihead_attention", function()
  local d, h, n = 16, 4, 7
  local X = la.randn(n, d, 1)
  local Wq, Wk, Wv, Wo = la.randn(d, d, 2), la.randn(d, d, 3), la.randn(d, d, 4), la.randn(d, d, 5)

  it("equals per-head attention on column blocks, concatenated, times Wo", function()
    local out, W = la.multihead_attention(X, Wq, Wk, Wv, Wo, h, {weights = true, causal = true})
    local Q, K, V = X * Wq, X * Wk, X * Wv
    local parts = {}
    for k = 1, h do
      local c1, c2 = (k - 1) * 4 + 1, k * 4
      local Oh, Ah = la.attention(Q:sub(1, n, c1, c2):copy(), K:sub(1, n, c1, c2):copy(),
                                  V:sub(1, n, c1, c2):copy(), {weights = true, causal = true})
      parts[k] = Oh
      assert.near(Ah, W[k], 1e-14)
      assert.near(la.ones(n, 1), W[k]:sum(2), 1e-14)
    end
    assert.near(la.hstack(parts) * Wo, out, 1e-12)
    assert.near(out, la.multihead_attention(X, Wq, Wk, Wv, Wo, h, {causal = true}), 1e-12)
  end)

  it("does cross-attention with opts.kv", function()
    local KV = la.randn(11, d, 6)
    local out, W = la.multihead_attention(X, Wq, Wk, Wv, Wo, h, {kv = KV, weights = true})
    assert.are.same({n, d}, {out:shape()})
    assert.are.same({n, 11}, {W[1]:shape()})
  end)

  it("checks heads and shapes", function()
    assert.error_matches(function() la.multihead_attention(X, Wq, Wk, Wv, Wo, 3) end,
      "linalg.multihead_attention: 16 query/key columns do not split into 3 heads")
    assert.error_matches(function() la.multihead_attention(X, Wq, Wk, Wv, Wo, 0) end,
      "bad argument #6 (heads must be a positive integer")
    assert.error_matches(function() la.multihead_attention(X, la.ones(5, 16), Wk, Wv, Wo, 4) end,
      "linalg.multihead_attention: X has 16 columns but Wq has 5 rows")
    assert.error_matches(function() la.multihead_attention(X, Wq, Wk, Wv, Wo, 4, {mask = la.ones(2, 2)}) end,
      "linalg.multihead_attention: mask is 2x2, expected 7x7")
  end)
end)

describe("linalg.attention on empty inputs with huge extents", function()
  -- issue 11 item 3: the key-block index overflowed (SIGSEGV after ~50 s),
  -- nq + 255 overflowed, and nq x 0 results cost minutes of CPU
  local BIG = 2 ^ 31 - 1
  local function fast(f)
    local t0 = os.clock()
    local r = pack(f())
    assert.is_true(os.clock() - t0 < 0.5, "took " .. (os.clock() - t0) .. " s")
    return unpack(r, 1, r.n)
  end

  it("returns at once when the result has no element", function()
    local O = fast(function() return la.attention(la.zeros(1, 0), la.zeros(BIG, 0), la.zeros(BIG, 0)) end)
    assert.are.same({1, 0}, {O:shape()})
    O = fast(function() return la.attention(la.zeros(BIG - 255, 0), la.zeros(BIG, 0), la.zeros(BIG, 0)) end)
    assert.are.same({BIG - 255, 0}, {O:shape()})
    O = fast(function() return la.attention(la.zeros(BIG, 0), la.zeros(BIG, 0), la.zeros(BIG, 0), {causal = true}) end)
    assert.are.same({BIG, 0}, {O:shape()})
    O = fast(function() return la.softmax(la.zeros(BIG, 0)) end)
    assert.are.same({BIG, 0}, {O:shape()})
    O = fast(function() return la.log_softmax(la.zeros(0, BIG), 1) end)
    assert.are.same({0, BIG}, {O:shape()})
  end)

  it("gives log(visible keys) for dk = 0 without touching nq x nk", function()
    local O, lse = fast(function()
      return la.attention(la.zeros(3, 0), la.zeros(BIG, 0), la.zeros(BIG, 0), {lse = true, causal = true})
    end)
    assert.are.same({3, 0}, {O:shape()})
    assert.near({0, math.log(2), math.log(3)}, lse, 1e-15)
    O, lse = fast(function()
      return la.attention(la.zeros(3, 0), la.zeros(BIG, 0), la.zeros(BIG, 0), {lse = true, causal = "lower_right"})
    end)
    assert.near({math.log(BIG - 2), math.log(BIG - 1), math.log(BIG)}, lse, 1e-15)
    -- nq > nk bottom-right: the first nq - nk rows see no key
    O, lse = la.attention(la.zeros(5, 0), la.zeros(2, 0), la.zeros(2, 0), {lse = true, causal = "lower_right"})
    assert.are.same({-math.huge, -math.huge, -math.huge, 0, math.log(2)}, {lse(1), lse(2), lse(3), lse(4), lse(5)})
  end)

  it("gives running means of V for dk = 0, as the general path does", function()
    local V = la.randn(700, 3, 7)
    for _, c in ipairs{false, true, "lower_right"} do
      local O1 = la.attention(la.zeros(600, 0), la.zeros(700, 0), V, {causal = c})
      local O2 = la.attention(la.zeros(600, 0), la.zeros(700, 0), V, {causal = c, weights = true})
      local O3 = la.attention(la.zeros(600, 0), la.zeros(700, 0), V, {causal = c, bias = la.zeros(600, 700)})
      assert.is_true(la.allclose(O1, O2, 1e-13, 1e-14))
      assert.is_true(la.allclose(O1, O3, 1e-13, 1e-14))
    end
  end)
end)

describe("linalg.multihead_attention head counts", function()
  it("bounds heads by the projection widths (issue 11 item 9: MAXINT looped)", function()
    local X = la.randn(3, 4, 1)
    local t0 = os.clock()
    assert.error_matches(function()
      la.multihead_attention(X, la.zeros(4, 0), la.zeros(4, 0), la.zeros(4, 0), la.zeros(0, 2), MAXINT)
    end, "linalg.multihead_attention: " .. string.format("%d", MAXINT) ..
      " heads for 0 query/key and 0 value columns (at most one head per column)")
    assert.error_matches(function()
      la.multihead_attention(X, la.zeros(4, 0), la.zeros(4, 0), la.randn(4, 2, 2), la.randn(2, 2, 3), 3)
    end, "3 heads for 0 query/key and 2 value columns")
    -- a float past what %d formats: string.format's own error had named no function
    for _, h in ipairs{2 ^ 63, 1e300} do
      assert.error_matches(function()
        la.multihead_attention(X, la.eye(4), la.eye(4), la.eye(4), la.eye(4), h)
      end, "linalg.multihead_attention: " .. string.format("%.17g", h) .. " heads for 4 query/key", 1, true)
    end
    assert.is_true(os.clock() - t0 < 0.5)
    -- zero-width projections with one head: a zero output of the right shape
    local out = la.multihead_attention(X, la.zeros(4, 0), la.zeros(4, 0), la.zeros(4, 0), la.zeros(0, 2), 1)
    assert.are.same({3, 2}, {out:shape()})
    assert.are.equal(0, out:norm())
    -- dk = 0 per head is legal: each head averages its value columns
    local Wv = la.randn(4, 2, 4)
    out = la.multihead_attention(X, la.zeros(4, 0), la.zeros(4, 0), Wv, la.eye(2), 2)
    assert.near((X * Wv):mean(1) + la.zeros(3, 2), out, 1e-14)
  end)
end)

describe("linalg.attention with lse, and attention_combine", function()
  -- a mask holding a causal pattern, random holes, and two fully masked rows
  local function testmask(nq, nk, seed)
    local r = la.rand(nq, nk, seed)
    local M = la.zeros(nq, nk)
    for i = 1, nq do
      for j = 1, nk do
        if j <= i + (nk - nq) and r(i, j) > 0.1 and i ~= 3 and i ~= nq - 1 then M:set(i, j, 1) end
      end
    end
    return M
  end

  it("returns each row's log-sum-exp, -inf for a fully masked row", function()
    local Q, K, V = la.randn(5, 3, 1), la.randn(7, 3, 2), la.randn(7, 2, 3)
    local mask, bias = testmask(5, 7, 4), la.randn(5, 7, 5)
    local Or, _, Lr = reference(Q, K, V, {mask = mask, bias = bias, scale = 0.8})
    for _, w in ipairs{false, true} do
      local r = pack(la.attention(Q, K, V, {mask = mask, bias = bias, scale = 0.8, lse = true, weights = w}))
      local O, lse = r[1], w and r[3] or r[2]
      assert.are.equal(w and 3 or 2, r.n)          -- O [, A], lse: the weights keep their place
      assert.near(Or, O, 1e-14)
      assert.are.same({5, 1}, {lse:shape()})
      assert.are.equal(-math.huge, lse(3))
      assert.are.equal(-math.huge, lse(4))
      for i = 1, 5 do
        if Lr(i, 1) > -math.huge then assert.is_true(math.abs(lse(i) - Lr(i, 1)) < 1e-14) end
      end
    end
    -- one query, one key: lse is the scaled score itself; nk = 0 gives -inf
    local _, l1 = la.attention({{1, 2}}, {{3, 4}}, {{5}}, {lse = true})
    assert.are.equal(11 * (1 / math.sqrt(2)), l1(1))
    local O0, l0 = la.attention(la.ones(2, 2), la.zeros(0, 2), la.zeros(0, 3), {lse = true})
    assert.are.same({0, 0, -math.huge, -math.huge}, {O0:max(), O0:min(), l0(1), l0(2)})
  end)

  -- split the keys at the given boundaries, attend to each block, combine
  local function split_combine(Q, K, V, opts, cuts)
    local nk, dk, dv = K:rows(), K:cols(), V:cols()
    local O, lse
    for b = 1, #cuts - 1 do
      local j1, j2 = cuts[b] + 1, cuts[b + 1]
      local o = {lse = true, scale = opts.scale, weights = opts.weights}
      if opts.mask then o.mask = opts.mask:sub(1, Q:rows(), j1, j2) end
      if opts.bias then o.bias = opts.bias:sub(1, Q:rows(), j1, j2) end
      local r = pack(la.attention(Q, K:sub(j1, j2, 1, dk), V:sub(j1, j2, 1, dv), o))
      local Ob, lb = r[1], r[r.n]
      if O then O, lse = la.attention_combine(O, lse, Ob, lb) else O, lse = Ob, lb end
    end
    assert(cuts[#cuts] == nk)
    return O, lse
  end

  for _, s in ipairs{{7, 13}, {300, 1100}, {600, 520}} do
    it(string.format("split into 1..8 key blocks and combined equals the unsplit result, nq=%d nk=%d", s[1], s[2]), function()
      local nq, nk = s[1], s[2]
      local Q, K, V = la.randn(nq, 6, nq), la.randn(nk, 6, nk), la.randn(nk, 4, nk + 1)
      local mask, bias = testmask(nq, nk, 9), la.randn(nq, nk, 10)
      for _, o in ipairs{{}, {mask = mask}, {mask = mask, bias = bias, scale = 0.3}, {mask = mask, weights = true}} do
        local full = {lse = true, mask = o.mask, bias = o.bias, scale = o.scale}
        local O1, l1 = la.attention(Q, K, V, full)
        for nb = 1, 8 do
          local cuts = {0}
          for b = 1, nb do cuts[b + 1] = math.floor(b * nk / nb) end
          if nb == 8 then cuts[3] = cuts[2] end     -- an empty block among them
          local O2, l2 = split_combine(Q, K, V, o, cuts)
          assert.is_true(la.allclose(O1, O2, 1e-12, 1e-12), "nb = " .. nb)
          for i = 1, nq do
            if l1(i) == -math.huge then assert.are.equal(-math.huge, l2(i))
            else assert.is_true(math.abs(l1(i) - l2(i)) <= 1e-12 * (1 + math.abs(l1(i))), "lse row " .. i) end
          end
          if o.mask then
            assert.are.same({0, 0}, {O2:row(3):max(), O2:row(3):min()})
            assert.are.equal(-math.huge, l2(nq - 1))
          end
        end
      end
    end)
  end

  it("matches the causal unsplit result when the blocks carry the causal mask", function()
    local nq, nk = 300, 700
    local Q, K, V = la.randn(nq, 5, 1), la.randn(nk, 5, 2), la.randn(nk, 3, 3)
    for _, align in ipairs{true, "lower_right"} do
      local off = align == true and 0 or nk - nq
      local M = la.zeros(nq, nk)
      for i = 1, nq do for j = 1, math.min(nk, i + off) do M:set(i, j, 1) end end
      local O1, l1 = la.attention(Q, K, V, {causal = align, lse = true})
      local O2, l2 = split_combine(Q, K, V, {mask = M}, {0, 100, 350, 351, 700})
      assert.is_true(la.allclose(O1, O2, 1e-12, 1e-12))
      assert.is_true(la.allclose(l1, l2, 1e-12, 1e-12))
    end
  end)

  it("is symmetric, has -inf as identity, and propagates NaN", function()
    local O1, O2 = la.randn(3, 2, 1), la.randn(3, 2, 2)
    local l1, l2 = la.matrix{{0.5}, {-math.huge}, {2}}, la.matrix{{1.5}, {-math.huge}, {-math.huge}}
    local Oa, la_ = la.attention_combine(O1, l1, O2, l2)
    local Ob, lb = la.attention_combine(O2, l2, O1, l1)
    assert.near(Oa, Ob, 1e-15)
    for i = 1, 3 do assert.are.equal(la_(i), lb(i)) end
    -- row 1: weights e^0.5 : e^1.5; row 2: both empty; row 3: only O1
    local w = 1 / (1 + math.exp(1))
    assert.near(O1:row(1) * w + O2:row(1) * (1 - w), Oa:row(1), 1e-15)
    assert.near(1.5 + math.log(1 + math.exp(-1)), la_(1), 1e-15)
    assert.are.same({0, 0, -math.huge}, {Oa(2, 1), Oa(2, 2), la_(2)})
    assert.near(O1:row(3), Oa:row(3), 0); assert.are.equal(2, la_(3))
    local On, ln = la.attention_combine(O1, la.matrix{{0 / 0}, {0}, {0}}, O2, l2)
    assert.is_true(isnan(On(1, 1)) and isnan(ln(1)))
    assert.is_false(isnan(On(2, 1)))
  end)

  it("names shape mismatches", function()
    local O, l = la.ones(3, 2), la.zeros(3, 1)
    assert.error_matches(function() la.attention_combine(O, l, la.ones(3, 1), l) end,
      "linalg.attention_combine: O1 is 3x2 but O2 is 3x1")
    assert.error_matches(function() la.attention_combine(O, la.zeros(1, 3), O, l) end,
      "linalg.attention_combine: lse1 is 1x3, expected 3x1 (one per row of O1)")
    assert.error_matches(function() la.attention_combine(O, l, O, la.zeros(2, 1)) end,
      "linalg.attention_combine: lse2 is 2x1, expected 3x1")
    assert.error_matches(function() la.attention_combine(O, l, O) end,
      "linalg.attention_combine: bad argument #4 (matrix expected, got no value)")
  end)
end)

describe("linalg.multihead_attention against PyTorch", function()
  -- torch.nn.functional.multi_head_attention_forward, float64, one sequence
  -- (torch 1.13.0a0, Debian's python3-torch): the values below are the output of
  --   /usr/bin/python3 spec/fixtures/mha_torch.py
  -- Mapping: Wq = in_proj_weight[0:E].T (Wk, Wv likewise), Wo = out_proj.weight.T,
  -- bq/bk/bv = in_proj_bias thirds, bo = out_proj.bias; PyTorch's float
  -- attn_mask is our `bias`; its boolean masks mean "masked", ours "attend":
  -- key_padding_mask [F, F, F, T, F] is our 1 x nk mask {{true, true, true, false, true}}.
  local T = {
    X = la.matrix{{-0.31, 0.34, -0.16, -0.5, 0.24, -1.76}, {-1.1, -1.09, -0.31, -0.47, -0.2, 0.36}, {0.69, 0.41, -0.56, 0.6, -0.16, 1.6}, {0.68, 0.01, -0.09, -0.98, 0.12, -1.14}},
    KV = la.matrix{{0.35, -1.86, -1.17, 1.42, 1.5, 1.29}, {-1.81, -1.5, -1.45, -1.69, 0.23, -0.49}, {-0.0, -0.49, -0.79, 2.05, 0.6, -1.0}, {1.22, -0.67, -0.27, 1.42, -0.78, -0.25}, {-0.31, 1.73, 1.98, 0.22, 1.89, -1.37}},
    Wq = la.matrix{{-0.19, 1.29, -0.25, 0.34, 0.22, 0.68}, {0.25, -1.48, -0.39, -0.73, 0.59, -1.74}, {-0.83, 1.18, 0.36, 2.44, -0.04, -2.71}, {0.99, 0.19, -0.35, -1.34, -0.19, 0.6}, {0.34, 0.08, 0.61, 0.17, -1.04, 0.29}, {0.5, 1.93, 0.05, -1.05, 1.17, 0.74}},
    Wk = la.matrix{{-0.56, -1.21, 1.55, -1.7, -0.63, 0.29}, {-1.05, -0.19, 0.5, -0.4, -1.28, -0.61}, {-0.11, 1.13, -1.04, 1.51, -0.87, 1.39}, {2.18, 1.3, -0.19, 1.67, 1.15, 0.48}, {-0.18, -0.39, -0.13, 2.36, 0.52, 0.44}, {-0.48, 0.33, -0.28, -0.72, 0.09, -0.47}},
    Wv = la.matrix{{0.13, -0.11, -0.7, 0.52, 0.58, -2.82}, {-0.25, -0.18, -0.26, 1.27, 0.08, -0.42}, {-0.77, 0.63, -1.63, -0.31, -0.62, -0.4}, {-0.32, -1.18, -1.17, -0.05, -0.85, 1.41}, {0.34, -1.11, 0.51, -0.23, 0.23, 1.54}, {0.92, -0.91, 0.5, -0.43, 1.02, -0.03}},
    Wo = la.matrix{{-1.59, -3.47, -0.68, -0.83, -0.79, 2.17}, {0.12, 0.87, -0.95, 0.66, -0.55, -1.57}, {-0.32, -0.05, -1.09, 1.43, 0.05, -1.55}, {-2.45, 0.76, 0.79, 0.64, -0.92, -0.9}, {0.59, -0.41, 0.01, 0.68, 1.12, -0.77}, {-0.15, 0.27, -0.61, 0.98, -1.04, 0.47}},
    bq = la.matrix{{-0.42, 1.29, 0.15, -0.62, -0.27, -1.25}},
    bk = la.matrix{{0.73, -0.14, -0.21, 0.47, 0.56, -0.37}},
    bv = la.matrix{{-1.13, 1.17, 0.45, 0.17, 0.88, -0.24}},
    bo = la.matrix{{1.6, -0.16, -0.2, 0.18, -0.3, -0.11}},
    bias = la.matrix{{0.18, -0.65, 0.48, 0.1, 1.98}, {-0.27, -0.72, -math.huge, 0.45, 0.33}, {-0.9, 0.88, -1.58, -0.89, -0.43}, {-0.03, -0.85, 1.41, 1.16, 0.17}},
    out_plain = la.matrix{{-5.69595548144534, 3.5778835432475753, -10.174927359921137, 13.256402898739438, -7.435686060689751, -12.979540161121689}, {6.542508059951549, 8.711948011724372, 3.8721587406210007, -0.9885141803873327, 2.646793802299784, -3.7664220748235318}, {4.181428489028201, 3.954129841548605, 4.67517966939338, -2.477018584922065, 4.160244857698496, -1.85458651079258}, {-1.8697290529942086, 9.481732432897719, -3.470625646399285, 8.213083645654839, -5.881646568249334, -9.191693357347658}},
    w_plain_avg = la.matrix{{0.0003441711340380728, 0.511268444644, 0.0002807775440152475, 0.0006980252169564092, 0.48740858146099025}, {0.04858083294656047, 0.07377169425607728, 0.08731549979134787, 0.4832792740270304, 0.30705269897898396}, {0.017321435939993402, 0.006795253984326973, 0.468622540756514, 0.5003063995251725, 0.006954369793993097}, {0.0010718128645582621, 0.2725543615824308, 0.0005860453031176741, 0.002966705570819063, 0.7228210746790741}},
    out_masked = la.matrix{{-5.4806573474008715, 4.387300783078354, -9.262501755141114, 12.609627620619785, -7.3668851189872315, -12.558901135666195}, {7.556873381494601, 13.289158342146502, 2.1599316697464293, 2.9802616351667544, -1.4345252224358689, -3.234228190057379}, {9.437791001139054, 3.229507630255223, -1.0432350898271325, 3.484149029656682, 1.1692402544596248, 2.052313506085883}, {0.3835619133151853, 12.655291522898509, 0.07964121583863948, 5.5357553164450035, -4.956293607029254, -7.1611686411709545}},
    w_masked_h1 = la.matrix{{0.0013691434521494992, 0.9387792429968567, 9.545099594572536e-05, 0.0, 0.05975616255504807}, {0.0640304429184595, 0.014860225146470321, 0.0, 0.0, 0.9211093319350702}, {0.06469499895487671, 0.00016931274600769645, 0.8932701175640224, 0.0, 0.04186557073509318}, {0.0025969280621860272, 0.30396781016433483, 0.0020807179406402455, 0.0, 0.6913545438328389}},
    w_masked_h2 = la.matrix{{9.596966829297194e-06, 0.002144168745912268, 0.00012135899108884321, 0.0, 0.9977248752961695}, {0.1216467536083793, 0.3388401493964656, 0.0, 0.0, 0.539513096995155}, {0.003143420366689658, 0.9968437155388605, 1.2864091791907762e-05, 0.0, 2.657687669230341e-12}, {7.651761494971746e-05, 0.00010776194096579889, 0.0027009052419740237, 0.0, 0.9971148152021104}},
    out_causal_ul = la.matrix{{4.9898869999999995, -10.554499000000002, -4.863057000000001, 3.740546999999999, 1.0035520000000002, 8.253943000000001}, {3.904540994510845, -7.402795795627276, -6.973653740243764, 6.566755082616239, -0.4111125213007917, 2.8606123426044476}, {9.47737265211965, 3.230114965513191, -1.017157389730676, 3.4790910039107956, 1.2099745555201302, 2.079292505215751}, {0.49653846858794815, 1.7221922784940744, -12.935399531592802, 14.065491188679518, -5.683377133979143, -10.832167045810602}},
    out_causal_lr = la.matrix{{4.657364895245822, -0.04043549556994562, -14.077370581520537, 14.683689658372556, -2.4202167250317057, -11.360609104555975}, {6.347374627269156, -0.2854292545485124, -3.102354938126703, 4.606629143553422, -0.2646942683552237, 2.36789823478965}, {4.118968954359504, 3.8178700673289616, 4.652124407595592, -2.478186343553739, 4.157239175460972, -1.7853951459985111}, {-1.8697290529942086, 9.481732432897719, -3.470625646399285, 8.213083645654839, -5.881646568249334, -9.191693357347658}},
  }
  local function mha(o)
    o.kv, o.bq, o.bk, o.bv, o.bo = T.KV, T.bq, T.bk, T.bv, T.bo
    return la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, o)
  end
  local function close(want, got) assert.is_true(la.allclose(got, want, 1e-12, 1e-12), tostring(got)) end

  it("matches with projection biases and head-averaged weights", function()
    local out, w = mha{average_attn_weights = true}
    close(T.out_plain, out)
    close(T.w_plain_avg, w)
    close(T.out_plain, mha{})
  end)

  it("matches with a float attn_mask (bias) and a boolean key-padding mask, per-head weights", function()
    local out, w = mha{bias = T.bias, mask = {{true, true, true, false, true}}, weights = true}
    close(T.out_masked, out)
    close(T.w_masked_h1, w[1])
    close(T.w_masked_h2, w[2])
    -- the same padding as a numeric 1 x nk mask
    close(T.out_masked, mha{bias = T.bias, mask = {{1, 1, 1, 0, 1}}})
  end)

  it("matches causal masks in both alignments (nq = 4 queries, nk = 5 keys)", function()
    close(T.out_causal_ul, mha{causal = true})
    close(T.out_causal_ul, mha{causal = "upper_left"})
    close(T.out_causal_lr, mha{causal = "lower_right"})
  end)

  it("takes biases as rows, columns or flat tables, and names a wrong length", function()
    local o = {kv = T.KV, bq = T.bq.T, bk = T.bk:totable()[1], bv = T.bv, bo = T.bo.T}
    close(T.out_plain, la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, o))
    assert.error_matches(function() la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, {bq = la.ones(1, 5)}) end,
      "linalg.multihead_attention: bq is 1x5, expected a vector of 6 entries")
    assert.error_matches(function() la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, {bo = la.ones(2, 3)}) end,
      "linalg.multihead_attention: bo is 2x3, expected a vector of 6 entries")
    assert.error_matches(function() la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, {average_attn_weights = 1}) end,
      "linalg.multihead_attention: option 'average_attn_weights' must be true or false, got number")
    assert.error_matches(function() la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, {causal = "lower"}) end,
      "linalg.multihead_attention: option 'causal' must be \"upper_left\" or \"lower_right\"")
    assert.error_matches(function() la.multihead_attention(T.X, T.Wq, T.Wk, T.Wv, T.Wo, 2, {dropout = 0.1}) end,
      "linalg.multihead_attention: unknown option 'dropout'")
  end)
end)

describe("linalg.attention masks as PyTorch users write them", function()
  local function expand(M, nq, nk)           -- a broadcast mask written out
    local R = la.zeros(nq, nk)
    for i = 1, nq do for j = 1, nk do
      R:set(i, j, M(M:rows() == 1 and 1 or i, M:cols() == 1 and 1 or j))
    end end
    return R
  end

  it("takes boolean tables (true = attend) as numeric masks (nonzero = attend)", function()
    local Q, K, V = la.randn(3, 2, 1), la.randn(4, 2, 2), la.randn(4, 2, 3)
    local b = {{true, false, true, true}, {false, false, false, false}, {true, true, true, false}}
    local n = la.matrix{{1, 0, 1, 1}, {0, 0, 0, 0}, {1, 1, 1, 0}}
    local O1, A1 = la.attention(Q, K, V, {mask = b, weights = true})
    local O2, A2 = la.attention(Q, K, V, {mask = n, weights = true})
    assert.is_true(O1 == O2 and A1 == A2)
    assert.is_true(la.attention(Q, K, V, {mask = b}) == la.attention(Q, K, V, {mask = n}))
    assert.are.same({0, 0}, {O1(2, 1), O1(2, 2)})
    -- a flat table is a column (as la.matrix reads one): an nq x 1 mask
    local Oc = la.attention(Q, K, V, {mask = {true, false, true}})
    assert.is_true(Oc == la.attention(Q, K, V, {mask = la.matrix{{1}, {0}, {1}}}))
  end)

  it("names a bad boolean mask", function()
    local Q = la.randn(2, 2, 1)
    assert.error_matches(function() la.attention(Q, Q, Q, {mask = {{true, 1}, {true, true}}}) end,
      "linalg.attention: mask(1,2) is a number in a boolean mask (use true or false)")
    assert.error_matches(function() la.attention(Q, Q, Q, {mask = {{true, true}, {true}}}) end,
      "linalg.attention: mask row 2 has 1 entries, expected 2")
    assert.error_matches(function() la.attention(Q, Q, Q, {mask = {{true, true}, 5}}) end,
      "linalg.attention: mask row 2 is not a table (got number)")
    assert.error_matches(function() la.attention(Q, Q, Q, {mask = {{true, true, true}}}) end,
      "linalg.attention: mask is 1x3, expected 2x2 (nq x nk), 1x2 or 2x1")
    assert.error_matches(function() la.attention(Q, Q, Q, {causal = 1}) end,
      "linalg.attention: option 'causal' must be true, false, \"upper_left\" or \"lower_right\", got number")
    assert.error_matches(function() la.attention(Q, Q, Q, {causal = "lower"}) end,
      "option 'causal' must be \"upper_left\" or \"lower_right\", got \"lower\"")
  end)

  for _, s in ipairs{{3, 5}, {300, 700}, {700, 300}} do
    it(string.format("broadcasts 1 x nk and nq x 1 masks and biases, nq=%d nk=%d", s[1], s[2]), function()
      local nq, nk = s[1], s[2]
      local Q, K, V = la.randn(nq, 4, 1), la.randn(nk, 4, 2), la.randn(nk, 3, 3)
      local pad = la.rand(1, nk, 4):map(function(x) return x < 0.3 and 0 or 1 end)
      local rowm = la.rand(nq, 1, 5):map(function(x) return x < 0.1 and 0 or 1 end)
      local rb, cb = la.randn(1, nk, 6), la.randn(nq, 1, 7)
      for _, w in ipairs{false, true} do
        for _, c in ipairs{{pad, rb}, {rowm, cb}, {pad, cb}} do
          local m, b = c[1], c[2]
          local O1 = la.attention(Q, K, V, {mask = m, bias = b, weights = w, causal = true})
          local O2 = la.attention(Q, K, V, {mask = expand(m, nq, nk), bias = expand(b, nq, nk), weights = w, causal = true})
          assert.is_true(la.allclose(O1, O2, 1e-14, 1e-14))
        end
      end
    end)
  end

  for _, s in ipairs{{5, 8}, {8, 5}, {300, 700}, {700, 300}, {600, 1100}} do
    it(string.format("aligns causal masks top-left or bottom-right, nq=%d nk=%d", s[1], s[2]), function()
      local nq, nk = s[1], s[2]
      local Q, K, V = la.randn(nq, 4, 8), la.randn(nk, 4, 9), la.randn(nk, 3, 10)
      for _, align in ipairs{"upper_left", "lower_right"} do
        local off = align == "upper_left" and 0 or nk - nq
        local M = la.zeros(nq, nk)
        for i = 1, nq do for j = 1, math.min(nk, i + off) do M:set(i, j, 1) end end
        for _, w in ipairs{false, true} do
          local r1 = pack(la.attention(Q, K, V, {causal = align, weights = w, lse = true}))
          local r2 = pack(la.attention(Q, K, V, {mask = M, weights = w, lse = true}))
          local O1, l1, O2, l2 = r1[1], r1[r1.n], r2[1], r2[r2.n]
          assert.is_true(la.allclose(O1, O2, 1e-13, 1e-14))
          for i = 1, nq do assert.is_true(l1(i) == l2(i) or math.abs(l1(i) - l2(i)) < 1e-13) end
          if align == "lower_right" and nq > nk then      -- the first nq - nk rows see no key
            assert.are.same({0, 0, -math.huge}, {O1:row(1):max(), O1:row(nq - nk):min(), l1(nq - nk)})
            assert.is_true(O1:row(nq - nk + 1):norm() > 0)
          end
        end
        if align == "upper_left" then
          assert.is_true(la.attention(Q, K, V, {causal = align}) == la.attention(Q, K, V, {causal = true}))
        end
      end
      if nq == nk then
        assert.is_true(la.attention(Q, K, V, {causal = "lower_right"}) == la.attention(Q, K, V, {causal = true}))
      end
    end)
  end
end)

describe("float32 softmax, log_softmax and attention_combine", function()
  local F32 = {dtype = "float32"}
  local S = la.matrix({{1, 2, -0.5}, {0.25, -3, 4}}, F32)

  it("softmax and log_softmax run in float32: PyTorch 1.13 float32 values within 4 ulp", function()
    -- /usr/bin/python3, torch 1.13: S = torch.tensor([[1, 2, -0.5], [0.25, -3, 4]], dtype=torch.float32)
    -- torch.softmax(S, 1) and torch.log_softmax(S, 0)
    local P = la.softmax(S)
    assert.are.equal("float32", P.dtype)
    assert.near({{0.25371620059013367, 0.6896721124649048, 0.05661173537373543},
                 {0.02295691706240177, 0.0008901362307369709, 0.9761528968811035}}, P, 4 * 2 ^ -24)
    local G = la.log_softmax(S, 1)
    assert.are.equal("float32", G.dtype)
    assert.near({{-0.38687101006507874, -0.006715348921716213, -4.511047840118408},
                 {-1.1368709802627563, -5.006715297698975, -0.011047743260860443}}, G, 4 * 2 ^ -24)
  end)

  it("agree with the float64 calls within float32 precision, on views, and keep the special rows", function()
    local S64 = S:astype("float64")
    for _, f in ipairs{"softmax", "log_softmax"} do
      for dim = 1, 2 do
        local r = la[f](S, dim)
        assert.are.equal("float32", r.dtype)
        assert.near(la[f](S64, dim), r, 1e-6)
      end
      assert.near(la[f](S64:sub(1, 2, 2, 3)), la[f](S:sub(1, 2, 2, 3)), 1e-6)
    end
    assert.are.same({{0.5, 0.5}}, la.softmax(la.matrix({{3e38, 3e38}}, F32)):totable())
    assert.are.same({{0, 0}}, la.softmax(la.matrix({{-math.huge, -math.huge}}, F32)):totable())
    assert.are.equal(-math.huge, la.log_softmax(la.matrix({{-math.huge, -math.huge}}, F32))(1, 1))
    assert.are.equal("float32", la.softmax(la.zeros(0, 3, F32)).dtype)
    assert.error_matches(function() la.softmax(S, 3) end, "linalg.softmax: bad argument #2 (dim must be 1 or 2)")
  end)

  it("attention_combine: four float32 arguments give float32, any float64 gives float64", function()
    local O1, O2 = la.randn(3, 2, 1), la.randn(3, 2, 2)
    local l1, l2 = la.matrix{{0.5}, {-math.huge}, {2}}, la.matrix{{1.5}, {-math.huge}, {-math.huge}}
    local f = function(A) return A:astype("float32") end
    local O64, lse64 = la.attention_combine(f(O1):astype("float64"), l1, f(O2):astype("float64"), l2)
    local O, lse = la.attention_combine(f(O1), f(l1), f(O2), f(l2))
    assert.are.equal("float32", O.dtype); assert.are.equal("float32", lse.dtype)
    assert.near(O64, O, 1e-6)
    assert.are.same({0, 0, -math.huge}, {O(2, 1), O(2, 2), lse(2)})
    assert.near(1.5 + math.log(1 + math.exp(-1)), lse(1), 1e-6)
    local Om, lm = la.attention_combine(f(O1), l1, f(O2), f(l2))
    assert.are.equal("float64", Om.dtype); assert.are.equal("float64", lm.dtype)
    assert.near(O64, Om, 1e-15)
    assert.error_matches(function() la.attention_combine(f(O1), f(l1), f(O2), la.zeros(2, 1, F32)) end,
      "linalg.attention_combine: lse2 is 2x1, expected 3x1")
  end)
end)

-- Attention without mask or bias runs a register-blocked AVX-512 kernel when
-- la.config().attention says "avx512f" (the gemm kernel otherwise, and always
-- with a mask or bias). An all-ones mask sends the same problem to the gemm
-- kernel; both are checked against the Lua reference above.
describe("linalg.attention's fused kernels agree", function()
  local cases = {
    {7, 9, 3, 2, {scale = -0.7}},                 -- negative scale: the maxima flip
    {50, 60, 8, 5, {scale = 0}},                  -- every weight equal
    {50, 60, 8, 5, {scale = 0, causal = true}},
    {100, 30, 16, 4, {causal = true}},            -- rows past nk, strips of 48 (24 in float64)
    {30, 100, 16, 4, {causal = true}},
    {100, 30, 16, 0, {causal = true}},            -- dv = 0: lse only
    {130, 260, 33, 17, {scale = 3.5}},            -- partial strips, panels and tiles
    {60, 50, 8, 8, {scale = -2, causal = true}},
    {1, 1, 1, 1, {}},
  }

  local function close(A, B, tol)
    local m, n = A:shape()
    for i = 1, m do
      for j = 1, n do
        local x, y = A(i, j), B(i, j)
        if not (x == y or math.abs(x - y) <= tol * math.max(1, math.abs(y))) then
          return false, string.format("(%d,%d): %.17g vs %.17g", i, j, x, y)
        end
      end
    end
    return true
  end

  it("with the reference and with each other, in both types", function()
    for _, c in ipairs(cases) do
      local nq, nk, dk, dv, o = unpack(c)
      local Q, K, V = la.randn(nq, dk, 1), la.randn(nk, dk, 2), la.randn(nk, dv, 3)
      local Or, _, Lr = reference(Q, K, V, o)
      for _, dt in ipairs{"float64", "float32"} do
        local tol = dt == "float32" and 2e-5 or 1e-12
        local q, k, v = Q:astype(dt), K:astype(dt), V:astype(dt)
        local plain, masked = {lse = true, mask = la.ones(nq, nk)}, {lse = true}
        for key, x in pairs(o) do plain[key] = x; masked[key] = x end
        plain.mask = nil; masked.mask = la.ones(nq, nk)
        local O1, L1 = la.attention(q, k, v, plain)
        local O2, L2 = la.attention(q, k, v, masked)
        assert.are.equal(dt, O1.dtype)
        for _, pair in ipairs{{O1, Or}, {O2, Or}, {O1, O2}, {L1, Lr}, {L2, Lr}, {L1, L2}} do
          local ok, where = close(pair[1], pair[2], tol)
          assert(ok, string.format("%dx%dx%dx%d %s scale %s causal %s: %s", nq, nk, dk, dv, dt,
            tostring(o.scale), tostring(o.causal), tostring(where)))
        end
      end
    end
  end)

  it("on NaN and infinities", function()
    for _, dt in ipairs{"float64", "float32"} do
      local Q, K, V = la.randn(60, 8, 1):astype(dt), la.randn(70, 8, 2):astype(dt), la.randn(70, 3, 3):astype(dt)
      Q:set(5, 2, 0 / 0); K:set(9, 1, math.huge); V:set(20, 2, -math.huge)
      local O1, L1 = la.attention(Q, K, V, {lse = true})
      local O2, L2 = la.attention(Q, K, V, {lse = true, mask = la.ones(60, 70)})
      for i = 1, 60 do
        assert.are.equal(isnan(L2(i)), isnan(L1(i)))
        for j = 1, 3 do assert.are.equal(isnan(O2(i, j)), isnan(O1(i, j))) end
      end
      assert.is_true(isnan(O1(5, 1)) and isnan(L1(5)))        -- the NaN query's row
    end
  end)
end)

-- A hostile user's checks of the AVX-512 kernel (attention_simd_gen.h):
-- shapes at the edges of its strips (48 rows in float32, 24 in float64),
-- blocks of 5 strips, key tiles of 128 and panels of 8, views, extreme
-- scales, NaN and inf, threads, the shared/per-block packing switch. The
-- gemm kernel runs the same problem when a mask is given (a 1 x nk row of
-- ones here: it broadcasts, so no nq x nk matrix is built), the weights
-- path through separate code; both are compared, and small cases with the
-- Lua reference at the top of this file.
describe("linalg.attention's AVX-512 kernel, hostile", function()
  local function nan(x) return x ~= x end
  local TOL = {float64 = 1e-12, float32 = 2e-5}

  -- worst difference of A from B, each row's scaled by floor or its largest
  -- finite |B|; NaN must meet NaN; returns the difference and where
  local function diff(A, B, floor)
    local m, n = B:shape()
    assert.are.same({m, n}, {A:shape()})
    if m == 0 or n == 0 then return 0, "nowhere" end
    local fast = la.abs(A - B):max()
    if fast == 0 then return 0, "nowhere" end
    if floor and fast < math.huge and la.abs(B):max() <= floor then   -- finite, no row above floor
      return fast / floor, "somewhere"
    end
    local worst, where = 0, "nowhere"
    for i = 1, m do
      local sc = floor or 0
      for j = 1, n do
        local y = math.abs(B(i, j))
        if y > sc and y < math.huge then sc = y end
      end
      for j = 1, n do
        local x, y, d = A(i, j), B(i, j), 0
        if x ~= y and not (nan(x) and nan(y)) then
          d = (nan(x) or nan(y)) and math.huge or math.abs(x - y) / math.max(sc, 1e-300)
          if nan(d) then d = math.huge end
        end
        if d > worst then worst, where = d, string.format("(%d,%d) %.17g vs %.17g", i, j, x, y) end
      end
    end
    return worst, where
  end

  -- the largest finite |V| (1 for an empty V)
  local function vmax(V)
    if V:rows() == 0 or V:cols() == 0 then return 1 end
    local m = la.abs(V):max()
    if m == m and m < math.huge then return m end
    m = 0
    for i = 1, V:rows() do
      for j = 1, V:cols() do
        local x = math.abs(V(i, j))
        if x > m and x < math.huge then m = x end
      end
    end
    return m
  end

  -- the kernel's result against the gemm kernel's (a mask of ones) and,
  -- when given, a reference O and lse; outputs scaled by max |V|, lse by 1
  local function check(Q, K, V, o, tol, label, Or, Lr)
    local plain, masked = {lse = true}, {lse = true, mask = la.ones(1, K:rows())}
    for k, x in pairs(o) do plain[k] = x; masked[k] = x end
    local O1, L1 = la.attention(Q, K, V, plain)
    local O2, L2 = la.attention(Q, K, V, masked)
    assert.are.equal(Q.dtype, O1.dtype)
    local pairs_ = {{O1, O2, vmax(V), "O vs gemm"}, {L1, L2, 1, "lse vs gemm"}}
    if Or then
      pairs_[3] = {O1, Or, vmax(V), "O vs reference"}
      pairs_[4] = {L1, Lr, 1, "lse vs reference"}
    end
    for _, p in ipairs(pairs_) do
      local d, where = diff(p[1], p[2], p[3])
      assert(d <= tol, string.format("%s: %s %s differs by %.3g at %s", label, p[4], Q.dtype, d, where))
    end
    return O1, L1
  end

  -- the causal mask as a matrix for the Lua reference (coff: 0 upper_left,
  -- nk - nq lower_right)
  local function causalmask(nq, nk, coff)
    local M = la.zeros(nq, nk)
    for i = 1, nq do for j = 1, math.min(nk, i + coff) do M:set(i, j, 1) end end
    return M
  end

  -- (heavy: under valgrind, which has no AVX-512, both sides are the gemm
  -- kernel; ASan and the suites of 5.4 and LuaJIT run it)
  it("agrees with the gemm kernel around its strips, blocks, tiles and panels, in both types #heavy", function()
    local ns = {1, 7, 8, 9, 23, 24, 25, 47, 48, 49, 127, 128, 129, 239, 240, 241}
    local dvs, dks = {0, 1, 7, 8, 9, 65}, {1, 2, 3, 16, 33}
    local seed, nref = 0, 0
    for a, nq in ipairs(ns) do
      for b, nk in ipairs(ns) do
        seed = seed + 1
        local dv, dk = dvs[(a + b) % #dvs + 1], dks[(3 * a + b) % #dks + 1]
        local Q, K, V = la.randn(nq, dk, seed), la.randn(nk, dk, seed + 500), la.randn(nk, dv, seed + 900)
        for _, causal in ipairs{false, true, "lower_right"} do
          local Or, Lr
          if nq <= 49 and nk <= 49 and (a + b + #tostring(causal)) % 4 == 0 then   -- a sample
            local coff = causal == "lower_right" and nk - nq or 0
            Or, _, Lr = reference(Q, K, V, {mask = causal and causalmask(nq, nk, coff) or nil})
            nref = nref + 1
          end
          for _, dt in ipairs{"float64", "float32"} do
            check(Q:astype(dt), K:astype(dt), V:astype(dt), {causal = causal}, TOL[dt],
              string.format("nq=%d nk=%d dk=%d dv=%d causal=%s", nq, nk, dk, dv, tostring(causal)), Or, Lr)
          end
        end
      end
    end
    assert.is_true(nref > 20)
  end)

  it("takes dk = 1, 2, 1023, 1024 and 1025 (past its limit: the gemm kernel) and dv = 1025 alike", function()
    for _, s in ipairs{{25, 129, 1, 9}, {49, 25, 2, 65}, {25, 129, 1023, 9}, {49, 25, 1024, 8},
                       {24, 48, 1025, 7}, {25, 30, 4, 1025}} do
      local nq, nk, dk, dv = unpack(s)
      local Q, K, V = la.randn(nq, dk, 1), la.randn(nk, dk, 2), la.randn(nk, dv, 3)
      for _, dt in ipairs{"float64", "float32"} do
        local q, k, v = Q:astype(dt), K:astype(dt), V:astype(dt)
        for _, causal in ipairs{false, "lower_right"} do
          local O1, L1 = check(q, k, v, {causal = causal}, TOL[dt], table.concat(s, "x") .. " " .. tostring(causal))
          local Ow, A, Lw = la.attention(q, k, v, {causal = causal, weights = true, lse = true})
          assert(diff(O1, Ow, vmax(V)) <= TOL[dt] and diff(L1, Lw, 1) <= TOL[dt], table.concat(s, "x"))
          assert.are.same({nq, nk}, {A:shape()})
        end
      end
    end
  end)

  it("gives zeros and lse -inf for rows that see no key, full rows past nk, in both alignments", function()
    for _, s in ipairs{{241, 49}, {49, 7}, {1000, 1}, {100, 99}, {9, 241}} do
      local nq, nk = s[1], s[2]
      local Q, K, V = la.randn(nq, 3, 1), la.randn(nk, 3, 2), la.randn(nk, 9, 3)
      for _, dt in ipairs{"float64", "float32"} do
        local q, k, v = Q:astype(dt), K:astype(dt), V:astype(dt)
        local O, L = la.attention(q, k, v, {causal = "lower_right", lse = true})
        local Of, Lf = la.attention(q, k, v, {lse = true})
        local Ou, Lu = la.attention(q, k, v, {causal = true, lse = true})
        for i = 1, nq do
          local blind = i + nk - nq < 1
          assert.are.equal(blind, L(i) == -math.huge)
          for j = 1, 9 do
            if blind then assert.are.equal(0, O(i, j)) else assert.are_not.equal(0, O(i, j)) end
          end
          if i == nq then                                       -- lower_right: the last row sees all
            assert.near(Of:row(i), O:row(i), 0)
            assert.are.equal(Lf(i), L(i))
          end
          if i >= nk then                                       -- upper_left: row i >= nk sees all
            assert.near(Of:row(i), Ou:row(i), 0)
            assert.are.equal(Lf(i), Lu(i))
          end
        end
      end
    end
  end)

  it("reads views (ld ~= rows), transposed copies and tables as their copies, bitwise", function()
    for _, dt in ipairs{"float64", "float32"} do
      local P = la.randn(300, 80, 5):astype(dt)
      local Q, K, V = P:sub(3, 131, 2, 17), P:sub(50, 290, 20, 35), P:slice("50:290", "40:48")
      assert.are.same({129, 16, 241, 16, 241, 9}, {Q:rows(), Q:cols(), K:rows(), K:cols(), V:rows(), V:cols()})
      local Qc, Kc, Vc = Q:copy(), K:copy(), V:copy()
      for _, causal in ipairs{false, true, "lower_right"} do
        local O1, L1 = la.attention(Q, K, V, {causal = causal, lse = true})
        local O2, L2 = la.attention(Qc, Kc, Vc, {causal = causal, lse = true})
        local O3 = la.attention(la.t(la.t(Q)), Kc:t():t(), Vc:t():t(), {causal = causal})
        assert.are.equal(dt, O1.dtype)
        assert.near(O2, O1, 0); assert.near(L2, L1, 0); assert.near(O2, O3, 0)
        -- column views as dk = 1 queries and keys
        local q1, k1, v1 = P:col(3):sub(1, 100, 1, 1), P:col(4), P:sub(1, 300, 5, 12)
        local O4, L4 = la.attention(q1, k1, v1, {causal = causal, lse = true})
        local O5, L5 = la.attention(q1:copy(), k1:copy(), v1:copy(), {causal = causal, lse = true})
        assert.near(O5, O4, 0); assert.near(L5, L4, 0)
      end
    end
    local Qt, Kt, Vt = {{1, 2}, {3, 4}, {5, 6}}, {{1, 0}, {0, 1}}, {{1}, {2}}
    assert.near(la.attention(la.matrix(Qt), la.matrix(Kt), la.matrix(Vt)), la.attention(Qt, Kt, Vt), 0)
  end)

  -- NumPy 1.24 (/usr/bin/python3), float64: S = Q @ K.T * scale, masked
  -- entries -inf (lower_right: j > i + 1), m = S.max(1); P = exp(S - m);
  -- l = P.sum(1); O = P / l @ V; lse = m + log(l)
  it("matches NumPy for scale -3, 1e-30, +-1e30 (a hard maximum, with a tie) and causal lower_right", function()
    local Q = {{1, 2}, {-1, 0.5}, {0, 0}, {3, -1}}
    local K = {{1, 0}, {0, 1}, {-1, -1}, {2, 0.5}, {0.25, -2}}
    local V = {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}}
    local cases = {
      {{scale = -3}, {{8.618597510836713, 9.618597510836711}, {6.854861753012764, 7.854861753012764}, {5, 6},
        {4.905149642084143, 5.905149642084143}}, {11.35020717538371, 5.5358337232703025, 1.6094379124341003, 6.04858826001158}},
      {{scale = 1e-30}, {{5, 6}, {5, 6}, {5, 6}, {5, 6}},
        {1.6094379124341003, 1.6094379124341003, 1.6094379124341003, 1.6094379124341003}},
      {{scale = 1e30}, {{7, 8}, {4, 5}, {5, 6}, {7, 8}},
        {3.0000000000000003e+30, 5.0000000000000001e+29, 1.6094379124341003, 5.5000000000000003e+30}},
      {{scale = -1e30}, {{9, 10}, {7, 8}, {5, 6}, {5, 6}},
        {3.7499999999999999e+30, 1.7500000000000001e+30, 1.6094379124341003, 2.0000000000000000e+30}},
      {{scale = 0.7, causal = "lower_right"}, {{2.336375544336332, 3.336375544336332},
        {3.5532591245318947, 4.553259124531895}, {4, 5}, {6.398219834666455, 7.398219834666455}},
        {1.8031860488854579, 1.2043888380652743, 1.3862943611198906, 4.139279113819338}},
    }
    for _, c in ipairs(cases) do
      for _, dt in ipairs{"float64", "float32"} do
        local tol = dt == "float64" and 1e-14 or 2e-6
        local O, L = check(la.matrix(Q):astype(dt), la.matrix(K):astype(dt), la.matrix(V):astype(dt), c[1],
          TOL[dt], "numpy scale " .. c[1].scale)
        assert.near(c[2], O, tol)
        for i = 1, 4 do
          assert(math.abs(L(i) - c[3][i]) <= tol * math.max(1, math.abs(c[3][i])), dt .. " lse " .. i)
        end
      end
    end
  end)

  it("gives the mean for scale 0, NaN everywhere for scale NaN, and NaN rows for scale inf as the gemm kernel", function()
    local Q, K, V = la.randn(30, 4, 1), la.randn(50, 4, 2), la.randn(50, 3, 3)
    local mean = V:mean(1)
    for _, dt in ipairs{"float64", "float32"} do
      local q, k, v = Q:astype(dt), K:astype(dt), V:astype(dt)
      for _, sc in ipairs{0, -0.0, 1e-300} do
        local O, L = check(q, k, v, {scale = sc}, TOL[dt], "scale " .. sc)
        for i = 1, 30 do
          assert(math.abs(L(i) - math.log(50)) <= 1e-6, dt .. " scale " .. sc)
          for j = 1, 3 do assert(math.abs(O(i, j) - mean(1, j)) <= TOL[dt], dt .. " scale " .. sc) end
        end
      end
      for _, sc in ipairs{0 / 0, math.huge, -math.huge} do
        local O, L = check(q, k, v, {scale = sc}, TOL[dt], "scale " .. sc)
        for i = 1, 30 do   -- every row has scores of both signs: +inf - +inf
          assert.is_true(nan(L(i)) and nan(O(i, 1)) and nan(O(i, 3)))
        end
      end
      for _, c in ipairs{true, "lower_right"} do      -- scale 0 with causal: running means
        local O = check(q, k, v, {scale = 0, causal = c}, TOL[dt], "scale 0 causal")
        local off = c == true and 0 or 20
        for _, i in ipairs{1, 7, 30} do
          local m = V:sub(1, i + off, 1, 3):mean(1)
          for j = 1, 3 do assert(math.abs(O(i, j) - m(1, j)) <= TOL[dt]) end
        end
      end
    end
  end)

  it("keeps a NaN or inf key that causal hides from earlier rows, and matches the gemm kernel's NaN", function()
    local Q, K, V = la.randn(100, 4, 1), la.randn(100, 4, 2), la.randn(100, 3, 3)
    for _, dt in ipairs{"float64", "float32"} do
      for _, x in ipairs{0 / 0, math.huge, -math.huge} do
        local q, k, v = Q:astype(dt), K:astype(dt), V:astype(dt)
        k:set(60, 2, x)
        local O = check(q, k, v, {causal = true}, TOL[dt], "K(60,2) = " .. x)
        -- rows 1..59 never see key 60: as if keys stopped at 59
        local O59 = la.attention(q, k:sub(1, 59, 1, 4), v:sub(1, 59, 1, 3), {causal = true})
        assert.near(O59:sub(1, 59, 1, 3), O:sub(1, 59, 1, 3), 0)
        if nan(x) then for i = 60, 100 do assert.is_true(nan(O(i, 1))) end end
        -- the same NaN or inf in Q, and in V without causal
        q = Q:astype(dt); q:set(17, 3, x)
        check(q, K:astype(dt), v, {}, TOL[dt], "Q(17,3) = " .. x)
        v = V:astype(dt); v:set(33, 2, x)
        local Ov = check(Q:astype(dt), K:astype(dt), v, {}, TOL[dt], "V(33,2) = " .. x)
        for i = 1, 100 do   -- V's other columns are untouched; its column 2 is NaN or inf
          assert.is_false(nan(Ov(i, 1)) or nan(Ov(i, 3)))
          if nan(x) then assert.is_true(nan(Ov(i, 2))) else assert.are.equal(x, Ov(i, 2)) end
        end
      end
    end
  end)

  it("agrees with the gemm and weights paths when float32 products overflow (q k^T = 1e40)", function()
    local Q, K, V = la.matrix{{1e20}, {-1e20}, {1}}, la.matrix{{1e20}, {0}, {-1e20}}, la.matrix{{3}, {5}, {7}}
    for _, sc in ipairs{1, 1e-10, 1e-30} do
      local q, k, v = Q:astype("float32"), K:astype("float32"), V:astype("float32")
      local O, L = check(q, k, v, {scale = sc}, 2e-5, "overflow scale " .. sc)
      local Ow, _, Lw = la.attention(q, k, v, {scale = sc, weights = true, lse = true})
      assert(diff(O, Ow) == 0 and diff(L, Lw, 1) <= 2e-7)
      -- rows 1 and 2 meet 1e20 * 1e20: inf in float32 before any scaling
      assert.is_true(nan(O(1, 1)) and nan(O(2, 1)) and nan(L(1)))
      -- row 3's scores 1e20 sc, 0, -1e20 sc: the first wins, or all weigh 1/3 at sc = 1e-30
      assert.are.equal(sc == 1e-30 and 5 or 3, O(3, 1))
      assert.near(sc == 1e-30 and math.log(3) or 1e20 * sc, L(3), 1e-7)
      -- float64 holds the same products (NumPy 1.24 at scale 1e-30: 4.9999999998666675)
      local O64, L64 = check(Q, K, V, {scale = sc}, 1e-12, "float64 overflow scale " .. sc)
      assert.near({3, 7, sc == 1e-30 and 4.9999999998666675 or 3}, O64, 1e-12)
      assert.near(1e40 * sc, L64(1), 1e-15)
    end
  end)

  it("is bitwise the same on 1 and 2 threads, with keys packed once per call or per block", function()
    local t0 = la.threads()
    -- float64, dk = dv = 64: 60 key tiles (nk = 7680) fit in 8 MiB, 61 (7681) do not; float32
    -- twice that (15361 do not). Those two are the AVX-512 kernel's packing: on another
    -- kernel (valgrind's CPU, where they took 230 s of memcheck) nk = 1000 alone runs.
    local sizes = {{"float64", 1000}, {"float32", 1000}}
    if la.config().attention == "avx512f" then
      sizes[3], sizes[4] = {"float64", 7681}, {"float32", 15361}
    end
    for _, s in ipairs(sizes) do
      local dt, nk = s[1], s[2]
      local Q, K, V = la.randn(250, 64, 1):astype(dt), la.randn(nk, 64, 2):astype(dt), la.randn(nk, 64, 3):astype(dt)
      for _, c in ipairs{false, "lower_right"} do
        la.threads(1)
        local O1, L1 = la.attention(Q, K, V, {causal = c, lse = true})
        la.threads(2)
        local O2, L2 = la.attention(Q, K, V, {causal = c, lse = true})
        la.threads(t0)
        -- bitwise for the AVX-512 kernel (each block's arithmetic is fixed); the
        -- gemm kernel's BLAS calls may round differently (valgrind's CPU runs it)
        local exact = la.config().attention == "avx512f"
        assert(la.abs(O1 - O2):max() <= (exact and 0 or TOL[dt] * la.abs(V):max()), dt .. " threads")
        assert(la.abs(L1 - L2):max() <= (exact and 0 or TOL[dt] * la.abs(L2):max()), dt .. " threads")
        local O3, L3 = la.attention(Q, K, V, {causal = c, lse = true, mask = la.ones(1, nk)})
        assert(la.abs(O1 - O3):max() <= TOL[dt] * la.abs(V):max(), dt .. " " .. nk)
        assert(la.abs(L1 - L3):max() <= TOL[dt] * la.abs(L3):max(), dt .. " " .. nk)
      end
    end
    assert.are.equal(t0, la.threads())
  end)

  it("gives weights and lse in every combination consistent with the fused result", function()
    for _, s in ipairs{{1, 1, 1, 1}, {49, 129, 16, 9}, {241, 25, 3, 65}, {25, 47, 1024, 0}} do
      local nq, nk, dk, dv = unpack(s)
      for _, dt in ipairs{"float64", "float32"} do
        local Q, K, V = la.randn(nq, dk, 1):astype(dt), la.randn(nk, dk, 2):astype(dt), la.randn(nk, dv, 3):astype(dt)
        for _, c in ipairs{false, true, "lower_right"} do
          local O1, L1 = la.attention(Q, K, V, {causal = c, lse = true})
          local O0 = la.attention(Q, K, V, {causal = c})
          local r = {la.attention(Q, K, V, {causal = c, weights = true})}
          local Ow, A, Lw = la.attention(Q, K, V, {causal = c, weights = true, lse = true})
          assert.are.equal(2, #r)
          assert.are.equal(dt, A.dtype); assert.are.equal(dt, Lw.dtype)
          assert.near(O1, O0, 0)
          assert.near(Ow, r[1], 0); assert.near(A, r[2], 0)
          assert(diff(O1, Ow, vmax(V)) <= TOL[dt] and diff(L1, Lw, 1) <= TOL[dt], table.concat(s, "x"))
          local sums = A:sum(2)
          for i = 1, nq do
            local sees = not (c == "lower_right" and i + nk - nq < 1)
            assert(math.abs(sums(i) - (sees and 1 or 0)) <= 10 * TOL[dt])
          end
        end
      end
    end
  end)

  it("runs one query against 200000 keys, and 200000 queries against one key #heavy", function()
    local q, K, V = la.randn(1, 64, 1), la.randn(200000, 64, 2), la.randn(200000, 8, 3)
    local Q, k, v = la.randn(200000, 16, 4), la.randn(1, 16, 5), la.randn(1, 8, 6)
    for _, dt in ipairs{"float64", "float32"} do
      local q_, K_, V_ = q:astype(dt), K:astype(dt), V:astype(dt)
      for _, c in ipairs{false, true, "lower_right"} do
        local O, L = la.attention(q_, K_, V_, {causal = c, lse = true})
        local O2, L2 = la.attention(q_, K_, V_, {causal = c, lse = true, mask = la.ones(1, 200000)})
        assert(la.abs(O - O2):max() <= TOL[dt] * la.abs(V):max() and math.abs(L(1) - L2(1)) <= TOL[dt] * math.abs(L2(1)))
        if c == true then assert.near(V_:row(1), O, 0) end        -- upper_left: key 1 only
      end
      -- one key: every row is V's row exactly, lse = scale * q k
      local Q_, k_, v_ = Q:astype(dt), k:astype(dt), v:astype(dt)
      local O, L = la.attention(Q_, k_, v_, {lse = true})
      assert.are.equal(0, la.abs(O - v_):max())
      local S = (Q * k:t()) * 0.25
      assert(la.abs(L - S):max() <= TOL[dt] * math.max(1, la.abs(S):max()))
      local Oc, Lc = la.attention(Q_, k_, v_, {lse = true, causal = "lower_right"})
      assert.are.equal(0, la.abs(Oc:sub(200000, 200000, 1, 8) - v_):max())
      assert.are.equal(0, la.abs(Oc:sub(1, 199999, 1, 8)):max())
      assert.are.equal(-math.huge, Lc:sub(1, 199999, 1, 1):max())
    end
  end)
end)

-- Scores near the type's largest value. The AVX-512 kernel works in base 2:
-- it scales differences of scores, s - max, by |scale| * log2(e), never the
-- scores themselves (a score past MAX / log2(e), 1.2461e308 in float64 and
-- 2.3587e38 in float32, would overflow: 2^(inf - inf) = NaN). A scale whose
-- factor overflows (inf, or past 2.3587e38 in float32) goes to the gemm
-- kernel. Expected values: NumPy 1.24 in the given type, S = Q @ K.T *
-- scale, m = S.max(1), O = exp(S - m) / sum @ V, lse = m + log(sum); each
-- query is repeated on 48 rows, a full strip, so that the AVX-512 kernel
-- takes it (nq >= 48).
describe("linalg.attention's AVX-512 kernel on scores near the largest float", function()
  local cases = {   -- dtype, q, K, scale, expected O, expected lse
    {"float64", 1.5e308, {{1}, {0}}, 1, 3, 1.5e308},
    {"float64", -1.5e308, {{1}, {1}}, 1, 4, -1.5e308},
    {"float32", 2.5e38, {{1}, {0}}, 1, 3, 2.5e38},
    {"float32", -2.5e38, {{1}, {1}}, 1, 4, -2.5e38},
    {"float32", 1, {{-1}, {-2}}, 3e38, 3, -3e38},   -- f = 3e38 * log2(e) overflows float
  }
  for _, c in ipairs(cases) do
    local dt, x, K, sc, o, lse = unpack(c)
    it(string.format("%s score %g: O = %g and lse = %g, as the gemm kernel", dt, x * K[1][1] * sc, o, lse), function()
      local q, k, v = la.full(48, 1, x):astype(dt), la.matrix(K):astype(dt), la.matrix{{3}, {5}}:astype(dt)
      local Og, Lg = la.attention(q, k, v, {scale = sc, lse = true, mask = la.ones(48, 2)})
      local O, L = la.attention(q, k, v, {scale = sc, lse = true})
      for i = 1, 48 do
        assert.are.equal(o, Og(i, 1))                    -- the gemm kernel
        assert.near(lse, Lg(i), 1e-7)
        assert.are.equal(o, O(i, 1))                     -- the AVX-512 kernel
        assert.near(lse, L(i), 1e-7)
      end
    end)
  end

  it("scale = inf, causal: as the gemm kernel (rows of negative products give zeros, -inf)", function()
    local Q, K, V = la.randn(60, 4, 1), la.randn(60, 4, 2), la.randn(60, 3, 3)
    local O1, L1 = la.attention(Q, K, V, {scale = math.huge, causal = true, lse = true})
    local O2, L2 = la.attention(Q, K, V, {scale = math.huge, causal = true, lse = true, mask = la.ones(60, 60)})
    for i = 1, 60 do
      local a, b = L1(i), L2(i)
      assert.is_true(a == b or (a ~= a and b ~= b))
      for j = 1, 3 do
        a, b = O1(i, j), O2(i, j)
        assert.is_true(a == b or (a ~= a and b ~= b) or math.abs(a - b) < 1e-12)
      end
    end
  end)
end)
