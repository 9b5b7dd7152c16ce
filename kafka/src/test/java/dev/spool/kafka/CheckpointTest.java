package dev.spool.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventTail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointTest {
    @TempDir
    Path dir;

    @Test
    void shouldRoundTripBesideTheFileAndRefuseASecondShipper() throws Exception {
        Path events = dir.resolve("run.spool");
        try (Checkpoint c = Checkpoint.lock(events, "audit")) {
            assertEquals(dir.resolve("run.spool.kafka-audit.checkpoint"), c.path());
            assertNull(c.read());
            c.write(new Checkpoint.State("s1", "f1", new EventTail.Position(4096, 17), 4000, 0x7ead));
            Checkpoint.State s = c.read();
            assertEquals("s1", s.stream);
            assertEquals("f1", s.fingerprint);
            assertEquals(4096, s.position.offset());
            assertEquals(17, s.position.ordinal());
            assertEquals(4000, s.lastFrameAt);
            assertEquals(0x7ead, s.lastFrameCrc);
            IOException e = assertThrows(IOException.class, () -> Checkpoint.lock(events, "audit"));
            assertTrue(e.getMessage().contains("already being shipped"), e.getMessage());
            try (Checkpoint other = Checkpoint.lock(events, "other-topic")) {
                assertNull(other.read(), "one checkpoint per topic");
            }
        }
        try (Checkpoint again = Checkpoint.lock(events, "audit")) {
            assertEquals(17, again.read().position.ordinal(), "released at close");
        }
    }

    @Test
    void shouldNameTheFileWhenTheCheckpointIsNotOne() throws Exception {
        Path events = dir.resolve("run.spool");
        Files.writeString(dir.resolve("run.spool.kafka-t.checkpoint"), "{\"stream\":");
        try (Checkpoint c = Checkpoint.lock(events, "t")) {
            IOException e = assertThrows(IOException.class, c::read);
            assertTrue(e.getMessage().contains("run.spool.kafka-t.checkpoint"), e.getMessage());
        }
    }
}
