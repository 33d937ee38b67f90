import java.util.*;

public class MemoryLimit {
    public static void main(String[] args) {
        List<int[]> blocks = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
            int[] block = new int[1 << 18];
            Arrays.fill(block, i);
            blocks.add(block);
        }
        System.out.println(blocks.size());
    }
}
