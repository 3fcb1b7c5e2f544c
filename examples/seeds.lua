-- The span example of the seed texts: X w is a combination of X's columns.
local la = require "linalg"

local X = la.matrix{{1, 2}, {3, 4}, {5, 6}}
local w = la.vector{2, -1}
local yhat = X * w
local combo = 2 * X:col(1) - 1 * X:col(2)

print("X =", X)
print("w =", w)
print("yhat = X * w =", yhat)
print("check combo = 2*X[:,1] - 1*X[:,2] =", combo)
print("equal:", yhat == combo)
assert(yhat == la.vector{0, 2, 4}, "yhat should be [0, 2, 4]")
