-- A LÖVE (11.x) example: a crowd of heroes played by libanimkit through
-- capi/lua/animkit.lua, each drawn from its state's sprite sheet by the
-- frame the batch gives. capi/tests/love.rs runs it under Xvfb.
--
--   cargo build --release -p animkit-capi
--   cargo run -q -p animkit-compiler --bin animc -- examples/hero.anim -o capi/lua/love/hero.animb
--   ANIMKIT_LIB=$PWD/target/release/libanimkit.so love capi/lua/love
--
-- The bundle is `hero.animb` in this folder, or the file $ANIMKIT_BUNDLE
-- names.
--
-- Sheets: `sheets/CATEGORY.png` in this folder (the state's category is
-- its `[alias]` or its own name), one row of FRAME_W x FRAME_H cells, frame
-- i at column i. A category without a file gets a generated placeholder
-- sheet (numbered cells), so the example runs with no art at all.
-- Keys 1-9 switch every hero to that state; the events fired show on top.
--
-- ANIMKIT_LOVE_CHECK=DIR (for capi/tests/love.rs) plays the same scene
-- with exactly one tick a frame, presses key 7 (Attack) after
-- CHECK_KEY_AT ticks, and after CHECK_TICKS ticks writes DIR/frames.trace
-- (what love.draw drew: each hero's lines in `animvm --trace`'s format,
-- hero 0's ticks first, then hero 1's ...) and DIR/screen.png (the
-- window), then quits.

package.path = love.filesystem.getSource() .. "/../?.lua;" .. package.path
local animkit = require("animkit")

local FRAME_W, FRAME_H = 48, 48
local TICK = 1 / 50 -- hero.anim's durations are 50 Hz ticks
local COUNT = 24

local hero, crowd, states, sheets, quads = nil, nil, {}, {}, {}
local accumulator, log = 0, {}

local CHECK = os.getenv("ANIMKIT_LOVE_CHECK")
local CHECK_TICKS, CHECK_KEY_AT = 120, 60
local ticks, drawn, fired = 0, {}, {} -- check mode: ticks done, trace lines by hero, events since the last draw

-- The sheet of `category`: its PNG, or numbered placeholder cells.
local function sheet(category)
  if sheets[category] then return sheets[category] end
  local path = "sheets/" .. category .. ".png"
  local image
  if love.filesystem.getInfo(path) then
    image = love.graphics.newImage(path)
  else
    local cells = 16
    local canvas = love.graphics.newCanvas(FRAME_W * cells, FRAME_H)
    love.graphics.setCanvas(canvas)
    for i = 0, cells - 1 do
      love.graphics.setColor(0.3 + 0.04 * i, 0.5, 0.9 - 0.04 * i)
      love.graphics.rectangle("fill", i * FRAME_W + 4, 4, FRAME_W - 8, FRAME_H - 8, 6)
      love.graphics.setColor(1, 1, 1)
      love.graphics.print(category:sub(1, 4) .. "\n" .. i, i * FRAME_W + 8, 10)
    end
    love.graphics.setCanvas()
    image = canvas
  end
  sheets[category] = image
  return image
end

-- The quad of frame `i` of a sheet.
local function quad(image, i)
  quads[image] = quads[image] or {}
  local q = quads[image][i]
  if not q then
    local w, h = image:getDimensions()
    q = love.graphics.newQuad((i * FRAME_W) % w, 0, FRAME_W, FRAME_H, w, h)
    quads[image][i] = q
  end
  return q
end

function love.load()
  local bytes
  local path = os.getenv("ANIMKIT_BUNDLE")
  if path then
    local f = assert(io.open(path, "rb"))
    bytes = f:read("*a")
    f:close()
  else
    bytes = assert(love.filesystem.read("hero.animb"), "compile examples/hero.anim into hero.animb here")
  end
  local bundle = animkit.open(bytes)
  hero = bundle:sprite("hero")
  for s = 0, hero:state_count() - 1 do states[#states + 1] = s end
  crowd = hero:batch()
  local walk = hero:state("Walk")
  for i = 0, COUNT - 1 do
    crowd:spawn(walk, i * 3) -- phases: not in lockstep
    drawn[i], fired[i] = {}, {}
  end
  bundle:free() -- the module and the batch keep what they need
end

function love.keypressed(key)
  local n = tonumber(key)
  if n and states[n] then
    for i = 0, COUNT - 1 do crowd:restart(i, states[n], i * 2) end
  end
end

-- A JSON string as serde_json writes it (the names here need no escapes
-- but `"` and `\`).
local function json(s)
  return '"' .. s:gsub('["\\]', '\\%0') .. '"'
end

-- Check mode's end: the trace lines and the screenshot into CHECK, then quit.
local function finish_check()
  love.graphics.captureScreenshot(function(image)
    local out = {}
    for i = 0, COUNT - 1 do out[#out + 1] = table.concat(drawn[i]) end
    local f = assert(io.open(CHECK .. "/frames.trace", "wb"))
    f:write(table.concat(out))
    f:close()
    f = assert(io.open(CHECK .. "/screen.png", "wb"))
    f:write(image:encode("png"):getString())
    f:close()
    love.event.quit()
  end)
end

function love.update(dt)
  accumulator = accumulator + (CHECK and TICK or dt)
  while accumulator >= TICK do
    accumulator = accumulator - TICK
    crowd:tick()
    ticks = ticks + 1
    for _, e in ipairs(crowd:drain_events()) do
      table.insert(log, 1, string.format("%d: %s", e.instance, hero:event_name(e.event)))
      log[12] = nil
      if CHECK then table.insert(fired[e.instance], json(hero:event_name(e.event))) end
    end
  end
  if CHECK and ticks == CHECK_KEY_AT then
    love.event.push("keypressed", "7", "7", false) -- handled before the next update
  elseif CHECK and ticks == CHECK_TICKS then
    finish_check() -- after this frame's draw
  end
end

function love.draw()
  local frames = crowd:frames() -- a pointer into the batch: read it before the next tick
  for i = 0, COUNT - 1 do
    local category = hero:category(crowd:state(i))
    local image = sheet(category)
    local x, y = 20 + (i % 8) * (FRAME_W + 16), 20 + math.floor(i / 8) * (FRAME_H + 24)
    love.graphics.setColor(1, 1, 1)
    love.graphics.draw(image, quad(image, frames[i]), x, y)
    if CHECK then
      table.insert(drawn[i], string.format('{"tick":%d,"state":%s,"category":%s,"frame":%d,"events":[%s]}\n',
        ticks - 1, json(hero:state_name(crowd:state(i))), json(category), frames[i], table.concat(fired[i], ",")))
      fired[i] = {}
    end
  end
  local names = {}
  for n, s in ipairs(states) do names[#names + 1] = n .. " " .. hero:state_name(s) end
  love.graphics.print(table.concat(names, "   "), 20, 250)
  love.graphics.print(table.concat(log, "\n"), 20, 280)
end
