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

describe("linalg.map's loop", function()
  local hasffi = isjit and pcall(require, "ffi")

  it("is compat.maploop on LuaJIT with its FFI, and the C loop elsewhere", function()
    assert.are.equal(hasffi and "function" or "nil", type(compat.maploop))
  end)

  it("calls f(x, i, j) column by column, on a view (leading dimension > rows)", function()
    local A = la.matrix{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
    local V = A:sub(2, 3, 2, 4)                 -- {{6, 7, 8}, {10, 11, 12}}
    local seen = {}
    local B = V:map(function(x, i, j) seen[#seen + 1] = {x, i, j}; return x * 100 + i * 10 + j end)
    assert.are.same({{6, 1, 1}, {10, 2, 1}, {7, 1, 2}, {11, 2, 2}, {8, 1, 3}, {12, 2, 3}}, seen)
    assert.are.same({{611, 712, 813}, {1021, 1122, 1223}}, B:totable())
    assert.are.same({{6, 7, 8}, {10, 11, 12}}, V:totable())   -- A untouched
    assert.are.same({0, 3}, {la.zeros(0, 3):map(function() return 1 end):shape()})
  end)

  it("keeps map's messages, errors and float32 results", function()
    local X = la.matrix{{1, 2}, {3, 4}}
    assert.are.equal("linalg.map: function returned nil at (2,1), expected a number",
      errmsg(la.map, X, function(x) if x == 3 then return nil end return x end))
    assert.are.equal("linalg.map: function returned string at (1,1), expected a number",
      errmsg(la.map, X, function() return "1" end))
    assert.matches("stop", errmsg(la.map, X, function(_, _, j) if j == 2 then error("stop") end return 0 end))
    local co = coroutine.create(function() return X:map(function(x) coroutine.yield(x); return x end) end)
    local ok, e = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("yield across", tostring(e))
    local F = la.matrix({{1, 2}, {3, 4}}, {dtype = "float32"}):map(function(x) return x / 4 end)
    assert.are.equal("float32", F.dtype)
    assert.are.same({{0.25, 0.5}, {0.75, 1}}, F:totable())
    -- math functions as f (fast functions of LuaJIT's JIT): the same numbers
    local E = la.matrix{{0, 1}, {-1, 0.5}}:map(math.exp)
    assert.are.equal(math.exp(-1), E:get(2, 1))
    assert.are.equal(math.exp(0.5), E:get(2, 2))
  end)

  it("reads and writes within the sizes it is given (LuaJIT, direct call)", function()
    if not hasffi then return end
    local ffi = require "ffi"
    local a = ffi.new("double[8]", {1, 2, 99, 99, 3, 4, 99, 99})   -- 2 x 2, lda 4
    local b = ffi.new("double[7]", {-1, -1, -1, -1, -1, -1, -1})    -- 2 x 2, ldb 3
    compat.maploop(function(x) return -x end, ffi.cast("void *", a), ffi.cast("void *", b), 2, 2, 4, 3, "map")
    assert.are.same({-1, -2, -1, -3, -4, -1, -1}, {b[0], b[1], b[2], b[3], b[4], b[5], b[6]})
  end)
end)
