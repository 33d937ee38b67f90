import java.io.*;

// Wrong: takes the smallest gap between neighbours in input order, without sorting.
public class WA {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        in.resetSyntax();
        in.wordChars('-', '-');
        in.wordChars('0', '9');
        in.whitespaceChars(0, ' ');
        in.nextToken();
        int n = Integer.parseInt(in.sval);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) { in.nextToken(); a[i] = Long.parseLong(in.sval); }
        long best = Long.MAX_VALUE;
        for (int i = 1; i < n; i++) best = Math.min(best, Math.abs(a[i] - a[i - 1]));
        System.out.println(best);
    }
}
