#!/bin/sh
# tools/bench_sort.sh [rounds [pattern]]: for each case of tools/bench_sort.lua
# (whose name contains pattern), interleaved rounds of that case alone in a
# fresh process: lua5.4 with ./build, then NumPy (tools/bench_sort.py), 1
# thread, best of 5 runs a round (LA_BUILD=dir times dir/linalg/core.so);
# prints the best times and linalg / NumPy.
R=${1:-5}; F=$2
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
B=${LA_BUILD:-./build}   # LA_BUILD: another build of the module to time
export LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="$B/?.so;;"
T=$(mktemp -d)
for c in $(lua5.4 tools/bench_sort.lua 1 list); do
  case "$c" in *"$F"*) ;; *) continue ;; esac
  i=0
  while [ $i -lt "$R" ]; do
    lua5.4 tools/bench_sort.lua 5 "$c" >> "$T/la"
    /usr/bin/python3 tools/bench_sort.py 5 "$c" >> "$T/np"
    i=$((i + 1))
  done
done
awk 'FNR == NR { if (!($1 in a) || $2 < a[$1]) a[$1] = $2; next }
     { if (!($1 in b) || $2 < b[$1]) b[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
     END { printf "%-20s %12s %12s %7s\n", "case", "linalg", "numpy", "ratio";
           for (k = 1; k <= n; k++) { c = order[k]; printf "%-20s %12.3e %12.3e %7.2f\n", c, a[c], b[c], a[c] / b[c] } }' "$T/la" "$T/np"
rm -rf "$T"
