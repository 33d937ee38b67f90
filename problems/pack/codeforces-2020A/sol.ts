import * as fs from "fs";

const data: number[] = fs.readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const t: number = data[0];
const out: number[] = [];
for (let i = 0; i < t; i++) {
  let n: number = data[1 + 2 * i];
  const k: number = data[2 + 2 * i];
  if (k === 1) { out.push(n); continue; }
  let ops = 0;
  while (n > 0) { ops += n % k; n = Math.floor(n / k); }
  out.push(ops);
}
console.log(out.join("\n"));
