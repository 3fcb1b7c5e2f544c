-- Writes least-squares problems for bench/numpy_agree.py, or compares its
-- answers with linalg's. usage: agree.lua write DIR | agree.lua compare DIR
local la = require "linalg"
local mode, dir = arg[1], arg[2]

local function ill(m, n, cond, seed)
  local U = la.qr(la.randn(m, n, seed))
  local V = la.qr(la.randn(n, n, seed + 1))
  local s = la.zeros(n, 1):map(function(_, i) return cond ^ (-(i - 1) / (n - 1)) end)
  return U * la.diag(s) * V.T
end

local cases = {
  {"well-conditioned 1000x50", function() return la.randn(1000, 50, 1), la.randn(1000, 1, 2) end},
  {"cond 1e8, 200x50", function() return ill(200, 50, 1e8, 3), la.randn(200, 1, 4) end},
  {"rank 15 of 20, 100x20", function()
    local B = la.randn(100, 15, 5)
    return la.hstack{B, B:sub(1, 100, 1, 5) * la.randn(5, 5, 6)}, la.randn(100, 1, 7) end},
  {"underdetermined 30x60", function() return la.randn(30, 60, 8), la.randn(30, 1, 9) end},
  {"tall 20000x100 (TSQR path)", function() return la.randn(20000, 100, 10), la.randn(20000, 1, 11) end},
}

local function write(path, A)
  local f = assert(io.open(path, "w"))
  local m, n = A:shape()
  f:write(m, " ", n, "\n")
  for i = 1, m do
    local row = {}
    for j = 1, n do row[j] = string.format("%.17g", A(i, j)) end
    f:write(table.concat(row, " "), "\n")
  end
  f:close()
end

local function read(path)
  local f = assert(io.open(path))
  local m, n = f:read("n", "n")
  local A = la.zeros(m, n)
  for i = 1, m do for j = 1, n do A:set(i, j, f:read("n")) end end
  f:close()
  return A
end

local function relerr(a, b)
  local d = la.norm(a - b, math.huge)
  local s = la.norm(b, math.huge)
  return s > 0 and d / s or d
end

for i, c in ipairs(cases) do
  local A, b = c[2]()
  if mode == "write" then
    write(dir .. "/A" .. i, A); write(dir .. "/b" .. i, b)
  else
    local x, res, rank, sv = la.lstsq(A, b)
    local xn, sn = read(dir .. "/x" .. i), read(dir .. "/s" .. i)
    local meta = read(dir .. "/m" .. i)
    local rn = meta(2) >= 0 and meta(2) or nil
    print(string.format("%-30s x: %.1e  residual: %s  rank: %d vs %d  sv: %.1e", c[1], relerr(x, xn),
      (res and rn) and string.format("%.1e", math.abs(res(1) - rn) / math.max(rn, 1e-300)) or (res or rn) and "MISMATCH" or "none",
      rank, math.floor(meta(1)), relerr(sv, sn)))
  end
end
