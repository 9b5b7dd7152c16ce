package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.sink.SinkSettings;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jackson hooks while the kill switch is off but a write is still buffered (the flush it starts
 * has not run yet, or failed): reads still see that write, and a write that takes the original
 * path drops it (issue 10, items 10 and 11). The control here has no back ends attached, so
 * turning routing off does not flush: exactly that window.
 */
class HooksImplTest {
    @TempDir
    Path dir;
    private final ObjectMapper mapper = new ObjectMapper();
    private final AgentControl control = new AgentControl("test", Map.of());
    private final Backends backends = new Backends(control, BufferSettings.builder().flushIntervalMillis(0).build(),
            SinkSettings.defaults(), null);
    private final HooksImpl hooks = new HooksImpl(control, backends, new PathFilter(List.of("**/*.json"), List.of()),
            false, false, Set.of(), false, false);

    private File existing(String name) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"v\":0}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        return f.toFile();
    }

    @Test
    void shouldServeABufferedWriteAfterTheKillSwitchTurnedRoutingOff() throws Exception {
        File f = existing("served.json");
        assertTrue(hooks.writeJson(mapper, f, Map.of("v", 1)), "buffered");
        control.setRoutingEnabled(false);
        try {
            assertEquals(Map.of("v", 1), hooks.readJson(mapper, "readValue", f, Map.class),
                    "the buffered write is newer than the disk: a read must not go stale");
        } finally {
            control.setRoutingEnabled(true);
            backends.buffer().flush();
        }
    }

    @Test
    void shouldDropTheBufferedWriteWhenALaterWriteTakesTheOriginalPath() throws Exception {
        File f = existing("superseded.json");
        assertTrue(hooks.writeJson(mapper, f, Map.of("v", 1)));
        long conflictsBefore = backends.buffer().metrics().conflicts();
        control.setRoutingEnabled(false);
        try {
            assertFalse(hooks.writeJson(mapper, f, Map.of("v", 2)), "routing off: the original write runs");
            mapper.writeValue(f, Map.of("v", 2)); // what the original body does (this class is not woven here)
            SharedBuffer buffer = backends.buffer();
            assertNull(buffer.readBuffered(f.toPath()), "the older buffered write is gone");
            assertNull(hooks.readJson(mapper, "readValue", f, Map.class), "reads go to the disk");
            buffer.flush();
            assertEquals("{\"v\":2}", Files.readString(f.toPath()), "no older write flushed over it");
            assertEquals(conflictsBefore, buffer.metrics().conflicts());
        } finally {
            control.setRoutingEnabled(true);
        }
    }
}
