-- wrk script for tests/scaleout/run.sh: cycles through the requests given after `--`, each one
-- argument "METHOD PATH [JSON BODY]", counts every response by status and every 2xx whose body is not
-- a complete JSON document, and prints the totals as "key value" lines when the run ends.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  requests = {}
  for _, spec in ipairs(args) do
    local method, path, body = spec:match("^(%u+) (%S+) ?(.*)$")
    local headers = {}
    if body == "" then
      body = nil
    else
      headers["Content-Type"] = "application/json"
    end
    table.insert(requests, wrk.format(method, path, headers, body))
  end
  next_request = 0
  statuses = {}
  incomplete = 0
end

function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status >= 200 and status < 300 and not body:match("[%]}\"]%s*$") then
    incomplete = incomplete + 1
  end
end

function done(summary, latency, requests)
  local totals, incomplete_total = {}, 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      totals[status] = (totals[status] or 0) + count
    end
    incomplete_total = incomplete_total + thread:get("incomplete")
  end
  for status, count in pairs(totals) do
    io.write(string.format("status_%d %d\n", status, count))
  end
  io.write(string.format("incomplete_bodies %d\n", incomplete_total))
  io.write(string.format("requests %d\n", summary.requests))
  for kind, count in pairs(summary.errors) do
    io.write(string.format("error_%s %d\n", kind, count))
  end
  io.write(string.format("latency_p99_ms %.1f\n", latency:percentile(99) / 1000))
end
