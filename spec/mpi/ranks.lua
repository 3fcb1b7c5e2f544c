-- linalg.mpi under `mpirun -np P` (make test runs P = 1, 2, 3, 4): every
-- rank runs every test in the same order, so the collectives line up.
-- LINALG_MPI_TMP names a directory shared by the ranks (for comparing bytes).
local la = require "linalg"
local mpi = require "linalg.mpi"

local rank, size = mpi.rank(), mpi.size()
local tmp = assert(os.getenv("LINALG_MPI_TMP"), "LINALG_MPI_TMP is not set")

-- this rank's rows of an m-row problem, split unevenly: rank 1 gets none
-- (when there are 2 ranks or more), the others shares growing with the rank
local function myrows(m)
  local w, total = {}, 0
  for r = 0, size - 1 do w[r] = (size > 1 and r == 1) and 0 or r + 1; total = total + w[r] end
  local first = 1
  for r = 0, rank - 1 do first = first + math.floor(m * w[r] / total) end
  local last = first + math.floor(m * w[rank] / total) - 1
  if rank == size - 1 then last = m end
  return first, last
end

local function slice(A, first, last)
  if last < first then return la.zeros(0, A:cols()) end
  return A:sub(first, last, 1, A:cols()):copy()
end

local function rel(a, b) return la.norm(a - b) / la.norm(b) end

-- true when the string s is the same on every rank (files in tmp, barrier)
local function same_everywhere(s, tag)
  local f = assert(io.open(string.format("%s/%s.%d", tmp, tag, rank), "wb"))
  f:write(s); f:close()
  mpi.barrier()
  local same = true
  for r = 0, size - 1 do
    local g = assert(io.open(string.format("%s/%s.%d", tmp, tag, r), "rb"))
    same = same and g:read("*a") == s
    g:close()
  end
  mpi.barrier()
  return same
end

describe("linalg.mpi on " .. size .. " ranks", function()
  local m = 500
  local A, B = la.randn(m, 6, 1), la.randn(m, 3, 2)
  local first, last = myrows(m)

  it("knows its rank and size", function()
    assert.equal(tonumber(os.getenv("OMPI_COMM_WORLD_SIZE") or "1"), size)
    assert.is_true(rank >= 0 and rank < size)
    assert.is_true(mpi.owns_mpi)
    mpi.barrier()
  end)

  it("splits unevenly, with a rank holding no rows", function()
    local n = last - first + 1
    if size > 1 and rank == 1 then assert.equal(0, n) end
    local total = mpi.allreduce(la.lsq_state(6, 3):add(slice(A, first, last), slice(B, first, last)))
    assert.equal(m, total.rows)
  end)

  for _, method in ipairs{"svd", "qr", "qrp"} do
    it("gives la.lstsq's answer on every rank (" .. method .. ", k = 1 and 3)", function()
      for _, k in ipairs{1, 3} do
        local b = B:sub(1, m, 1, k):copy()
        local x, res, r, sv = mpi.lstsq(slice(A, first, last), slice(b, first, last), {method = method})
        local x0, res0, r0, sv0 = la.lstsq(A, b, {method = method})
        assert.is_true(rel(x, x0) <= 1e-12, "x differs by " .. rel(x, x0))
        assert.is_true(rel(res, res0) <= 1e-12)
        assert.equal(r0, r)
        if sv0 then assert.is_true(rel(sv, sv0) <= 1e-12) end
        assert.is_true(same_everywhere(x:tobytes(), "x" .. method .. k), "x differs between ranks")
      end
    end)
  end

  it("applies ridge once over all ranks", function()
    local b = B:col(1)
    local x = mpi.lstsq(slice(A, first, last), slice(b, first, last), {ridge = 2.5})
    local x0 = la.solve(A.T * A + 2.5 * la.eye(6), A.T * b)
    assert.is_true(rel(x, x0) <= 1e-12)
  end)

  it("reduces in a fixed order with deterministic = true, bit-identical on repeat", function()
    local b = B:col(2)
    local Ar, br = slice(A, first, last), slice(b, first, last)
    local x1 = mpi.lstsq(Ar, br, {deterministic = true})
    local x2 = mpi.lstsq(Ar, br, {deterministic = true})
    assert.equal(x1:tobytes(), x2:tobytes())
    assert.is_true(rel(x1, la.lstsq(A, b)) <= 1e-12)
    assert.is_true(same_everywhere(x1:tobytes(), "xdet"), "x differs between ranks")
    local s = mpi.allreduce(la.lsq_state(6, 1):add(Ar, br), {deterministic = true})
    assert.equal(m, s.rows)
    assert.is_true(same_everywhere(s:tobytes(), "sdet"))
  end)

  it("takes the communicator as a Fortran handle", function()
    -- Open MPI's Fortran handle of MPI_COMM_WORLD is 0
    assert.equal(rank, mpi.rank{comm = 0})
    local x = mpi.lstsq(slice(A, first, last), slice(B:col(1), first, last), {comm = 0})
    assert.is_true(rel(x, la.lstsq(A, B:col(1))) <= 1e-12)
    assert.error_matches(function() mpi.rank{comm = 123456} end,
      "linalg.mpi.rank: option 'comm' (123456) is not a communicator")
    assert.error_matches(function() mpi.rank{comm = "world"} end, "must be an integer Fortran handle")
    assert.error_matches(function() mpi.lstsq(A, B, {comn = 0}) end, "linalg.mpi.lstsq: unknown option 'comn'")
    assert.error_matches(function() mpi.allreduce(A) end,
      "linalg.mpi.allreduce: bad argument #1 (lsq_state expected, got userdata)")
  end)

  it("fails on every rank, without hanging, when ranks disagree or one rank's rows are bad", function()
    local n = (size > 1 and rank == size - 1) and 5 or 6
    local ok, e = pcall(mpi.allreduce, la.lsq_state(n))
    if size > 1 then
      assert.is_false(ok)
      assert.truthy(e:find("linalg.mpi.allreduce: states differ across ranks (n from 5 to 6", 1, true), e)
    else
      assert.is_true(ok)
    end
    ok, e = pcall(mpi.allreduce, rank == 0 and "not a state" or la.lsq_state(6))
    assert.is_false(ok)
    if rank == 0 then
      assert.equal("linalg.mpi.allreduce: bad argument #1 (lsq_state expected, got string)", e)
    else assert.equal("linalg.mpi.allreduce: the call failed on another rank", e) end
    local Ar = slice(A, first, last)
    if rank == 0 then Ar:set(1, 1, 0 / 0) end
    ok, e = pcall(mpi.lstsq, Ar, slice(B:col(1), first, last))
    assert.is_false(ok)
    if rank == 0 then assert.truthy(e:find("linalg.mpi.lstsq: A(1,1) is NaN", 1, true), e)
    else assert.equal("linalg.mpi.lstsq: another rank's rows were rejected", e) end
    -- and the ranks are still in step
    local x = mpi.lstsq(slice(A, first, last), slice(B:col(1), first, last))
    assert.is_true(rel(x, la.lstsq(A, B:col(1))) <= 1e-12)
  end)
end)
