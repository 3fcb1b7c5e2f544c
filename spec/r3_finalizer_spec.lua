-- Finalizers that use matrices, in a fresh interpreter of the Lua the specs
-- run under (interp): Lua finalizes newest first, and lua_close finalizes
-- everything, so a finalizer can reach a matrix whose storage's owner was
-- finalized before it. It gets an error (as a closed file does), never the
-- freed memory; and linalg makes no collection of its own inside a
-- finalizer, which would run the finalizers still pending, those of the
-- storage the call reads among them. Each case crashed (SIGSEGV) before.
local interp = require "interp"

local UNSET = "env -u LUA_PATH_5_2 -u LUA_PATH_5_3 -u LUA_PATH_5_4 " ..
  "-u LUA_CPATH_5_2 -u LUA_CPATH_5_3 -u LUA_CPATH_5_4"
-- runs code from a file; its output (stderr too) and whether it exited
-- with status 0. Under make check-asan the child keeps the preloaded
-- sanitizer runtime its module needs, so these cases run instrumented too.
local function fresh(code)
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  f:write(code)
  f:close()
  local p = io.popen(string.format("%s LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' " ..
    "LUA_CPATH='./%s/?.so;;' OPENBLAS_NUM_THREADS=1 %s %s 2>&1; echo \"[exit $?]\"",
    UNSET, interp.build, interp.lua, name))
  local out = p:read("*a")
  p:close()
  os.remove(name)
  return (out:gsub("%[exit %d+%]\n$", "")), out:match("%[exit (%d+)%]\n$") == "0"
end

-- an object whose finalizer is f, on every Lua (5.1 finalizes userdata only)
local PRELUDE = [[
local la = require "linalg"
local function fin(f)
  if newproxy then local p = newproxy(true); getmetatable(p).__gc = f; return p end
  return setmetatable({}, {__gc = f})
end
]]

describe("a finalizer using matrices", function()
  it("gets an error for a matrix whose storage was finalized first (both garbage together)", function()
    -- y's owner is newer than p, so it is finalized first: its 40 MB go
    -- straight back to the system (past the storage cache)
    local out, ok = fresh(PRELUDE .. [[
do
  local y, v, b
  local p = fin(function()
    local r1, e1 = pcall(function() return y:tobytes() end)
    local r2, e2 = pcall(function() return v:sum() end)
    local r3, e3 = pcall(function() return y + 1 end)
    local r4, e4 = pcall(function() return b + 1 end)
    io.stdout:write(tostring(r1), " ", tostring(e1), "\n", tostring(r2), " ", tostring(e2), "\n",
                    tostring(r3), " ", tostring(e3), "\n", "bool ", tostring(r4), " ", tostring(e4), "\n")
  end)
  y = la.ones(5000, 1000)
  v = y:sub(1, 10, 1, 10)
  b = la.ones(6000, 6000, {dtype = "bool"})   -- 36 MB; a float64 copy was made of it
end
collectgarbage(); collectgarbage()
io.stdout:write("done\n")
]])
    assert.is_true(ok, out)
    assert.matches("false linalg.tobytes: bad argument #1 %(matrix is closed: its storage was " ..
                   "finalized%)", out)
    assert.matches("false linalg.sum: bad argument #1 %(matrix is closed", out)
    assert.matches("false [^\n]*matrix is closed", out)
    assert.matches("bool false [^\n]*matrix is closed: its storage was finalized", out)
    assert.matches("done", out)
  end)

  it("works at lua_close on matrices still alive, makes new ones there, and reads finalized ones as closed",
     function()
    -- keep is newer than y, v and big, so at lua_close it runs while their
    -- storage is there; it makes matrices of its own (LuaJIT finalizes them
    -- in a later round, after the storage anchor's); late's owner is newer
    -- than keep2, so keep2 finds it finalized. 5.1 and LuaJIT collect once
    -- a heap's worth of storage was made: inside keep, that collection ran
    -- the anchor's finalizer, which freed the storage tobytes was copying
    local out, ok = fresh(PRELUDE .. [[
local y = la.ones(40000, 1) * 3
local v = y:sub(1, 30000, 1, 1)
local big = la.ones(600, 500)
keep = fin(function()
  local s, t = y:tobytes(), v:tobytes()
  local z = y + 1
  local w = la.matmul(big, big, {trans_a = true})
  io.stdout:write("keep ", #s, " ", #t, " ", z:get(40000, 1), " ", w:get(500, 500), "\n")
  made = la.ones(300, 300) * 2
end)
keep2 = fin(function()
  local r, e = pcall(function() return late:tobytes() end)
  io.stdout:write("late ", tostring(r), " ", tostring(e), "\n")
end)
late = la.ones(6000, 1000)
]])
    assert.is_true(ok, out)
    assert.matches("keep 320000 240000 4 600", out, 1, true)
    assert.matches("late false [^\n]*matrix is closed: its storage was finalized", out)
  end)
end)

describe("the check for a finalizer (5.1: a call hook)", function()
  it("leaves a count hook counting: an instruction limit still stops a loop of results", function()
    local out, ok = fresh([[
local la = require "linalg"
local A = la.ones(100, 100)
debug.sethook(function() error("instruction limit") end, "", 1000000)
local r, e = pcall(function() while true do local B = A + 1 end end)
debug.sethook()
io.stdout:write(tostring(r), " ", tostring(e), "\n")
]])
    assert.is_true(ok, out)
    assert.matches("false [^\n]*instruction limit", out)
  end)
end)
