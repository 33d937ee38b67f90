// Wrong: answers n without asking, right only when the secret is the largest number.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int games = Integer.parseInt(in.readLine().trim());
        for (int game = 0; game < games; game++) {
            int n = Integer.parseInt(in.readLine().trim());
            System.out.println("! " + n);
            System.out.flush();
        }
    }
}
