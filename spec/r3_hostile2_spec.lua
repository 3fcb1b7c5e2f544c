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
    assert.is_true(require("interp").sh("mkfifo " .. q(fifo)))
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
    assert.is_true(require("interp").sh("mkfifo " .. q(fifo) .. " && ln -s fifo2 " .. q(link)))
    local out = child(string.format("print(select(2, pcall(la.save_csv, la.ones(1, 1), %q)))", link))
    assert.are.equal("linalg.save_csv: " .. link .. ": a FIFO with no reader\n", out)
  end)

  it("with a reader writes what a regular file gets", function()
    local fifo, got, file = dir .. "/fifo3", dir .. "/got", dir .. "/file.csv"
    assert.is_true(require("interp").sh("mkfifo " .. q(fifo)))
    local A = la.matrix{{1.5, -2}, {3, 4e-300}}
    la.save_csv(A, file)
    local out = child(string.format("la.save_csv(la.matrix{{1.5, -2}, {3, 4e-300}}, %q) print('saved')", fifo),
                      -- the reader opens the FIFO first (a write with no reader is
                      -- refused): started without the sanitizer's slow start, and waited for
                      string.format("(LD_PRELOAD= timeout 10 cat %s > %s &); sleep 0.5;", q(fifo), q(got)))
    assert.are.equal("saved\n", out)
    os.execute("sleep 0.2")
    local f = assert(io.open(got, "rb")); local s = f:read("*a"); f:close()
    f = assert(io.open(file, "rb")); local want = f:read("*a"); f:close()
    assert.are.equal(want, s)
  end)
end)

describe("la.isclose's tolerances", function()
  -- numpy 1.24: np.isclose(1.0, 1.0, rtol=np.nan) -> False and
  -- np.isclose(1.0, 1.0, atol=-1) -> False (close nowhere); isclose said
  -- true. allclose raises for both; isclose now does the same.
  it("a NaN or negative rtol or atol is an error naming the option", function()
    local nan = 0 / 0
    for _, c in ipairs{
      {{rtol = nan}, "linalg.isclose: rtol is NaN"}, {{atol = nan}, "linalg.isclose: atol is NaN"},
      {{rtol = -1e-9}, "linalg.isclose: rtol must be >= 0"}, {{atol = -1}, "linalg.isclose: atol must be >= 0"},
    } do
      assert.error_matches(function() la.isclose(1, 1, c[1]) end, c[2], 1, true)
      assert.error_matches(function() la.isclose(la.ones(2, 2), la.ones(1, 2), c[1]) end, c[2], 1, true)
      assert.error_matches(function()
        la.isclose(la.ones(2, 2, {dtype = "float32"}), la.ones(2, 2, {dtype = "float32"}), c[1])
      end, c[2], 1, true)
    end
  end)

  it("an infinite atol makes every finite pair close, as NumPy's", function()
    -- numpy 1.24: np.isclose([1.0, 1e308], [2.0, -1e308], atol=np.inf) -> [True, True]
    assert.are.equal(la.matrix{{1, 1}}, la.isclose(la.matrix{{1, 1e308}}, la.matrix{{2, -1e308}},
                                                   {atol = math.huge}))
  end)
end)

describe("the temporary file of a write", function()
  -- src/files.c's opentemp, as util.writefile holds it
  local files
  setup(function()
    local util = require "linalg.util"
    for i = 1, 64 do
      local name, v = debug.getupvalue(util.writefile, i)
      if name == nil then break end
      if name == "files" then files = v end
    end
  end)

  it("is not created when its mode, owner or group is no integer (was created, its descriptor leaked)", function()
    assert.is_table(files)
    local tmp = os.tmpname()
    os.remove(tmp)
    for _, args in ipairs{{"x"}, {{}}, {420, "u"}, {420, 0, {}}} do
      assert.has_error(function() files.opentemp(tmp, args[1], args[2], args[3]) end)
      local f = io.open(tmp, "rb")
      if f then f:close() os.remove(tmp) end
      assert.is_nil(f, "opentemp left " .. tmp)
    end
    local h = assert(files.opentemp(tmp, 416))      -- 0640
    assert.is_truthy(h:write("ok"))
    assert.is_true(h:close())
    assert.has_error(function() h:write("x") end, "attempt to use a closed file")
    local f = assert(io.open(tmp, "rb")); assert.are.equal("ok", f:read("*a")); f:close()
    assert.are.equal("640", (require("shell")("stat -c %a " .. tmp):gsub("%s+$", "")))
    os.remove(tmp)
  end)
end)

describe("lu_solve, cho_solve and multi_dot name what they were given", function()
  local function closed(M) debug.getmetatable(M).__close(M) return M end
  local b = la.ones(2, 1)

  -- a closed factor was "bad argument #3" (or #4): the stack slot the
  -- field was read into, not an argument of the call (they take F and b)
  it("a closed matrix in F, or among multi_dot's operands, by its name", function()
    local F = la.lu_factor(la.matrix{{4, 3}, {6, 3}})
    for _, c in ipairs{
      {function() la.lu_solve({lu = closed(la.eye(2)), piv = F.piv}, b) end, "linalg.lu_solve: F.lu is a closed matrix"},
      {function() la.lu_solve({lu = F.lu, piv = closed(la.ones(2, 1))}, b) end, "linalg.lu_solve: F.piv is a closed matrix"},
      {function() la.cho_solve({c = closed(la.eye(2)), lower = false}, b) end, "linalg.cho_solve: F.c is a closed matrix"},
      {function() la.multi_dot{la.eye(2), la.eye(2), closed(la.eye(2))} end, "linalg.multi_dot: item 3 is a closed matrix"},
      {function() la.lu_solve({lu = F.lu, piv = "12"}, b) end,
       "linalg.lu_solve: F.piv is string, expected a matrix (F comes from lu_factor)"},
    } do
      assert.error_matches(c[1], c[2], 1, true)
    end
  end)

  it("pivots that are not row indices are errors, never read out of range", function()
    local F = la.lu_factor(la.matrix{{4, 3}, {6, 3}})
    for _, p in ipairs{{0, 2}, {1, 1e9}, {0 / 0, 1}, {1, 3}, {2, -1}, {1.5, 2}, {math.huge, 1}, {-2^63, 1}} do
      local ok, e = pcall(la.lu_solve, {lu = F.lu, piv = p}, b)
      assert.is_false(ok)
      assert.is_truthy(tostring(e):find("^linalg%.lu_solve: F%.piv%(%d%) is not a row index in 1%.%.2$"), e)
    end
    -- scipy 1.10: lu_solve(lu_factor([[4, 3], [6, 3]]), [1, 1]) -> [0, 1/3]
    assert.near(la.matrix{{0}, {1 / 3}}, la.lu_solve({lu = F.lu, piv = {F.piv(1), F.piv(2)}}, b), 1e-15)
  end)
end)

describe("lu_factor with a subnormal pivot", function()
  -- OpenBLAS's getrf scales a column by 1 / pivot, Inf for a subnormal
  -- pivot: lu_factor kept Inf and NaN in F.lu (SciPy 1.10 on OpenBLAS:
  -- lu_factor([[2e-310, 1e-310], [1e-310, 3e-310]]) -> [[2e-310, 1e-310],
  -- [inf, -inf]]) and lu_solve answered NaN where solve answers; now it
  -- factors as lu and solve do (getrf2 past such a pivot)
  it("gives finite factors and lu_solve solve's answer", function()
    local A = la.matrix{{2e-310, 1e-310}, {1e-310, 3e-310}}
    local F = la.lu_factor(A)
    -- exact: L = [[1, 0], [1/2, 1]], U = [[2e-310, 1e-310], [0, 2.5e-310]], no interchange
    assert.near(la.matrix{{2e-310, 1e-310}, {0.5, 2.5e-310}}, F.lu, 1e-323)
    assert.are.equal(la.matrix{{1}, {2}}, F.piv)
    -- exact: x = A \ [1e-300; 1e-300] = [4e9; 2e9] (det 5e-620), to the subnormals' 13 digits
    local b = la.matrix{{1e-300}, {1e-300}}
    assert.near(la.matrix{{4e9}, {2e9}}, la.lu_solve(F, b), 4e9 * 1e-9)
    assert.near(la.solve(A, b), la.lu_solve(F, b), 4e9 * 1e-9)
    -- diag(1e-310, 1): x = [1e10; 1] (NaN in both entries before), A^T alike
    F = la.lu_factor(la.matrix{{1e-310, 0}, {0, 1}})
    for _, trans in ipairs{false, true} do
      assert.near(la.matrix{{1e10}, {1}}, la.lu_solve(F, la.matrix{{1e-300}, {1}}, {trans = trans}), 1e10 * 1e-9)
    end
  end)

  it("in float32 too", function()
    local o = {dtype = "float32"}
    local F = la.lu_factor(la.matrix({{1e-40, 0}, {0, 1}}, o))
    local x = la.lu_solve(F, la.matrix({{1e-35}, {1}}, o))
    -- exact: [1e5; 1]; 1e-40 is a float32 subnormal (about 5 digits)
    assert.are.equal("float32", x.dtype)
    assert.is_true(math.abs(x(1) - 1e5) < 1e5 * 1e-4 and x(2) == 1)
  end)
end)

describe("la.diag's offset at the ends of the integers", function()
  -- n + |k| overflowed (signed overflow, UBSan's report; the message then
  -- said "invalid size -9223372036854775807x..."): |k| is bounded first
  it("is too large for a vector, past the corners for a matrix", function()
    for _, k in ipairs{-2^63, 2^62, -2^31, 2^31 - 2} do
      assert.error_matches(function() la.diag({1, 2}, k) end,
                           "linalg.diag: bad argument #2 (diagonal offset too large)", 1, true)
      -- numpy 1.24: np.diagonal(np.ones((3, 3)), offset=k) -> array([]) for |k| >= 3
      assert.are.same({0, 1}, {la.diag(la.ones(3, 3), k):shape()})
    end
    -- numpy 1.24: np.diag([1, 2], -1) -> [[0, 0, 0], [1, 0, 0], [0, 2, 0]]
    assert.are.equal(la.matrix{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}, la.diag({1, 2}, -1))
  end)
end)
