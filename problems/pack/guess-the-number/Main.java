// Reference: binary search, at most 30 questions for n <= 10^9.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;

public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(System.out);
        int games = Integer.parseInt(in.readLine().trim());
        for (int game = 0; game < games; game++) {
            int n = Integer.parseInt(in.readLine().trim());
            int lo = 1, hi = n;
            while (lo < hi) {
                int mid = lo + (hi - lo + 1) / 2;
                out.println("? " + mid);
                out.flush();
                if (in.readLine().trim().equals("<")) hi = mid - 1;
                else lo = mid;
            }
            out.println("! " + lo);
            out.flush();
        }
    }
}
