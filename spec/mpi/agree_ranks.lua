-- linalg.mpi when the ranks' options disagree, under `mpirun -np P` (make
-- test-mpi runs it with ranks.lua, P = 1, 2, 3, 4): every rank raises the
-- same error and none starts a reduction that the others do not join (before
-- that check, a deterministic rank waited in MPI_Recv while the others were
-- in MPI_Allreduce: a hang, which make test-mpi bounds with a timeout).
local la = require "linalg"
local mpi = require "linalg.mpi"

local rank, size = mpi.rank(), mpi.size()

describe("linalg.mpi on " .. size .. " ranks whose options disagree", function()
  local A, b = la.randn(10, 3, 5), la.randn(10, 1, 6)
  local state = la.lsq_state(3):add(A, b)
  local detmsg = "ranks disagree on option 'deterministic' (true on some, false on others)"

  -- the ranks are still in step: a collective that agrees completes everywhere
  local function in_step()
    assert.equal(10 * size, mpi.allreduce(state).rows)
  end

  it("raises on every rank in allreduce when only one rank passes deterministic = true", function()
    for _, alone in ipairs{0, size - 1} do      -- rank 0 alone, then the last rank alone
      local ok, e = pcall(mpi.allreduce, state, {deterministic = rank == alone})
      if size > 1 then
        assert.is_false(ok)
        assert.equal("linalg.mpi.allreduce: " .. detmsg, e)
      else
        assert.is_true(ok, e)
        assert.equal(10, e.rows)
      end
      in_step()
    end
  end)

  it("raises on every rank in lstsq when only one rank passes deterministic = true", function()
    for _, alone in ipairs{0, size - 1} do
      local ok, e = pcall(mpi.lstsq, A, b, {deterministic = rank ~= alone})
      if size > 1 then
        assert.is_false(ok)
        assert.equal("linalg.mpi.lstsq: " .. detmsg, e)
      else
        assert.is_true(ok, e)
      end
      in_step()
    end
  end)

  it("takes deterministic = false and no option as the same choice", function()
    local opts = rank == 0 and {deterministic = false} or nil
    assert.equal(10 * size, mpi.allreduce(state, opts).rows)
    -- every rank holds the same rows: x is la.lstsq's of A repeated size times
    local x = mpi.lstsq(A, b, opts)
    local x0 = la.lstsq(A, b)
    assert.is_true(la.norm(x - x0) <= 1e-12 * la.norm(x0))
  end)
end)
