-- animkit.lua: a LuaJIT FFI binding of libanimkit, the C ABI of animkit
-- (docs/capi.md). For LÖVE, Defold and the other engines that run LuaJIT.
--
--   local animkit = require("animkit")   -- loads $ANIMKIT_LIB, else "animkit"
--   local bundle = animkit.open(io.open("hero.animb", "rb"):read("*a"))
--   local hero = bundle:sprite("hero")
--   local walk, step = hero:state("Walk"), hero:event("step")
--   local crowd = hero:batch()
--   crowd:spawn(walk)
--   crowd:tick()                           -- every fixed update
--   print(crowd:frame(0))
--   for _, e in ipairs(crowd:drain_events()) do
--     if e.event == step then play_step(e.instance) end
--   end
--
-- A failing call raises an animkit.Error table: {status = 11, name =
-- "unknown state" (animkit_status_name), message = "animkit_sprite_state:
-- ..."} (tostring gives "name: message"); catch it with pcall. Handles are freed
-- by the garbage collector (ffi.gc) or at once with :free(); a freed
-- object passes NULL to the library, so its methods raise
-- ANIMKIT_STATUS_NULL_POINTER, never touch freed memory, and a second
-- :free() does nothing. Numbers (states, events, frames, counts) are Lua
-- numbers; instance indices are from 0, as in C.

-- Defold offers the FFI as package.preload.ffi() rather than require("ffi").
local has_ffi, ffi = pcall(require, "ffi")
if not has_ffi then
  ffi = assert(package.preload.ffi, "animkit.lua needs LuaJIT's FFI")()
end

ffi.cdef [[
typedef struct AnimkitBundle AnimkitBundle;
typedef struct AnimkitSprite AnimkitSprite;
typedef struct AnimkitSpriteBatch AnimkitSpriteBatch;
typedef struct AnimkitScene AnimkitScene;
typedef int32_t AnimkitStatus;
typedef int32_t AnimkitModuleKind;
typedef uint32_t AnimkitState;
typedef uint32_t AnimkitEvent;
typedef struct AnimkitPose {
  float body_height, body_pitch, body_roll, head_pitch, head_yaw, leg_swing_left, leg_swing_right,
        leg_lift_left, leg_lift_right, wing_lift, leg_tuck;
} AnimkitPose;
typedef struct AnimkitActor {
  uint32_t id; uint32_t action; double position[3]; double heading; double color[3]; double size;
  AnimkitPose pose;
} AnimkitActor;
typedef struct AnimkitCamera { double position[3]; double direction[3]; } AnimkitCamera;
typedef struct AnimkitInstanceEvent { uint32_t instance; AnimkitEvent event; } AnimkitInstanceEvent;
typedef struct AnimkitReloadReport { size_t fell_back; size_t clamped; size_t dropped_events; size_t vanished; } AnimkitReloadReport;

uint32_t animkit_version(void);
const char *animkit_version_string(void);
uint16_t animkit_bundle_format(void);
const char *animkit_last_error(void);
const char *animkit_status_name(int32_t status);

AnimkitStatus animkit_bundle_open(const uint8_t *bytes, size_t len, AnimkitBundle **out_bundle);
void animkit_bundle_free(AnimkitBundle *bundle);
AnimkitStatus animkit_bundle_module_count(const AnimkitBundle *bundle, size_t *out_count);
AnimkitStatus animkit_bundle_module(const AnimkitBundle *bundle, size_t index, const char **out_name,
                                    AnimkitModuleKind *out_kind);
AnimkitStatus animkit_bundle_sprite(const AnimkitBundle *bundle, const char *name, AnimkitSprite **out_sprite);
AnimkitStatus animkit_bundle_scene(const AnimkitBundle *bundle, const char *name, AnimkitScene **out_scene);

void animkit_sprite_free(AnimkitSprite *sprite);
AnimkitStatus animkit_sprite_state(const AnimkitSprite *sprite, const char *name, AnimkitState *out_state);
AnimkitStatus animkit_sprite_state_count(const AnimkitSprite *sprite, size_t *out_count);
AnimkitStatus animkit_sprite_state_name(const AnimkitSprite *sprite, AnimkitState state, const char **out_name);
AnimkitStatus animkit_sprite_category(const AnimkitSprite *sprite, AnimkitState state, const char **out_name);
AnimkitStatus animkit_sprite_event(const AnimkitSprite *sprite, const char *name, AnimkitEvent *out_event);
AnimkitStatus animkit_sprite_event_name(const AnimkitSprite *sprite, AnimkitEvent event, const char **out_name);
AnimkitStatus animkit_sprite_batch_new(const AnimkitSprite *sprite, AnimkitSpriteBatch **out_batch);

void animkit_batch_free(AnimkitSpriteBatch *batch);
AnimkitStatus animkit_batch_spawn(AnimkitSpriteBatch *batch, AnimkitState state, uint32_t phase, uint32_t *out_index);
AnimkitStatus animkit_batch_len(const AnimkitSpriteBatch *batch, size_t *out_len);
AnimkitStatus animkit_batch_tick(AnimkitSpriteBatch *batch);
AnimkitStatus animkit_batch_advance(AnimkitSpriteBatch *batch, uint32_t ticks);
AnimkitStatus animkit_batch_set_state(AnimkitSpriteBatch *batch, uint32_t index, AnimkitState state, uint32_t phase);
AnimkitStatus animkit_batch_set_state_by_name(AnimkitSpriteBatch *batch, uint32_t index, const char *name,
                                              uint32_t phase);
AnimkitStatus animkit_batch_restart(AnimkitSpriteBatch *batch, uint32_t index, AnimkitState state, uint32_t phase);
AnimkitStatus animkit_batch_set_speed(AnimkitSpriteBatch *batch, uint32_t index, uint32_t num, uint32_t den);
AnimkitStatus animkit_batch_speed(const AnimkitSpriteBatch *batch, uint32_t index, uint32_t *out_speed);
AnimkitStatus animkit_batch_state(const AnimkitSpriteBatch *batch, uint32_t index, AnimkitState *out_state);
AnimkitStatus animkit_batch_frame(const AnimkitSpriteBatch *batch, uint32_t index, uint32_t *out_frame);
AnimkitStatus animkit_batch_frames(const AnimkitSpriteBatch *batch, const uint32_t **out_frames, size_t *out_len);
AnimkitStatus animkit_batch_time_in_state(const AnimkitSpriteBatch *batch, uint32_t index, uint64_t *out_ticks);
AnimkitStatus animkit_batch_is_waiting(const AnimkitSpriteBatch *batch, uint32_t index, bool *out_waiting);
AnimkitStatus animkit_batch_remove(AnimkitSpriteBatch *batch, uint32_t index);
AnimkitStatus animkit_batch_pending_events(AnimkitSpriteBatch *batch, size_t *out_count);
AnimkitStatus animkit_batch_dropped_events(const AnimkitSpriteBatch *batch, uint64_t *out_count);
AnimkitStatus animkit_batch_drain_events(AnimkitSpriteBatch *batch, AnimkitInstanceEvent *events, size_t capacity,
                                         size_t *out_count);
AnimkitStatus animkit_batch_snapshot(const AnimkitSpriteBatch *batch, uint8_t *buffer, size_t capacity,
                                     size_t *out_len);
AnimkitStatus animkit_batch_restore(AnimkitSpriteBatch *batch, const uint8_t *buffer, size_t len);
AnimkitStatus animkit_batch_reload(AnimkitSpriteBatch *batch, const AnimkitSprite *sprite, AnimkitState fallback_state,
                                   AnimkitReloadReport *out_report);

void animkit_scene_free(AnimkitScene *scene);
AnimkitStatus animkit_scene_step(AnimkitScene *scene);
AnimkitStatus animkit_scene_advance(AnimkitScene *scene, uint64_t frames);
AnimkitStatus animkit_scene_seek(AnimkitScene *scene, uint64_t frame);
AnimkitStatus animkit_scene_frame(const AnimkitScene *scene, uint64_t *out_frame);
AnimkitStatus animkit_scene_length(const AnimkitScene *scene, uint64_t *out_length);
AnimkitStatus animkit_scene_is_finished(const AnimkitScene *scene, bool *out_finished);
AnimkitStatus animkit_scene_error_count(const AnimkitScene *scene, uint64_t *out_count);
AnimkitStatus animkit_scene_actor_count(const AnimkitScene *scene, size_t *out_count);
AnimkitStatus animkit_scene_actors(const AnimkitScene *scene, AnimkitActor *actors, size_t capacity,
                                   size_t *out_count);
AnimkitStatus animkit_scene_actor(const AnimkitScene *scene, uint32_t id, AnimkitActor *out_actor);
AnimkitStatus animkit_scene_camera(const AnimkitScene *scene, AnimkitCamera *out_camera);
]]

local C = ffi.load(os.getenv("ANIMKIT_LIB") or "animkit")

local M = {
  C = C,
  MODULE_SPRITE = 0, MODULE_DRAWING = 1, MODULE_SCENE = 2,
  STATUS_OK = 0, STATUS_NULL_POINTER = 1, STATUS_INVALID_ARGUMENT = 2, STATUS_WRONG_HANDLE = 3,
  STATUS_NOT_A_BUNDLE = 4, STATUS_NEWER_FORMAT = 5, STATUS_OLDER_FORMAT = 6, STATUS_CORRUPT = 7,
  STATUS_RULE = 8, STATUS_NO_MODULE = 9, STATUS_WRONG_KIND = 10, STATUS_UNKNOWN_STATE = 11,
  STATUS_UNKNOWN_EVENT = 12, STATUS_OUT_OF_RANGE = 13, STATUS_BUFFER_TOO_SMALL = 14,
  STATUS_SNAPSHOT_WRONG_MODULE = 15, STATUS_SNAPSHOT_INVALID = 16, STATUS_PANIC = 17,
  STATUS_GL = 18,
}

--- The metatable of the errors raised: fields status, name, message.
M.Error = { __tostring = function(e) return e.name .. ": " .. e.message end }

--- animkit_status_name(status).
function M.status_name(status)
  return ffi.string(C.animkit_status_name(status))
end

local function check(status)
  if status ~= 0 then
    error(setmetatable({ status = status, name = M.status_name(status),
                         message = ffi.string(C.animkit_last_error()) }, M.Error), 3)
  end
end

--- The library's version (major * 10000 + minor * 100 + patch), its string, the bundle format it reads.
function M.version() return tonumber(C.animkit_version()) end
function M.version_string() return ffi.string(C.animkit_version_string()) end
function M.bundle_format() return tonumber(C.animkit_bundle_format()) end

-- Out-parameters, reused (a binding is used from one Lua state at a time).
local u32 = ffi.new("uint32_t[1]")
local u64 = ffi.new("uint64_t[1]")
local size = ffi.new("size_t[1]")
local flag = ffi.new("bool[1]")
local text = ffi.new("const char *[1]")
local kind = ffi.new("AnimkitModuleKind[1]")

-- A class whose objects hold `h`, a handle freed by `free_fn` when collected or at :free().
local function class(ctype, free_fn)
  local cls = {}
  cls.__index = cls
  local out = ffi.typeof(ctype .. " *[1]")
  function cls.wrap(make)
    local p = out()
    check(make(p))
    return setmetatable({ h = ffi.gc(p[0], free_fn) }, cls)
  end
  --- Frees the handle now; later calls raise ANIMKIT_STATUS_NULL_POINTER.
  function cls:free()
    local h = self.h
    if h ~= nil then
      self.h = nil
      ffi.gc(h, nil)
      free_fn(h)
    end
  end
  return cls
end

local Bundle = class("AnimkitBundle", C.animkit_bundle_free)
local Sprite = class("AnimkitSprite", C.animkit_sprite_free)
local Batch = class("AnimkitSpriteBatch", C.animkit_batch_free)
local Scene = class("AnimkitScene", C.animkit_scene_free)
M.Bundle, M.Sprite, M.Batch, M.Scene = Bundle, Sprite, Batch, Scene

--- Verifies and opens a bundle from its bytes (a Lua string, read during the call only).
function M.open(bytes)
  return Bundle.wrap(function(p)
    return C.animkit_bundle_open(bytes and ffi.cast("const uint8_t *", bytes), bytes and #bytes or 0, p)
  end)
end

--- {{name, kind}, ...} of every module (kind: MODULE_SPRITE, MODULE_DRAWING, MODULE_SCENE).
function Bundle:modules()
  check(C.animkit_bundle_module_count(self.h, size))
  local list = {}
  for i = 0, tonumber(size[0]) - 1 do
    check(C.animkit_bundle_module(self.h, i, text, kind))
    list[#list + 1] = { ffi.string(text[0]), tonumber(kind[0]) }
  end
  return list
end

function Bundle:sprite(name)
  return Sprite.wrap(function(p) return C.animkit_bundle_sprite(self.h, name, p) end)
end

function Bundle:scene(name)
  return Scene.wrap(function(p) return C.animkit_bundle_scene(self.h, name, p) end)
end

function Sprite:state(name)
  check(C.animkit_sprite_state(self.h, name, u32))
  return tonumber(u32[0])
end

function Sprite:state_count()
  check(C.animkit_sprite_state_count(self.h, size))
  return tonumber(size[0])
end

function Sprite:state_name(state)
  check(C.animkit_sprite_state_name(self.h, state, text))
  return ffi.string(text[0])
end

--- The state's sprite category: which sheet its frames index.
function Sprite:category(state)
  check(C.animkit_sprite_category(self.h, state, text))
  return ffi.string(text[0])
end

function Sprite:event(name)
  check(C.animkit_sprite_event(self.h, name, u32))
  return tonumber(u32[0])
end

function Sprite:event_name(event)
  check(C.animkit_sprite_event_name(self.h, event, text))
  return ffi.string(text[0])
end

--- A new, empty batch (it stays valid after the module and the bundle are freed).
function Sprite:batch()
  local b = Batch.wrap(function(p) return C.animkit_sprite_batch_new(self.h, p) end)
  b.events = ffi.new("AnimkitInstanceEvent[64]")
  return b
end

function Batch:spawn(state, phase)
  check(C.animkit_batch_spawn(self.h, state, phase or 0, u32))
  return tonumber(u32[0])
end

function Batch:len()
  check(C.animkit_batch_len(self.h, size))
  return tonumber(size[0])
end

function Batch:tick() check(C.animkit_batch_tick(self.h)) end
function Batch:advance(ticks) check(C.animkit_batch_advance(self.h, ticks)) end

--- Switches animation `index` to `state` (a number, or a name) at the next tick.
function Batch:set_state(index, state, phase)
  if type(state) == "string" then
    check(C.animkit_batch_set_state_by_name(self.h, index, state, phase or 0))
  else
    check(C.animkit_batch_set_state(self.h, index, state, phase or 0))
  end
end

function Batch:restart(index, state, phase) check(C.animkit_batch_restart(self.h, index, state, phase or 0)) end
function Batch:set_speed(index, num, den) check(C.animkit_batch_set_speed(self.h, index, num, den or 1)) end
function Batch:remove(index) check(C.animkit_batch_remove(self.h, index)) end

--- Speed in 16.16 fixed point (65536 is normal speed).
function Batch:speed(index)
  check(C.animkit_batch_speed(self.h, index, u32))
  return tonumber(u32[0])
end

function Batch:state(index)
  check(C.animkit_batch_state(self.h, index, u32))
  return tonumber(u32[0])
end

function Batch:frame(index)
  check(C.animkit_batch_frame(self.h, index, u32))
  return tonumber(u32[0])
end

--- Every animation's frame: a `const uint32_t *` into the batch (index it from 0, valid until the
--- batch changes) and the count. For copying into a sprite batch in one pass.
function Batch:frames()
  local p = ffi.new("const uint32_t *[1]")
  check(C.animkit_batch_frames(self.h, p, size))
  return p[0], tonumber(size[0])
end

function Batch:time_in_state(index)
  check(C.animkit_batch_time_in_state(self.h, index, u64))
  return tonumber(u64[0])
end

function Batch:is_waiting(index)
  check(C.animkit_batch_is_waiting(self.h, index, flag))
  return flag[0]
end

function Batch:dropped_events()
  check(C.animkit_batch_dropped_events(self.h, u64))
  return tonumber(u64[0])
end

--- Every pending event, oldest first: {{instance = i, event = e}, ...}.
function Batch:drain_events()
  local list, events = {}, self.events
  repeat
    check(C.animkit_batch_drain_events(self.h, events, 64, size))
    local n = tonumber(size[0])
    for i = 0, n - 1 do
      list[#list + 1] = { instance = events[i].instance, event = events[i].event }
    end
  until n < 64
  return list
end

--- The batch saved as a Lua string of bytes, for :restore into a batch of the same module.
function Batch:snapshot()
  local status = C.animkit_batch_snapshot(self.h, nil, 0, size)
  if status ~= M.STATUS_BUFFER_TOO_SMALL then check(status) end
  local n = tonumber(size[0])
  local buffer = ffi.new("uint8_t[?]", n)
  check(C.animkit_batch_snapshot(self.h, buffer, n, size))
  return ffi.string(buffer, n)
end

function Batch:restore(bytes)
  check(C.animkit_batch_restore(self.h, bytes and ffi.cast("const uint8_t *", bytes), bytes and #bytes or 0))
end

--- Hot reload: moves every animation onto `sprite`, a new build of the batch's module (from a
--- recompiled bundle); those of a state it lacks restart in `fallback` (a state of `sprite`).
--- Returns {fell_back = n, clamped = n, dropped_events = n, vanished = n}.
function Batch:reload(sprite, fallback)
  local report = ffi.new("AnimkitReloadReport[1]")
  check(C.animkit_batch_reload(self.h, sprite and sprite.h, fallback, report))
  local r = report[0]
  return { fell_back = tonumber(r.fell_back), clamped = tonumber(r.clamped),
    dropped_events = tonumber(r.dropped_events), vanished = tonumber(r.vanished) }
end

function Scene:step() check(C.animkit_scene_step(self.h)) end
function Scene:advance(frames) check(C.animkit_scene_advance(self.h, frames)) end
function Scene:seek(frame) check(C.animkit_scene_seek(self.h, frame)) end

function Scene:frame()
  check(C.animkit_scene_frame(self.h, u64))
  return tonumber(u64[0])
end

function Scene:length()
  check(C.animkit_scene_length(self.h, u64))
  return tonumber(u64[0])
end

function Scene:is_finished()
  check(C.animkit_scene_is_finished(self.h, flag))
  return flag[0]
end

function Scene:error_count()
  check(C.animkit_scene_error_count(self.h, u64))
  return tonumber(u64[0])
end

--- The actors on stage in id order: an `AnimkitActor[n]` cdata (index from 0) and n.
function Scene:actors()
  check(C.animkit_scene_actor_count(self.h, size))
  local n = tonumber(size[0])
  local actors = ffi.new("AnimkitActor[?]", n)
  check(C.animkit_scene_actors(self.h, actors, n, size))
  return actors, tonumber(size[0])
end

function Scene:actor(id)
  local a = ffi.new("AnimkitActor")
  check(C.animkit_scene_actor(self.h, id, a))
  return a
end

function Scene:camera()
  local c = ffi.new("AnimkitCamera")
  check(C.animkit_scene_camera(self.h, c))
  return c
end

return M
