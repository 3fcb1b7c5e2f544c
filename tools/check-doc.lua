-- Checks the HTML reference that `make doc` wrote into doc/ (run from the
-- checkout, after make doc; .ci/run does both):
--  * no unescaped placeholder: every tag in the pages is an HTML tag LDoc or
--    markdown writes (`<function>` outside code would be swallowed as a tag);
--  * every public function of `linalg` has an entry, and every entry shows
--    its parameters: a signature naming them and a Parameters list with one
--    item per name (functions that take none are listed below), at least as
--    many as the README's API table shows for it (`la.f(A, b [, opts])`, or
--    `A:f(...)` with A counted).
-- Prints each problem; exits 1 if there is any. usage: lua5.4 tools/check-doc.lua [dir]
-- (dir: where the pages are, default doc); any Lua 5.1+ runs it, with
-- LINALG_CPATH naming the module's build for that Lua (default ./build/?.so;)
package.path = "./lua/?.lua;./lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("LINALG_CPATH") or "./build/?.so;") .. package.cpath
local la = require "linalg"
local DIR = arg[1] or "doc"

local NO_ARGS = {config = true, version = true}
local HTML = {}
for t in ([[html head body title meta link style script div span p a code pre h1 h2 h3 h4 h5 h6
  ul ol li dl dt dd table thead tbody tr td th em strong b i tt br hr img sup sub blockquote big
  !doctype]]):gmatch("%S+") do HTML[t] = true end

local problems = 0
local function problem(fmt, ...)
  problems = problems + 1
  io.write(string.format(fmt, ...), "\n")
end

local function read(path)
  local f = assert(io.open(path))
  local s = f:read("*a")
  f:close()
  return s
end

-- the README's signatures: the most arguments any of its calls shows
local readme = {}
local function count_args(args)
  local n = 0
  for a in args:gsub("%b()", "x"):gsub("%b{}", "x"):gsub("[%[%]]", ""):gmatch("[^,]+") do   -- a nested call is one argument
    if a:match("%S") and not a:match("^%s*%.%.%.%s*$") then n = n + 1 end
  end
  return n
end
for line in io.lines("README.md") do
  for name, args in line:gmatch("`la%.([%w_]+)(%b())") do
    readme[name] = math.max(readme[name] or 0, count_args(args:sub(2, -2)))
  end
  for name, args in line:gmatch("`la%.([%w_]+%.[%w_]+)(%b())") do   -- la.random.randn(...)
    readme[name] = math.max(readme[name] or 0, count_args(args:sub(2, -2)))
  end
  for name, args in line:gmatch("`%u:([%w_]+)(%b())") do
    readme[name] = math.max(readme[name] or 0, 1 + count_args(args:sub(2, -2)))
  end
end

local pages = {"linalg.core", "linalg", "linalg.io", "linalg.svg"}
local topics = {"../topics/README.md"}
local documented = {}
local all = {}
for _, p in ipairs(pages) do all[#all + 1] = p end
for _, p in ipairs(topics) do all[#all + 1] = p end
for _, page in ipairs(all) do
  local path = DIR .. "/modules/" .. page .. ".html"
  local html = read(path)
  -- placeholders read as tags
  local lineno = 1
  for line in (html .. "\n"):gmatch("(.-)\n") do
    for tag in line:gmatch("<%s*/?%s*([^%s>/]+)") do
      local name = tag:lower()
      if not HTML[name] and not name:match("^!%-%-") then
        problem("%s:%d: unescaped <%s> (write it inside backticks or as &lt;%s&gt;)", path, lineno, tag, tag)
      end
    end
    if line:find("<code>[^<]*&[nm]dash;") then
      problem("%s:%d: a dash typeset inside code (\"--\" read as punctuation)", path, lineno)
    end
    lineno = lineno + 1
  end
  -- entries (the Lua front's are named la.f): <dt> ... <strong>name (args)</strong> ... </dt> <dd> ... </dd>
  for name, sig, body in html:gmatch('<dt>%s*<a name = "([^"]+)"></a>%s*<strong>(.-)</strong>%s*</dt>%s*<dd>(.-)</dd>') do
    local args = sig:match("%((.*)%)")
    -- la.f and f are `la.f`; a function of a subtable or a method of
    -- another type keeps its prefix (random.randn is not randn)
    local prefix = name:match("^([%w_]+)[.:]")
    local short = (prefix and prefix ~= "la") and name or name:match("([%w_]+)$")
    documented[short] = true
    if args then
      local names = {}
      for a in args:gsub("[%[%]]", ""):gmatch("[^,%s]+") do names[#names + 1] = a end
      if #names == 0 and not NO_ARGS[short] then
        problem("%s: %s lists no parameters", path, name)
      end
      if readme[short] and #names < readme[short] and not args:find("...", 1, true) then
        problem("%s: %s lists %d parameters (%s) where the README shows %d", path, name, #names, args, readme[short])
      end
      local items = 0
      local params = body:match("<h3>Parameters:</h3>(.-)</ul>")
      if params then for _ in params:gmatch("<li>") do items = items + 1 end end
      for pname, what in (params or ""):gmatch('<li><span class="parameter">([^<]*)</span>(.-)</li>') do
        if not what:gsub("<[^>]*>", ""):match("%S") then
          problem("%s: %s: parameter %s has neither a type nor a description", path, name, pname)
        end
      end
      if items ~= #names then
        problem("%s: %s has %d names in its signature but %d parameter items", path, name, #names, items)
      end
    end
  end
  -- the index's summaries: cut at a ". " inside a formula ("u . v") they end
  -- in " ." or leave a code span open (a literal backtick)
  for name, summary in html:gmatch('<td class="name" nowrap><a href="#([^"]+)">.-</td>%s*<td class="summary">(.-)</td>') do
    if summary:find("`", 1, true) or summary:match("%s%.$") then
      problem("%s: the summary of %s is cut: %s", path, name, summary)
    end
  end
end

for k, v in pairs(la) do
  if type(v) == "function" and not documented[k] then problem("no reference entry for la.%s", k) end
end

if problems > 0 then
  io.write(problems, " problem(s) in ", DIR, "/\n")
  os.exit(1)
end
io.write("doc: every public function documented with its parameters; no unescaped placeholders\n")
