-- A LÖVE (11.x) example: a crowd of heroes played by libanimkit through
-- capi/lua/animkit.lua, each drawn from its state's sprite sheet by the
-- frame the batch gives. Not run by the tests (no LÖVE there).
--
--   cargo build --release -p animkit-capi
--   cargo run -q -p animkit-compiler --bin animc -- examples/hero.anim -o capi/lua/love/hero.animb
--   ANIMKIT_LIB=$PWD/target/release/libanimkit.so love capi/lua/love
--
-- Sheets: `sheets/CATEGORY.png` in this folder (the state's category is
-- its `[alias]` or its own name), one row of FRAME_W x FRAME_H cells, frame
-- i at column i. A category without a file gets a generated placeholder
-- sheet (numbered cells), so the example runs with no art at all.
-- Keys 1-9 switch every hero to that state; the events fired show on top.

package.path = love.filesystem.getSource() .. "/../?.lua;" .. package.path
local animkit = require("animkit")

local FRAME_W, FRAME_H = 48, 48
local TICK = 1 / 50 -- hero.anim's durations are 50 Hz ticks
local COUNT = 24

local hero, crowd, states, sheets, quads = nil, nil, {}, {}, {}
local accumulator, log = 0, {}

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
  local bytes = assert(love.filesystem.read("hero.animb"), "compile examples/hero.anim into hero.animb here")
  local bundle = animkit.open(bytes)
  hero = bundle:sprite("hero")
  for s = 0, hero:state_count() - 1 do states[#states + 1] = s end
  crowd = hero:batch()
  local walk = hero:state("Walk")
  for i = 0, COUNT - 1 do crowd:spawn(walk, i * 3) end -- phases: not in lockstep
  bundle:free() -- the module and the batch keep what they need
end

function love.keypressed(key)
  local n = tonumber(key)
  if n and states[n] then
    for i = 0, COUNT - 1 do crowd:restart(i, states[n], i * 2) end
  end
end

function love.update(dt)
  accumulator = accumulator + dt
  while accumulator >= TICK do
    accumulator = accumulator - TICK
    crowd:tick()
    for _, e in ipairs(crowd:drain_events()) do
      table.insert(log, 1, string.format("%d: %s", e.instance, hero:event_name(e.event)))
      log[12] = nil
    end
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
  end
  local names = {}
  for n, s in ipairs(states) do names[#names + 1] = n .. " " .. hero:state_name(s) end
  love.graphics.print(table.concat(names, "   "), 20, 250)
  love.graphics.print(table.concat(log, "\n"), 20, 280)
end
