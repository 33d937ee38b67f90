import java.io.*;
import java.util.*;

// Wrong: the sample deviation (divides by n - 1) where the population one is asked for.
public class WA {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        in.resetSyntax();
        in.wordChars('-', '-');
        in.wordChars('0', '9');
        in.whitespaceChars(0, ' ');
        in.nextToken();
        int n = Integer.parseInt(in.sval);
        double s = 0, q = 0;
        for (int i = 0; i < n; i++) {
            in.nextToken();
            double x = Long.parseLong(in.sval);
            s += x;
            q += x * x;
        }
        double mean = s / n;
        double var = n > 1 ? (q - s * mean) / (n - 1) : 0;
        System.out.printf(Locale.ROOT, "%.10f %.10f%n", mean, Math.sqrt(Math.max(var, 0)) + 1e-3);
    }
}
