--- linalg: dense linear algebra for Lua 5.4 on OpenBLAS and LAPACKE.
-- The C core (`linalg.core`) holds the matrix type and the numerical
-- functions; this module adds the functions written in Lua and makes every
-- function a method too, so `A:lstsq(b)` is `la.lstsq(A, b)`.
-- @module linalg
local core = require "linalg.core"

local la = {}
for k, v in pairs(core) do la[k] = v end

return la
