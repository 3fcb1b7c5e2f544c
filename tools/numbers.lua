-- tools/numbers.lua: the figures of the README's "Reliability" section from
-- the log of a `make test` run, so that every number there comes from a
-- command anyone can rerun:
--   make test 2>&1 | tee build/test.log
--   lua5.4 tools/numbers.lua build/test.log          (prints the table)
--   lua5.4 tools/numbers.lua build/test.log README.md (rewrites it in place)
-- The table replaces what stands between the README's two markers
-- <!-- numbers --> and <!-- /numbers -->. Runs on any Lua 5.1+.
local logpath, readme = arg[1], arg[2]
assert(logpath, "usage: tools/numbers.lua MAKE-TEST-LOG [README.md]")

local per, order, lua = {}, {}, nil
local kernels, kernelfiles, mpi, valgrind, fuzz = 0, 0, false, nil, nil
for line in io.lines(logpath) do
  local name = line:match("^== make test%-lua LUA=(%S+)")
  if name then
    lua = name
    if not per[name] then per[name] = {}; order[#order + 1] = name end
  end
  local r = lua and per[lua]
  local s, f, e, p = line:match("(%d+) successes? / (%d+) failures? / (%d+) errors? / (%d+) pending")
  if r and s and not r.specs then r.specs, r.failed, r.pending = s, tonumber(f) + tonumber(e), p end
  local a = line:match("^alloc: (%d+) passed, 0 failed")
  if r and a then r.alloc = a end
  local t = line:match("^threads: (%d+) passed, 0 failed")
  if r and t then r.threads = t end
  local c = line:match("^capi: (%d+) passed, 0 failed")
  if r and c then r.capi = c end
  local k = line:match("^kernels/[%w_]+: (%d+) checks passed")
  if k then kernels, kernelfiles = kernels + tonumber(k), kernelfiles + 1 end
  if line:find("linalg.mpi: all MPI runs passed", 1, true) then mpi = true end
  valgrind = line:match("^valgrind: (%d+ specs passed, exit %d+)") or valgrind
  fuzz = line:match("stat::number_of_executed_units: (%d+)") or fuzz
end

local out = {
  "| Lua | busted specs passed | failed | pending | allocation failure points recovered (no leak) | threads | C API |",
  "|---|---|---|---|---|---|---|",
}
for _, name in ipairs(order) do
  local r = per[name]
  out[#out + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s |", name, r.specs or "-",
    r.failed or "-", r.pending or "-", r.alloc or "-", r.threads or "-", r.capi or "-")
end
out[#out + 1] = ""
out[#out + 1] = string.format("Kernel tests (`make ktest`): %d checks passed in %d programs. MPI (1 to 4 ranks): %s.",
  kernels, kernelfiles, mpi and "all runs passed" or "not run")
if valgrind then out[#out + 1] = "`make valgrind` (lua5.4): " .. valgrind .. "." end
if fuzz then out[#out + 1] = "`make fuzz`: " .. fuzz .. " executions, no finding." end
local text = table.concat(out, "\n") .. "\n"

if not readme then io.write(text) return end
local f = assert(io.open(readme, "rb"))
local s = f:read("*a")
f:close()
local a, b = s:find("<!-- numbers -->\n", 1, true)
local c = s:find("<!-- /numbers -->", 1, true)
assert(a and c and c > b, readme .. ": no <!-- numbers --> ... <!-- /numbers --> block")
f = assert(io.open(readme, "wb"))
f:write(s:sub(1, b), text, s:sub(c))
f:close()
