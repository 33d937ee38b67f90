// judge audit: the Java probe program, the mode read from stdin (see judge/audit/).
// spin N T | mem MB | sleep MS | connect PORT
import java.io.*;
import java.net.*;
import java.util.*;

public class Probe {
    static volatile long sink;

    // One unit of work: 65536 rounds of xorshift, about 0.1 ms of one core.
    static long spin(long units, long seed) {
        long x = seed | 1;
        for (long u = 0; u < units; u++)
            for (int i = 0; i < 65536; i++) {
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
        if (mode.equals("spin")) {
            long units = Long.parseLong(st.nextToken());
            int threads = st.hasMoreTokens() ? Integer.parseInt(st.nextToken()) : 1;
            Thread[] pool = new Thread[threads - 1];
            for (int t = 0; t < pool.length; t++) {
                final long seed = t + 8;
                pool[t] = new Thread(() -> { sink += spin(units, seed); });
                pool[t].start();
            }
            sink += spin(units, 7);
            for (Thread t : pool) t.join();
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
