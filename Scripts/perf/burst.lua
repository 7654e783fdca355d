-- The launch-day burst's generator for wrk (Scripts/perf/burst.py --generator wrk).
--
--   wrk -t T -c C -d SECONDS -s burst.lua URL -- TOKENS INTERVAL_MS OUTPUT
--
-- TOKENS holds one "player token" pair per line. Each thread offers an order (POST
-- /v1/orders as a random player) every INTERVAL_MS milliseconds, open loop: the next
-- connection whose answer arrives takes the next order due and waits for its time. An order
-- more than a second overdue was due while every connection waited for an answer: it is not
-- sent, and counted (`notSent`), as burst.py's own generator counts it. Every answer is
-- counted: 201 accepted (its order id kept), 503 `overloaded` shed (and whether it carried
-- Retry-After), anything else other. At the end OUTPUT gets wrk's totals and latency as one
-- JSON line, and OUTPUT.acknowledged one "player orderId" line per order acknowledged.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } burst_timespec;
  int clock_gettime(int clock, burst_timespec *time);
]]
local clock = ffi.new("burst_timespec")

-- CLOCK_MONOTONIC in milliseconds.
local function now()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + id)
  players, tokens = {}, {}
  for line in io.lines(args[1]) do
    local player, token = line:match("^(%S+)%s+(%S+)$")
    if player then
      table.insert(players, player)
      table.insert(tokens, token)
    end
  end
  interval = tonumber(args[2])
  output = args[3]
  accepted, shed, shedWithoutRetryAfter, other, notSent = 0, 0, 0, 0, 0
  acknowledged = {}
  body = '{"productId":"coins100"}'
end

function request()
  local index = math.random(#tokens)
  return wrk.format("POST", "/v1/orders",
    { ["Authorization"] = "Bearer " .. tokens[index], ["Content-Type"] = "application/json" }, body)
end

function delay()
  local time = now()
  nextDue = nextDue or time
  if nextDue < time - 1000 then
    local overdue = math.floor((time - nextDue) / interval)
    notSent = notSent + overdue
    nextDue = nextDue + overdue * interval
  end
  local due = nextDue
  nextDue = nextDue + interval
  return math.max(0, math.floor(due - time))
end

function response(status, headers, answer)
  if status == 201 then
    accepted = accepted + 1
    local order = answer:match('"orderId"%s*:%s*"([^"]+)"')
    local player = answer:match('"playerId"%s*:%s*"([^"]+)"')
    acknowledged[#acknowledged + 1] = (player or "?") .. " " .. (order or "?")
  elseif status == 503 and answer:find('"overloaded"', 1, true) then
    shed = shed + 1
    if headers["Retry-After"] == nil and headers["retry-after"] == nil then
      shedWithoutRetryAfter = shedWithoutRetryAfter + 1
    end
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local totals = { accepted = 0, shed = 0, shedWithoutRetryAfter = 0, other = 0, notSent = 0 }
  local path = threads[1]:get("output")
  local list = io.open(path .. ".acknowledged", "w")
  for _, thread in ipairs(threads) do
    for key, _ in pairs(totals) do
      totals[key] = totals[key] + thread:get(key)
    end
    for _, line in ipairs(thread:get("acknowledged")) do
      list:write(line, "\n")
    end
  end
  list:close()
  local errors = summary.errors
  local file = io.open(path, "w")
  file:write(string.format(
    '{"requests":%d,"seconds":%.3f,"accepted":%d,"shed":%d,"shedWithoutRetryAfter":%d,"other":%d,"notSent":%d,'
      .. '"socketErrors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},'
      .. '"latencyMs":{"p50":%.1f,"p99":%.1f,"max":%.1f}}\n',
    summary.requests, summary.duration / 1e6, totals.accepted, totals.shed, totals.shedWithoutRetryAfter,
    totals.other, totals.notSent, errors.connect, errors.read, errors.write, errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  file:close()
end
