import java.io.*;

public class TimeLimit {
    public static void main(String[] args) throws IOException {
        InputStream in = System.in;
        byte[] buffer = new byte[4096];
        while (in.read(buffer) > 0) { }
        long x = 0;
        while (true) { x = x * 3 + 1; if (x == 42) System.out.println(x); }
    }
}
