-- A host that sets LC_NUMERIC (setlocale(LC_ALL, "") in a desktop program,
-- os.setlocale in a script) to a locale whose decimal point is ',': printf
-- and strtod follow it, linalg's text does not. save_csv writes '.',
-- load_csv reads '.' (and "1,25" is no number), matrices print with '.',
-- error messages say 1.5, SVG coordinates and CSV headers use '.'.
-- The locale is built with localedef into a temporary folder (LOCPATH), in
-- a child interpreter; pending where localedef or its sources are missing.
local interp = require "interp"

local function run(locpath, code)
  local p = io.popen(string.format("LOCPATH=%s LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH='%s' %s -e %q 2>&1",
    locpath, package.cpath, interp.lua, code))
  local out = p:read("*a")
  p:close()
  return out
end

describe("a decimal comma in the C locale", function()
  it("changes nothing linalg writes, reads or prints", function()
    local dir = os.tmpname()
    os.remove(dir)
    if not interp.sh("mkdir " .. dir .. " && localedef -i de_DE -f UTF-8 " .. dir .. "/de_DE.UTF-8 >/dev/null 2>&1") then
      os.execute("rm -rf " .. dir)
      pending("no localedef or no de_DE locale source here")
      return
    end
    -- (no comments in the child's code: the shell joins its lines)
    local out = run(dir, [[
      local la = require "linalg"
      assert(os.setlocale("de_DE.UTF-8", "numeric"), "setlocale")
      local path = os.tmpname()
      la.save_csv(la.matrix{{1.5, -2.25}, {0.1, 1e-300}}, path)
      local f = io.open(path); local text = f:read("*a"); f:close()
      io.write("csv[", text, "]\n")
      local A = la.load_csv(path)
      os.remove(path)
      io.write("back ", tostring(A(1, 1) == 1.5 and A(1, 2) == -2.25 and A(2, 1) == 0.1 and A(2, 2) == 1e-300), "\n")
      io.write("print[", tostring(la.matrix{{1.5, 2.25}}), "]\n")
      io.write("error[", select(2, pcall(la.quantile, A, 1.5)), "]\n")
      io.write("interror[", select(2, pcall(la.zeros, 1.5, 2)), "]\n")
      f = io.open(path, "w"); f:write("1,25\n"); f:close()
      io.write("comma[", select(2, pcall(la.load_csv, path, {sep = ";"})), "]\n")
      la.save_csv(la.matrix{{1, 2}}, path, {header = {1.5, 2}})
      f = io.open(path); io.write("header[", f:read("*l"), "]\n"); f:close()
      la.scatter(la.vector{1.5, 2.5, 3}, la.vector{0.25, 1, 2}, path)
      f = io.open(path); local svg = f:read("*a"); f:close()
      io.write("svgcomma[", tostring(svg:find('="%d+,%d') ~= nil), "]\n")
      io.write("svgdot[", tostring(svg:find('cx="%d+%.%d+"') ~= nil), "]\n")
      os.remove(path)
    ]])
    os.execute("rm -rf " .. dir)
    assert.is_truthy(out:find("csv[1.5,-2.25\n0.10000000000000001,1e-300\n]", 1, true), out)
    assert.is_truthy(out:find("back true", 1, true), out)
    assert.is_truthy(out:find("print[1x2 matrix\n[1.5  2.25]]", 1, true), out)
    assert.is_truthy(out:find("quantiles must be in [0, 1], got 1.5]", 1, true), out)
    assert.is_truthy(out:find("interror[linalg.zeros: bad argument #1 (integer expected, got 1.5)]", 1, true), out)
    assert.is_truthy(out:find('comma[linalg.load_csv: ' , 1, true), out)
    assert.is_truthy(out:find('"1,25" is not a number]', 1, true), out)
    assert.is_truthy(out:find("header[1.5,2]", 1, true), out)
    assert.is_truthy(out:find("svgcomma[false]", 1, true), out)
    assert.is_truthy(out:find("svgdot[true]", 1, true), out)
  end)
end)
