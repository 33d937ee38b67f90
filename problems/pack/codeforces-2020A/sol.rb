data = $stdin.read.split.map(&:to_i)
t = data[0]
out = []
t.times do |i|
  n, k = data[1 + 2 * i], data[2 + 2 * i]
  if k == 1
    out << n
    next
  end
  ops = 0
  while n > 0
    ops += n % k
    n /= k
  end
  out << ops
end
puts out.join("\n")
