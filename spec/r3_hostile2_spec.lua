-- Hostile inputs to what this round added or fixed, the same classes
-- elsewhere: a writer given a FIFO with no reader (waited for a reader
-- forever, as the readers once did).
local la = require "linalg"
local sh = require "shell"

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- Runs `code` (after `local la = require "linalg"`) in a child Lua (the
-- one running the specs) under `timeout`, so a call that blocks fails
-- this spec instead of hanging it; `pre` is shell run first. Returns the
-- output.
local function child(code, pre)
  local lua = string.format("package.path = %q; package.cpath = %q; local la = require 'linalg'; %s",
                            package.path, package.cpath, code)
  local slow = (os.getenv("LD_PRELOAD") or "") ~= ""
  local p = io.popen(string.format("%s env OPENBLAS_NUM_THREADS=1 timeout %d %s -e %s 2>&1", pre or "",
                                   slow and 60 or 10, require("interp").lua, q(lua)))
  local out = p:read("*a")
  p:close()
  return out
end

describe("writing to a FIFO", function()
  local dir
  setup(function() dir = (sh("mktemp -d"):gsub("%s+$", "")) end)
  teardown(function() os.execute("rm -rf " .. q(dir)) end)

  it("with no reader is refused at once by save_npy, save_csv and heatmap", function()
    local fifo = dir .. "/fifo"
    assert.is_truthy(os.execute("mkfifo " .. q(fifo)))
    local out = child(string.format([[
      local A = la.matrix{{1, 2}, {3, 4}}
      for _, f in ipairs{"save_npy", "save_csv", "heatmap"} do print(select(2, pcall(la[f], A, %q))) end]],
      fifo))
    for _, f in ipairs{"save_npy", "save_csv", "heatmap"} do
      local want = "linalg." .. f .. ": " .. fifo .. ": a FIFO with no reader\n"
      assert.is_truthy(out:find(want, 1, true), "expected: " .. want .. "got: " .. out)
    end
    assert.are.equal("p", sh("stat -c %A " .. q(fifo)):sub(1, 1))   -- still a FIFO
  end)

  it("through a symbolic link is refused alike (the link kept)", function()
    local fifo, link = dir .. "/fifo2", dir .. "/link"
    assert.is_truthy(os.execute("mkfifo " .. q(fifo) .. " && ln -s fifo2 " .. q(link)))
    local out = child(string.format("print(select(2, pcall(la.save_csv, la.ones(1, 1), %q)))", link))
    assert.are.equal("linalg.save_csv: " .. link .. ": a FIFO with no reader\n", out)
  end)

  it("with a reader writes what a regular file gets", function()
    local fifo, got, file = dir .. "/fifo3", dir .. "/got", dir .. "/file.csv"
    assert.is_truthy(os.execute("mkfifo " .. q(fifo)))
    local A = la.matrix{{1.5, -2}, {3, 4e-300}}
    la.save_csv(A, file)
    local out = child(string.format("la.save_csv(la.matrix{{1.5, -2}, {3, 4e-300}}, %q) print('saved')", fifo),
                      string.format("(timeout 10 cat %s > %s &);", q(fifo), q(got)))
    assert.are.equal("saved\n", out)
    os.execute("sleep 0.2")
    local f = assert(io.open(got, "rb")); local s = f:read("*a"); f:close()
    f = assert(io.open(file, "rb")); local want = f:read("*a"); f:close()
    assert.are.equal(want, s)
  end)
end)
