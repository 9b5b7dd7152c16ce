package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.Spool;
import dev.spool.buffer.AtomicFiles;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.FlushException;
import dev.spool.buffer.SharedBuffer;
import dev.spool.collections.SyncedMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disk full (a real 2 MiB tmpfs): buffered flushes hit ENOSPC. The flush reports every file
 * (FlushException, LastError), no file is torn or truncated and no temp file is left, the host's
 * thread gets nothing but the declared FlushException; once space is freed the next flush writes
 * the pending content and nothing is lost.
 */
class DiskFullBufferTest {
    private static final int FILES = 12;
    private static final int SIZE = 40_000;

    @TempDir
    Path tmp;

    @Test
    void shouldKeepSnapshotsAndOldFilesIntactWhenTheDiskIsFullAndWriteThemOnceFreed() throws Exception {
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "2m");
                SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            Path[] files = new Path[FILES];
            for (int i = 0; i < FILES; i++) {
                files[i] = fs.dir.resolve("doc-" + i + ".json");
                Files.write(files[i], content(i, 1));
            }
            fs.fill();
            for (int i = 0; i < FILES; i++) {
                assertTrue(buffer.putSnapshot(files[i], content(i, 2)));
            }
            FlushException full = assertThrows(FlushException.class, buffer::flush);
            assertEquals(FILES, full.failures().size(), full.getMessage());
            for (FlushException.Failure f : full.failures()) {
                assertTrue(String.valueOf(f.cause()).contains("No space left"), f.toString());
                assertEquals(SIZE, f.unsavedContent().length);
            }
            assertTrue(buffer.metrics().lastError().contains("No space left"), buffer.metrics().lastError());
            for (int i = 0; i < FILES; i++) {
                assertArrayEquals(content(i, 1), Files.readAllBytes(files[i]), "torn or replaced: " + files[i]);
            }
            assertNoTempFiles(fs.dir);
            // a second attempt while still full: still reported, still intact
            assertThrows(FlushException.class, buffer::flush);

            fs.free();
            assertEquals(FILES, buffer.flush());
            for (int i = 0; i < FILES; i++) {
                assertArrayEquals(content(i, 2), Files.readAllBytes(files[i]), "lost: " + files[i]);
            }
            assertNoTempFiles(fs.dir);
        }
    }

    /**
     * Issue 31: a NEW file put on a full disk. Its atomic create fails writing the temp file; the
     * put used to refuse, and the host's own write (the agent's fallback) then created the name and
     * left it 0 bytes long. The put throws the disk's IOException and leaves no name behind.
     */
    @Test
    void shouldThrowAndLeaveNoFileWhenANewFileCannotBeCreatedOnAFullDisk() throws Exception {
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "2m");
                SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            Path fresh = fs.dir.resolve("new.json");
            fs.fill();
            java.io.IOException full = assertThrows(java.io.IOException.class, () -> buffer.putSnapshot(fresh, content(0, 1)));
            assertTrue(String.valueOf(full.getMessage()).contains("No space left"), full.toString());
            assertTrue(Files.notExists(fresh), "no name left behind");
            assertNoTempFiles(fs.dir);
            fs.free();
            assertTrue(buffer.putSnapshot(fresh, content(0, 2)), "created once there is room");
            assertArrayEquals(content(0, 2), Files.readAllBytes(fresh));
        }
    }

    @Test
    void shouldKeepLiveCollectionChangesThroughAFullDisk() throws Exception {
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "2m")) {
            Path file = fs.dir.resolve("state.json");
            SyncedMap.open(file).put("v", 0);
            fs.fill();
            BufferScope scope = Spool.buffered();
            SyncedMap m = SyncedMap.open(file);
            String big = "x".repeat(SIZE);
            for (int i = 1; i <= 50; i++) {
                m.put("v", i);
                m.put("k" + i, big.substring(i));
            }
            FlushException e = assertThrows(FlushException.class, scope::close);
            assertTrue(e.getMessage().contains("state.json"), e.getMessage());
            assertEquals("{\"v\":0}", Files.readString(file), "the old content must stay whole");
            assertEquals(50, m.get("v"), "the buffered changes must still be visible");
            fs.free();
            Spool.flush();
            assertTrue(Files.readString(file).startsWith("{\"v\":50,"), "pending changes written after freeing");
            assertEquals(51, SyncedMap.open(file).size());
            assertNoTempFiles(fs.dir);
        }
    }

    static byte[] content(int file, int version) {
        byte[] b = new byte[SIZE];
        Arrays.fill(b, (byte) ('a' + (file + version) % 26));
        byte[] head = ("{\"f\":" + file + ",\"v\":" + version + ",\"pad\":\"").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, b, 0, head.length);
        b[SIZE - 2] = '"';
        b[SIZE - 1] = '}';
        return b;
    }

    static void assertNoTempFiles(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> temps = s.filter(AtomicFiles::isTempFile).toList();
            assertTrue(temps.isEmpty(), "temp files left: " + temps);
        }
    }
}
