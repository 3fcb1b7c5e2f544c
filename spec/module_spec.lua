-- The module table: `require "linalg"` and `require "linalg.core"` give one
-- table, whatever the order they are loaded in; internal entries are hidden;
-- the functions written in Lua are methods of matrices.
local LUA = require("interp").lua      -- the Lua running the specs: children run it too
local la = require "linalg"

-- Runs a Lua chunk in a fresh interpreter (the Lua running the specs) (nothing loaded yet) with this
-- process's search paths; returns its output.
local function fresh(code)
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  f:write(code)
  f:close()
  local p = io.popen(string.format("LUA_PATH='%s' LUA_CPATH='%s' " .. LUA .. " %s 2>&1",
    package.path, package.cpath, name))
  local out = p:read("*a")
  p:close()
  os.remove(name)
  return out
end

local CHECK = [[
  local la, core = %s
  local A = la.matrix{{1, 0}, {0, 1}, {1, 1}}
  local x = A:lstsq(la.vector{1, 2, 3})
  local p = la.vector{1, 2, 4}:project(A)
  local inside = A:span_check(la.vector{1, 2, 3})
  local n = 0
  for _ in pairs(la) do n = n + 1 end
  print(la == core, la.checkopts, core.checkopts, x(1), x(2), p(3), inside,
        la.project == require("linalg").project, n)
]]

describe("module table", function()
  it("is the core's table, with the Lua functions added", function()
    assert.are.equal(la, require "linalg.core")
    assert.are.equal("function", type(la.project))
    assert.are.equal("function", type(la.multihead_attention))
    assert.are.equal("function", type(la.heatmap))
  end)

  it("hides the option reader; asmatrix and check_finite stay (documented)", function()
    assert.is_nil(la.checkopts)
    assert.is_nil(require("linalg.core").checkopts)
    assert.are.equal("function", type(la.asmatrix))
    assert.are.equal("function", type(la.check_finite))
    assert.error_matches(function() return la.eye(2):checkopts() end, "no method or field 'checkopts'")
    -- the reader itself still works for the Lua front
    assert.error_matches(function() la.project(la.vector{1, 2}, la.eye(2), {check_finte = true}) end,
      "linalg.project: unknown option 'check_finte' (did you mean 'check_finite'?)")
  end)

  it("makes the Lua functions methods", function()
    local A = la.matrix{{1, 0}, {0, 1}, {1, 1}}
    local b = la.vector{1, 2, 3}
    local x = A:lstsq(b)
    assert.near(1, x(1), 1e-12); assert.near(2, x(2), 1e-12)
    local p, r = la.vector{1, 2, 4}:project(A)
    assert.near(0, la.norm(A.T * r), 1e-12)          -- r is orthogonal to X's columns
    assert.near(4 - 1 / 3, p(3), 1e-12)
    assert.is_true((A:span_check(b)))
    assert.is_false((A:span_check(la.vector{1, 2, 4})))
  end)

  for _, order in ipairs{
    {"core first", 'require "linalg.core", nil; la = require "linalg"; core = require "linalg.core"'},
    {"linalg first", 'require "linalg", nil; core = require "linalg.core"'},
    {"io first", 'nil, nil; require "linalg.io"; la = require "linalg"; core = require "linalg.core"'},
  } do
    it("is the same whatever is required first: " .. order[1], function()
      local code = CHECK:format(order[2])
      local n = 0
      for _ in pairs(la) do n = n + 1 end
      local out = fresh(code)
      assert.are.equal(string.format("true\tnil\tnil\t%s\t%s\t%.14g\ttrue\ttrue\t%d\n", tostring(1.0), tostring(2.0), 4 - 1 / 3, n), out)
    end)
  end
end)
