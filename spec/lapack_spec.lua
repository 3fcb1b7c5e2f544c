-- Factorizations and solvers (API.md: Factorizations and solvers). NumPy
-- values from NumPy 1.24 (Debian python3-numpy, same OpenBLAS), calls quoted.
local la = require "linalg"

local X = la.matrix{{1, 2}, {3, 4}, {5, 6}}

local function orthonormal_cols(Q, tol)
  local k = Q:cols()
  return la.norm(Q.T * Q - la.eye(k), math.huge) <= (tol or 1e-14)
end

local function upper(R)
  for j = 1, R:cols() do
    for i = j + 1, R:rows() do if R(i, j) ~= 0 then return false end end
  end
  return true
end

describe("linalg.qr", function()
  it("matches NumPy's reduced QR (np.linalg.qr(X))", function()
    local Q, R = la.qr(X)
    assert.near({{-0.16903085094570325, 0.8970852271450607},
                 {-0.50709255283711, 0.27602622373694136},
                 {-0.8451542547285166, -0.345032779671177}}, Q, 1e-14)
    assert.near({{-5.916079783099616, -7.437357441610946}, {0, 0.8280786712108248}}, R, 1e-14)
    assert.is_true(upper(R))
  end)

  it("complete mode gives a square orthogonal Q (np.linalg.qr(X, mode='complete'))", function()
    local Q, R = la.qr(X, {mode = "complete"})
    assert.are.same({3, 3}, {Q:shape()})
    assert.are.same({3, 2}, {R:shape()})
    assert.near({0.40824829046386274, -0.8164965809277261, 0.40824829046386313}, Q:col(3), 1e-14)
    assert.is_true(orthonormal_cols(Q))
    assert.is_true(la.allclose(Q * R, X, 1e-14, 1e-14))
  end)

  it("pivoting returns perm with A[:, perm] = Q R", function()
    local A = la.randn(6, 4, 11)
    local Q, R, perm = la.qr(A, {pivoting = true})
    assert.are.equal(4, #perm)
    local AP = la.hstack{A:col(perm[1]), A:col(perm[2]), A:col(perm[3]), A:col(perm[4])}
    assert.is_true(la.allclose(Q * R, AP, 1e-13, 1e-13))
    for i = 2, 4 do assert.is_true(math.abs(R(i, i)) <= math.abs(R(i - 1, i - 1))) end
  end)

  it("handles wide, tall and empty shapes", function()
    for _, s in ipairs{{2, 5}, {7, 3}, {0, 3}, {3, 0}} do
      local A = la.randn(s[1], s[2], 5)
      local Q, R = la.qr(A)
      assert.is_true(la.allclose(Q * R, A, 1e-13, 1e-13))
      local Qc = la.qr(A, {mode = "complete"})
      assert.are.same({s[1], s[1]}, {Qc:shape()})
      if s[1] > 0 then assert.is_true(orthonormal_cols(Qc)) end
    end
  end)

  it("rejects NaN/Inf unless check_finite = false, and bad options", function()
    assert.error_matches(function() la.qr{{1, 0 / 0}} end, "linalg.qr: A(1,2) is NaN")
    assert.error_matches(function() la.qr{{1, math.huge}} end, "linalg.qr: A(1,2) is Inf")
    assert.error_matches(function() la.qr(X, {mode = "full"}) end, 'linalg.qr: option \'mode\' must be "reduced", "complete", "r" or "raw", got "full"')
    assert.error_matches(function() la.qr(X, "x") end, "linalg.qr: bad argument #2 (options table expected, got string)")
  end)
end)

describe("linalg.svd", function()
  it("matches NumPy (np.linalg.svd(X, full_matrices=False))", function()
    local U, s, Vt = la.svd(X)
    assert.near({9.52551809156511, 0.5143005806586441}, s, 1e-14)
    assert.near({{-0.2298476964000714, 0.8834610176985254},
                 {-0.5247448187602937, 0.24078249213254635},
                 {-0.8196419411205158, -0.4018960334334318}}, U, 1e-13)
    assert.near({{-0.6196294838293405, -0.7848944532670524},
                 {-0.7848944532670524, 0.6196294838293405}}, Vt, 1e-13)
  end)

  it("reconstructs A and gives full factors on request", function()
    local A = la.randn(5, 3, 8)
    local U, s, Vt = la.svd(A)
    assert.is_true(la.allclose(U * la.diag(s) * Vt, A, 1e-13, 1e-13))
    local Uf, sf, Vtf = la.svd(A, {full = true})
    assert.are.same({5, 5}, {Uf:shape()})
    assert.are.same({3, 3}, {Vtf:shape()})
    assert.is_true(orthonormal_cols(Uf))
    assert.is_true(sf == s)
    for i = 2, 3 do assert.is_true(s(i) <= s(i - 1)) end
  end)
end)

describe("linalg.eigh", function()
  it("matches NumPy (np.linalg.eigh)", function()
    assert.near({1, 3}, (la.eigh{{2, 1}, {1, 2}}), 1e-15)
    local A = la.matrix{{4, 1, 2}, {1, 3, 0}, {2, 0, 5}}
    local w, V = la.eigh(A)
    assert.near({1.8548973087995761, 3.4760236029181333, 6.669079088282287}, w, 1e-14)
    assert.is_true(la.allclose(A * V, V * la.diag(w), 1e-13, 1e-13))
    assert.is_true(orthonormal_cols(V))
  end)

  it("rejects non-square and non-symmetric input", function()
    assert.error_matches(function() la.eigh(X) end, "linalg.eigh: matrix must be square, got 3x2")
    assert.error_matches(function() la.eigh{{1, 2}, {0, 1}} end, "linalg.eigh: matrix is not symmetric (A(2,1)")
  end)
end)

describe("linalg.solve, inv, det", function()
  it("solve matches NumPy (np.linalg.solve([[3,1],[1,2]], [9,8]) = [2, 3])", function()
    assert.near({2, 3}, la.solve({{3, 1}, {1, 2}}, {9, 8}), 1e-15)
    assert.near({2, 3}, la.solve({{3, 1}, {1, 2}}, la.matrix{{9, 8}}), 1e-15)  -- 1 x n row as vector
    local B = la.randn(4, 3, 2)
    local A = la.randn(4, 4, 3)
    assert.is_true(la.allclose(A * la.solve(A, B), B, 1e-12, 1e-12))
  end)

  it("names the singular pivot", function()
    assert.error_matches(function() la.solve({{1, 2}, {2, 4}}, {1, 1}) end,
      "linalg.solve: matrix is singular (U(2,2) = 0)")
    assert.error_matches(function() la.inv{{0, 0}, {0, 0}} end, "linalg.inv: matrix is singular (U(1,1) = 0)")
  end)

  it("checks shapes", function()
    assert.error_matches(function() la.solve(X, {1, 2, 3}) end, "linalg.solve: matrix must be square, got 3x2")
    assert.error_matches(function() la.solve({{1, 0}, {0, 1}}, {1, 2, 3}) end,
      "linalg.solve: A is 2x2 but b has 3 rows")
  end)

  it("inv and det match NumPy", function()
    -- np.linalg.inv([[4,7],[2,6]]) = [[0.6,-0.7],[-0.2,0.4]]; det([[1,2],[3,4]]) = -2
    assert.near({{0.6, -0.7}, {-0.2, 0.4}}, la.inv{{4, 7}, {2, 6}}, 1e-15)
    assert.near(-2, la.det{{1, 2}, {3, 4}}, 1e-15)
    assert.are.equal(0, la.det{{1, 2}, {2, 4}})
    assert.are.equal(1, la.det(la.zeros(0, 0)))
    assert.near(24, la.det(la.diag{2, 3, 4}), 1e-15)
    assert.near(-1, la.det{{0, 1}, {1, 0}}, 1e-15)       -- a row swap flips the sign
  end)
end)

describe("linalg.pinv, rank, cond", function()
  it("pinv matches NumPy (np.linalg.pinv(X))", function()
    assert.near({{-1.3333333333333337, -0.3333333333333329, 0.6666666666666666},
                 {1.083333333333334, 0.33333333333333304, -0.4166666666666667}}, la.pinv(X), 1e-13)
    assert.near({{0.04, 0.08}, {0.08, 0.16}}, la.pinv{{1, 2}, {2, 4}}, 1e-14)
    assert.near({{0, 0, 0}, {0, 0, 0}}, la.pinv(la.zeros(3, 2)), 0)
  end)

  it("rank uses NumPy's default tolerance, or an absolute one", function()
    assert.are.equal(1, la.rank{{1, 2}, {2, 4}})
    assert.are.equal(2, la.rank(X))
    assert.are.equal(0, la.rank(la.zeros(3, 3)))
    assert.are.equal(1, la.rank(la.diag{1, 1e-3}, 1e-2))
    assert.are.equal(2, la.rank(la.diag{1, 1e-3}))
    assert.are.equal(3, la.rank(la.randn(5, 3, 1), {check_finite = true}))
  end)

  it("cond is s_max / s_min (np.linalg.cond([[1,2],[3,4]]) = 14.933034373659265)", function()
    assert.near(14.933034373659265, la.cond{{1, 2}, {3, 4}}, 1e-13)
    assert.is_true(la.cond{{1, 2}, {2, 4}} > 1e15)          -- s_min is rounding-level
    assert.are.equal(math.huge, la.cond(la.diag{1, 0}))     -- s_min exactly 0
    assert.error_matches(function() la.cond(la.zeros(0, 2)) end, "linalg.cond: empty matrix")
  end)

  it("every factorization rejects NaN and Inf by default", function()
    local bad = la.matrix{{1, 2}, {3, 0 / 0}}
    for _, name in ipairs{"qr", "svd", "eigh", "inv", "det", "pinv", "rank", "cond"} do
      assert.error_matches(function() la[name](bad) end, "linalg." .. name .. ": A(2,2) is NaN")
    end
    assert.error_matches(function() la.solve(bad, {1, 1}) end, "linalg.solve: A(2,2) is NaN")
    assert.error_matches(function() la.solve({{1, 0}, {0, 1}}, {1, math.huge}) end, "linalg.solve: b(2,1) is Inf")
  end)
end)

describe("float32 solve, inv, det, pinv, matrix power (LAPACK's s routines)", function()
  -- A float32 argument is computed in float32 (sgesv, ssysv, sposv, strtrs,
  -- sgetrf/sgetri, sgesdd, sgemm): results agree with the float64 call
  -- within cond(A) eps32, and differ from it by float32 rounding errors, not
  -- by one final rounding. References: NumPy 1.24 and SciPy 1.10.1 (Debian,
  -- /usr/bin/python3, same OpenBLAS), calls quoted. NumPy 1.24 computes
  -- float32 linalg in float64 and rounds the result (linalg's _commonType:
  -- "use higher precision (always double)"); SciPy calls LAPACK's s routines.
  local F32, EPS32 = {dtype = "float32"}, 2 ^ -23
  local G = {{2, -1, 0.5}, {1, 3, 1}, {0.25, 1, 4}}          -- exact in float32, cond ~ 3
  local S = {{4, 1, 2}, {1, 5, 0.5}, {2, 0.5, 6}}            -- symmetric positive definite
  local G32, G64 = la.matrix(G, F32), la.matrix(G)
  local v32, v64 = la.vector({1, -2, 0.5}, F32), la.vector{1, -2, 0.5}
  local h = {}                                                -- Hilbert 5, rounded to float32
  for i = 1, 5 do h[i] = {} for j = 1, 5 do h[i][j] = 1 / (i + j - 1) end end
  local H32 = la.matrix(h, F32)
  local condH = la.cond(H32:astype("float64"))                -- 4.76e5
  local function d64(A) return A:astype("float64") end
  local function rel(A, B) return la.norm(d64(A) - d64(B)) / la.norm(d64(B)) end

  it("solve matches NumPy on float32 arrays within cond(A) eps32, float32 out", function()
    -- np.linalg.solve(np.array(G, np.float32), np.array([1, -2, 0.5], np.float32))
    --   -> float32 [0.028985507786273956, -0.782608687877655, 0.3188405930995941]
    -- np.linalg.solve(G32, np.array([[1, 0.5], [-2, 0.25], [0.5, 3]], np.float32))
    local tol = 10 * la.cond(G64) * EPS32
    local x = la.solve(G32, v32)
    assert.are.equal("float32", x.dtype)
    assert.near({0.028985507786273956, -0.782608687877655, 0.3188405930995941}, x, tol)
    local X = la.solve(G32, la.matrix({{1, 0.5}, {-2, 0.25}, {0.5, 3}}, F32))
    assert.are.equal("float32", X.dtype)
    assert.near({{0.028985507786273956, -0.03381642326712608}, {-0.782608687877655, -0.17028985917568207},
                 {0.3188405930995941, 0.7946860194206238}}, X, tol)
    assert.is_true(rel(x, la.solve(G64, v64)) <= tol)
    assert.is_true(la.norm(G64 * d64(x) - v64) <= 4 * EPS32 * la.norm(G64) * la.norm(d64(x)))
  end)

  it("is float32 arithmetic: ill-conditioned Hilbert 5 gives SciPy's sgesv answer, not the float64 one rounded", function()
    -- scipy.linalg.solve(H32, np.ones(5, np.float32)) (sgetrf + sgetrs), float32:
    local scipy = {4.9770050048828125, -119.55784606933594, 628.0601806640625, -1117.03662109375, 628.538330078125}
    -- np.linalg.solve(H32, np.ones(5, np.float32)) (float64 inside, rounded):
    local numpy = {4.990349769592285, -119.81600952148438, 629.1951293945312, -1118.7720947265625, 629.3947143554688}
    local b = la.ones(5, 1, F32)
    local x, x64 = la.solve(H32, b), la.solve(H32:astype("float64"), d64(b))
    assert.are.equal("float32", x.dtype)
    -- 0 on this machine's OpenBLAS core (the same sgesv as SciPy's); another core
    -- (valgrind runs OpenBLAS's AVX2 kernels) rounds differently, within cond * eps32
    assert.is_true(rel(x, la.matrix(scipy)) <= 10 * condH * EPS32)
    assert.is_true(rel(la.matrix(numpy), x64) < 1e-6)         -- NumPy: the float64 answer rounded
    local e = rel(x, x64)                                     -- float32 LU: ~ cond eps32, not eps32
    assert.is_true(e > 100 * EPS32 and e < 10 * condH * EPS32, e)
    -- inv likewise (scipy.linalg.inv(H32) row 1, sgetri):
    local Xi = la.inv(H32)
    assert.are.equal("float32", Xi.dtype)
    assert.is_true(rel(la.matrix{{Xi(1, 1), Xi(1, 2), Xi(1, 3), Xi(1, 4), Xi(1, 5)}},
      la.matrix{{24.9678955078125, -299.4016418457031, 1047.425048828125, -1396.1182861328125, 628.10400390625}})
      <= 10 * condH * EPS32)
    e = rel(Xi, la.inv(H32:astype("float64")))
    assert.is_true(e > 100 * EPS32 and e < 10 * condH * EPS32, e)
    -- det: scipy.linalg.det(H32) = 3.7597863190852454e-12 (sgetrf);
    -- np.linalg.det(H32) = 3.7533475e-12 (float64 inside)
    local d = la.det(H32)
    if math.type then assert.are.equal("float", math.type(d)) end   -- 5.3+: no integer subtype
    assert.is_true(math.abs(d - 3.7597863190852454e-12) / 3.7597863190852454e-12 <= 10 * condH * EPS32)
    assert.is_true(math.abs(d - la.det(H32:astype("float64"))) / 3.7533475e-12 > 100 * EPS32)
  end)

  it("every assume solves in float32 with a float32-sized residual", function()
    local S32, S64 = la.matrix(S, F32), la.matrix(S)
    local tol = 10 * la.cond(S64) * EPS32
    for _, a in ipairs{"gen", "sym", "pos", "lower", "upper"} do
      local A32 = a == "lower" and la.tril(S32) or a == "upper" and la.triu(S32) or S32
      local A64 = d64(A32)
      local x = la.solve(S32, v32, {assume = a})
      assert.are.equal("float32", x.dtype, a)
      assert.is_true(la.norm(A64 * d64(x) - v64) <= 4 * EPS32 * la.norm(A64) * la.norm(d64(x)), a)
      assert.is_true(rel(x, la.solve(S64, v64, {assume = a})) <= tol, a)
    end
  end)

  it("mixed types follow NumPy: float32 with float64 gives float64; a table b does not vote", function()
    local x = la.solve(G32, v64)
    assert.are.equal("float64", x.dtype)
    assert.are.same(la.solve(G64, v64):totable(), x:totable())   -- G is exact in float32
    assert.are.equal("float64", la.solve(G64, v32).dtype)
    assert.are.equal("float64", la.solve(G64, v32, {assume = "gen"}).dtype)
    assert.are.equal("float32", la.solve(G32, {1, -2, 0.5}).dtype)
    assert.are.equal("float32", la.solve(G32, {{1, -2, 0.5}}).dtype)    -- a row read as the vector
    assert.are.equal("float32", la.solve(G, v32).dtype)               -- nor does a table A
    assert.are.equal("float32", la.solve(la.matrix(S, F32), v32, {assume = "sym"}).dtype)
    assert.are.equal("float64", la.solve(la.matrix(S, F32), v64, {assume = "sym"}).dtype)
  end)

  it("singular and non-finite float32 matrices give the float64 messages", function()
    local Z = la.matrix({{1, 2}, {2, 4}}, F32)
    local b = la.vector({1, 1}, F32)
    assert.error_matches(function() la.solve(Z, b) end, "linalg.solve: matrix is singular (U(2,2) = 0)")
    assert.error_matches(function() la.inv(Z) end, "linalg.inv: matrix is singular (U(2,2) = 0)")
    assert.error_matches(function() return Z ^ -1 end, "linalg.matrix_power: matrix is singular (U(2,2) = 0)")
    assert.error_matches(function() la.matrix_power(Z, -2) end, "linalg.matrix_power: matrix is singular")
    assert.error_matches(function() la.solve(Z, b, {assume = "pos"}) end,
      "linalg.solve: matrix is not positive definite (the leading minor of order 2 is not positive)")
    assert.error_matches(function() la.solve(la.matrix({{1, 0}, {1, 0}}, F32), b, {assume = "lower"}) end,
      "linalg.solve: matrix is singular (A(2,2) = 0)")
    assert.error_matches(function() la.solve(la.matrix({{1, 2}, {3, 4}}, F32), b, {assume = "sym"}) end,
      "linalg.solve: matrix is not symmetric")
    assert.are.equal(0, la.det(Z))
    assert.error_matches(function() la.solve(la.matrix({{1, 0}, {0, 0 / 0}}, F32), b) end,
      "linalg.solve: A(2,2) is NaN")
    assert.error_matches(function() la.inv(la.matrix({{1, 0}, {0, math.huge}}, F32)) end,
      "linalg.inv: A(2,2) is Inf")
  end)

  it("det of float32: sgetrf's diagonal multiplied in double, a Lua float", function()
    assert.near(25.875, la.det(G32), 10 * la.cond(G64) * EPS32)    -- np.linalg.det(G) = 25.875
    assert.are.equal(1, la.det(la.zeros(0, 0, F32)))
    assert.are.equal(-1, la.det(la.matrix({{0, 1}, {1, 0}}, F32)))
    assert.are.equal(24, la.det(la.diag(la.vector({2, 3, 4}, F32))))
  end)

  it("pinv in float32: the Moore-Penrose identities; default rcond 1e-15 in units of the type's eps", function()
    local T = la.matrix({{1, 0.125, 0.5}, {1, 0.25, -0.75}, {1, 0.5, 1.5}, {1, 1, 0.25}, {1, 2, -1}}, F32)
    local P = la.pinv(T)
    assert.are.equal("float32", P.dtype)
    assert.are.same({3, 5}, {P:shape()})
    local T64, P64 = d64(T), d64(P)
    assert.is_true(la.norm(T64 * P64 * T64 - T64) <= 10 * la.cond(T64) * EPS32 * la.norm(T64))
    assert.is_true(rel(P, la.pinv(T64)) <= 10 * la.cond(T64) * EPS32)
    -- np.linalg.pinv(np.array([[1, 2], [2, 4]], np.float32)) -> float32
    --   [[0.04, 0.08000001], [0.08000001, 0.16000001]]: NumPy keeps rcond = 1e-15 but
    -- computes in float64; sgesdd's second singular value is noise of eps32 size,
    -- which the default cut 1e-15 * 2^29 (4.5 eps32) drops
    assert.near({{0.04, 0.08000001}, {0.08000001, 0.16000001}}, la.pinv(la.matrix({{1, 2}, {2, 4}}, F32)), 1e-6)
    local D = la.diag(la.vector({1, 1e-7}, F32))                -- 1e-7 < 5.4e-7: dropped by default
    assert.are.same({{1, 0}, {0, 0}}, la.pinv(D):totable())
    assert.near(1e7, la.pinv(D, 1e-15)(2, 2), 1e-6)           -- a given rcond is used as given
    assert.near(1e7, la.pinv(d64(D))(2, 2), 1e-6)             -- float64: 1e-15 keeps it
    assert.are.equal("float64", la.pinv(d64(D)).dtype)
  end)

  it("matrix_power and A ^ k multiply in float32 (sgemm)", function()
    local C = la.matrix({{0.1, 0.7, -0.3}, {1 / 3, 0.2, 0.9}, {-0.6, 0.5, 0.25}}, F32)
    local C3 = C ^ 3
    assert.are.equal("float32", C3.dtype)
    -- repeated squaring: C (C C), each product an sgemm rounded to float32
    assert.are.same(la.matmul(C, la.matmul(C, C)):totable(), C3:totable())
    assert.are_not.same((d64(C) ^ 3):astype("float32"):totable(), C3:totable())
    assert.is_true(rel(C3, d64(C) ^ 3) <= 30 * EPS32)
    assert.are.same(C3:totable(), la.matrix_power(C, 3.0):totable())
    local Cm2 = la.matrix_power(C, -2)
    assert.are.equal("float32", Cm2.dtype)
    assert.is_true(la.norm(d64(Cm2) * d64(C ^ 2) - la.eye(3)) <= 10 * la.cond(d64(C)) ^ 2 * EPS32)
    assert.are.same(la.eye(3):totable(), la.matrix_power(C, 0):totable())
    assert.are.equal("float32", la.matrix_power(C, 0).dtype)
    assert.are.equal("float32", (la.zeros(0, 0, F32) ^ 5).dtype)
    assert.error_matches(function() return C ^ 0.5 end, "linalg.matrix_power: bad argument #2")
  end)
end)
