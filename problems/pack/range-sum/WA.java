import java.io.*;

// Wrong: off by one, the left end of each range is left out.
public class WA {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        in.resetSyntax();
        in.wordChars('-', '-');
        in.wordChars('0', '9');
        in.whitespaceChars(0, ' ');
        in.nextToken();
        int n = Integer.parseInt(in.sval);
        in.nextToken();
        int q = Integer.parseInt(in.sval);
        long[] pre = new long[n + 1];
        for (int i = 1; i <= n; i++) { in.nextToken(); pre[i] = pre[i - 1] + Long.parseLong(in.sval); }
        StringBuilder out = new StringBuilder();
        for (int k = 0; k < q; k++) {
            in.nextToken(); int l = Integer.parseInt(in.sval);
            in.nextToken(); int r = Integer.parseInt(in.sval);
            out.append(pre[r] - pre[l]).append('\n');
        }
        System.out.print(out);
    }
}
