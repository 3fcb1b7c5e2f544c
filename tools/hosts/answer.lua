-- tools/hosts/answer.lua: the seed's least-squares example as one line,
-- answered by linalg inside a host (tools/check-hosts.sh reads it). Any
-- error is the line instead, so a host that cannot load linalg still
-- answers at once.
return function()
  local ok, line = pcall(function()
    local la = require "linalg"
    local x, _, rank = la.lstsq({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3})
    return string.format("lstsq x = %.17g %.17g rank = %d in %s", x(1), x(2), rank,
      la.config().lua or _VERSION)
  end)
  return ok and line or ("error: " .. tostring(line):gsub("\n", " | "))
end
