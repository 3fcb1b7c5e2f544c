-- The sort specs' reference for la.sort and la.argsort: the positions of
-- the values t sorted stably, NaN last (first when descending), equal
-- values (-0.0 and 0.0 among them) in input order, by table.sort.
local function isnan(x) return x ~= x end

return function(t, down)
  local p = {}
  for i = 1, #t do p[i] = i end
  table.sort(p, function(a, b)
    local x, y = t[a], t[b]
    local nx, ny = isnan(x), isnan(y)
    if nx ~= ny then if down then return nx end return ny end
    if not nx and x ~= y then if down then return x > y end return x < y end
    return a < b
  end)
  return p
end
