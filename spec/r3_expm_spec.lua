-- expm: Al-Mohy & Higham's scaling and squaring (kernels/expm.c). The cases
-- are SciPy's scipy/sparse/linalg/tests/test_matfuncs.py (TestExpM, named
-- per test) and scipy/linalg/tests/test_matfuncs.py (TestExpM.test_2x2_input,
-- test_nx2x2_input); "SciPy 1.10.1" values are Debian's python3-scipy
-- 1.10.1, scipy.sparse.linalg.expm(A).tolist() (the same algorithm).
local la = require "linalg"

local E = math.exp(1)

-- every entry of X within rtol of expected's, relative to that entry (an
-- expected 0 must come out 0): assert.near is absolute below 1
local function relnear(expected, X, rtol)
  X = la.asmatrix(X)
  local m, n = X:shape()
  assert.are.same({#expected, #expected[1]}, {m, n})
  for i = 1, m do
    for j = 1, n do
      local e, x = expected[i][j], X(i, j)
      assert(math.abs(x - e) <= rtol * math.abs(e),
        string.format("(%d,%d): expected %.17g within %g, got %.17g", i, j, e, rtol, x))
    end
  end
end

local function exactly(expected, X)
  local m, n = X:shape()
  for i = 1, m do
    for j = 1, n do
      assert(X(i, j) == expected[i][j],
        string.format("(%d,%d): expected exactly %.17g, got %.17g", i, j, expected[i][j], X(i, j)))
    end
  end
end

describe("linalg.expm on SciPy's test matrices", function()
  it("test_burkardt_14: Moler's badly scaled matrix (entries 1e-8 .. 2e10)", function()
    local A = {{0, 1e-8, 0}, {-(2e10 + 4e8 / 6), -3, 2e10}, {200 / 3, 0, -200 / 3}}
    -- the test's desired values (15 digits)
    relnear({{0.446849468283175, 1.54044157383952e-09, 0.462811453558774},
             {-5743067.77947947, -0.0152830038686819, -4526542.71278401},
             {0.447722977849494, 1.54270484519591e-09, 0.463480648837651}}, la.expm(A), 1e-11)
    -- SciPy 1.10.1
    relnear({{0.4468494682831646, 1.5404415738396865e-09, 0.462811453558824},
             {-5743067.7794777155, -0.015283003868679979, -4526542.712783446},
             {0.4477229778494842, 1.5427048451960795e-09, 0.46348064883770074}}, la.expm(A), 1e-11)
  end)

  it("test_burkardt_2 .. 4, 8, 10 .. 12: closed forms and the test's values", function()
    relnear({{39.322809708033859, 46.166301438885753}, {46.166301438885768, 54.711576854329110}},
      la.expm{{1, 3}, {3, 2}}, 1e-14)
    local e1, e39 = E, math.exp(39)
    relnear({{39 / (38 * e1) - 1 / (38 * e39), -(math.exp(-38) - 1) / (38 * e1)},
             {39 * (math.exp(-38) - 1) / (38 * e1), -1 / (38 * e1) + 39 / (38 * e39)}},
      la.expm{{0, 1}, {-39, -40}}, 1e-14)
    -- burkardt_4: U diag(exp(w)) V with U = [3 1; 4 2], V = [1 -1/2; -2 3/2], w = (-17, -1)
    local a, b = math.exp(-17), math.exp(-1)
    relnear({{3 * a - 2 * b, -1.5 * a + 1.5 * b}, {4 * a - 4 * b, -2 * a + 3 * b}},
      la.expm{{-49, 24}, {-64, 31}}, 1e-13)
    local e4, e16 = math.exp(4), math.exp(16)
    relnear({{(13 * e16 - e4) / 4, (13 * e16 - 5 * e4) / 4, (2 * e16 - 2 * e4) / 4},
             {(-9 * e16 + e4) / 4, (-9 * e16 + 5 * e4) / 4, (-2 * e16 + 2 * e4) / 4},
             {16 * e16 / 4, 16 * e16 / 4, 4 * e16 / 4}},
      la.expm{{21, 17, 6}, {-5, -1, -6}, {4, 4, 16}}, 1e-13)
    relnear({{147.8666224463699, 183.7651386463682, 71.79703239999647},
             {127.7810855231823, 183.7651386463682, 91.88256932318415},
             {127.7810855231824, 163.6796017231806, 111.9681062463718}},
      la.expm{{4, 2, 0}, {1, 4, 1}, {1, 1, 4}}, 1e-14)
    relnear({{5.496313853692378E+15, -1.823188097200898E+16, -3.047577080858001E+16},
             {-1.823188097200899E+16, 6.060522870222108E+16, 1.012918429302482E+17},
             {-3.047577080858001E+16, 1.012918429302482E+17, 1.692944112408493E+17}},
      la.expm{{29.87942128909879, 0.7815750847907159, -2.289519314033932},
              {0.7815750847907159, 25.72656945571064, 8.680737820540137},
              {-2.289519314033932, 8.680737820540137, 34.39400925519054}}, 1e-13)
    relnear({{-1.509644158793135, 0.3678794391096522, 0.1353352811751005},
             {-5.632570799891469, 1.471517758499875, 0.4060058435250609},
             {-4.934938326088363, 1.103638317328798, 0.5413411267617766}},
      la.expm{{-131, 19, 18}, {-390, 56, 54}, {-387, 57, 52}}, 1e-11)
  end)

  it("test_burkardt_13: Forsythe matrices against their Taylor series", function()
    -- the test's _burkardt_13_power(n, p): ones on the p-th superdiagonal
    -- scaled 10^(-n a), and the wrapped part 10^-n smaller (p = a n + b)
    local function power(n, p)
      local a, b = math.floor(p / n), p % n
      local large = 10.0 ^ (-n * a)
      local P = la.zeros(n, n)
      for i = 1, n do
        local j = i + b
        if j <= n then P:set(i, j, large) else P:set(i, j - n, large * 10.0 ^ (-n)) end
      end
      return P
    end
    for _, n in ipairs{2, 3, 4, 10} do
      local k = math.max(1, math.ceil(16 / n))
      local want, fact = la.zeros(n, n), 1
      for p = 0, n * k - 1 do
        if p > 0 then fact = fact * p end
        want = want + power(n, p) / fact
      end
      relnear(want:totable(), la.expm(power(n, 1)), 1e-13)
    end
  end)

  it("test_burkardt_5 (nilpotent), 6, 7 and test_bidiagonal_sparse: triangular", function()
    exactly({{1, 6, 18, 36}, {0, 1, 6, 18}, {0, 0, 1, 6}, {0, 0, 0, 1}},
      la.expm{{0, 6, 0, 0}, {0, 0, 6, 0}, {0, 0, 0, 6}, {0, 0, 0, 0}})
    exactly({{E, E}, {0, E}}, la.expm{{1, 1}, {0, 1}})
    local eps = 2.220446049250313e-16
    relnear({{E, E}, {0, E}}, la.expm{{1 + eps, 1}, {0, 1 - eps}}, 4 * eps)
    local e2 = math.exp(2)
    relnear({{E, 3 * E, 15 * (e2 - 2 * E)}, {0, E, 5 * (e2 - E)}, {0, 0, e2}},
      la.expm{{1, 3, 0}, {0, 1, 5}, {0, 0, 2}}, 1e-15)
  end)

  it("test_triangularity_perturbation: exact diagonal of an upper (and lower) triangular logm", function()
    local A = {{3.2346e-1, 3e4, 3e4, 3e4}, {0, 3.0089e-1, 3e4, 3e4}, {0, 0, 3.221e-1, 3e4},
               {0, 0, 0, 3.0744e-1}}
    local L = la.matrix{
      {-1.12867982029050462e+00, 9.61418377142025565e+04, -4.52485573953179264e+09, 2.92496941103871812e+14},
      {0, -1.20101052953082288e+00, 9.63469687211303099e+04, -4.68104828911105442e+09},
      {0, 0, -1.13289322264498393e+00, 9.53249183094775653e+04},
      {0, 0, 0, -1.17947533272554850e+00}}
    local X = la.expm(L)
    relnear(A, X, 1e-5)                               -- SciPy's rtol is 1e-4
    for i = 1, 4 do
      assert.are.equal(math.exp(L(i, i)), X(i, i))
      for j = 1, i - 1 do assert.are.equal(0, X(i, j)) end
    end
    local XT = la.expm(L.T)                          -- lower triangular: the transpose
    for i = 1, 4 do
      for j = 1, 4 do assert.are.equal(X(i, j), XT(j, i)) end
    end
  end)

  it("test_exp_sinch_overflow: expm(-2^11 L) is expm(-L) squared 11 times", function()
    local L = la.matrix{{1, -0.5, -0.5, 0, 0, 0, 0}, {0, 1, 0, -0.5, -0.5, 0, 0},
                        {0, 0, 1, 0, 0, -0.5, -0.5}, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0},
                        {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}}
    local E1, E2 = la.expm(-2 ^ 11 * L), la.expm(-L)
    for _ = 1, 11 do E2 = E2 * E2 end
    assert.near(E2, E1, 1e-15)
    assert.is_true(la.all(la.isfinite(E1)))
  end)

  it("test_pascal: the nilpotent subdiagonal 1..n gives binomials", function()
    for _, scale in ipairs{1.0, 1e-3, 1e-6} do
      for _, n in ipairs{3, 9, 15, 30} do
        local A = la.zeros(n + 1, n + 1)
        for i = 1, n do A:set(i + 1, i, i * scale) end
        local X, want, big = la.expm(A), {}, 0
        for i = 0, n do
          want[i + 1] = {}
          for j = 0, n do
            local v = 0
            if j <= i then
              v = 1
              for k = 1, j do v = v * (i - k + 1) / k end   -- binom(i, j)
              v = v * scale ^ (i - j)
            end
            want[i + 1][j + 1] = v
            big = math.max(big, math.abs(v))
          end
        end
        assert.near(la.matrix(want) / big, X / big, 1e-13)
      end
    end
  end)

  it("test_integer_matrix_2: a generator matrix (SciPy 1.10.1)", function()
    relnear({{7.124576406742353e-218, 1.4620742733474749e-49, 1.0162857986340721e-49, 0.9999999999999446},
             {0.0, 1.134312678944183e-49, 7.8845916916532265e-50, 0.9999999999999439},
             {0.0, 1.3798035460393149e-49, 9.590995302407778e-50, 0.9999999999999442},
             {0.0, 0.0, 0.0, 0.9999999999999432}},
      la.expm{{-500, 500, 0, 0}, {0, -550, 360, 190}, {0, 630, -630, 0}, {0, 0, 0, 0}}, 1e-11)
  end)

  it("test_2x2_input, test_nx2x2_input: closed forms of 2 x 2 integer matrices", function()
    local cases = {
      {{{1, 4}, {1, 1}}, {{(E ^ 4 + 1) / (2 * E), (E ^ 4 - 1) / E}, {(E ^ 4 - 1) / 4 / E, (E ^ 4 + 1) / (2 * E)}}},
      {{{1, 3}, {1, -1}}, {{1 / (4 * E ^ 2) + (3 * E ^ 2) / 4, (3 * E ^ 2) / 4 - 3 / (4 * E ^ 2)},
                           {E ^ 2 / 4 - 1 / (4 * E ^ 2), 3 / (4 * E ^ 2) + E ^ 2 / 4}}},
      {{{1, 3}, {4, 5}}, {{3 / (4 * E) + E ^ 7 / 4, -3 / (8 * E) + (3 * E ^ 7) / 8},
                          {-1 / (2 * E) + E ^ 7 / 2, 1 / (4 * E) + (3 * E ^ 7) / 4}}},
      {{{1, 3}, {5, 3}}, {{5 / (8 * E ^ 2) + (3 * E ^ 6) / 8, -3 / (8 * E ^ 2) + (3 * E ^ 6) / 8},
                          {-5 / (8 * E ^ 2) + (5 * E ^ 6) / 8, 3 / (8 * E ^ 2) + (5 * E ^ 6) / 8}}},
      {{{4, 5}, {-3, -4}}, {{-3 / (2 * E) + (5 * E) / 2, -5 / (2 * E) + (5 * E) / 2},
                            {3 / (2 * E) - (3 * E) / 2, 5 / (2 * E) - (3 * E) / 2}}},
    }
    for _, c in ipairs(cases) do relnear(c[2], la.expm(c[1]), 5e-14) end
  end)
end)

describe("linalg.expm is exact where the answer is", function()
  it("1 x 1: exp of the entry, bit for bit (SciPy test_single_elt; Pade was ulps off)", function()
    for _, x in ipairs{0.7, 1, -1, 1e-300, -745, 709, 3.5, -0.1} do
      assert.are.equal(math.exp(x), la.expm{{x}}(1, 1))
    end
  end)
  it("zeros(n) gives I exactly, diag(d) exp of each entry (test_padecases_dtype_float)", function()
    for n = 1, 6 do
      local I = {}
      for i = 1, n do
        I[i] = {}
        for j = 1, n do I[i][j] = i == j and 1 or 0 end
      end
      exactly(I, la.expm(la.zeros(n, n)))
    end
    local d = {1e-2, 1e-1, 5e-1, 1, 10, -3.25, 0, 700}
    local X = la.expm(la.diag(d))
    for i = 1, #d do
      for j = 1, #d do assert.are.equal(i == j and math.exp(d[i]) or 0, X(i, j)) end
    end
  end)
  it("nilpotent: I + A when A^2 = 0, even with a 1-norm past the largest double", function()
    exactly({{1, 1, 0.5}, {0, 1, 1}, {0, 0, 1}}, la.expm{{0, 1, 0}, {0, 0, 1}, {0, 0, 0}})
    exactly({{-1, 4}, {-1, 3}}, la.expm{{-2, 4}, {-1, 2}})
    -- SciPy 1.10.1: sparse expm raises ValueError (NaN to integer), scipy.linalg.expm gives NaN
    exactly({{1e308 + 1, 1e308}, {-1e308, 1 - 1e308}}, la.expm{{1e308, 1e308}, {-1e308, -1e308}})
  end)
end)

describe("linalg.expm identities", function()
  local A = la.matrix{{0.5, -1.25, 2, 0.75}, {1.5, 0.25, -0.5, 1}, {-2, 1, 0.5, -0.25},
                      {0.25, 3, -1, -1.5}}
  it("matches SciPy 1.10.1 on a general 4 x 4", function()
    relnear({{-0.5754083424657386, 0.5419526216906971, 1.293601459602727, -0.01590436867940331},
             {2.188518012760655, 1.8872218926949198, 0.96358428046431, 1.186149410434528},
             {-0.42123591519865866, 1.4562509240555326, -0.25778334257074426, 0.15774081585754338},
             {2.3998256900118347, 1.7015815253087978, 0.4188778781659368, 1.3146798248367868}},
      la.expm(A), 1e-13)
  end)
  it("expm(A) expm(-A) = I, expm(A') = expm(A)', expm(2A) = expm(A)^2", function()
    for _, c in ipairs{1, 8, 1 / 64} do
      local X, Y = la.expm(c * A), la.expm(-c * A)
      assert.near(la.eye(4), X * Y, 1e-14 * la.norm(X, 1) * la.norm(Y, 1))
      assert.near(X.T, la.expm((c * A).T), 1e-13 * la.norm(X, 1))
      assert.near(la.expm(2 * c * A) / la.norm(X * X, 1), X * X / la.norm(X * X, 1), 1e-13)
    end
  end)
end)

describe("linalg.expm errors", function()
  local OVF = "linalg.expm: the result overflows"
  it("a result beyond the largest double is an error, never I or inf", function()
    assert.error_matches(function() la.expm{{710}} end, OVF)
    assert.error_matches(function() la.expm(la.diag{1, 710}) end, OVF)
    assert.error_matches(function() la.expm{{800, 1}, {0, 1}} end, OVF)       -- SciPy: inf
    assert.error_matches(function() la.expm(300 * la.matrix{{1, 2}, {3, 4}}) end, OVF)
    -- the 1-norm overflows: the old scaling exponent did too, and the answer was I
    assert.error_matches(function() la.expm{{1e308, 1e308}, {1e308, 1e308}} end, "overflows")
  end)
  it("a norm too large for scaling and squaring is an error, not a wrong value", function()
    -- the answer is [.5 -.5; -.5 .5]; 56 squarings gave 1.3e-8 for .5
    assert.error_matches(function() la.expm(la.full(2, 2, -1e17)) end,
      "linalg.expm: A is too large for scaling and squaring (56 squarings needed; past 53 "
      .. "the growth of rounding errors overflows the precision of the result)")
    -- SciPy 1.10.1: sparse expm raises ValueError, scipy.linalg.expm gives NaN
    assert.error_matches(function() la.expm(la.full(2, 2, -1e308)) end, "too large for scaling and squaring")
    assert.error_matches(function() la.expm{{0, 1e308, 0}, {0, 0, 1e308}, {0, 0, 0}} end,
      "too large for scaling and squaring")
    -- still fine: the same matrix at -1e3 and a 2 x 2 triangular one of huge norm
    relnear({{0.5, -0.5}, {-0.5, 0.5}}, la.expm(la.full(2, 2, -1e3)), 1e-13)
    relnear({{math.exp(-1), 1e300 * (math.exp(-1) - math.exp(-2))}, {0, math.exp(-2)}},
      la.expm{{-1, 1e300}, {0, -2}}, 1e-15)
  end)
  it("NaN and inf are errors even with check_finite = false (as before)", function()
    assert.error_matches(function() la.expm({{1, 0 / 0}, {0, 1}}, {check_finite = false}) end,
      "linalg.expm: A(1,2) is NaN")
    assert.error_matches(function() la.expm{{1, 0}, {-math.huge, 1}} end, "linalg.expm: A(2,1) is Inf")
  end)
end)
