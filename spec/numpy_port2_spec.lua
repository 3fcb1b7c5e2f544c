-- Coming from NumPy, now that la.random has landed: every NumPy name the
-- seed texts' code uses has a row in linalg.numpy_names, help on the
-- np.random names shows la.random's reference, and the README's section
-- spells what a NumPy (or Octave) user writes, each spelling doing what it says.
-- Reference values: NumPy 1.24.2 (Debian's python3-numpy), as noted.
local la = require "linalg"
local names = require "linalg.numpy_names"
local sh = require "shell"

local function read(path) local f = assert(io.open(path)); local s = f:read("*a"); f:close(); return s end

-- every np.<name> of the seed texts (shared/seeds/*.txt, not shipped with
-- linalg; a spec below checks the list against them where they are)
local SEED_NP = {"np.abs", "np.all", "np.allclose", "np.arccos", "np.argsort", "np.array", "np.clip",
  "np.column_stack", "np.concatenate", "np.degrees", "np.dot", "np.exp", "np.eye", "np.inner", "np.isclose",
  "np.linalg.cond", "np.linalg.eigvalsh", "np.linalg.lstsq", "np.linalg.matrix_rank", "np.linalg.norm",
  "np.linalg.pinv", "np.linalg.qr", "np.linalg.solve", "np.log", "np.max", "np.ndarray", "np.ones",
  "np.outer", "np.random.default_rng", "np.random.randn", "np.random.seed", "np.round", "np.sqrt",
  "np.stack", "np.sum", "np.trace", "np.tril", "np.where", "np.zeros"}

-- np.<name> in the seed texts, where np is a word of its own ("Q_np.T" is
-- not one; "np.allclosefor" is prose missing a space in 000)
local SEEDS_DIR = "/work/shared/seeds"
local function seed_np_names()
  local out, seen = {}, {}
  for f in io.popen("ls " .. SEEDS_DIR .. "/*.txt 2>/dev/null"):lines() do
    for name in read(f):gmatch("%f[%w_]np%.[%a_][%w_%.]*") do
      name = name:gsub("%.$", "")
      if name == "np.allclosefor" then name = "np.allclose" end
      if not seen[name] then seen[name] = true; out[#out + 1] = name end
    end
  end
  table.sort(out)
  return out
end

-- the methods the seed blocks call on arrays and on default_rng's generator
local METHODS = {"a.T", "a.shape", "a.copy", "a.reshape", "a.sum", "a.mean", "a.std", "a.max", "a.min",
  "a.round", "a[::-1]", "a[r, c]", "a[:, j]", "a[r, c] = b", "a[r, c] -= b", "a[-1]", "@",
  "rng.standard_normal"}

describe("numpy_names and the seed texts", function()
  it("has a row for every np.* name of the seed texts, and for the methods they call", function()
    for _, name in ipairs(SEED_NP) do assert(names.lookup(name), "no row for " .. name) end
    for _, name in ipairs(METHODS) do assert(names.lookup(name), "no row for " .. name) end
    -- the rows this adds, with what they say
    assert.are.equal("la.random.seed", names.lookup("np.random.seed").la)
    assert.are.equal("g:standard_normal(m, n)", names.lookup("rng.standard_normal").la)
    assert.are.equal("la.round", names.lookup("a.round").la)
    assert.is_truthy(names.lookup("np.stack").note:find("no 3-D arrays", 1, true))
    assert.are.equal("la.is_matrix(x)", names.lookup("np.ndarray").la)
  end)

  local have_seeds = io.open(SEEDS_DIR .. "/README.md")
  if have_seeds then have_seeds:close() end;
  (have_seeds and it or pending)("lists the np.* names the seed texts hold", function()
    assert.are.same(SEED_NP, seed_np_names())
  end)

  it("says nothing of la.random still to come", function()
    for _, row in ipairs(names.rows) do
      assert.is_falsy((row.note or ""):find("being added", 1, true), row.la)
    end
  end)

  it("names la.random's functions and the Generator's methods for help", function()
    assert.are.equal(la.random.seed, names.target(names.lookup("np.random.seed"), la))
    assert.are.equal(la.random.randn, names.target(names.lookup("np.random.randn"), la))
    assert.are.equal(la.random.rand, names.target(names.lookup("np.random.rand"), la))
    assert.are.equal(la.random.default_rng, names.target(names.lookup("np.random.default_rng"), la))
    local g = la.random.default_rng(1)
    assert.are.equal(g.standard_normal, names.target(names.lookup("rng.standard_normal"), la))
    assert.are.equal(g.integers, names.target(names.lookup("rng.integers"), la))
    assert.are.equal(la.rank, names.target(names.lookup("matrix_rank"), la))
    assert.is_nil(names.target(names.lookup("np.degrees"), la))                 -- math.deg: no fn
    assert.is_nil(names.target({fn = "random.no_such"}, la))
    assert.is_nil(names.target({fn = "Generator:no_such"}, la))
  end)
end)

-- what bin/linalg-repl prints for these lines on its standard input
local function repl(lines)
  return (sh(string.format("printf '%%s\\n' '%s' | LUA_CPATH='%s' %s bin/linalg-repl",
    table.concat(lines, "' '"), package.cpath, require("interp").lua)))
end

describe("help on NumPy's random names", function()
  it("shows la.random's reference", function()
    local out = repl({'help "np.random.seed"', 'help "np.random.rand"', 'help "np.random.default_rng"',
                      'help "rng.standard_normal"'})
    assert.is_truthy(out:find("np.random.seed: NumPy's name; linalg calls it la.random.seed (NumPy's legacy global stream, MT19937 seeded as NumPy seeds it)\nla.random.seed([s])\n  NumPy's legacy global stream", 1, true), out)
    assert.is_truthy(out:find("linalg calls it la.random.rand(m, n) (as `np.random.randn`)\nla.random.rand([m] [, n] [, opts])", 1, true), out)
    assert.is_truthy(out:find("\nla.random.default_rng([seed])\n  A Generator", 1, true), out)
    assert.is_truthy(out:find("linalg calls it g:standard_normal(m, n) (a shape `(h, m, n)` is h matrices `m x n` drawn in turn)\nGenerator:standard_normal([m] [, n] [, opts])", 1, true), out)
  end)

  it("shows la.random.randn alone for np.random.randn, random.randn and the function itself", function()
    for _, line in ipairs({'help "np.random.randn"', 'help "random.randn"', 'help "la.random.randn"',
                           "help(la.random.randn)"}) do
      local out = repl({line})
      assert.is_truthy(out:find("la.random.randn([m] [, n] [, opts])", 1, true), line .. "\n" .. out)
      assert.is_falsy(out:find("\nla.randn(m, n", 1, true), line .. "\n" .. out)   -- the reference of linalg's own stream
    end
    local out = repl({'help "randn"'})                   -- unqualified: both
    assert.is_truthy(out:find("la.randn(m, n", 1, true) and out:find("la.random.randn(", 1, true), out)
  end)
end)

describe("the README's Coming from NumPy", function()
  local section = read("README.md"):match("\n## Coming from NumPy\n(.-)\n## ")

  it("is there, and names both ports, which exist", function()
    assert(section, "no Coming from NumPy section")
    for _, f in ipairs({"examples/numpy_port.lua", "examples/numpy_port_random.lua"}) do
      assert.is_truthy(section:find("`" .. f .. "`", 1, true), f)
      assert(io.open(f), f .. " missing"):close()
    end
    assert.is_falsy(section:find("being added", 1, true))
  end)

  it("spells each thing a NumPy or Octave user writes", function()
    for _, s in ipairs({"`Q[:, j] = q` is\n  `Q:set(\":\", j, q)` (Octave's `Q(:, j) = q`)",
                        "`Q[:, j] -= c * Q[:, i]`\n  is `Q:set(\":\", j, Q:col(j) - c * Q:col(i))`",
                        "`v:slice(\"end\", 1)` is `v[-1]`", "`A:reshape(-1)`",
                        "**`axis = k` is `dim = k + 1`**", "`u @ v` of two vectors is `la.dot(u, v)`",
                        "**Vectors are columns.**", "**`A.shape` is `A:shape()`**", "**`*` is the matrix product** (`@`)",
                        "**`help \"matrix_rank\"`**", "to `la.rank`", "**Random numbers are NumPy's**"}) do
      assert.is_truthy(section:find(s, 1, true), "README does not say: " .. s)
    end
  end)

  it("whose spellings do what NumPy does", function()
    -- numpy 1.24: Q = np.array([[1., 2., 3.], [4., 5., 6.]]); Q[:, 2] = [7, 8]; Q[:, 1] -= 2 * Q[:, 0]
    local Q = la.matrix{{1, 2, 3}, {4, 5, 6}}
    local j, i, c = 3, 1, 2
    Q:set(":", j, la.vector{7, 8})
    assert.are.same({{1, 2, 7}, {4, 5, 8}}, Q:totable())
    Q:set(":", 2, Q:col(2) - c * Q:col(i))
    assert.are.same({{1, 0, 7}, {4, -3, 8}}, Q:totable())
    -- v[-1], v[-2] of v = np.array([3., 1., 2.])
    local v = la.vector{3, 1, 2}
    assert.are.same({2}, v:slice("end", 1):totable())
    assert.are.same({1}, v:slice("end-1", 1):totable())
    assert.are.equal(2, v(v:numel()))
    -- np.array([[1., 2.], [3., 4.]]).reshape(-1) is [1, 2, 3, 4]; of a row or column the same order
    assert.are.same({1, 2, 3, 4}, la.matrix{{1, 2, 3, 4}}:reshape(-1):totable())
    -- axis=0 is dim 1: a.sum(axis=0) of [[1, 2], [3, 4]] is [4, 6]
    assert.are.same({{4, 6}}, la.matrix{{1, 2}, {3, 4}}:sum(1):totable())
    -- u @ v of vectors, A.shape
    assert.are.equal(32, la.dot(la.vector{1, 2, 3}, la.vector{4, 5, 6}))
    local m, n = la.zeros(2, 3):shape()
    assert.are.same({2, 3}, {m, n})
  end)
end)

-- Tab on np.random.se in a terminal (tmux), where the readline module is built
local tty_ok = require("interp").sh("command -v tmux >/dev/null 2>&1") and pcall(require, "linalg.readline");
(tty_ok and describe or pending)("Tab on a NumPy random name", function()
  it("completes np.random.se to la.random.seed", function()
    local sock = require("interp").unique("linalg-np2-")
    local function tm(args) return (sh("tmux -L " .. sock .. " " .. args)) end
    tm(string.format("new-session -d -s s -x 100 -y 20 'env HOME=/nonexistent LINALG_HISTFILE=/dev/null LUA_CPATH=\"%s\" %s bin/linalg-repl'",
      package.cpath, require("interp").lua))
    local shown = ""
    for _ = 1, 300 do                     -- the prompt, then the completed line
      shown = tm("capture-pane -p -t s")
      if shown:find("> la.random.seed", 1, true) then break end
      if shown:find("la is loaded", 1, true) and not shown:find("np.random.se", 1, true) then
        tm("send-keys -t s -l np.random.se"); tm("send-keys -t s Tab")
      end
      os.execute("sleep 0.1")
    end
    tm("kill-server")
    assert.is_truthy(shown:find("> la.random.seed", 1, true), shown)
  end)
end)
