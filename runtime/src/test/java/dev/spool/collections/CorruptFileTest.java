package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.CorruptFileException;
import dev.spool.buffer.SharedBuffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorruptFileTest {
    static final String BROKEN = "{\n  \"a\": 1,\n  \"b\": tru\n}\n";

    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        buffer.close();
    }

    @Test
    void shouldNameFileLineAndColumnAndLeaveTheFileUntouched() throws IOException {
        Path f = dir.resolve("broken.json");
        Files.writeString(f, BROKEN);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> SyncedMap.open(f, buffer));
        assertEquals(3, e.line());
        assertTrue(e.column() > 0);
        assertTrue(e.getMessage().contains(f.getFileName().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("line 3, column"), e.getMessage());
        assertEquals(BROKEN, Files.readString(f));
        assertEquals(0, buffer.metrics().entries());
    }

    @Test
    void shouldNeverWriteOverACorruptFileUntilItsContentsAreReplaced() throws IOException {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "{\"ok\":1}");
        SyncedMap m = SyncedMap.open(f, buffer);
        Files.writeString(f, BROKEN);
        assertThrows(CorruptFileException.class, () -> m.put("x", 1));
        try (BufferScope s = buffer.openScope()) {
            assertThrows(CorruptFileException.class, () -> m.put("y", 2));
            assertThrows(CorruptFileException.class, m::size);
            assertEquals(0, buffer.metrics().entries(), "nothing buffered for a corrupt file, even in a scope");
        }
        buffer.flush();
        assertEquals(BROKEN, Files.readString(f));
        Files.writeString(f, "{\"fixed\":true}");
        m.put("x", 1);
        assertEquals(Map.of("fixed", true, "x", 1), m);
    }

    @Test
    void shouldTreatAnEmptyFileAsCorrupt() throws IOException {
        Path f = dir.resolve("empty.json");
        Files.writeString(f, "");
        assertThrows(CorruptFileException.class, () -> SyncedList.open(f, buffer));
        assertEquals("", Files.readString(f));
    }
}
