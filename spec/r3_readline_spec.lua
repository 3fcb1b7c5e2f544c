-- linalg.readline (bin/lreadline.c) used as a hostile program would use it,
-- and bin/linalg-repl showing values and errors whose __tostring fails.
--
-- readline reads a pipe here: a driver script runs in a child Lua (the one
-- running the specs) whose
-- standard input is a file, so a Tab in it runs the completer as the key
-- would. The child inherits the environment: under check-asan it runs with
-- the sanitizer preloaded and the instrumented module (the cpath), under
-- make valgrind it is traced (--trace-children).

local LUA = require("interp").lua
local have_rl = pcall(require, "linalg.readline")
local describe_rl = have_rl and describe or pending

local function readfile(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function writefile(path, s)
  local f = assert(io.open(path, "wb"))
  assert(f:write(s))
  assert(f:close())
end

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local sh = require("interp").sh   -- did the shell command succeed

-- math.mininteger, or the same value as a float where there is none (5.1, 5.2)
local MININT = math.mininteger or -2^63

local function mktemp()
  local p = io.popen("mktemp -d")
  local d = p:read("*l")
  p:close()
  return d
end

local function lines(s)
  local t = {}
  for l in (s or ""):gmatch("([^\n]*)\n") do t[#t + 1] = l end
  return t
end

-- the cpath with ./ made absolute (the child runs from the checkout too, but
-- the driver script lives in a temporary directory)
local function abs_cpath()
  local p = io.popen("pwd")
  local cwd = p:read("*l")
  p:close()
  return (package.cpath:gsub("%./", cwd .. "/"))
end

-- what every driver starts with: the module, and log(...) writing one line
-- of tab-separated values to the results file (arg[1])
local PRELUDE = [[
local rl = require "linalg.readline"
local results = assert(io.open(arg[1], "w"))
local function log(...)
  local t = {n = select("#", ...), ...}
  for i = 1, t.n do t[i] = tostring(t[i]) end
  results:write(table.concat(t, "\t"), "\n")
  results:flush()
end
]]

-- runs the shell command cmd with the text input (written into dir) on its
-- standard input; returns what it printed (stdout and stderr) and whether
-- it exited with status 0
local function run(dir, cmd, input)
  writefile(dir .. "/input", input)
  local p = io.popen(cmd .. " < " .. q(dir .. "/input") .. " 2>&1; echo \"exit $?\"")
  local out = p:read("*a")
  p:close()
  local body, code = out:match("^(.*)exit (%d+)\n$")
  return body or out, code == "0"
end

-- runs PRELUDE .. body in a child lua5.4 reading input on its standard
-- input; returns the results file's lines, the screen (readline's echo and
-- the child's stderr) and whether the child exited with status 0
local function drive(dir, body, input)
  writefile(dir .. "/driver.lua", PRELUDE .. body)
  -- a list of many candidates is shown at once (asking or paging would
  -- read keys from the input); no ~/.inputrc
  writefile(dir .. "/inputrc", "set completion-query-items 0\nset page-completions off\nset bell-style none\n")
  os.remove(dir .. "/results")
  local screen, ok = run(dir, string.format("INPUTRC=%s LUA_CPATH=%s " .. LUA .. " %s %s", q(dir .. "/inputrc"),
    q(abs_cpath()), q(dir .. "/driver.lua"), q(dir .. "/results")), input)
  return lines(readfile(dir .. "/results")), screen, ok
end

local ALREADY = "linalg.readline.readline: readline is already running (it cannot be called from the completer)"

describe_rl("linalg.readline callbacks", function()
  local dir
  before_each(function() dir = mktemp() end)
  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  it("refuses readline called from the completer, and the outer line survives", function()
    -- before: the inner call installed its own line handler, took the next
    -- line and freed it; the outer call then pushed and freed it again
    -- (glibc: "free(): double free detected", abort)
    local res, screen, ok = drive(dir, [[
rl.set_completer(function(word, line, start)
  log("completer", word, line, start)
  log("nested", pcall(rl.readline, "in> "))
  log("nested run", rl.run(rl.readline, "in> "))
  log("nested coroutine", coroutine.wrap(function() return pcall(rl.readline) end)())
  return {"alpha"}
end)
log("line", rl.readline("p> "))
log("line", rl.readline("p> "))
log("line", rl.readline("p> "))
]], "al\tx\nsecond\n")
    assert.is_true(ok, screen)
    assert.same({
      "completer\tal\tal\t0",
      "nested\tfalse\t" .. ALREADY,
      "nested run\tfalse\t" .. ALREADY,
      "nested coroutine\tfalse\t" .. ALREADY,
      "line\talphax",
      "line\tsecond",
      "line\tnil",                                       -- end of input
    }, res)
  end)

  it("keeps reading when the completer raises, yields, overflows or returns junk", function()
    -- line i of the input is "c<Tab><i>"; completer i does what JUNK[i] says
    local res, screen, ok = drive(dir, [[
local i = 0
local JUNK = {
  function() error("boom") end,
  function() error(setmetatable({}, {__tostring = function() error("x") end})) end,
  function() error(nil) end,
  function() coroutine.yield(1) end,
  function()                                -- C stack overflow
    local t = setmetatable({}, {__index = function(t, k) return t[k] end})
    return t.x
  end,
  function() return nil end,
  function() return 42 end,
  function() return "cat" end,
  function() return print end,
  function() return io.stdout end,
  function() return coroutine.create(print) end,
  function() return {1, 2} end,
  function() return setmetatable({}, {__index = function() error("index") end}) end,
  function() return {"cat", 5, "cow"} end,                 -- ends at the 5
  function() return setmetatable({"cat"}, {__len = function() error("len") end}) end,
}
rl.set_completer(function() return JUNK[i]() end)
for k = 1, #JUNK do
  i = k
  log(k, rl.readline(""))
end
i = 4                                                      -- the yield, in a coroutine
log("co", coroutine.wrap(function() return rl.readline("") end)())
]], ("c\t%d\n"):rep(16):format(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    assert.is_true(ok, screen)
    local want = {}
    for k = 1, 13 do want[k] = k .. "\tc" .. k end
    want[14] = "14\tcat14"
    want[15] = "15\tcat15"
    want[16] = "co\tc16"
    assert.same(want, res)
  end)

  it("gives Ctrl-C back to rl.run after a nested rl.run or rl.readline", function()
    -- before: the inner call left the mode IDLE, so SIGINT was ignored
    -- until the outer rl.run returned (spin ran its 10 s out)
    local res, screen, ok = drive(dir, [[
local pid = io.open("/proc/self/stat"):read("*n")
local function spin()
  os.execute(string.format("(sleep 0.3; kill -INT %d) &", pid))
  local t = os.time()
  while os.time() - t < 10 do end
  return "not interrupted"
end
log("run", rl.run(function() rl.run(function() end); return spin() end))
log("readline", rl.run(function() log("read", rl.readline("p> ")); return spin() end))
log("outside", rl.run(function() return "done" end))
]], "typed\n")
    assert.is_true(ok, screen)
    assert.equals(4, #res, screen)
    assert.matches("^run\tfalse\t.*interrupted$", res[1])
    assert.equals("read\ttyped", res[2])
    assert.matches("^readline\tfalse\t.*interrupted$", res[3])
    assert.equals("outside\ttrue\tdone", res[4])
  end)

  it("lets Ctrl-C stop a completer that does not return, and keeps the line", function()
    -- before: SIGINT stayed blocked while the completer ran, so its loop
    -- ran the 10 s out and the completion went in ("abcz")
    local res, screen, ok = drive(dir, [[
local pid = io.open("/proc/self/stat"):read("*n")
rl.set_completer(function()
  os.execute(string.format("(sleep 0.3; kill -INT %d) &", pid))
  local t = os.time()
  while os.time() - t < 10 do end
  log("not interrupted")
  return {"abc"}
end)
log("line", rl.readline("p> "))
rl.set_completer(function() return {"abc"} end)
log("line", rl.readline("p> "))                  -- completion works again
]], "ab\tz\nab\t\n")
    assert.is_true(ok, screen)
    assert.same({"line\tabz", "line\tabc"}, res)
  end)
end)

describe_rl("linalg.readline history files and integer arguments", function()
  local rl = have_rl and require "linalg.readline"
  local dir, hist
  local FIVE = "l1\nl2\nl3\nl4\nl5\n"
  before_each(function()
    dir = mktemp()
    hist = dir .. "/history"
    writefile(hist, FIVE)
  end)
  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  it("read_history keeps the last keep lines, and every line from 2^31 on", function()
    assert.is_true(rl.read_history(hist, 3))
    assert.equals("l3\nl4\nl5\n", readfile(hist))
    writefile(hist, FIVE)
    assert.is_true(rl.read_history(hist))              -- default 1000
    assert.equals(FIVE, readfile(hist))
    -- before: (int) keep wrapped: 2^32 -> 0 and 2^53 -> 0 emptied the file,
    -- 2^32 + 2 -> 2 kept two lines, math.mininteger -> 0 emptied it
    for _, keep in ipairs({2^31 - 1, 2^31, 2^31 + 0.0, 2^32, 2^32 + 2, 2^53, 2^53 + 0.0, 2^63,
                           math.maxinteger or 2 ^ 53, math.huge, "4294967296"}) do
      assert.is_true(rl.read_history(hist, keep))
      assert.equals(FIVE, readfile(hist), "keep = " .. tostring(keep))
    end
    assert.is_true(rl.read_history(hist, 0))           -- asked for: no line kept
    assert.equals("", readfile(hist))
  end)

  it("read_history refuses a negative, NaN or fractional keep and leaves the file alone", function()
    for _, keep in ipairs({-1, -2^31, -2^32, MININT, -math.huge, 0/0, 1.5, 2^31 - 0.5, "x", {}}) do
      local ok, err = pcall(rl.read_history, hist, keep)
      assert.is_false(ok, "keep = " .. tostring(keep))
      assert.matches("bad argument #2 to '[%w_.]*read_history'", err)
      assert.equals(FIVE, readfile(hist), "keep = " .. tostring(keep))
    end
  end)

  it("refuses file names with a zero byte (C would open the name cut there)", function()
    -- before: read_history(hist .. "\0x", 1) truncated hist to its last line
    local ok, err = pcall(rl.read_history, hist .. "\0.bak", 1)
    assert.is_false(ok)
    assert.matches("bad argument #1 to '[%w_.]*read_history' %(file name contains a zero byte%)", err)
    assert.equals(FIVE, readfile(hist))
    ok, err = pcall(rl.add_history, "l6", hist .. "\0.bak")
    assert.is_false(ok)
    assert.matches("bad argument #2 to '[%w_.]*add_history' %(file name contains a zero byte%)", err)
    assert.equals(FIVE, readfile(hist))
    rl.add_history("l6", hist)                         -- and a good name appends
    assert.equals(FIVE .. "l6\n", readfile(hist))
  end)

  it("does not open a FIFO (with no writer, open would wait for ever)", function()
    -- before: both calls hung in open(); timeout ended the child with 124
    local fifo = dir .. "/fifo"
    assert.is_true(sh("mkfifo " .. q(fifo)))
    local function child(code)
      return run(dir, string.format("LUA_CPATH=%s timeout 20 " .. LUA .. " -e %s", q(abs_cpath()),
        q("local rl, fifo = require 'linalg.readline', " .. string.format("%q", fifo) .. "; " .. code)), "")
    end
    local out, ok = child("print(rl.read_history(fifo))")
    assert.is_true(ok, out)
    assert.equals("false\n", out)
    out, ok = child("rl.add_history('x', fifo); print('added')")
    assert.is_true(ok, out)
    assert.equals("added\n", out)
  end)

  it("refuses a prompt line past 250 visible bytes (readline 8.2 writes past a table)", function()
    -- rl_redisplay notes where each screen line of the prompt starts in a
    -- table of 256 entries it does not grow; before: a 40000-byte prompt on
    -- 80 columns wrote past it (glibc then aborted the child)
    local res, screen, ok = drive(dir, [[
for _, p in ipairs({("P"):rep(40000), ("P"):rep(251), "\1\2" .. ("P"):rep(251), ("P"):rep(250),
                    ("P"):rep(30000) .. "\n> ", "\1" .. ("x"):rep(30000) .. "\2> ",
                    ("\1"):rep(2) .. ("x"):rep(30000) .. "\n" .. ("P"):rep(251)}) do
  log(#p, pcall(rl.readline, p))
end
]], "a\nb\nc\nd\n")
    assert.is_true(ok, screen:gsub("PPPPPPPPPP+", "P..."):sub(-3000))
    local long = "\tfalse\tbad argument #1 to 'linalg.readline.readline' (prompt's last line is longer than " ..
      "250 visible bytes)"
    assert.same({"40000" .. long, "251" .. long, "253" .. long, "250\ttrue\ta", "30003\ttrue\tb",
                 "30004\ttrue\tc", "30254" .. long}, res)
  end)

  it("refuses bad argument types with the function's name", function()
    for _, call in ipairs({
      {rl.read_history, {}}, {rl.read_history, {nil}}, {rl.add_history, {}}, {rl.add_history, {{}}},
      {rl.add_history, {"x", {}}}, {rl.set_completer, {42}}, {rl.set_completer, {}}, {rl.run, {}},
      {rl.run, {"f"}}, {rl.isatty, {"x"}}, {rl.isatty, {1.5}}, {rl.isatty, {0/0}}, {rl.readline, {{}}},
      -- before, on 5.1, 5.2 and LuaJIT: isatty(0.5) was isatty(0) (luaL_optinteger truncated)
      {rl.isatty, {0.5}}, {rl.isatty, {-0.5}}, {rl.isatty, {2^63}}, {rl.isatty, {"0.5"}},
    }) do
      local ok, err = pcall(call[1], (table.unpack or unpack)(call[2]))
      assert.is_false(ok)
      assert.matches("^bad argument #%d to 'linalg%.readline%.[%w_]+' %(", err)
    end
    for _, fd in ipairs({0.5, -0.5, 1.5, 0/0, 2^63, "0.5"}) do
      assert.equals("bad argument #1 to 'linalg.readline.isatty' (number has no integer representation)",
        select(2, pcall(rl.isatty, fd)))
    end
  end)

  local have_script = sh("command -v script >/dev/null 2>&1")
  local it_script = have_script and it or pending
  it_script("isatty is false for a number no descriptor can have", function()
    -- script gives the child a terminal on 0, 1 and 2; before: isatty(2^32)
    -- was isatty(0), true, and isatty(2^32 + 1) was isatty(1). (A sanitizer
    -- preloaded is passed to lua alone: script's own leaks are not ours.)
    local pre = os.getenv("LD_PRELOAD")
    local p = io.popen(string.format("LD_PRELOAD= LUA_CPATH=%s script -qec %s /dev/null < /dev/null",
      q(abs_cpath()), q((pre and "LD_PRELOAD=" .. q(pre) .. " " or "") ..
        LUA .. " -e 'local rl = require \"linalg.readline\"; print(rl.isatty(0), rl.isatty(2^32), " ..
        "rl.isatty(2^32 + 1), rl.isatty(2^53), rl.isatty(-1), rl.isatty(math.mininteger or -2^63))'")))
    local out = p:read("*a")
    p:close()
    assert.matches("true\tfalse\tfalse\tfalse\tfalse\tfalse", out)
  end)
end)

-------------------------------------------------------- generated callbacks

-- Park-Miller: the same cases on every Lua (no bitwise operators)
local function prng(seed)
  local x = seed
  return function(n)                                  -- 1..n
    x = (16807 * x) % 2147483647
    return x % n + 1
  end
end

local ACTIONS = {"nest", "nest_run", "nest_co", "set", "badset", "gc", "run", "isatty", "addhist",
                 "readhist", "badhist", "error_str", "error_tab", "error_nil", "yield", "overflow"}
local ABORTS = {error_str = true, error_tab = true, error_nil = true, yield = true, overflow = true}
local RETURNS = {"single", "single_junk", "multi", "huge", "control", "long", "empty", "nil", "number",
                 "string", "func", "userdata", "thread", "index", "numbers", "mt_len"}
local WRAPS = {"plain", "run", "co", "pcall"}
local PROMPTS = {"default", "empty", "number", "long", "lines", "toolong", "ctl", "nl", "nul"}

-- the line readline returns for case i: the typed "q", completed, then ";i"
local function expected(c, i)
  if c.prompt == "toolong" then return "error" end
  for _, a in ipairs(c.actions) do if ABORTS[a] then return "q;" .. i end end
  if c.ret == "single" or c.ret == "single_junk" or c.ret == "mt_len" then return "q_" .. i .. ";" .. i end
  if c.ret == "long" then return ("q"):rep(20000) .. ";" .. i end
  return "q;" .. i
end

local FUZZ_DRIVER = [[
local cases = dofile(arg[2])
local hist = arg[3]
local i, case
local function check_nested(ok, e)
  if ok or not tostring(e):find("already running", 1, true) then log("BAD", i, "nested", ok, e) end
end
local DO = {
  nest = function() check_nested(pcall(rl.readline, "in> ")) end,
  nest_run = function() check_nested(rl.run(rl.readline, "in> ")) end,
  nest_co = function() check_nested(coroutine.wrap(function() return pcall(rl.readline) end)()) end,
  set = function(self) rl.set_completer(self) end,
  badset = function() if pcall(rl.set_completer, 42) then log("BAD", i, "set_completer(42)") end end,
  gc = function() collectgarbage() end,
  run = function()
    local ok, v = rl.run(function() return 7 end)
    if not (ok and v == 7) then log("BAD", i, "run", ok, v) end
  end,
  isatty = function() if rl.isatty(2^40) or rl.isatty(-2^40) then log("BAD", i, "isatty") end end,
  addhist = function() rl.add_history(("h"):rep(i), hist) end,
  readhist = function()
    local keeps = {0, 3, 2^31, 2^32, math.huge}
    rl.read_history(hist, keeps[i % #keeps + 1])
  end,
  badhist = function()
    for _, keep in ipairs({-1, 0/0, 0.5, math.mininteger or -2^63}) do
      if pcall(rl.read_history, hist, keep) then log("BAD", i, "read_history", keep) end
    end
  end,
  error_str = function() error("boom") end,
  error_tab = function() error(setmetatable({}, {__tostring = function() error("x") end})) end,
  error_nil = function() error(nil) end,
  yield = function() coroutine.yield(i) end,
  overflow = function()                     -- C stack overflow, through __index
    local t = setmetatable({}, {__index = function(t, k) return t[k] end})
    return t.x
  end,
}
local huge = {}
for k = 1, 3000 do huge[k] = "q" .. k end
local RET = {
  single = function() return {"q_" .. i} end,
  single_junk = function() return {"q_" .. i, 5, "q_zz"} end,
  multi = function() return {"qa", "qb", "qc"} end,
  huge = function() return huge end,
  control = function() return {"q\1\2", "q\27[31m", "q\n", "q\t", "q\255\254"} end,
  long = function() return {("q"):rep(20000) .. "a", ("q"):rep(20000) .. "b"} end,
  empty = function() return {} end,
  ["nil"] = function() return nil end,
  number = function() return 42 end,
  string = function() return "qz" end,
  func = function() return print end,
  userdata = function() return io.stdout end,
  thread = function() return coroutine.create(print) end,
  index = function() return setmetatable({}, {__index = function() error("index") end}) end,
  numbers = function() return {1, 2} end,
  mt_len = function() return setmetatable({"q_" .. i}, {__len = function() error("len") end}) end,
}
local PROMPT = {
  default = nil, empty = "", number = 42, long = "\1" .. ("x"):rep(5000) .. "\2" .. ("p"):rep(250),
  lines = ("p"):rep(5000) .. "\n> ", toolong = ("p"):rep(251), ctl = "\1\27[1m\2x\1> ", nl = "a\nb> ",
  nul = "p\0q> ",
}
local function completer()
  for _, a in ipairs(case.actions) do DO[a](completer) end
  return RET[case.ret]()
end
rl.set_completer(completer)
local WRAP = {
  plain = function(p) return true, rl.readline(p) end,
  run = function(p) return rl.run(rl.readline, p) end,
  co = function(p) return true, coroutine.wrap(function() return rl.readline(p) end)() end,
  pcall = function(p) return pcall(rl.readline, p) end,
}
for k, c in ipairs(cases) do
  i, case = k, c
  local ok, good, line = pcall(WRAP[c.wrap], PROMPT[c.prompt])
  if ok and good then log("case", k, line)
  else                                                 -- only the prompt too long
    local e = tostring(ok and line or good)
    log("case", k, e:find("prompt's last line is longer", 1, true) and "error" or e)
  end
end
log("done", #cases)
]]

describe_rl("linalg.readline generated callbacks", function()
  it("survives 400 random completers that nest, raise, yield and return junk", function()
    local dir = mktemp()
    local r = prng(20240611)
    local cases, src, input, want = {}, {"return {"}, {}, {}
    for i = 1, 400 do
      local c = {actions = {}, ret = RETURNS[r(#RETURNS)], wrap = WRAPS[r(#WRAPS)],
                 prompt = PROMPTS[r(#PROMPTS)], tabs = r(2)}
      for k = 1, r(4) - 1 do c.actions[k] = ACTIONS[r(#ACTIONS)] end
      cases[i] = c
      src[#src + 1] = string.format("{actions = {%s}, ret = %q, wrap = %q, prompt = %q},",
        #c.actions > 0 and ('"' .. table.concat(c.actions, '", "') .. '"') or "", c.ret, c.wrap, c.prompt)
      -- (a prompt that is refused reads nothing)
      input[i] = c.prompt == "toolong" and "" or "q" .. ("\t"):rep(c.tabs) .. ";" .. i .. "\n"
      want[i] = "case\t" .. i .. "\t" .. expected(c, i)
    end
    src[#src + 1] = "}"
    want[#want + 1] = "done\t400"
    writefile(dir .. "/cases.lua", table.concat(src, "\n"))
    local res, screen, ok = drive(dir, FUZZ_DRIVER:gsub("arg%[2%]", q(dir .. "/cases.lua"))
                                                  :gsub("arg%[3%]", q(dir .. "/history")),
                                  table.concat(input))
    os.execute("rm -rf " .. q(dir))
    assert.is_true(ok, screen:gsub("pppppppppp+", "p..."):gsub("qqqqqqqqqq+", "q..."):sub(-3000))
    for _, l in ipairs(res) do assert.is_nil(l:match("^BAD.*"), l) end
    assert.equals(#want, #res)
    for i = 1, #want do                                -- (messages cut: some lines are long)
      assert(want[i] == res[i], ("case %d: want %q\ngot %q"):format(i, want[i]:sub(1, 200), res[i]:sub(1, 200)))
    end
  end)
end)

------------------------------------------------------------------ the REPL

describe("bin/linalg-repl with values and errors that cannot be shown", function()
  local dir
  before_each(function() dir = mktemp() end)
  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  -- what the session prints given these lines on its standard input, and
  -- whether it exited with status 0 (as spec/repl_spec.lua drives it)
  local function repl(src)
    return run(dir, "LUA_CPATH=" .. q(package.cpath) .. " " .. LUA .. " bin/linalg-repl", src)
  end

  it("prints a note for a __tostring that raises or returns a non-string, and goes on", function()
    local out, ok = repl(table.concat({
      'setmetatable({}, {__tostring = function() error("boom") end})',
      'x = setmetatable({}, {__tostring = function() return {} end})',
      '{1, setmetatable({}, {__tostring = function() error("in") end})}',
      -- before: tostring of the error raised outside any pcall and the session ended
      'error(setmetatable({}, {__tostring = function() error(setmetatable({}, ' ..
        '{__tostring = function() error("y") end})) end}))',
      'error(setmetatable({}, {__tostring = function() error("x") end}))',
      't = setmetatable({}, {__tostring = function(s) error(s) end}); error(t)',
      '1 + 1',
      "exit", ""}, "\n"))
    assert.is_truthy(out:find("ans = <table value: __tostring failed: stdin:1: boom>\n", 1, true), out)
    assert.is_truthy(out:find("x = <table value: __tostring failed: '__tostring' must return a string>\n",
      1, true), out)
    assert.is_truthy(out:find("ans = {1, <table value: __tostring failed: stdin:1: in>}\n", 1, true), out)
    assert.is_truthy(out:find("> <table value: __tostring failed: <table value: __tostring failed: stdin:1: y>>\n",
      1, true), out)
    assert.is_truthy(out:find("> <table value: __tostring failed: stdin:1: x>\n", 1, true), out)
    -- an error object whose __tostring raises itself: shown three deep, then named
    assert.is_truthy(out:find("> <table value: __tostring failed: <table value: __tostring failed: " ..
      "<table value: __tostring failed: (error object is a table value)>>>\n", 1, true), out)
    assert.is_truthy(out:find("ans = 2\n", 1, true), out)
    assert.is_true(ok, out)
  end)

  it("shows values and errors after the session removes _G.tostring and _G.print", function()
    -- before, on 5.1, 5.2 and LuaJIT: the session's print called the global
    -- tostring ("attempt to call a nil value") and the session ended
    local out, ok = repl(table.concat({
      "_G.tostring, _G.print = nil, nil",
      "1 + 1",
      "x = {3}",
      "local y = 1; error('e')",
      "setmetatable({}, {__tostring = function() return 7 end})",
      "exit", ""}, "\n"))
    assert.is_truthy(out:find("> _G.tostring = nil\n_G.print = nil\n> ans = 2\n> x = {3}\n> stdin:1: e\n" ..
      "> ans = 7\n> \n", 1, true), out)
    assert.is_true(ok, out)
  end)

  it("shows a table error object by its contents, and odd metatables by the raw table", function()
    local out, ok = repl(table.concat({
      'error({code = 1, msg = "bad"})',
      'error(nil)',
      'error(42)',
      'setmetatable({}, {__name = 5})',
      'setmetatable({a = 1}, {__name = "My.Type"})',
      'setmetatable({}, {__metatable = 0})',
      'setmetatable({1, 2}, {__len = function() error("len") end, __index = function() error("idx") end, ' ..
        '__pairs = function() error("pairs") end})',
      'exit', ""}, "\n"))
    assert.is_truthy(out:find('> (error object is a table value: {code = 1, msg = "bad"})\n', 1, true), out)
    assert.is_truthy(out:find("> nil\n", 1, true), out)
    -- the line error(42), which the session runs as `return error(42)`: 5.1
    -- and 5.2 add the position (a number counts as a message), LuaJIT loses
    -- it in the tail call, 5.3+ leave the number alone
    local _, e42 = pcall((rawget(_G, "loadstring") or load)("return error(42)", "=stdin"))
    assert.is_true(e42 == 42 or not math.type and (e42 == "42" or e42 == "stdin:1: 42"), tostring(e42))
    assert.is_truthy(out:find("> " .. tostring(e42) .. "\n", 1, true), out)
    assert.is_truthy(out:find("> ans = {}\n> ans = {a = 1}\n> ans = {}\n> ans = {1, 2}\n", 1, true), out)
    assert.is_true(ok, out)
  end)
end)
