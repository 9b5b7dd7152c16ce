package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spool.buffer.exclusive}: no {@code lstat} per put or served read, and still nothing lost.
 * A change on disk made while a file is buffered is never overwritten: it ends as the flush's
 * conflict (the disk keeps it, the buffered content goes beside it). What changes is stated once,
 * in {@link BufferSettings#exclusive()}, and shown here beside the default's answer.
 */
class ExclusiveWriterTest {
    @TempDir
    Path dir;
    SharedBuffer exclusive = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).exclusive(true).build());
    SharedBuffer shared = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        exclusive.close();
        shared.close();
    }

    private Path existing(String name) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, "{}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        return f;
    }

    private static void put(SharedBuffer buffer, Path f, String content) throws IOException {
        assertTrue(buffer.putSnapshot(f, content.getBytes(UTF_8)), "buffered: " + content);
    }

    private static String conflictContent(Path f) throws IOException {
        try (var files = Files.list(f.getParent())) {
            Path c = files.filter(p -> p.getFileName().toString().startsWith(f.getFileName() + AtomicFiles.CONFLICT_MARK))
                    .findFirst().orElseThrow(() -> new AssertionError("no conflict file beside " + f));
            return Files.readString(c);
        }
    }

    @Test
    void shouldReportTheSwitch() {
        assertTrue(exclusive.isExclusive());
        assertFalse(shared.isExclusive());
        assertFalse(BufferSettings.defaults().exclusive(), "off unless asked for");
    }

    @Test
    void shouldEndAForeignWriteBetweenBufferedWritesAsAConflictWithNothingLost() throws IOException {
        Path f = existing("x.json");
        put(exclusive, f, "{\"v\":1}");
        Files.writeString(f, "{\"theirs\":2}"); // someone else (or the host directly) while the file is buffered
        put(exclusive, f, "{\"v\":3}");
        FlushReport report = exclusive.flushWithReport();
        assertEquals(1, report.conflicts().size(), "found at the flush's conflict check");
        assertEquals("{\"theirs\":2}", Files.readString(f), "the disk keeps the foreign write");
        assertEquals("{\"v\":3}", conflictContent(f), "the buffered content is kept beside it");
        assertEquals(1, exclusive.metrics().conflicts());
    }

    @Test
    void shouldLetTheLastWriteWinWithoutTheSwitch() throws IOException {
        Path f = existing("s.json");
        put(shared, f, "{\"v\":1}");
        Files.writeString(f, "{\"theirs\":2}");
        put(shared, f, "{\"v\":3}"); // its lstat re-bases the entry on the direct write
        FlushReport report = shared.flushWithReport();
        assertEquals(0, report.conflicts().size());
        assertEquals("{\"v\":3}", Files.readString(f));
    }

    @Test
    void shouldServeTheBufferedContentAfterAForeignWriteYetKeepThatWriteAtTheFlush() throws IOException {
        Path f = existing("r.json");
        Path g = existing("r2.json");
        put(exclusive, f, "{\"v\":1}");
        put(shared, g, "{\"v\":1}");
        Files.writeString(f, "{\"theirs\":2}");
        Files.writeString(g, "{\"theirs\":2}");
        assertEquals("{\"v\":1}", new String(exclusive.readBuffered(f), UTF_8), "exclusive: served without a look at the disk");
        assertNull(shared.readBuffered(g), "default: a read after a direct write reads the disk");
        assertEquals(1, exclusive.flushWithReport().conflicts().size());
        assertEquals("{\"theirs\":2}", Files.readString(f));
        assertEquals("{\"v\":1}", conflictContent(f));
    }

    @Test
    void shouldKeepADeletionMadeWhileBufferedAndTheContentBesideIt() throws IOException {
        Path f = existing("d.json");
        put(exclusive, f, "{\"v\":1}");
        Files.delete(f);
        put(exclusive, f, "{\"v\":2}");
        assertEquals(1, exclusive.flushWithReport().conflicts().size());
        assertFalse(Files.exists(f), "the deletion stands");
        assertEquals("{\"v\":2}", conflictContent(f));
    }

    @Test
    void shouldStillCreateANewFileAtTheCallAndBufferItsLaterWrites() throws IOException {
        Path f = dir.resolve("new.json");
        put(exclusive, f, "{\"v\":1}");
        assertEquals("{\"v\":1}", Files.readString(f), "created at the call, as without the switch");
        put(exclusive, f, "{\"v\":2}");
        assertEquals("{\"v\":1}", Files.readString(f));
        assertEquals("{\"v\":2}", new String(exclusive.readBuffered(f), UTF_8));
        assertEquals(1, exclusive.flush());
        assertEquals("{\"v\":2}", Files.readString(f));
        put(exclusive, f, "{\"v\":3}"); // a stamp-only entry after the flush: still no lstat, still checked at the flush
        assertEquals(1, exclusive.flush());
        assertEquals("{\"v\":3}", Files.readString(f));
        assertEquals(0, exclusive.metrics().conflicts());
    }
}
