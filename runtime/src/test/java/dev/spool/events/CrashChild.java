package dev.spool.events;

import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The forked JVM of {@link CrashTest}: two threads emit {@code {"t":thread,"i":seq,...}} until
 * killed; after each flush, a thread prints {@code flushed <t> <i>} (every event up to i is
 * then reported as written).
 *
 * <p>It never outlives its test: it halts when its standard input ends (the parent JVM is gone,
 * e.g. a build stopped by hand) and when the file passes {@link #MAX_FILE_BYTES} (an orphan once
 * appended 78 GB to a shared disk before anyone noticed).
 */
public final class CrashChild {
    private CrashChild() {
    }

    /** Far more than the few flush reports the parent waits for; small enough for any disk. */
    static final long MAX_FILE_BYTES = 512L << 20;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        Thread orphanGuard = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent writes nothing; reading only waits for the end of the pipe
                }
            } catch (java.io.IOException ignored) {
                // a broken pipe means the same as its end
            }
            Runtime.getRuntime().halt(3);
        }, "orphan-guard");
        orphanGuard.setDaemon(true);
        orphanGuard.start();
        SinkType type = SinkType.valueOf(args[1]);
        EventLog log = EventLog.open(file, SinkSettings.builder().type(type).bufferBytes(64 << 10).build());
        for (int t = 0; t < 2; t++) {
            int id = t;
            Thread th = new Thread(() -> {
                Map<String, Object> e = new HashMap<>();
                for (int i = 0; ; i++) {
                    e.put("t", id);
                    e.put("i", i);
                    e.put("pad", "p".repeat(i % 200));
                    log.emit(e);
                    if (i % 2000 == 1999) {
                        log.flush();
                        if (sizeOf(file) > MAX_FILE_BYTES) {
                            Runtime.getRuntime().halt(4);
                        }
                        synchronized (System.out) {
                            System.out.println("flushed " + id + " " + i);
                            System.out.flush();
                        }
                    }
                }
            });
            th.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static long sizeOf(Path file) {
        try {
            return java.nio.file.Files.size(file);
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
