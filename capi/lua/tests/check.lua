-- Checks of the LuaJIT binding beyond the trace (run by capi/tests/lua.rs):
-- hostile calls raise animkit.Error with the documented statuses and
-- messages, freed objects pass NULL (ANIMKIT_STATUS_NULL_POINTER) and are
-- never freed twice, handles outlive the ones they were made from.
--
--   luajit check.lua HERO.animb STORY.animb

local animkit = require("animkit")
local ffi = require("ffi")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local data = f:read("*a")
  f:close()
  return data
end

local function expect(status, message, f, ...)
  local ok, e = pcall(f, ...)
  assert(not ok, "no error; expected " .. message)
  assert(getmetatable(e) == animkit.Error, "not an animkit.Error: " .. tostring(e))
  if e.status ~= status or e.message ~= message then
    error(string.format("expected %d `%s`, got %d `%s`", status, message, e.status, e.message))
  end
  print(tostring(e))
end

assert(animkit.version() == 100 and animkit.bundle_format() == 3)
print("version " .. animkit.version_string())

local data = read(arg[1])
expect(4, "animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)",
  animkit.open, "GIF89a")
expect(7, string.format("animkit_bundle_open: truncated bundle: expected %d bytes, found %d", #data, #data - 1),
  animkit.open, data:sub(1, -2))
expect(4, "animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)",
  animkit.open, nil)

local bundle = animkit.open(data)
local names = {}
for _, m in ipairs(bundle:modules()) do names[#names + 1] = m[1] .. " " .. m[2] end
print("modules: " .. table.concat(names, ", "))
expect(9, "animkit_bundle_sprite: no module named `hera` in the bundle; did you mean `hero`?", bundle.sprite, bundle, "hera")
expect(1, "animkit_bundle_sprite: `name` is NULL", bundle.sprite, bundle, nil)
local hero = bundle:sprite("hero")
expect(11, "animkit_sprite_state: no state named `walk` in sprite module `hero`; did you mean `Walk`?",
  hero.state, hero, "walk")
expect(1, "animkit_sprite_state: `name` is NULL", hero.state, hero, nil)
expect(12, "animkit_sprite_event: no event named `Walk` in sprite module `hero`", hero.event, hero, "Walk")

local crowd = hero:batch()
for phase = 0, 2 do crowd:spawn(hero:state("Walk"), phase * 6) end
crowd:set_speed(2, 2)
crowd:advance(1000003)
local frames, n = crowd:frames()
local list = {}
for i = 0, n - 1 do list[#list + 1] = tostring(frames[i]) end
print(string.format("after 1000003 ticks: frames [%s] events %d dropped %d speed %d", table.concat(list, ", "),
  #crowd:drain_events(), crowd:dropped_events(), crowd:speed(2)))
crowd:set_state(0, "Jump")
crowd:tick()
print(string.format("Jump by name: %s %d %d", hero:state_name(crowd:state(0)), crowd:frame(0), crowd:time_in_state(0)))
expect(13, "animkit_batch_frame: instance 3 is past the end of the batch (3 instances)", crowd.frame, crowd, 3)
expect(2, "animkit_batch_set_speed: the speed 1/0 divides by 0", crowd.set_speed, crowd, 0, 1, 0)
local saved = crowd:snapshot()
local other = hero:batch()
other:restore(saved)
assert(other:len() == 3 and other:frame(2) == crowd:frame(2))
expect(16, "animkit_batch_restore: the snapshot is cut short", other.restore, other, saved:sub(1, -2))
print(string.format("snapshot of %d bytes restored", #saved))

-- Hot reload onto the same build, opened again: nothing changes.
local again = animkit.open(data):sprite("hero")
local before = crowd:frame(2)
local r = crowd:reload(again, again:state("Idle"))
print(string.format("reloaded: fell back %d, clamped %d, dropped %d, vanished %d, frame kept %s", r.fell_back,
  r.clamped, r.dropped_events, r.vanished, tostring(crowd:frame(2) == before)))
expect(11, "animkit_batch_reload: state 99 is past the 9 states of sprite module `hero`", crowd.reload, crowd,
  again, 99)
expect(1, "animkit_batch_reload: `sprite` is NULL", crowd.reload, crowd, nil, 0)
again:free()

-- A bundle's pointer given as a batch: the library's tag check.
local wrong = animkit.C.animkit_batch_tick(ffi.cast("AnimkitSpriteBatch *", bundle.h))
print("a bundle as a batch: " .. animkit.status_name(wrong))

-- Freed objects: NULL to the library; a second free does nothing.
other:free()
other:free()
expect(1, "animkit_batch_tick: `batch` is NULL", other.tick, other)
expect(1, "animkit_batch_state: `batch` is NULL", other.state, other, 0)

-- A batch outlives its module and bundle.
hero:free()
bundle:free()
expect(1, "animkit_bundle_sprite: `bundle` is NULL", bundle.sprite, bundle, "hero")
crowd:tick()
print(string.format("after its bundle and module: frame %d, %d animations", crowd:frame(0), crowd:len()))
crowd:free()

-- Handles the script forgets: ffi.gc frees each once. Six rounds of 3000
-- bundles, modules and batches; were they not freed, rounds 2 to 6 would
-- grow the resident memory by about 110 MB.
local rss = {}
for round = 1, 6 do
  for _ = 1, 3000 do
    animkit.open(data):sprite("hero"):batch():spawn(0)
  end
  collectgarbage()
  collectgarbage()
  local statm = assert(io.open("/proc/self/statm"))
  rss[round] = tonumber(statm:read("*l"):match("^%d+ (%d+)")) * 4096
  statm:close()
end
assert(rss[6] - rss[2] <= 16e6, "leak: rounds 2 to 6 grew by " .. (rss[6] - rss[2]) .. " bytes")
print("18000 forgotten bundles, modules and batches freed by the GC")

local story = animkit.open(read(arg[2]))
local name = story:modules()[1][1]
expect(10, "animkit_bundle_sprite: module `" .. name .. "` is a SLAP scene, not a sprite module", story.sprite, story, name)
local scene = story:scene(name)
local length = scene:length()
scene:advance(length)
local _, count = scene:actors()
print(string.format("scene %s: frame %d of %d, finished %s, %d actors, errors %d", name, scene:frame(), length,
  tostring(scene:is_finished()), count, scene:error_count()))
expect(13, "animkit_scene_actor: no actor 99 on stage at frame 1200", scene.actor, scene, 99)
