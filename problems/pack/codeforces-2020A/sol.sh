read -r t
out=()
for ((i = 0; i < t; i++)); do
  read -r n k
  if ((k == 1)); then
    out+=("$n")
    continue
  fi
  ops=0
  while ((n > 0)); do
    ((ops += n % k, n /= k))
  done
  out+=("$ops")
done
printf '%s\n' "${out[@]}"
