local t = io.read("n")
local out = {}
for i = 1, t do
  local n, k = io.read("n", "n")
  local ops = 0
  if k == 1 then
    ops = n
  else
    while n > 0 do
      ops = ops + n % k
      n = n // k
    end
  end
  out[#out + 1] = string.format("%d", ops)
end
io.write(table.concat(out, "\n"), "\n")
