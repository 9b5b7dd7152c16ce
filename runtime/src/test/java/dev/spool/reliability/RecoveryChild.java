package dev.spool.reliability;

import dev.spool.buffer.SharedBuffer;
import dev.spool.events.EventLog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Forked by {@link RecoveryTest}: opens an event log in {@code args[0]}, says "ready", waits for
 * "go" (the parent fills the disk meanwhile), buffers {@code args[1]} files of 30 KB and emits
 * {@code args[2]} events, then exits normally while the disk is still full.
 */
public final class RecoveryChild {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int files = Integer.parseInt(args[1]);
        int events = Integer.parseInt(args[2]);
        EventLog log = EventLog.open(dir.resolve("events.spool"));
        log.emit(Map.of("i", -1));
        log.flush();
        for (int i = 0; i < files; i++) {
            // existing files (a new one is written at the call): their next content is buffered
            Files.writeString(dir.resolve("doc-" + i + ".json"), "{}");
        }
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (int i = 0; i < files; i++) {
            if (!SharedBuffer.global().putSnapshot(dir.resolve("doc-" + i + ".json"), DiskFullBufferTest.content(i, 7))) {
                throw new IllegalStateException("snapshot refused");
            }
        }
        String pad = "e".repeat(100);
        for (int i = 0; i < events; i++) log.emit(Map.of("i", i, "pad", pad));
        System.out.println("done");
        System.out.flush();
        System.exit(0);
    }
}
