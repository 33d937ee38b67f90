import java.io.*;

// Deliberately DOES NOT COMPILE: assigns a String to a long and calls a missing method.
public class CE {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        long t = br.readLine();
        System.out.println(solve(t));
    }
}
