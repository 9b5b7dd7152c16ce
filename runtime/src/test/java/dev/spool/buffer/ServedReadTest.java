package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a served read costs in reads of the file itself (counted, not timed). */
class ServedReadTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        buffer.close();
    }

    /** Waits (bounded) until {@code f}'s modification time is out of the racy window, so a stamp of it is not racy. */
    private static void awaitNotRacy(Path f) throws IOException {
        long mtime = Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS);
        Await.until("the file's time to leave the racy window", Duration.ofSeconds(30),
                () -> FileStamp.nowNanos() - mtime > 2 * FileStamp.FINE_WINDOW_NANOS);
    }

    @Test
    void shouldReadACreatedFileOnceThenServeEveryLaterReadOnItsMetadata() throws IOException {
        Path f = dir.resolve("created.json");
        assertTrue(buffer.putSnapshot(f, "{\"v\":1}".getBytes(UTF_8)), "a new file is created at the call");
        awaitNotRacy(f);
        long before = FileStamp.contentReads();
        for (int i = 0; i < 100; i++) {
            assertEquals("{\"v\":1}", new String(buffer.readBuffered(f), UTF_8));
        }
        assertEquals(1, FileStamp.contentReads() - before,
                "a created file's stamp has no time: its first served read reads it once and stamps it in full, later reads need an lstat only");
    }

    @Test
    void shouldStillSeeADirectChangeAfterTheCreatedFileWasStampedInFull() throws IOException {
        Path f = dir.resolve("changed.json");
        assertTrue(buffer.putSnapshot(f, "{\"v\":1}".getBytes(UTF_8)));
        awaitNotRacy(f);
        assertNotNull(buffer.readBuffered(f));
        Files.writeString(f, "{\"v\":22}"); // a direct write after the buffered one: the disk is the later
        assertNull(buffer.readBuffered(f), "a read after a direct write reads the disk");
    }
}
