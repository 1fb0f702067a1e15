-- wrk script for scripts/bench-serve.sh: POST /api/v1/move with the JSON bodies in BODIES_FILE
-- (one a line).
local bodies = {}
for line in io.lines(os.getenv("BODIES_FILE")) do bodies[#bodies + 1] = line end
local sent = 0

function request()
  sent = sent + 1
  return wrk.format("POST", "/api/v1/move", {["Content-Type"] = "application/json"},
                    bodies[sent % #bodies + 1])
end
