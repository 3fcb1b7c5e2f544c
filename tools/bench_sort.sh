#!/bin/sh
# tools/bench_sort.sh [rounds [filter]]: interleaved rounds of
# tools/bench_sort.lua (lua5.4, ./build) and tools/bench_sort.py (NumPy),
# 1 thread; prints each case's best times and the ratio linalg / NumPy.
R=${1:-5}; F=$2
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
T=$(mktemp -d)
i=0
while [ $i -lt "$R" ]; do
  LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="./build/?.so;;" lua5.4 tools/bench_sort.lua 3 $F >> "$T/la"
  /usr/bin/python3 tools/bench_sort.py 3 $F >> "$T/np"
  i=$((i + 1))
done
awk 'FNR == NR { if (!($1 in a) || $2 < a[$1]) a[$1] = $2; next }
     { if (!($1 in b) || $2 < b[$1]) b[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
     END { printf "%-20s %12s %12s %7s\n", "case", "linalg", "numpy", "ratio";
           for (k = 1; k <= n; k++) { c = order[k]; printf "%-20s %12.3e %12.3e %7.2f\n", c, a[c], b[c], a[c] / b[c] } }' "$T/la" "$T/np"
rm -rf "$T"
