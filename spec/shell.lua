-- sh(cmd) -> output (stdout and stderr), ok: runs cmd without the sanitizer
-- runtime that check-asan preloads (ldoc, make, cc, pkg-config: their own
-- leaks at exit are not ours, and would fail the commands). Shared by the
-- specs that drive external tools. ok is true when the command exits 0
-- (read from the shell: closing a pipe gives no status on 5.1 and LuaJIT).
return function(cmd)
  local p = io.popen("unset LD_PRELOAD ASAN_OPTIONS; " .. cmd .. " 2>&1; echo \"[exit $?]\"")
  local out = p:read("*a")
  p:close()
  local code = tonumber(out:match("%[exit (%d+)%]\n$"))
  return (out:gsub("%[exit %d+%]\n$", "")), code == 0
end
