-- make install into a temporary prefix: the header and linalg.pc let a C host
-- compile and link in one line; make env lets a script outside the checkout
-- find the modules. (make check-install does the same for the rock.)
-- make, cc and pkg-config run without the sanitizer runtime that check-asan
-- preloads (their own leaks are not ours, and would fail the commands)
local sh = require "shell"
-- the Lua running the specs: installed for it, its children run it
local LUA = require("interp").lua
local VERSION = LUA == "luajit" and "5.1" or LUA:match("%d+%.%d+")

-- under make valgrind every child is traced: make and cc would run under
-- memcheck, to no purpose
local run = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true) and pending or describe

run("make install", function()
  local prefix
  setup(function()
    prefix = os.tmpname()
    os.remove(prefix)
    local out, ok = sh("make -s install LUA=" .. LUA .. " PREFIX=" .. prefix)
    assert(ok, out)
  end)
  teardown(function() sh("rm -rf " .. prefix) end)

  it("installs linalg.h and a linalg.pc that examples/host.c compiles and links against", function()
    local f = io.open(prefix .. "/include/linalg.h")
    assert.is_truthy(f and f:read("*a"):find("linalg_pushmatrix", 1, true))
    local env = "PKG_CONFIG_PATH=" .. prefix .. "/lib/pkgconfig "
    local flags = sh(env .. "pkg-config --cflags --libs linalg " .. LUA)
    -- the include folder, relative to linalg.pc's own (${pcfiledir}/../../include)
    local inc = flags:match("%-I(%S+)")
    assert.are.equal(prefix, inc:sub(1, #prefix))
    local h = io.open(inc .. "/linalg.h")
    assert.is_truthy(h and h:read("*a"):find("linalg_pushmatrix", 1, true))
    local out, ok = sh(string.format("cc -o %s/host examples/host.c %s", prefix, flags:gsub("\n", "")))
    assert(ok, out)
    -- the host runs from elsewhere: the module is found by its recorded path
    out, ok = sh(string.format("cd / && LUA_PATH='%s/share/lua/%s/?.lua;%s/share/lua/%s/?/init.lua' %s/host",
      prefix, VERSION, prefix, VERSION, prefix))
    assert(ok, out)
    assert.is_truthy(out:find("X * w = [0, 2, 4]", 1, true))
    assert.are.equal(require("linalg").version, sh(env .. "pkg-config --modversion linalg"):match("%S+"))
  end)

  it("installs linalg-repl, which finds the installed modules and their reference text", function()
    local out = sh(string.format("cd / && printf 'la.config().blas_name\\nhelp \"solve\"\\n' | env -u LUA_PATH -u LUA_CPATH %s/bin/linalg-repl", prefix))
    assert.is_truthy(out:find("ans = OpenBLAS", 1, true))
    assert.is_truthy(out:find("la.solve", 1, true))
  end)
end)

run("make env", function()
  it("prints the exports that run a script outside the checkout against it", function()
    local exports = sh("make -s env LUA=" .. LUA)
    -- the names this Lua reads: LUA_PATH_5_4 ..., plain LUA_PATH for 5.1 and LuaJIT
    local suffix = VERSION == "5.1" and "" or "_" .. VERSION:gsub("%.", "_")
    assert.is_truthy(exports:find("export LUA_PATH" .. suffix .. "=", 1, true))
    assert.is_truthy(exports:find("export LUA_CPATH" .. suffix .. "=", 1, true))
    local out = sh("eval \"$(make -s env LUA=" .. LUA .. ")\"; cd / && " .. LUA ..
      " -e 'print(require(\"linalg\").det(require(\"linalg\").matrix{{1,2},{3,4}}))'")
    assert.are.equal(tostring(-2.0), out:match("%S+"))
  end)
end)
