-- Linear algebra, round 2 (the rest): sqrtm, logm (real results on the real
-- Schur form), eig(A, B) and eig's left vectors, schur's sort, expm_frechet,
-- lstsq's weights and lstsq of a batch.
-- Reference values: NumPy 1.24.2 and SciPy 1.10.1 (Debian's python3-numpy and
-- python3-scipy under /usr/bin/python3), printed with .tolist(); the call is
-- in the comment beside each value. Written for Lua 5.1 to 5.4 and LuaJIT.
local la = require "linalg"

local inf = math.huge

-- the error f raises, or nil
local function err(f, ...)
  local ok, e = pcall(f, ...)
  if ok then return nil end
  return tostring(e)
end

-- ||X - Y||_1 / ||Y||_1
local function rel(X, Y) return la.norm(X - Y, 1) / la.norm(Y, 1) end

local R = la.matrix{{1, 2, 3}, {-2, 1, 0.5}, {0.3, 0.2, 4}}   -- eigenvalues 0.92 +- 2.28i, 4.1
local S = la.matrix{{4, 2, 0}, {2, 5, 1}, {0, 1, 3}}          -- symmetric positive definite

describe("linalg.sqrtm", function()
  it("gives SciPy's principal square root, real where SciPy's imaginary part is rounding", function()
    -- scipy.linalg.sqrtm(R) (real parts; the imaginary parts are below 2e-16)
    assert.near(la.matrix{{1.2437614023939676, 0.7823765904493295, 0.8435358482751454},
                          {-0.8095767858393441, 1.2727749441433178, 0.3642353590304247},
                          {0.10248704842085779, 0.03689336205211001, 1.9748697763903835}},
                la.sqrtm(R), 1e-14)
    -- scipy.linalg.sqrtm(S)
    assert.near(la.matrix{{1.938860048023528, 0.48947379502080696, -0.035172690629626815},
                          {0.48947379502080696, 2.1660106002191193, 0.262323242825217},
                          {-0.035172690629626524, 0.262323242825217, 1.7117094958279393}},
                la.sqrtm(S), 1e-14)
    -- a Jordan block: scipy.linalg.sqrtm([[2, 1], [0, 2]])
    assert.near(la.matrix{{1.4142135623730951, 0.35355339059327373}, {0, 1.4142135623730951}},
                la.sqrtm(la.matrix{{2, 1}, {0, 2}}), 1e-15)
  end)

  it("squares back to A as closely as SciPy's does", function()
    -- M = expm(randn(n, n, n)); SciPy 1.10's ||sqrtm(M)^2 - M||_1 / ||M||_1 on the
    -- same M (saved with save_npy): 2.84e-15 (n 5), 2.45e-15 (10), 3.22e-15 (20);
    -- bounds four times those
    local scipy = {[5] = 2.84e-15, [10] = 2.45e-15, [20] = 3.22e-15}
    for _, n in ipairs{5, 10, 20} do
      local M = la.expm(la.randn(n, n, n))
      local X = la.sqrtm(M)
      assert(rel(X * X, M) < 4 * scipy[n], n .. ": " .. rel(X * X, M))
      -- float32: computed in float64 and rounded (SciPy's float32 path reaches
      -- 1.0e-6, 1.5e-6, 9.9e-7 here)
      local X32 = la.sqrtm(M:astype("float32"))
      assert.are.equal("float32", X32.dtype)
      assert(rel(X32 * X32, M:astype("float32")) < 1e-6)
    end
  end)

  it("takes a singular A that has a root and refuses one that has none", function()
    -- scipy.linalg.sqrtm([[0, 0], [0, 4]]) -> [[0, 0], [0, 2]]
    assert.near(la.matrix{{0, 0}, {0, 2}}, la.sqrtm(la.matrix{{0, 0}, {0, 4}}), 0)
    assert.near(la.zeros(3, 3), la.sqrtm(la.zeros(3, 3)), 0)
    -- rank 1, positive semidefinite: dgees leaves -5.9e-16 for a zero
    -- eigenvalue, taken as 0 (SciPy 1.10 answers with imaginary parts of 2e-8);
    -- the root is M / sqrt(14)
    local M = la.matrix{{1, 2, 3}, {2, 4, 6}, {3, 6, 9}}
    local X = la.sqrtm(M)
    assert.near(M / math.sqrt(14), X, 1e-7)
    assert(rel(X * X, M) < 1e-14)
    -- SciPy warns "Matrix is singular and may not have a square root" and gives NaN
    assert.error_matches(function() la.sqrtm(la.matrix{{0, 1}, {0, 0}}) end,
                         "linalg.sqrtm: A is singular and has no square root")
  end)

  it("refuses a negative real eigenvalue, naming it", function()
    local e = err(la.sqrtm, la.matrix{{1, 0}, {0, -2}})
    assert.matches("linalg.sqrtm: A has a negative real eigenvalue %(%-2[%.0]*%): no real square root", e)
    assert.error_matches(function() la.sqrtm(-4) end, "negative real eigenvalue")
  end)

  it("reads a number as 1 x 1 and gives 0 x 0 for 0 x 0", function()
    assert.near(la.matrix{{3}}, la.sqrtm(9), 0)
    assert.are.same({0, 0}, {la.sqrtm(la.zeros(0, 0)):shape()})
    assert.error_matches(function() la.sqrtm(la.zeros(2, 3)) end, "linalg.sqrtm:")
    assert.error_matches(function() la.sqrtm(la.matrix{{0 / 0}}) end, "NaN")
  end)
end)

describe("linalg.logm", function()
  it("gives SciPy's principal logarithm", function()
    -- scipy.linalg.logm(R)
    assert.near(la.matrix{{0.7467780803061602, 1.1089350582830477, 0.8589107892097847},
                          {-1.175239327366683, 0.8175026339953726, 0.6883202328893053},
                          {0.13009392497673586, 0.010111016821177606, 1.3316312239702481}},
                la.logm(R), 1e-14)
    -- scipy.linalg.logm(S)
    assert.near(la.matrix{{1.2613965446394193, 0.4927551651727143, -0.07549419890676101},
                          {0.4927551651727144, 1.4700270277723966, 0.28412468203973773},
                          {-0.0754941989067609, 0.2841246820397377, 1.052766061506444}},
                la.logm(S), 1e-14)
    -- scipy.linalg.logm([[2, 1], [0, 2]]): exact diagonal and superdiagonal
    assert.near(la.matrix{{0.6931471805599453, 0.5}, {0, 0.6931471805599453}},
                la.logm(la.matrix{{2, 1}, {0, 2}}), 0)
    -- a rotation by 1 radian: log is [[0, -1], [1, 0]]
    local c, s = math.cos(1), math.sin(1)
    assert.near(la.matrix{{0, -1}, {1, 0}}, la.logm(la.matrix{{c, -s}, {s, c}}), 1e-15)
    assert.near(la.matrix{{1}}, la.logm(math.exp(1)), 1e-15)
  end)

  it("gives back A through expm as closely as SciPy's does", function()
    -- SciPy 1.10's ||expm(logm(M)) - M||_1 / ||M||_1 on the same M: 2.10e-15
    -- (n 5), 3.11e-15 (10), 6.48e-15 (20); bounds four times those
    local scipy = {[5] = 2.10e-15, [10] = 3.11e-15, [20] = 6.48e-15}
    for _, n in ipairs{5, 10, 20} do
      local M = la.expm(la.randn(n, n, n))
      assert(rel(la.expm(la.logm(M)), M) < 4 * scipy[n], n .. ": " .. rel(la.expm(la.logm(M)), M))
      -- float32 (SciPy 1.10 warns "logm result may be inaccurate" at 1e-6, 1.9e-6, 1.5e-6)
      local M32 = M:astype("float32")
      local L32 = la.logm(M32)
      assert.are.equal("float32", L32.dtype)
      assert(rel(la.expm(L32), M32) < 1e-6)
    end
    -- far from I: many square roots, the diagonal still exact
    local T = la.matrix{{1e-3, 5}, {0, 1e4}}
    assert(rel(la.expm(la.logm(T)), T) < 1e-13)
  end)

  it("refuses a negative real eigenvalue or a singular A, naming the problem", function()
    assert.matches("linalg.logm: A has a negative real eigenvalue %(%-2[%.0]*%): no real logarithm",
                   err(la.logm, la.matrix{{-2, 0}, {0, 1}}))
    -- eigenvalues (5 +- sqrt(33)) / 2: -0.372...
    assert.matches("negative real eigenvalue %(%-0%.3722813", err(la.logm, la.matrix{{1, 2}, {3, 4}}))
    assert.matches("linalg.logm: A is singular", err(la.logm, la.matrix{{1, 1}, {1, 1}}))
    assert.matches("linalg.logm: A is singular", err(la.logm, 0))
  end)
end)

describe("linalg.expm_frechet", function()
  local E = la.matrix{{1, 0, 0}, {0, 0, 1}, {0, 1, 0}}
  it("gives SciPy's expm and Frechet derivative", function()
    local X, L = la.expm_frechet(R, E)
    -- scipy.linalg.expm_frechet(R, E)
    assert(rel(X, la.matrix{{1.1408587301369029, 6.560455911816695, 49.292152843162995},
                            {-3.308961216038841, -2.3274022786928077, -18.519153135868507},
                            {2.761552153797731, 5.598317528764005, 63.872522982515015}}) < 1e-14)
    local want = la.matrix{{-4.4459225711681, 14.472926421568829, 19.05560723594551},
                           {0.5081996840447978, -4.110343673176463, 9.002476085819712},
                           {-8.081856680147864, 15.290553527517368, -3.223710632623027}}
    assert(rel(L, want) < 1e-14)
    local only = la.expm_frechet(R, E, {compute_expm = false})
    assert.near(L, only, 0)
    assert.are.equal(1, select("#", la.expm_frechet(R, E, {compute_expm = false})))
  end)

  it("agrees with the finite difference and with exp for commuting 1 x 1", function()
    local h = 1e-6
    local fd = (la.expm(R + h * E) - la.expm(R - h * E)) / (2 * h)
    local _, L = la.expm_frechet(R, E)
    assert(rel(L, fd) < 1e-8)
    local X1, L1 = la.expm_frechet(2, 3)           -- d/dt exp(2 + 3t) at 0 = 3 e^2
    assert.near(la.matrix{{math.exp(2)}}, X1, 1e-14)
    assert.near(la.matrix{{3 * math.exp(2)}}, L1, 1e-13)
    local X32, L32 = la.expm_frechet(R:astype("float32"), E:astype("float32"))
    assert.are.equal("float32", X32.dtype)
    assert.are.equal("float32", L32.dtype)
    assert(rel(L32:astype("float64"), L) < 1e-6)
  end)

  it("agrees with the block method at every Pade degree and after squarings", function()
    -- SciPy 1.10's SPS and blockEnlarge differ by 2e-16 .. 3e-15 on these;
    -- ||A||_1 from 0.005 (degree 3) to 60 (degree 13, 4 squarings)
    for _, sc in ipairs{1e-3, 0.01, 0.05, 0.2, 0.5, 3, 12} do
      local A, D = la.randn(6, 6, 7) * sc, la.randn(6, 6, 8)
      local _, L = la.expm_frechet(A, D)
      local B = la.expm(la.vstack{la.hstack{A, D}, la.hstack{la.zeros(6, 6), A}})
      local Lb = la.slice(B, "1:6", "7:12")
      assert(rel(L, Lb) < 2e-14, sc .. ": " .. rel(L, Lb))
    end
  end)

  it("checks E's shape", function()
    assert.error_matches(function() la.expm_frechet(R, la.eye(2)) end,
                         "linalg.expm_frechet: A is 3x3 but E is 2x2")
    assert.error_matches(function() la.expm_frechet(R, E, {compute = true}) end,
                         "linalg.expm_frechet: unknown option 'compute'")
  end)

  it("refuses a norm too large for scaling and squaring, as expm does (SciPy: OverflowError)", function()
    -- the 1-norm of finite entries overflows to Inf: its scaling exponent
    -- was INT_MIN (UBSan), and the answer expm = I, L = 0 (a hostile test)
    local big = la.matrix{{1e308, 1e308}, {1e308, -1e308}}
    assert.error_matches(function() la.expm_frechet(big, la.eye(2)) end,
      "linalg.expm_frechet: A is too large for scaling and squaring (1024 squarings needed; past 53 "
      .. "the growth of rounding errors overflows the precision of the result)", 1, true)
    assert.error_matches(function() la.expm_frechet(la.diag{1e20, 1}, la.eye(2)) end,
      "(65 squarings needed", 1, true)
    assert.error_matches(function() la.expm(big) end, "linalg.expm: A is too large", 1, true)
  end)
end)

-- A V = B V diag(w) in linalg's real packing (B nil: I), to tol
local function righteig(A, B, wr, wi, V, tol)
  local n = A:rows()
  B = B or la.eye(n)
  local j = 1
  while j <= n do
    local vr = V:col(j)
    if wi(j, 1) == 0 then
      assert(la.norm(A * vr - wr(j, 1) * (B * vr)) < tol)
      j = j + 1
    else
      local vi = V:col(j + 1)
      assert(la.norm(A * vr - (wr(j, 1) * (B * vr) - wi(j, 1) * (B * vi))) < tol)
      assert(la.norm(A * vi - (wi(j, 1) * (B * vr) + wr(j, 1) * (B * vi))) < tol)
      j = j + 2
    end
  end
end

describe("linalg.eig, generalized and left", function()
  local A = la.matrix{{1, 2, 0}, {-3, 1, 1}, {0, 1, 2}}
  local B = la.matrix{{2, 0, 1}, {0, 1, 0}, {1, 0, 3}}

  it("solves A v = w B v as SciPy's eig(a, b)", function()
    local wr, wi, VR = la.eig(A, B)
    -- scipy.linalg.eig(A, B)[0]: 0.8374271836429065 +- 1.6982939622533906j, 0.7251456327141872
    assert.near(la.vector{0.8374271836429065, 0.8374271836429066, 0.7251456327141872}, wr, 1e-14)
    assert.near(la.vector{1.6982939622533906, -1.6982939622533906, 0}, wi, 1e-14)
    righteig(A, B, wr, wi, VR, 1e-13)
    -- unit 2-norm columns, as SciPy's; |entries| of SciPy's vr
    local vr3 = {0.3233525061379323, 0.38604653129507255, 0.863950943311807}
    for i = 1, 3 do assert.near(vr3[i], math.abs(VR(i, 3)), 1e-14) end
    local pair = {{-0.042160234141301135, 0.4910925691584703}, {-0.8671080084449903, 0.04250364448296837},
                  {-0.05769619420440014, -0.0062365250773145}}
    for i = 1, 3 do
      assert.near(math.sqrt(pair[i][1] ^ 2 + pair[i][2] ^ 2), math.sqrt(VR(i, 1) ^ 2 + VR(i, 2) ^ 2), 1e-14)
    end
  end)

  it("gives inf where beta = 0 and NaN where alpha and beta are 0, as SciPy", function()
    -- scipy.linalg.eig(eye(2), diag([1, 0]))[0]: [1, inf]
    local wr, wi = la.eig(la.eye(2), la.matrix{{1, 0}, {0, 0}})
    assert.are.equal(1, wr(1, 1)); assert.are.equal(inf, wr(2, 1)); assert.are.equal(0, wi(2, 1))
    -- scipy.linalg.eig(diag([1, 0]), diag([1, 0]))[0]: [1, nan]
    wr = la.eig(la.matrix{{1, 0}, {0, 0}}, la.matrix{{1, 0}, {0, 0}})
    assert.are.equal(1, wr(1, 1)); assert(wr(2, 1) ~= wr(2, 1))
  end)

  it("adds the left eigenvectors last with left = true", function()
    local wr, wi, VR, VL = la.eig(A, {left = true})
    local wr0, wi0, VR0 = la.eig(A)
    assert.near(wr0, wr, 0); assert.near(wi0, wi, 0); assert.near(VR0, VR, 0)
    -- u^H A = w u^H: A^T u = conj(w) u
    righteig(A:t(), nil, wr, -wi, VL, 1e-13)
    -- scipy.linalg.eig(A, left=True)[1][:, 2]
    assert.near(la.vector{-0.3743554408858557, 0.14446636127455173, 0.9159625943996006},
                VL:col(3), 1e-14)
    local gr, gi, GR, GL = la.eig(A, B, {left = true})
    righteig(A:t(), B:t(), gr, -gi, GL, 1e-13)
    righteig(A, B, gr, gi, GR, 1e-13)
    assert.near(la.eig(A, nil, {left = true}), wr, 0)
  end)

  it("keeps float32 and checks shapes", function()
    local wr, wi, VR = la.eig(A:astype("float32"), B:astype("float32"))
    assert.are.equal("float32", wr.dtype); assert.are.equal("float32", VR.dtype)
    righteig(A:astype("float32"), B:astype("float32"), wr, wi, VR, 1e-5)
    assert.error_matches(function() la.eig(A, la.eye(2)) end, "linalg.eig: A is 3x3 but B is 2x2")
    assert.error_matches(function() la.eig(A, B, {left = 1}) end, "linalg.eig: option 'left' must be true or false")
    local w1 = la.eig(2, 4)
    assert.are.equal(0.5, w1(1, 1))
  end)
end)

describe("linalg.schur with sort", function()
  local A = la.matrix{{1, 2, 0, 3}, {-3, 1, 1, 0}, {0, 1, -2, 1}, {1, 0, 0, 0.5}}
  -- scipy.linalg.schur(A, sort=s): sdim and the diagonal of T
  local cases = {
    lhp = {1, {-2.2224793157526057, 1.3384157056844983, 1.3384157056844983, 0.04564790438361027}},
    rhp = {3, {1.3384157056844983, 1.3384157056844983, 0.04564790438361027, -2.2224793157526057}},
    iuc = {1, {0.04564790438361027, 1.3384157056844983, 1.3384157056844983, -2.2224793157526057}},
    ouc = {3, {1.3384157056844983, 1.3384157056844983, -2.2224793157526057, 0.04564790438361027}},
  }
  for s, c in pairs(cases) do
    it("sorts " .. s .. " as SciPy, returning sdim", function()
      local T, Z, sdim = la.schur(A, {sort = s})
      assert.are.equal(c[1], sdim)
      for i = 1, 4 do assert.near(c[2][i], T(i, i), 1e-13) end
      assert(rel(Z * T * Z:t(), A) < 1e-14)
      assert(la.norm(Z:t() * Z - la.eye(4)) < 1e-14)
      local T32, _, sdim32 = la.schur(A:astype("float32"), {sort = s})
      assert.are.equal(c[1], sdim32)
      assert.are.equal("float32", T32.dtype)
    end)
  end

  it("keeps two results unsorted and refuses an unknown sort", function()
    assert.are.equal(2, select("#", la.schur(A)))
    assert.error_matches(function() la.schur(A, {sort = "up"}) end,
                         "linalg.schur: option 'sort' must be")
    -- rhp counts 0 (SciPy: x.real >= 0.0); iuc counts |w| = 1 (abs(x) <= 1.0)
    local _, _, sdim = la.schur(la.matrix{{0, 0}, {0, -1}}, {sort = "rhp"})
    assert.are.equal(1, sdim)
    _, _, sdim = la.schur(la.matrix{{1, 0}, {0, 2}}, {sort = "iuc"})
    assert.are.equal(1, sdim)
  end)
end)

describe("linalg.lstsq with weights", function()
  local A = la.matrix{{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}}
  local b = la.vector{1.1, 1.9, 3.2, 3.9, 5.3}
  local w = {1, 2, 0.5, 0, 3}

  it("minimises sum w_i (a_i x - b_i)^2 with weighted residuals", function()
    local x, res, rank, sv = la.lstsq(A, b, {weights = w})
    -- r = sqrt(w); np.linalg.lstsq(A * r[:, None], b * r, rcond=None)
    assert.near(la.vector{-0.15132743, 1.08761062}, x, 1e-8)
    assert.near(la.matrix{{0.0619469}}, res, 1e-7)
    assert.are.equal(2, rank)
    assert.near(la.vector{9.68479469, 1.09761189}, sv, 1e-8)
    -- a zero weight drops its row
    local keep = la.matrix{{1, 1}, {1, 2}, {1, 3}, {1, 5}}
    local xk = la.lstsq(keep, la.vector{1.1, 1.9, 3.2, 5.3}, {weights = {1, 2, 0.5, 3}})
    assert.near(xk, x, 1e-14)
    -- unit weights change nothing; float32 stays float32
    assert.near(la.lstsq(A, b), la.lstsq(A, b, {weights = {1, 1, 1, 1, 1}}), 0)
    local x32 = la.lstsq(A:astype("float32"), b:astype("float32"), {weights = w})
    assert.are.equal("float32", x32.dtype)
    assert.near(x, x32:astype("float64"), 1e-5)
  end)

  it("refuses negative, NaN, infinite or miscounted weights, naming them", function()
    assert.error_matches(function() la.lstsq(A, b, {weights = {1, 2, -1, 0, 3}}) end,
                         "linalg.lstsq: weights(3) is -1")
    assert.error_matches(function() la.lstsq(A, b, {weights = {1, 0 / 0, 1, 0, 3}}) end,
                         "linalg.lstsq: weights(2) is NaN")
    assert.error_matches(function() la.lstsq(A, b, {weights = {1, inf, 1, 0, 3}}) end,
                         "linalg.lstsq: weights(2) is inf, expected a finite weight >= 0")
    assert.error_matches(function() la.lstsq(A, b, {weights = {1, 2}}) end,
                         "linalg.lstsq: weights is 2x1, expected 5 weights")
    assert.error_matches(function() la.lstsq(A, b, {weights = "x"}) end,
                         "linalg.lstsq: option 'weights' must be a vector")
    -- a closed weights vector names the options' argument (it named #4, a stack slot)
    local w = la.ones(5, 1)
    debug.getmetatable(w).__close(w)
    assert.error_matches(function() la.lstsq(A, b, {weights = w}) end,
                         "linalg.lstsq: bad argument #3 (matrix is closed)", 1, true)
  end)
end)

describe("linalg.lstsq of a batch", function()
  local As, bs = {}, {}
  for i = 1, 40 do
    As[i] = la.randn(5 + i % 7, 1 + i % 3, i)
    bs[i] = la.randn(5 + i % 7, 1 + i % 2, 100 + i)
  end
  As[3] = la.matrix{{1, 2}, {2, 4}, {3, 6}}; bs[3] = {1, 2, 3}     -- rank 1
  As[4] = la.zeros(0, 2); bs[4] = la.zeros(0, 1)
  As[5] = la.zeros(3, 0); bs[5] = {1, 2, 2}

  it("gives each problem lstsq's x, residuals, rank and sv", function()
    local r = la.lstsq(As, bs)
    assert.are.equal(#As, #r)
    for i = 1, #As do
      local x, res, rank, sv = la.lstsq(As[i], bs[i])
      assert.near(x, r[i].x, 1e-12)
      assert.are.equal(rank, r[i].rank)
      assert.near(sv, r[i].sv, 1e-12)
      if res then assert.near(res, r[i].residuals, 1e-12) else assert.is_nil(r[i].residuals) end
    end
    assert.are.equal(1, r[3].rank)                 -- the rank-deficient one spoils nothing
    assert.near(la.vector{0.2, 0.4}, r[3].x, 1e-15)   -- README: x = [0.2, 0.4]
    assert.near(la.matrix{{9}}, r[5].residuals, 0)
    assert.are.same({2, 1}, {r[4].x:shape()})
  end)

  it("gives the same bits on one thread and on several", function()
    local saved = la.threads()
    la.threads(1)
    local one = la.lstsq(As, bs)
    la.threads(3)
    local three = la.lstsq(As, bs)
    la.threads(saved)
    for i = 1, #As do
      assert.near(one[i].x, three[i].x, 0)
      assert.near(one[i].sv, three[i].sv, 0)
    end
  end)

  it("keeps float32 when every matrix is float32 and takes rcond", function()
    local r = la.lstsq({As[1]:astype("float32")}, {bs[1]:astype("float32")})
    assert.are.equal("float32", r[1].x.dtype)
    assert.near(la.lstsq(As[1], bs[1]), r[1].x:astype("float64"), 1e-5)
    local lo = la.lstsq({la.matrix{{1, 0}, {0, 1e-3}, {0, 0}}}, {{1, 1, 0}}, {rcond = 1e-2})
    assert.are.equal(1, lo[1].rank)
  end)

  it("names the member at fault", function()
    assert.error_matches(function() la.lstsq({la.eye(2), la.eye(3)}, {{1, 2}, {1, 2}}) end,
                         "linalg.lstsq: problem 2: A has 3 rows but b has 2")
    assert.error_matches(function() la.lstsq({la.eye(2)}, {{1, 2}, {1, 2}}) end,
                         "linalg.lstsq: As has 1 problems but bs has 2")
    assert.error_matches(function() la.lstsq({la.eye(2), la.matrix{{0 / 0}}}, {{1, 2}, {1}}) end,
                         "linalg.lstsq: As[2](1,1) is NaN")
    assert.error_matches(function() la.lstsq({la.eye(2), "x"}, {{1, 2}, {1}}) end,
                         "linalg.lstsq: problem 2: A is string")
    assert.error_matches(function() la.lstsq({la.eye(2)}, {{1, 2}}, {method = "qr"}) end,
                         "linalg.lstsq: a batch is solved by method 'svd' only")
    assert.error_matches(function() la.lstsq({la.eye(2)}, la.eye(2)) end,
                         "linalg.lstsq: bs must be a list")
  end)
end)
