-- Times linalg operations; prints "key seconds" (median of repetitions).
-- usage: lua5.4 bench/linalg_bench.lua THREADS SUITE... (any Lua: the
-- luaversions suite of bench/run.lua runs it under each)
local la = require "linalg"
local clock = require "benchclock"
local f32 = require "f32"

local threads = tonumber(arg[1])
-- the lua5.4 command runs its collector in generational mode; a host's
-- lua_newstate gives incremental (LINALG_BENCH_GC=incremental: that one)
if os.getenv("LINALG_BENCH_GC") == "incremental" and _VERSION == "Lua 5.4" then
  collectgarbage("incremental")
end
la.threads(threads)

local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end

-- seconds per call of f: median over reps of a timed loop of `inner` calls
local function time(f, reps, inner)
  inner = inner or 1
  local t = {}
  f(); f()           -- two warm-up calls: the first ones also grow the heap
  for r = 1, reps do
    local t0 = clock.now()
    for _ = 1, inner do f() end
    t[r] = (clock.now() - t0) / inner
  end
  return median(t)
end

local function out(key, s) print(string.format("%s %.9g", key, s)) io.stdout:flush() end

local suites = {}

local INNER = {[256] = 40, [1024] = 3, [2048] = 1}

function suites.dgemm()
  for _, n in ipairs{256, 1024, 2048} do
    local A, B = la.randn(n, n, 1), la.randn(n, n, 2)
    -- loops of calls per repetition, as NumPy's timeit: a single 0.5 ms call
    -- would mostly time the first touch of a freshly allocated result
    out("dgemm_" .. n, time(function() return A * B end, 7, INNER[n]))
  end
end

function suites.tiny()
  local X, w = la.matrix{{1, 2}, {3, 4}, {5, 6}}, la.vector{2, -1}
  local A, B = la.matrix{{1, 2}, {3, 4}}, la.matrix{{5, 6, 7}, {8, 9, 10}}
  local C = la.matrix{{4, 3}, {2, 1}}
  local N = 200000
  out("tiny_matvec", time(function() return X * w end, 7, N))
  out("tiny_matmul", time(function() return A * B end, 7, N))
  local rows = {{1, 2}, {3, 4}, {5, 6}}     -- prebuilt on both sides: conversion only
  out("tiny_build", time(function() return la.matrix(rows) end, 7, N))
  out("tiny_add", time(function() return A + C end, 7, N))
end

-- Medium sizes, where the call's own cost still shows: C functions at 64 x
-- 64, the Lua front's functions (project, linear_regression, span_check,
-- multihead_attention, float32 through a float64 function), element access
-- from Lua and a Lua callback per entry (map).
function suites.medium()
  local A, B = la.randn(64, 64, 1), la.randn(64, 64, 2)
  local b, X, y = la.randn(64, 1, 3), la.randn(100, 3, 4), la.randn(100, 1, 5)
  local P, T = la.randn(16, 32, 6), la.randn(32, 32, 7)
  local F = la.randn(16, 16, 8, {dtype = "float32"})
  local S = la.randn(32, 32, 9)
  out("med_matmul64", time(function() return A * B end, 7, 2000))
  out("med_add64", time(function() return A + B end, 7, 5000))
  out("med_solve64", time(function() return la.solve(A, b) end, 7, 500))
  out("med_exp64", time(function() return la.exp(A) end, 7, 2000))
  out("med_sum64", time(function() return A:sum(1) end, 7, 5000))
  out("med_slice64", time(function() return A:slice("1:32", ":") end, 7, 20000))
  out("med_project", time(function() return la.project(y, X) end, 7, 2000))
  out("med_linreg", time(function() return la.linear_regression(X, y) end, 7, 1000))
  out("med_span_check", time(function() return la.span_check(X, y) end, 7, 1000))
  out("med_mha", time(function() return la.multihead_attention(P, T, T, T, T, 4) end, 7, 200))
  out("med_f32wrap", time(function() return la.expm(F) end, 7, 500))
  out("med_get32", time(function()
    local s = 0
    for j = 1, 32 do for i = 1, 32 do s = s + S:get(i, j) end end
    return s
  end, 7, 50))
  out("med_map32", time(function() return S:map(function(x) return 2 * x end) end, 7, 50))
end

-- lstsq at NumPy's sizes; both methods on the same data
local LSTSQ = {{1000, 50}, {10000, 200}, {100000, 100}, {4000, 1000}}

function suites.lstsq()
  for _, s in ipairs(LSTSQ) do
    local m, n = s[1], s[2]
    local A, b = la.randn(m, n, 3), la.randn(m, 1, 4)
    local reps, inner = m * n >= 1e6 and 3 or 7, m * n < 1e5 and 10 or 1
    out(string.format("lstsq_%d_%d", m, n), time(function() return la.lstsq(A, b) end, reps, inner))
    out(string.format("lstsqqr_%d_%d", m, n), time(function() return la.lstsq(A, b, {method = "qr"}) end, reps, inner))
  end
end

function suites.gs()
  local V = la.randn(2000, 200, 5)
  out("gs_mgs", time(function() return la.gram_schmidt(V) end, 5))
  out("gs_cgs2", time(function() return la.gram_schmidt(V, {method = "cgs2"}) end, 5))
  out("gs_householder", time(function() return la.qr(V) end, 5))
end

function suites.attention()
  for _, n in ipairs{512, 2048, 4096, 8192} do
    local Q, K, V = la.randn(n, 64, 1), la.randn(n, 64, 2), la.randn(n, 64, 3)
    local reps = n >= 4096 and 3 or 5
    out("attn_" .. n, time(function() return la.attention(Q, K, V) end, reps))
    out("attnc_" .. n, time(function() return la.attention(Q, K, V, {causal = true}) end, reps))
  end
  -- dgemm's rate on this machine and thread count, for the GFLOP/s column
  local A, B = la.randn(2048, 2048, 4), la.randn(2048, 2048, 5)
  out("dgemm_2048", time(function() return A * B end, 3))
end

-- 8 heads of d = 64 in column blocks (n x 512, as multihead_attention's
-- projections): one call with opts.heads against a Lua loop of single-head
-- calls on the blocks (views), float64 (bench/run.lua's attention suite)
function suites.heads()
  local h, d = 8, 64
  for _, n in ipairs{512, 1024} do
    local Q, K, V = la.randn(n, h * d, 1), la.randn(n, h * d, 2), la.randn(n, h * d, 3)
    local function heads() return la.attention(Q, K, V, {heads = h}) end
    local function loop()
      local O = {}
      for i = 1, h do
        local c0, c1 = (i - 1) * d + 1, i * d
        O[i] = la.attention(Q:sub(1, n, c0, c1), K:sub(1, n, c0, c1), V:sub(1, n, c0, c1))
      end
      return la.hstack(O)
    end
    -- interleaved rounds, best of each: both see the same spells of load
    local bh, bl = math.huge, math.huge
    heads(); loop()
    for _ = 1, 9 do
      local t0 = clock.now(); heads()
      local t1 = clock.now(); loop()
      local t2 = clock.now()
      bh, bl = math.min(bh, t1 - t0), math.min(bl, t2 - t1)
    end
    out("heads_" .. n, bh)
    out("hloop_" .. n, bl)
  end
end

-- elementwise functions at 1000 x 1000 against A:map(math.<f>) (a Lua call per entry)
function suites.elementwise()
  local A = la.rand(1000, 1000, 6)
  for _, f in ipairs{"exp", "log", "sin", "tanh", "sqrt"} do
    out("ew_" .. f, time(function() return la[f](A) end, 7, 5))
  end
  out("ew_map_exp", time(function() return A:map(math.exp) end, 3))
end

-- NumPy's random streams on 1000 x 1000 (la.random: the same numbers as NumPy's)
function suites.random()
  la.random.seed(0)
  local g = la.random.default_rng(0)
  out("rng_randn", time(function() return la.random.randn(1000, 1000) end, 7))
  out("rng_rand", time(function() return la.random.rand(1000, 1000) end, 7))
  out("rng_normal", time(function() return g:standard_normal(1000, 1000) end, 7))
  out("rng_random", time(function() return g:random(1000, 1000) end, 7))
end

-- float32 suites: each prints "f32_na 1" instead of its float32 keys while
-- linalg has no float32 type (bench/f32.lua); float64 keys print either way.
local function f32_na()
  if f32.available then return false end
  out("f32_na", 1)
  return true
end

-- Prints key's time: f() once, its (first) result checked to be float32,
-- then timed. An operation that fails (float32 landed in parts) prints
-- "fail_<key> 1" and its error on stderr, and the suite goes on.
local function out32(key, f, reps, inner)
  local ok, err = pcall(function() f32.check((f())) end)
  if ok then return out(key, time(f, reps, inner)) end
  io.stderr:write("float32 ", key, ": ", tostring(err), "\n")
  out("fail_" .. key, 1)
end

function suites.sgemm()
  if f32_na() then return end
  for _, n in ipairs{256, 1024, 2048} do
    local A, B = f32.randn(n, n, 1), f32.randn(n, n, 2)
    out32("sgemm_" .. n, function() return A * B end, 7, INNER[n])
  end
end

-- 4 x 4 operations in both types, in one process (the float64 ones also
-- stand alone, so they print while float32 is missing)
function suites.tiny32()
  local rows = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}
  local rows2 = {{4, 3, 2, 1}, {8, 7, 6, 5}, {1, 0, 1, 0}, {0, 1, 0, 1}}
  local N = 200000
  local function run(tag, mk, put)
    local A, B, x = mk(rows), mk(rows2), mk{{1}, {-1}, {2}, {0.5}}
    put("t4_add" .. tag, function() return A + B end, 7, N)
    put("t4_matmul" .. tag, function() return A * B end, 7, N)
    put("t4_matvec" .. tag, function() return A * x end, 7, N)
    put("t4_build" .. tag, function() return mk(rows) end, 7, N)
    local opts = {dtype = tag == "64" and "float64" or "float32"}   -- each names its type
    put("t4_buildopt" .. tag, function() return la.matrix(rows, opts) end, 7, N)
  end
  run("64", la.matrix, function(key, ...) out(key, time(...)) end)
  if not f32_na() then run("32", f32.matrix, out32) end
end

-- 10000 x 200, both methods, both types, on the same data (float32 = the
-- float64 values rounded)
function suites.lstsq32()
  local m, n = 10000, 200
  local A, b = la.randn(m, n, 3), la.randn(m, 1, 4)
  out("ls64_svd", time(function() return la.lstsq(A, b) end, 5))
  out("ls64_qr", time(function() return la.lstsq(A, b, {method = "qr"}) end, 5))
  if f32_na() then return end
  local A32, b32 = A:astype("float32"), b:astype("float32")
  out32("ls32_svd", function() return la.lstsq(A32, b32) end, 5)
  out32("ls32_qr", function() return la.lstsq(A32, b32, {method = "qr"}) end, 5)
end

-- full float64, full and causal float32 at d = 64, in one process
function suites.attention32()
  for _, n in ipairs{2048, 4096, 8192} do
    local Q, K, V = la.randn(n, 64, 1), la.randn(n, 64, 2), la.randn(n, 64, 3)
    local reps = n >= 4096 and 3 or 9     -- as bench/torch_bench.py
    out("a64_" .. n, time(function() return la.attention(Q, K, V) end, reps))
    if not f32_na() then
      local Q32, K32, V32 = Q:astype("float32"), K:astype("float32"), V:astype("float32")
      out32("a32_" .. n, function() return la.attention(Q32, K32, V32) end, reps)
      out32("a32c_" .. n, function() return la.attention(Q32, K32, V32, {causal = true}) end, reps)
    end
  end
end

-- best of reps calls after one warm-up (attention_train: as
-- torch_bench.py times its autograd peer)
local function best(f, reps)
  local b = math.huge
  f()
  for _ = 1, reps do
    local t0 = clock.now()
    f()
    b = math.min(b, clock.now() - t0)
  end
  return b
end

-- training attention at n = 2048, d = 64, both types: the forward (with
-- lse), the backward, both in a row; and the rate of one gemm of the
-- backward's multiply-adds (5 n^2 d: n x 5d times 5d x n)
function suites.attention_train()
  local n, d = 2048, 64
  for _, dt in ipairs{"float64", "float32"} do
    local k = dt == "float64" and "64" or "32"
    local Q, K = la.randn(n, d, 1):astype(dt), la.randn(n, d, 2):astype(dt)
    local V, dO = la.randn(n, d, 3):astype(dt), la.randn(n, d, 4):astype(dt)
    local O, lse
    local function fwd() O, lse = la.attention(Q, K, V, {lse = true}) end
    local function bwd() return la.attention_backward(dO, Q, K, V, O, lse) end
    out("tr" .. k .. "_fwd", best(fwd, 7))
    out("tr" .. k .. "_bwd", best(bwd, 7))
    out("tr" .. k .. "_all", best(function() fwd(); bwd() end, 7))
    local A, B = la.randn(n, 5 * d, 5):astype(dt), la.randn(5 * d, n, 6):astype(dt)
    out("tr" .. k .. "_gemm", best(function() return A * B end, 7))
  end
end

-- load_csv on a 100 MB numeric CSV (500000 x 10, 17 significant digits);
-- the file is written once, with the same text as numpy_bench.py writes
function suites.csv()
  local path = os.getenv("LINALG_BENCH_CSV") or "/tmp/linalg_bench.csv"
  local f = io.open(path, "rb")
  if f then f:close() else
    f = assert(io.open(path, "wb"))
    for i = 0, 499999 do
      local row = {}
      for j = 0, 9 do row[j + 1] = string.format("%.17g", ((i * 7919 + j * 104729) % 1000003) / 997 - 500) end
      f:write(table.concat(row, ","), "\n")
    end
    assert(f:close())
  end
  out("csv_load", time(function() return la.load_csv(path) end, 3))
end

-- factor once, solve many (n = 500; b of 1 and of 50 columns); the batch of
-- 10000 least-squares problems of 20 x 3 (one call; and a Lua loop)
function suites.linalg2()
  local n = 500
  local A = la.randn(n, n, 1)
  local S = A:t() * A + n * la.eye(n)
  local b1, b50 = la.randn(n, 1, 2), la.randn(n, 50, 3)
  local F, C = la.lu_factor(A), la.cho_factor(S)
  out("lu_factor", time(function() return la.lu_factor(A) end, 7))
  out("lu_solve_1", time(function() return la.lu_solve(F, b1) end, 7, 100))
  out("lu_solve_50", time(function() return la.lu_solve(F, b50) end, 7, 10))
  out("cho_factor", time(function() return la.cho_factor(S) end, 7))
  out("cho_solve_1", time(function() return la.cho_solve(C, b1) end, 7, 100))
  out("cho_solve_50", time(function() return la.cho_solve(C, b50) end, 7, 10))
  local As, bs = {}, {}
  for i = 1, 10000 do As[i] = la.randn(20, 3, i); bs[i] = la.randn(20, 1, 20000 + i) end
  out("batch_lstsq", time(function() return la.lstsq(As, bs) end, 5))
  out("loop_lstsq", time(function()
    for i = 1, #As do la.lstsq(As[i], bs[i]) end
  end, 3))
end

for i = 2, #arg do suites[arg[i]]() end
