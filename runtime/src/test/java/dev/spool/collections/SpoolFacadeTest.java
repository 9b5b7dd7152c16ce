package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.Spool;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public facade on the process-wide buffer. */
class SpoolFacadeTest {
    @TempDir
    Path dir;

    @Test
    void shouldBufferThroughTheGlobalBufferAndFlushOnDemand() throws IOException {
        SharedBuffer.configureGlobal(BufferSettings.builder().flushIntervalMillis(0).build());
        Path f = dir.resolve("g.json");
        SyncedMap m = SyncedMap.open(f);
        SyncedList l = SyncedList.open(dir.resolve("gl.json"));
        try (BufferScope outer = Spool.buffered(); BufferScope inner = Spool.buffered()) {
            m.put("a", 1);
            l.add("x");
            assertFalse(Files.exists(f));
            assertEquals(2, Spool.flush());
            assertEquals(Map.of("a", 1), new ObjectMapper().readValue(f.toFile(), Map.class));
            m.put("a", 2);
        }
        assertEquals(Map.of("a", 2), new ObjectMapper().readValue(f.toFile(), Map.class));
        assertEquals(List.of("x"), new ObjectMapper().readValue(dir.resolve("gl.json").toFile(), List.class));
        assertEquals(0, SharedBuffer.global().scopeDepth());
        SharedBuffer.configureGlobal(BufferSettings.defaults());
        assertEquals(BufferSettings.DEFAULT_FLUSH_INTERVAL_MILLIS, SharedBuffer.global().getFlushIntervalMillis());
    }
}
