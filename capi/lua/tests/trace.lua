-- `animvm --trace` through the LuaJIT binding (capi/tests/lua.rs compares
-- the two byte for byte):
--
--   luajit trace.lua BUNDLE STATE TICKS [SNAPSHOT_AT]
--
-- plays STATE of the bundle's first sprite module for TICKS ticks, one JSON
-- line a tick; at tick SNAPSHOT_AT the batch is saved, freed, and restored
-- into a new one. Run with package.path reaching capi/lua/.

local animkit = require("animkit")

-- A JSON string as serde_json writes it.
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t',
                  ['\b'] = '\\b', ['\f'] = '\\f' }
local function json(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return escapes[c] or (c:byte() < 0x20 and string.format("\\u%04x", c:byte())) or c
  end) .. '"'
end

local function main(path, state, ticks, snapshot_at)
  local f = assert(io.open(path, "rb"))
  local bundle = animkit.open(f:read("*a"))
  f:close()
  local name
  for _, m in ipairs(bundle:modules()) do
    if m[2] == animkit.MODULE_SPRITE then name = name or m[1] end
  end
  local hero = bundle:sprite(name)
  local batch = hero:batch()
  batch:spawn(hero:state(state))
  local out = {}
  for t = 0, ticks - 1 do
    if t == snapshot_at then
      local saved = batch:snapshot()
      batch:free()
      batch = hero:batch()
      batch:restore(saved)
    end
    batch:tick()
    local now = batch:state(0)
    local events = {}
    for _, e in ipairs(batch:drain_events()) do
      events[#events + 1] = json(hero:event_name(e.event))
    end
    out[#out + 1] = string.format('{"tick":%d,"state":%s,"category":%s,"frame":%d,"events":[%s]}\n', t,
      json(hero:state_name(now)), json(hero:category(now)), batch:frame(0), table.concat(events, ","))
  end
  io.stdout:write(table.concat(out))
end

if #arg < 3 then
  io.stderr:write("usage: luajit trace.lua BUNDLE STATE TICKS [SNAPSHOT_AT]\n")
  os.exit(2)
end
local ok, err = pcall(main, arg[1], arg[2], tonumber(arg[3]), tonumber(arg[4] or "-1"))
if not ok then
  io.stderr:write("trace.lua: " .. tostring(err) .. "\n")
  os.exit(1)
end
