package dev.spool.kafka.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The test broker's main class: Kafka's own {@code kafka.Kafka}, plus a watch on standard input.
 * The test JVM that started the broker holds the other end of that pipe; when it ends in any way,
 * even SIGKILL, the pipe closes, and the broker deletes its folder and halts, so no broker outlives
 * the run and no {@code spool-it-broker*} folder stays behind. (End of input alone is not enough:
 * a JVM that is exiting may close its standard input; the parent it was started by must be gone.) Args: {@code folder server.properties}.
 */
public final class BrokerMain {
    private BrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        ProcessHandle parent = ProcessHandle.current().parent().orElseThrow();
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is sent; end of input is the signal
                }
            } catch (IOException ignored) {
                // the same: the parent is gone
            }
            // the JVM's own exit (a stop() by the test: SIGTERM) may close stdin too: only a dead parent counts
            if (!parent.isAlive()) {
                Broker.deleteTree(dir);
                Runtime.getRuntime().halt(3);
            }
        }, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        kafka.Kafka.main(Arrays.copyOfRange(args, 1, args.length));
    }
}
