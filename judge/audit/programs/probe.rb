# judge audit: the Ruby probe program, the mode read from stdin (see judge/audit/).
# cpu MS | mem MB | sleep MS

def process_cpu_ms
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID, :float_millisecond)
end

# Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
# then used at least ms of CPU time. The clock is read every 1000 rounds, about 0.1 ms.
def spin_until(ms)
  x = 7
  while process_cpu_ms < ms
    1000.times { x = (x * 1103515245 + 12345) & 0xFFFFFFFF }
  end
  x
end

words = $stdin.read.split
arg = (words[1] || 0).to_f
case words[0]
when "cpu"
  spin_until(arg)
  printf("ok\nprocess_cpu_ms %.3f\n", process_cpu_ms)
when "mem"
  size = (arg * 1048576).to_i
  block = "\x01" * size # written: every page touched
  exit 3 if size > 0 && block.getbyte(size / 2) != 1
  puts "ok"
when "sleep"
  sleep(arg / 1000.0)
  puts "ok"
else
  exit 2
end
