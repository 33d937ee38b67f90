// Wrong: gives up at once and claims there is no pair.
public class WA {
    public static void main(String[] args) {
        System.out.println(-1);
    }
}
