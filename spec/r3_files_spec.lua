-- Files read and written by the Lua front: only regular files are read (a
-- FIFO, a device, a directory or a socket is refused at once, never read
-- forever or waited on), and a file written over keeps its permission bits,
-- its owner (when root writes) and the symbolic link that names it.
local la = require "linalg"
local sh = require "shell"

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function tmpdir()
  local out = sh("mktemp -d")
  return (out:gsub("%s+$", ""))
end

-- the octal permission bits, owner and target of what is at path
local function mode(path) return (sh("stat -c %a " .. q(path)):gsub("%s+$", "")) end
local function owner(path) return (sh("stat -c %U:%G " .. q(path)):gsub("%s+$", "")) end
local function islink(path) return sh("test -L " .. q(path) .. " && echo yes"):match("yes") ~= nil end
local function slurp(path)
  local f = assert(io.open(path, "rb")); local s = f:read("*a"); f:close(); return s
end
local function put(path, s, m)
  local f = assert(io.open(path, "wb")); f:write(s); f:close()
  if m then os.execute("chmod " .. m .. " " .. q(path)) end
end
local function listing(dir) return (sh("ls -A " .. q(dir))) end

local ROOT = sh("id -u"):match("^0%s") ~= nil

-- A sanitizer or valgrind preloads a library (and children inherit it, so
-- they load the same instrumented module): no address-space limit then
-- (their runtimes reserve more), more time.
local PRELOAD = (os.getenv("LD_PRELOAD") or "") ~= ""
local LUA = require("interp").lua

-- Runs `code` (after `local la = require "linalg"`) in a child Lua (the
-- one running the specs) under
-- `timeout 10` and a 1 GiB address-space limit, so a call that blocks or
-- reads forever fails this spec instead of hanging or exhausting the
-- machine; `pre` is shell run first (umask, a pipe into stdin: "cmd |").
-- Returns the output and the seconds it took.
local function child(code, pre)
  local lua = string.format("package.path = %q; package.cpath = %q; local la = require 'linalg'; %s",
                            package.path, package.cpath, code)
  local t0 = os.time()
  local p = io.popen(string.format("%s %s env OPENBLAS_NUM_THREADS=1 timeout %d %s -e %s 2>&1",
                                   PRELOAD and "" or "ulimit -v 1048576;", pre or "", PRELOAD and 120 or 10,
                                   LUA, q(lua)))
  local out = p:read("*a")
  p:close()
  return out, os.time() - t0
end

describe("reading only regular files", function()
  local dir
  setup(function() dir = tmpdir() end)
  teardown(function() os.execute("rm -rf " .. q(dir)) end)

  -- the three readers on path, each in a child: their messages
  local function readers(path, pre)
    return child(string.format([[
      for _, f in ipairs{"load_npy", "npy_info", "load_csv"} do print(select(2, pcall(la[f], %q))) end]],
      path), pre)
  end
  local function refused(out, path, what)
    for _, f in ipairs{"load_npy", "npy_info", "load_csv"} do
      local want = "linalg." .. f .. ": " .. path .. " is not a regular file (" .. what .. ")\n"
      assert.is_truthy(out:find(want, 1, true), "expected: " .. want .. "got: " .. out)
    end
  end

  it("refuses a FIFO at once instead of waiting for a writer", function()
    local fifo = dir .. "/fifo"
    assert.is_true(require("interp").sh("mkfifo " .. q(fifo)))
    local out, secs = readers(fifo)
    refused(out, fifo, "a FIFO")
    if not PRELOAD then assert.is_true(secs <= 3, "took " .. secs .. " s") end
  end)

  it("refuses a FIFO that has a writer (it would read what the writer sends)", function()
    local fifo = dir .. "/fifo2"
    assert.is_true(require("interp").sh("mkfifo " .. q(fifo)))
    -- a writer holds the FIFO open for 3 s
    local out = readers(fifo, "(timeout 5 sh -c " .. q("sleep 3 > " .. q(fifo)) .. " > /dev/null 2>&1 &);")
    refused(out, fifo, "a FIFO")
  end)

  it("refuses /dev/zero (endless), /dev/null (empty) and a directory", function()
    refused(readers("/dev/zero"), "/dev/zero", "a character device")
    refused(readers("/dev/null"), "/dev/null", "a character device")
    refused(readers(dir), dir, "a directory")
  end)

  it("refuses /dev/stdin on a pipe", function()
    refused(readers("/dev/stdin", "printf '1,2\\n3,4\\n' |"), "/dev/stdin", "a FIFO")
  end)

  it("refuses a Unix socket", function()
    local sock = dir .. "/sock"
    local _, ok = sh("/usr/bin/python3 -c " ..
      q("import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])") .. " " .. q(sock))
    if not ok then pending("no python3 to make a socket") return end
    refused(readers(sock), sock, "a socket")
  end)

  it("reads a regular file through symbolic links (a chain, relative and absolute)", function()
    local A = la.matrix{{1, 2.5}, {-3, 4}}
    la.save_npy(A, dir .. "/a.npy")
    la.save_csv(A, dir .. "/a.csv")
    os.execute("cd " .. q(dir) .. " && ln -s a.npy l1.npy && ln -s l1.npy l2.npy && ln -s " ..
               q(dir .. "/a.csv") .. " l.csv")
    assert.are.same(A:totable(), la.load_npy(dir .. "/l2.npy"):totable())
    assert.are.same({shape = {2, 2}, dtype = "<f8", fortran_order = true}, la.npy_info(dir .. "/l2.npy"))
    assert.are.same(A:totable(), la.load_csv(dir .. "/l.csv"):totable())
  end)

  it("still names a missing file and a dangling link as the OS does", function()
    assert.error_matches(function() la.load_csv(dir .. "/none.csv") end,
      "linalg.load_csv: " .. dir .. "/none.csv: No such file or directory", 1, true)
    os.execute("ln -s nowhere " .. q(dir .. "/dangling"))
    assert.error_matches(function() la.load_npy(dir .. "/dangling") end,
      "linalg.load_npy: " .. dir .. "/dangling: No such file or directory", 1, true)
  end)
end)

describe("writing over a file", function()
  local dir
  before_each(function() dir = tmpdir() end)
  after_each(function() os.execute("rm -rf " .. q(dir)) end)

  local A = la.matrix{{1, 2}, {3, 4}}
  local writers = {
    save_npy = function(path) la.save_npy(A, path) end,
    save_csv = function(path) la.save_csv(A, path) end,
    heatmap = function(path) la.heatmap(A, path) end,
    plot_vectors = function(path) la.plot_vectors{path = path, {{1, 2}}} end,
  }
  local CSV = "1,2\n3,4\n"

  for name, write in pairs(writers) do
    it(name .. " keeps the mode of the file it replaces (600, 640, 755)", function()
      for _, m in ipairs{"600", "640", "755"} do
        local path = dir .. "/out." .. m
        put(path, "old", m)
        write(path)
        assert.are.equal(m, mode(path))
        assert.are_not.equal("old", slurp(path))
      end
      assert.are.equal("out.600\nout.640\nout.755\n", listing(dir))    -- no temporary left
    end)
  end

  it("gives a new file 0666 minus the umask", function()
    for umask, want in pairs{["022"] = "644", ["027"] = "640", ["077"] = "600"} do
      local path = dir .. "/new" .. umask .. ".csv"
      local out = child(string.format("la.save_csv(la.eye(2), %q) print('done')", path), "umask " .. umask .. ";")
      assert.are.equal("done\n", out)
      assert.are.equal(want, mode(path))
    end
  end)

  it("keeps the owner and group of a file it replaces when root writes it", function()
    if not ROOT then pending("not root: a file of another user cannot be replaced") return end
    local path = dir .. "/theirs.csv"
    put(path, "old", "640")
    os.execute("chown nobody:nogroup " .. q(path))
    la.save_csv(A, path)
    assert.are.equal("nobody:nogroup", owner(path))
    assert.are.equal("640", mode(path))
    assert.are.equal(CSV, slurp(path))
  end)

  it("writes through a symbolic link: the link stays, the file it names is replaced", function()
    os.execute("mkdir " .. q(dir .. "/data") .. " " .. q(dir .. "/links"))
    put(dir .. "/data/a.csv", "old", "600")
    -- a relative link, a chain of two, an absolute link from another directory
    os.execute("cd " .. q(dir .. "/data") .. " && ln -s a.csv rel.csv && ln -s rel.csv chain.csv && ln -s " ..
               q(dir .. "/data/chain.csv") .. " " .. q(dir .. "/links/abs.csv"))
    for _, link in ipairs{"data/rel.csv", "data/chain.csv", "links/abs.csv"} do
      put(dir .. "/data/a.csv", "old")
      la.save_csv(A, dir .. "/" .. link)
      assert.is_true(islink(dir .. "/" .. link), link)
      assert.are.equal(CSV, slurp(dir .. "/data/a.csv"))
      assert.are.equal("600", mode(dir .. "/data/a.csv"))
    end
    -- the temporary was made next to the target, and removed
    assert.are.equal("a.csv\nchain.csv\nrel.csv\n", listing(dir .. "/data"))
    assert.are.equal("abs.csv\n", listing(dir .. "/links"))
  end)

  it("creates the file a dangling link names, and keeps the link", function()
    os.execute("ln -s made.npy " .. q(dir .. "/link.npy"))
    la.save_npy(A, dir .. "/link.npy")
    assert.is_true(islink(dir .. "/link.npy"))
    assert.are.same(A:totable(), la.load_npy(dir .. "/made.npy"):totable())
  end)

  it("names a loop of links", function()
    os.execute("cd " .. q(dir) .. " && ln -s b a && ln -s a b")
    assert.error_matches(function() la.save_csv(A, dir .. "/a") end,
      "linalg.save_csv: " .. dir .. "/a: Too many levels of symbolic links", 1, true)
  end)

  it("refuses a read-only file as np.save does (Permission denied), except for root", function()
    local path = dir .. "/ro.csv"
    put(path, "old", "400")
    if ROOT then
      -- root may write it (np.save opens it for writing and succeeds): it keeps mode 400
      la.save_csv(A, path)
      assert.are.equal(CSV, slurp(path))
      assert.are.equal("400", mode(path))
      -- another user may not: run the writer as nobody
      if not sh("command -v setpriv"):match("setpriv") then pending("no setpriv to drop root") return end
      put(path, "old", "400")
      os.execute("chown nobody " .. q(path) .. " " .. q(dir))
    end
    local pre = ROOT and "setpriv --reuid=nobody --regid=nogroup --clear-groups" or ""
    local out = child(string.format("print(pcall(la.save_csv, la.eye(2), %q))", path), pre)
    assert.are.equal("false\tlinalg.save_csv: " .. path .. ": Permission denied\n", out)
    assert.are.equal("old", slurp(path))
    assert.are.equal("400", mode(path))
    assert.are.equal("ro.csv\n", listing(dir))
  end)
end)

-- OpenBLAS's threaded drivers malloc a table per call and exit(1) when that
-- fails; a host under a memory limit must see "not enough memory" instead
-- (tools/check-oom-host.sh does the same inside lighttpd).
describe("a host at its memory limit with two OpenBLAS threads", function()
  -- In a child Lua: OpenBLAS warmed up, then the child limits its own
  -- address space to its size and 40 MiB (prlimit on its pid) and runs
  -- tools/brim.lua: memory filled, then a 256 x 256 product tried while
  -- 64 KiB pieces are given back one by one.
  local BRIM = [[
    io.stdout:setvbuf("no")
    local A, B = la.ones(256, 256), la.ones(256, 256)
    local W = A * B
    if la.threads() < 2 then print("one thread") return end
    local f = io.open("/proc/self/status"); local s = f:read("*a"); f:close()
    local vm = tonumber(s:match("VmSize:%s*(%d+)"))
    f = io.open("/proc/self/stat"); local pid = f:read("*a"):match("^(%d+)"); f:close()
    assert(require("interp").sh(string.format("prlimit --pid %s --as=%d", pid, (vm + 40 * 1024) * 1024)))
    local errors, product, other, full = dofile("tools/brim.lua")(la, A, B)
    print("full", full, "errors", errors, "product", product, "other", other)
    print("after", (la.ones(300, 300) * la.ones(300, 300))(1, 1), la.threads())
  ]]

  it("fails what does not fit, runs the product at the brim and goes on (no exit)", function()
    if PRELOAD then pending("a sanitizer's or valgrind's allocator is not the C heap OpenBLAS uses") return end
    local lua = string.format("package.path = %q; package.cpath = %q; local la = require 'linalg'; %s",
                              package.path, package.cpath, BRIM)
    local out = sh("OPENBLAS_NUM_THREADS=2 timeout 60 " .. LUA .. " -e " .. q(lua) .. " 2>&1; echo rc=$?")
    if out:find("one thread") then pending("OpenBLAS runs one thread here") return end
    assert.is_falsy(out:find("OpenBLAS: malloc failed", 1, true), out)
    -- the limit was reached and every failure was "not enough memory"; the
    -- product then runs at the brim where the heap gives the freed pieces
    -- back as one block (glibc may keep them apart: then it still fails
    -- cleanly, which is what the host needs)
    local errors, product = out:match("full\ttrue\terrors\t(%d+)\tproduct\t(%S+)\tother\tnil\n")
    assert.is_truthy(tonumber(errors) and tonumber(errors) >= 1, out)
    assert.is_truthy(product == "nil" or product == tostring(256.0), out)
    assert.is_truthy(out:find("after\t" .. tostring(300.0) .. "\t2\n", 1, true), out)
    assert.is_truthy(out:find("rc=0\n", 1, true), out)
  end)
end)
