-- tools/sortnets.lua: writes src/kernels/sortnets.h, the sorting networks
-- of kernels/sortshort.c: for n = 2 .. 16 entries, Batcher's odd-even merge
-- sort of the next power of two with the comparators that reach past n left
-- out (those would meet only padding larger than every entry). Each network
-- is an X-macro, LAK_NETn(X) expanding to X(a, b) for each comparator in
-- order, so the kernel's code is straight-line and its vectors stay in
-- registers. Run: lua tools/sortnets.lua > src/kernels/sortnets.h
-- (spec/kernels/sortshort.c checks every network by the 0-1 principle).
local function network(n)
  local N, pairs = 1, {}
  while N < n do N = N * 2 end
  local p = 1
  while p < N do
    local k = p
    while k >= 1 do
      local j = k % p
      while j + k < N do
        for i = 0, k - 1 do
          if i + j + k >= N then break end
          if math.floor((i + j) / (2 * p)) == math.floor((i + j + k) / (2 * p)) and i + j + k < n then
            pairs[#pairs + 1] = string.format("X(%d, %d)", i + j, i + j + k)
          end
        end
        j = j + 2 * k
      end
      k = math.floor(k / 2)
    end
    p = p * 2
  end
  return pairs
end

local out = {
  "/* kernels/sortnets.h: written by tools/sortnets.lua, do not edit. The",
  "** sorting networks of kernels/sortshort.c (Batcher's odd-even merge sort,",
  "** pruned to n entries): LAK_NETn(X) is X(a, b) for each comparator. */",
  "#ifndef LAK_SORTNETS_H", "#define LAK_SORTNETS_H",
}
for n = 2, 16 do
  local pairs = network(n)
  local line, lines = "#define LAK_NET" .. n .. "(X)", {}
  for _, c in ipairs(pairs) do
    if #line + #c + 3 > 96 then lines[#lines + 1] = line .. " \\"; line = "  " .. c
    else line = line .. " " .. c end
  end
  lines[#lines + 1] = line
  out[#out + 1] = string.format("/* n = %d: %d comparator%s */", n, #pairs, #pairs == 1 and "" or "s")
  out[#out + 1] = table.concat(lines, "\n")
end
out[#out + 1] = "#endif"
print(table.concat(out, "\n"))
