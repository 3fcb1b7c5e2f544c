-- Large results written past the caches (src/kernels/stream.c): an
-- elementwise result of 4 MiB and more with two large operands, or one
-- into a block out of the caches, is computed into a small buffer and
-- streamed out (a comparison's bool result too: the operands' size decides). The arithmetic is the same, so the
-- bits must equal those of the column-by-column path (the same operands as
-- views whose leading dimension exceeds their rows), including the tail
-- shorter than one 4 KiB piece, in float64 and float32, and for NaN, Inf
-- and -0.0 among the inputs.
local la = require "linalg"

local NAN, INF = 0 / 0, math.huge

-- a view of m x n (leading dimension m + 1) and its packed copy
local function pair(m, n, seed, dtype)
  local P = la.randn(m + 1, n, seed, {dtype = dtype})
  P:set(1, 1, NAN); P:set(2, 1, INF); P:set(3, 1, -INF); P:set(4, 1, -0.0); P:set(m, n, 0.0)
  P:set(m - 2, n, NAN); P:set(m - 3, n, INF); P:set(m - 4, n, -0.0)   -- in every tail
  local V = P:sub(1, m, 1, n)
  return V, V:copy()
end

-- A and B equal bit for bit (NaN where NaN, the sign of zero: 1/x)
local function same(A, B)
  assert.same({A:shape()}, {B:shape()})
  assert.equal(A.dtype, B.dtype)
  local nan = la.isnan(A)
  assert.is_true(la.all(la.eq(nan, la.isnan(B))))
  assert.is_true(la.all(la.where(nan, 1, la.eq(A, B))))
  assert.is_true(la.all(la.where(nan, 1, la.eq(1 / A, 1 / B))))
end

describe("streamed large results", function()
  for _, dt in ipairs{"float64", "float32"} do
    -- 1001 x 1000 float64 (8 MB) and 1001 x 1100 float32 (4.4 MB): past
    -- 4 MiB, with a tail of 40 and 300 entries after the last whole piece
    -- of 4 KiB (comparisons, 4096 bool bytes a piece: 1576 and 3372)
    local m, n = 1001, dt == "float64" and 1000 or 1100
    it(dt .. ": + - .* ./ maximum minimum, the comparisons, where, clip equal the column path", function()
      local Va, A = pair(m, n, 1, dt)
      local Vb, B = pair(m, n, 2, dt)
      local Vc, C = pair(m, n, 3, dt)
      same(A + B, Va + Vb)
      same(A - B, Va - Vb)
      same(la.emul(A, B), la.emul(Va, Vb))
      same(la.ediv(A, B), la.ediv(Va, Vb))
      same(la.maximum(A, B), la.maximum(Va, Vb))
      same(la.minimum(A, B), la.minimum(Va, Vb))
      same(la.where(A, B, C), la.where(Va, Vb, Vc))
      same(la.clip(A, B, C), la.clip(Va, Vb, Vc))
      -- comparisons: 1 byte a result after 8 or 4 bytes an operand, streamed
      -- by the operands' size; the bools of the column path
      for _, op in ipairs{"lt", "le", "gt", "ge", "eq", "ne"} do
        local R, W = la[op](A, B), la[op](Va, Vb)
        assert.equal("bool", R.dtype)
        assert.is_true(la.all(la.eq(R, W)), op)
        assert.equal(la.count_nonzero(W), la.count_nonzero(R), op)
      end
      -- entry by entry at a few places, tail included
      local S = A + B
      for _, k in ipairs{5, 511, 512, 513, m * n - 40, m * n - 1, m * n} do
        local i, j = (k - 1) % m + 1, math.floor((k - 1) / m) + 1
        local want = A:get(i, j) + B:get(i, j)
        if dt == "float32" then want = la.matrix({{want}}, {dtype = "float32"}):get(1, 1) end
        assert.equal(want, S:get(i, j))
      end
    end)
    -- one large operand streams where the result's block is cold: other
    -- large blocks were handed out since it was last written, as when
    -- results are kept three at a time (src/helpers.c's handout); the
    -- place-independence of libmvec's functions is r3_loops_elem_spec's
    it(dt .. ": abs, floor, ceil, round, trunc, sign, -A, A * 2, A + 1, 2 - A, 1 / A into cold blocks equal the column path", function()
      local Va, A = pair(m, n, 5, dt)
      local fs = {
        function(X) return la.abs(X) end, function(X) return la.floor(X) end,
        function(X) return la.ceil(X) end, function(X) return la.round(X) end,
        function(X) return la.trunc(X) end, function(X) return la.sign(X) end,
        function(X) return -X end,
        function(X) return X * 2 end, function(X) return X + 1 end,
        function(X) return 2 - X end, function(X) return 1 / X end,
      }
      local keep = {}
      for round = 1, 3 do
        for k, f in ipairs(fs) do
          local R = f(A)
          keep[(round * #fs + k) % 3 + 1] = R
          same(R, f(Va))
        end
      end
    end)
    -- operands that overlap (one matrix read twice) stream only into a
    -- cold block: the same bits as the column path either way
    it(dt .. ": A + A, A .* A and diff(A, 1, 2) of one large matrix equal the column path", function()
      local Va, A = pair(m, n, 4, dt)
      same(A + A, Va + Va)
      same(la.emul(A, A), la.emul(Va, Va))
      same(la.diff(A, 1, 2), la.diff(Va, 1, 2))
      same(la.diff(A, 1, 2), A:sub(1, m, 2, n) - A:sub(1, m, 1, n - 1))
    end)
  end
end)

-- A float64 and a float32 operand of one shape: computed in float64
-- (NumPy's promotion) without a widened copy of the float32 one, streamed
-- when large, column by column in views, a row gathered: every path the
-- bits of the widened operand's (pow takes the widened copy: valgrind's
-- AVX2 runs libmvec's pow, whose bits follow the loop's bounds)
describe("a float64 and a float32 operand", function()
  local m, n = 1001, 1000                  -- 8 MB result: streamed, tail of 40
  local Vd, D = pair(m, n, 5, "float64")
  local Vs, S = pair(m, n, 6, "float32")
  local W = S:astype("float64")
  it("+ - .* ./ and pow in either order equal the widened operand's, large and in views", function()
    for _, c in ipairs{{D, S, W}, {Vd, Vs, W}, {D:sub(1, 37, 1, 3), S:sub(1, 37, 1, 3), W:sub(1, 37, 1, 3)},
                       -- a row: entries ld apart (the reference packed: float64 pow of a
                       -- strided row runs another loop, and libmvec's bits follow it)
                       {D:row(3), S:row(3), W:row(3):copy()}} do
      local d, s, w = c[1], c[2], c[3]
      local p = la.abs(d) + 0.5
      same(d + s, d + w); same(s + d, w + d)
      same(d - s, d - w); same(s - d, w - d)
      same(la.emul(d, s), la.emul(d, w)); same(la.emul(s, d), la.emul(w, d))
      same(la.ediv(d, s), la.ediv(d, w)); same(la.ediv(s, d), la.ediv(w, d))
      same(la.pow(p, s), la.pow(p, w)); same(la.pow(la.abs(s), p), la.pow(la.abs(w), p))
      assert.equal("float64", (s + d).dtype)
    end
    -- entry by entry at a few places, tail included (values a user checks by hand)
    local R = S - D
    for _, k in ipairs{1, 512, 513, m * n - 1, m * n} do
      local i, j = (k - 1) % m + 1, math.floor((k - 1) / m) + 1
      local want = S:get(i, j) - D:get(i, j)
      local got = R:get(i, j)
      assert.is_true(want == got or (want ~= want and got ~= got), k)
    end
  end)
end)
