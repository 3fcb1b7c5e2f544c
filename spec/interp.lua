-- The Lua running the specs, for the specs that start a child interpreter:
-- its command (lua5.1, lua5.2, lua5.3, lua5.4 or luajit), this checkout's
-- build folder for it (as busted's --cpath names it: build/ for lua5.4,
-- build-lua5.1/ ..., build-asan/ under make check-asan) and that folder as
-- a LUA_CPATH; sh(cmd), whether a shell command succeeded; unique(prefix),
-- a name for a tmux socket.
local name = rawget(_G, "jit") and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
local build = package.cpath:match("%./(build[^/;]*)/%?%.so") or (name == "lua5.4" and "build" or "build-" .. name)
-- did a shell command succeed (os.execute returns true on 5.2+, a status
-- number on 5.1 and LuaJIT, where a failure's status is truthy too)
local function sh(cmd)
  local r = os.execute(cmd)
  return r == true or r == 0
end
-- a name no other process uses at the same time (a tmux socket): the
-- basename of a fresh temporary file, which is removed
local function unique(prefix)
  local f = os.tmpname()
  os.remove(f)
  return prefix .. f:match("[^/]+$")
end
return {lua = name, build = build, cpath = "./" .. build .. "/?.so;;", sh = sh, unique = unique}
