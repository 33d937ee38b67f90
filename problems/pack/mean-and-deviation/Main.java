import java.io.*;

public class Main {
    private static final DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));

    private static long nextLong() throws IOException {
        int c = in.read();
        while (c != '-' && (c < '0' || c > '9')) c = in.read();
        boolean neg = c == '-';
        if (neg) c = in.read();
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = in.read();
        }
        return neg ? -v : v;
    }

    public static void main(String[] args) throws IOException {
        int n = (int) nextLong();
        long[] a = new long[n];
        long s = 0;
        for (int i = 0; i < n; i++) {
            a[i] = nextLong();
            s += a[i];
        }
        // Two passes: deviations from the mean, so no catastrophic cancellation.
        double mean = (double) s / n;
        double acc = 0;
        for (int i = 0; i < n; i++) {
            double d = a[i] - mean;
            acc += d * d;
        }
        System.out.printf("%.10f %.10f%n", mean, Math.sqrt(acc / n));
    }
}
