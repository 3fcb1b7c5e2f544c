-- A rank that leaves while the others wait for it in a collective must end
-- the whole job, not leave it hanging. spec/mpi/dies.sh runs this under
-- mpirun and checks how the job ends. arg[1] says how rank 1 leaves before
-- the allreduce that the other ranks wait in:
--   error  an uncaught Lua error (lua.c reports it and exits with status 1)
--   exit   os.exit(3)
--   kill   SIGKILL
--   pcall  an error caught by pcall: not a death, the job completes
local la = require "linalg"
local mpi = require "linalg.mpi"

local how = arg[1]
if mpi.rank() == 1 then
  if how == "error" then error("deliberate failure") end
  if how == "exit" then os.exit(3) end
  if how == "kill" then os.execute("kill -KILL " .. io.open("/proc/self/stat"):read("n")) end
  if how == "pcall" then assert(not pcall(error, "caught")) end
end
local s = mpi.allreduce(la.lsq_state(2):add(la.ones(3, 2), la.ones(3, 1)))
assert(s.rows == 3 * mpi.size())
print("rank " .. mpi.rank() .. " done")
