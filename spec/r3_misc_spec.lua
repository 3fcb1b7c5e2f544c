-- Empty matrices with a 2^31-1 extent outside attention; option errors
-- that name the option or the function called; protected metatables;
-- totable's size error.
local la = require "linalg"

local BIG = math.tointeger(2 ^ 31 - 1)

-- f's results, asserting it took little CPU time: the sizes below are slow
-- (or, for lstsq, allocate 16 GiB) only when an empty extent is looped over
local function fast(f)
  local t0 = os.clock()
  local r = table.pack(f())
  assert.is_true(os.clock() - t0 < 0.25, "took " .. (os.clock() - t0) .. " s")
  return table.unpack(r, 1, r.n)
end
local function shape(M) return {M:shape()} end

describe("empty matrices with a 2^31-1 extent", function()
  for _, dt in ipairs{"float64", "float32"} do
    local o = {dtype = dt}
    it("lu of a 0 x 2^31-1 matrix returns at once (" .. dt .. ")", function()
      -- the copy into L and U visited every column of no row (1.3 s)
      local L, U, perm, P = fast(function() return la.lu(la.zeros(0, BIG, o)) end)
      assert.are.same({0, 0}, shape(L))
      assert.are.same({0, BIG}, shape(U))
      assert.are.same({}, perm)
      assert.are.same({0, 0}, shape(P))
      assert.are.equal(dt, U.dtype)
    end)

    it("lstsq with no column or no row returns at once (" .. dt .. ")", function()
      -- a 2^31-1 x 0 A made a 2^31-1 x 1 copy of b (16 GiB) for a 0 x 0 x
      for _, method in ipairs{"svd", "qr", "qrp"} do
        local x, res, rank, sv = fast(function()
          return la.lstsq(la.zeros(BIG, 0, o), la.zeros(BIG, 0, o), {method = method})
        end)
        assert.are.same({0, 0}, shape(x))
        assert.are.same({1, 0}, shape(res))
        assert.are.equal(0, rank)
        if method == "svd" then assert.are.same({0, 1}, shape(sv)) else assert.is_nil(sv) end
        x, res, rank = fast(function()
          return la.lstsq(la.zeros(0, BIG, o), la.zeros(0, 0, o), {method = method})
        end)
        assert.are.same({BIG, 0}, shape(x))
        assert.is_nil(res)
        assert.are.equal(0, rank)
      end
      local _, ok = fast(function() return la.span_check(la.zeros(BIG, 0, o), la.zeros(BIG, 0, o)) end)
      assert.are.same({0, 0}, shape(ok.coeffs))
      assert.are.same({BIG, 0}, shape(ok.projection))
    end)

    it("lstsq with no column keeps NumPy's answer (" .. dt .. ")", function()
      -- numpy 1.24: np.linalg.lstsq(np.zeros((3, 0)), [[1, 2], [3, 4], [5, 6]])
      --   -> x of shape (0, 2), residuals [35, 56], rank 0, s of shape (0,)
      for _, method in ipairs{"svd", "qr", "qrp"} do
        local x, res, rank, sv = la.lstsq(la.zeros(3, 0, o), la.matrix({{1, 2}, {3, 4}, {5, 6}}, o),
                                          {method = method, ridge = method == "qr" and 2 or 0})
        assert.are.same({0, 2}, shape(x))
        assert.are.equal(dt, x.dtype)
        assert.near({{35, 56}}, res:astype("float64"), dt == "float32" and 1e-6 or 1e-14)   -- sdnrm2 squared
        assert.are.equal(0, rank)
        if method == "svd" then assert.are.same({0, 1}, shape(sv)) end
      end
      -- numpy: np.linalg.lstsq(np.zeros((0, 3)), np.zeros((0, 2))) -> x = zeros((3, 2)), residuals []
      local x, res = la.lstsq(la.zeros(0, 3, o), la.zeros(0, 2, o))
      assert.are.equal(la.zeros(3, 2, o), x)
      assert.is_nil(res)
    end)
  end
end)
