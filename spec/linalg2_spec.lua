-- Linear algebra, round 2: slogdet, lu_factor / lu_solve, cho_factor /
-- cho_solve, solve's trans, multi_dot, qr's modes "r" and "raw", round to
-- decimals, trunc / fix, cummin / cummax, diff, ptp, and a Lua number read
-- as a 1 x 1 matrix by every function that takes a matrix.
-- Reference values: NumPy 1.24.2 and SciPy 1.10.1 (Debian's python3-numpy and
-- python3-scipy under /usr/bin/python3), printed with .tolist(); the call is
-- in the comment beside each value. Written for Lua 5.1 to 5.4.
local la = require "linalg"

local unpack = table.unpack or unpack
local function pack(...) return {n = select("#", ...), ...} end
local inf, nan = math.huge, 0 / 0

-- entries equal, NaN equal to NaN
local function same(want, got, what)
  if not la.is_matrix(want) then want = la.matrix(want) end
  assert(la.is_matrix(got), (what or "") .. ": a matrix expected, got " .. type(got))
  assert.are.same({want:shape()}, {got:shape()}, what)
  local m, n = want:shape()
  for i = 1, m do
    for j = 1, n do
      local x, y = want(i, j), got(i, j)
      assert(x == y or (x ~= x and y ~= y),
             string.format("%s (%d,%d): %s, expected %s", what or "", i, j, tostring(y), tostring(x)))
    end
  end
end

local A = la.matrix{{2, 1, 1}, {4, -6, 0}, {-2, 7, 2}}
local S = la.matrix{{4, 2, 0}, {2, 5, 1}, {0, 1, 3}}
local b = la.vector{1, 2, 3}

describe("linalg.slogdet", function()
  it("gives NumPy's sign and log |det|", function()
    local s, l = la.slogdet(A)
    assert.are.equal(-1, s)                          -- np.linalg.slogdet(A): (-1.0, 2.772588722239781)
    assert.near(2.772588722239781, l, 1e-15)
    s, l = la.slogdet(la.matrix{{1e200, 0}, {0, 1e200}})
    assert.are.equal(1, s)                           -- (1.0, 921.0340371976183); det overflows to inf
    assert.near(921.0340371976183, l, 1e-15)
    s, l = la.slogdet(A:astype("float32"))
    assert.are.equal(-1, s)                          -- float32: (-1.0, 2.7725887)
    assert.near(2.7725887, l, 1e-6)
  end)

  it("gives 0, -inf for a singular matrix and 1, 0 for 0 x 0", function()
    assert.are.same({0, -inf}, {la.slogdet(la.zeros(2, 2))})     -- np.linalg.slogdet(np.zeros((2, 2)))
    assert.are.same({1, 0}, {la.slogdet(la.zeros(0, 0))})        -- np.linalg.slogdet(np.zeros((0, 0)))
    assert.are.same({-1, math.log(3)}, {la.slogdet(-3)})
  end)

  it("refuses what det refuses", function()
    assert.error_matches(function() la.slogdet(la.ones(2, 3)) end, "linalg.slogdet: matrix must be square, got 2x3")
    assert.error_matches(function() la.slogdet({{1, nan}, {0, 1}}) end, "linalg.slogdet: A(1,2) is NaN")
    local s, l = la.slogdet({{1, nan}, {0, 1}}, {check_finite = false})
    assert.are.equal(1, s)                            -- np.linalg.slogdet([[1, nan], [0, 1]]): (1.0, nan)
    assert.is_true(l ~= l)
    assert.error_matches(function() la.slogdet(A, {tol = 1}) end, "linalg.slogdet: unknown option 'tol'")
  end)
end)

describe("linalg.lu_factor and linalg.lu_solve", function()
  it("keep SciPy's (lu, piv) with 1-based pivots", function()
    local F = la.lu_factor(A)
    -- scipy.linalg.lu_factor(A): lu, piv (0-based [1, 1, 2])
    same({{4, -6, 0}, {0.5, 4, 1}, {-0.5, 1, 1}}, F.lu, "lu")
    same({2, 2, 3}, F.piv, "piv")
    -- lu_solve((lu, piv), b), and trans=1
    assert.near({-1, -1, 4}, la.lu_solve(F, b), 1e-15)
    assert.near({-1.25, 1.9375, 2.125}, la.lu_solve(F, b, {trans = true}), 1e-15)
    assert.near({{-1, -2}, {-1, -2}, {4, 8}}, la.lu_solve(F, la.hstack{b, 2 * b}), 1e-15)
    assert.near({{-1, -1, 4}}, la.lu_solve(F, b.T).T, 1e-15)        -- a row b is a vector
  end)

  it("factors a rectangular matrix as SciPy does", function()
    local F = la.lu_factor({{1, 2}, {3, 4}, {5, 6}})
    -- scipy.linalg.lu_factor(np.array([[1., 2], [3, 4], [5, 6]]))
    assert.near({{5, 6}, {0.2, 0.7999999999999998}, {0.6000000000000001, 0.49999999999999944}}, F.lu, 1e-15)
    same({3, 3}, F.piv, "piv")
    assert.error_matches(function() la.lu_solve(F, {1, 2}) end, "linalg.lu_solve: F.lu must be square, got 3x2")
  end)

  it("computes in float32 for float32 input", function()
    local F = la.lu_factor(A:astype("float32"))
    assert.are.equal("float32", F.lu.dtype)
    assert.are.equal("float64", F.piv.dtype)
    local x = la.lu_solve(F, b:astype("float32"))
    assert.are.equal("float32", x.dtype)
    assert.near({-1, -1, 4}, x, 1e-6)
    assert.are.equal("float64", la.lu_solve(F, b).dtype)     -- a float64 b: float64
  end)

  it("refuses singular factors and bad F with solve's words", function()
    local F = la.lu_factor({{1, 2}, {2, 4}})                   -- factors (U has a zero pivot)
    assert.error_matches(function() la.lu_solve(F, {1, 2}) end, "linalg.lu_solve: matrix is singular (U(2,2) = 0)")
    F = la.lu_factor(A)
    assert.error_matches(function() la.lu_solve(F, {1, 2}) end, "linalg.lu_solve: F.lu is 3x3 but b has 2 rows")
    assert.error_matches(function() la.lu_solve(A, b) end,
                         "linalg.lu_solve: bad argument #1 (a factorization from lu_factor expected, got linalg.matrix)")
    assert.error_matches(function() la.lu_solve({lu = F.lu}, b) end, "linalg.lu_solve: F.piv is missing")
    assert.error_matches(function() la.lu_solve({lu = F.lu, piv = {1, 4, 3}}, b) end,
                         "linalg.lu_solve: F.piv(2) is not a row index in 1..3")
    assert.error_matches(function() la.lu_solve({lu = F.lu, piv = {1, 2}}, b) end,
                         "linalg.lu_solve: F.piv is 2x1, expected 3 pivots")
    assert.error_matches(function() la.lu_solve({lu = "x", piv = {1, 2, 3}}, b) end,
                         "linalg.lu_solve: F.lu is string, expected a matrix")
    assert.error_matches(function() la.lu_solve(F, {1, nan, 3}) end, "linalg.lu_solve: b(2,1) is NaN")
    assert.error_matches(function() la.lu_solve(F, b, {transpose = true}) end,
                         "linalg.lu_solve: unknown option 'transpose'")
    assert.error_matches(function() la.lu_factor({{1, inf}}) end, "linalg.lu_factor: A(1,2) is Inf")
    for _, bad in ipairs{"x", print, io.stdout, 5} do
      assert.error_matches(function() la.lu_solve(bad, b) end,
                           "linalg.lu_solve: bad argument #1 (a factorization from lu_factor expected, got")
      assert.error_matches(function() la.cho_solve(bad, b) end,
                           "linalg.cho_solve: bad argument #1 (a factorization from cho_factor expected, got")
    end
    assert.error_matches(function() la.lu_solve(F, "x") end, "linalg.lu_solve: bad argument #2 (matrix expected, got string)")
    assert.error_matches(function() la.lu_solve(F) end, "linalg.lu_solve: bad argument #2 (matrix expected, got nil)")
  end)
end)

describe("linalg.cho_factor and linalg.cho_solve", function()
  it("keep SciPy's (c, lower), upper by default", function()
    local F = la.cho_factor(S)
    -- np.triu(scipy.linalg.cho_factor(S)[0]); the other triangle is zero here
    assert.near({{2, 1, 0}, {0, 2, 0.5}, {0, 0, 1.6583123951777}}, F.c, 1e-14)
    assert.is_false(F.lower)
    -- scipy.linalg.cho_solve((c, False), b)
    assert.near({0.18181818181818182, 0.13636363636363635, 0.9545454545454546}, la.cho_solve(F, b), 1e-15)
    F = la.cho_factor(S, {lower = true})
    assert.near({{2, 0, 0}, {1, 2, 0}, {0, 0.5, 1.6583123951777}}, F.c, 1e-14)
    assert.is_true(F.lower)
    assert.near({0.18181818181818182, 0.13636363636363635, 0.9545454545454546}, la.cho_solve(F, b), 1e-15)
    assert.near(la.solve(S, la.eye(3)), la.cho_solve(F, la.eye(3)), 1e-15)
    local F32 = la.cho_factor(S:astype("float32"))
    assert.are.equal("float32", la.cho_solve(F32, {1, 2, 3}).dtype)
  end)

  it("refuses what cholesky refuses, and bad factors", function()
    assert.error_matches(function() la.cho_factor({{1, 2}, {2, 1}}) end,
                         "linalg.cho_factor: matrix is not positive definite (the leading minor of order 2 is not positive)")
    assert.error_matches(function() la.cho_factor({{1, 2}, {0, 1}}) end, "linalg.cho_factor: matrix is not symmetric")
    assert.error_matches(function() la.cho_solve({c = S}, b) end,
                         "linalg.cho_solve: F.lower is nil, expected a boolean")
    assert.error_matches(function() la.cho_solve({c = la.zeros(3, 3), lower = true}, b) end,
                         "linalg.cho_solve: F.c(1,1) = 0: not a Cholesky factor")
    assert.error_matches(function() la.cho_solve(la.cho_factor(S), {1, 2}) end,
                         "linalg.cho_solve: F.c is 3x3 but b has 2 rows")
    -- SciPy 1.10's cho_solve checks c as well as b (asarray_chkfinite); a NaN
    -- in F.c gave NaN; check_finite = false lets it through, as SciPy's
    local G = la.cho_factor(S)
    G.c:set(2, 3, 0 / 0)
    assert.error_matches(function() la.cho_solve(G, b) end, "linalg.cho_solve: F.c(2,3) is NaN", 1, true)
    local x = la.cho_solve(G, b, {check_finite = false})
    assert.is_true(x(1) ~= x(1))
  end)
end)

describe("linalg.solve with trans", function()
  it("solves A^T x = b", function()
    -- scipy.linalg.solve(A, b, transposed=True)
    assert.near({-1.25, 1.9375, 2.125}, la.solve(A, b, {trans = true}), 1e-15)
    assert.near(la.solve(A.T, b), la.solve(A, b, {trans = true}), 1e-15)
    assert.near({-1.25, 1.9375, 2.125}, la.solve(A:astype("float32"), b:astype("float32"), {trans = true}), 1e-6)
    assert.error_matches(function() la.solve({{1, 2}, {2, 4}}, {1, 2}, {trans = true}) end,
                         "linalg.solve: matrix is singular (U(2,2) = 0)")
  end)

  it("transposes triangular solves and accepts it for symmetric ones", function()
    local L = la.matrix{{7, 0, 0}, {4, -1, 0}, {-2, 7, 7}}
    -- scipy.linalg.solve_triangular(L, b, lower=True, trans='T')
    assert.near({-0.30612244897959184, 1, 0.42857142857142855}, la.solve(L, b, {assume = "lower", trans = true}), 1e-15)
    assert.near(la.solve(L.T, b), la.solve(L.T, b, {assume = "upper", trans = false}), 1e-15)
    assert.near(la.solve(L, b), la.solve(L.T, b, {assume = "upper", trans = true}), 1e-15)
    assert.near(la.solve(S, b), la.solve(S, b, {assume = "pos", trans = true}), 1e-15)
    assert.near(la.solve(S, b), la.solve(S, b, {assume = "sym", trans = true}), 1e-15)
    assert.error_matches(function() la.solve(S, b, {trans = 1}) end, "linalg.solve: option 'trans'")
  end)
end)

describe("linalg.multi_dot", function()
  local X1 = la.matrix{{1, 2}, {3, 4}, {5, 6}}
  local X2 = la.reshape(la.arange(1, 9), 4, 2).T / 3          -- np.arange(1., 9).reshape(2, 4) / 3
  local X3 = la.vector{-1.5, -0.5, 0.5, 1.5}

  it("multiplies in NumPy's order with NumPy's values", function()
    -- np.linalg.multi_dot([X1, X2, X3])
    assert.near({5, 11.666666666666668, 18.333333333333332}, la.multi_dot{X1, X2, X3}, 1e-15)
    assert.near(X1 * X2, la.multi_dot{X1, X2}, 0)
    assert.near(la.matrix{{5}, {11.666666666666668}, {18.333333333333332}}, la.multi_dot{X1, X2, X3:t():t()}, 1e-15)
  end)

  it("reads a first column as NumPy's 1-D first operand", function()
    local v, w = la.vector{1, 2, 3}, la.vector{1, -1, 2}
    assert.near({{8}}, la.multi_dot{v, A, w}, 1e-15)               -- np.linalg.multi_dot([v, A, w]): 8.0
    assert.near({{34, -7, 18}}, la.multi_dot{v, A, A}, 1e-15)      -- multi_dot([v, A, A])
    assert.near(la.outer(v, w), la.multi_dot{v, w.T}, 0)           -- a product as written stays
    assert.near({{6}}, la.multi_dot{2, {{3}}}, 0)                  -- numbers are 1 x 1
  end)

  it("takes the cheapest order (the same product, by the chain program)", function()
    -- (10x1000) (1000x2) (2x500): (AB)C costs 30000, A(BC) 5500000
    local P, Q, R = la.rand(10, 1000, 1), la.rand(1000, 2, 2), la.rand(2, 500, 3)
    assert.near((P * Q) * R, la.multi_dot{P, Q, R}, 1e-12)
    local T = {}
    for i = 1, 6 do T[i] = la.rand(i + 1, i + 2, i) end
    local want = T[1]
    for i = 2, 6 do want = want * T[i] end
    assert.near(want, la.multi_dot(T), 1e-12)
    local T32 = {}
    for i = 1, 6 do T32[i] = T[i]:astype("float32") end
    assert.are.equal("float32", la.multi_dot(T32).dtype)
    assert.near(want, la.multi_dot(T32), 1e-5)
    assert.are.same({3, 4}, {la.multi_dot{la.zeros(3, 0), la.zeros(0, 2), la.ones(2, 4)}:shape()})
  end)

  it("names the operands that do not chain", function()
    assert.error_matches(function() la.multi_dot{X1, X3} end,
                         "linalg.multi_dot: operand 1 is 3x2 but operand 2 is 4x1 (inner 2 ~= 4)")
    assert.error_matches(function() la.multi_dot{X1} end, "linalg.multi_dot: needs at least two matrices, got 1")
    local many = {}
    for i = 1, 10001 do many[i] = 1 end
    assert.error_matches(function() la.multi_dot(many) end, "linalg.multi_dot: too many matrices (more than 10000)")
    assert.error_matches(function() la.multi_dot{X1, "x"} end, "linalg.multi_dot: item 2 is not a matrix (got string)")
    assert.error_matches(function() la.multi_dot(X1, X2) end, "linalg.multi_dot: bad argument #2 (multi_dot takes at most 1 argument)")
  end)
end)

describe("linalg.qr modes r and raw", function()
  it("gives R alone (min(m, n) x n) for mode r", function()
    -- np.linalg.qr(A, mode='r')
    assert.near({{-4.898979485566356, 7.348469228349536, 0.408248290463863},
                 {0, 5.656854249492378, 2.1213203435596433}, {0, 0, 0.5773502691896251}},
                la.qr(A, {mode = "r"}), 1e-14)
    -- np.linalg.qr(np.array([[1., 3, 5], [2, 4, 6]]), mode='r')
    assert.near({{-2.23606797749979, -4.919349550499537, -7.602631123499284},
                 {0, -0.8944271909999149, -1.7888543819998306}}, la.qr({{1, 3, 5}, {2, 4, 6}}, {mode = "r"}), 1e-14)
    assert.are.equal(1, select("#", la.qr(A, {mode = "r"})))
    local R, perm = la.qr(A, {mode = "r", pivoting = true})
    local _, R2, perm2 = la.qr(A, {pivoting = true})
    assert.near(R2, R, 0)
    assert.are.same(perm2, perm)
  end)

  it("gives geqrf's H (column-major: NumPy's h transposed) and tau for mode raw", function()
    local H, tau = la.qr(A, {mode = "raw"})
    -- h, tau = np.linalg.qr(A, mode='raw'); h.T.tolist(), tau.tolist()
    assert.near({{-4.898979485566356, 7.348469228349536, 0.408248290463863},
                 {0.5797958971132713, 5.656854249492378, 2.1213203435596433},
                 {-0.28989794855663564, -0.6468865743941349, 0.5773502691896251}}, H, 1e-14)
    assert.near({1.4082482904638631, 1.4099776105529318, 0}, tau, 1e-14)
    H, tau = la.qr({{1, 2}, {3, 4}, {5, 6}}, {mode = "raw"})
    assert.near({{-5.916079783099616, -7.437357441610946}, {0.4337717455676132, 0.828078671210825},
                 {0.7229529092793553, 0.8926238280228976}}, H, 1e-14)
    assert.near({1.1690308509457032, 1.1131040011646904}, tau, 1e-14)
    assert.are.equal("float32", la.qr(A:astype("float32"), {mode = "raw"}).dtype)
    assert.error_matches(function() la.qr(A, {mode = "economic"}) end, "linalg.qr: option 'mode'")
  end)
end)

describe("linalg.round, trunc and fix", function()
  it("rounds half to even to decimals by NumPy's steps", function()
    assert.are.equal(0.12, la.round(0.125, 2))                     -- np.round(0.125, 2)
    -- np.round([0.125, 0.135, 2.675, -1.5, 2.5, 1234.5678, -0.5], 2)
    same({0.12, 0.14, 2.68, -1.5, 2.5, 1234.57, -0.5}, la.round(la.vector{0.125, 0.135, 2.675, -1.5, 2.5, 1234.5678, -0.5}, 2))
    -- np.round([1234.5678, 1250., 1350, -1250], -2)
    same({1200, 1200, 1400, -1200}, la.round({1234.5678, 1250, 1350, -1250}, -2))
    same({2, 2, -0.0, 4}, la.round({1.5, 2.5, -0.5, 3.5}))         -- no decimals: rint
    -- np.round(np.array([0.125, 0.135, 2.675], dtype=np.float32), 2): float32 steps
    local r = la.round(la.vector({0.125, 0.135, 2.675}, {dtype = "float32"}), 2)
    assert.are.equal("float32", r.dtype)
    same({0.11999999731779099, 0.14000000059604645, 2.680000066757202}, r)
    -- np.round([1e300, 123.456], 300), np.round(1.5, 400) (NaN: 10^400 is inf)
    same({inf, 123.45599999999999}, la.round({1e300, 123.456}, 300))
    assert.is_true(la.round(1.5, 400) ~= la.round(1.5, 400))
    assert.are.equal(123.456, la.round(123.456, 20))
    assert.error_matches(function() la.round(1.5, 0.5) end, "linalg.round: bad argument #2 (integer expected, got 0.5)")
    assert.error_matches(function() la.round(1.5, 2, 3) end, "linalg.round: bad argument #3 (round takes at most 2 arguments)")
  end)

  it("truncates toward zero (fix is Octave's name)", function()
    same({-2, 2, -0.0, inf}, la.trunc({-2.7, 2.7, -0.5, inf}))    -- np.trunc
    same({-2, 2, -0.0, inf}, la.fix({-2.7, 2.7, -0.5, inf}))
    assert.are.equal(-2, la.trunc(-2.7))
    assert.are.equal("float32", la.fix(la.vector({1.5}, {dtype = "float32"})).dtype)
    assert.error_matches(function() la.fix(1, 2) end, "linalg.fix: bad argument #2 (fix takes at most 1 argument)")
    assert.error_matches(function() la.fix("x") end, "linalg.fix: bad argument #1 (matrix expected, got string)")
  end)
end)

describe("linalg.cummin, cummax, diff and ptp", function()
  local M = la.matrix{{3, 1, 2}, {0, 5, -1}, {4, nan, 0}}
  local D = la.matrix{{1, 4, 9, 16}, {2, 3, 5, 8}, {0, -1, 7, 1}}

  it("cummin and cummax run as cumsum does, NaN propagating", function()
    -- np.minimum.accumulate(M, axis=0), np.maximum.accumulate(M, axis=1)
    same({{3, 1, 2}, {0, 1, -1}, {0, nan, -1}}, la.cummin(M))
    same({{3, 3, 3}, {0, 5, 5}, {4, nan, nan}}, la.cummax(M, 2))
    same({{3, 1, 1}}, la.cummin({{3, 1, 2}}))                        -- a row along itself
    same({1, nan, nan}, la.cummax({1, nan, 3}))
    assert.are.equal("float32", la.cummin(M:astype("float32")).dtype)
    same({{0, 0}}, la.cummax(la.zeros(1, 2), 1))
  end)

  it("diff follows NumPy's diff (a matrix along its rows)", function()
    same({{3, 5, 7}, {1, 2, 3}, {-1, 8, -6}}, la.diff(D))             -- np.diff(D)
    same({{2, 2}, {1, 1}, {9, -14}}, la.diff(D, 2))                   -- np.diff(D, 2)
    same({{1, -1, -4, -8}, {-2, -4, 2, -7}}, la.diff(D, 1, 1))        -- np.diff(D, 1, axis=0)
    same({{0}, {0}, {-23}}, la.diff(D, 3))
    assert.are.same({3, 0}, {la.diff(D, 5):shape()})                  -- np.diff(D, 5).shape
    same(D, la.diff(D, 0))
    same({3, 5, 7}, la.diff(la.vector{1, 4, 9, 16}))                  -- a column along itself
    same({{3, 5, 7}}, la.diff({{1, 4, 9, 16}}))
    -- float32 steps: np.diff(np.array([0.1, 0.7, 1e8 + 1, 3.3], dtype=np.float32), 1 and 2)
    local f = la.vector({0.1, 0.7, 1e8 + 1, 3.3}, {dtype = "float32"})
    same({0.5999999642372131, 100000000, -100000000}, la.diff(f))
    same({100000000, -200000000}, la.diff(f, 2))
    assert.error_matches(function() la.diff(D, -1) end, "linalg.diff: bad argument #2 (order must be >= 0)")
    assert.error_matches(function() la.diff(D, 1, 3) end, "linalg.diff: bad argument #3 (dim must be 1 or 2)")
  end)

  it("ptp is max - min over everything or along dim", function()
    assert.are.equal(17, la.ptp(D))                                    -- np.ptp(D)
    same({{2, 5, 4, 15}}, la.ptp(D, 1))                                -- np.ptp(D, axis=0)
    same({15, 6, 8}, la.ptp(D, 2))                                     -- np.ptp(D, axis=1)
    assert.is_true(la.ptp(M) ~= la.ptp(M))                             -- np.ptp(M): nan
    assert.are.equal(100000000, la.ptp(la.vector({0.1, 0.7, 1e8 + 1, 3.3}, {dtype = "float32"})))
    assert.error_matches(function() la.ptp(la.zeros(0, 2)) end, "linalg.ptp: ptp of an empty matrix")
  end)
end)

describe("a Lua number where a matrix goes", function()
  it("is a 1 x 1 matrix for the functions of the report", function()
    assert.are.equal(1, la.rank(3))
    assert.are.equal(0, la.rank(0))
    assert.are.equal(0, la.var(3))
    assert.near({{math.exp(1)}}, la.expm(1), 1e-15)
    assert.near({{0.5}}, la.inv(2), 0)
    assert.near({{1.5}}, la.solve(2, 3), 0)
    assert.near({{1.5}}, la.lu_solve(la.lu_factor(2), 3), 0)
    assert.near({{2}}, la.lstsq(1, 2), 0)
    assert.are.same({1, 1}, {la.shape(7)})
    assert.near({{5}}, la.asmatrix(5), 0)
    assert.near({{3, 3}}, la.hstack{3, 3}, 0)
  end)

  it("keeps the meanings numbers had", function()
    assert.are.equal(6, la.pow(2, 3) - 2)                  -- a number from two numbers
    assert.are.equal(math.exp(1), la.exp(1))               -- elementwise: a number
    assert.is_true(la.isnan(nan))
    assert.near({{2, 4}}, 2 * la.matrix{{1, 2}}, 0)        -- scaling, not a product with 1 x 1
    assert.near({{3, 4}}, la.matrix{{1, 2}} + 2, 0)
    assert.is_false(la.is_matrix(3))
    assert.is_false(la.matrix{{3}} == 3)
    assert.near({{1, 1}, {1, 1}}, la.full(2, 2, 1), 0)
    -- a boolean fill: NumPy 1.24's np.full((2, 3), True) is bool, with dtype=float 1.0
    local T, F = la.full(2, 3, true), la.full(1, 2, false)
    assert.are.same({"bool", true, false}, {T.dtype, T(2, 3), F(1, 2)})
    assert.are.same({"float64", 1}, {la.full(2, 2, true, {dtype = "float64"}).dtype, la.full(2, 2, true, {dtype = "float64"})(1, 2)})
    assert.are.same({"float32", 0}, {la.full(1, 1, false, {dtype = "float32"}).dtype, la.full(1, 1, false, {dtype = "float32"})(1, 1)})
    assert.error_matches(function() la.full(2, 2, "x") end, "linalg.full: bad argument #3")
    -- NaN and Inf fill as NumPy's np.full((2, 2), -np.inf) (refused before, as arange's bounds)
    local I, N = la.full(2, 2, -math.huge), la.full_like(la.ones(1, 3, {dtype = "float32"}), 0 / 0)
    assert.are.same({-math.huge, "float32"}, {I(2, 2), N.dtype})
    assert.is_true(N(1, 3) ~= N(1, 3))
    assert.are.equal(math.huge, la.full(1, 1, math.huge, {dtype = "float32"})(1, 1))
    assert.near({{5, 1}}, la.matrix{{1, 1}}:set(1, 1, 5), 0)
    assert.error_matches(function() return la.matrix{{1, 2}} / la.matrix{{1, 2}} end, "is ambiguous")
    local mt = debug.getmetatable(la.eye(1))
    assert.error_matches(function() mt.__len(5) end, "linalg.rows: bad argument #1 (matrix expected, got number)")
  end)

  -- Every public function whose first argument is a matrix, called with x and
  -- with la.matrix{{x}} (then the arguments below, fitted to a 1 x 1 first
  -- argument): the same results (a number where the matrix call gives a
  -- 1 x 1 matrix is the same, as the elementwise functions keep giving
  -- numbers for numbers) or the same error.
  local tmp = os.tmpname()
  local args = {
    diag = {0}, tile = {1, 2}, repmat = {2, 2}, flip = {1}, roll = {1, 1}, circshift = {1, 1},
    slice = {":", ":"}, emul = {2}, ediv = {2}, pow = {2}, matmul = {{{3}}}, dot = {{4}},
    outer = {{4}}, map = {function(y) return 2 * y end}, full_like = {2}, kron = {{{2}}},
    blkdiag = {{{2}}}, cosine = {{4}}, angle = {{4}}, cosine_matrix = {{{4}}}, allclose = {{{1}}},
    where = {1, 2}, clip = {0, 1}, solve = {{3}}, lstsq = {{3}}, nnls = {{3}}, matrix_power = {2},
    attention = {{{1}}, {{2}}}, attention_combine = {{0}, {{2}}, {0}},
    get = {1, 1}, set = {1, 1, 5}, row = {1}, col = {1}, sub = {1, 1, 1, 1}, reshape = {1, 1},
    astype = {"float32"}, project = {{{2}}}, scalar_projection = {{3}}, span_check = {{{2}}},
    linear_regression = {{3}, {intercept = false}}, multihead_attention = {{{1}}, {{1}}, {{1}}, {{1}}, 1},
    save_npy = {tmp}, save_csv = {tmp}, heatmap = {tmp}, round = {1}, diff = {1, 1},
    maximum = {2}, minimum = {2}, lt = {2}, le = {2}, gt = {2}, ge = {2}, eq = {2}, ne = {2},
    atan2 = {2}, hypot = {2},
  }
  -- the functions that take no matrix first
  local skip = {}
  for name in ([[arange config eye frombuffer full hstack vstack is_matrix linspace logspace
    load_csv load_npy npy_info lsq_state matrix vector ones zeros rand randn threads plot_vectors
    multi_dot lu_solve cho_solve version printoptions]]):gmatch("%S+") do skip[name] = true end

  local function equiv(p, q)
    if la.is_matrix(q) and not la.is_matrix(p) and (type(p) == "number" or type(p) == "boolean") then
      if type(p) == "boolean" then p = p and 1 or 0 end
      p = la.matrix{{p}}:astype(q.dtype)
    end
    if la.is_matrix(p) and la.is_matrix(q) then
      if p.dtype ~= q.dtype then return false end
      local ok = pcall(same, p, q)
      return ok
    end
    if type(p) == "table" and type(q) == "table" then
      for k, v in pairs(p) do if not equiv(v, q[k]) then return false end end
      for k in pairs(q) do if p[k] == nil then return false end end
      return true
    end
    return p == q or (p ~= p and q ~= q)
  end

  it("is the 1 x 1 matrix in every function (a generated loop)", function()
    for name in pairs(args) do assert(la[name], "no function la." .. name) end
    local names = {}
    for name, f in pairs(la) do
      if type(f) == "function" and not skip[name] then names[#names + 1] = name end
    end
    table.sort(names)
    assert(#names > 140, "only " .. #names .. " functions")
    local passed = 0
    for _, x in ipairs{2.5, -0.75} do
      for _, name in ipairs(names) do
        local extra = args[name] or {}
        local n = #extra
        local r1 = pack(pcall(la[name], x, unpack(extra, 1, n)))
        local r2 = pack(pcall(la[name], la.matrix{{x}}, unpack(extra, 1, n)))
        local what = string.format("la.%s(%s)", name, tostring(x))
        assert(r1[1] == r2[1], what .. ": " .. tostring(r1[2]) .. " / " .. tostring(r2[2]))
        if not r1[1] then
          assert.are.equal(tostring(r2[2]), tostring(r1[2]), what)
          assert(not tostring(r1[2]):find("expected, got number", 1, true), what .. ": " .. tostring(r1[2]))
        else
          passed = passed + 1
          assert(r1.n == r2.n, what .. ": result counts")
          for k = 2, r1.n do assert(equiv(r1[k], r2[k]), what .. ": result " .. (k - 1) .. " differs") end
        end
      end
    end
    os.remove(tmp)
    assert(passed > 2 * 140, "only " .. passed .. " calls succeeded")
  end)
end)
