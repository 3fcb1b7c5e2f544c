-- attention with opts.heads (heads in column blocks of Q, K, V, O; lse nq x
-- heads) and with Lua lists of matrices (a batch): each head equals a
-- single-head call on copies of its column blocks, bit for bit (the same
-- kernel runs on the same numbers), and the explicit formula
-- softmax(scale Q K^T + bias, masked) V computed with la's matrix operations.
local la = require "linalg"

local F32 = {dtype = "float32"}

-- column block i of width w
local function block(A, i, w)
  return A:sub(1, A:rows(), (i - 1) * w + 1, i * w)
end

-- the explicit formula in float64 (mask 0 = masked; causal true or
-- "lower_right"); nothing fused, nothing streamed
local function formula(Q, K, V, o)
  o = o or {}
  Q, K, V = Q:astype("float64"), K:astype("float64"), V:astype("float64")
  local nq, nk, dk = Q:rows(), K:rows(), Q:cols()
  local S = Q * K:t() * (o.scale or 1 / math.sqrt(dk))
  if o.bias then S = S + o.bias:astype("float64") end
  local keep = la.ones(nq, nk)
  if o.mask then keep = la.emul(keep, la.ne(o.mask:astype("float64"), 0)) end
  if o.causal then
    keep = la.emul(keep, la.tril(la.ones(nq, nk), o.causal == "lower_right" and nk - nq or 0))
  end
  S = la.where(keep, S, -math.huge)
  return la.softmax(S) * V
end

local function maxdiff(A, B)
  if A:rows() * A:cols() == 0 then return 0 end
  return la.max(la.abs(A:astype("float64") - B:astype("float64")))
end

-- the per-head single calls on copies, and the checks that the heads call
-- equals them bit for bit (O, lse) and the formula to tol
local function check_heads(Q, K, V, h, o, tol)
  local dk, dv = Q:cols() / h, V:cols() / h
  local opts = {heads = h, lse = true}
  for k, v in pairs(o) do opts[k] = v end
  local O, lse = la.attention(Q, K, V, opts)
  assert.are.same({Q:rows(), h * dv}, {O:shape()})
  assert.are.same({Q:rows(), h}, {lse:shape()})
  assert.are.equal(Q.dtype, O.dtype)
  local one = {lse = true}
  for k, v in pairs(o) do one[k] = v end
  for i = 1, h do
    local Qi, Ki, Vi = block(Q, i, dk):copy(), block(K, i, dk):copy(), block(V, i, dv):copy()
    local Oi, li = la.attention(Qi, Ki, Vi, one)
    assert.is_true(Oi == block(O, i, dv):copy(), "head " .. i .. ": O differs")
    assert.is_true(li == lse:sub(1, Q:rows(), i, i):copy(), "head " .. i .. ": lse differs")
    assert.is_true(maxdiff(Oi, formula(Qi, Ki, Vi, o)) <= tol, "head " .. i .. ": formula")
  end
  return O, lse
end

describe("linalg.attention with opts.heads", function()
  local nq, nk, dk, dv, h = 70, 53, 6, 5, 4
  local Q, K, V = la.randn(nq, h * dk, 1), la.randn(nk, h * dk, 2), la.randn(nk, h * dv, 3)
  local mask = la.ones(nq, nk)
  for i = 1, nq do for j = 1, nk do if (i + 3 * j) % 7 == 0 then mask:set(i, j, 0) end end end
  local bias = la.randn(nq, nk, 4)

  local cases = {
    {"no options", {}},
    {"causal", {causal = true}},
    {"causal lower_right", {causal = "lower_right"}},
    {"a mask", {mask = mask}},
    {"a bias", {bias = bias}},
    {"a 1 x nk row bias and an nq x 1 column mask", {bias = la.randn(1, nk, 5),
      mask = la.ones(nq, 1):set(3, 1, 0)}},
    {"mask, bias, causal and a scale", {mask = mask, bias = bias, causal = true, scale = 0.3}},
  }
  for _, c in ipairs(cases) do
    it("float64, " .. c[1] .. ": each head as a single call on its copied blocks, and the formula", function()
      check_heads(Q, K, V, h, c[2], 1e-12)
    end)
    it("float32, " .. c[1] .. ": each head as a single float32 call, and the formula", function()
      local o = {}
      for k, v in pairs(c[2]) do o[k] = type(v) == "userdata" and v:astype("float32") or v end
      check_heads(Q:astype("float32"), K:astype("float32"), V:astype("float32"), h, o, 2e-5)
    end)
  end

  it("runs the vectorized path (no mask, many query blocks) head by head the same", function()
    local Qb, Kb, Vb = la.randn(600, 8 * 16, 6), la.randn(700, 8 * 16, 7), la.randn(700, 8 * 8, 8)
    check_heads(Qb, Kb, Vb, 8, {}, 1e-12)
    check_heads(Qb:astype("float32"), Kb:astype("float32"), Vb:astype("float32"), 8, {}, 2e-5)
  end)

  it("reads views (their leading dimension) without copies", function()
    local P = la.randn(90, 60, 9)
    local Qv, Kv, Vv = P:sub(3, 2 + nq, 2, 1 + 3 * 4), P:sub(11, 10 + nk, 20, 19 + 3 * 4),
                       P:sub(5, 4 + nk, 40, 39 + 3 * 2)
    check_heads(Qv, Kv, Vv, 3, {causal = true}, 1e-12)
  end)

  it("returns the weights as nq x (heads nk), head i in column block i", function()
    local O, A, lse = la.attention(Q, K, V, {heads = h, weights = true, lse = true, mask = mask})
    assert.are.same({nq, h * nk}, {A:shape()})
    assert.are.same({nq, h}, {lse:shape()})
    for i = 1, h do
      local Oi, Ai, li = la.attention(block(Q, i, dk):copy(), block(K, i, dk):copy(),
                                      block(V, i, dv):copy(), {weights = true, lse = true, mask = mask})
      assert.is_true(Ai == block(A, i, nk):copy())
      assert.is_true(Oi == block(O, i, dv):copy())
      assert.is_true(li == lse:sub(1, nq, i, i):copy())
    end
  end)

  it("handles heads of zero width, no keys and no queries", function()
    local O, lse = la.attention(la.zeros(3, 0), la.zeros(4, 0), la.ones(4, 6), {heads = 3, lse = true})
    assert.are.same({3, 6}, {O:shape()})
    assert.is_true(O == la.ones(3, 6))
    assert.is_true(lse == la.full(3, 3, math.log(4)))
    O, lse = la.attention(la.ones(2, 4), la.zeros(0, 4), la.zeros(0, 2), {heads = 2, lse = true})
    assert.is_true(O == la.zeros(2, 2))
    assert.is_true(lse == la.ones(2, 2) * -math.huge)
    O, lse = la.attention(la.zeros(0, 4), la.ones(3, 4), la.ones(3, 2), {heads = 2, lse = true})
    assert.are.same({0, 2}, {O:shape()})
    assert.are.same({0, 2}, {lse:shape()})
    -- 2^31-1 heads of nothing: no head is visited (this returns at once)
    local big = 2147483647
    O = la.attention(la.zeros(2, 0), la.zeros(3, 0), la.zeros(3, 0), {heads = big})
    assert.are.same({2, 0}, {O:shape()})
    local A
    O, A = la.attention(la.zeros(2, 0), la.zeros(0, 0), la.zeros(0, 0), {heads = big, weights = true})
    assert.are.same({2, 0, 2, 0}, {O:rows(), O:cols(), A:rows(), A:cols()})
  end)

  it("is bitwise the same on 1 and 2 threads (fewer and more heads than threads)", function()
    local t0 = la.threads()
    local Qb, Kb, Vb = la.randn(300, 8 * 8, 10), la.randn(280, 8 * 8, 11), la.randn(280, 8 * 4, 12)
    for _, hh in ipairs{1, 2, 8} do
      for _, o in ipairs{{heads = hh}, {heads = hh, causal = true, bias = la.randn(300, 280, 13)}} do
        o.lse = true
        la.threads(1)
        local O1, l1 = la.attention(Qb, Kb, Vb, o)
        local f1 = la.attention(Qb:astype("float32"), Kb:astype("float32"), Vb:astype("float32"), o)
        la.threads(2)
        local O2, l2 = la.attention(Qb, Kb, Vb, o)
        local f2 = la.attention(Qb:astype("float32"), Kb:astype("float32"), Vb:astype("float32"), o)
        la.threads(t0)
        assert.is_true(O1 == O2 and l1 == l2 and f1 == f2, "heads " .. hh)
      end
    end
  end)

  it("names the problem", function()
    local function err(pat, ...)
      local ok, msg = pcall(la.attention, ...)
      assert.is_false(ok)
      assert.truthy(msg:find(pat, 1, true), msg)
    end
    err("linalg.attention: Q is 70x24: 24 columns do not split into 5 heads", Q, K, V, {heads = 5})
    err("linalg.attention: V is 53x20: 20 columns do not split into 3 heads", Q:sub(1, nq, 1, 21),
        K:sub(1, nk, 1, 21), V, {heads = 3})
    err("linalg.attention: option 'heads' must be a positive integer, got 0", Q, K, V, {heads = 0})
    err("linalg.attention: option 'heads' must be an integer", Q, K, V, {heads = 1.5})
    err("linalg.attention: option 'heads' must be an integer", Q, K, V, {heads = "2"})
    err("linalg.attention: mask is 3x3, expected 70x53", Q, K, V, {heads = 2, mask = la.ones(3, 3)})
  end)
end)

describe("linalg.attention on a batch (Lua lists of Q, K, V)", function()
  -- items of different shapes, two heads each
  local shapes = {{5, 7, 3, 2}, {1, 9, 4, 1}, {33, 12, 2, 3}, {0, 4, 3, 2}, {6, 0, 1, 2}}
  local Qs, Ks, Vs = {}, {}, {}
  for i, s in ipairs(shapes) do
    Qs[i], Ks[i], Vs[i] = la.randn(s[1], 2 * s[3], 20 + i), la.randn(s[2], 2 * s[3], 40 + i),
                          la.randn(s[2], 2 * s[4], 60 + i)
  end

  local function singles(Q, K, V, o, dtype)
    local Os, ls = {}, {}
    for i = 1, #Q do Os[i], ls[i] = la.attention(Q[i], K[i], V[i], o) end
    return Os, ls
  end

  for _, dtype in ipairs{"float64", "float32"} do
    it(dtype .. ": each item as its own heads call, in order; lse a list of nq x heads", function()
      local Q, K, V = {}, {}, {}
      for i = 1, #Qs do Q[i], K[i], V[i] = Qs[i]:astype(dtype), Ks[i]:astype(dtype), Vs[i]:astype(dtype) end
      for _, o in ipairs{{heads = 2, lse = true}, {heads = 2, lse = true, causal = "lower_right"},
                         {heads = 1, lse = true, causal = true}} do
        local Os, ls = la.attention(Q, K, V, o)
        local Oe, le = singles(Q, K, V, o)
        assert.are.equal(#Qs, #Os)
        assert.are.equal(#Qs, #ls)
        for i = 1, #Qs do
          assert.are.same({shapes[i][1], 2 * shapes[i][4]}, {Os[i]:shape()})
          assert.are.same({shapes[i][1], o.heads}, {ls[i]:shape()})
          assert.are.equal(dtype, Os[i].dtype)
          assert.is_true(Os[i] == Oe[i] and ls[i] == le[i], "item " .. i)
        end
      end
    end)
  end

  it("matches the formula for every item and head", function()
    local Os = la.attention(Qs, Ks, Vs, {heads = 2, causal = true})
    for i, s in ipairs(shapes) do
      if s[1] > 0 and s[2] > 0 then
        for hd = 1, 2 do
          local e = formula(block(Qs[i], hd, s[3]), block(Ks[i], hd, s[3]), block(Vs[i], hd, s[4]),
                            {causal = true})
          assert.is_true(maxdiff(block(Os[i], hd, s[4]), e) <= 1e-12)
        end
      end
    end
  end)

  it("applies one mask and bias to every item and head", function()
    local Q, K, V = {Qs[1], Qs[1]:sub(1, 5, 1, 6)}, {Ks[1], Ks[1]}, {Vs[1], Vs[1]}
    local mask = la.ones(5, 7):set(2, 3, 0)
    local bias = la.randn(5, 7, 77)
    local Os, As = la.attention(Q, K, V, {heads = 2, mask = mask, bias = bias, weights = true})
    assert.are.equal(2, #As)
    for i = 1, 2 do
      local O, A = la.attention(Q[i], K[i], V[i], {heads = 2, mask = mask, bias = bias, weights = true})
      assert.is_true(O == Os[i] and A == As[i])
    end
    local ok, msg = pcall(la.attention, {Qs[1], Qs[3]}, {Ks[1], Ks[3]}, {Vs[1], Vs[3]}, {heads = 2, mask = mask})
    assert.is_false(ok)
    assert.truthy(msg:find("linalg.attention: mask is 5x7, expected 33x12 (nq x nk), 1x12 or 33x1 (item 2)", 1, true), msg)
  end)

  it("returns empty lists for empty lists", function()
    local Os, ls = la.attention({}, {}, {}, {lse = true, heads = 3})
    assert.are.same({}, Os)
    assert.are.same({}, ls)
    assert.are.equal(1, select("#", la.attention({}, {}, {})))
  end)

  it("is bitwise the same on 1 and 2 threads", function()
    local t0 = la.threads()
    local Q = {la.randn(300, 32, 1), la.randn(5, 32, 2), la.randn(260, 16, 3)}
    local K = {la.randn(290, 32, 4), la.randn(9, 32, 5), la.randn(400, 16, 6)}
    local V = {la.randn(290, 16, 7), la.randn(9, 8, 8), la.randn(400, 8, 9)}
    for _, o in ipairs{{heads = 1, lse = true}, {heads = 4, lse = true, causal = true}} do
      la.threads(1)
      local O1, l1 = la.attention(Q, K, V, o)
      la.threads(2)
      local O2, l2 = la.attention(Q, K, V, o)
      la.threads(t0)
      for i = 1, 3 do assert.is_true(O1[i] == O2[i] and l1[i] == l2[i]) end
    end
  end)

  it("names the problem", function()
    local A = la.ones(2, 2)
    local function err(pat, ...)
      local ok, msg = pcall(la.attention, ...)
      assert.is_false(ok)
      assert.truthy(msg:find(pat, 1, true), msg)
    end
    err("linalg.attention: Q has 2 items but K has 1 (the lists of a batch have one length)",
        {A, A}, {A}, {A, A})
    err("linalg.attention: Q has 1 items but V has 2", {A}, {A}, {A, A})
    err("linalg.attention: Q is a list of matrices (a batch) but K is not a list (got linalg.matrix)", {A}, A, {A})
    err("linalg.attention: V[2] is not a matrix (got table)", {A, A}, {A, A}, {A, {{1, 2}, {3, 4}}})
    err("linalg.attention: K[1] is not a matrix (got number)", {A}, {1}, {A})
    err("linalg.attention: Q[1] is not a matrix (got table)", {{{1, 2}}}, {A}, {A})
    err("linalg.attention: K[2] is float32 but Q[1] is float64 (a batch has one type)",
        {A, A}, {A, A:astype("float32")}, {A, A})
    err("linalg.attention: Q is 2x3 but K is 2x2 (dk 3 ~= 2) (item 2)", {A, la.ones(2, 3)}, {A, A}, {A, A})
    err("linalg.attention: K has 2 rows but V has 3 (one value per key) (item 1)", {A}, {A}, {la.ones(3, 2)})
    err("linalg.attention: Q is 2x3: 3 columns do not split into 2 heads (item 1)",
        {la.ones(2, 3)}, {la.ones(2, 3)}, {A}, {heads = 2})
    local C = la.ones(2, 2)
    debug.getmetatable(C).__close(C)
    err("linalg.attention: V[1] is a closed matrix", {A}, {A}, {C})
  end)
end)
