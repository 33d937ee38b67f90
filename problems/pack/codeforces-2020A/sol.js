const data = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const t = data[0];
const out = [];
for (let i = 0; i < t; i++) {
  let n = data[1 + 2 * i];
  const k = data[2 + 2 * i];
  if (k === 1) { out.push(n); continue; }
  let ops = 0;
  while (n > 0) { ops += n % k; n = Math.floor(n / k); }
  out.push(ops);
}
console.log(out.join("\n"));
