public class RuntimeError {
    public static void main(String[] args) {
        int[] values = new int[3];
        System.out.println(values[args.length + 5]);
    }
}
