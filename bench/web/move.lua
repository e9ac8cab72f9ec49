-- move.lua: wrk script for the benchmark of POST /api/games/{id}/move (bench/web/run.sh).
-- Each thread plays its own block of two-person games round-robin, so that one game is never
-- sent two moves at once; the moves follow a fixed order that never makes five in a row
-- Each game gets its next move 250 requests later, so two moves of one game are hardly ever
-- in flight together (a swap would only change the colours of two stones). (colour of (x, y) = (floor(x / 2) + y) mod 2 on 22x22: runs of at most two in every direction).
local games_per_thread = tonumber(os.getenv("GAMES_PER_THREAD") or "250")
local first_id = tonumber(os.getenv("FIRST_ID") or "1")
local cookie = os.getenv("COOKIE") or ""
local counter = 0
thread_index = 0 -- a global: setup() gives each thread its own (thread:set)
local threads = 0

local black, white = {}, {}
local letters = "abcdefghijklmnopqrstuv"
for y = 0, 21 do
  for x = 0, 21 do
    local p = letters:sub(x + 1, x + 1) .. tostring(22 - y)
    if (math.floor(x / 2) + y) % 2 == 0 then black[#black + 1] = p else white[#white + 1] = p end
  end
end

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function request()
  local g = counter % games_per_thread
  local ply = math.floor(counter / games_per_thread)
  counter = counter + 1
  if ply >= 480 then ply = ply % 480 end -- not reached in a 10 s run
  local point = (ply % 2 == 0) and black[math.floor(ply / 2) + 1] or white[math.floor(ply / 2) + 1]
  local id = first_id + thread_index * games_per_thread + g
  return wrk.format("POST", "/api/games/" .. id .. "/move",
    { ["Content-Type"] = "application/json", ["Cookie"] = cookie },
    '{"point":"' .. point .. '"}')
end
