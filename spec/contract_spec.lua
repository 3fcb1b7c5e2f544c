-- The error contract and the edge cases of "no silent wrong answers": every
-- options table is checked, empty shapes give NumPy's answers, every error
-- names the function (memory included), and matrix syntax that has no
-- meaning here says what to write instead.
local lepack = require "lepack"                  -- string.pack on every Lua
local interp = require "interp"        -- the Lua running the specs and its build folder
local la = require "linalg"

local function expect_error(pattern, f, ...)
  local ok, e = pcall(f, ...)
  assert(not ok, "expected an error containing " .. pattern)
  e = tostring(e)
  assert(e:find(pattern, 1, true), "error\n  " .. e .. "\ndoes not contain\n  " .. pattern)
  assert(e:sub(1, 7) == "linalg.", "error does not start with linalg.: " .. e)
end

local M, v = la.matrix{{2, 1}, {1, 3}}, la.vector{1, 2}

describe("options", function()
  it("reject misspelt keys, naming the key meant", function()
    expect_error("linalg.attention: unknown option 'casual' (did you mean 'causal'?)",
      la.attention, M, M, M, {casual = true})
    expect_error("linalg.span_check: unknown option 'convx' (did you mean 'convex'?)",
      la.span_check, M, v, {convx = true})
    expect_error("linalg.lstsq: unknown option 'methd' (did you mean 'method'?)", la.lstsq, M, v, {methd = "qr"})
    expect_error("linalg.svd: unknown option 'ful' (did you mean 'full'?)", la.svd, M, {ful = true})
    expect_error("linalg.gram_schmidt: unknown option 'methd' (did you mean 'method'?)",
      la.gram_schmidt, M, {methd = "cgs"})
    expect_error("linalg.linear_regression: unknown option 'intercpt' (did you mean 'intercept'?)",
      la.linear_regression, M, v, {intercpt = false})
    expect_error("linalg.qr: unknown option 'colour'", la.qr, M, {colour = 1})
    expect_error("linalg.qr: options are named: got a number key", la.qr, M, {true})
  end)

  it("type-check values: booleans take true or false only", function()
    expect_error("linalg.attention: option 'lse' must be true or false, got string",
      la.attention, M, M, M, {lse = "yes"})
    -- causal also takes an alignment (issue 15), so a string names those
    expect_error('linalg.attention: option \'causal\' must be "upper_left" or "lower_right", got "yes"',
      la.attention, M, M, M, {causal = "yes"})
    expect_error("linalg.attention: option 'weights' must be true or false, got number",
      la.attention, M, M, M, {weights = 1})
    expect_error("linalg.lstsq: option 'rcond' must be a number, got string", la.lstsq, M, v, {rcond = "1"})
    expect_error("linalg.span_check: option 'tol' must be a number, got string", la.span_check, M, v, {tol = "x"})
    expect_error("linalg.projection_matrix: option 'complement' must be true or false, got number",
      la.projection_matrix, M, {complement = 1})
    expect_error('linalg.qr: option \'mode\' must be "reduced", "complete", "r" or "raw", got table', la.qr, M, {mode = {}})
    expect_error("linalg.lstsq: rcond is NaN", la.lstsq, M, v, {method = "qrp", rcond = 0 / 0})
    -- an integer option takes integral floats a Lua integer can hold, not infinities
    -- (found by the fuzzer: heatmap's format then raised a raw Lua error)
    for _, x in ipairs{math.huge, -math.huge, 0 / 0, 2.5, 2 ^ 63} do
      expect_error("linalg.heatmap: option 'cell' must be an integer, got number", la.heatmap,
        la.eye(2), os.tmpname(), {cell = x})
    end
  end)

  it("read through __index keep string values alive until their last use", function()
    -- an __index that collects garbage after handing out a fresh string
    -- used to free it while qr compared it (heap-use-after-free under ASan)
    local function gc_opts(key, value)
      return setmetatable({}, {__index = function(_, k)
        if k == key then return value .. "" end
        collectgarbage(); collectgarbage()
      end})
    end
    expect_error('linalg.qr: option \'mode\' must be "reduced", "complete", "r" or "raw", got "' .. ("x"):rep(60),
      la.qr, la.randn(4, 3, 1), gc_opts("mode", ("x"):rep(60)))
    local Q = la.qr(la.randn(4, 3, 1), gc_opts("mode", "complete"))
    assert.are.same({4, 4}, {Q:shape()})
    expect_error("linalg.gram_schmidt: option 'method' must be", la.gram_schmidt, M,
      gc_opts("method", ("y"):rep(50)))
    expect_error("linalg.frombuffer: option 'dtype' must be", la.frombuffer, "", 0, 0,
      gc_opts("dtype", ("z"):rep(50)))
    expect_error("linalg.lstsq: option 'method' must be", la.lstsq, M, v, gc_opts("method", ("w"):rep(50)))
    assert.near(la.lstsq(M, v), la.lstsq(M, v, gc_opts("method", "qrp")), 1e-14)
  end)

  it("frombuffer reads its dtype without running past the string", function()
    for _, dt in ipairs{"", "<", ">", "|", "=", "<f", "f", "<f8x", "<f16"} do
      expect_error("linalg.frombuffer: option 'dtype' must be", la.frombuffer, "", 0, 0, {dtype = dt})
    end
    assert.near({{1}}, la.frombuffer(lepack.pack(">d", 1), 1, 1, {dtype = ">f8"}), 0)
    assert.near({{-2}}, la.frombuffer(lepack.pack("<i4", -2), 1, 1, {dtype = "<i4"}), 0)
    expect_error('linalg.frombuffer: option \'order\' must be "C" or "F", got "c"', la.frombuffer, "", 0, 0, {order = "c"})
  end)
end)

describe("edge shapes", function()
  it("full SVD of an empty matrix has identity bases, as NumPy's", function()
    local U, s, Vt = la.svd(la.zeros(4, 0), {full = true})
    assert.near(la.eye(4), U, 0)
    assert.are.same({0, 1, 0, 0}, {s:rows(), s:cols(), Vt:rows(), Vt:cols()})
    U, s, Vt = la.svd(la.zeros(0, 3), {full = true})
    assert.are.same({0, 0}, {U:shape()})
    assert.near(la.eye(3), Vt, 0)
  end)

  it("lstsq with no right-hand sides gives x of n x 0, rank and sv (NumPy 1.24)", function()
    -- np.linalg.lstsq(np.ones((4,2)), np.ones((4,0))): x (2, 0), residuals [],
    -- rank 1, sv [2.82842712e+00, 6.79869978e-17]
    local x, res, rank, sv = la.lstsq(la.ones(4, 2), la.ones(4, 0))
    assert.are.same({2, 0}, {x:shape()})
    assert.is_nil(res)
    assert.are.equal(1, rank)
    assert.near(2.8284271247461903, sv(1), 1e-15)
    for _, method in ipairs{"svd", "qr", "qrp"} do
      x, res, rank = la.lstsq(la.randn(6, 2, 1), la.zeros(6, 0), {method = method})
      assert.are.same({2, 0, 1, 0, 2}, {x:rows(), x:cols(), res:rows(), res:cols(), rank})
    end
    x, res, rank = la.lstsq(la.randn(60, 2, 1), la.zeros(60, 0))     -- the tall (TSQR) path
    assert.are.same({2, 0, 0, 2}, {x:rows(), x:cols(), res:cols(), rank})
  end)
end)

describe("cond and norm", function()
  -- NumPy 1.24 on M = [[1,2,0],[3,4,1],[0,1,5]]: np.linalg.cond(M, p) and np.linalg.norm(M, p)
  local A = la.matrix{{1, 2, 0}, {3, 4, 1}, {0, 1, 5}}
  local ref = {
    {nil, 14.9911882263254, 7.54983443527075}, {1, 23.545454545454543, 7.0},
    {-1, 1.8181818181818175, 4.0}, {2, 14.9911882263254, 6.143633288600165},
    {-2, 0.06670585312536746, 0.4098162998054809}, {math.huge, 22.54545454545454, 8.0},
    {-math.huge, 1.6363636363636362, 3.0}, {"fro", 18.54411759886841, 7.54983443527075},
    {"nuc", 30.92981138403758, 10.922410633736408},
  }
  it("take every order NumPy takes", function()
    for _, r in ipairs(ref) do
      assert.near(r[2], la.cond(A, r[1]), 1e-13)
      assert.near(r[3], la.norm(A, r[1]), 1e-13)
    end
    assert.near(21, la.cond({{1, 2}, {3, 4}}, 1), 1e-13)    -- np.linalg.cond([[1,2],[3,4]], 1)
    assert.near(3, la.cond({{4, 1}, {2, 3}}, 1), 1e-14)
    assert.are.equal(math.huge, la.cond({{1, 2}, {2, 4}}, 1))
    assert.near(la.cond(A, 1), la.cond(A, 1, {check_finite = false}), 1e-15)
  end)

  it("reject orders they do not know, never ignore them", function()
    expect_error("linalg.cond: bad argument #2 (order must be 1, -1, 2, -2", la.cond, A, 3)
    expect_error('linalg.cond: bad argument #2 (order must be a number, "fro" or "nuc")', la.cond, A, "x")
    expect_error("linalg.cond: matrix must be square, got 2x3", la.cond, la.ones(2, 3), 1)
    expect_error("linalg.norm: bad argument #2 (matrix norm order must be", la.norm, A, 3)
    -- a minimum over nothing; NumPy 1.24: np.linalg.norm(np.zeros((0, 3)), -1) is 0.0
    -- (three zero column sums) and np.linalg.norm(np.zeros((3, 0)), -np.inf) 0.0 (three rows)
    expect_error("linalg.norm: order -1 of an empty 3x0 matrix is undefined", la.norm, la.zeros(3, 0), -1)
    expect_error("linalg.norm: order -inf of an empty 0x3 matrix is undefined", la.norm, la.zeros(0, 3), -math.huge)
    expect_error("linalg.norm: order -2 of an empty 0x3 matrix is undefined", la.norm, la.zeros(0, 3), -2)
    assert.are.equal(0, la.norm(la.zeros(0, 3), -1))
    assert.are.equal(0, la.norm(la.zeros(3, 0), -math.huge))
    assert.are.equal(0, la.norm(la.zeros(0, 3, {dtype = "float32"}), -1))
  end)
end)

describe("matrix syntax", function()
  it("A ^ k is the matrix power, as Octave's; elementwise power is la.pow", function()
    local A = la.matrix{{1, 2}, {3, 4}}
    assert.near({{7, 10}, {15, 22}}, A ^ 2, 0)
    assert.near(la.eye(2), A ^ 0, 0)
    assert.near({{-2, 1}, {1.5, -0.5}}, A ^ -1, 1e-15)
    assert.near(A * A * A * A * A, A ^ 5, 1e-15)
    assert.near(la.inv(A) * la.inv(A), A ^ -2, 1e-14)
    assert.near({{1, 4}, {9, 16}}, la.pow(A, 2), 0)
    assert.near({{2, 4}, {8, 16}}, la.pow(2, A), 0)
    assert.near({{1, 2}, {9, 4}}, la.pow(A, {{1, 1}, {2, 1}}), 0)
    assert.are.equal(1024.0, la.pow(2, 10))
    assert.near(la.matrix_power(A, 3), A ^ 3, 0)
    expect_error("linalg.matrix_power: bad argument #2 (integer exponent expected, got 0.5 (elementwise power is la.pow(A, p)))",
      function() return A ^ 0.5 end)
    expect_error("linalg.matrix_power: number ^ matrix is not defined", function() return 2 ^ A end)
    expect_error("linalg.matrix_power: A ^ k needs a square matrix, got 2x3 (elementwise power is la.pow(A, p))",
      function() return la.ones(2, 3) ^ 2 end)
    expect_error("linalg.matrix_power: matrix is singular", function() return la.matrix{{1, 2}, {2, 4}} ^ -1 end)
  end)

  it("matrices take no fields and A[i] says what to write instead", function()
    local A = la.ones(2, 2)
    expect_error("linalg.matrix: matrices take no fields (A.foo = ...): use A:set(i, j, x)",
      function() A.foo = 1 end)
    expect_error("linalg.matrix: A[1] = ... is not defined: use A:set(i, j, x)", function() A[1] = 2 end)
    expect_error("linalg.matrix: A[1] is not defined: use A(i, j) or A:get(i, j) for an entry, A:row(i)",
      function() return A[1] end)
    expect_error("linalg.matrix: no method or field 'lstq' (did you mean 'lstsq'?)",
      function() return A:lstq(v) end)
    expect_error("linalg.matrix: no method or field 'tranpose'", function() return A:tranpose() end)
    expect_error("linalg.matrix: no field with a boolean key", function() return A[true] end)
    assert.are.equal(1, A(1, 1))                    -- still readable
  end)

  it("== compares shapes and entries; a matrix is equal to itself even with NaN inside", function()
    local N = la.matrix{{0 / 0}}
    assert.is_true(N == N)                            -- Lua compares identity first
    assert.is_false(N == la.matrix{{0 / 0}})          -- NaN ~= NaN entrywise
    assert.is_true(la.ones(2, 2) == la.ones(2, 2))
    assert.is_false(la.ones(2, 2) == la.ones(2, 1))
  end)
end)

describe("out of memory", function()
  -- a child lua5.4 under a virtual-memory limit: allocations that cannot be
  -- had are errors naming the function and the size; pending under a
  -- sanitizer or valgrind
  local limits = require "limits"
  local limited, it = limits.limited, limits.unlimited(it, pending)

  it("names the function and what was asked", function()
    local out = limited("print(select(2, pcall(la.zeros, 40000, 40000)))")
    assert.are.equal("linalg.zeros: not enough memory for a 40000x40000 matrix (11.9 GiB)\n", out)
  end)

  it("walks the functions that copy a 0.9 GiB matrix #heavy", function()
    local out = limited([[
      local A = la.zeros(12000, 10000)
      for _, c in ipairs{
        {"copy", function() return A:copy() end}, {"t", function() return A.T end},
        {"add", function() return A + A end}, {"mul", function() return A * 2 end},
        {"reshape", function() return A:reshape(10000, 12000) end},
        {"pow", function() return la.pow(A, 2) end}, {"softmax", function() return la.softmax(A) end},
        {"qr", function() return la.qr(A) end}, {"svd", function() return la.svd(A) end},
        {"lstsq", function() return la.lstsq(A, la.zeros(12000, 1)) end},
        {"gram_schmidt", function() return la.gram_schmidt(A) end},
        {"hstack", function() return la.hstack{A, A} end},
      } do
        local ok, e = pcall(c[2])
        print(c[1], ok, e)
      end]])
    for line in out:gmatch("[^\n]+") do
      local name, ok, e = line:match("^(%S+)\t(%S+)\t(.*)$")
      assert(name, "unexpected output: " .. line)
      assert.are.equal("false", ok, line)
      assert(e:find("^linalg%.[%w_]+: not enough memory for "), line)
    end
    assert.are.equal(12, select(2, out:gsub("\n", "")))
  end)
end)
