import java.io.*;
import java.util.*;

// Deliberately MEMORY-HUNGRY: tabulates f(x) for every x up to the largest n, in 4 MB chunks
// allocated as the table grows (n = 1e9 wants 4 GB; the heap alone can reach 544 MB, past
// twice the 256 MB limit).
public class MLE {
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

    static final int CHUNK = 1 << 20;

    public static void main(String[] args) throws IOException {
        int t = (int) nextLong();
        long[] ns = new long[t], ks = new long[t];
        for (int i = 0; i < t; i++) { ns[i] = nextLong(); ks[i] = nextLong(); }
        ArrayList<int[]> f = new ArrayList<>();
        f.add(new int[CHUNK]);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t; i++) {
            long n = ns[i], k = ks[i], p = 1;
            for (long x = 1; x <= n; x++) {
                if (k > 1 && p * k <= x) p *= k;
                int c = (int) (x / CHUNK);
                while (f.size() <= c) f.add(new int[CHUNK]);
                long y = x - p;
                f.get(c)[(int) (x % CHUNK)] = f.get((int) (y / CHUNK))[(int) (y % CHUNK)] + 1;
            }
            sb.append(f.get((int) (n / CHUNK))[(int) (n % CHUNK)]).append('\n');
        }
        System.out.print(sb);
    }
}
