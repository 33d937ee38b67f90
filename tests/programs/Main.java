// `java Main N ITERS`: N threads each run ITERS loop iterations (ITERS < 0: forever), then the
// main thread prints the thread count and a checksum. Used with policy java.
public class Main {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long iters = args.length > 1 ? Long.parseLong(args[1]) : 20_000_000L;
        Thread[] threads = new Thread[n];
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            final int id = i;
            threads[i] = new Thread(() -> {
                long x = 0;
                for (long j = 0; iters < 0 || j < iters; j++)
                    x += j ^ id;
                out[id] = x;
            });
            threads[i].start();
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            threads[i].join();
            sum += out[i];
        }
        System.out.println("threads " + n + " sum " + sum);
    }
}
