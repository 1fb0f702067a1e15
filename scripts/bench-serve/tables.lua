-- wrk script for scripts/bench-serve.sh: GET requests cycling through the paths in PATHS_FILE
-- (one a line).
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
local sent = 0

function setup(thread)
  thread:set("offset", math.random(#paths))
end

function request()
  sent = sent + 1
  return wrk.format("GET", paths[(sent + (offset or 0)) % #paths + 1])
end
