-- wrk script: reports the purchases that `storekeeper loadtest --prepared N --export-wrk DIR`
-- prepared to the purchase server, each exactly once across all threads and connections.
--
--   wrk --threads T --connections C --duration 600s --timeout 30s --latency \
--       --script Scripts/perf/wrk-report.lua URL -- DIR/purchases.tsv T
--
-- The file has one line per purchase: the player's bearer token, a tab, and the JSON body of
-- its POST /v1/purchases. Thread k (0-based, of the T given after `--`, which must be wrk's
-- --threads) sends lines k+1, k+1+T, k+1+2T, ... A connection with nothing left to send waits
-- (delay()); a thread stops once every report it sent is answered, and the last thread to stop
-- ends wrk at once (SIGINT to its own process, as Ctrl-C would) instead of at --duration.
--
-- Only a 200 answer whose "status" is "delivered" is a delivery. done() prints the counts, and
-- one line for scripts: `wrk-report-result prepared=N sent=N answered=N delivered=N
-- already_delivered=0 errors=0 seconds=S deliveries_per_second=R p50_ms=... max_ms=...`, where
-- errors counts every answer but `delivered`, socket errors and reports left unanswered.
-- Needs wrk 4.0.2 or later built with LuaJIT (Debian's `wrk` is 4.1.0).

local ffi = require("ffi")
ffi.cdef([[
typedef struct { long tv_sec; long tv_nsec; } wrk_report_timespec;
int clock_gettime(int clock, wrk_report_timespec *now);
int getpid(void);
int kill(int pid, int signal);
]])
local CLOCK_MONOTONIC = 1
local SIGINT = 2
local timespec = ffi.new("wrk_report_timespec")

-- Seconds on the monotonic clock, which all threads share.
local function now()
    ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
    return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) / 1e9
end

-- The file that marks thread `thread_id` of this wrk process as done (in the purchases' folder).
local function marker(in_folder, thread_id)
    return string.format("%s/.wrk-%d-thread-%d.done", in_folder, ffi.C.getpid(), thread_id)
end

-- Setup and done run in wrk's main Lua state ------------------------------------------------

local threads = {}

function setup(thread)
    thread:set("id", #threads)
    table.insert(threads, thread)
end

-- The running phase: each thread has a Lua state of its own, with these globals -------------

-- Stops this thread once all of its share is sent and answered; the last thread to stop ends
-- wrk. Every thread marks itself done before it looks for the others' marks, so of two threads
-- stopping together at least the later one sees both.
local function stop_when_answered()
    if stopped or reserved < share or sent < reserved or answered < sent then
        return
    end
    stopped = true
    local mark = io.open(marker(folder, id), "w")
    if mark then
        mark:close()
    end
    wrk.thread:stop()
    for other = 0, thread_count - 1 do
        local other_mark = io.open(marker(folder, other), "r")
        if not other_mark then
            return
        end
        other_mark:close()
    end
    ffi.C.kill(ffi.C.getpid(), SIGINT)
end

function init(args)
    local path, count = args[1], tonumber(args[2])
    if not path or not count or count < 1 or count ~= math.floor(count) then
        error("usage: wrk ... --script wrk-report.lua URL -- PURCHASES_FILE THREADS")
    end
    thread_count = count
    folder = path:match("^(.*)/[^/]*$") or "."
    reports = {}
    lines = 0
    for line in io.lines(path) do
        if lines % thread_count == id then
            local token, body = line:match("^([^\t]+)\t([^\t]+)$")
            if not token then
                error(string.format("%s:%d: not a token, a tab and a body", path, lines + 1))
            end
            reports[#reports + 1] = wrk.format("POST", "/v1/purchases", {
                ["Authorization"] = "Bearer " .. token,
                ["Content-Type"] = "application/json",
            }, body)
        end
        lines = lines + 1
    end
    share = #reports
    -- reserved: reports promised to a connection by delay(); sent, answered: reports so far.
    reserved, sent, answered = 0, 0, 0
    delivered, already_delivered = 0, 0
    failures = {} -- other answers by kind ("HTTP 401 unauthorized", "200 pending"): count
    first_sent, last_answered = nil, nil
    stopped = false
    -- wrk builds thread 0's first request once before the run, to check it, without sending it.
    checked = id ~= 0
end

function delay()
    if reserved < share then
        reserved = reserved + 1
        return 0
    end
    stop_when_answered()
    return 3600000 -- nothing left to send: this connection waits, and the thread stops first
end

function request()
    if not checked then
        checked = true
        return reports[1] or wrk.format("GET", "/healthz")
    end
    sent = sent + 1
    first_sent = first_sent or now()
    -- Beyond the share only when wrk resent on a new connection after losing one: counted as
    -- an error (its answer is not a delivery, and the lost report stays unanswered).
    return reports[sent] or wrk.format("GET", "/healthz")
end

function response(status, headers, body)
    answered = answered + 1
    last_answered = now()
    local outcome = body:match('"status"%s*:%s*"([%w_]+)"')
    if status == 200 and outcome == "delivered" then
        delivered = delivered + 1
    elseif status == 200 and outcome == "already_delivered" then
        already_delivered = already_delivered + 1
    else
        local kind
        if status == 200 then
            kind = "200 " .. (outcome or "without a status")
        else
            kind = "HTTP " .. status .. " " .. (body:match('"error"%s*:%s*"([%w_]+)"') or "")
        end
        failures[kind] = (failures[kind] or 0) + 1
    end
    stop_when_answered()
end

-- Done, in the main state again ---------------------------------------------------------------

function done(summary, latency, requests)
    local total = { share = 0, sent = 0, answered = 0, delivered = 0, already_delivered = 0 }
    local failures, first, last, lines, given_threads = {}, nil, nil, 0, 0
    for _, thread in ipairs(threads) do
        for key in pairs(total) do
            total[key] = total[key] + (thread:get(key) or 0)
        end
        for kind, count in pairs(thread:get("failures") or {}) do
            failures[kind] = (failures[kind] or 0) + count
        end
        local thread_first, thread_last = thread:get("first_sent"), thread:get("last_answered")
        if thread_first and (not first or thread_first < first) then
            first = thread_first
        end
        if thread_last and (not last or thread_last > last) then
            last = thread_last
        end
        lines = thread:get("lines") or lines
        given_threads = thread:get("thread_count") or given_threads
        os.remove(marker(thread:get("folder") or ".", thread:get("id") or 0))
    end
    local out = io.stdout
    local socket = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
    local other = 0
    for _, count in pairs(failures) do
        other = other + count
    end
    local errors = total.already_delivered + other + socket + (total.sent - total.answered)
    if given_threads ~= #threads or total.share ~= lines then
        out:write(string.format("wrk-report: ERROR the script was given %d threads but wrk ran %d: %d of %d "
            .. "reports were in a thread's share\n", given_threads, #threads, total.share, lines))
        errors = errors + (lines - total.share)
    end
    local seconds = (first and last and last > first) and (last - first) or 0
    local rate = seconds > 0 and total.delivered / seconds or 0
    out:write(string.format("wrk-report: %d prepared reports, %d sent, %d answered, %d threads\n",
        lines, total.sent, total.answered, #threads))
    out:write(string.format("wrk-report: %d delivered, %d already_delivered, %d other answers, %d socket errors\n",
        total.delivered, total.already_delivered, other, socket))
    for kind, count in pairs(failures) do
        out:write(string.format("wrk-report:   %d  %s\n", count, kind))
    end
    out:write(string.format("wrk-report: %.1f deliveries/s (%.3f s from the first report sent to the last answer)\n",
        rate, seconds))
    local function ms(percentile)
        return latency:percentile(percentile) / 1000
    end
    out:write(string.format("wrk-report: latency ms p50 %.2f, p90 %.2f, p99 %.2f, max %.2f\n",
        ms(50), ms(90), ms(99), latency.max / 1000))
    out:write(string.format("wrk-report-result prepared=%d sent=%d answered=%d delivered=%d already_delivered=%d "
        .. "errors=%d seconds=%.3f deliveries_per_second=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
        lines, total.sent, total.answered, total.delivered, total.already_delivered, errors, seconds, rate,
        ms(50), ms(90), ms(99), latency.max / 1000))
end
