-- The release: a rockspec for la.version beside linalg-scm-1, make dist's
-- source rock (the rockspec and a git archive of HEAD), and a make install
-- tree that still works once moved (linalg.pc relative to its own folder,
-- linalg-repl finding its modules from its own). tools/check-dist.sh (make
-- check-install) installs the rock itself with luarocks.
local sh = require "shell"
local compat = require "linalg.compat"
local la = require "linalg"
local LUA = require("interp").lua
local VERSION = LUA == "luajit" and "5.1" or LUA:match("%d+%.%d+")

-- under make valgrind every child is traced: make and cc would run under memcheck
local valgrind = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true)
local run = valgrind and pending or describe

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  assert(sh("mkdir -p " .. d))
  return d
end

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

describe("the release rockspec", function()
  it("exists for la.version, with that version and the tarball make dist packs as its source", function()
    local name = "rockspec/linalg-" .. la.version .. "-1.rockspec"
    local spec = {}
    assert(compat.load(slurp(name), name, "t", spec))()
    assert.are.equal("linalg", spec.package)
    assert.are.equal(la.version .. "-1", spec.version)
    assert.are.equal("linalg-" .. la.version .. ".tar.gz", spec.source.url)
    assert.are.equal("linalg-" .. la.version, spec.source.dir)
    -- the same build as linalg-scm-1
    local scm = {}
    assert(compat.load(slurp("rockspec/linalg-scm-1.rockspec"), "scm", "t", scm))()
    assert.are.same(scm.build, spec.build)
    assert.are.same(scm.dependencies, spec.dependencies)
  end)
end)

-- make dist packs a git archive: only in a git checkout (not in the copy
-- `luarocks test` or tools/check-install.sh runs the specs in)
local _, in_git = sh("git rev-parse --verify -q HEAD")
local run_git = in_git and run or pending
run_git("make dist", function()
  it("writes dist/linalg-<version>-1.src.rock: the rockspec and the files git tracks at HEAD", function()
    local d = tmpdir()
    local out, ok = sh("make -s dist DISTDIR=" .. d)
    assert(ok, out)
    local rock = d .. "/linalg-" .. la.version .. "-1.src.rock"
    local list = sh("unzip -Z1 " .. rock)
    assert.are.equal("linalg-" .. la.version .. "-1.rockspec\nlinalg-" .. la.version .. ".tar.gz\n", list)
    local files = sh("unzip -p " .. rock .. " linalg-" .. la.version .. ".tar.gz | tar -tzf - | grep -v '/$' | sort")
    local tracked = sh("git ls-tree -r --name-only HEAD | sed 's|^|linalg-" .. la.version .. "/|' | sort")
    assert.is_truthy(tracked:find("/src/linalg.h\n", 1, true))
    assert.are.equal(tracked, files)
    sh("rm -rf " .. d)
  end)
end)

run("make install, the tree moved", function()
  local d
  setup(function()
    d = tmpdir()
    local out, ok = sh("make -s install LUA=" .. LUA .. " DESTDIR=" .. d .. "/a PREFIX=/usr/local && mv " .. d .. "/a " .. d .. "/b")
    assert(ok, out)
  end)
  teardown(function() sh("rm -rf " .. d) end)

  it("names neither the prefix nor the build folder", function()
    local pwd = sh("pwd"):match("[^\n]+")
    for _, s in ipairs({"/usr/local", pwd}) do
      local out = sh("grep -rl '" .. s .. "' " .. d .. "/b; for f in $(find " .. d .. "/b -name '*.so'); do strings $f | grep -l '" .. s .. "' && echo $f; done")
      assert.are.equal("", out)
    end
  end)

  it("keeps a linalg.pc that examples/host.c builds against, run from elsewhere", function()
    local b = d .. "/b/usr/local"
    local flags, ok = sh("PKG_CONFIG_PATH=" .. b .. "/lib/pkgconfig pkg-config --cflags --libs linalg " .. LUA)
    assert(ok, flags)
    local out
    out, ok = sh(string.format("cc -o %s/host examples/host.c %s", d, flags:gsub("\n", "")))
    assert(ok, out)
    out, ok = sh(string.format("cd / && LUA_PATH='%s/share/lua/%s/?.lua;%s/share/lua/%s/?/init.lua' %s/host",
      b, VERSION, b, VERSION, d))
    assert(ok, out)
    assert.is_truthy(out:find("X * w = [0, 2, 4]", 1, true))
  end)

  it("keeps a linalg-repl that finds the modules beside it", function()
    local out = sh(string.format("cd / && printf 'la.version\\nla.config().blas_name\\n' | env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_%s -u LUA_CPATH_%s %s/b/usr/local/bin/linalg-repl",
      VERSION:gsub("%.", "_"), VERSION:gsub("%.", "_"), d))
    assert.is_truthy(out:find("ans = " .. la.version, 1, true), out)
    assert.is_truthy(out:find("ans = OpenBLAS", 1, true), out)
  end)
end)
