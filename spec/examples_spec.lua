-- Runs every script in examples/ (each asserts its own claims) and checks
-- the key numbers it prints against the seed texts.
-- The scripts load the same linalg.core as this process (a sanitizer build
-- under make check-asan).
local function run(script)
  local cmd = string.format('LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="%s" lua5.4 %s 2>&1',
    package.cpath, script)
  local p = io.popen(cmd)
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok and code == 0, out
end

describe("examples", function()
  local expect = {
    ["examples/seeds.lua"] = {"equal:\ttrue"},
    ["examples/projections.lua"] = {"residual . v = 0.0000000000", "scalar projection 4.0000 = ||proj|| 4.0000"},
    ["examples/gram_schmidt.lua"] = {"cgs  orthogonality error max|Q^T Q - I| = 1.000e-08",
                                     "mgs  orthogonality error max|Q^T Q - I| = 1.000e-08",
                                     "kept columns:\t1, 3"},
    ["examples/least_squares.lua"] = {"all methods agree:\ttrue", "trace 5.0000", "lstsq on [1, X] matches:\ttrue"},
  }
  for f in io.popen("ls examples/*.lua"):lines() do
    it(f .. " runs and prints what the seed texts say", function()
      local ok, out = run(f)
      assert(ok, out)
      for _, line in ipairs(expect[f] or {}) do
        assert(out:find(line, 1, true), "missing from output: " .. line .. "\n" .. out)
      end
    end)
  end
end)
