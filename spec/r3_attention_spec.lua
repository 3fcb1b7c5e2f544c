-- Attention's options of the other element type given as views, empty
-- inputs with huge extents, and option errors (closed matrices).
local la = require "linalg"

local F32 = {dtype = "float32"}

-- Reference attention in float64, entry by entry (the bias added to the
-- scaled scores, mask 0 = masked), for float32 results computed from the
-- same float32 operands.
local function reference(Q, K, V, mask, bias)
  local nq, dk = Q:shape()
  local nk, dv = V:shape()
  local O = la.zeros(nq, dv)
  local function at(M, i, j)
    local m, n = M:shape()
    return M(m == 1 and 1 or i, n == 1 and 1 or j)
  end
  for i = 1, nq do
    local s, mx, sum = {}, -math.huge, 0
    for j = 1, nk do
      local x = 0
      for l = 1, dk do x = x + Q(i, l) * K(j, l) end
      x = x / math.sqrt(dk) + (bias and at(bias, i, j) or 0)
      if mask and at(mask, i, j) == 0 then x = -math.huge end
      s[j] = x
      if x > mx then mx = x end
    end
    for j = 1, nk do s[j] = s[j] == -math.huge and 0 or math.exp(s[j] - mx); sum = sum + s[j] end
    for c = 1, dv do
      local o = 0
      for j = 1, nk do o = o + (sum > 0 and s[j] / sum or 0) * V(j, c) end   -- all masked: 0
      O:set(i, c, o)
    end
  end
  return O
end

describe("linalg.attention with a mask or bias of the other type given as a view", function()
  -- The float32 run converted a float64 view into a packed float32 copy but
  -- read the copy with the view's leading dimension: wrong answers, and
  -- reads past the copy (ASan: heap-buffer-overflow) or SIGSEGV.
  local nq, nk, dk, dv = 5, 7, 3, 2
  local Q, K, V = la.randn(nq, dk, 1, F32), la.randn(nk, dk, 2, F32), la.randn(nk, dv, 3, F32)
  local P = la.randn(40, 60, 4)                          -- float64 parent, ld 40
  local Mp = la.ones(40, 60)
  for i = 1, 40 do for j = 1, 60 do if (i + 2 * j) % 5 == 0 then Mp:set(i, j, 0) end end end
  local Q64, K64, V64 = Q:astype("float64"), K:astype("float64"), V:astype("float64")

  -- float64 views of every shape the option takes: nq x nk, 1 x nk, nq x 1
  local views = {
    {"a sub", function(A) return A:sub(3, 2 + nq, 5, 4 + nk) end},
    {"a stepped slice", function(A) return A:slice("2:6", "1:3:19") end},
    {"a 1 x nk row of a sub", function(A) return A:sub(7, 7, 11, 10 + nk) end},
    {"a stepped 1 x nk row", function(A) return A:slice(9, "2:5:32") end},
    {"an nq x 1 column of a sub", function(A) return A:sub(20, 19 + nq, 30, 30) end},
  }

  for _, v in ipairs(views) do
    local name, view = v[1], v[2]
    it("reads " .. name .. " as bias and mask in float32 as its packed copy", function()
      local B, M = view(P), view(Mp)
      assert.is_true(B:rows() == nq or B:rows() == 1)
      local want = reference(Q64, K64, V64, M:copy(), B:copy())
      for _, weights in ipairs{false, true} do
        local O = la.attention(Q, K, V, {bias = B, mask = M, weights = weights})
        assert.are.equal("float32", O.dtype)
        assert.are.equal(la.attention(Q, K, V, {bias = B:copy(), mask = M:copy(), weights = weights}), O)
        assert.near(want, O:astype("float64"), 1e-5)
        -- the float32 copies of the options give the same bits
        assert.are.equal(la.attention(Q, K, V, {bias = B:astype("float32"), mask = M:astype("float32"),
                                                weights = weights}), O)
      end
      -- and the other way: float32 views in a float64 run
      local B32, M32 = view(P:astype("float32")), view(Mp:astype("float32"))
      local O64 = la.attention(Q64, K64, V64, {bias = B32, mask = M32})
      assert.near(reference(Q64, K64, V64, M32:astype("float64"), B32:astype("float64")), O64, 1e-12)
    end)
  end

  it("reads a float64 view of a large parent without reading past its copy", function()
    -- a parent with a leading dimension far larger than the converted copy:
    -- read with it, the float32 copy is left by megabytes (a SIGSEGV before)
    local big = la.zeros(200000, 8)
    local B = big:sub(1, nq, 1, nk)
    local O = la.attention(Q, K, V, {bias = B, mask = la.ones(200000, 8):sub(1, nq, 1, nk)})
    assert.are.equal(la.attention(Q, K, V), O)
  end)

  it("reads a float64 view as multihead_attention's mask and bias in float32", function()
    local X = la.randn(nq, 4, 5, F32)
    local Wq, Wk, Wv, Wo = la.randn(4, 4, 6, F32), la.randn(4, 4, 7, F32), la.randn(4, 4, 8, F32),
                           la.randn(4, 3, 9, F32)
    local B = P:sub(3, 2 + nq, 5, 4 + nq)
    local M = Mp:slice("2:6", "1:3:13")
    local out = la.multihead_attention(X, Wq, Wk, Wv, Wo, 2, {bias = B, mask = M})
    assert.are.equal("float32", out.dtype)
    assert.are.equal(la.multihead_attention(X, Wq, Wk, Wv, Wo, 2, {bias = B:copy(), mask = M:copy()}), out)
    -- per head in float64: the float32 run within float32 rounding
    local Qp, Kp, Vp = (X * Wq):astype("float64"), (X * Wk):astype("float64"), (X * Wv):astype("float64")
    local heads = {}
    for h = 1, 2 do
      local c = (h - 1) * 2
      heads[h] = reference(Qp:sub(1, nq, c + 1, c + 2), Kp:sub(1, nq, c + 1, c + 2), Vp:sub(1, nq, c + 1, c + 2),
                           M:copy(), B:copy())
    end
    assert.near(la.hstack(heads) * Wo:astype("float64"), out:astype("float64"), 1e-5)
  end)
end)

describe("linalg.attention returns at once when the result is empty", function()
  -- With no query the no-keys path still visited each of V's dv columns to
  -- clear zero bytes: 2^31-1 columns took minutes. Sizes that are slow only
  -- when an empty extent is looped over; os.clock is CPU time.
  local BIG = require("linalg.compat").tointeger(2 ^ 31 - 1)
  local fast = require("limits").fast
  local function shape(M) return {M:shape()} end

  for _, dt in ipairs{"float64", "float32"} do
    local o = {dtype = dt}
    local function Z(m, n) return la.zeros(m, n, o) end
    it("with no query, no key and 2^31-1 value columns (" .. dt .. ")", function()
      for _, opts in ipairs{{weights = true}, {weights = true, lse = true}, {lse = true}, {},
                            {weights = true, causal = true}, {lse = true, causal = "lower_right"},
                            {weights = true, mask = Z(0, 0), bias = Z(0, 0)}} do
        local O, A, lse = fast(function() return la.attention(Z(0, 4), Z(0, 4), Z(0, BIG), opts) end)
        assert.are.same({0, BIG}, shape(O))
        assert.are.equal(dt, O.dtype)
        if opts.weights then assert.are.same({0, 0}, shape(A)) else lse = A end
        if opts.lse then assert.are.same({0, 1}, shape(lse)) end
      end
    end)

    it("with no query and 2^31-1 keys of width 0 (" .. dt .. ")", function()
      for _, opts in ipairs{{weights = true}, {weights = true, mask = Z(0, BIG), bias = Z(0, BIG)},
                            {mask = Z(0, BIG), lse = true}, {bias = Z(0, 1), causal = true},
                            -- the other type, as mask and bias
                            {mask = la.zeros(0, BIG, {dtype = dt == "float32" and "float64" or "float32"}),
                             bias = la.zeros(0, 1, {dtype = dt == "float32" and "float64" or "float32"}),
                             weights = true}} do
        local O, A = fast(function() return la.attention(Z(0, 0), Z(BIG, 0), Z(BIG, 0), opts) end)
        assert.are.same({0, 0}, shape(O))
        if opts.weights then assert.are.same({0, BIG}, shape(A)) end
      end
    end)

    it("with 2^31-1 queries and no key, no value column (" .. dt .. ")", function()
      local O, A = fast(function() return la.attention(Z(BIG, 0), Z(0, 0), Z(0, 0), {weights = true}) end)
      assert.are.same({BIG, 0}, shape(O))
      assert.are.same({BIG, 0}, shape(A))
    end)

    it("combines two empty results at once (" .. dt .. ")", function()
      local O, lse = fast(function() return la.attention_combine(Z(0, BIG), Z(0, 1), Z(0, BIG), Z(0, 1)) end)
      assert.are.same({0, BIG}, shape(O))
      assert.are.same({0, 1}, shape(lse))
    end)

    it("gives multihead_attention's empty result without visiting 2^31-1 heads (" .. dt .. ")", function()
      local out = fast(function() return la.multihead_attention(Z(0, 0), Z(0, BIG), Z(0, BIG), Z(0, BIG), Z(BIG, 0), BIG) end)
      assert.are.same({0, 0}, shape(out))
      assert.are.equal(dt, out.dtype)
      local w
      out, w = fast(function()
        return la.multihead_attention(Z(0, 0), Z(0, BIG), Z(0, BIG), Z(0, BIG), Z(BIG, 0), BIG,
                                      {average_attn_weights = true, kv = Z(0, 0), causal = true})
      end)
      assert.are.same({0, 0}, shape(out))
      assert.are.same({0, 0}, shape(w))
      assert.are.equal(dt, w.dtype)
      -- the options are still checked
      assert.error_matches(function()
        la.multihead_attention(Z(0, 0), Z(0, BIG), Z(0, BIG), Z(0, BIG), Z(BIG, 0), BIG, {mask = Z(2, 2)})
      end, "linalg.multihead_attention: mask is 2x2, expected 0x0")
    end)
  end
end)

describe("attention options that are closed matrices", function()
  -- a closed option was reported as "bad argument #5" (the options table's
  -- slot after the arguments) or "#7": the message names the option now, as
  -- hstack names its item ("item 2 is a closed matrix")
  local function closed(X)
    debug.getmetatable(X).__close(X)
    return X
  end

  for _, dt in ipairs{"float64", "float32"} do
    local o = {dtype = dt}
    it("names attention's mask or bias (" .. dt .. " run)", function()
      local Q = la.randn(2, 3, 1, o)
      for _, key in ipairs{"mask", "bias"} do
        for _, odt in ipairs{"float64", "float32"} do
          assert.error_matches(function()
            la.attention(Q, Q, Q, {[key] = closed(la.ones(2, 2, {dtype = odt}))})
          end, "linalg.attention: option '" .. key .. "' is a closed matrix")
        end
      end
    end)

    it("names multihead_attention's matrix options (" .. dt .. ")", function()
      local X, W = la.randn(2, 2, 1, o), la.eye(2, o)
      for _, key in ipairs{"kv", "mask", "bias", "bq", "bk", "bv", "bo"} do
        assert.error_matches(function()
          la.multihead_attention(X, W, W, W, W, 1, {[key] = closed(la.ones(2, 2, o))})
        end, "linalg.multihead_attention: option '" .. key .. "' is a closed matrix")
      end
    end)
  end
end)
