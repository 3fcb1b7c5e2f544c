-- Argument counts, the arguments NumPy and Octave have (eye's k, diag's k,
-- trace's offset, norm's dim, kron of several operands), vectors along
-- themselves, linspace at non-finite ends and empty slice ranges.
-- Reference values: NumPy 1.24.2 (Debian's python3-numpy), printed with
-- .tolist(); Octave's semantics for ranges, modelled in plain Lua below.
local la = require "linalg"

local inf, nan = math.huge, 0 / 0
local unpack = table.unpack or unpack
local MAXINT = MAXINT or 2 ^ 53                  -- where numbers are doubles: 2^53
local MININT = MININT or -2 ^ 53

-- the error f raises, or nil
local function err(f, ...)
  local ok, e = pcall(f, ...)
  if ok then return nil end
  return tostring(e)
end

describe("argument counts", function()
  local A = la.matrix{{4, 1}, {1, 3}}
  local v = la.vector{1, 2}
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir)
  local npy, csv, svg = dir .. "/a.npy", dir .. "/a.csv", dir .. "/a.svg"
  la.save_npy(A, npy)
  la.save_csv(A, csv)
  local O, lse = la.attention(A, A, A, {lse = true})
  local X, y = la.matrix{{1}, {2}, {3}}, la.vector{1, 2, 4}
  local model = la.linear_regression(X, y)
  local state = la.lsq_state(2)
  state:add(A, v)
  local id = function(x) return x end

  -- Every public function with as many arguments as it takes, all valid;
  -- opts: an options table may follow them. One more must be an error
  -- naming the function and that argument.
  local cases = {
    {"matrix", {2, 2, 0}, opts = {}}, {"vector", {{1, 2}}, opts = {}},
    {"zeros", {2, 2}, opts = {}}, {"ones", {2, 2}, opts = {}}, {"eye", {3, 3, 1}, opts = {}},
    {"diag", {v, 1}}, {"hstack", {{A, A}}}, {"vstack", {{A, A}}},
    {"rand", {2, 2, 1}, opts = {}}, {"randn", {2, 2, 1}, opts = {}},
    {"arange", {0, 5, 1}, opts = {}}, {"linspace", {0, 1, 5}, opts = {}},
    {"logspace", {0, 1, 5, 10}, opts = {}}, {"full", {2, 2, 3}, opts = {}},
    {"inner", {v, v}}, {"eigvalsh", {A}, opts = {}}, {"isclose", {A, A}, opts = {}},
    {"fill", {la.zeros(2, 2), 1}},
    {"zeros_like", {A}}, {"ones_like", {A}}, {"full_like", {A, 2}},
    {"triu", {A, 0}}, {"tril", {A, 0}}, {"tile", {A, 1, 2}}, {"repmat", {A, 2, 2}},
    {"flip", {A, 1}}, {"fliplr", {A}}, {"flipud", {A}}, {"roll", {A, 1, 1}},
    {"circshift", {A, 1, 1}}, {"vec", {A}}, {"slice", {A, ":", ":"}},
    {"emul", {A, A}}, {"ediv", {A, A}}, {"pow", {A, 2}}, {"matmul", {A, A}, opts = {trans_a = true}},
    {"dot", {v, v}}, {"outer", {v, v}}, {"map", {A, id}},
    {"sum", {A, 1}, opts = {}}, {"mean", {A, 1}, opts = {}}, {"prod", {A, 1}, opts = {}},
    {"min", {A, 1}, opts = {}}, {"max", {A, 1}, opts = {}},
    {"var", {A, 1}, opts = {ddof = 1}}, {"std", {A, 1}, opts = {ddof = 1}},
    {"argmin", {A, 1}, opts = {}}, {"argmax", {A, 1}, opts = {}},
    {"cumsum", {A, 1}}, {"cumprod", {A, 1}},
    {"sort", {A, 1}, opts = {descending = true}}, {"argsort", {A, 1}, opts = {}},
    {"norm", {A, 2, 1}}, {"vecnorm", {A, 2, 1}}, {"trace", {A, 1}},
    {"rank", {A, 1e-10}, opts = {}}, {"cond", {A, 2}, opts = {}},
    {"cosine", {v, v}}, {"angle", {v, v}}, {"cosine_matrix", {A, A}},
    {"allclose", {A, A, 1e-5, 1e-8}},
    {"where", {A, A, A}}, {"clip", {A, 0, 1}}, {"any", {A, 1}}, {"all", {A, 1}},
    {"count_nonzero", {A, 1}}, {"find", {A, 1}}, {"nonzero", {A}},
    {"qr", {A}, opts = {}}, {"svd", {A}, opts = {}}, {"eigh", {A}, opts = {}},
    {"cholesky", {A}, opts = {}}, {"lu", {A}, opts = {}}, {"eig", {A, A}, opts = {}},
    {"eigvals", {A}, opts = {}}, {"schur", {A}, opts = {}}, {"hessenberg", {A}, opts = {}},
    {"expm", {A}, opts = {}}, {"null", {A, 1e-10}}, {"orth", {A, 1e-10}},
    {"solve", {A, v}, opts = {}}, {"inv", {A}, opts = {}}, {"det", {A}, opts = {}},
    {"pinv", {A, 1e-15}, opts = {}}, {"matrix_power", {A, 2}},
    {"lstsq", {A, v}, opts = {}}, {"nnls", {A, v}, opts = {}}, {"lsq_state", {2, 1}},
    {"gram_schmidt", {A}, opts = {}},
    {"softmax", {A, 2}}, {"log_softmax", {A, 2}}, {"attention", {A, A, A}, opts = {}},
    {"attention_combine", {O, lse, O, lse}},
    {"attention_backward", {A, A, A, A, O, lse}, opts = {}},
    {"frombuffer", {A:tobytes(), 2, 2}, opts = {}}, {"tobytes", {A}},
    {"config", {}}, {"threads", {1}},
    {"shape", {A}}, {"rows", {A}}, {"cols", {A}}, {"numel", {A}},
    {"get", {A, 1, 1}}, {"set", {A:copy(), 1, 1, 5}}, {"row", {A, 1}}, {"col", {A, 1}},
    {"sub", {A, 1, 1, 1, 1}}, {"copy", {A}}, {"reshape", {A, 1, 4}}, {"totable", {A}},
    {"t", {A}}, {"astype", {A, "float32"}},
    {"is_matrix", {A}}, {"asmatrix", {A, "asmatrix", 1}},
    {"check_finite", {A, "check_finite", "A", true}},
    {"project", {v, A}, opts = {}}, {"projection_matrix", {A}, opts = {}},
    {"scalar_projection", {v, v}}, {"span_check", {A, v}, opts = {}},
    {"linear_regression", {X, y}, opts = {}},
    {"multihead_attention", {A, la.eye(2), la.eye(2), la.eye(2), la.eye(2), 1}, opts = {}},
    {"load_npy", {npy}, opts = {}}, {"npy_info", {npy}}, {"save_npy", {A, npy}},
    {"load_csv", {csv}, opts = {}}, {"save_csv", {A, csv}, opts = {}},
    {"heatmap", {A, svg}, opts = {}}, {"plot_vectors", {{{{1, 0}}, path = svg}}},
    {"scatter", {v, v, svg}, opts = {}}, {"lineplot", {v, v, svg}, opts = {}},
    {"histogram", {v, svg}, opts = {}}, {"printoptions", {}, opts = {}},
    {"slogdet", {A}, opts = {}}, {"multi_dot", {{A, A}}},
    {"lu_factor", {A}, opts = {}}, {"lu_solve", {la.lu_factor(A), v}, opts = {trans = true}},
    {"cho_factor", {A}, opts = {lower = true}}, {"cho_solve", {la.cho_factor(A), v}, opts = {}},
    {"round", {A, 2}}, {"cummin", {A, 1}}, {"cummax", {A, 1}}, {"diff", {A, 1, 1}},
    {"ptp", {A, 1}, opts = {}},
    {"sqrtm", {A}, opts = {}}, {"logm", {A}, opts = {}},
    {"expm_frechet", {A, A}, opts = {compute_expm = false}},
    {"softmax_backward", {A, A, 2}}, {"log_softmax_backward", {A, A, 2}},
    {"clip_grad_norm", {{A:copy()}, 1}, opts = {norm = 2}},
    {"median", {A, 1}}, {"quantile", {A, 0.5, 1}}, {"percentile", {A, 50, 1}},
    {"logsumexp", {A, 1}}, {"cov", {A, A}, opts = {ddof = 0}}, {"corrcoef", {A, A}, opts = {}},
  }
  for _, f in ipairs{"exp", "log", "log1p", "expm1", "sqrt", "abs", "sign", "floor", "ceil",
                      "sin", "cos", "tan", "tanh", "sinh", "cosh", "asin", "acos",
                      "atan", "log2", "log10", "trunc", "fix"} do
    cases[#cases + 1] = {f, {la.matrix{{0.5}}}}
  end
  for _, f in ipairs{"isnan", "isinf", "isfinite"} do      -- {dtype}: the mask's type
    cases[#cases + 1] = {f, {la.matrix{{0.5}}}, opts = {dtype = "float64"}}
  end
  for _, f in ipairs{"maximum", "minimum", "atan2", "hypot", "fmod", "mod"} do
    cases[#cases + 1] = {f, {A, A}}
  end
  for _, f in ipairs{"lt", "le", "gt", "ge", "eq", "ne"} do
    cases[#cases + 1] = {f, {A, A}, opts = {dtype = "bool"}}
  end
  -- methods: self counts, as Lua passes it
  local methods = {
    {"lsq_state.add", state.add, {state, A, v}}, {"lsq_state.merge", state.merge, {state, la.lsq_state(2)}},
    {"lsq_state.tobytes", state.tobytes, {state}}, {"lsq_state.solve", state.solve, {state}, opts = {}},
    {"predict", model.predict, {model, X}}, {"score", model.score, {model, X, y}},
  }
  -- la.random's functions and the Generator's methods (self counts)
  local g = la.random.default_rng(1)
  local random = {
    {"random.seed", la.random.seed, {1}}, {"random.rand", la.random.rand, {2, 2}, opts = {}},
    {"random.randn", la.random.randn, {2, 2}, opts = {}},
    {"random.default_rng", la.random.default_rng, {1}},
    {"Generator.random", g.random, {g, 2, 2}, opts = {}},
    {"Generator.standard_normal", g.standard_normal, {g, 2, 2}, opts = {}},
    {"Generator.integers", g.integers, {g, 0, 5, {2, 2}}},
  }
  for _, c in ipairs(random) do methods[#methods + 1] = c end
  -- the functions that take any number: kron and blkdiag (operands), and
  -- the module's version string
  local open = {kron = true, blkdiag = true, version = true, random = true}

  it("lists every public function", function()
    local listed = {}
    for _, c in ipairs(cases) do listed[c[1]] = true end
    for name in pairs(la) do
      assert(listed[name] or open[name], "no argument-count case for la." .. name)
    end
  end)

  local function message(name, k, n, opts)
    return string.format("linalg.%s: bad argument #%d (%s takes at most %d argument%s%s)", name, k,
                         name, n, n == 1 and "" or "s", opts and " and an options table" or "")
  end

  local function check(name, f, c)
    local args, n = {}, #c[3]
    for i = 1, n do args[i] = c[3][i] end
    -- every valid argument, and the options table: no error
    if c.opts then args[n + 1] = c.opts end
    local e = err(f, unpack(args, 1, n + (c.opts and 1 or 0)))
    assert(e == nil, name .. " with valid arguments: " .. tostring(e))
    -- one argument more (after the options table where there is one)
    local k = n + (c.opts and 2 or 1)
    args[k] = 7
    local want = n == 0 and not c.opts and "linalg.config: bad argument #1 (config takes no arguments)"
                 or message(name, k, n, c.opts)
    assert.are.equal(want, err(f, unpack(args, 1, k)))
    -- a number where the options table goes: options table expected
    if c.opts then
      args[n + 1] = 7
      assert.are.equal(string.format("linalg.%s: bad argument #%d (options table expected, got number)",
                                     name, n + 1), err(f, unpack(args, 1, n + 1)))
    end
    -- trailing nils are no arguments (NumPy's None)
    args[n + 1], args[n + 2] = nil, nil
    assert(err(f, unpack(args, 1, n + 2)) == nil, name .. " with trailing nils")
  end

  it("rejects one argument too many, naming the function and the argument", function()
    for _, c in ipairs(cases) do check(c[1], la[c[1]], {c[1], nil, c[2], opts = c.opts}) end
  end)

  it("counts self in methods", function()
    for _, c in ipairs(methods) do check(c[1], c[2], c) end
    assert.are.equal("linalg.get: bad argument #4 (get takes at most 3 arguments)",
                     err(function() return A(1, 1, 2) end))
    assert.are.equal("linalg.exp: bad argument #2 (exp takes at most 1 argument)",
                     err(function() return A:exp(2) end))
  end)

  it("rejects the junk of the reported cases", function()
    assert.are.equal(0.12, la.round(0.125, 2))           -- np.round(0.125, 2): decimals
    assert.error_matches(function() la.round(0.125, 2, 1) end,
                         "linalg.round: bad argument #3 (round takes at most 2 arguments)")
    assert.error_matches(function() la.log(v, 2) end, "linalg.log: bad argument #2")
    assert.error_matches(function() la.rank(A, 1e-10, 9) end,
                         "linalg.rank: bad argument #3 (options table expected, got number)")
    assert.error_matches(function() la.tril(A, 0, 1) end, "linalg.tril: bad argument #3")
    assert.error_matches(function() la.softmax(A, 2, 3) end, "linalg.softmax: bad argument #3")
    assert.error_matches(function() la.cosine(v, v, v) end, "linalg.cosine: bad argument #3")
    assert.error_matches(function() la.matrix({{1, 2}}, 5) end,
                         "linalg.matrix: bad argument #2 (matrix(t) and matrix(A) take an options table only)")
    assert.error_matches(function() la.matrix(A, 5, {dtype = "float32"}) end, "linalg.matrix: bad argument #2")
    assert.are.equal("float32", la.matrix({{1, 2}}, {dtype = "float32"}).dtype)
    assert.are.equal("float32", la.matrix(A, {dtype = "float32"}).dtype)
    assert.near({{0, 0, 0}}, la.matrix(1, 3, nil, {dtype = "float32"}), 0)
    local bytes = la.lsq_state(2):tobytes()
    assert.error_matches(function() la.lsq_state(bytes, 3) end,
                         "linalg.lsq_state: bad argument #2 (lsq_state(bytes) takes no other argument)")
    assert.are.equal(0, la.lsq_state(bytes).rows)
  end)

  it("leaves metamethods their fixed counts", function()
    assert.near({{8, 2}, {2, 6}}, A + A, 0)
    assert.near({{-4, -1}, {-1, -3}}, -A, 0)
    assert.is_true(A == A:copy())
    assert.are.equal(2, #A)
    assert.matches("^2x2 matrix", tostring(A))
    assert.near({{4, 1}}, A.T:row(1), 0)
  end)

  it("keeps kron and blkdiag open to any number of operands", function()
    assert.are.same({8, 8}, {la.kron(A, A, A):shape()})
    assert.are.same({6, 6}, {la.blkdiag(A, A, A):shape()})
  end)
end)

describe("the arguments NumPy has", function()
  local K = la.matrix{{3, -4, 1}, {0, 2, -2}, {1, 1, 5}, {-6, 0, 2}}
  local A = la.reshape(la.arange(1, 13), 4, 3).T          -- np.arange(1., 13).reshape(3, 4)

  it("kron takes any number of operands, folded from the left", function()
    local a, b, c = la.matrix{{1, 2}, {3, 4}}, la.matrix{{0, 1}, {1, 0}}, la.matrix{{1}, {2}}
    -- np.kron(np.kron(a, b), c)
    local want = {{0, 1, 0, 2}, {0, 2, 0, 4}, {1, 0, 2, 0}, {2, 0, 4, 0},
                  {0, 3, 0, 4}, {0, 6, 0, 8}, {3, 0, 4, 0}, {6, 0, 8, 0}}
    assert.near(want, la.kron(a, b, c), 0)
    assert.near(la.kron(a, la.kron(b, c)), la.kron(a, b, c), 0)      -- associative
    assert.near(la.kron(a, b), la.kron(a, b), 0)
    assert.are.equal("float32", la.kron(a:astype("float32"), b:astype("float32"), {{1}}).dtype)
    assert.are.equal("float64", la.kron(a:astype("float32"), b, c:astype("float32")).dtype)
    assert.near({{2, 4}, {6, 8}}, la.kron(a, {{1}}, {{2}}), 0)
    assert.error_matches(function() la.kron(a, b, "x") end, "linalg.kron: bad argument #3")
    assert.error_matches(function() la.kron(a) end, "linalg.kron: bad argument #2")
    assert.error_matches(function() la.kron(la.zeros(50000, 1), la.zeros(50000, 1), la.zeros(2, 1)) end,
                         "linalg.kron: result of")
  end)

  it("norm(K, ord, dim) gives the vector norm of each column (dim 1) or row (dim 2)", function()
    -- np.linalg.norm(K, axis=1), (K, axis=0), (K, 1, axis=1), (K, inf, axis=0), (K, 3, axis=1), (K, 0, axis=0)
    assert.near({{5.0990195135927845}, {2.8284271247461903}, {5.196152422706632}, {6.324555320336759}},
                la.norm(K, 2, 2), 1e-15)
    assert.near({{6.782329983125268, 4.58257569495584, 5.830951894845301}}, la.norm(K, 2, 1), 1e-15)
    assert.near({{6.782329983125268, 4.58257569495584, 5.830951894845301}}, la.norm(K, nil, 1), 1e-15)
    assert.near({{8}, {4}, {7}, {8}}, la.norm(K, 1, 2), 0)
    assert.near({{6, 4, 5}}, la.norm(K, inf, 1), 0)
    assert.near({{4.514357435474001}, {2.519842099789746}, {5.026525695313478}, {6.0731779437513245}},
                la.norm(K, 3, 2), 1e-15)
    assert.near({{3, 3, 4}}, la.norm(K, 0, 1), 0)
    assert.near(la.vecnorm(K, 2, 2), la.norm(K, 2, 2), 0)
    assert.are.equal("float32", la.norm(K:astype("float32"), 2, 2).dtype)
    assert.error_matches(function() la.norm(K, "fro", 1) end,
                         "linalg.norm: bad argument #2 (a norm along a dim takes a number order")
    assert.error_matches(function() la.norm(K, 2, 3) end, "linalg.norm: bad argument #3 (dim must be 1 or 2)")
    assert.are.equal(la.norm(K), la.norm(K, nil, nil))
  end)

  it("eye(n, m, k) puts the ones on diagonal k (NumPy's eye)", function()
    assert.near({{0, 1, 0}, {0, 0, 1}, {0, 0, 0}}, la.eye(3, 3, 1), 0)           -- np.eye(3, 3, 1)
    assert.near({{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}}, la.eye(3, 4, -1), 0)  -- np.eye(3, 4, -1)
    assert.near({{0, 0, 0}, {0, 0, 0}}, la.eye(2, 3, 5), 0)                       -- np.eye(2, 3, 5)
    assert.near({{0, 0}, {0, 0}, {1, 0}}, la.eye(3, 2, -2), 0)                    -- np.eye(3, 2, -2)
    assert.near({{0, 1}, {0, 0}}, la.eye(2, nil, 1), 0)
    assert.near({{0, 0}, {0, 0}}, la.eye(2, 2, MININT), 0)
    assert.are.equal("float32", la.eye(2, 2, 1, {dtype = "float32"}).dtype)
    assert.error_matches(function() la.eye(2, 2, 0.5) end, "linalg.eye: bad argument #3 (integer expected")
  end)

  it("trace(A, offset) sums diagonal offset (NumPy's trace)", function()
    -- [np.trace(A, k) for k in range(-4, 6)]
    local want = {0, 0, 9, 15, 18, 21, 11, 4, 0, 0}
    for k = -4, 5 do assert.are.equal(want[k + 5], la.trace(A, k)) end
    assert.are.equal(la.trace(A), la.trace(A, 0))
    assert.are.equal(21, la.trace(A:astype("float32"), 1))
    assert.are.equal(0, la.trace(A, MAXINT))
    assert.are.equal(0, la.trace(A, MININT))
    assert.are.equal(19, la.trace(A:slice("2:3", "2:4"), 1))         -- a view {{6, 7, 8}, {10, 11, 12}}: 7 + 12
  end)
end)

describe("diag(v, k) and diag(A, k)", function()
  local A = la.reshape(la.arange(1, 13), 4, 3).T          -- np.arange(1., 13).reshape(3, 4)

  it("places a vector on diagonal k of a square matrix of size n + |k|", function()
    -- np.diag([1., 2, 3], 1), np.diag([1., 2], -2)
    assert.near({{0, 1, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 3}, {0, 0, 0, 0}}, la.diag({1, 2, 3}, 1), 0)
    assert.near({{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 2, 0, 0}}, la.diag({{1, 2}}, -2), 0)
    assert.near({{1, 0}, {0, 2}}, la.diag({1, 2}, 0), 0)
    assert.are.equal("float32", la.diag(la.vector({1, 2}, {dtype = "float32"}), 1).dtype)
    assert.error_matches(function() la.diag({1, 2}, 2 ^ 31) end, "linalg.diag: bad argument #2")
  end)

  it("extracts diagonal k of a matrix, empty past the corners", function()
    -- [np.diag(A, k) for k in (-3, -2, -1, 0, 1, 2, 3, 4)]
    local want = {{}, {9}, {5, 10}, {1, 6, 11}, {2, 7, 12}, {3, 8}, {4}, {}}
    for i, k in ipairs{-3, -2, -1, 0, 1, 2, 3, 4} do
      local d = la.diag(A, k)
      assert.are.same({#want[i], 1}, {d:shape()})
      for r = 1, #want[i] do assert.are.equal(want[i][r], d(r)) end
    end
    assert.are.same({0, 1}, {la.diag(A, MAXINT):shape()})
  end)
end)

describe("a vector runs along itself", function()
  local col, row = la.vector{1, 2, 3}, la.matrix{{1, 2, 3}}
  -- np.exp(x) / np.exp(x).sum() and x - logsumexp(x) for x = [1, 2, 3]
  local sm = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219}
  local lsm = {-2.4076059644443806, -1.4076059644443804, -0.40760596444438035}

  it("in softmax and log_softmax, a column as a row", function()
    assert.near(sm, la.softmax(col), 1e-15)
    assert.near({sm}, la.softmax(row), 1e-15)
    assert.near(lsm, la.log_softmax(col), 1e-15)
    assert.near({lsm}, la.log_softmax(row), 1e-15)
    assert.near(sm, la.softmax(col:astype("float32")), 1e-6)
    -- a matrix still goes along each row; a given dim is obeyed
    assert.near({{0.5, 0.5}, {0.5, 0.5}}, la.softmax(la.ones(2, 2)), 0)
    assert.near({{1}, {1}, {1}}, la.softmax(col, 2), 0)
    assert.near({{1, 1, 1}}, la.softmax(row, 1), 0)
    assert.near({{1}}, la.softmax({{5}}), 0)
  end)

  it("in every function with a default dim, as sum does", function()
    local v = la.vector{3, 1, 2}
    assert.are.equal(6, la.sum(v))
    assert.near({3, 4, 6}, la.cumsum(v), 0)
    assert.near({3, 3, 6}, la.cumprod(v), 0)
    assert.near({1, 2, 3}, la.sort(v), 0)
    assert.near({2, 3, 1}, la.argsort(v), 0)
    assert.near({2, 1, 3}, la.flip(v), 0)
    assert.near({2, 3, 1}, la.roll(v, 1), 0)
    assert.near({{math.sqrt(14)}}, la.vecnorm(v), 1e-15)
    assert.are.equal(3, la.max(v))
    assert.are.same({2, 1}, {la.argmin(v)})
    assert.are.equal(2, la.mean(v))
    assert.is_true(la.all(v))
    assert.are.equal(3, la.count_nonzero(v))
    assert.is_true(la.any(v))
    assert.are.equal(1, la.min(v))
    assert.are.equal(6, la.prod(v))
    assert.are.same({1, 1}, {la.argmax(v)})
    assert.near(2 / 3, la.var(v), 1e-15)                -- np.var([3, 1, 2])
    assert.near(math.sqrt(2 / 3), la.std(v), 1e-15)
    assert.near({2, 1, 3}, la.flipud(v), 0)
    assert.near({{2, 1, 3}}, la.flip(v.T), 0)            -- a row along itself too
    assert.near({{3, 4, 6}}, la.cumsum(v.T), 0)
  end)
end)

describe("linspace and logspace at non-finite ends", function()
  -- np.linspace(a, b, n).tolist() (NumPy 1.24.2; RuntimeWarnings aside)
  local cases = {
    {inf, inf, 3, {nan, nan, inf}},
    {nan, 1, 5, {nan, nan, nan, nan, 1}},
    {-inf, inf, 3, {nan, nan, inf}},
    {-inf, inf, 4, {nan, nan, nan, inf}},
    {0, inf, 1, {nan}},
    {0, inf, 3, {nan, inf, inf}},
    {inf, 0, 3, {nan, nan, 0}},
    {1, 2, 1, {1}},
    {1, 2, 0, {}},
    {1, 2, 2, {1, 2}},
    {-1e308, 1e308, 3, {nan, inf, 1e308}},
    {-1e308, 1e308, 5, {nan, inf, inf, inf, 1e308}},
    {1e308, -1e308, 4, {nan, -inf, -inf, -1e308}},
    {0, 5e-324, 5, {0, 0, 0, 5e-324, 5e-324}},
    {0, 1e-323, 3, {0, 5e-324, 1e-323}},
    {3, 3, 4, {3, 3, 3, 3}},
    {nan, nan, 1, {nan}},
    {inf, 1, 1, {nan}},
    {-inf, -inf, 2, {nan, -inf}},
  }
  local function same(want, got, what)
    assert.are.equal(#want, got:rows(), what)
    for i = 1, #want do
      local x, y = want[i], got(i)
      assert(x == y or (x ~= x and y ~= y), string.format("%s entry %d: %s, expected %s", what, i, y, x))
    end
  end

  it("follows NumPy's formula exactly", function()
    for _, c in ipairs(cases) do
      same(c[4], la.linspace(c[1], c[2], c[3]), string.format("linspace(%s, %s, %d)", c[1], c[2], c[3]))
    end
  end)

  it("logspace is base ^ linspace", function()
    -- np.logspace(0, inf, 3), (-inf, 1, 3), (nan, 1, 3), (0, 1, 3, base=inf), (300, 310, 3)
    same({nan, inf, inf}, la.logspace(0, inf, 3), "logspace(0, inf, 3)")
    same({nan, nan, 10}, la.logspace(-inf, 1, 3), "logspace(-inf, 1, 3)")
    same({nan, nan, 10}, la.logspace(nan, 1, 3), "logspace(nan, 1, 3)")
    same({1, inf, inf}, la.logspace(0, 1, 3, inf), "logspace(0, 1, 3, inf)")
    same({1e300, 1e305, inf}, la.logspace(300, 310, 3), "logspace(300, 310, 3)")
    same({1, 2, 4}, la.logspace(0, 2, 3, 2), "logspace(0, 2, 3, 2)")
  end)

  it("logspace matches NumPy within 2 ulp (one vector pow loop)", function()
    -- np.logspace(0, 2, 7), np.logspace(-3, 1, 5, base=2), np.logspace(1, -1, 4) (NumPy 1.24.2)
    local cases = {
      {{0, 2, 7}, {1.0, 2.1544346900318834, 4.641588833612778, 10.0, 21.544346900318832,
                   46.41588833612778, 100.0}},
      {{-3, 1, 5, 2}, {0.125, 0.25, 0.5, 1.0, 2.0}},
      {{1, -1, 4}, {10.0, 2.154434690031884, 0.464158883361278, 0.09999999999999999}},
    }
    for _, c in ipairs(cases) do
      local v = la.logspace((table.unpack or unpack)(c[1]))
      for i, w in ipairs(c[2]) do
        assert(math.abs(v(i) - w) <= 2 * 2.220446049250313e-16 * w,
               string.format("logspace entry %d: %.17g, NumPy %.17g", i, v(i), w))
      end
    end
  end)

  it("still refuses what NumPy refuses", function()
    assert.error_matches(function() la.linspace(0, 1, -1) end, "linalg.linspace: bad argument #3")
    assert.error_matches(function() la.linspace(0, 1, 2.5) end, "linalg.linspace: bad argument #3")
    assert.error_matches(function() la.linspace("0", 1) end, "linalg.linspace: bad argument #1 (number expected")
  end)
end)

describe("slice ranges (Octave's colon)", function()
  -- The reference: Octave's a:s:b on a dimension of length len, 1-based and
  -- inclusive; "end" is len. Returns the index list, or nil when Octave
  -- raises (an index out of 1..len, a step of 0).
  local function octave(spec, len)
    local function num(s)
      s = s:gsub("^%s+", ""):gsub("%s+$", "")
      local k = s:match("^end%s*([+-]%s*%d+)$")
      if k then return len + tonumber((k:gsub("%s", ""))) end
      if s == "end" then return len end
      return tonumber(s)
    end
    local parts = {}
    if spec == ":" then parts = {"1", "end"} else
      for p in (spec .. ":"):gmatch("([^:]*):") do parts[#parts + 1] = p end
    end
    local a, s, b
    if #parts == 1 then a, s, b = num(parts[1]), 1, num(parts[1])
    elseif #parts == 2 then a, s, b = num(parts[1]), 1, num(parts[2])
    else a, s, b = num(parts[1]), num(parts[2]), num(parts[3]) end
    if s == 0 then return nil end
    local out = {}
    if s > 0 then for i = a, b, s do out[#out + 1] = i end
    else for i = a, b, s do out[#out + 1] = i end end
    for _, i in ipairs(out) do if i < 1 or i > len then return nil end end
    return out
  end

  local specs = {":", "2", "end", "end-1", "end - 2", "end+0", "end+1", "1:end", "2:end-1",
                 "end:-1:1", "end-1:-2:1", "2:2:1", "1:2:0", "3:-2:4", "2:1", "1:0",
                 "0:-1", "5:4", "4:1:3", "1:2:end", "2:3:end", "1:-1:1", "3:-1:1",
                 "end:1", "0:1", "1:end+1", "0", "-1", "1:2:7", "7:-3:1", "end:-3:1",
                 "2:0:3", "1 : 2", "end-4:end", "end-5:end"}

  it("matches a plain-Lua model of Octave's colon on a generated table", function()
    for len = 0, 7 do
      local M = la.rand(len, 7 - len, 1)
      for _, r in ipairs(specs) do
        local want = octave(r, M:rows())
        local ok, B = pcall(la.slice, M, r, ":")
        if want == nil then
          assert(not ok, string.format("rows %q of %d: expected an error, got %s", r, M:rows(), tostring(B)))
          assert.matches("^linalg%.slice: ", B)
        else
          assert(ok, string.format("rows %q of %d: %s", r, M:rows(), tostring(B)))
          assert.are.same({#want, M:cols()}, {B:shape()}, r)
          for k, i in ipairs(want) do
            for j = 1, M:cols() do assert.are.equal(M(i, j), B(k, j)) end
          end
        end
        -- the same along columns
        local wc = octave(r, M:cols())
        local okc, C = pcall(la.slice, M, ":", r)
        assert.are.equal(wc ~= nil, okc, "columns " .. r)
        if wc then
          assert.are.same({M:rows(), #wc}, {C:shape()}, r)
          for k, j in ipairs(wc) do
            for i = 1, M:rows() do assert.are.equal(M(i, j), C(i, k)) end
          end
        end
      end
    end
  end)

  it("selects nothing from empty ranges, on empty matrices too", function()
    local A = la.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
    for _, r in ipairs{"2:2:1", "1:2:0", "3:-2:4"} do
      assert.are.same({0, 3}, {A:slice(r, ":"):shape()}, r)
    end
    assert.are.same({0, 3}, {la.zeros(0, 3):slice("1:2:end", ":"):shape()})
    assert.are.same({3, 0}, {la.zeros(3, 0):slice(":", "1:end"):shape()})
    assert.error_matches(function() A:slice("1:0:3", ":") end,
                         "linalg.slice: bad argument #2 (range step must not be 0)")
    assert.error_matches(function() A:slice("1:x", ":") end, "linalg.slice: bad argument #2 (bad range")
    assert.error_matches(function() A:slice("end-", ":") end, "linalg.slice: bad argument #2 (bad range")
    assert.error_matches(function() A:slice("", ":") end, "linalg.slice: bad argument #2 (bad range")
    assert.error_matches(function() A:slice("1:2:3:4", ":") end, "linalg.slice: bad argument #2 (bad range")
  end)
end)
