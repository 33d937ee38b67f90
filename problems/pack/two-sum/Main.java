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
        long s = nextLong();
        // (value + 1e9) << 18 | index: sorting these sorts by value, then index.
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) keys[i] = ((nextLong() + 1_000_000_000L) << 18) | i;
        Arrays.sort(keys);
        int lo = 0, hi = n - 1;
        long shift = 2_000_000_000L;
        while (lo < hi) {
            long sum = (keys[lo] >> 18) + (keys[hi] >> 18) - shift;
            if (sum == s) {
                int i = (int) (keys[lo] & ((1 << 18) - 1)) + 1, j = (int) (keys[hi] & ((1 << 18) - 1)) + 1;
                System.out.println(Math.min(i, j) + " " + Math.max(i, j));
                return;
            }
            if (sum < s) lo++; else hi--;
        }
        System.out.println(-1);
    }
}
