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
        int n = (int) nextLong(), q = (int) nextLong();
        long[] pre = new long[n + 1];
        for (int i = 1; i <= n; i++) pre[i] = pre[i - 1] + nextLong();
        StringBuilder sb = new StringBuilder();
        while (q-- > 0) {
            int l = (int) nextLong(), r = (int) nextLong();
            sb.append(pre[r] - pre[l - 1]).append('\n');
        }
        PrintWriter pw = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        pw.print(sb);
        pw.flush();
    }
}
