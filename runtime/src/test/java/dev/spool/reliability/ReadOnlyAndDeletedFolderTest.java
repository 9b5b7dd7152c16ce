package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.FlushException;
import dev.spool.buffer.FlushReport;
import dev.spool.buffer.SharedBuffer;
import dev.spool.events.EventLog;
import dev.spool.sink.SinkSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The target becomes read-only (a real tmpfs remounted {@code ro}; chmod would not stop root, which
 * CI runs as), or the folder of a buffered file is deleted: flushes fail, are reported and counted,
 * the old content stays whole, and once the folder is writable again nothing is lost.
 */
class ReadOnlyAndDeletedFolderTest {
    @TempDir
    Path tmp;

    @Test
    void shouldKeepBufferedFilesWhileTheFolderIsReadOnly() throws Exception {
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "4m");
                SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            Path file = fs.dir.resolve("doc.json");
            Files.write(file, DiskFullBufferTest.content(1, 1));
            assertTrue(buffer.putSnapshot(file, DiskFullBufferTest.content(1, 2)));
            remount(fs, "ro");
            try {
                FlushException e = assertThrows(FlushException.class, buffer::flush);
                assertTrue(e.getMessage().contains("Read-only file system"), e.getMessage());
                assertTrue(buffer.metrics().lastError().contains("doc.json"), buffer.metrics().lastError());
                assertArrayEquals(DiskFullBufferTest.content(1, 1), Files.readAllBytes(file));
            } finally {
                remount(fs, "rw");
            }
            assertEquals(1, buffer.flush());
            assertArrayEquals(DiskFullBufferTest.content(1, 2), Files.readAllBytes(file));
        }
    }

    /**
     * An open event file keeps its descriptor (a read-only remount is refused while it is open:
     * "busy"), so for the sink a read-only folder matters at open: a clear error naming the file,
     * nothing created.
     */
    @Test
    void shouldRefuseToOpenAnEventLogInAReadOnlyFolderNamingTheFile() throws Exception {
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "4m")) {
            Path file = fs.dir.resolve("events.spool");
            remount(fs, "ro");
            try {
                java.io.UncheckedIOException e = assertThrows(java.io.UncheckedIOException.class,
                        () -> EventLog.open(file, SinkSettings.defaults()));
                assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("Read-only"), e.getMessage());
                assertTrue(Files.notExists(file));
            } finally {
                remount(fs, "rw");
            }
        }
    }

    @Test
    void shouldKeepABufferedFileWhoseFolderWasDeletedUntilItIsBack() throws Exception {
        try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            Path folder = Files.createDirectory(tmp.resolve("jobs"));
            Path file = folder.resolve("state.json");
            Files.writeString(file, "{}");
            assertTrue(buffer.putSnapshot(file, DiskFullBufferTest.content(2, 1)));
            Files.delete(file);
            Files.delete(folder);
            FlushException e = assertThrows(FlushException.class, buffer::flush);
            assertTrue(e.getMessage().contains("state.json"), e.getMessage());
            assertArrayEquals(DiskFullBufferTest.content(2, 1), e.failures().get(0).unsavedContent());
            Files.createDirectory(folder);
            FlushReport r = buffer.flushWithReport();
            assertEquals(1, r.conflicts().size(), "deleted after the buffered write: the deletion came last");
            assertTrue(Files.notExists(file), "a deleted file is not resurrected");
            assertArrayEquals(DiskFullBufferTest.content(2, 1), Files.readAllBytes(r.conflicts().get(0).conflictFile()));
        }
    }

    private static void remount(Tmpfs fs, String mode) throws Exception {
        Process p = new ProcessBuilder("mount", "-o", "remount," + mode, fs.dir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "remount " + mode + ": " + out);
    }
}
