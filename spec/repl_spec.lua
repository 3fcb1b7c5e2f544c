-- The interactive session (bin/linalg-repl) driven through a pipe.
-- what the session prints given these lines on its standard input
local LUA = require("interp").lua      -- the Lua running the specs: children run it too
local function repl(...)
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  assert(f:write(...))
  assert(f:close())
  local p = io.popen(string.format("LUA_CPATH='%s' " .. LUA .. " bin/linalg-repl < %s 2>&1", package.cpath, name))
  local out = p:read("*a")
  p:close()
  os.remove(name)
  return out
end

describe("bin/linalg-repl", function()
  it("prints expressions, runs statements, continues lines, survives errors", function()
    local out = repl("A = la.matrix{{1,2},{3,4}}\nA * A.T\nfor i = 1,\n 2 do print('i=' .. i) end\n",
                     "la.zeros(-1, 1)\nla.det(A)\nexit\n")
    assert.is_truthy(out:find("2x2 matrix\n   5.  11.\n  11.  25.", 1, true))
    assert.is_truthy(out:find("i=1\ni=2", 1, true))
    assert.is_truthy(out:find("linalg.zeros: bad argument #1", 1, true))
    assert.is_truthy(out:find("ans = " .. tostring(-2.0), 1, true))   -- "-2" where numbers are doubles
    assert.is_falsy(out:find("i = ", 1, true))      -- a for loop is not an assignment
  end)

  it("echoes by Octave's rules and prints help without a terminal too", function()
    local out = repl("x = 2\ny = 3;\nx * y\nans + 1\nlocal z = 5\nz\nla.qr(la.eye(2));\n",
                     "help 'scalar_projection'\nla\n")
    assert.is_truthy(out:find("> x = 2\n", 1, true))
    assert.is_falsy(out:find("y = 3", 1, true))
    assert.is_truthy(out:find("ans = 6\n", 1, true))
    assert.is_truthy(out:find("ans = 7\n", 1, true))
    assert.is_truthy(out:find("z = 5\n> ans = 5\n", 1, true))
    assert.is_falsy(out:find("[1]", 1, true))
    -- the doc comment's whole summary, with its parameters
    assert.is_truthy(out:find("la.scalar_projection(u, v)", 1, true))
    assert.is_truthy(out:find("dot(u, v) / ||v||", 1, true))
    assert.is_truthy(out:find("linalg " .. require("linalg").version .. ": %d+ functions"))
  end)
end)
