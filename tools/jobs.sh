# Sourced by the install checks: the builds luarocks and make run there take
# a job per core, unless make was given its own -j (a -j after make's "--",
# before its variables, is lost).
n=$(nproc 2>/dev/null || echo 1)
case " ${MAKEFLAGS:-} " in
  *" -j"*) ;;
  *" -- "*) MAKEFLAGS="${MAKEFLAGS%% -- *} -j$n -- ${MAKEFLAGS#* -- }" ;;
  *) MAKEFLAGS="${MAKEFLAGS:-} -j$n" ;;
esac
export MAKEFLAGS
