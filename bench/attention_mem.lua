-- The peak resident memory (VmHWM, Linux) attention_backward adds at
-- n = 16384, d = 64 over the inputs, the forward's results and its
-- workspace, in one process of its own (a process's peak stays).
-- usage: lua bench/attention_mem.lua float64|float32; prints
-- "trmem64_mib <MiB>" and "trmem64_s <seconds of CPU>" (32 for float32).
-- Run by bench/run.lua's attention_train suite and by
-- spec/r3_attention_bwd_spec.lua.
local la = require "linalg"

local function hwm()
  local fh = assert(io.open("/proc/self/status"))
  local kb = tonumber(fh:read("*a"):match("VmHWM:%s*(%d+)"))
  fh:close()
  return kb / 1024
end

local dt = arg[1] or "float64"
local k = dt == "float32" and "32" or "64"
local n, d = 16384, 64
local Q, K = la.randn(n, d, 1):astype(dt), la.randn(n, d, 2):astype(dt)
local V, dO = la.randn(n, d, 3):astype(dt), la.randn(n, d, 4):astype(dt)
local O, lse = la.attention(Q, K, V, {lse = true})
collectgarbage()
local h0, t0 = hwm(), os.clock()
local dQ = la.attention_backward(dO, Q, K, V, O, lse)
print(string.format("trmem%s_s %.3f", k, os.clock() - t0))
print(string.format("trmem%s_mib %.1f", k, hwm() - h0))
print("dtype " .. dQ.dtype)
