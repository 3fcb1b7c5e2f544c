-- Empty matrices with a 2^31-1 extent outside attention; option errors
-- that name the option or the function called; protected metatables;
-- totable's size error.
local la = require "linalg"

local BIG = require("linalg.compat").tointeger(2 ^ 31 - 1)

-- the sizes below are slow (or, for lstsq, allocate 16 GiB) only when an
-- empty extent is looped over
local limits = require "limits"
local fast = limits.fast
local function shape(M) return {M:shape()} end

describe("empty matrices with a 2^31-1 extent", function()
  for _, dt in ipairs{"float64", "float32"} do
    local o = {dtype = dt}
    it("solve of a 0 x 0 system with 2^31-1 right-hand sides returns at once (" .. dt .. ")", function()
      -- its finiteness test visited every column of no row (make fuzz: 25 s)
      local x = fast(function() return la.solve(la.zeros(0, 0, o), la.zeros(0, BIG, o)) end)
      assert.are.same({0, BIG}, {x:shape()})
      x = fast(function() return la.solve(la.zeros(0, 0, o), la.zeros(0, BIG, o), {assume = "sym"}) end)
      assert.are.same({0, BIG}, {x:shape()})
    end)

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

describe("option errors name the option and the function called", function()
  it("names a closed matrix given as plot_vectors' from", function()
    local C = la.ones(2, 1)
    debug.getmetatable(C).__close(C)
    local path = os.tmpname()
    assert.error_matches(function()
      la.plot_vectors{{la.matrix{1, 1}, from = C}, path = path}
    end, "linalg.plot_vectors: option 'from' is a closed matrix")
    os.remove(path)
  end)

  it("span_check{convex = true} answers for entries near the largest double", function()
    -- the augmented NNLS row took ||X||_1 = inf and NNLS refused it:
    -- "linalg.nnls: A(3,1) is Inf", naming a function the user never called
    local X = la.matrix{{1e308, -1e308, 0}, {1e308, 1e308, 0}}
    local inside, info = la.span_check(X, {0, 1e308}, {convex = true})
    assert.is_true(inside)
    -- y = (c1 + c2) / 2; the same weights as the problem scaled by 1e-300
    assert.near({0.5, 0.5, 0}, info.coeffs, 1e-12)
    local _, scaled = la.span_check(X / 1e300, la.matrix{0, 1e308} / 1e300, {convex = true})
    assert.near(scaled.coeffs, info.coeffs, 1e-12)
    -- outside the hull: false, not an error
    local inside = la.span_check(X, {1e308, 0}, {convex = true})
    assert.is_false(inside)
  end)
end)

describe("shared metatables are protected", function()
  it("getmetatable on an lsq_state gives its name, as on a matrix", function()
    local s = la.lsq_state(2)
    -- it gave the table every state shares: one script could replace
    -- __index and break every state in the process
    assert.are.equal("linalg.lsq_state", getmetatable(s))
    assert.are.equal("linalg.matrix", getmetatable(la.ones(1, 1)))
    s:add(la.matrix{{1, 0}, {0, 1}, {1, 1}}, {1, 2, 3})
    assert.near({1, 2}, (s:solve()), 1e-14)
    assert.matches("^lsq_state", tostring(s))
  end)

  it("getmetatable on a linear_regression model gives a name", function()
    local m = la.linear_regression(la.matrix{{0}, {1}, {2}}, {1, 3, 5})
    assert.are.equal("linalg.linear_regression model", getmetatable(m))
    assert.has_error(function() setmetatable(m, {}) end, "cannot change a protected metatable")
    assert.near({{7}}, m:predict({{3}}), 1e-14)
  end)
end)

describe("linalg.totable of a matrix too large for a table", function()
  -- in a child lua5.4 under a virtual-memory limit, so that the table runs
  -- out of memory at once on any host (in this process, a host with more
  -- than 32 GiB would build it for long); pending under a sanitizer
  local limits = require "limits"
  local limited, it = limits.limited, limits.unlimited(it, pending)

  it("names the shape instead of a raw out-of-memory", function()
    -- 2^31-1 rows of nothing: no storage, but the table needs 2^31-1 slots
    -- (32 GiB) before its 2^31-1 empty rows; Lua 5.4's lua_createtable fails
    -- only by running out of memory (LuaJIT raises "table overflow")
    local out = limited("print(select(2, pcall(la.totable, la.zeros(2^31 - 1, 0)))) " ..
                        "print(#la.zeros(0, 2^31 - 1):totable(), la.matrix{{1, 2}, {3, 4}}:totable()[2][1])")
    local why = rawget(_G, "jit") and "table overflow" or "not enough memory"
    assert.are.equal("linalg.totable: 2147483647x0 matrix is too large for a Lua table (" .. why .. ")\n" ..
                     "0\t" .. tostring(3.0) .. "\n", out)         -- an entry is a float: 3.0 on 5.3+
  end)
end)
