-- la.matmul(A, B, {trans_a = true, trans_b = true}): the product of A's or
-- B's transpose, each read in place (SciPy's dgemm(alpha, a, b, trans_a,
-- trans_b)); NumPy's X.T @ r, where X:t() * r copies X first. Known
-- answers from integer matrices (every product and sum exact in both
-- types), and the identities op(A) op(B) = A:t() * B etc.
local la = require "linalg"
-- the CPU has AVX-512F (kernels/gram.c runs; valgrind's CPU has not)
local AVX512 = la.config().simd_active == "avx512f"

-- X (k x m) with X(i, j) = f(i, j): its entries in column-major order, reshaped
local function build(k, m, f, o)
  local flat, n = {}, 0
  for j = 1, m do
    for i = 1, k do n = n + 1; flat[n] = f(i, j) end
  end
  return la.vector(flat, o):reshape(k, m)
end

describe("la.matmul with trans_a, trans_b", function()
  for _, dt in ipairs{"float64", "float32"} do
    local o = {dtype = dt}
    it("X^T r, X^T X and X X^T in place (" .. dt .. ")", function()
      -- X(i, j) = i + j (k = 20 rows, m = 140): (X^T 1)(j) = sum_i (i + j) = 210 + 20 j
      local X = build(20, 140, function(i, j) return i + j end, o)
      local y = X:t() * la.ones(20, 1, o)
      local r = la.matmul(X, la.ones(20, 1, o), {trans_a = true})
      assert.are.same({140, 1}, {r:shape()})
      assert.are.equal(dt, r.dtype)
      for j = 1, 140 do assert.are.equal(210 + 20 * j, r(j)) end
      assert.is_true(r == y)
      -- (X^T X)(a, b) = sum_i (i + a)(i + b) = 2870 + 210 (a + b) + 20 a b: syrk, symmetric
      local G = la.matmul(X, X, {trans_a = true})
      assert.are.same({140, 140}, {G:shape()})
      assert.is_true(G == G:t())
      assert.is_true(G == X:t() * X)
      for _, ab in ipairs{{1, 1}, {3, 140}, {140, 7}, {77, 78}} do
        local a, b = ab[1], ab[2]
        assert.are.equal(2870 + 210 * (a + b) + 20 * a * b, G(a, b))
      end
      -- X X^T (20 x 20: syrk from 20 rows)
      local H = la.matmul(X, X, {trans_b = true})
      assert.is_true(H == X * X:t())
      -- sum_j (a + j)(b + j), j = 1..140 = 140 a b + 9870 (a + b) + 924490
      assert.are.equal(140 * 2 * 5 + 9870 * 7 + 924490, H(2, 5))
    end)

    it("X^T X of a tall, thin X past the cache (syrk), exactly (" .. dt .. ")", function()
      -- X(i, j) = s(i) + j with s(i) = (i % 7) - 3, 60000 x 10 (4.8 MB, 2.4 in
      -- float32: past 2 MiB): (X^T X)(a, b) = sum s^2 + (a + b) sum s + k a b,
      -- the sums taken here in Lua (every number an integer under 2^24)
      local k = 60000
      local X = build(k, 10, function(i, j) return (i % 7) - 3 + j end, o)
      local G = la.matmul(X, X, {trans_a = true})
      assert.is_true(G == G:t())
      local s1, s2 = 0, 0
      for i = 1, k do local s = (i % 7) - 3; s1 = s1 + s; s2 = s2 + s * s end
      for _, ab in ipairs{{1, 1}, {2, 9}, {10, 10}, {7, 3}} do
        local a, b = ab[1], ab[2]
        assert.are.equal(s2 + (a + b) * s1 + k * a * b, G(a, b))
      end
      assert.is_true(G == la.matmul(X, X:copy(), {trans_a = true}))      -- a copy: syrk too
    end)

    it("a copy with the same bits is the same matrix: syrk, symmetric bit for bit (" .. dt .. ")", function()
      -- random entries (gemm's sums of X X^T need not be symmetric); la.inner
      -- of a matrix and its copy, or of one Lua table twice (two conversions)
      local X = la.randn(129, 16, 1):astype(dt)
      local t = X:totable()
      local Y = X:copy()
      for _, C in ipairs{la.inner(X, Y), la.matmul(X, Y, {trans_b = true}),
                         la.matmul(X:t(), Y:t():copy(), {trans_a = true}), la.inner(X, X)} do
        assert.are.same({129, 129}, {C:shape()})
        assert.are.equal(dt, C.dtype)
        assert.is_true(C == C:t())
        assert.is_true(C == la.inner(X, X))
      end
      local T = la.inner(t, t)                  -- tables: float64
      assert.are.equal("float64", T.dtype)
      assert.is_true(T == T:t())
      -- one entry's last bit changed, at the end of the copy: the general
      -- product, still the right values
      local v = Y(129, 16)
      Y:set(129, 16, v + (v == 0 and 1 or v * (dt == "float32" and 2 ^ -23 or 2 ^ -52)))
      local D, E = la.inner(X, Y), X * Y:t()
      assert.is_true(la.allclose(D, E, dt == "float32" and 1e-5 or 1e-12, 1e-6))
      assert.are_not.equal(D(1, 129), D(129, 1) + 1)        -- numbers, not an error
    end)

    it("A^T B^T equals A:t() * B:t(), and views keep their leading dimension (" .. dt .. ")", function()
      local A = build(30, 20, function(i, j) return (i * 7 + j * 3) % 11 - 5 end, o)
      local B = build(40, 30, function(i, j) return (i * 5 + j) % 9 - 4 end, o)
      assert.is_true(la.matmul(A, B, {trans_a = true, trans_b = true}) == A:t() * B:t())
      assert.is_true(la.matmul(A, A:t(), {trans_a = true, trans_b = true}) == A:t() * A)
      local V = B:sub(3, 32, 2, 21)                                  -- 30 x 20, ld 40
      assert.is_true(la.matmul(V, A, {trans_a = true}) == V:t() * A)
      assert.is_true(la.matmul(V, V, {trans_a = true}) == V:t() * V)
      assert.is_true(la.matmul(A, V, {trans_b = true}) == A * V:t())
      assert.is_true(la.matmul(A, B:t(), {trans_a = true, trans_b = false}) == A:t() * B:t())
    end)
  end

  it("X^T X of a thin X (up to 32 columns: kernels/gram.c's tiles) within a sum's bound, symmetric bit for bit", function()
    -- every width 1..33 (past 32: syrk), rows around the vector widths and
    -- the 256-row pass, X a block of a larger matrix; the reference sums in
    -- Lua's doubles, each entry within (k + 2) eps sum |x_ri x_rj| (float32
    -- up to 32 columns with AVX-512: a double's sum rounded once; without,
    -- ssyrk's float sums)
    local P = la.randn(1100, 40, 7)
    for _, dt in ipairs{"float64", "float32"} do
      local eps = dt == "float32" and 2 ^ -24 or 2 ^ -53
      for _, k in ipairs{16, 17, 23, 255, 257, 1031} do
        for n = 1, 33 do
          local X = P:astype(dt):sub(3, k + 2, 2, n + 1)
          local G = la.matmul(X, X, {trans_a = true})
          assert.are.same({n, n}, {G:shape()})
          assert.are.equal(dt, G.dtype)
          assert.is_true(G == G:t(), dt .. " " .. k .. " x " .. n .. ": not symmetric")
          for a = 1, n, (n > 8 and 3 or 1) do
            for b = a, n, (n > 8 and 2 or 1) do
              local s, sa = 0, 0
              for r = 1, k do
                local t = X(r, a) * X(r, b)
                s, sa = s + t, sa + math.abs(t)
              end
              local e = math.abs(G(a, b) - s)
              local tol = (dt == "float32" and n <= 32 and AVX512) and 2 ^ -24 * math.abs(s) + (k + 2) * 2 ^ -53 * sa
                          or (k + 2) * eps * sa * 2
              assert(e <= tol,
                string.format("%s %d x %d: G(%d, %d) = %.17g, sum %.17g", dt, k, n, a, b, G(a, b), s))
            end
          end
        end
      end
    end
  end)

  it("X:t() * X of a thin X (a copy of the transpose) is matmul's X^T X bit for bit; a near miss is not", function()
    for _, dt in ipairs{"float64", "float32"} do
      for _, kn in ipairs{{1000, 10}, {200, 32}, {4096, 1}, {300, 17}} do
        local X = la.randn(kn[1], kn[2], 5):astype(dt)
        local Xt = X:t()
        local G = Xt * X
        assert.is_true(G == G:t())
        assert.is_true(G == la.matmul(X, X, {trans_a = true}), dt .. " " .. kn[1] .. " x " .. kn[2])
        -- Xt with its last entry's last bit changed: the general product
        local v = Xt(kn[2], kn[1])
        Xt:set(kn[2], kn[1], v + (v == 0 and 1 or v * (dt == "float32" and 2 ^ -23 or 2 ^ -52)))
        local H = Xt * X
        assert.is_true(la.allclose(H, G, dt == "float32" and 1e-5 or 1e-12, 1e-5))
        local R = la.matmul(Xt:t(), X, {trans_a = true})                 -- gemm, in place
        assert.is_true(la.allclose(H, R, dt == "float32" and 1e-5 or 1e-12, 1e-5))
      end
    end
  end)

  it("X:t() * X and X * X:t() are symmetric bit for bit at every size, as NumPy's X.T @ X (syrk)", function()
    -- NumPy 1.24's cblas_matrixproduct takes syrk whenever both operands
    -- are one array, one of them transposed; gemm's X^T X of 100 x 50 or
    -- 1000 x 100, and its X X^T of 20 x 50, were not symmetric here
    for _, dt in ipairs{"float64", "float32"} do
      for _, kn in ipairs{{3, 2}, {20, 10}, {100, 4}, {5, 40}, {100, 33}, {100, 50}, {50, 100},
                          {8, 200}, {300, 127}, {1000, 100}, {64, 64}, {1, 70}} do
        local X = la.randn(kn[1], kn[2], 7):astype(dt)
        local Xt = X:t()
        local G, H = Xt * X, X * Xt
        local what = dt .. " " .. kn[1] .. " x " .. kn[2]
        assert.is_true(G == G:t(), what .. ": X^T X")
        assert.is_true(H == H:t(), what .. ": X X^T")
        assert.is_true(G == la.matmul(X, X, {trans_a = true}), what .. ": matmul's X^T X")
        -- against gemm: X with its first entry one ulp off is not Xt's transpose
        local Y = X:copy()
        local v = Y(1, 1)
        Y:set(1, 1, v + (v == 0 and 1e-30 or v * (dt == "float32" and 2 ^ -23 or 2 ^ -52)))
        assert.is_true(la.allclose(G, Xt * Y, dt == "float32" and 1e-5 or 1e-12, dt == "float32" and 1e-4 or 1e-12),
          what .. ": against gemm")
      end
    end
  end)

  it("X^T X of a thin X with NaN and Inf: rows and columns they touch, as BLAS's sums", function()
    -- column 2 holds a NaN, column 5 an Inf (other entries finite and nonzero
    -- where the Inf sits): NumPy's X.T @ X gives NaN in row and column 2,
    -- Inf at (5, 5), NaN or +-Inf elsewhere in row 5, finite numbers otherwise
    for _, dt in ipairs{"float64", "float32"} do
      local X = la.randn(300, 7, 3):astype(dt) + 5
      X:set(100, 2, 0 / 0)
      X:set(257, 5, math.huge)
      local G = la.matmul(X, X, {trans_a = true})
      for a = 1, 7 do
        for b = 1, 7 do
          local g = G(a, b)
          if a == 2 or b == 2 then assert.is_true(g ~= g, dt .. " NaN at " .. a .. "," .. b)
          elseif a == 5 and b == 5 then assert.are.equal(math.huge, g)
          elseif a == 5 or b == 5 then assert.is_true(math.abs(g) == math.huge, dt .. " Inf at " .. a .. "," .. b)
          else assert.is_true(math.abs(g) < math.huge, dt .. " finite at " .. a .. "," .. b) end
        end
      end
    end
  end)

  it("takes the general product for two views from one entry with other shapes", function()
    -- one pointer and leading dimension, one side transposed, yet a 60 x 50
    -- and a 50 x 60 result: syrk would write 60 x 60 (it overran the result)
    local X = la.randn(20, 60, 21)
    local C = la.matmul(X, X:sub(1, 20, 1, 50), {trans_a = true})
    assert.are.same({60, 50}, {C:shape()})
    assert.is_true(la.allclose(C, X:t() * X:sub(1, 20, 1, 50), 1e-12, 1e-12))
    local Y = la.randn(60, 20, 22)
    local V = Y:sub(1, 50, 1, 20)
    local D = la.matmul(V, Y, {trans_b = true})
    assert.are.same({50, 60}, {D:shape()})
    assert.is_true(la.allclose(D, V * Y:t(), 1e-12, 1e-12))
  end)

  it("takes tables and mixed types as A * B does, and empty shapes", function()
    local r = la.matmul({{1, 2}, {3, 4}}, {{1}, {1}}, {trans_a = true})
    assert.are.same({4, 6}, r:totable())
    local m = la.matmul(la.matrix({{1, 2}, {3, 4}}, {dtype = "float32"}), la.matrix{{1}, {1}}, {trans_a = true})
    assert.are.equal("float64", m.dtype)
    assert.are.same({4, 6}, m:totable())
    assert.are.same({3, 2}, {la.matmul(la.zeros(0, 3), la.zeros(0, 2), {trans_a = true}):shape()})
    assert.are.equal(0, la.max(la.abs(la.matmul(la.zeros(0, 3), la.zeros(0, 2), {trans_a = true}))))
    assert.are.same({0, 0}, {la.matmul(la.zeros(2, 0), la.zeros(0, 2), {trans_a = true, trans_b = true}):shape()})
    -- square and empty, two matrices (nothing of either is read: valgrind
    -- saw a read past a 0 x 5 matrix's storage)
    for _, dt in ipairs{"float64", "float32"} do
      local Z = la.matmul(la.zeros(0, 5, {dtype = dt}), la.zeros(0, 5, {dtype = dt}), {trans_a = true})
      assert.are.same({5, 5}, {Z:shape()})
      assert.are.equal(0, la.max(la.abs(Z)))
      assert.are.same({0, 0}, {la.matmul(la.zeros(5, 0, {dtype = dt}), la.zeros(5, 0, {dtype = dt}),
                                         {trans_a = true}):shape()})
    end
  end)

  it("names the function and the problem", function()
    local X, r = la.ones(3, 2), la.ones(3, 1)
    assert.error_matches(function() la.matmul(X, r, {trans_b = true}) end,
      "linalg.matmul: 3x2 times 3x1 transposed (inner 2 ~= 1)", 1, true)
    assert.error_matches(function() la.matmul(X, X) end, "linalg.matmul: 3x2 times 3x2 (inner 2 ~= 3)", 1, true)
    assert.error_matches(function() la.matmul(X, r, {trans = true}) end,
      "unknown option 'trans' (did you mean 'trans_a'?)", 1, true)
    assert.error_matches(function() la.matmul(X, r, {trans_a = 1}) end,
      "option 'trans_a' must be true or false, got number", 1, true)
    assert.error_matches(function() la.matmul(X, r, 5) end, "bad argument #3", 1, true)
    assert.error_matches(function() la.matmul(X, r, {}, 4) end, "linalg.matmul", 1, true)
  end)
end)
