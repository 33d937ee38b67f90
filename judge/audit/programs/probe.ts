// judge audit: the TypeScript probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
const words: string[] = require('fs').readFileSync(0, 'utf8').split(/\s+/).filter(Boolean);

// The process's own CPU time (every thread of node's, user and system), in microseconds.
function processCpuMs(): number {
  const usage: { user: number; system: number } = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

// Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
// then used at least ms of CPU time. The clock is read every 32768 rounds, about 0.1 ms.
function spinUntil(ms: number): number {
  let x = 7;
  while (processCpuMs() < ms) {
    for (let i = 0; i < 32768; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  }
  return x;
}

const mode: string = words[0];
const arg: number = Number(words[1] || 0);
if (mode === 'cpu') {
  const x: number = spinUntil(arg);
  process.stdout.write(`ok\nprocess_cpu_ms ${processCpuMs().toFixed(3)}\n` + (x === 0.5 ? ' ' : ''));
} else if (mode === 'mem') {
  const size: number = Math.floor(arg * 1048576);
  // allocUnsafe then fill: Buffer.alloc's zeroed pages may never be touched.
  const block: Buffer = Buffer.allocUnsafe(size).fill(1);
  if (size && block[size >> 1] !== 1) process.exit(3);
  process.stdout.write('ok\n');
} else if (mode === 'sleep') {
  setTimeout(() => process.stdout.write('ok\n'), arg);
} else {
  process.exit(2);
}
