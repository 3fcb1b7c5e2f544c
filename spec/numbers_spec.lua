-- tools/numbers.lua (the README's figures from a test log) and
-- tools/deps.sh --list (the README names the command, not a copied list).
local interp = require "interp"
local run = require "shell"

describe("tools/numbers.lua", function()
  it("reads each Lua's figures, the kernel checks and MPI from a make test log", function()
    local log = os.tmpname()
    local f = assert(io.open(log, "w"))
    f:write([[
== make test-lua LUA=lua5.1
2663 successes / 0 failures / 0 errors / 1 pending : 33.3 seconds
alloc: 3940 passed, 0 failed (failure points; no leaks after lua_close)
threads: 6 passed, 0 failed (4 concurrent states, fork, fork during attention)
capi: 17 passed, 0 failed
== make test-lua LUA=luajit
2662 successes / 1 failure / 0 errors / 1 pending : 74.9 seconds
kernels/arith: 29 checks passed
kernels/reduce: 74 checks passed
linalg.mpi: all MPI runs passed
valgrind: 2650 specs passed, exit 0
]])
    f:close()
    local out = run(interp.lua .. " tools/numbers.lua " .. log)
    os.remove(log)
    assert.is_truthy(out:find("| lua5.1 | 2663 | 0 | 1 | 3940 | 6 | 17 |", 1, true), out)
    assert.is_truthy(out:find("| luajit | 2662 | 1 | 1 | - | - | - |", 1, true), out)
    assert.is_truthy(out:find("103 checks passed in 2 programs. MPI (1 to 4 ranks): all runs passed.", 1, true), out)
    assert.is_truthy(out:find("`make valgrind` (lua5.4): 2650 specs passed, exit 0.", 1, true), out)
  end)

  it("has its block in the README", function()
    local f = assert(io.open("README.md"))
    local s = f:read("*a")
    f:close()
    assert.is_truthy(s:find("<!-- numbers -->\n| Lua | busted specs passed", 1, true))
    assert.is_truthy(s:find("tools/numbers.lua", 1, true))
  end)
end)

describe("tools/deps.sh --list", function()
  it("names every package, Open MPI and LuaJIT's pair included, and installs nothing", function()
    local out = run("sh tools/deps.sh --list")
    for _, p in ipairs{"libopenblas-dev", "liblapacke-dev", "lua5.1", "liblua5.4-dev", "lua-busted",
                       "libopenmpi-dev", "openmpi-bin", "luajit2", "libluajit2-5.1-dev"} do
      assert.is_truthy(out:find(p, 1, true), p .. " missing from: " .. out)
    end
    assert.is_falsy(out:find("--list", 1, true))
  end)
end)
