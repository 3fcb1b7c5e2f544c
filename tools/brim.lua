-- tools/brim.lua: memory filled to the limit, then products while pieces
-- are given back (used by tools/lighttpd-oom.lua and spec/r3_files_spec.lua).
-- brim(la, A, B) fills the address space with matrices (1 MiB, 64 KiB,
-- 1 KiB pieces) until allocation fails, frees 1 MiB, fills that with 64 KiB
-- pieces and frees them one by one, trying A * B after each. Each try
-- fails with "not enough memory" until the result fits; the first that
-- fits leaves too little for OpenBLAS's threaded driver. Returns the number
-- of failed tries, A * B's (1, 1) entry (nil if none ran), any error that
-- was not "not enough memory", and whether the first fill reached the limit.
return function(la, A, B)
  local ballast = {}
  local function fill(n)
    while true do
      local ok, M = pcall(la.zeros, n, 128)
      if not ok then return end
      ballast[#ballast + 1] = M
    end
  end
  fill(1024); fill(64); fill(8)
  local full = not pcall(la.zeros, 1024, 128)
  for i = #ballast, 1, -1 do
    if ballast[i]:shape() == 1024 then ballast[i] = false; break end
  end
  collectgarbage()
  local first = #ballast + 1
  fill(64)
  local errors, product, other = 0, nil, nil
  for i = #ballast, first, -1 do
    ballast[i] = false
    collectgarbage()
    local ok, r = pcall(function() return (A * B)(1, 1) end)
    if ok then product = r; break end
    if not tostring(r):find("not enough memory", 1, true) then other = other or tostring(r) end
    errors = errors + 1
  end
  ballast = nil
  collectgarbage()
  return errors, product, other, full
end
