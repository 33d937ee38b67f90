// Starts threads until the JVM or the process cap refuses one, then sleeps.
public class ThreadStorm {
    public static void main(String[] args) throws Exception {
        try {
            for (int i = 0; i < 100000; i++) {
                Thread t = new Thread(() -> {
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                    }
                });
                t.setDaemon(true);
                t.start();
            }
        } catch (Throwable refused) {
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
