#!/bin/sh
# make valgrind: the busted suite under memcheck (lua5.4, build/), but for
# the tests tagged #heavy. memcheck runs one thread, so the spec files are
# dealt into JOBS shards (largest files first, in turn) and the shards run
# at once, each its own busted under its own valgrind; their TAP logs are
# joined into build/valgrind.log. Any memcheck error (reported on lines
# starting with ==), definite leak or failed spec fails the run.
# usage: sh tools/valgrind.sh [JOBS]
set -u
jobs=${1:-1}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
dir=build/valgrind
rm -rf "$dir" && mkdir -p "$dir"
i=0
for f in $(ls -S spec/*_spec.lua); do
  echo "$f" >> "$dir/shard$((i % jobs))"
  i=$((i + 1))
done
pids=""
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
