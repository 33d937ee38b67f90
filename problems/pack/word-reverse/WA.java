import java.io.*;

// Wrong: prints every line's words in their original order.
public class WA {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int m = Integer.parseInt(in.readLine().trim());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < m; i++) out.append(in.readLine()).append('\n');
        System.out.print(out);
    }
}
