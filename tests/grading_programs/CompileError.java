public class CompileError {
    public static void main(String[] args) {
        int x = "not a number";
        System.out.println(x);
    }
}
