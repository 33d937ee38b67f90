// Self-contention on the JVM: 8 threads that spin 2 ms of every 5 ms.
public class Contention {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> {
                while (true) {
                    long until = System.nanoTime() + 2_000_000L;
                    while (System.nanoTime() < until) {
                    }
                    try {
                        Thread.sleep(3);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            t.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
