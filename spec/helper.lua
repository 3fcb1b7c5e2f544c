-- Shared by every spec (.busted loads it): the assertions `near` (numbers and
-- matrices within a tolerance) and `error_matches` (a linalg error's text).
local assert = require "luassert"
local say = require "say"
local la = require "linalg"

-- assert.near(expected, actual [, tol]): same shape, max |difference| <= tol
-- (default 1e-12, relative to max(1, |expected|) entrywise). Tables are
-- accepted for either side.
local function near(_, args)
  local e, a, tol = args[1], args[2], args[3] or 1e-12
  if type(e) == "number" and type(a) == "number" then
    return math.abs(e - a) <= tol * math.max(1, math.abs(e))
  end
  if not la.is_matrix(e) then e = la.matrix(e) end
  if not la.is_matrix(a) then
    if type(a) ~= "table" then return false end
    a = la.matrix(a)
  end
  local m, n = e:shape()
  local p, q = a:shape()
  if m ~= p or n ~= q then return false end
  for i = 1, m do
    for j = 1, n do
      local x, y = e(i, j), a(i, j)
      if not (math.abs(x - y) <= tol * math.max(1, math.abs(x))) then return false end
    end
  end
  return true
end

say:set("assertion.near.positive", "Expected values to be near.\nExpected:\n%s\nActual:\n%s")
say:set("assertion.near.negative", "Expected values not to be near.\nExpected:\n%s\nActual:\n%s")
assert:register("assertion", "near", near, "assertion.near.positive", "assertion.near.negative")

-- assert.integer(x): a number with an integral value that prints as one
-- ("3", not "3.0"): counts, ranks and indices on every Lua (5.3+ has an
-- integer subtype, 5.1 and LuaJIT print integral doubles without ".0").
local function integer(_, args)
  local x = args[1]
  return type(x) == "number" and x == math.floor(x) and tostring(x) == string.format("%d", x)
end
say:set("assertion.integer.positive", "Expected an integer that prints as one, got:\n%s")
say:set("assertion.integer.negative", "Expected no integer, got:\n%s")
assert:register("assertion", "integer", integer, "assertion.integer.positive", "assertion.integer.negative")

-- assert.error_matches(f, pattern): f raises a string error matching pattern
-- (plain text match), and the message starts with "linalg.".
local function error_matches(_, args)
  local ok, err = pcall(args[1])
  if ok then return false end
  err = tostring(err)
  args[1] = err
  return err:find(args[2], 1, true) ~= nil and err:sub(1, 7) == "linalg."
end
say:set("assertion.error_matches.positive", "Got error:\n%s\nExpected it to contain:\n%s")
say:set("assertion.error_matches.negative", "Got error:\n%s\nExpected it not to contain:\n%s")
assert:register("assertion", "error_matches", error_matches,
  "assertion.error_matches.positive", "assertion.error_matches.negative")
