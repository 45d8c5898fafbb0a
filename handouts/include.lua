-- spinkit handouts: pandoc Lua filter.
--  * A code block with class "include" is replaced, at build time, by the
--    part of a stage patch that touches one file:
--        ```{.include stage="3" file="kernel/locking/kit_mutex.c"}
--        ```
--    (the patch is stages/NN-SLUG.patch, the slug from stages/manifest.tsv)
--    or by a whole kit file: ```{.include src="guest/bin/kit-contend"}```,
--    or, for ```{.include manifest="stages"}```, by the table of the
--    stages made from stages/manifest.tsv, and for
--    ```{.include checks="totals"}``` by each stage's checks and points,
--    as scripts/grade counts them from course/checks.tsv.
--    so that code in a handout cannot go stale.
--  * Inline code with class "threshold", `PERF_MIN`{.threshold}, is
--    replaced by that threshold's value in guest/bin/kit-check, the
--    kit's one copy of them.
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

-- records(FILE): the records of one of the kit's tables (stages/
-- manifest.tsv, course/checks.tsv), in order, each a table keyed by the
-- names of its header line ("#stage\tslug\t..."); "-" is kept as it is.
local function records(file)
  local names, out = nil, {}
  for line in (read(root .. "/" .. file) .. "\n"):gmatch("(.-)\n") do
    local fields = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do
      fields[#fields + 1] = field
    end
    if line:match("^#%w+\t") then
      names = fields
      names[1] = names[1]:sub(2)
    elseif names and line:match("^%w") then
      local r = {}
      for k, name in ipairs(names) do
        r[name] = fields[k]
      end
      out[#out + 1] = r
    end
  end
  return out
end

-- The stages, in order, each with its name "NN-SLUG" besides its fields.
local function stages()
  local out = records("stages/manifest.tsv")
  for _, s in ipairs(out) do
    s.name = string.format("%02d-%s", tonumber(s.stage), s.slug)
  end
  return out
end

-- patch_of("3"): "03-spin-loop.patch", from the stage's record.
local function patch_of(stage)
  for _, s in ipairs(stages()) do
    if s.stage == stage then
      return s.name .. ".patch"
    end
  end
  error("handouts: no stage " .. stage .. " in stages/manifest.tsv")
end

-- Each stage's grade, from course/checks.tsv: the number of checks and
-- the points, a row per stage from 1 to the newest.
local function check_totals()
  -- the grader's own count (scripts/grade N --checks): what a check is
  -- worth depends on whether it is the stage's own, a rule kept there
  local rows = {"| stage | checks | of them required | points | the stage's own |",
    "|---|---|---|---|---|"}
  for _, s in ipairs(stages()) do
    local n = tonumber(s.stage)
    if n >= 1 then
      local out = pandoc.pipe(root .. "/scripts/grade", {tostring(n), "--checks"}, "")
      local count, required, own, total = 0, 0, 0, nil
      for line in out:gmatch("[^\n]+") do
        local pts, kind = line:match("^%s*(%d+)%s+(%a+)")
        if kind == "total" then
          total = pts
        elseif kind then
          count = count + 1
          if kind == "required" then required = required + 1 end
          if kind == "stage" then own = own + tonumber(pts) end
        end
      end
      if not total then
        error("handouts: scripts/grade " .. n .. " --checks printed no total")
      end
      rows[#rows + 1] = string.format("| %d | %d | %d | %s | %d |", n, count, required, total, own)
    end
  end
  return pandoc.read(table.concat(rows, "\n"), "markdown").blocks
end

-- The stages as a Markdown table, parsed: one row a record.
local function stage_table()
  local rows = {"| stage | adds | upstream | release | handout |", "|---|---|---|---|---|"}
  for _, s in ipairs(stages()) do
    local up = s.upstream == "-" and "the 2.6.28 mutex" or
      "`" .. s.upstream:gsub(",", "`, `") .. "`"
    rows[#rows + 1] = string.format("| %s | %s | %s | %s | [Stage %s](stage-%s.html) |",
      s.stage, s.title, up, s.release, s.stage, s.name)
  end
  return pandoc.read(table.concat(rows, "\n"), "markdown").blocks
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
  if a.stage then
    -- A student kit leaves out the patches of the stages to be written,
    -- and the records of those after its assignment.
    local ok, patch = pcall(patch_of, a.stage)
    local f = ok and io.open(root .. "/stages/" .. patch, "r")
    if not f and io.open(root .. "/course/STUDENT-KIT", "r") then
      return pandoc.Para({pandoc.Emph({pandoc.Str(
        "(This stage's code is yours to write: see course/.)")})})
    end
    if not ok then error(patch) end
    if f then f:close() end
    return pandoc.CodeBlock(diff_of(patch, a.file), {class = "diff"})
  elseif a.manifest == "stages" then
    return stage_table()
  elseif a.checks == "totals" then
    return check_totals()
  elseif a.src then
    local lang = a.lang or (a.src:match("%.c$") and "c") or "sh"
    return pandoc.CodeBlock(read(root .. "/" .. a.src), {class = lang})
  end
  error("handouts: an include block needs stage= or src=")
end

function Code(el)
  if not el.classes:includes("threshold") then
    return nil
  end
  local value = read(root .. "/guest/bin/kit-check"):match(el.text .. "=%${" .. el.text .. ":%-(%d+)}")
  if not value then
    error("handouts: no threshold " .. el.text .. " in guest/bin/kit-check")
  end
  return pandoc.Str(value)
end

function Link(el)
  -- handouts/X.md -> X.html beside it; ../P (a kit file, from handouts/)
  -- -> the file in the kit's checkout, whose path the built handouts
  -- (in KIT_WORK/handouts) cannot reach relatively
  el.target = el.target:gsub("^([%w%-%.]+)%.md(#?.*)$", "%1.html%2")
  el.target = el.target:gsub("^%.%./", root .. "/")
  return el
end
