-- Elementwise loops, timed for tools/bench_elem.py (which runs this once per
-- round, interleaved with NumPy): prints "op size seconds-per-call" lines.
-- usage: lua tools/bench_elem.lua  (LUA_PATH/LUA_CPATH reaching linalg and
-- build/bench/benchclock.so, as bench/run.sh builds it)
local la = require "linalg"
local clock = require "benchclock"

local sizes = {{"100x100", 100, 100, 400}, {"1000x1000", 1000, 1000, 6}, {"1e6", 1000000, 1, 6}}

local ops = {
  {"gt(A,0)", function(A) return la.gt(A, 0) end},
  {"lt(A,B)", function(A, B) return la.lt(A, B) end},
  {"A/2", function(A) return A / 2 end},
  {"A/3", function(A) return A / 3 end},
  {"A*2", function(A) return A * 2 end},
  {"A+B", function(A, B) return A + B end},
  {"emul(A,B)", function(A, B) return la.emul(A, B) end},
  {"pow(A,2)", function(A) return la.pow(A, 2) end},
  {"pow(P,2.5)", function(_, _, P) return la.pow(P, 2.5) end},
  {"clip(A,-.5,.5)", function(A) return la.clip(A, -0.5, 0.5) end},
  {"maximum(A,B)", function(A, B) return la.maximum(A, B) end},
  {"where(A,A,B)", function(A, B) return la.where(A, A, B) end},
  {"log(P)", function(_, _, P) return la.log(P) end},
  {"tanh(A)", function(A) return la.tanh(A) end},
  {"exp(A)", function(A) return la.exp(A) end},
}

local only = arg[1]
for _, s in ipairs(sizes) do
  local name, m, n, reps = s[1], s[2], s[3], s[4]
  local A, B = la.randn(m, n, 1), la.randn(m, n, 2)
  local P = la.rand(m, n, 3) + 0.5
  for _, op in ipairs(ops) do
    if not only or op[1] == only then
      local f = op[2]
      f(A, B, P)
      local best = math.huge
      for _ = 1, 3 do
        local t0 = clock.now()
        for _ = 1, reps do f(A, B, P) end
        local t = (clock.now() - t0) / reps
        if t < best then best = t end
      end
      io.write(op[1], "\t", name, "\t", string.format("%.9g", best), "\n")
    end
  end
end
