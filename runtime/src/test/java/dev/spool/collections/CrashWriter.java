package dev.spool.collections;

import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process {@link CrashTest} kills: flushes live and snapshot entries in a loop, every round a
 * new state per file that is a pure function of (round, file), printing "flushed" after each
 * flush. {@code java dev.spool.collections.CrashWriter DIR [exit]}: with {@code exit}, puts one
 * snapshot into the global buffer and exits normally without flushing (the shutdown hook must).
 */
public final class CrashWriter {
    static final int MAPS = 4;
    static final int SNAPSHOTS = 3;

    private CrashWriter() {}

    /** The state of map file {@code i} after round {@code r}, as written by this class. */
    static Map<String, Object> mapState(int r, int i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("round", r);
        m.put("file", i);
        m.put("payload", "p".repeat(1 + (r * 37 + i * 11) % 20000));
        List<Object> list = new ArrayList<>();
        for (int k = 0; k < r % 50; k++) list.add(k * i);
        m.put("list", list);
        return m;
    }

    static String snapshotState(int r, int i) {
        return "{\"round\":" + r + ",\"file\":" + i + ",\"pad\":\"" + "s".repeat((r * 13 + i) % 12000) + "\"}";
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        if (args.length > 1 && args[1].equals("exit")) {
            SharedBuffer.global().putSnapshot(dir.resolve("at-exit.json"), "{\"exit\":true}".getBytes(StandardCharsets.UTF_8));
            System.exit(0);
        }
        SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
        List<SyncedMap> maps = new ArrayList<>();
        for (int i = 0; i < MAPS; i++) maps.add(SyncedMap.open(dir.resolve("map-" + i + ".json"), buffer));
        for (int r = 0; ; r++) {
            try (BufferScope scope = buffer.openScope()) {
                for (int i = 0; i < MAPS; i++) {
                    Map<String, Object> m = maps.get(i);
                    m.clear();
                    m.putAll(mapState(r, i));
                }
                for (int i = 0; i < SNAPSHOTS; i++) {
                    buffer.putSnapshot(dir.resolve("snap-" + i + ".json"), snapshotState(r, i).getBytes(StandardCharsets.UTF_8));
                }
            }
            if (r % 7 == 3) maps.get(0).put("round", r); // a write-through now and then: same state
            System.out.println("flushed " + r);
            System.out.flush();
        }
    }
}
