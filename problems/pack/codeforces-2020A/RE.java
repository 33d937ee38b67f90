import java.io.*;

// Deliberately CRASHES: divides by (k - 1), ArithmeticException when k = 1.
public class RE {
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
        int t = (int) nextLong();
        StringBuilder sb = new StringBuilder();
        while (t-- > 0) {
            long n = nextLong(), k = nextLong();
            long levels = n / (k - 1);
            long ops = 0;
            while (n > 0 && levels >= 0) { ops += n % k; n /= k; }
            sb.append(ops).append('\n');
        }
        System.out.print(sb);
    }
}
