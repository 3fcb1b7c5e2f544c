-- tools/check-doc.lua, the check make doc (and CI) runs on the HTML reference:
-- it passes on the pages LDoc writes from this checkout and names each kind
-- of defect when one is put into a copy.
-- ldoc (on Lua 5.1) and the checker run without check-asan's preloaded
-- sanitizer: what they leak at exit is theirs
-- tools/check-doc.lua runs under the Lua running the specs, on its build
local interp = require "interp"
-- (the plain build: check-asan's instrumented one needs the preloaded runtime)
local plain = interp.lua == "lua5.4" and "build" or "build-" .. interp.lua
local LUA = "LINALG_CPATH='./" .. plain .. "/?.so;' " .. interp.lua
local sh = require "shell"

local have_ldoc = sh("command -v ldoc >/dev/null && echo yes"):match("yes")
  and sh("lua5.1 -e 'require \"discount\"' && echo yes"):match("yes")
-- (pending without lua-ldoc and lua-discount, which make doc installs, and
-- under make valgrind, which would trace ldoc too)
local under_valgrind = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true)
local run = (have_ldoc and not under_valgrind) and describe or pending

run("tools/check-doc.lua", function()
  local dir
  setup(function()
    dir = os.tmpname()
    os.remove(dir)
    local out, ok = sh("ldoc -c config.ld -d " .. dir .. " .")
    assert(ok, out)
  end)
  teardown(function() sh("rm -rf " .. dir) end)

  local function edit(page, f)
    local copy = dir .. "-edit"
    sh("rm -rf " .. copy .. " && cp -r " .. dir .. " " .. copy)
    local path = copy .. "/modules/" .. page .. ".html"
    local h = io.open(path):read("*a")
    local fh = io.open(path, "w")
    fh:write((f(h)))
    fh:close()
    local out, ok = sh(LUA .. " tools/check-doc.lua " .. copy)
    sh("rm -rf " .. copy)
    return out, ok
  end

  it("passes on the pages of this checkout", function()
    local out, ok = sh(LUA .. " tools/check-doc.lua " .. dir)
    assert(ok, out)
    assert.is_truthy(out:find("every public function documented", 1, true))
  end)

  it("finds a placeholder read as an HTML tag", function()
    local out, ok = edit("linalg.core", function(h)
      return (h:gsub("<code>linalg%.&lt;function&gt;:</code>", "linalg.<function>:", 1))
    end)
    assert.is_falsy(ok)
    assert.is_truthy(out:find("unescaped <function>", 1, true))
  end)

  it("finds a function whose parameters are not listed", function()
    local out, ok = edit("linalg.core", function(h)
      return (h:gsub('<strong>get%(A, i%[, j%]%)</strong>', "<strong>get()</strong>", 1))
    end)
    assert.is_falsy(ok)
    assert.is_truthy(out:find("get lists no parameters", 1, true))
    assert.is_truthy(out:find("get lists 0 parameters () where the README shows 3", 1, true))
  end)

  it("finds a summary cut inside a formula", function()
    local out, ok = edit("linalg", function(h)
      return (h:gsub('(<td class="summary">Scalar projection of )[^<]*(.-)</td>', "%1<code>u</code> onto <code>v</code>: `u .</td>", 1))
    end)
    assert.is_falsy(ok)
    assert.is_truthy(out:find("the summary of la.scalar_projection is cut", 1, true))
  end)

  it("finds a public function with no entry", function()
    local out, ok = edit("linalg.core", function(h)
      return (h:gsub('<dt>%s*<a name = "trace"></a>.-</dd>', "", 1))
    end)
    assert.is_falsy(ok)
    assert.is_truthy(out:find("no reference entry for la.trace", 1, true))
  end)
end)
