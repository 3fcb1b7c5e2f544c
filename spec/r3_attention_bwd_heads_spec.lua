-- attention_backward with opts.heads (heads in column blocks of dO, Q, K, V,
-- O and of the results; lse nq x heads as the forward returns it) and with
-- Lua lists (a batch): each head's gradients equal a single-head call on
-- copies of its column blocks bit for bit (the same kernel runs on the same
-- numbers), a batch equals its per-item calls, dbias with heads is the sum
-- of the heads' dbias, the results do not depend on la.threads(), and the
-- gradients match finite differences of la.attention with heads.
local la = require "linalg"

local F32 = {dtype = "float32"}

-- column block i of width w
local function block(A, i, w)
  return A:sub(1, A:rows(), (i - 1) * w + 1, i * w)
end

-- same shape and the same numbers (bit for bit: no NaN in these specs)
local function same(A, B, what)
  assert.are.same({A:shape()}, {B:shape()}, what)
  assert.are.equal(A.dtype, B.dtype, what)
  assert.is_true(A:rows() * A:cols() == 0 or A == B, what .. " differs")
end

-- opts with more keys
local function with(o, more)
  local r = {}
  for k, v in pairs(o) do r[k] = v end
  for k, v in pairs(more or {}) do r[k] = v end
  return r
end

-- random inputs of an h-head problem and the forward's O, lse
local function problem(nq, nk, dk, dv, h, o, seed, dtype)
  local function r(m, n, s)
    local A = la.randn(m, n, seed + s)
    return dtype and A:astype(dtype) or A
  end
  local Q, K, V, dO = r(nq, h * dk, 1), r(nk, h * dk, 2), r(nk, h * dv, 3), r(nq, h * dv, 4)
  local O, lse = la.attention(Q, K, V, with(o, {heads = h, lse = true}))
  return dO, Q, K, V, O, lse
end

-- the heads call against single-head calls on copies of the column blocks:
-- dQ, dK, dV bit for bit, dbias = ((db1 + db2) + db3) ... bit for bit
local function check_heads(nq, nk, dk, dv, h, o, seed, dtype)
  local dO, Q, K, V, O, lse = problem(nq, nk, dk, dv, h, o, seed, dtype)
  local r = {la.attention_backward(dO, Q, K, V, O, lse, with(o, {heads = h}))}
  assert.are.equal(o.bias_grad and 4 or 3, #r)
  assert.are.same({nq, h * dk}, {r[1]:shape()})
  assert.are.same({nk, h * dk}, {r[2]:shape()})
  assert.are.same({nk, h * dv}, {r[3]:shape()})
  local sum
  for i = 1, h do
    local one = {block(dO, i, dv):copy(), block(Q, i, dk):copy(), block(K, i, dk):copy(),
                 block(V, i, dv):copy(), block(O, i, dv):copy(), block(lse, i, 1):copy()}
    local g = {la.attention_backward(one[1], one[2], one[3], one[4], one[5], one[6], o)}
    same(block(r[1], i, dk):copy(), g[1], "head " .. i .. " dQ")
    same(block(r[2], i, dk):copy(), g[2], "head " .. i .. " dK")
    same(block(r[3], i, dv):copy(), g[3], "head " .. i .. " dV")
    if o.bias_grad then sum = sum and sum + g[4] or g[4] end
  end
  if o.bias_grad then same(r[4], sum, "dbias") end
  return r
end

describe("linalg.attention_backward with opts.heads", function()
  local nq, nk, dk, dv, h = 37, 150, 6, 5, 3      -- nk > 128: two key blocks

  it("equals single-head calls on the column blocks, float64 and float32", function()
    local mask = la.gt(la.rand(nq, nk, 5), 0.3)
    local combos = {
      {}, {causal = true}, {causal = "lower_right", scale = 0.4}, {mask = mask},
      {bias = la.randn(nq, nk, 6), bias_grad = true},
      {bias = la.randn(1, nk, 7), bias_grad = true, causal = true},
      {bias = la.randn(nq, 1, 8), bias_grad = true, mask = la.gt(la.rand(1, nk, 9), 0.5)},
      {bias_grad = true},                       -- no bias: dbias = dS, nq x nk
    }
    for _, dtype in ipairs{"float64", "float32"} do
      for c, o in ipairs(combos) do
        local oo = {}
        for k, v in pairs(o) do
          oo[k] = la.is_matrix(v) and v:astype(dtype) or v
        end
        local ok, err = pcall(check_heads, nq, nk, dk, dv, h, oo, 10 * c, dtype)
        assert(ok, dtype .. " case " .. c .. ": " .. tostring(err))
      end
    end
  end)

  it("gives dbias in the bias's shape, summed over the heads", function()
    local cases = {{nil, nq, nk}, {la.randn(nq, nk, 1), nq, nk}, {la.randn(1, nk, 2), 1, nk},
                   {la.randn(nq, 1, 3), nq, 1}}
    for _, c in ipairs(cases) do
      local r = check_heads(nq, nk, dk, dv, 2, {bias = c[1], bias_grad = true}, 40, nil)
      assert.are.same({c[2], c[3]}, {r[4]:shape()})
    end
  end)

  it("accepts the forward's options table as it is (lse, heads, bias_grad)", function()
    local o = {heads = h, lse = true, bias = la.randn(nq, nk, 2), bias_grad = true, causal = true}
    local dO, Q, K, V = la.randn(nq, h * dv, 1), la.randn(nq, h * dk, 2), la.randn(nk, h * dk, 3),
                        la.randn(nk, h * dv, 4)
    local O, lse = la.attention(Q, K, V, o)       -- bias_grad: accepted, ignored
    local O2, lse2 = la.attention(Q, K, V, {heads = h, lse = true, bias = o.bias, causal = true})
    same(O, O2, "O")
    same(lse, lse2, "lse")
    local dQ, dK, dV, dB = la.attention_backward(dO, Q, K, V, O, lse, o)
    assert.are.same({nq, nk}, {dB:shape()})
    assert.are.same({nq, h * dk}, {dQ:shape()})
    assert.are.same({nk, h * dk}, {dK:shape()})
    assert.are.same({nk, h * dv}, {dV:shape()})
  end)

  it("reads heads of views (leading dimension larger than the rows)", function()
    local dO, Q, K, V, O, lse = problem(nq, nk, dk, dv, 2, {}, 70)
    local function pad(A) return la.zeros(A:rows() + 3, A:cols()):set("1:" .. A:rows(), ":", A) end
    local P = {}
    for i, A in ipairs{dO, Q, K, V, O, lse} do
      P[i] = pad(A):sub(1, A:rows(), 1, A:cols())
    end
    local r1 = {la.attention_backward(dO, Q, K, V, O, lse, {heads = 2})}
    local r2 = {la.attention_backward(P[1], P[2], P[3], P[4], P[5], P[6], {heads = 2})}
    for i = 1, 3 do same(r1[i], r2[i], "result " .. i) end
  end)

  it("handles empty heads and sizes", function()
    local r = {la.attention_backward(la.zeros(0, 4), la.zeros(0, 6), la.zeros(5, 6), la.zeros(5, 4),
                                     la.zeros(0, 4), la.zeros(0, 2), {heads = 2, bias_grad = true})}
    assert.are.same({0, 6}, {r[1]:shape()})
    assert.are.same({5, 6}, {r[2]:shape()})
    assert.are.same({5, 4}, {r[3]:shape()})
    assert.are.same({0, 5}, {r[4]:shape()})
    assert.is_true(r[2] == la.zeros(5, 6) and r[3] == la.zeros(5, 4))
  end)
end)

describe("linalg.attention_backward with a batch", function()
  -- items of different shapes and heads' widths
  local shapes = {{20, 30, 4, 3}, {7, 140, 2, 5}, {33, 9, 6, 6}}

  local function batch(h, o, dtype)
    local L = {{}, {}, {}, {}, {}, {}}
    for i, s in ipairs(shapes) do
      local p = {problem(s[1], s[2], s[3], s[4], h, o, 100 * i, dtype)}
      for j = 1, 6 do L[j][i] = p[j] end
    end
    return L
  end

  it("equals its per-item calls, float64 and float32, with heads", function()
    for _, dtype in ipairs{"float64", "float32"} do
      for _, h in ipairs{1, 2} do
        for _, o in ipairs{{}, {causal = "lower_right"}, {causal = true, scale = 0.3}} do
          local L = batch(h, o, dtype)
          local oo = with(o, {heads = h})
          local dQs, dKs, dVs, extra = la.attention_backward(L[1], L[2], L[3], L[4], L[5], L[6], oo)
          assert.is_nil(extra)
          assert.are.equal(#shapes, #dQs)
          assert.are.equal(#shapes, #dKs)
          assert.are.equal(#shapes, #dVs)
          for i = 1, #shapes do
            local g = {la.attention_backward(L[1][i], L[2][i], L[3][i], L[4][i], L[5][i],
                                             L[6][i], oo)}
            same(dQs[i], g[1], "item " .. i .. " dQ")
            same(dKs[i], g[2], "item " .. i .. " dK")
            same(dVs[i], g[3], "item " .. i .. " dV")
          end
        end
      end
    end
  end)

  it("returns a list of dbias when asked (a shared 1 x nk bias)", function()
    local nk = 40
    local bias = la.randn(1, nk, 3)
    local o = {bias = bias, bias_grad = true, heads = 2}
    local L = {{}, {}, {}, {}, {}, {}}
    for i, nq in ipairs{5, 17} do
      local p = {problem(nq, nk, 3, 2, 2, {bias = bias}, 200 * i)}
      for j = 1, 6 do L[j][i] = p[j] end
    end
    local r = {la.attention_backward(L[1], L[2], L[3], L[4], L[5], L[6], o)}
    assert.are.equal(4, #r)
    for i = 1, 2 do
      local g = {la.attention_backward(L[1][i], L[2][i], L[3][i], L[4][i], L[5][i], L[6][i], o)}
      for k = 1, 4 do same(r[k][i], g[k], "item " .. i .. " result " .. k) end
      assert.are.same({1, nk}, {r[4][i]:shape()})
    end
  end)

  it("takes empty lists", function()
    local r = {la.attention_backward({}, {}, {}, {}, {}, {}, {bias_grad = true})}
    assert.are.equal(4, #r)
    for k = 1, 4 do assert.are.same({}, r[k]) end
  end)
end)

describe("linalg.attention_backward's threads with heads and batches", function()
  -- 2.5 nq nk (dk + dv) above the one-thread threshold (262144)
  local nq, nk, dk, dv = 150, 300, 8, 8

  local function run(n, h, dtype)
    local o = {causal = "lower_right", bias = la.randn(nq, nk, 2), bias_grad = true, heads = h}
    if dtype then o.bias = o.bias:astype(dtype) end
    local L = {{}, {}, {}, {}, {}, {}}
    for i = 1, n do
      local p = {problem(nq, nk, dk, dv, h, o, 300 * i, dtype)}
      for j = 1, 6 do L[j][i] = p[j] end
    end
    return {la.attention_backward(L[1], L[2], L[3], L[4], L[5], L[6], o)}
  end

  it("is bitwise the same on 1 and 2 threads (units fewer and more than threads)", function()
    local old = la.threads()
    for _, dtype in ipairs{"float64", "float32"} do
      for _, c in ipairs{{1, 1}, {1, 3}, {3, 1}, {2, 2}} do
        la.threads(1)
        local r1 = run(c[1], c[2], dtype)
        la.threads(2)
        for _ = 1, 3 do       -- a race shows now and then: several runs
          local r2 = run(c[1], c[2], dtype)
          for k = 1, 4 do
            for i = 1, c[1] do
              same(r1[k][i], r2[k][i], dtype .. " result " .. k .. " item " .. i)
            end
          end
        end
      end
    end
    la.threads(old)
  end)

  it("equals single-head calls on 2 threads", function()
    local old = la.threads()
    la.threads(2)
    local ok, err = pcall(check_heads, nq, nk, dk, dv, 3,
                          {bias = la.randn(1, nk, 5), bias_grad = true, causal = true}, 400)
    la.threads(old)
    assert(ok, err)
  end)
end)

describe("linalg.attention_backward with heads against finite differences", function()
  local nq, nk, dk, dv, h = 4, 6, 2, 3, 2
  local W = la.randn(nq, h * dv, 31)          -- loss = sum(O .* W): dO = W

  it("matches central differences of la.attention with heads", function()
    local Q, K, V = la.randn(nq, h * dk, 1), la.randn(nk, h * dk, 2), la.randn(nk, h * dv, 3)
    local combos = {{}, {causal = "lower_right", scale = 0.7},
                    {bias = la.randn(nq, nk, 4), bias_grad = true},
                    {bias = la.randn(1, nk, 5), bias_grad = true,
                     mask = la.gt(la.rand(nq, nk, 6), 0.2)}}
    for _, o in ipairs(combos) do
      o.heads = h
      local function loss(q, k, v, b)
        local oo = with(o, {bias = b or o.bias})
        return la.sum(la.emul(la.attention(q, k, v, oo), W))
      end
      local O, lse = la.attention(Q, K, V, with(o, {lse = true}))
      local g = {la.attention_backward(W, Q, K, V, O, lse, o)}
      local inputs = {Q, K, V, o.bias}
      local worst, eps = 0, 1e-6
      for x = 1, o.bias_grad and 4 or 3 do
        local X = inputs[x]
        for i = 1, X:rows() do
          for j = 1, X:cols() do
            local args = {Q, K, V, o.bias}
            local v0 = X(i, j)
            local Xp, Xm = X:copy(), X:copy()
            Xp:set(i, j, v0 + eps)
            Xm:set(i, j, v0 - eps)
            args[x] = Xp
            local lp = loss(args[1], args[2], args[3], args[4])
            args[x] = Xm
            local lm = loss(args[1], args[2], args[3], args[4])
            worst = math.max(worst, math.abs((lp - lm) / (2 * eps) - g[x](i, j)))
          end
        end
      end
      assert(worst < 1e-8, "finite differences differ by " .. worst)
    end
  end)
end)

describe("linalg.attention_backward's errors with heads and batches", function()
  local f = la.attention_backward
  local dO, Q, K, V = la.randn(3, 4), la.randn(3, 6), la.randn(5, 6), la.randn(5, 4)
  local O, lse = la.attention(Q, K, V, {heads = 2, lse = true})

  local function fails(fn, pattern)
    local ok, err = pcall(fn)
    assert.is_false(ok)
    assert(tostring(err):find(pattern, 1, true), "message: " .. tostring(err))
  end

  it("names the problem", function()
    fails(function() f(dO, Q, K, V, O, lse, {heads = 4}) end,
          "linalg.attention_backward: Q is 3x6: 6 columns do not split into 4 heads")
    fails(function() f(dO, Q, K, V, O, lse, {heads = 0}) end,
          "linalg.attention_backward: option 'heads' must be a positive integer, got 0")
    fails(function() f(dO, Q, K, V, O, la.zeros(3, 1), {heads = 2}) end,
          "linalg.attention_backward: lse is 3x1, expected 3x2 (the forward's, one per query "
          .. "and head)")
    fails(function() f(dO, Q, K, la.randn(5, 6), O, lse, {heads = 2}) end,
          "linalg.attention_backward: O is 3x4, expected 3x6")
    fails(function() f({dO}, {Q}, {K}, {V}, {O}, {lse, lse}, {heads = 2}) end,
          "linalg.attention_backward: dO has 1 items but lse has 2")
    fails(function() f({dO}, {Q}, K, {V}, {O}, {lse}, {heads = 2}) end,
          "linalg.attention_backward: dO is a list of matrices (a batch) but K is not a list")
    fails(function() f({dO}, {Q}, {K}, {V}, {"O"}, {lse}, {heads = 2}) end,
          "linalg.attention_backward: O[1] is not a matrix (got string)")
    fails(function() f({dO, dO}, {Q, Q}, {K, K:astype("float32")}, {V, V}, {O, O}, {lse, lse},
                       {heads = 2}) end,
          "linalg.attention_backward: K[2] is float32 but dO[1] is float64 (a batch has one type)")
    fails(function() f({dO, dO}, {Q, Q}, {K, la.randn(5, 4)}, {V, V}, {O, O}, {lse, lse},
                       {heads = 2}) end,
          "linalg.attention_backward: Q is 3x6 but K is 5x4 (dk 6 ~= 4) (item 2)")
    fails(function() f({dO, la.randn(2, 4)}, {Q, la.randn(2, 6)}, {K, K}, {V, V},
                       {O, la.randn(2, 4)}, {lse, la.randn(2, 2)},
                       {heads = 2, bias = la.randn(3, 5)}) end,
          "linalg.attention_backward: bias is 3x5, expected 2x5 (nq x nk), 1x5 or 2x1 (item 2)")
    fails(function() f({dO, dO}, {Q, Q}, {K, K}, {V, V}, {O, O}, {lse, la.zeros(3, 1)},
                       {heads = 2}) end, "(item 2)")
    fails(function() f(dO, Q, K, V, O, lse, {heads = 2, bias_grad = "yes"}) end,
          "linalg.attention_backward: ")
  end)

  it("lets attention take bias_grad and check its type", function()
    fails(function() la.attention(Q, K, V, {bias_grad = 1}) end, "linalg.attention: ")
    local A = la.attention(Q, K, V, {heads = 2, bias_grad = true})
    same(A, la.attention(Q, K, V, {heads = 2}), "O")
  end)
end)
