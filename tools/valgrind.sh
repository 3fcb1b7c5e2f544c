#!/bin/sh
# make valgrind: the busted suite under memcheck (lua5.4, build/), but for
# the tests tagged #heavy. memcheck runs one thread, so the spec files are
# dealt into JOBS shards and the shards run at once, each its own busted
# under its own valgrind; their TAP logs are joined into build/valgrind.log.
# Any memcheck error (reported on lines starting with ==), definite leak or
# failed spec fails the run. The shards are dealt by each file's time
# alone under memcheck, in tools/valgrind.weights (a file not there weighs
# its size in KB): heaviest first, each to the shard with the least time so
# far. (Dealt by size, one shard took 21 minutes and the other 12: a file's
# size is not its time; attention_spec, 6% of the bytes, was then a third
# of the time.)
# A shard under memcheck takes up to ~1.5 GiB: no more shards than
# MemAvailable / 2 GiB. Interrupted, the shards are stopped with it.
# usage: sh tools/valgrind.sh [JOBS]
set -u
jobs=${1:-1}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
mem=$(awk '/^MemAvailable:/ { print int($2 / 2097152) }' /proc/meminfo 2>/dev/null)
[ "${mem:-0}" -ge 1 ] 2>/dev/null || mem=1
if [ "$jobs" -gt "$mem" ]; then
  echo "valgrind: $mem shards, not $jobs: $mem x 2 GiB available"
  jobs=$mem
fi
dir=build/valgrind
rm -rf "$dir" && mkdir -p "$dir"
[ -r tools/valgrind.weights ] || { echo "valgrind: tools/valgrind.weights is missing"; exit 1; }
# shellcheck disable=SC2012 # spec file names have no spaces
ls -l spec/*_spec.lua | awk '
  FILENAME == "tools/valgrind.weights" { if ($1 !~ /^#/) w[$2] = $1; next }
  { print (($NF in w) ? w[$NF] : int($5 / 1000)), $NF }' tools/valgrind.weights - |
  sort -k1,1nr -k2 | awk -v n="$jobs" -v dir="$dir" '
  BEGIN { for (k = 0; k < n; k++) load[k] = 0 }
  {
    best = 0
    for (k = 1; k < n; k++) if (load[k] < load[best]) best = k
    load[best] += $1
    print $2 > (dir "/shard" best)
  }'
pids=""
trap 'kill $pids 2>/dev/null; exit 130' INT
trap 'kill $pids 2>/dev/null; exit 143' TERM
for s in "$dir"/shard*; do
  # shellcheck disable=SC2046 # one file name a word
  OPENBLAS_NUM_THREADS=1 valgrind --quiet --error-exitcode=1 --leak-check=full \
    --num-callers=60 --suppressions=spec/mpi/valgrind.supp \
    --errors-for-leak-kinds=definite --show-leak-kinds=definite --trace-children=yes \
    --trace-children-skip='*/sh,*/ls' lua5.4 /usr/bin/busted --ignore-lua --lua=lua5.4 \
    --exclude-tags=heavy -o TAP $(cat "$s") > "$s.log" 2>&1 &
  pids="$pids $!"
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
cat "$dir"/shard*.log > build/valgrind.log
grep -E '^==|^not ok' build/valgrind.log
for s in "$dir"/shard*.log; do tail -1 "$s"; done
echo "valgrind: $(grep -c '^ok' build/valgrind.log) specs passed, exit $rc"
exit $rc
