// judge audit: the Java probe program, the mode read from stdin (see judge/audit/).
// cpu MS T | mem MB | sleep MS | connect PORT
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.*;
import java.util.*;

public class Probe {
    static volatile long sink;

    // Spins until the calling thread's own CPU clock reaches ns: whatever the speed of the CPU
    // (or the JIT's progress), the thread has then used at least that much CPU time. The clock
    // is read every 32768 rounds of xorshift, about 0.1 ms of compiled work.
    static long spinUntil(ThreadMXBean clock, long ns, long seed) {
        long x = seed | 1;
        while (clock.getCurrentThreadCpuTime() < ns)
            for (int i = 0; i < 32768; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        return x;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = new StringTokenizer(in.readLine());
        String mode = st.nextToken();
        if (mode.equals("cpu")) {
            // cpu MS T: each of T threads spins MS ms of its own CPU time; the process's own CPU
            // time so far is printed last, for the audit to hold against the sandbox's figure.
            long ns = (long) (Double.parseDouble(st.nextToken()) * 1e6);
            int threads = st.hasMoreTokens() ? Integer.parseInt(st.nextToken()) : 1;
            ThreadMXBean clock = ManagementFactory.getThreadMXBean();
            Thread[] pool = new Thread[Math.max(threads, 1) - 1];
            long[] out = new long[pool.length + 1];
            for (int t = 0; t < pool.length; t++) {
                final int slot = t + 1;
                pool[t] = new Thread(() -> { out[slot] = spinUntil(clock, ns, slot + 7); });
                pool[t].start();
            }
            out[0] = spinUntil(clock, ns, 7);
            for (Thread t : pool) t.join();
            for (long v : out) sink += v;
            com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            // getProcessCpuTime counts clock ticks (10 ms, rounded down). The JIT compiles on
            // threads of its own and may go on after the spin: wait (using no CPU, 200 ms at
            // most) until the figure stops growing, so that it holds that work too and only the
            // JVM's exit comes after it.
            long cpu = os.getProcessCpuTime();
            for (int quiet = 0, waited = 0; quiet < 3 && waited < 20; waited++) {
                Thread.sleep(10);
                long now = os.getProcessCpuTime();
                quiet = now == cpu ? quiet + 1 : 0;
                cpu = now;
            }
            // Plain prints: printf or string concatenation would load and run their own
            // machinery after the figure was taken.
            System.out.println("ok");
            System.out.print("process_cpu_ms ");
            System.out.println(cpu / 1000000);
            return;
        } else if (mode.equals("mem")) {
            long size = (long) (Double.parseDouble(st.nextToken()) * 1048576.0);
            if (size > 0) {
                byte[] block = new byte[(int) size];
                for (int i = 0; i < block.length; i += 4096) block[i] = 1;  // every page touched
                sink += block[block.length / 2];
            }
        } else if (mode.equals("sleep")) {
            Thread.sleep(Long.parseLong(st.nextToken()));
        } else if (mode.equals("connect")) {
            int port = Integer.parseInt(st.nextToken());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                System.out.println("connected");
            } catch (IOException e) {
                System.out.println("connect failed " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            return;
        } else {
            System.exit(2);
        }
        System.out.println("ok");
    }
}
