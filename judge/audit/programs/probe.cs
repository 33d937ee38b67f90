// judge audit: the C# probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
using System;
using System.Runtime.InteropServices;

public static class Probe {
    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Seconds; public long Nanoseconds; }

    // TotalProcessorTime counts 10 ms clock ticks under Mono; libc's own process CPU clock has
    // the kernel's resolution.
    [DllImport("libc")]
    static extern int clock_gettime(int clock, out Timespec time);

    const int CLOCK_PROCESS_CPUTIME_ID = 2;
    static long sink;

    static double ProcessCpuMs() {
        Timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, out ts);
        return ts.Seconds * 1e3 + ts.Nanoseconds / 1e6;
    }

    // Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU (or the
    // JIT's progress), it has then used at least ms of CPU time. The clock is read every 32768
    // rounds of xorshift, about 0.1 ms of compiled work.
    static long SpinUntil(double ms) {
        ulong x = 7;
        while (ProcessCpuMs() < ms)
            for (int i = 0; i < 32768; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
            }
        return (long)x;
    }

    public static int Main() {
        string[] words = Console.In.ReadToEnd().Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        double arg = words.Length > 1 ? double.Parse(words[1], System.Globalization.CultureInfo.InvariantCulture) : 0;
        switch (words[0]) {
        case "cpu":
            sink += SpinUntil(arg);
            Console.WriteLine("ok\nprocess_cpu_ms " + ProcessCpuMs().ToString("F3", System.Globalization.CultureInfo.InvariantCulture));
            return 0;
        case "mem":
            long size = (long)(arg * 1048576.0);
            if (size > 0) {
                byte[] block = new byte[size];
                for (long i = 0; i < size; i += 4096) block[i] = 1;  // every page touched
                sink += block[size / 2];
            }
            break;
        case "sleep":
            System.Threading.Thread.Sleep((int)arg);
            break;
        default:
            return 2;
        }
        Console.WriteLine("ok");
        return 0;
    }
}
