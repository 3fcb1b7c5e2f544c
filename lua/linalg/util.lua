--- linalg.util: helpers shared by the Lua modules of linalg (internal).
-- @module linalg.util
local M = {}

--- Raises "linalg.<fname>: <message>" without a position, like the C core.
function M.fail(fname, fmt, ...)
  error("linalg." .. fname .. ": " .. string.format(fmt, ...), 0)
end

--- A value's type for messages: a metatable's __name when it has one (FILE*),
-- the name a protected metatable gives, else type(x).
function M.typename(x)
  local mt = getmetatable(x)
  if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
  if type(mt) == "string" then return mt end
  return type(x)
end

return M
