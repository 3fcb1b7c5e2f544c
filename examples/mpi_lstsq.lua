-- Least squares over a .npy file that no one process reads whole: each MPI
-- rank loads only its own slice of the rows, folds them into a least-squares
-- state, and linalg.mpi merges the states; every rank ends with the same x.
--
--   mpirun -np 4 lua5.4 examples/mpi_lstsq.lua [data.npy]
--
-- The file holds [A | b] (m x (n + 1), float64). Without an argument, rank 0
-- first writes a demo file (200000 x 9, b = A x* + noise) to the temp dir
-- (removed at the end).
local la = require "linalg"
local mpi = require "linalg.mpi"

local rank, size = mpi.rank(), mpi.size()
local path = arg[1]
if not path then
  -- a name of this job's own (the launcher's job id; a lone process: a temp name)
  local job = os.getenv("PMIX_NAMESPACE") or os.getenv("OMPI_MCA_ess_base_jobid")
  if size == 1 then path = os.tmpname() .. ".npy"
  else
    assert(job, "no job id to name the demo file by: pass a .npy path")
    path = string.format("%s/linalg_mpi_lstsq_%s.npy", os.getenv("TMPDIR") or "/tmp", job)
  end
  if rank == 0 then
    local m, n = 200000, 8
    local A = la.randn(m, n, 1)
    local x_true = la.vector{1, -2, 3, -4, 5, -6, 7, -8}
    la.save_npy(la.hstack{A, A * x_true + 0.01 * la.randn(m, 1, 2)}, path)
  end
  mpi.barrier()                              -- the file is complete before anyone reads it
end

-- this rank's rows: a near-equal share, read by seeking (no rank holds the rest)
local info = la.npy_info(path)
local m, cols = info.shape[1], info.shape[2]
local first = math.floor(rank * m / size) + 1
local last = math.floor((rank + 1) * m / size)
local block = la.load_npy(path, {rows = {first, last}})
local n = cols - 1
local A = last >= first and block:sub(1, last - first + 1, 1, n) or la.zeros(0, n)
local b = last >= first and block:sub(1, last - first + 1, cols, cols) or la.zeros(0, 1)

local t0 = os.clock()
local x, residuals, r = mpi.lstsq(A:copy(), b:copy())
local cpu = os.clock() - t0

if rank == 0 then
  print(string.format("%d ranks, %d x %d rows in the file, rank 0 read rows %d..%d", size, m, n,
                      first, last))
  local shown = {}
  for i = 1, n do shown[i] = string.format("%.3f", x(i, 1)) end
  print("x = " .. table.concat(shown, "  "))
  print(string.format("matrix rank %d, residual sum of squares %.6g; the fit took %.3f s CPU on rank 0",
                      r, residuals(1, 1), cpu))
end
if not arg[1] then
  mpi.barrier()                              -- everyone has read it
  if rank == 0 then os.remove(path); os.remove(path:sub(1, -5)) end
  -- the demo's known answer
  local x_true = la.vector{1, -2, 3, -4, 5, -6, 7, -8}
  assert(la.norm(x - x_true, math.huge) < 1e-3, "x is far from x*")
  if rank == 0 then print("matches x*:", true) end
end
