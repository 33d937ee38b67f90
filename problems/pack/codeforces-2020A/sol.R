data <- scan(file("stdin"), what = numeric(), quiet = TRUE)
t <- data[1]
out <- character(t)
for (i in seq_len(t)) {
  n <- data[2 * i]
  k <- data[2 * i + 1]
  if (k == 1) {
    ops <- n
  } else {
    ops <- 0
    while (n > 0) {
      ops <- ops + n %% k
      n <- n %/% k
    }
  }
  out[i] <- format(ops, scientific = FALSE)
}
cat(out, sep = "\n")
