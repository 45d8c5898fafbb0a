-- spinkit handouts: pandoc Lua filter.
--  * A code block with class "include" is replaced, at build time, by the
--    part of a stage patch that touches one file:
--        ```{.include patch="3-spin-loop.patch" file="kernel/locking/kit_mutex.c"}
--        ```
--    or by a whole kit file: ```{.include src="guest/bin/kit-contend"}```
--    so that code in a handout cannot go stale.
--  * Links to other handouts (*.md) point at their HTML.
local root = os.getenv("KIT_ROOT") or ".."

local function read(path)
  local f = io.open(path, "r")
  if not f then
    error("handouts: cannot read " .. path)
  end
  local s = f:read("a")
  f:close()
  return s
end

local function diff_of(patch, file)
  local text = read(root .. "/stages/" .. patch)
  local out, keep = {}, false
  for line in (text .. "\n"):gmatch("(.-)\n") do
    if line:match("^diff %-%-git ") then
      keep = (file == nil) or line:match(" b/" .. file:gsub("%p", "%%%0") .. "$") ~= nil
    elseif line:match("^%-%- $") then
      keep = false
    end
    if keep then
      out[#out + 1] = line
    end
  end
  if #out == 0 then
    error("handouts: " .. patch .. " does not touch " .. tostring(file))
  end
  return table.concat(out, "\n")
end

function CodeBlock(el)
  if not el.classes:includes("include") then
    return nil
  end
  local a = el.attributes
  if a.patch then
    -- A student kit leaves out the patches of the stages to be written.
    local f = io.open(root .. "/stages/" .. a.patch, "r")
    if not f and io.open(root .. "/course/STUDENT-KIT", "r") then
      return pandoc.Para({pandoc.Emph({pandoc.Str(
        "(This stage's code is yours to write: see course/.)")})})
    end
    if f then f:close() end
    return pandoc.CodeBlock(diff_of(a.patch, a.file), {class = "diff"})
  elseif a.src then
    local lang = a.lang or (a.src:match("%.c$") and "c") or "sh"
    return pandoc.CodeBlock(read(root .. "/" .. a.src), {class = lang})
  end
  error("handouts: an include block needs patch= or src=")
end

function Link(el)
  -- handouts/X.md -> X.html beside it; ../P (from handouts/) -> ../../P
  -- (from handouts/build/)
  el.target = el.target:gsub("^([%w%-]+)%.md(#?.*)$", "%1.html%2")
  el.target = el.target:gsub("^%.%./", "../../")
  return el
end
