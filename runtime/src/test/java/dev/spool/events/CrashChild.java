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
 */
public final class CrashChild {
    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
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
}
