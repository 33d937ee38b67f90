-- judge audit: the Lua probe program, the mode read from stdin (see judge/audit/).
-- cpu MS | mem MB | sleep MS

-- os.clock is C's clock(): the process's own CPU time.
local function process_cpu_ms() return os.clock() * 1000 end

-- Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
-- then used at least ms of CPU time. The clock is read every 1000 rounds, about 0.1 ms.
local function spin_until(ms)
  local x = 7
  while process_cpu_ms() < ms do
    for _ = 1, 1000 do x = (x * 1103515245 + 12345) & 0xFFFFFFFF end
  end
  return x
end

local mode, arg = io.read("a"):match("(%S+)%s*(%S*)")
arg = tonumber(arg) or 0
if mode == "cpu" then
  spin_until(arg)
  io.write(string.format("ok\nprocess_cpu_ms %.3f\n", process_cpu_ms()))
elseif mode == "mem" then
  -- string.rep builds in a buffer and then copies it into the string: one block the size of the
  -- whole would peak at twice it. 1 MiB chunks, the buffers collected as they go, peak at the
  -- size plus one chunk.
  local chunk = 1048576
  local size = math.floor(arg * 1048576)
  local blocks = {}
  while size > 0 do
    local n = math.min(chunk, size)
    blocks[#blocks + 1] = string.rep("\1", n)
    size = size - n
    collectgarbage()
  end
  io.write("ok\n")
elseif mode == "sleep" then
  -- Lua has no sleep of its own.
  os.execute(string.format("sleep %.3f", arg / 1000))
  io.write("ok\n")
else
  os.exit(2)
end
