// judge audit: the D probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
import core.stdc.stdlib : exit, malloc;
import core.stdc.string : memset;
import core.sys.linux.time : clock_gettime, timespec, CLOCK_PROCESS_CPUTIME_ID;
import core.thread : Thread;
import core.time : msecs;
import std.stdio : readln, writefln, writeln;
import std.array : split;
import std.conv : to;

__gshared ulong sink;

// The process's own CPU time, from the kernel's clock.
double processCpuMs() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
// then used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms.
ulong spinUntil(double ms) {
    ulong x = 7;
    while (processCpuMs() < ms)
        foreach (i; 0 .. 32768) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
    return x;
}

void main() {
    auto words = readln().split();
    double arg = words.length > 1 ? words[1].to!double : 0;
    switch (words[0]) {
    case "cpu":
        sink = spinUntil(arg);
        writefln("ok\nprocess_cpu_ms %.3f", processCpuMs());
        return;
    case "mem":
        // malloc, outside the garbage collected heap, which would keep room of its own.
        auto size = cast(size_t)(arg * 1048576.0);
        if (size > 0) {
            auto block = cast(ubyte*) malloc(size);
            if (block is null) exit(3);
            memset(block, 1, size);   // every page touched
            sink = block[size / 2];
        }
        break;
    case "sleep":
        Thread.sleep(msecs(cast(long) arg));
        break;
    default:
        exit(2);
    }
    writeln("ok");
}
