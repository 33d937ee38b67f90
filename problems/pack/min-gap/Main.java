import java.io.*;
import java.util.*;

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
        for (int i = 0; i < n; i++) a[i] = nextLong();
        Arrays.sort(a);
        long best = Long.MAX_VALUE;
        for (int i = 1; i < n; i++) best = Math.min(best, a[i] - a[i - 1]);
        System.out.println(best);
    }
}
