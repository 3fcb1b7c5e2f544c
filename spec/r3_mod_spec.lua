-- la.mod (A % B) and la.fmod: NumPy's remainder (np.mod, the % of arrays:
-- the divisor's sign, Python's and Lua's %) and fmod (C's: the dividend's
-- sign). Expected values from NumPy 1.24.2 (np.mod(A, B).tolist(),
-- np.fmod(A, B).tolist()), compared bit for bit, signs of zero included.
local la = require "linalg"
local NAN, INF = 0 / 0, math.huge
local NEGZERO = -1 / math.huge    -- made at run time: 5.1 and 5.2 merge the constants -0.0 and 0

local A = la.matrix{{5.5, -5.5, 7, -7, 0, NEGZERO}, {INF, -INF, 3, NAN, 2.5, 1e300}}
local B = la.matrix{{2, 2, -3, -3, -2, 2}, {2, 2, 0, 1, INF, -INF}}

-- x and y the same double (NaN equal to NaN; -0.0 not equal to 0.0)
local function same(want, got, where)
  local ok = (want ~= want and got ~= got) or (want == got and 1 / want == 1 / got)
  assert.is_true(ok, string.format("%s: %.17g ~= %.17g", where, want, got))
end
local function all(want, M)
  for i = 1, #want do for j = 1, #want[i] do same(want[i][j], M(i, j), i .. "," .. j) end end
end

describe("la.mod and la.fmod", function()
  it("are NumPy's mod and fmod, signs of zero and specials included", function()
    all({{1.5, 0.5, -2.0, -1.0, NEGZERO, 0.0}, {NAN, NAN, NAN, NAN, 2.5, -INF}}, la.mod(A, B))
    all({{1.5, -1.5, 1.0, -1.0, 0.0, NEGZERO}, {NAN, NAN, NAN, NAN, 2.5, 1e300}}, la.fmod(A, B))
    all({{1.5, 0.5, 1.0, 1.0, 0.0, 0.0}, {NAN, NAN, 1.0, NAN, 0.5, 0.0}}, A % 2)
  end)

  it("is NumPy's rule for numbers (Lua 5.3's %), and broadcasts and keeps float32 as the other binary functions", function()
    for _, x in ipairs{7, -7, 7.5, -0.25, 1e10} do
      for _, y in ipairs{3, -3, 0.5, -1e-3} do
        -- NumPy's rule on math.fmod; Lua 5.3+'s % gives the same value (it leaves fmod's -0.0
        -- where NumPy takes the divisor's sign; 5.1 and LuaJIT compute a - floor(a / b) * b)
        local r = math.fmod(x, y)
        if r ~= 0 and (r < 0) ~= (y < 0) then r = r + y end
        assert.are.equal(r, la.mod(x, y))
        assert.are.equal(r, (la.vector{x} % y)(1, 1))
        assert.are.equal(r, (x % la.vector{y})(1, 1))
        if math.type then assert.are.equal(x % y, r) end
        same(math.fmod(x, y), la.fmod(x, y), "fmod " .. x .. ", " .. y)
      end
    end
    local C = la.mod(la.vector{1, 2, 3}, la.matrix{{2, 3}})
    assert.are.same({{1, 1}, {0, 2}, {1, 0}}, C:totable())
    local F = la.matrix{{5.5, -5.5}}:astype("float32") % -2
    assert.are.equal("float32", F.dtype)
    assert.are.same({{-0.5, -1.5}}, F:totable())
    assert.error_matches(function() return A % la.ones(3, 3) end, "linalg.mod", 1, true)
    assert.error_matches(function() return la.fmod(A, "x") end, "linalg.fmod", 1, true)
  end)
end)
