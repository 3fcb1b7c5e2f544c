-- sh(cmd) -> output (stdout and stderr), ok: runs cmd without the sanitizer
-- runtime that check-asan preloads (ldoc, make, cc, pkg-config: their own
-- leaks at exit are not ours, and would fail the commands). Shared by the
-- specs that drive external tools.
return function(cmd)
  local p = io.popen("unset LD_PRELOAD ASAN_OPTIONS; " .. cmd .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end
