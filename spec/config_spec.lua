-- la.config(): what the process runs on and how the module was built.
local LUA = require("interp").lua      -- the Lua running the specs: children run it too
local la = require "linalg"

-- runs a snippet in a fresh interpreter (the Lua running the specs) with this checkout's module; returns stdout + stderr
local function fresh(env, code)
  local p = io.popen(string.format("%s LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH='%s' " .. LUA .. " -e %q 2>&1",
    env, package.cpath, code))
  local out = p:read("*a")
  p:close()
  return out
end

describe("linalg.config", function()
  it("names the BLAS, its version, core and thread count", function()
    local c = la.config()
    assert.are.equal("OpenBLAS", c.blas_name)
    assert.is_truthy(c.blas:find("^OpenBLAS "))
    assert.is_truthy(c.blas_version:match("^%d+%.%d+%.%d+"))
    assert.is_truthy(c.blas:find(c.blas_version, 1, true))
    assert.are.equal(la.version, c.version)
    assert.are.equal("string", type(c.core))
    assert.are.equal(la.threads(), c.threads)
  end)

  it("reports the thread count set with la.threads", function()
    local old = la.threads()
    la.threads(1)
    local c = la.config()
    la.threads(old)
    assert.are.equal(1, c.threads)
  end)

  it("reports the core OpenBLAS itself says it uses, and follows OPENBLAS_CORETYPE", function()
    -- OPENBLAS_VERBOSE=2 makes OpenBLAS print "Core: <name>" when it loads
    local out = fresh("OPENBLAS_VERBOSE=2", 'print("config " .. require("linalg").config().core)')
    local said, got = out:match("Core: (%w+)"), out:match("config (%w+)")
    assert.is_truthy(said)
    assert.are.equal(said, got)
    out = fresh("OPENBLAS_CORETYPE=Haswell", 'print("config " .. require("linalg").config().core)')
    assert.are.equal("Haswell", out:match("config (%w+)"))
  end)

  it("names the compiler and the SIMD paths of attention's exp, the active one among them", function()
    local c = la.config()
    assert.is_truthy(c.compiler:match("^gcc %d") or c.compiler:match("^clang %d"))
    assert.are.equal("default", c.simd[#c.simd])
    local found = false
    for _, s in ipairs(c.simd) do found = found or s == c.simd_active end
    assert.is_true(found)
    -- this machine's CPU flags decide the active path (valgrind's CPU has no
    -- AVX-512, so there the process is right to differ from /proc/cpuinfo)
    local flags = io.open("/proc/cpuinfo"):read("*a")
    local under_valgrind = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true)
    if c.simd[1] == "avx512f" and not under_valgrind then
      local want = flags:find(" avx512f") and "avx512f" or flags:find(" avx2") and "avx2" or "default"
      assert.are.equal(want, c.simd_active)
    end
  end)

  it("names attention's fused kernel: AVX-512 where the CPU has it, gemm tiles elsewhere", function()
    local c = la.config()
    assert.is_truthy(c.attention == "avx512f" or c.attention == "gemm")
    local flags = io.open("/proc/cpuinfo"):read("*a")
    local under_valgrind = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true)
    local p = io.popen("uname -m")
    local x86 = p:read("*l") == "x86_64"
    p:close()
    if x86 and not under_valgrind then      -- valgrind's CPU has no AVX-512
      assert.are.equal(flags:find(" avx512f") and "avx512f" or "gemm", c.attention)
    end
  end)


  it("takes no arguments: any given is an error naming it (hostile values included)", function()
    for _, x in ipairs({-1, 0 / 0, "x", {}, la.eye(2), print}) do
      assert.has_error(function() la.config(x) end,
        "linalg.config: bad argument #1 (config takes no arguments)")
    end
    assert.are.equal(la.config().core, la.config(nil).core)   -- nil is no argument
  end)
end)
