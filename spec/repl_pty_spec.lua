-- bin/linalg-repl on a terminal: tmux gives it a pseudo-terminal, keys are
-- sent with send-keys and the screen read with capture-pane.
local LUA = require("interp").lua      -- the Lua running the specs: children run it too
local la = require "linalg"

local have_tmux = require("interp").sh("command -v tmux >/dev/null 2>&1")
local have_rl = pcall(require, "linalg.readline")

local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("*a")
  p:close()
  return out
end

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local Session = {}
Session.__index = Session

local count = 0
local function start(histfile)
  count = count + 1
  local s = setmetatable({name = require("interp").unique("linalg-repl-spec-" .. count .. "-"),
                          hist = histfile}, Session)
  local cmd = string.format("env HOME=/nonexistent LINALG_HISTFILE=%s LUA_CPATH=%s " .. LUA .. " bin/linalg-repl; " ..
    "echo \"exit status $?\"", q(histfile), q(package.cpath))
  sh(string.format("tmux -L %s new-session -d -s %s -x 100 -y 50 %s \\; set-option -t %s remain-on-exit on",
    s.name, s.name, q(cmd), s.name))
  assert(s:wait("la is loaded"), "no banner:\n" .. s:screen())
  s:prompts(1)
  return s
end

-- each session has a tmux server of its own (-L), so closing one cannot
-- take another down with it
function Session:tmux(args)
  return "tmux -L " .. self.name .. " " .. args
end

function Session:screen()
  return sh(self:tmux("capture-pane -p -S -200 -t " .. self.name))
end

-- waits (up to 30 s: a loaded machine starts lua slowly) until the screen
-- contains text (plain) `count` times
function Session:wait(text, times)
  times = times or 1
  for _ = 1, 300 do
    local scr, n, i = self:screen(), 0, 1
    while true do
      local a, b = scr:find(text, i, true)
      if not a then break end
      n, i = n + 1, b + 1
    end
    if n >= times then return true end
    os.execute("sleep 0.1")
  end
  return false
end

-- literal text (a trailing ; escaped from tmux's command parser)
function Session:type(text)
  sh(self:tmux(string.format("send-keys -t %s -l %s", self.name, q(text:gsub(";$", "\\;")))))
end

function Session:keys(...)
  sh(self:tmux(string.format("send-keys -t %s %s", self.name, table.concat({...}, " "))))
end

-- the number of prompt lines (capture-pane drops a bare prompt's space)
function Session:count()
  return select(2, self:screen():gsub("\n>", ""))
end

-- waits until there are n prompt lines (readline shows the prompt once the
-- terminal is in its mode, so keys sent after it are not echoed twice)
function Session:prompts(n)
  for _ = 1, 300 do
    if self:count() >= n then return end
    os.execute("sleep 0.1")
  end
  error("no prompt:\n" .. self:screen())
end

-- types a line, presses Enter and waits for the next prompt
function Session:line(text)
  local before = self:count()
  self:type(text)
  self:keys("Enter")
  self:prompts(before + 1)
end

function Session:close()
  sh(self:tmux("kill-server"))
end

-- under make valgrind (every child traced) tmux itself would run under
-- memcheck; the session is checked there through the pipe (repl_spec.lua)
local under_valgrind = (os.getenv("LD_PRELOAD") or ""):find("vgpreload", 1, true)
local describe_pty = (have_tmux and have_rl and not under_valgrind) and describe or pending

describe_pty("bin/linalg-repl on a terminal", function()
  local hist, s
  before_each(function() hist = os.tmpname() end)
  after_each(function()
    if s then s:close(); s = nil end
    os.remove(hist)
  end)

  it("recalls history with the Up arrow, and from the history file in a new session", function()
    s = start(hist)
    s:line("x = 40 + 2")
    s:keys("Up")
    assert.is_true(s:wait("> x = 40 + 2", 2))
    s:keys("Enter")
    assert.is_true(s:wait("x = 42", 2))
    s:close()
    local f = io.open(hist)
    local saved = f:read("*a")
    f:close()
    assert.is_truthy(saved:find("x = 40 + 2", 1, true))
    s = start(hist)
    s:keys("Up")
    assert.is_true(s:wait("> x = 40 + 2"))
  end)

  it("cancels a half-typed line with Ctrl-C and keeps the variables", function()
    s = start(hist)
    s:line("keep = 7;")
    s:type("keep = 99")
    assert.is_true(s:wait("> keep = 99"))   -- shown (the terminal drops unread keys on ^C)
    s:keys("C-c")
    assert.is_true(s:wait("keep = 99^C"))
    s:line("keep")
    assert.is_true(s:wait("ans = 7"))
    assert.is_falsy(s:screen():find("traceback", 1, true))
  end)

  it("interrupts a running computation with Ctrl-C and keeps the variables", function()
    s = start(hist)
    s:line("A = la.eye(3) * 5;")
    s:type("n = 0; while true do n = n + 1 end")
    s:keys("Enter")
    -- (a Ctrl-C that lands before the loop starts is ignored: send until it stops)
    local stopped = false
    for _ = 1, 60 do
      os.execute("sleep 0.3")
      s:keys("C-c")
      os.execute("sleep 0.2")
      if s:screen():find("interrupted", 1, true) then stopped = true; break end
    end
    assert.is_true(stopped, s:screen())
    assert.is_true(s:wait("\n> "))
    s:line("A:trace()")
    assert.is_true(s:wait("ans = 15"))
    -- n survives the interrupt (>= 0: on a loaded machine the ^C can land
    -- after n = 0 and before the loop's first increment)
    s:line("n >= 0")
    assert.is_true(s:wait("ans = true"))
    -- a second Ctrl-C at the prompt does not end the session; it cancels
    -- the line being typed (a fresh prompt), so the next line is typed after
    -- that prompt: typed at once, a loaded machine can deliver the signal
    -- after readline has read the new line's first keys
    local _, prompts = s:screen():gsub("\n> ", "")
    s:keys("C-c")
    s:wait("\n> ", prompts + 1)
    s:line("1 + 1")
    assert.is_true(s:wait("ans = 2"))
  end)

  it("echoes assignments and expressions, not lines ending in ;, and sets ans", function()
    s = start(hist)
    s:line("a = 3")
    assert.is_true(s:wait("\na = 3\n"))
    s:line("b = 4;")
    s:line("a * b")
    assert.is_true(s:wait("ans = 12"))
    s:line("ans + 1")
    assert.is_true(s:wait("ans = 13"))
    s:line("c, d = 1, 2")
    assert.is_true(s:wait("c = 1\nd = 2"))
    s:line("Q, R = la.qr(la.matrix{{3, 0}, {4, 5}})")
    assert.is_true(s:wait("Q =\n2x2 matrix"))
    assert.is_true(s:wait("R =\n2x2 matrix"))
    -- several results: numbered, and named from the reference where it names them
    s:line("la.qr(la.eye(2))")
    assert.is_true(s:wait("[1] Q =\n2x2 matrix"))
    assert.is_true(s:wait("[2] R =\n2x2 matrix"))
    s:line("la.lstsq(la.eye(2), la.vector{1, 2})")
    assert.is_true(s:wait("[2] residuals = nil\n[3] rank = 2\n[4] sv ="))
    s:line("la.shape(la.zeros(2, 3)), 7")
    assert.is_true(s:wait("[1] = 2\n[2] = 7"))   -- a call inside a list keeps its first value
    s:line("la")
    assert.is_true(s:wait("linalg " .. la.version .. ": "))
    assert.is_falsy(s:screen():find("table: 0x", 1, true))
  end)

  it("prints the reference text of a function with help", function()
    s = start(hist)
    s:line('help "lstsq"')
    assert.is_true(s:wait("Least squares with NumPy's contract"))
    s:line("help(la.project)")
    assert.is_true(s:wait("Orthogonal projection of `y` onto the column space of `X`"))
    s:line('help "lstsqq"')
    assert.is_true(s:wait('no function named "lstsqq"'))
  end)

  it("completes la. names and a matrix's methods with Tab", function()
    s = start(hist)
    s:type("la.lsts")
    s:keys("Tab")
    assert.is_true(s:wait("> la.lstsq"))
    s:keys("C-u")
    s:line("M = la.eye(2);")
    s:type("M:tra")
    s:keys("Tab")
    assert.is_true(s:wait("> M:trace"))
    s:type("()")
    s:keys("Enter")
    assert.is_true(s:wait("ans = 2"))
  end)

  it("ends on Ctrl-D", function()
    s = start(hist)
    s:keys("C-d")
    assert.is_true(s:wait("exit status 0"), s:screen())
  end)
end)
