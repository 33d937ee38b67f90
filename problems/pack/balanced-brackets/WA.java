import java.io.*;

// Wrong: counts opening and closing brackets but ignores their order and kind.
public class WA {
    public static void main(String[] args) throws IOException {
        String s = new BufferedReader(new InputStreamReader(System.in)).readLine().trim();
        long depth = 0;
        for (char c : s.toCharArray()) depth += (c == '(' || c == '[' || c == '{') ? 1 : -1;
        System.out.println(depth == 0 ? "YES" : "NO");
    }
}
