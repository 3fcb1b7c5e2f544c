#!/bin/sh
# How an MPI job ends when rank 1 leaves while the others wait for it in a
# collective (spec/mpi/dies.lua): each run must end within its timeout, with
# the status and the messages expected. Usage, from the checkout under make
# test-mpi's environment: sh spec/mpi/dies.sh [lua]
LUA=${1:-lua5.4}
LIMIT=15
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=0

# expect NP HOW STATUS TEXT...: STATUS a number or "nonzero"; each TEXT must
# appear in the output, or with a leading "!" must not
expect() {
  np=$1 how=$2 want=$3
  shift 3
  start=$(date +%s)
  timeout $LIMIT mpirun --oversubscribe -np "$np" "$LUA" spec/mpi/dies.lua "$how" >"$log" 2>&1
  rc=$?
  bad=""
  if [ "$rc" = 124 ]; then bad="hung: killed after $LIMIT s"
  elif [ "$want" = nonzero ] && [ "$rc" = 0 ]; then bad="status 0"
  elif [ "$want" != nonzero ] && [ "$rc" != "$want" ]; then bad="status $rc, expected $want"
  fi
  for text in "$@"; do
    case $text in
      !*) ! grep -qF -- "${text#!}" "$log" || bad="$bad; output has '${text#!}'" ;;
      *) grep -qF -- "$text" "$log" || bad="$bad; output lacks '$text'" ;;
    esac
  done
  echo "  $np ranks, rank 1 leaves by $how: status $rc after $(( $(date +%s) - start )) s${bad:+: FAILED ($bad)}"
  if [ -n "$bad" ]; then failed=1; sed 's/^/    | /' "$log"; fi
}

expect 2 error 1 "deliberate failure" "linalg.mpi: rank 1 of 2 is exiting with status 1" "!done"
expect 3 error 1 "deliberate failure" "linalg.mpi: rank 1 of 3 is exiting with status 1" "!done"
expect 2 exit 3 "linalg.mpi: rank 1 of 2 is exiting with status 3" "!done"
expect 2 kill nonzero "rank 1" "!done"
expect 2 pcall 0 "rank 0 done" "rank 1 done"
exit $failed
