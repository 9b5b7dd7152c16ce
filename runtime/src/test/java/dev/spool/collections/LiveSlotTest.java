package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A view remembers its file's buffer entry (issue 35: a buffered get skips the buffer's map). The
 * memo must never outlive the entry: once the entry left the buffer, the next call goes to the one
 * live entry of the file (one live object per file), and sees the disk afresh.
 */
class LiveSlotTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        buffer.close();
    }

    @Test
    void shouldShareTheNewLiveObjectAfterTheRememberedEntryLeftTheBuffer() throws Exception {
        Path f = dir.resolve("m.json");
        SyncedMap a = SyncedMap.open(f, buffer);
        SyncedMap b = SyncedMap.open(f, buffer);
        try (BufferScope s = buffer.openScope()) {
            a.put("k", 1);                       // a remembers the first entry
        }                                        // the flush evicts it
        try (BufferScope s = buffer.openScope()) {
            b.put("k", 2);                       // b creates the file's new entry, buffered
            assertEquals(2, a.get("k"), "a must reach b's live entry, not its remembered one");
            a.put("j", 3);
            assertEquals(3, b.get("j"));
        }
        assertEquals(Map.of("k", 2, "j", 3), JSON.readValue(f.toFile(), Map.class));
    }

    @Test
    void shouldSeeAnExternalChangeAfterTheRememberedEntryLeftTheBuffer() throws Exception {
        Path f = dir.resolve("m.json");
        SyncedMap a = SyncedMap.open(f, buffer);
        try (BufferScope s = buffer.openScope()) {
            a.put("k", 1);
            assertEquals(1, a.get("k"));
        }
        JSON.writeValue(f.toFile(), Map.of("k", 7)); // another writer, while nothing is buffered
        try (BufferScope s = buffer.openScope()) {
            assertEquals(7, a.get("k"), "the file is read afresh, not served from the evicted entry");
            a.put("x", true);
        }
        assertEquals(Map.of("k", 7, "x", true), JSON.readValue(f.toFile(), Map.class));
    }

    @Test
    void shouldRefuseASlotOfAnotherBuffer() {
        SharedBuffer other = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
        try {
            var slot = other.liveSlot(dir.resolve("m.json"));
            assertThrows(IllegalArgumentException.class,
                    () -> buffer.liveRead(slot, dev.spool.buffer.JsonKind.MAP, m -> m));
        } finally {
            other.close();
        }
    }
}
