# judge audit: the R probe program, the mode read from stdin (see judge/audit/).
# cpu MS | mem MB | sleep MS

# The process's own CPU time, user and system (children are not counted: there are none).
process_cpu_ms <- function() {
  t <- proc.time()
  (t[["user.self"]] + t[["sys.self"]]) * 1000
}

# Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has then
# used at least ms of CPU time. The clock is read every 1000 rounds, about 0.1 ms.
spin_until <- function(ms) {
  x <- 7
  while (process_cpu_ms() < ms) {
    for (i in 1:1000) x <- (x * 69069 + 12345) %% 4294967296
  }
  x
}

stdin <- file("stdin")
words <- scan(stdin, what = "", quiet = TRUE)
close(stdin)
arg <- if (length(words) > 1) as.numeric(words[2]) else 0
if (words[1] == "cpu") {
  spin_until(arg)
  cat(sprintf("ok\nprocess_cpu_ms %.3f\n", process_cpu_ms()))
} else if (words[1] == "mem") {
  size <- floor(arg * 1048576)
  block <- rep(as.raw(1L), size)   # written: every page touched
  if (size > 0 && block[size %/% 2] != as.raw(1L)) quit(status = 3)
  cat("ok\n")
} else if (words[1] == "sleep") {
  Sys.sleep(arg / 1000)
  cat("ok\n")
} else {
  quit(status = 2)
}
