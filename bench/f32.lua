-- float32 matrices for the benchmarks. linalg's float32 type is detected by
-- a pcall, so the float32 rows print "n/a (float32 not available)" until it
-- exists and fill in with no change once it lands (API.md, "Element types":
-- opts.dtype on the constructors, A.dtype, A:astype(dtype)).
local la = require "linalg"

local M = {}
local OPT = {dtype = "float32"}

local function is32(A) return A.dtype == "float32" end

-- the constructors, the dtype field, astype and one product must all work,
-- and the product must stay float32 (a silent float64 would mislabel a row)
local function probe()
  local A = la.zeros(2, 2, OPT)
  local B = la.matrix({{1, 2}, {3, 4}}, OPT)
  local C = la.randn(2, 2, 1):astype("float32")
  assert(is32(A) and is32(B) and is32(C) and is32(A * B) and is32(B + C))
end

M.available = pcall(probe)
M.NA = "n/a (float32 not available)"

--- An m x n float32 matrix of standard normals from seed. randn with
-- opts.dtype when it takes one; otherwise randn's float64 values rounded by
-- astype, the float64 copy freed at once (the memory bench counts peaks).
function M.randn(m, n, seed)
  local ok, A = pcall(la.randn, m, n, seed, OPT)
  if ok and is32(A) then return A end
  A = la.randn(m, n, seed):astype("float32")
  collectgarbage()
  return A
end

function M.matrix(t) return la.matrix(t, OPT) end

--- Raises unless every argument is a float32 matrix.
function M.check(...)
  for i = 1, select("#", ...) do
    local A = select(i, ...)
    if not is32(A) then error("float32 bench: result " .. i .. " is " .. tostring(A.dtype), 2) end
  end
  return ...
end

return M
