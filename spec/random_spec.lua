-- la.random: NumPy's random streams bit for bit (API.md: "Coming from NumPy").
-- Every expected value below was printed by NumPy 1.24.2 (Debian's python3-numpy)
-- with float.hex, by the calls named beside it; equality is exact, never near.
local la = require "linalg"

-- "0x1.8p-2" -> 0.375 without relying on the Lua version's number parser
-- (Lua 5.1 and LuaJIT read hex floats differently or not at all).
local function hex(s)
  local sign, int, frac, e = s:match("^(%-?)0x(%x)%.?(%x*)p([%+%-]%d+)$")
  assert(sign, "bad hex float " .. s)
  local x = tonumber(int, 16)
  if #frac > 0 then x = x + tonumber(frac, 16) / 16 ^ #frac end
  x = x * 2 ^ tonumber(e)
  return sign == "-" and -x or x
end

-- A (m x n) equals NumPy's array `want` (a list of rows of hex strings)
local function same(A, want)
  local m, n = A:shape()
  assert.are.equal(#want, m)
  for i = 1, m do
    assert.are.equal(#want[i], n)
    for j = 1, n do
      local w = hex(want[i][j])
      if A(i, j) ~= w then
        error(string.format("entry (%d, %d): got %.17g, NumPy gives %.17g (%s)",
          i, j, A(i, j), w, want[i][j]), 2)
      end
    end
  end
end

-- a column vector against a flat list of hex strings / of integers
local function column(list, f)
  local t = {}
  for i = 1, #list do t[i] = {f and f(list[i]) or list[i]} end
  return t
end
local function ints(A, want)
  local m, n = A:shape()
  assert.are.equal(#want, m * n)
  for k = 1, #want do
    local i, j = math.floor((k - 1) / n) + 1, (k - 1) % n + 1   -- NumPy's C order
    assert.are.equal(want[k], A(i, j))
  end
end

describe("linalg.random (NumPy's legacy global stream)", function()
  -- np.random.seed(s); np.random.randn(3, 2) / np.random.rand(2, 3)
  local randn32 = {
    [0] = {{"0x1.c398ef3e5cfa5p+0", "0x1.99c2cfacc8953p-2"}, {"0x1.f51d25222c9abp-1", "0x1.1ed5969e3314ep+1"}, {"0x1.de1847cb13ddap+0", "-0x1.f45dc42a58c82p-1"}},
    [1] = {{"0x1.9fd5190657c50p+0", "-0x1.393822fb7d9adp-1"}, {"-0x1.0e6c872548fd2p-1", "-0x1.12ae1255cb80cp+0"}, {"0x1.bb16b5735117dp-1", "-0x1.2698d1ecca259p+1"}},
    [42] = {{"0x1.fca2a28a9307cp-2", "-0x1.1b2a505de052ap-3"}, {"0x1.4b9dd50245e68p-1", "0x1.85e548e01aa2bp+0"}, {"-0x1.df8bcdf57a640p-3", "-0x1.df8332670db3bp-3"}},
    [4294967295] = {{"0x1.4bfc38c486d8ap-1", "0x1.56b192e507eeep-1"}, {"-0x1.149e836f192fdp+0", "0x1.23543dec5a0fcp-2"}, {"0x1.d27bf27c6aaafp-4", "0x1.bc38efd644bd1p-1"}},
  }
  local rand23 = {
    [0] = {{"0x1.18fe1565f12a8p-1", "0x1.6e2d4cf608733p-1", "0x1.349d66b6e894bp-1"}, {"0x1.16faedb6395f5p-1", "0x1.b1d2904fd0ef6p-2", "0x1.4ab2a21899b5bp-1"}},
    [1] = {{"0x1.ab07d0ffa3c06p-2", "0x1.70ce5f3baf051p-1", "0x1.dfb906661c000p-14"}, {"0x1.3596ab7fe08f4p-2", "0x1.2c8e5a3c7053cp-3", "0x1.7a3808cb0ca10p-4"}},
    [42] = {{"0x1.7f8771e5f51ecp-2", "0x1.e6c4068bbd654p-1", "0x1.76c7e8f1e6751p-1"}, {"0x1.32835d6632cb0p-1", "0x1.3f86b37222184p-3", "0x1.3f7a0e1997f4cp-3"}},
    [4294967295] = {{"0x1.8fe69a3924820p-4", "0x1.d323d824032b1p-1", "0x1.93fc6f61af3f9p-1"}, {"0x1.8f5ca1b151c07p-1", "0x1.25ec7244bbf80p-6", "0x1.f06314e047dc9p-1"}},
  }

  it("seed(s); randn(3, 2) and rand(2, 3) are NumPy's, row by row (seeds 0, 1, 42, 2^32-1)", function()
    for _, s in ipairs{0, 1, 42, 4294967295} do
      la.random.seed(s)
      same(la.random.randn(3, 2), randn32[s])
      la.random.seed(s)
      same(la.random.rand(2, 3), rand23[s])
    end
  end)

  it("continues the stream across calls, the kept Gaussian included", function()
    -- np.random.seed(42); a = np.random.randn(3); b = np.random.randn(2)
    la.random.seed(42)
    same(la.random.randn(3), column{"0x1.fca2a28a9307cp-2", "-0x1.1b2a505de052ap-3", "0x1.4b9dd50245e68p-1"})
    same(la.random.randn(2), column{"0x1.85e548e01aa2bp+0", "-0x1.df8bcdf57a640p-3"})
    -- np.random.seed(1); randn(1); rand(2); randn(1); randn(1): rand draws
    -- between the two variates of a pair, which stays kept
    la.random.seed(1)
    same(la.random.randn(1), {{"0x1.9fd5190657c50p+0"}})
    same(la.random.rand(2), column{"0x1.dfb906661c000p-14", "0x1.3596ab7fe08f4p-2"})
    same(la.random.randn(1), {{"-0x1.393822fb7d9adp-1"}})
    same(la.random.randn(1, 1), {{"-0x1.0e6c872548fd2p-1"}})
  end)

  it("seed forgets the kept Gaussian", function()
    -- np.random.seed(5); randn(1); np.random.seed(5); randn(2)
    la.random.seed(5)
    la.random.randn(1)
    la.random.seed(5)
    same(la.random.randn(2), column{"0x1.c3d1236911f14p-2", "-0x1.52cfa0066e3e2p-2"})
  end)

  it("gives NumPy's 100000th draws", function()
    -- np.random.seed(0); np.random.randn(100000)[-3:] and rand(100000)[-3:]
    la.random.seed(0)
    local z = la.random.randn(100000)
    same(z:sub(99998, 100000, 1, 1), column{"0x1.73ce1fe41f248p-1", "-0x1.2af6f0e5ef0acp+0", "-0x1.49035e4ee7df6p+0"})
    la.random.seed(0)
    local u = la.random.rand(100000)
    same(u:sub(99998, 100000, 1, 1), column{"0x1.9ec9bb3283d9dp-1", "0x1.1a20e71824f55p-1", "0x1.ce59161981844p-3"})
  end)

  it("seeds from a list as NumPy does (init_by_array)", function()
    -- np.random.seed([1, 2, 3]); np.random.randn(3)
    la.random.seed({1, 2, 3})
    same(la.random.randn(3), column{"0x1.cc12ffa7a487fp-1", "0x1.056a6b13638a6p-2", "0x1.e748a9cfae4c8p-1"})
  end)

  it("returns one number without a size, and float32 draws as the float64 ones rounded", function()
    la.random.seed(42)
    assert.are.equal(hex("0x1.fca2a28a9307cp-2"), la.random.randn())
    assert.are.equal(hex("-0x1.1b2a505de052ap-3"), la.random.randn())
    -- np.random.seed(9); np.random.randn(2, 2).astype(np.float32)
    la.random.seed(9)
    local F = la.random.randn(2, 2, {dtype = "float32"})
    assert.are.equal("float32", F.dtype)
    same(F, {{"0x1.2299d80000000p-10", "-0x1.287e3e0000000p-2"}, {"-0x1.1db6860000000p+0", "-0x1.a624660000000p-7"}})
  end)

  it("rejects seeds NumPy rejects", function()
    assert.error_matches(function() la.random.seed(2 ^ 32) end,
      "linalg.random.seed: bad argument #1 (seed must be an integer in 0..2^32-1 or a list of them)")
    assert.error_matches(function() la.random.seed(-1) end, "linalg.random.seed: bad argument #1")
    assert.error_matches(function() la.random.seed(1.5) end, "linalg.random.seed: bad argument #1")
    assert.error_matches(function() la.random.seed({}) end, "linalg.random.seed: bad argument #1 (seed list is empty)")
    assert.error_matches(function() la.random.seed({1, "x"}) end,
      "linalg.random.seed: seed entry 2 must be an integer in 0..2^32-1")
    assert.error_matches(function() la.random.randn(-1, 2) end, "linalg.random.randn: bad argument #1")
    assert.error_matches(function() la.random.rand(2, 2, {dtype = "int8"}) end, "linalg.random.rand:")
  end)

  it("leaves la.randn's own stream alone", function()
    local a = la.randn(2, 2, 7)
    la.random.seed(0)
    assert.is_true(a == la.randn(2, 2, 7))
  end)
end)

describe("linalg.random.default_rng (NumPy's Generator(PCG64))", function()
  -- g = np.random.default_rng(s); g.standard_normal((2, 3)); g.random((3, 2));
  -- g.integers(0, 10, (2, 5)); g.integers(-5, 5, 6); g.integers(0, 2**40, 3)
  local gen = {
    [0] = {sn = {{"0x1.017ed89db8441p-3", "-0x1.0e8cfe9bd45ccp-3", "0x1.47e57a468b06dp-1"}, {"0x1.adabbec84d4f0p-4", "-0x1.1243418e643edp-1", "0x1.7245f95ced1e6p-2"}}, r = {{"0x1.3698f6e301db6p-1", "0x1.758092bff1053p-1"}, {"0x1.165603cf43b8fp-1", "0x1.dec1d00f1ead7p-1"}, {"0x1.a1b78e9a8e006p-1", "0x1.66f0d1577d200p-9"}}, i10 = {3, 8, 5, 0, 7, 7, 8, 1, 0, 8}, i55 = {-5, 0, -5, -3, -1, -1}, i40 = {31137807719, 136650907649, 737359341826}},
    [42] = {sn = {{"0x1.3807c1104fc6bp-2", "-0x1.0a3c65fca9a7ep+0", "0x1.803b239e77350p-1"}, {"0x1.e191b2d157f36p-1", "-0x1.f3770ac89d08fp+0", "-0x1.4d5ba2db7ebc8p+0"}}, r = {{"0x1.85b41a5f78b48p-1", "0x1.927705476f592p-1"}, {"0x1.066070b41b168p-3", "0x1.cd31f8a75be6ep-2"}, {"0x1.7bb27a2e005c4p-2", "0x1.da80f0cc5d772p-1"}}, i10 = {7, 6, 4, 8, 5, 4, 4, 2, 0, 5}, i55 = {3, -5, 3, 3, -3, 1}, i40 = {833526285098, 389805424307, 1067293764881}},
    [12345] = {sn = {{"-0x1.6c7fcc2ecc744p+0", "0x1.4383b54eb0649p+0", "-0x1.bdc76014d359ep-1"}, {"-0x1.0964b5602ac3cp-2", "-0x1.349b2ef952a32p-4", "-0x1.7b553bada1ce9p-1"}}, r = {{"0x1.32558663228fcp-1", "0x1.7e6e7e21b4844p-3"}, {"0x1.58737aee75513p-1", "0x1.e233fc333a195p-1"}, {"0x1.fc683fcda6354p-3", "0x1.e5d3c015d46f6p-1"}}, i10 = {7, 6, 1, 0, 2, 4, 0, 8, 4, 6}, i55 = {-3, -2, -4, 2, 2, -3}, i40 = {89714177975, 175807072612, 373944107966}},
  }

  it("standard_normal, random and integers follow NumPy's stream (seeds 0, 42, 12345)", function()
    for _, s in ipairs{0, 42, 12345} do
      local g, want = la.random.default_rng(s), gen[s]
      same(g:standard_normal(2, 3), want.sn)
      same(g:random(3, 2), want.r)
      ints(g:integers(0, 10, {2, 5}), want.i10)
      ints(g:integers(-5, 5, 6), want.i55)
      ints(g:integers(0, 2 ^ 40, {3}), want.i40)
    end
  end)

  it("seeds from integers past 2^32 and from lists (SeedSequence)", function()
    -- np.random.default_rng(2**40).standard_normal(3); default_rng([1, 2, 3])
    same(la.random.default_rng(2 ^ 40):standard_normal(3),
      column{"-0x1.5df7ad561662bp+0", "-0x1.01a7c0e1d0265p-4", "-0x1.1631e59fac58dp+1"})
    same(la.random.default_rng({1, 2, 3}):standard_normal(3),
      column{"-0x1.328176c377a4cp-1", "0x1.65d94f740395ep+1", "-0x1.6860dd3120933p-3"})
  end)

  it("matches NumPy over 100000 normals, the ziggurat's tail included", function()
    -- g = np.random.default_rng(0); a = g.standard_normal(100000): a[-3:], and
    -- the first three |a| > r = 3.6541528853610088 (1-based positions)
    local a = la.random.default_rng(0):standard_normal(100000)
    same(a:sub(99998, 100000, 1, 1), column{"-0x1.277b9acfc67afp-12", "-0x1.18b0fb04a93d1p+0", "-0x1.fb4d87d27229ap-2"})
    local pos, val = {304, 479, 10478}, {"-0x1.e2d9e98d87bc6p+1", "-0x1.f3204051f2938p+1", "0x1.f907c5aa2ff63p+1"}
    local found = {}
    for i = 1, 100000 do
      if math.abs(a(i)) > 3.6541528853610088 and #found < 3 then found[#found + 1] = i end
    end
    assert.are.same(pos, found)
    for k = 1, 3 do assert.are.equal(hex(val[k]), a(pos[k])) end
  end)

  it("keeps the half of a 64-bit draw that integers did not use, as NumPy does", function()
    -- g = np.random.default_rng(7); g.integers(0, 10, 3); g.random();
    -- g.integers(0, 10, 3); g.integers(0, 10); g.integers(5)
    local g = la.random.default_rng(7)
    ints(g:integers(0, 10, 3), {9, 6, 6})
    assert.are.equal(hex("0x1.8d26acbf2815fp-1"), g:random())
    ints(g:integers(0, 10, {3}), {8, 8, 2})
    assert.are.equal(0, g:integers(0, 10))
    assert.are.equal(1, g:integers(5))
    -- np.random.default_rng(3): g.standard_normal(); g.random()
    local h = la.random.default_rng(3)
    assert.are.equal(hex("0x1.053cd67810b16p+1"), h:standard_normal())
    assert.are.equal(hex("0x1.e4fce8296f7e8p-3"), h:random())
  end)

  it("is a Generator with a protected metatable", function()
    local g = la.random.default_rng(1)
    assert.are.equal("Generator(PCG64)", tostring(g))
    assert.are.equal("linalg.Generator", getmetatable(g))
    assert.are.equal("float32", g:random(2, 2, {dtype = "float32"}).dtype)
  end)

  it("rejects bad seeds, bounds, sizes and receivers", function()
    local g = la.random.default_rng(1)
    assert.error_matches(function() la.random.default_rng(-1) end,
      "linalg.random.default_rng: bad argument #1 (seed must be an integer in 0..2^63-1")
    assert.error_matches(function() la.random.default_rng({}) end, "linalg.random.default_rng: bad argument #1 (seed list is empty)")
    assert.error_matches(function() g:integers(5, 5) end, "linalg.Generator.integers: low (5) must be less than high (5)")
    assert.error_matches(function() g:integers(0, 2 ^ 60) end, "linalg.Generator.integers: bad argument #3 (bound must be within +-2^53")
    assert.error_matches(function() g:integers(0, 3, {1, 2, 3}) end, "linalg.Generator.integers: bad argument #4 (size must be {m} or {m, n})")
    assert.error_matches(function() g:integers(0, 3, {-1}) end, "linalg.Generator.integers: bad argument")
    -- an entry of the size names the size's argument (it named a stack slot, #5)
    assert.error_matches(function() g:integers(0, 3, {-1, 1}) end,
      "linalg.Generator.integers: bad argument #4 (size must be in 0..", 1, true)
    assert.error_matches(function() g:integers(0, 3, {2, "x"}) end,
      "linalg.Generator.integers: bad argument #4 (integer expected, got string)", 1, true)
    assert.error_matches(function() g:integers(3, {1, -2}) end,
      "linalg.Generator.integers: bad argument #3 (size must be in 0..", 1, true)
    assert.are.same({2, 3}, {g:integers(0, 3, {2, 3}):shape()})
    assert.error_matches(function() g.random(la.zeros(1, 1)) end, "linalg.Generator.random: bad argument #1 (Generator expected")
    assert.error_matches(function() g.standard_normal(io.stdout) end, "linalg.Generator.standard_normal: bad argument #1 (Generator expected")
    -- a smaller userdata given the Generator's metatable is not read as one
    -- (a file handle: 16 bytes, a Generator's state is 40)
    local other = io.tmpfile()
    debug.setmetatable(other, debug.getmetatable(g))
    assert.error_matches(function() g.integers(other, 3) end, "linalg.Generator.integers: bad argument #1 (Generator expected")
  end)
end)

describe("la.random in bin/linalg-repl", function()
  it("lists the subtable's functions and names them in help", function()
    local name = os.tmpname()
    local f = assert(io.open(name, "w"))
    assert(f:write("la\nhelp 'default_rng'\nhelp 'integers'\n"))
    assert(f:close())
    local p = io.popen(string.format("LUA_CPATH='%s' %s bin/linalg-repl < %s 2>&1", package.cpath, require("interp").lua, name))
    local out = p:read("*a")
    p:close()
    os.remove(name)
    assert.is_truthy(out:find("random = {default_rng, rand, randn, seed}", 1, true))
    assert.is_falsy(out:find("table: 0x", 1, true))
    assert.is_truthy(out:find("la.random.default_rng([seed])", 1, true))
    assert.is_truthy(out:find("Generator:integers(lo [, hi] [, size])", 1, true))
  end)

  it("refuses a field set on a Generator with linalg's error (Lua's named neither)", function()
    local g = la.random.default_rng(1)
    local ok, err = pcall(function() g.seed = 2 end)
    assert.is_false(ok)
    assert.matches("linalg.Generator: a Generator takes no fields (g.seed = ...)", err, 1, true)
    ok, err = pcall(function() g[1] = 2 end)
    assert.is_false(ok)
    assert.matches("linalg.Generator: a Generator takes no fields (g[1] = ...)", err, 1, true)
    assert.are.equal("function", type(g.random))            -- methods still read
  end)
end)
