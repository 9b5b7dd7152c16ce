package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.collections.SyncedMap;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Collection and event content beyond SyncedMapTest's cases: deep (non-cyclic) nesting, cycles
 * inside a buffered scope, huge strings, NaN and infinities, non-string keys, all given to
 * collections and to the event log. Refused content names its key path and changes nothing on
 * disk (also after the scope's flush); the event log never throws into the caller except the
 * documented IllegalArgumentException and keeps a sound file.
 */
class BadContentTest {
    @TempDir
    Path dir;

    static Map<String, Object> deep(int depth) {
        Map<String, Object> root = new HashMap<>();
        Map<String, Object> m = root;
        for (int i = 0; i < depth; i++) {
            Map<String, Object> next = new HashMap<>();
            m.put("d", next);
            m = next;
        }
        return root;
    }

    @Test
    void shouldRefuseBadContentInABufferedScopeNamingTheKeyPathAndLeaveTheFileAsItWas() throws Exception {
        Path f = dir.resolve("doc.json");
        try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            SyncedMap.open(f, buffer).put("ok", 1);
            String before = Files.readString(f);
            try (BufferScope scope = buffer.openScope()) {
                SyncedMap m = SyncedMap.open(f, buffer);
                IllegalArgumentException deep = assertThrows(IllegalArgumentException.class, () -> m.put("deep", deep(10_000)));
                assertTrue(deep.getMessage().contains("deep.d.d"), deep.getMessage());
                Map<String, Object> cyclic = new HashMap<>();
                List<Object> list = new ArrayList<>();
                list.add(cyclic);
                cyclic.put("list", list);
                IllegalArgumentException cycle = assertThrows(IllegalArgumentException.class, () -> m.put("c", cyclic));
                assertTrue(cycle.getMessage().contains("c.list[0]"), cycle.getMessage());
                IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                        () -> m.put("n", Map.of("x", List.of(Double.NEGATIVE_INFINITY))));
                assertTrue(nan.getMessage().contains("n.x[0]"), nan.getMessage());
                assertEquals(Map.of("ok", 1), new HashMap<>(m));
            }
            assertEquals(before, Files.readString(f), "refused content must change nothing on disk");
            String huge = "h".repeat(20 << 20);
            SyncedMap.open(f, buffer).put("huge", huge);
            assertEquals(huge, SyncedMap.open(f, buffer).get("huge"));
            assertTrue(Files.size(f) > 20 << 20);
        }
    }

    @Test
    void shouldNeverThrowIntoTheCallerForBadEventsAndKeepTheFileSound() throws Exception {
        Path f = dir.resolve("e.spool");
        Map<String, Object> cyclic = new HashMap<>();
        cyclic.put("self", cyclic);
        Map<Object, Object> intKeys = new HashMap<>();
        intKeys.put(7, "seven");
        try (EventLog log = EventLog.open(f)) {
            log.emit(Map.of("i", 0));
            log.emit(cyclic);
            log.emit(deep(100_000));
            log.emit(Map.of("nan", Double.NaN, "inf", Float.NEGATIVE_INFINITY));
            log.emit("s".repeat(5 << 20));
            IllegalArgumentException keys = assertThrows(IllegalArgumentException.class, () -> log.emit(intKeys));
            assertTrue(keys.getMessage().contains("7"), keys.getMessage());
            log.emit(Map.of("i", 1));
            log.flush();
            assertTrue(log.metrics().errors() >= 1, "bad events must be counted: " + log.metrics());
        }
        int last = -1;
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) {
                if (rec.value().has("i")) last = rec.value().get("i").intValue();
            }
            assertTrue(r.sound(), r.problems().toString());
        }
        assertEquals(1, last, "the events after the bad ones are written");
    }
}
