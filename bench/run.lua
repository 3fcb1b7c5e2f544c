-- Runs linalg, NumPy (Debian's, on the same OpenBLAS) and raw C side by
-- side and prints medians and ratios. usage: bench/run.sh [suite ...]
-- Suites: see `order` at the end (float32 ones end in 32, sgemm); default: all.
-- breadth-quick (not in the default list): the breadth suite in 3 rounds.
local PY = "/usr/bin/python3"

-- Processes on this shared machine land on a fast or a slow level and stay
-- there, so each peer runs in PROCS separate processes and the median of
-- their medians is reported.
local PROCS = tonumber(os.getenv("BENCH_PROCS") or "3")

local function run1(cmd)
  local p = io.popen(cmd)
  local res = {}
  for line in p:lines() do
    local k, v = line:match("^(%S+) (%S+)$")
    if k then res[k] = tonumber(v) end
  end
  p:close()
  return res
end

local function run(cmd)
  local all, res = {}, {}
  for _ = 1, PROCS do
    for k, v in pairs(run1(cmd)) do all[k] = all[k] or {}; table.insert(all[k], v) end
  end
  for k, t in pairs(all) do table.sort(t); res[k] = t[(#t + 1) // 2] end
  return res
end

local has_numpy = os.execute(PY .. " -c 'import numpy' 2>/dev/null")
if not has_numpy then print("note: NumPy not found for " .. PY .. "; its column is skipped") end

-- bench/linalg_bench.lua under lua (default lua5.4); another Lua finds its
-- module in its build folder (the Makefile's) and its clock in build/bench/<lua>
local function linalg_cmd(threads, suite, lua)
  local env = ""
  if lua and lua ~= "lua5.4" then
    env = string.format("LUA_PATH='./lua/?.lua;./lua/?/init.lua;./bench/?.lua;;' " ..
      "LUA_CPATH='./build-%s/?.so;./build/bench/%s/?.so;;' ", lua, lua)
  end
  -- every peer gets the thread count from the environment: lowering it at
  -- run time leaves OpenBLAS's idle workers spinning for a while
  return string.format("%sOPENBLAS_NUM_THREADS=%d %s bench/linalg_bench.lua %d %s", env, threads,
    lua or "lua5.4", threads, suite)
end
local function linalg(threads, suite)
  return run(linalg_cmd(threads, suite))
end
local function numpy(threads, suite)
  if not has_numpy then return {} end
  return run(string.format("OPENBLAS_NUM_THREADS=%d %s bench/numpy_bench.py %s", threads, PY, suite))
end
local function raw(threads, args)
  return run(string.format("OPENBLAS_NUM_THREADS=%d build/bench/raw %s", threads, args))
end

local has_torch = os.execute(PY .. " -c 'import torch' 2>/dev/null")
-- PyTorch's attention makes three n x n temporaries per call (16 MiB each at
-- n = 2048). With glibc's default, adaptive thresholds a process either
-- keeps them in its heap (~14 ms at n = 2048 here) or trims the heap and maps
-- them afresh every call (8160 page faults, ~23 ms), and which one it does
-- changes from process to process. The peer runs with the thresholds pinned
-- to the first (its best steady state, as linalg's, whose calls fault no page
-- once warm); above 32 MiB (n >= 4096) glibc maps them whatever the setting.
local function torch_cmd(suite)
  return string.format("OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MALLOC_MMAP_THRESHOLD_=33554432 " ..
    "MALLOC_TRIM_THRESHOLD_=1073741824 %s bench/torch_bench.py %s", PY, suite)
end

-- Runs cmd_a and cmd_b alternately, PROCS processes each, so that both see
-- the same spells of load on this shared machine. Returns their medians (as
-- run) and, for each key in both, the median over the back-to-back pairs of
-- a's value / b's value: a ratio that a change of load level between the
-- two peers' runs cannot skew.
local function run_pair(cmd_a, cmd_b)
  local all_a, all_b, q = {}, {}, {}
  for _ = 1, PROCS do
    local a, b = run1(cmd_a), run1(cmd_b)
    for k, v in pairs(a) do all_a[k] = all_a[k] or {}; table.insert(all_a[k], v) end
    for k, v in pairs(b) do all_b[k] = all_b[k] or {}; table.insert(all_b[k], v) end
    for k, v in pairs(a) do
      if b[k] then q[k] = q[k] or {}; table.insert(q[k], v / b[k]) end
    end
  end
  local function med(all)
    local res = {}
    for k, t in pairs(all) do table.sort(t); res[k] = t[(#t + 1) // 2] end
    return res
  end
  return med(all_a), med(all_b), med(q)
end

local function f(x, fmt) return x and string.format(fmt, x) or "-" end
local function ratio(a, b) return (a and b) and string.format("%.2f", a / b) or "-" end

local suites = {}

function suites.tiny()
  local L, N = linalg(1, "tiny"), numpy(1, "tiny")
  print("\ntiny operations, time per call in microseconds (target: linalg/NumPy <= 0.33)")
  print(string.format("%-34s %10s %10s %14s", "operation", "linalg", "NumPy", "linalg/NumPy"))
  for _, row in ipairs{
    {"tiny_matvec", "3x2 * 2x1"}, {"tiny_matmul", "2x2 * 2x3"},
    {"tiny_build", "3x2 from a (prebuilt) table"}, {"tiny_add", "2x2 + 2x2"}} do
    local l, n = L[row[1]], N[row[1]]
    print(string.format("%-34s %10s %10s %14s", row[2], f(l and l * 1e6, "%.3f"),
      f(n and n * 1e6, "%.3f"), ratio(l, n)))
  end
end

function suites.lstsq()
  local L, N = linalg(1, "lstsq"), numpy(1, "lstsq")
  local R = {}
  for _, s in ipairs{{1000, 50}, {10000, 200}, {100000, 100}, {4000, 1000}} do
    for k, v in pairs(raw(1, string.format("lstsq %d %d %d", s[1], s[2], s[1] * s[2] >= 1e6 and 3 or 7))) do R[k] = v end
  end
  print("\nlstsq, 1 thread, milliseconds (speedup = NumPy time / linalg time; targets: svd >= 1.0, qr >= 1.5)")
  print(string.format("%-14s %10s %10s %10s %12s %10s %12s", "m x n", "NumPy", "raw dgelsd", "svd", "svd speedup", "qr", "qr speedup"))
  for _, s in ipairs{{1000, 50}, {10000, 200}, {100000, 100}, {4000, 1000}} do
    local key = string.format("%d_%d", s[1], s[2])
    local n, l, q, r = N["lstsq_" .. key], L["lstsq_" .. key], L["lstsqqr_" .. key], R["lstsq_" .. key]
    print(string.format("%-14s %10s %10s %10s %12s %10s %12s", s[1] .. " x " .. s[2],
      f(n and n * 1e3, "%.2f"), f(r and r * 1e3, "%.2f"), f(l and l * 1e3, "%.2f"), ratio(n, l),
      f(q and q * 1e3, "%.2f"), ratio(n, q)))
  end
end

function suites.gs()
  local L, N = linalg(1, "gs"), numpy(1, "gs")
  print("\nGram-Schmidt on 2000 x 200, 1 thread, milliseconds")
  print(string.format("%-40s %10s %12s", "", "time", "ratio"))
  print(string.format("%-40s %10s", "NumPy: the seed's MGS loop", f(N.gs_mgs and N.gs_mgs * 1e3, "%.1f")))
  print(string.format("%-40s %10s %12s", "linalg mgs (target: >= 20x faster)", f(L.gs_mgs * 1e3, "%.1f"),
    N.gs_mgs and string.format("%.1fx faster", N.gs_mgs / L.gs_mgs) or "-"))
  print(string.format("%-40s %10s", "linalg qr (Householder dgeqrf+dorgqr)", f(L.gs_householder * 1e3, "%.1f")))
  print(string.format("%-40s %10s %12s", "linalg cgs2 (target: <= 2x qr)", f(L.gs_cgs2 * 1e3, "%.1f"),
    string.format("%.2fx qr", L.gs_cgs2 / L.gs_householder)))
  print(string.format("%-40s %10s", "NumPy np.linalg.qr", f(N.gs_householder and N.gs_householder * 1e3, "%.1f")))
end

function suites.agree()
  if not has_numpy then print("\nagree: skipped (no NumPy)") return end
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir)
  os.execute("lua5.4 bench/agree.lua write " .. dir)
  os.execute(PY .. " bench/numpy_agree.py " .. dir)
  print("\nlstsq agreement with np.linalg.lstsq(rcond=None) on the same data (relative differences)")
  os.execute("lua5.4 bench/agree.lua compare " .. dir)
  os.execute("rm -rf " .. dir)
end

function suites.attention()
  for _, th in ipairs{1, 2} do
    local L, N = linalg(th, "attention"), numpy(th, "attention")
    local gd = 2 * 2048 ^ 3 / L.dgemm_2048 / 1e9
    print(string.format("\nattention, n = nq = nk, d = 64, %d thread%s; GFLOP/s = 4 n^2 d / time; dgemm here: %.1f GFLOP/s",
      th, th > 1 and "s" or "", gd))
    print(string.format("%6s %10s %10s %9s %9s %10s %12s %12s", "n", "NumPy ms", "linalg ms", "speedup",
      "GFLOP/s", "% dgemm", "causal ms", "causal/full"))
    for _, n in ipairs{512, 2048, 4096, 8192} do
      local l, c, np_ = L["attn_" .. n], L["attnc_" .. n], N["attn_" .. n]
      local gf = 4 * n * n * 64 / l / 1e9
      print(string.format("%6d %10s %10.2f %9s %9.1f %9.0f%% %12.2f %12.2f", n, f(np_ and np_ * 1e3, "%.2f"),
        l * 1e3, ratio(np_, l), gf, 100 * gf / gd, c * 1e3, c / l))
    end
  end
  suites.heads()
end

-- 8 heads of d = 64 (Q, K, V n x 512): linalg's one call with opts.heads,
-- a Lua loop of 8 single-head calls, and PyTorch's (8, n, d) batch
-- (softmax(baddbmm(Q, K^T) / sqrt(d)) bmm V, float64; 1.13 has no
-- scaled_dot_product_attention); processes alternate (run_pair)
function suites.heads()
  for _, th in ipairs{1, 2} do
    local lcmd = linalg_cmd(th, "heads")
    local tcmd = string.format("TORCH_THREADS=%d OPENBLAS_NUM_THREADS=%d OMP_NUM_THREADS=%d " ..
      "MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824 %s bench/torch_bench.py heads",
      th, th, th, PY)
    local L, T, TL
    if has_torch then T, L, TL = run_pair(tcmd, lcmd) else L, T, TL = run(lcmd), {}, {} end
    print(string.format("\nattention, 8 heads, d = 64, n = nq = nk, float64, %d thread%s, milliseconds;", th,
      th > 1 and "s" or ""))
    print("best of 9 interleaved rounds per process; loop/heads: a Lua loop of single-head calls on the")
    print("column blocks over one call with opts.heads;")
    print("PyTorch/heads: median over back-to-back process pairs of PyTorch's time / linalg's")
    print(string.format("%6s %10s %10s %11s %10s %14s", "n", "heads", "Lua loop", "loop/heads", "PyTorch",
      "PyTorch/heads"))
    for _, n in ipairs{512, 1024} do
      local a, b, t = L["heads_" .. n], L["hloop_" .. n], T["heads_" .. n]
      print(string.format("%6d %10s %10s %11s %10s %14s", n, f(a and a * 1e3, "%.2f"),
        f(b and b * 1e3, "%.2f"), ratio(b, a), f(t and t * 1e3, "%.2f"), f(TL["heads_" .. n], "%.2f")))
    end
  end
end

function suites.memory()
  -- peak resident memory of one fused call at n = 16384, d = 64, against a
  -- process that only builds the inputs
  local base = [[local la = require "linalg"; local n = 16384
local Q, K, V = la.randn(n, 64, 1), la.randn(n, 64, 2), la.randn(n, 64, 3)
]]
  local function rss(code)
    local f = io.open("build/bench/mem.lua", "w"); f:write(code); f:close()
    local p = io.popen("OPENBLAS_NUM_THREADS=1 /usr/bin/time -v lua5.4 build/bench/mem.lua 2>&1")
    local kb
    for line in p:lines() do kb = tonumber(line:match("Maximum resident set size %(kbytes%): (%d+)")) or kb end
    p:close()
    return kb
  end
  local k0 = rss(base)
  local k1 = rss(base .. "local O = la.attention(Q, K, V)\n")
  print("\npeak RSS (/usr/bin/time -v), n = 16384, d = 64, fused attention without weights")
  print(string.format("inputs only: %.1f MiB; with attention: %.1f MiB; attention adds %.1f MiB (target < 128 MiB; the score matrix alone would be %.0f MiB)",
    k0 / 1024, k1 / 1024, (k1 - k0) / 1024, 16384 * 16384 * 8 / 2 ^ 20))
end

-- float32 suites: linalg's float32 cells read "n/a" while linalg_bench.lua
-- reports f32_na (no float32 type yet, found by a pcall in bench/f32.lua)
local F32NA = "n/a (float32 not available)"
local function na_note(L)
  if L.f32_na then print("linalg float32: " .. F32NA) end
end
-- L's float32 time for key, times scale (or rate / time when rate is given)
local function cell(L, key, fmt, scale, rate)
  if L.f32_na then return "n/a" end
  if L["fail_" .. key] then return "fails" end
  local t = L[key]
  return f(t and (rate and rate / t or t * scale), fmt)
end

-- A * B against raw cblas_dgemm / cblas_sgemm and NumPy, 1 then 2 threads
local function gemm(op, title, t64, t32)
  for _, th in ipairs{1, 2} do
    local L, N, R = linalg(th, op), numpy(th, op), {}
    for _, n in ipairs{256, 1024, 2048} do
      for k, v in pairs(raw(th, op .. " " .. n .. " 7")) do R[k] = v end
    end
    print(string.format("\nA * B, square, %s%d thread%s (GFLOP/s = 2n^3 / median time%s)", title, th,
      th > 1 and "s" or "", op == "sgemm" and "; target: linalg/raw >= 0.97" or ""))
    na_note(L)
    print(string.format("%6s %12s %12s %12s %14s %14s", "n", t64, "raw " .. op, t32, "linalg/raw", "linalg/NumPy"))
    for _, n in ipairs{256, 1024, 2048} do
      local k, fl = op .. "_" .. n, 2 * n ^ 3 / 1e9
      local gl, gr, gn = L[k] and fl / L[k], R[k] and fl / R[k], N[k] and fl / N[k]
      print(string.format("%6d %12s %12s %12s %14s %14s", n, cell(L, k, "%.1f", nil, fl), f(gr, "%.1f"),
        f(gn, "%.1f"), ratio(gl, gr), ratio(gl, gn)))
    end
  end
end

function suites.csv()
  local L, N = linalg(1, "csv"), numpy(1, "csv")
  print("\nload_csv vs np.loadtxt(path, delimiter=\",\"), 100 MB numeric CSV (500000 x 10), 1 thread, seconds")
  print(string.format("%-20s %10s %10s %14s", "", "linalg", "NumPy", "NumPy/linalg"))
  print(string.format("%-20s %10s %10s %14s", "load 500000 x 10", f(L.csv_load, "%.3f"), f(N.csv_load, "%.3f"),
    ratio(N.csv_load, L.csv_load)))
end

function suites.dgemm() gemm("dgemm", "", "linalg", "NumPy") end
function suites.sgemm() gemm("sgemm", "float32, ", "linalg f32", "NumPy f32") end

function suites.tiny32()
  local L = linalg(1, "tiny32")
  print("\ntiny operations, 4 x 4, 1 thread, time per call in microseconds (target: float32 as fast as float64)")
  na_note(L)
  print(string.format("%-34s %10s %10s %10s", "operation", "float64", "float32", "f32/f64"))
  for _, row in ipairs{{"t4_add", "4x4 + 4x4"}, {"t4_matmul", "4x4 * 4x4"}, {"t4_matvec", "4x4 * 4x1"},
    {"t4_build", "4x4 from a (prebuilt) table"}, {"t4_buildopt", "the same with {dtype = ...} each"}} do
    local d, s = L[row[1] .. "64"], L[row[1] .. "32"]
    print(string.format("%-34s %10s %10s %10s", row[2], f(d and d * 1e6, "%.3f"), cell(L, row[1] .. "32", "%.3f", 1e6),
      ratio(s, d)))
  end
end

function suites.lstsq32()
  local L, N = linalg(1, "lstsq32"), numpy(1, "lstsq32")
  local np_, gd, gy = N.ls32_numpy, N.ls32_scipy_gelsd, N.ls32_scipy_gelsy
  print("\nlstsq 10000 x 200, one right-hand side, 1 thread, milliseconds (target: linalg float32 faster than")
  print("NumPy float32, i.e. NumPy/this > 1; np.linalg.lstsq computes float32 input in float64 and casts back,")
  print("SciPy's lstsq calls LAPACK's float32 routines)")
  na_note(L)
  if has_numpy and not gd then print("SciPy: skipped (scipy not importable for " .. PY .. ")") end
  print(string.format("%-36s %10s %12s %12s %12s", "", "ms", "NumPy/this", "gelsd/this", "gelsy/this"))
  local function row(name, t, key32)
    print(string.format("%-36s %10s %12s %12s %12s", name,
      key32 and cell(L, key32, "%.2f", 1e3) or f(t and t * 1e3, "%.2f"), ratio(np_, t), ratio(gd, t), ratio(gy, t)))
  end
  row("NumPy float32 np.linalg.lstsq", np_)
  row("SciPy float32 lstsq, gelsd", gd)
  row("SciPy float32 lstsq, gelsy", gy)
  row("linalg float64, svd", L.ls64_svd)
  row("linalg float32, svd", L.ls32_svd, "ls32_svd")
  row("linalg float64, qr", L.ls64_qr)
  row("linalg float32, qr", L.ls32_qr, "ls32_qr")
end

function suites.attention32()
  -- linalg and PyTorch processes alternate; PyTorch/f32 is the median over
  -- those back-to-back pairs of PyTorch's time / linalg's (both time the call
  -- on ready inputs, its output's allocation included, after two warm-ups)
  local lcmd = "OPENBLAS_NUM_THREADS=1 lua5.4 bench/linalg_bench.lua 1 attention32"
  local L, T, TL
  if has_torch then T, L, TL = run_pair(torch_cmd("attention32"), lcmd)
  else L, T, TL = run(lcmd), {}, {} end
  print("\nattention, float32, n = nq = nk, d = 64, 1 thread, milliseconds (targets: float32 >= 1.7x linalg")
  print("float64, >= 2x PyTorch float32 [softmax(Q K^T * scale) V, torch.set_num_threads(1)], causal/full <= 0.6;")
  print("PyTorch/f32: median over linalg and PyTorch processes run back to back; PyTorch's malloc")
  print("thresholds pinned so that its n x n temporaries stay in its heap when they can, see run.lua)")
  na_note(L)
  if not has_torch then print("PyTorch: skipped (torch not importable for " .. PY .. ")") end
  print(string.format("%6s %10s %10s %9s %12s %12s %10s %12s", "n", "linalg f64", "linalg f32", "f64/f32",
    "PyTorch f32", "PyTorch/f32", "causal f32", "causal/full"))
  for _, n in ipairs{2048, 4096, 8192} do
    local d, s, c, t, q = L["a64_" .. n], L["a32_" .. n], L["a32c_" .. n], T["a32_" .. n], TL["a32_" .. n]
    print(string.format("%6d %10s %10s %9s %12s %12s %10s %12s", n, f(d and d * 1e3, "%.2f"),
      cell(L, "a32_" .. n, "%.2f", 1e3), ratio(d, s), f(t and t * 1e3, "%.2f"), f(q, "%.2f"),
      cell(L, "a32c_" .. n, "%.2f", 1e3), ratio(c, s)))
  end
end

function suites.attention_train()
  -- forward (lse = true) + attention_backward next to PyTorch autograd
  -- through softmax(Q K^T * scale) V, n = 2048, d = 64, 1 thread, best of 7
  -- rounds after a warm-up in each process; la/torch: median over
  -- back-to-back process pairs. % gemm: the backward's rate (2 * 5 n^2 d
  -- flops: 2.5x the forward's) over one gemm of that size, n x 5d times 5d x n
  local lcmd = linalg_cmd(1, "attention_train")
  local L, T, TL
  if has_torch then T, L, TL = run_pair(torch_cmd("attention_train"), lcmd)
  else L, T, TL = run(lcmd), {}, {} end
  print("\ntraining attention, n = nq = nk = 2048, d = 64, 1 thread, milliseconds (target: la/torch <= 0.5)")
  if not has_torch then print("PyTorch: skipped (torch not importable for " .. PY .. ")") end
  print(string.format("%-8s %8s %8s %8s %9s %9s %9s %9s %10s %8s", "type", "la fwd", "la bwd",
    "la both", "torch fwd", "torch bwd", "torch all", "la/torch", "bwd GF/s", "% gemm"))
  local n, d = 2048, 64
  for _, k in ipairs{"64", "32"} do
    local p = "tr" .. k .. "_"
    local bw, gm = L[p .. "bwd"], L[p .. "gemm"]
    local rate = bw and 10 * n * n * d / bw / 1e9
    local grate = gm and 10 * n * n * d / gm / 1e9
    local q = TL[p .. "all"]
    print(string.format("%-8s %8s %8s %8s %9s %9s %9s %9s %10s %8s", "float" .. k,
      f(L[p .. "fwd"] and L[p .. "fwd"] * 1e3, "%.2f"), f(bw and bw * 1e3, "%.2f"),
      f(L[p .. "all"] and L[p .. "all"] * 1e3, "%.2f"), f(T[p .. "fwd"] and T[p .. "fwd"] * 1e3, "%.2f"),
      f(T[p .. "bwd"] and T[p .. "bwd"] * 1e3, "%.2f"), f(T[p .. "all"] and T[p .. "all"] * 1e3, "%.2f"),
      f(q and 1 / q, "%.2f"), f(rate, "%.1f"), f(rate and grate and 100 * rate / grate, "%.0f")))
  end
  -- the backward's peak memory at n = 16384, d = 64, one child process
  local M = {}
  for _, dt in ipairs{"float64", "float32"} do     -- a process each: the peak stays
    for key, v in pairs(run1("OPENBLAS_NUM_THREADS=1 lua5.4 bench/attention_mem.lua " .. dt)) do M[key] = v end
  end
  print("\nattention_backward at n = 16384, d = 64, 1 thread: peak RSS (VmHWM) added over the inputs and")
  print("the forward's results (target < 256 MiB; dQ, dK, dV alone are 24 MiB in float64)")
  for _, k in ipairs{"64", "32"} do
    print(string.format("float%s: %s MiB added, %s s of CPU", k, f(M["trmem" .. k .. "_mib"], "%.1f"),
      f(M["trmem" .. k .. "_s"], "%.2f")))
  end
end

function suites.memory32()
  -- peak RSS of child processes: one that only loads linalg, and one each
  -- that builds the inputs at n = 16384, d = 64 and runs fused attention in
  -- float64 / float32 (exit status 3: float32 not available)
  local head = 'local la = require "linalg"; local f32 = require "f32"; local n = 16384\n'
  local progs = {
    base = head,
    f64 = head .. [[local Q, K, V = la.randn(n, 64, 1), la.randn(n, 64, 2), la.randn(n, 64, 3)
local O = la.attention(Q, K, V)
]],
    f32 = head .. [[if not f32.available then os.exit(3) end
local Q, K, V = f32.randn(n, 64, 1), f32.randn(n, 64, 2), f32.randn(n, 64, 3)
local O = f32.check(la.attention(Q, K, V))
]]}
  local function rss(name)
    local path = "build/bench/mem32_" .. name .. ".lua"
    local fh = io.open(path, "w"); fh:write(progs[name]); fh:close()
    local p = io.popen("OPENBLAS_NUM_THREADS=1 /usr/bin/time -v lua5.4 " .. path .. " 2>&1")
    local kb, status
    for line in p:lines() do
      kb = tonumber(line:match("Maximum resident set size %(kbytes%): (%d+)")) or kb
      status = tonumber(line:match("Exit status: (%d+)")) or status
    end
    p:close()
    if status ~= 0 then return nil, status end
    return kb and kb / 1024
  end
  local b, d = rss("base"), rss("f64")
  local s, status = rss("f32")
  local s_cell = s and f(s, "%.1f") or status == 3 and F32NA or "fails (exit status " .. tostring(status) .. ")"
  print("\npeak RSS (/usr/bin/time -v, one child process each), fused attention at n = 16384, d = 64,")
  print("inputs + output + attention's workspace (target: float32 half of float64)")
  print(string.format("%-40s %10s %14s", "", "MiB", "above base"))
  print(string.format("%-40s %10s", "base: require \"linalg\" only", f(b, "%.1f")))
  print(string.format("%-40s %10s %14s", "float64 Q, K, V, attention", f(d, "%.1f"), f(b and d and d - b, "%.1f")))
  print(string.format("%-40s %10s %14s", "float32 Q, K, V, attention", s_cell,
    f(b and s and s - b, "%.1f")))
  if s and d and b then
    print(string.format("float32/float64: %.2f of the whole process, %.2f above base", s / d, (s - b) / (d - b)))
  end
end

function suites.elementwise()
  local L, N = linalg(1, "elementwise"), numpy(1, "elementwise")
  print("\nelementwise functions on 1000 x 1000, 1 thread, milliseconds (targets: exp >= 3x faster than")
  print("A:map(math.exp), within 1.5x of NumPy)")
  print(string.format("%-8s %10s %10s %14s", "", "linalg", "NumPy", "linalg/NumPy"))
  for _, name in ipairs{"exp", "log", "sin", "tanh", "sqrt"} do
    local l, n = L["ew_" .. name], N["ew_" .. name]
    print(string.format("%-8s %10s %10s %14s", name, f(l and l * 1e3, "%.2f"), f(n and n * 1e3, "%.2f"), ratio(l, n)))
  end
  print(string.format("A:map(math.exp): %s ms, %s times la.exp", f(L.ew_map_exp and L.ew_map_exp * 1e3, "%.1f"),
    ratio(L.ew_map_exp, L.ew_exp)))
end

function suites.random()
  local L, N = linalg(1, "random"), numpy(1, "random")
  print("\nNumPy's random streams on 1000 x 1000 (the same numbers), 1 thread, milliseconds")
  print(string.format("%-44s %10s %10s %14s", "", "linalg", "NumPy", "linalg/NumPy"))
  for _, row in ipairs{{"rng_randn", "la.random.randn / np.random.randn"},
      {"rng_rand", "la.random.rand / np.random.rand"},
      {"rng_normal", "g:standard_normal / g.standard_normal"},
      {"rng_random", "g:random / g.random"}} do
    local l, n = L[row[1]], N[row[1]]
    print(string.format("%-44s %10s %10s %14s", row[2], f(l and l * 1e3, "%.2f"),
      f(n and n * 1e3, "%.2f"), ratio(l, n)))
  end
end

-- The Lua side under LuaJIT and Lua 5.4: the tiny and medium cases of
-- bench/linalg_bench.lua in processes that alternate (run_pair), so both
-- see the same load; ratio = the median over back-to-back pairs of LuaJIT's
-- time / 5.4's (< 1: LuaJIT faster).
local LUAVERSIONS = {
  {"tiny_matvec", "3x2 * 2x1"}, {"tiny_matmul", "2x2 * 2x3"},
  {"tiny_build", "3x2 from a (prebuilt) table"}, {"tiny_add", "2x2 + 2x2"},
  {"med_matmul64", "64x64 * 64x64"}, {"med_add64", "64x64 + 64x64"},
  {"med_solve64", "solve 64x64, one column"}, {"med_exp64", "la.exp 64x64"},
  {"med_sum64", "A:sum(1), 64x64"}, {"med_slice64", "A:slice(\"1:32\", \":\")"},
  {"med_project", "la.project, 100x3 (Lua front)"}, {"med_linreg", "la.linear_regression, 100x3"},
  {"med_span_check", "la.span_check, 100x3"}, {"med_mha", "multihead_attention 16x32, 4 heads"},
  {"med_f32wrap", "la.expm float32 16x16 (f32wrap)"}, {"med_get32", "A:get(i, j) over 32x32 (Lua loop)"},
  {"med_map32", "A:map(Lua function), 32x32"}}

function suites.luaversions()
  local jit = "luajit"
  if not os.execute("test -f build-luajit/linalg/core.so && test -f build/bench/luajit/benchclock.so") then
    print("\nluaversions: skipped (make LUA=luajit builds linalg for LuaJIT; run.sh its clock)")
    return
  end
  -- 5.4 twice: as the lua5.4 command runs (generational collector) and as
  -- a host's lua_newstate gives it (incremental, as LuaJIT's)
  local J, P, Q = run_pair(linalg_cmd(1, "tiny medium", jit), linalg_cmd(1, "tiny medium"))
  local _, I, R = run_pair(linalg_cmd(1, "tiny medium", jit),
                           "LINALG_BENCH_GC=incremental " .. linalg_cmd(1, "tiny medium"))
  print("\nthe Lua side under LuaJIT and Lua 5.4, 1 thread, microseconds per call (target: LuaJIT/5.4 <= 1;")
  print("ratios: medians over LuaJIT and 5.4 processes run back to back; 5.4 gen: the lua5.4 command,")
  print("whose collector is generational; 5.4 inc: incremental, what lua_newstate gives a host)")
  print(string.format("%-38s %9s %9s %9s %9s %9s", "operation", "LuaJIT", "5.4 gen", "LJ/gen",
    "5.4 inc", "LJ/inc"))
  for _, row in ipairs(LUAVERSIONS) do
    local j, p, i = J[row[1]], P[row[1]], I[row[1]]
    print(string.format("%-38s %9s %9s %9s %9s %9s", row[2], f(j and j * 1e6, "%.3f"),
      f(p and p * 1e6, "%.3f"), f(Q[row[1]], "%.2f"), f(i and i * 1e6, "%.3f"), f(R[row[1]], "%.2f")))
  end
end

function suites.linalg2()
  local L, N = linalg(1, "linalg2"), numpy(1, "linalg2")
  print("\nfactor once, solve many (n = 500), 1 thread, milliseconds (NumPy column: SciPy 1.10)")
  print(string.format("%-34s %10s %10s %14s", "operation", "linalg", "SciPy", "linalg/SciPy"))
  for _, row in ipairs{{"lu_factor", "lu_factor"}, {"lu_solve_1", "lu_solve, b 500 x 1"},
      {"lu_solve_50", "lu_solve, b 500 x 50"}, {"cho_factor", "cho_factor"},
      {"cho_solve_1", "cho_solve, b 500 x 1"}, {"cho_solve_50", "cho_solve, b 500 x 50"}} do
    local l, n = L[row[1]], N[row[1]]
    print(string.format("%-34s %10s %10s %14s", row[2], f(l and l * 1e3, "%.3f"),
      f(n and n * 1e3, "%.3f"), ratio(l, n)))
  end
  print("\n10000 least-squares problems of 20 x 3, 1 thread, milliseconds for all")
  print(string.format("%-46s %10s %16s", "", "ms", "la.lstsq(As, bs)/x"))
  for _, row in ipairs{{L.batch_lstsq, "linalg la.lstsq(As, bs) (one call, gelsd)"},
      {L.loop_lstsq, "linalg loop of la.lstsq (TSQR path)"},
      {N.loop_lstsq, "NumPy loop of np.linalg.lstsq"},
      {N.stacked_normal, "NumPy stacked np.linalg.solve, normal eqs"}} do
    print(string.format("%-46s %10s %16s", row[2], f(row[1] and row[1] * 1e3, "%.1f"),
      ratio(L.batch_lstsq, row[1])))
  end
end

-- linalg's own loops next to NumPy, interleaved in one process each
-- (bench/breadth.lua, in a child with one OpenBLAS thread from the start);
-- breadth-quick: 3 rounds instead of 7. Both processes are pinned to one
-- CPU (taskset; the first this one may use, or BREADTH_CPU): they never
-- run at once, and a neighbour loading one CPU of the host then slows
-- both sides alike. Unpinned, one run had la.cosh and la.expm1 at 2.1 and
-- 1.8 times NumPy's; pinned, 0.84 and 0.78. Without taskset, or where it
-- cannot pin, the run goes unpinned and says so.
local function breadth(rounds)
  io.stdout:flush()
  local cpu = [["${BREADTH_CPU:-$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')}"]]
  local pin = "taskset -c " .. cpu .. " "
  if not os.execute(pin .. "true >/dev/null 2>&1") then
    print("breadth: not pinned to a CPU (no taskset, or it could not pin)")
    pin = ""
  end
  assert(os.execute("OPENBLAS_NUM_THREADS=1 " .. pin .. "lua5.4 bench/breadth.lua " .. rounds),
    "breadth: bench/breadth.lua failed")
end
function suites.breadth() breadth(7) end
suites["breadth-quick"] = function() breadth(3) end

local order = {"dgemm", "sgemm", "tiny", "tiny32", "lstsq", "lstsq32", "gs", "agree", "attention", "attention32",
  "attention_train",
  "memory", "memory32", "elementwise", "random", "csv", "luaversions", "linalg2", "breadth"}
local want = #arg > 0 and arg or order
print(string.format("linalg bench: medians over %d processes of medians of repetitions;", PROCS))
print("GFLOP/s ratios > 1: linalg faster; time ratios < 1: linalg faster")
for _, s in ipairs(want) do
  if suites[s] then suites[s]() else print("unknown suite " .. s) end
end
