-- cholesky, lu, eig, schur, hessenberg, expm, null/orth and solve's assume
-- option (lfactor.c). Reference values: NumPy 1.24.2 and SciPy 1.10.1
-- (Debian's python3-numpy / python3-scipy), printed with .tolist().
local la = require "linalg"

local nan = 0 / 0
local S = la.matrix{{4, 2, -2}, {2, 10, 2}, {-2, 2, 5}}        -- SPD
local function maxabs(A) return la.norm(A, math.huge) end

describe("linalg.cholesky", function()
  it("matches np.linalg.cholesky (lower) and scipy's upper", function()
    assert.near({{2, 0, 0}, {1, 3, 0}, {-1, 1, 1.7320508075688772}}, la.cholesky(S), 1e-15)
    assert.near({{2, 1, -1}, {0, 3, 1}, {0, 0, 1.7320508075688772}}, la.cholesky(S, {lower = false}), 1e-15)
    local R = la.cholesky(S, {lower = false})
    assert.near(S, R.T * R, 1e-14)
  end)
  it("names the failing leading minor of an indefinite matrix", function()
    assert.error_matches(function() la.cholesky{{1, 2}, {2, 1}} end,
      "linalg.cholesky: matrix is not positive definite (the leading minor of order 2 is not positive)")
    assert.error_matches(function() la.cholesky{{-1, 0}, {0, 1}} end, "leading minor of order 1")
    assert.error_matches(function() la.cholesky{{1, 0}, {0, 0}} end, "leading minor of order 2")
  end)
  it("rejects non-symmetric, non-square, NaN; empty is empty", function()
    assert.error_matches(function() la.cholesky{{1, 2}, {0, 1}} end, "linalg.cholesky: matrix is not symmetric (A(2,1) = 0")
    assert.error_matches(function() la.cholesky(la.ones(2, 3)) end, "linalg.cholesky: matrix must be square, got 2x3")
    assert.error_matches(function() la.cholesky{{nan, 0}, {0, 1}} end, "linalg.cholesky: A(1,1) is NaN")
    assert.error_matches(function() la.cholesky(S, {lower = 1}) end, "option 'lower' must be true or false")
    assert.are.same({0, 0}, {la.cholesky(la.zeros(0, 0)):shape()})
  end)
end)

describe("linalg.lu", function()
  it("matches scipy.linalg.lu (P A = L U, perm and P)", function()
    local A = la.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 10}}
    local L, U, perm, P = la.lu(A)
    assert.near({{1, 0, 0}, {0.14285714285714285, 1, 0}, {0.5714285714285714, 0.5000000000000002, 1}}, L, 1e-15)
    assert.near({{7, 8, 10}, {0, 0.8571428571428572, 1.5714285714285716}, {0, 0, -0.5}}, U, 1e-15)
    assert.are.same({3, 1, 2}, perm)                      -- scipy's P transposed
    assert.near({{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, P)
    assert.near(P * A, L * U, 1e-15)
  end)
  it("handles rectangular and singular matrices", function()
    local R = la.matrix{{2, 3}, {4, 1}, {6, 5}}
    local L, U, perm = la.lu(R)
    assert.near({{1, 0}, {0.6666666666666666, 1}, {0.3333333333333333, -0.5714285714285715}}, L, 1e-15)
    assert.near({{6, 5}, {0, -2.333333333333333}}, U, 1e-15)
    assert.are.same({3, 2, 1}, perm)
    local L2, U2, _, P2 = la.lu(la.ones(3, 3))
    assert.near(P2 * la.ones(3, 3), L2 * U2)
    assert.are.equal(0, U2(3, 3))
    local L3, U3 = la.lu(R.T)
    assert.are.same({2, 2}, {L3:shape()}); assert.are.same({2, 3}, {U3:shape()})
    assert.error_matches(function() la.lu{{1, nan}} end, "linalg.lu: A(1,2) is NaN")
  end)
end)

describe("linalg.eig and eigvals", function()
  it("return complex pairs in dgeev's packing (matches np.linalg.eig)", function()
    local G = la.matrix{{1, 2, 0}, {-2, 1, 0}, {0, 0, 3}}
    local wr, wi, V = la.eig(G)
    assert.near({1, 1, 3}, wr, 1e-15)
    assert.near({2.0000000000000004, -2.0000000000000004, 0}, wi, 1e-15)
    -- np: v[:,0] = [-0.7071j, 0.7071, 0]: real part column 1, imaginary part column 2
    assert.near({{0, -0.7071067811865475, 0}, {0.7071067811865476, 0, 0}, {0, 0, 1}}, V, 1e-15)
    -- G (x + iy) = (a + ib)(x + iy)
    local x, y = V:col(1), V:col(2)
    assert.near(G * x, x * wr(1) - y * wi(1), 1e-14)
    assert.near(G * y, x * wi(1) + y * wr(1), 1e-14)
  end)
  it("real eigenvalues and vectors match NumPy", function()
    local H = la.matrix{{4, 1, 2}, {0, 3, 1}, {1, 0, 2}}
    local wr, wi, V = la.eig(H)
    assert.near({4.8793852415718195, 1.4679111137620455, 2.652703644666139}, wr, 1e-14)
    assert.near({0, 0, 0}, wi)
    assert.near({{-0.930579675082307, -0.40700082411021005, 0.2093883846122435},
                 {-0.17196417336637032, -0.4992604208614394, -0.9237114413807986},
                 {-0.3231869295038535, 0.7649113421402955, 0.3208016169717393}}, V, 1e-13)
    local er, ei = la.eigvals(H)
    assert.near(wr, er, 1e-15); assert.near(wi, ei)
  end)
  it("rejects NaN whatever check_finite says, and non-square", function()
    assert.error_matches(function() la.eig({{1, nan}, {0, 1}}, {check_finite = false}) end, "linalg.eig: A(1,2) is NaN")
    assert.error_matches(function() la.eigvals(la.ones(2, 3)) end, "linalg.eigvals: matrix must be square, got 2x3")
    local wr, wi, V = la.eig(la.zeros(0, 0))
    assert.are.same({0, 1, 0, 1, 0, 0}, {wr:rows(), wr:cols(), wi:rows(), wi:cols(), V:shape()})
  end)
end)

describe("linalg.schur and hessenberg", function()
  it("schur: A = Z T Z^T, T's diagonal as scipy.linalg.schur", function()
    local H = la.matrix{{4, 1, 2}, {0, 3, 1}, {1, 0, 2}}
    local T, Z = la.schur(H)
    assert.near(H, Z * T * Z.T, 1e-14)
    assert.near(la.eye(3), Z.T * Z, 1e-14)
    assert.near({4.8793852415718195, 1.4679111137620455, 2.652703644666139}, la.diag(T), 1e-14)
    assert.are.equal(0, T(2, 1)); assert.are.equal(0, T(3, 1)); assert.are.equal(0, T(3, 2))
    -- a rotation: a 2x2 block with eigenvalues 1 +- 2i
    local T2 = la.schur{{1, 2}, {-2, 1}}
    assert.near(1, T2(1, 1)); assert.near(1, T2(2, 2)); assert.near(-4, T2(1, 2) * T2(2, 1), 1e-14)
  end)
  it("hessenberg: A = Q H Q^T with H as scipy.linalg.hessenberg", function()
    local A = la.matrix{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12.5}, {1, 0, 2, 1}}
    local H, Q = la.hessenberg(A)
    assert.near({{1.0, -3.9636196050872208, 0.4828001146060324, 3.613395034521499},
                 {-10.344080432788601, 18.481308411214947, -4.442934733674591, -12.897626394943584},
                 {0.0, -0.9543927796141964, -0.06554871423072826, 0.8145115296879489},
                 {0.0, 0.0, -1.3606455706647902, -0.4157596969842254}}, H, 1e-13)
    assert.near(A, Q * H * Q.T, 1e-13)
    assert.near(la.eye(4), Q.T * Q, 1e-14)
  end)
end)

describe("linalg.expm", function()
  it("matches scipy.linalg.expm", function()
    assert.near({{-2.2253522639266965, 12.435352624735936}, {-6.217676312367968, 10.21000036080924}},
      la.expm{{1, 2}, {-1, 3}}, 1e-13)
    -- large norm (scaling and squaring): a rotation by 30 radians
    assert.near({{0.15425144988758405, -0.9880316240928617}, {0.9880316240928617, 0.15425144988758405}},
      la.expm{{0, 30}, {-30, 0}}, 1e-12)
    assert.near({{61.748395465665055, 56.964567252137755, 120.77444105705347},
                 {42.944808833347494, 40.11141839237413, 85.22546748396245},
                 {61.3805160244936, 56.96456725213774, 121.14232049822488}},
      la.expm{{1, 2, 3}, {0.5, -1, 4}, {2, 2, 2}}, 1e-13)
  end)
  it("is exact on zero, diagonal and nilpotent matrices", function()
    assert.near(la.eye(3), la.expm(la.zeros(3, 3)), 1e-15)
    assert.near(la.diag{math.exp(1), math.exp(-2)}, la.expm(la.diag{1, -2}), 1e-15)
    assert.near({{1, 1, 0.5}, {0, 1, 1}, {0, 0, 1}}, la.expm{{0, 1, 0}, {0, 0, 1}, {0, 0, 0}}, 1e-15)
    assert.are.same({0, 0}, {la.expm(la.zeros(0, 0)):shape()})
  end)
  it("rejects NaN and non-square", function()
    assert.error_matches(function() la.expm{{nan}} end, "linalg.expm: A(1,1) is NaN")
    assert.error_matches(function() la.expm(la.ones(1, 2)) end, "linalg.expm: matrix must be square, got 1x2")
  end)
end)

describe("linalg.null and orth", function()
  it("give orthonormal bases (scipy's null_space / orth up to sign)", function()
    local A = la.matrix{{1, 1}, {1, 1}}
    local N, O = la.null(A), la.orth(A)
    assert.near({0.7071067811865475, 0.7071067811865476}, la.abs(N), 1e-15)
    assert.near({0.7071067811865472, 0.7071067811865475}, la.abs(O), 1e-15)
    local B = la.matrix{{1, 2, 3}, {2, 4, 6}, {1, 0, 1}, {0, 1, 1}}    -- rank 2
    local NB = la.null(B)
    assert.are.same({3, 1}, {NB:shape()})
    assert.is_true(maxabs(B * NB) < 1e-14)
    local OB = la.orth(B)
    assert.are.same({4, 2}, {OB:shape()})
    assert.near(la.eye(2), OB.T * OB, 1e-14)
    assert.near(B, OB * (OB.T * B), 1e-14)
  end)
  it("take Octave's tolerance or a given one", function()
    local A = la.diag{1, 1e-12}
    assert.are.same({2, 0}, {la.null(A):shape()})
    assert.are.same({2, 1}, {la.null(A, 1e-10):shape()})
    assert.are.same({2, 1}, {la.orth(A, 1e-10):shape()})
    assert.are.same({3, 3}, {la.null(la.zeros(2, 3)):shape()})
    assert.are.same({2, 0}, {la.orth(la.zeros(2, 3)):shape()})
    assert.error_matches(function() la.null(A, -1) end, "linalg.null: bad argument #2 (tol must be >= 0)")
    assert.error_matches(function() la.orth({{nan}}) end, "linalg.orth: A(1,1) is NaN")
  end)
end)

describe("linalg.solve with assume", function()
  it("pos and sym match scipy.linalg.solve(assume_a=...)", function()
    assert.near({0.8333333333333335, -0.16666666666666674, 1.0000000000000002},
      la.solve(S, {1, 2, 3}, {assume = "pos"}), 1e-14)
    assert.near({0.7142857142857143, 0.14285714285714285}, la.solve({{1, 2}, {2, -3}}, {1, 1}, {assume = "sym"}), 1e-15)
  end)
  it("lower and upper read one triangle only (solve_triangular)", function()
    assert.near({1, 2}, la.solve({{2, 99}, {1, 4}}, {2, 9}, {assume = "lower"}))
    assert.near({1, 2}, la.solve({{4, 1}, {99, 2}}, {6, 4}, {assume = "upper"}))
    local B = la.solve({{2, 0}, {1, 4}}, {{2, 4}, {9, 18}}, {assume = "lower"})
    assert.near({{1, 2}, {2, 4}}, B)
  end)
  it("names the problem: singular, indefinite, asymmetric, unknown choice", function()
    assert.error_matches(function() la.solve({{1, 0}, {1, 0}}, {1, 1}, {assume = "lower"}) end,
      "linalg.solve: matrix is singular (A(2,2) = 0)")
    assert.error_matches(function() la.solve({{1, 2}, {2, 1}}, {1, 1}, {assume = "pos"}) end,
      "linalg.solve: matrix is not positive definite (the leading minor of order 2")
    assert.error_matches(function() la.solve({{0, 0}, {0, 0}}, {1, 1}, {assume = "sym"}) end,
      "linalg.solve: matrix is singular (D(1,1) = 0)")
    assert.error_matches(function() la.solve({{1, 2}, {3, 1}}, {1, 1}, {assume = "sym"}) end,
      "linalg.solve: matrix is not symmetric")
    assert.error_matches(function() la.solve(S, {1, 2, 3}, {assume = "triangular"}) end,
      "linalg.solve: option 'assume' must be \"gen\", \"sym\", \"pos\", \"lower\" or \"upper\", got \"triangular\"")
    assert.error_matches(function() la.solve(S, {1, 2, 3}, {asume = "pos"}) end,
      "unknown option 'asume' (did you mean 'assume'?)")
    assert.error_matches(function() la.solve({{nan}}, {1}, {assume = "pos"}) end, "linalg.solve: A(1,1) is NaN")
  end)
end)

-- float32: LAPACK's s routines (factor_gen.h's float32 pass). References:
-- NumPy 1.24.2 on np.float32 arrays (/usr/bin/python3), .tolist():
--   A = np.array([[4,1,2,.5],[1,5,3,1],[2,3,6,2],[.5,1,2,7]], dtype=np.float32)
--   np.linalg.svd(A, compute_uv=False); np.linalg.eigvalsh(A); np.linalg.cholesky(A)
describe("factorizations of float32 matrices", function()
  local A = la.matrix({{4, 1, 2, 0.5}, {1, 5, 3, 1}, {2, 3, 6, 2}, {0.5, 1, 2, 7}}, {dtype = "float32"})
  local EPS32 = 2 ^ -23
  local tol = 50 * EPS32 * la.norm(A)
  local I = la.eye(4, {dtype = "float32"})
  local function near32(want, got, t)
    assert.are.equal("float32", got.dtype)
    assert.near(want, got, t or tol)
  end
  it("svd, eigh and cholesky match NumPy's float32 results", function()
    local U, s, Vt = la.svd(A)
    near32({10.744232177734375, 5.7562761306762695, 3.384002447128296, 2.1154897212982178}, s)
    near32(A, U * la.diag(s) * Vt)
    local w, V = la.eigh(A)
    near32({2.1154897212982178, 3.384002447128296, 5.7562761306762695, 10.744232177734375}, w)
    near32(I, V.T * V)
    near32({{2.0, 0.0, 0.0, 0.0}, {0.5, 2.1794495582580566, 0.0, 0.0},
            {1.0, 1.1470786333084106, 1.9194297790527344, 0.0},
            {0.25, 0.40147754549980164, 0.671800434589386, 2.5149552822113037}}, la.cholesky(A))
  end)
  it("qr, lu, schur, hessenberg reproduce A in float32 to float32 accuracy", function()
    local Q, R = la.qr(A); near32(I, Q.T * Q); near32(A, Q * R)
    local Q2, R2, perm = la.qr(A, {pivoting = true})
    near32(I, Q2.T * Q2); assert.are.equal(4, #perm)
    local Lm, U, _, P = la.lu(A); near32(P * A, Lm * U)
    local T, Z = la.schur(A); near32(A, Z * T * Z.T); near32(I, Z.T * Z)
    local H, Qh = la.hessenberg(A); near32(A, Qh * H * Qh.T)
  end)
  it("eig, null and orth work in float32; mixed types give float64", function()
    local wr, wi, VR = la.eig(A)
    assert.are.equal("float32", VR.dtype); assert.near(la.zeros(4, 1), wi, 0)
    near32(A * VR, VR * la.diag(wr), 20 * tol)
    local N = la.null(la.matrix({{1, 2, 3}, {2, 4, 7}}, {dtype = "float32"}))
    near32({{-2 / math.sqrt(5)}, {1 / math.sqrt(5)}, {0}}, N:emul(N(1) > 0 and -1 or 1), 1e-6)
    assert.are.equal("float32", la.orth(A).dtype)
    assert.are.equal("float64", la.qr(A:astype("float64")).dtype)
  end)
  it("errors name the function as in float64", function()
    assert.error_matches(function() la.cholesky(la.matrix({{1, 2}, {2, 1}}, {dtype = "float32"})) end,
      "linalg.cholesky: matrix is not positive definite (the leading minor of order 2 is not positive)")
    assert.error_matches(function() la.svd(la.matrix({{0 / 0}}, {dtype = "float32"})) end,
      "linalg.svd: A(1,1) is NaN")
  end)
end)
