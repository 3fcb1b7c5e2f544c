-- LuaJIT's fast paths: method lookup through a Lua __index (compat.methodindex)
-- and views that take their metatable from the entry point. Runs on every
-- Lua: the same results everywhere, the Lua __index on LuaJIT only.
local la = require "linalg"
local compat = require "linalg.compat"

local isjit = rawget(_G, "jit") ~= nil

local function mt_of(A) return debug.getmetatable(A) end

local function errmsg(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return tostring(err)
end

describe("linalg method lookup (__index)", function()
  it("is a Lua function on LuaJIT and the C one elsewhere", function()
    local index = mt_of(la.zeros(1, 1)).__index
    assert.are.equal(isjit and "Lua" or "C", debug.getinfo(index, "S").what)
  end)

  it("finds methods, A.T and A.dtype as before", function()
    local A = la.matrix{{1, 2, 3}, {4, 5, 6}}
    assert.are.equal(5, A:get(2, 2))
    assert.are.same({3, 2}, {A.T:shape()})
    assert.are.equal(6, A.T:get(3, 2))
    assert.are.equal("float64", A.dtype)
    assert.are.equal("float32", la.zeros(2, 2, {dtype = "float32"}).dtype)
    assert.are.equal(21, A:sum())
    -- a function of the Lua front (init.lua) is a method too
    assert.are.equal(la.project, A.project)
  end)

  it("raises the C messages for unknown keys and non-string keys", function()
    local A = la.eye(2)
    assert.matches("no method or field 'nosuchmethod'", errmsg(function() return A.nosuchmethod end))
    assert.matches("did you mean 'shape'", errmsg(function() return A.shap end))
    assert.matches("A%[42%] is not defined", errmsg(function() return A[42] end))
    assert.matches("linalg.matrix: A%[42%] is not defined", errmsg(mt_of(A).__index, A, 42))
  end)

  it("reads the module table at each call: functions added or removed later", function()
    local A = la.eye(3)
    la.r3_jit_probe = function(M) return M:rows() * 10 end
    local ok, v = pcall(function() return A:r3_jit_probe() end)
    la.r3_jit_probe = nil
    assert.is_true(ok)
    assert.are.equal(30, v)
    assert.matches("no method or field 'r3_jit_probe'", errmsg(function() return A.r3_jit_probe end))
  end)
end)

describe("compat.methodindex", function()
  it("is nil without LuaJIT, else a lookup that falls back to cindex", function()
    local calls = {}
    local mod = {f = "F", T = "module T", dtype = "module dtype"}
    local function cindex(A, k) calls[#calls + 1] = k; return "c:" .. tostring(k) end
    local index = compat.methodindex(mod, cindex)
    if not isjit then assert.is_nil(index); return end
    assert.are.equal("F", index({}, "f"))
    assert.are.equal("c:T", index({}, "T"))          -- computed from A, never the module's
    assert.are.equal("c:dtype", index({}, "dtype"))
    assert.are.equal("c:g", index({}, "g"))
    assert.are.equal("c:1", index({}, 1))
    assert.are.same({"T", "dtype", "g", 1}, calls)
    -- raw reads: a module table's own __index is never consulted
    local trap = setmetatable({}, {__index = function() error("boom") end})
    assert.are.equal("c:h", compat.methodindex(trap, cindex)({}, "h"))
  end)
end)

describe("views", function()
  it("are matrices that keep their parent alive (row, col, sub, slice, T)", function()
    local views = {}
    do
      local A = la.matrix{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
      views = {A:row(2), A:col(3), A:sub(2, 3, 1, 2), A:slice("1:2", ":"), A.T, A:slice(":", "2:3"):row(1)}
    end
    collectgarbage(); collectgarbage()
    local garbage = {}
    for i = 1, 200 do garbage[i] = la.ones(3, 3) * i end   -- reuses freed memory, if any
    for _, V in ipairs(views) do
      assert.are.equal("linalg.matrix", getmetatable(V))
      assert.is_true(la.is_matrix(V))
    end
    assert.are.same({4, 5, 6}, views[1]:totable()[1])
    assert.are.same({3, 6, 9}, views[2]:totable())
    assert.are.same({{4, 5}, {7, 8}}, views[3]:totable())
    assert.are.same({{1, 2, 3}, {4, 5, 6}}, views[4]:totable())
    assert.are.equal(8, views[5]:get(2, 3))
    assert.are.same({{2, 3}}, views[6]:totable())
  end)

  it("made through a metamethod (__index's A.T) are matrices too", function()
    local V = la.matrix{{1, 2}, {3, 4}}.T
    assert.are.equal("linalg.matrix", getmetatable(V))
    assert.are.equal(3, V:get(1, 2))
  end)
end)
