-- la.randn: xoshiro256** and the 256-layer ziggurat (README: Random numbers).
-- The statistical tests run on fixed seeds, so they are deterministic; each
-- bound is stated with the probability that a correct generator breaks it on
-- a fresh seed (all below 1e-5). Pinned values: tools/randn_ref.py, an
-- independent Python transcription of the stream (Python's math.log in the
-- rare paths), printed with %.17g.
local la = require "linalg"

-- the standard normal CDF, Abramowitz and Stegun 26.2.17 (|error| < 7.5e-8,
-- far below the Kolmogorov-Smirnov bound used here)
local function Phi(x)
  local z = math.abs(x)
  local t = 1 / (1 + 0.2316419 * z)
  local poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
  local q = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi) * poly
  return x >= 0 and 1 - q or q
end

-- the Kolmogorov-Smirnov statistic of the sorted column S against Phi
local function ks(S)
  local n, d = S:rows(), 0
  for i = 1, n do
    local F = Phi(S(i, 1))
    d = math.max(d, F - (i - 1) / n, i / n - F)
  end
  return d
end

-- count of entries of z with f(x) true
local function count(z, f)
  local c = 0
  for i = 1, z:rows() do if f(z(i, 1)) then c = c + 1 end end
  return c
end

describe("la.randn (ziggurat)", function()
  it("gives tools/randn_ref.py's numbers: layer and wedge draws exactly, tail ones within 4 ulp", function()
    local z = la.randn(1332, 1, 42)
    -- indices 1-3: the common path (u * w_i); 117: the first wedge draw of
    -- seed 42; 1332: its first tail draw (beyond r = 3.654...)
    assert.are.equal(tonumber("-0.47849680986018589"), z(1))
    assert.are.equal(tonumber("0.048457259854680711"), z(2))
    assert.are.equal(tonumber("-0.77894459195968091"), z(3))
    assert.are.equal(tonumber("-0.084694062426052028"), z(117))
    local tail = tonumber("-3.8623440581274275")
    assert.is_true(math.abs(z(1332) - tail) <= 4 * 2 ^ -51, "tail draw " .. string.format("%.17g", z(1332)))
    -- seed 2026, a 3 x 4 matrix: the stream fills column 1 first
    local want = {"0.41328680395762507", "0.61560686297058387", "1.155618398768044",
      "-0.042753685130201113", "1.05411523469562", "-0.35822664050385034", "-1.2416375071638523",
      "0.79490128317662589", "1.3335403025562917", "2.0293167471324178", "-0.95611492360183292",
      "0.27165304868300316"}
    local A = la.randn(3, 4, 2026)
    for k = 1, 12 do
      assert.are.equal(tonumber(want[k]), A((k - 1) % 3 + 1, math.floor((k - 1) / 3) + 1))
    end
  end)

  it("leaves la.rand's stream as it was (the top 53 bits of each draw)", function()
    local u = la.rand(3, 1, 7)
    assert.are.equal(tonumber("0.7005764821796896"), u(1))
    assert.are.equal(tonumber("0.27875122947378428"), u(2))
    assert.are.equal(tonumber("0.83962746187641979"), u(3))
  end)

  it("is reproducible: same seed, same numbers; the stream is column-major; unseeded calls move on", function()
    assert.is_true(la.randn(50, 40, 9) == la.randn(50, 40, 9))
    assert.is_false(la.randn(50, 40, 9) == la.randn(50, 40, 10))
    assert.is_true(la.randn(3, 4, 5):reshape(12, 1) == la.randn(12, 1, 5))
    assert.is_false(la.randn(100, 1) == la.randn(100, 1))
  end)

  it("gives the same numbers at every thread count", function()
    local old = la.threads()
    la.threads(1)
    local a = la.randn(700, 300, 3)
    la.threads(2)
    local b = la.randn(700, 300, 3)
    la.threads(old)
    assert.is_true(a == b)
  end)

  it("has the normal's moments (1e6 draws)", function()
    local N = 1000000
    local z = la.randn(N, 1, 11)
    local m = z:mean()
    local d = z - m
    local m2 = d:emul(d):mean()
    local m4 = la.pow(d, 4):mean()
    -- 5 standard errors each (two-sided, 5.7e-7): mean 1/sqrt(N), variance
    -- sqrt(2/N), excess kurtosis sqrt(24/N)
    assert.is_true(math.abs(m) < 5 / math.sqrt(N), "mean " .. m)
    assert.is_true(math.abs(m2 - 1) < 5 * math.sqrt(2 / N), "variance " .. m2)
    assert.is_true(math.abs(m4 / (m2 * m2) - 3) < 5 * math.sqrt(24 / N), "kurtosis " .. m4 / (m2 * m2))
    -- the skewness too (standard error sqrt(6/N))
    local m3 = la.pow(d, 3):mean()
    assert.is_true(math.abs(m3 / m2 ^ 1.5) < 5 * math.sqrt(6 / N), "skewness " .. m3)
  end)

  it("passes a Kolmogorov-Smirnov test against the normal CDF at 1e5 draws", function()
    local n = 100000
    -- P(D > c / sqrt(n)) ~ 2 exp(-2 c^2): c = 2.225 gives 1e-4
    local bound = 2.225 / math.sqrt(n)
    for _, seed in ipairs{1, 2} do
      local S = la.randn(n, 1, seed):sort()
      local d = ks(S)
      assert.is_true(d < bound, string.format("seed %d: D = %.4g, bound %.4g", seed, d, bound))
    end
    -- the test can fail: a scale 5% off is caught
    assert.is_true(ks(la.randn(n, 1, 1):sort() * 1.05) > bound)
  end)

  it("puts the right share in each half-unit bin from -4 to 4 (1e6 draws)", function()
    local N = 1000000
    local z = la.randn(N, 1, 12)
    local bins = {}
    for k = 1, 16 do bins[k] = 0 end
    for i = 1, N do
      local x = z(i, 1)
      if x > -4 and x < 4 then
        local k = math.floor((x + 4) * 2) + 1
        bins[k] = bins[k] + 1
      end
    end
    for k = 1, 16 do
      local lo = -4 + (k - 1) / 2
      local p = Phi(lo + 0.5) - Phi(lo)
      local sd = math.sqrt(N * p * (1 - p))
      -- 5 sigma per bin (16 bins: < 1e-5 together)
      assert.is_true(math.abs(bins[k] - N * p) < 5 * sd + 1,
        string.format("bin [%g, %g): %d, expected %.1f", lo, lo + 0.5, bins[k], N * p))
    end
  end)

  it("draws the tails beyond 3.65 and 4.5 at the right rate, on both sides (4e6 draws) #heavy", function()
    local N = 4000000
    local z = la.randn(N, 1, 13)
    -- scipy 1.10: 2 * norm.sf(3.65) = 2.6224030884096865e-4, 2 * norm.sf(4.5) = 6.795346249460107e-6
    local function check(c, p, what)
      local sd = math.sqrt(N * p * (1 - p))
      -- 5 binomial sigma (with 1 of slack for the small counts): < 1e-6
      assert.is_true(math.abs(c - N * p) < 5 * sd + 1,
        string.format("%s: %d, expected %.1f", what, c, N * p))
    end
    local hi = count(z, function(x) return x > 3.65 end)
    local lo = count(z, function(x) return x < -3.65 end)
    check(hi, 2.6224030884096865e-4 / 2, "x > 3.65")
    check(lo, 2.6224030884096865e-4 / 2, "x < -3.65")
    check(count(z, function(x) return math.abs(x) > 4.5 end), 6.795346249460107e-6, "|x| > 4.5")
    local big = math.max(z:max(), -z:min())
    assert.is_true(big > 4.5 and big < 7, "largest |x| " .. big)
  end)

  it("gives float32 draws that are the float64 draws rounded, with the same moments", function()
    local f = la.randn(1000, 200, 21, {dtype = "float32"})
    assert.are.equal("float32", f.dtype)
    assert.is_true(f == la.randn(1000, 200, 21):astype("float32"))
    local N = 200000
    local x = f:astype("float64")
    local m = x:mean()
    local d = x - m
    assert.is_true(math.abs(m) < 5 / math.sqrt(N))
    assert.is_true(math.abs(d:emul(d):mean() - 1) < 5 * math.sqrt(2 / N))
    local S = la.randn(100000, 1, 22, {dtype = "float32"}):astype("float64"):sort()
    assert.is_true(ks(S) < 2.225 / math.sqrt(100000))
  end)
end)
