package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotEntryTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        try {
            buffer.close();
        } catch (FlushException expectedInSomeTests) {
            // a test that leaves a failing entry behind
        }
    }

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    /** An existing file (a new one is written at the call): its later content is buffered. */
    private Path existing(String name) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, "{}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        return f;
    }

    @Test
    void shouldServeTheLatestSnapshotFromMemoryAndWriteOnlyAtFlush() throws IOException {
        Path f = existing("s.json");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")));
        assertTrue(buffer.putSnapshot(f, b("{\"v\":2}")));
        assertEquals("{}", Files.readString(f));
        assertEquals("{\"v\":2}", new String(buffer.readBuffered(f), UTF_8));
        BufferMetrics m = buffer.metrics();
        assertEquals(1, m.entries());
        assertEquals(1, m.dirtyEntries());
        assertEquals(7, m.estimatedBytes(), "a snapshot's estimate is its exact length");
        assertEquals(2, m.writesAbsorbed());
        assertEquals(1, buffer.flush());
        assertEquals("{\"v\":2}", Files.readString(f));
        assertNull(buffer.readBuffered(f), "a clean snapshot leaves the buffer after a full flush");
        assertEquals(0, buffer.metrics().entries());
        assertEquals(0, buffer.metrics().estimatedBytes());
        assertEquals(1, buffer.metrics().filesWritten());
    }

    @Test
    void shouldCopyTheCallersBytes() throws IOException {
        Path f = existing("copy.json");
        byte[] content = b("[1]");
        buffer.putSnapshot(f, content);
        content[1] = '9';
        buffer.flush();
        assertEquals("[1]", Files.readString(f));
    }

    @Test
    void shouldShareOneEntryAcrossPathsNamingTheSameFile() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        buffer.putSnapshot(link.resolve("x.json"), b("1"));
        buffer.putSnapshot(dir.resolve("real/../real/x.json"), b("2"));
        assertEquals(1, buffer.metrics().entries());
        assertEquals("2", new String(buffer.readBuffered(real.resolve("x.json")), UTF_8));
    }

    @Test
    void shouldWriteBesideAFileChangedOnDiskAndLeaveItAlone() throws IOException {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "{\"theirs\":0}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        List<Path> notified = new CopyOnWriteArrayList<>();
        buffer.addListener(new BufferListener() {
            @Override
            public void conflict(Path path, Path conflictFile) {
                notified.add(conflictFile);
            }
        });
        buffer.putSnapshot(f, b("{\"ours\":1}"));
        Files.writeString(f, "{\"theirs\":2}");
        FlushReport report = buffer.flushWithReport();
        assertEquals(0, report.filesWritten());
        assertEquals(1, report.conflicts().size());
        Path conflict = report.conflicts().get(0).conflictFile();
        assertEquals(List.of(conflict), notified);
        assertTrue(conflict.getFileName().toString().startsWith("c.json.spool-conflict-"));
        assertEquals("{\"ours\":1}", Files.readString(conflict));
        assertEquals("{\"theirs\":2}", Files.readString(f));
        assertEquals(1, buffer.metrics().conflicts());
        // re-based: the snapshot is gone, the next one is judged against the file as it is now
        assertNull(buffer.readBuffered(f));
        buffer.putSnapshot(f, b("{\"ours\":3}"));
        assertEquals(1, buffer.flush());
        assertEquals("{\"ours\":3}", Files.readString(f));
    }

    @Test
    void shouldWakeTheBackgroundFlushWhenDirtyFilesExceedCapacity() throws IOException {
        buffer.setCapacity(3);
        for (int i = 0; i < 4; i++) existing(i + ".json");
        for (int i = 0; i < 3; i++) buffer.putSnapshot(dir.resolve(i + ".json"), b("[" + i + "]"));
        assertEquals(0, writtenCount(4));
        buffer.putSnapshot(dir.resolve("3.json"), b("[3]"));
        Await.until("the flusher writes all four files", Duration.ofSeconds(30), () -> writtenNow(4) == 4);
        Await.until("nothing dirty", Duration.ofSeconds(30), () -> buffer.metrics().dirtyEntries() == 0);
        assertEquals("[2]", Files.readString(dir.resolve("2.json")));
        assertEquals(0, buffer.metrics().backpressureWaits(), "under the memory bound no writer waits");
    }

    @Test
    void shouldWakeTheBackgroundFlushOverHalfTheCapacityBytes() throws IOException {
        long capacity = 2 * SharedBuffer.ENTRY_BYTES + 100; // content plus an entry per dirty file is counted
        buffer.setCapacityBytes(capacity);
        Path a = existing("a.json");
        Path bee = existing("b.json");
        buffer.putSnapshot(a, new byte[40]);
        assertEquals(2, Files.size(a));
        buffer.putSnapshot(bee, new byte[20]); // 60 + two entries > half: wakes the flusher
        Await.until("the flusher writes both files", Duration.ofSeconds(30),
                () -> sizeNow(a) == 40 && sizeNow(bee) == 20);
        Await.until("no dirty bytes", Duration.ofSeconds(30), () -> buffer.metrics().estimatedBytes() == 0);
        assertFalse(buffer.putSnapshot(dir.resolve("big.json"), new byte[(int) capacity + 1]),
                "larger than the buffer: caller writes");
    }

    @Test
    void shouldKeepFailedContentReportEveryFileAndClearOnALaterSuccess() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path sub2 = Files.createDirectory(dir.resolve("sub2"));
        Path f = sub.resolve("f.json");
        Path g = sub2.resolve("g.json");
        Files.writeString(f, "{}");
        Files.writeString(g, "{}");
        existing("ok.json");
        List<Path> errors = new CopyOnWriteArrayList<>();
        buffer.addListener(new BufferListener() {
            @Override
            public void writeError(Path path, Throwable error) {
                errors.add(path);
            }
        });
        buffer.putSnapshot(f, b("{\"keep\":1}"));
        buffer.putSnapshot(g, b("{\"keep\":2}"));
        buffer.putSnapshot(dir.resolve("ok.json"), b("{}"));
        Files.delete(f);
        Files.delete(g);
        Files.delete(sub);
        Files.delete(sub2);
        FlushException e = assertThrows(FlushException.class, buffer::flush);
        assertEquals(1, e.filesWritten());
        assertEquals(2, e.failures().size());
        for (FlushException.Failure failure : e.failures()) {
            assertNotNull(failure.cause());
            assertTrue(e.getMessage().contains(failure.file().toString()));
            String saved = new String(failure.unsavedContent(), UTF_8);
            assertTrue(saved.equals("{\"keep\":1}") || saved.equals("{\"keep\":2}"), saved);
        }
        assertEquals(2, errors.size());
        assertFalse(buffer.metrics().lastError().isEmpty());
        assertThrows(IOException.class, () -> buffer.putSnapshot(f, b("{}")));
        assertThrows(IOException.class, () -> buffer.readBuffered(f));
        Files.createDirectory(sub);
        Files.createDirectory(sub2);
        FlushReport r = buffer.flushWithReport();
        assertEquals(2, r.conflicts().size(), "deleted after the buffered writes: kept beside, not resurrected");
        assertFalse(Files.exists(f));
        assertTrue(buffer.putSnapshot(f, b("{\"next\":1}")));
        assertEquals("{\"next\":1}", Files.readString(f));
    }

    @Test
    void shouldFlushOnTheTimerAndFollowIntervalChangesLive() throws IOException {
        Path f = existing("t.json");
        buffer.putSnapshot(f, b("[]"));
        buffer.setFlushIntervalMillis(10);
        Await.until("the timed flush", Duration.ofSeconds(10), () -> {
            try {
                return Files.readString(f).equals("[]");
            } catch (IOException e) {
                return false;
            }
        });
        buffer.setFlushIntervalMillis(0);
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("spool-buffer-flusher") && t.isDaemon()));
    }

    @Test
    void shouldRefuseWhenDisabledAndWriteThroughWhenClosed() throws IOException {
        buffer.setEnabled(false);
        assertFalse(buffer.putSnapshot(dir.resolve("d.json"), b("{}")));
        buffer.setEnabled(true);
        existing("d.json");
        assertTrue(buffer.putSnapshot(dir.resolve("d.json"), b("[]")));
        buffer.close();
        assertEquals("[]", Files.readString(dir.resolve("d.json")), "close flushes");
        assertTrue(buffer.putSnapshot(dir.resolve("e.json"), b("{}")), "closed: written at once, atomically");
        assertEquals("{}", Files.readString(dir.resolve("e.json")));
    }

    @Test
    void shouldRefuseAPathThatIsAFolder() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("folder.json"));
        assertFalse(buffer.putSnapshot(folder, b("{}")));
        assertEquals(0, buffer.metrics().entries());
    }

    @Test
    void shouldRejectBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> buffer.setCapacity(0));
        assertThrows(IllegalArgumentException.class, () -> buffer.setCapacityBytes(-1));
        assertThrows(IllegalArgumentException.class, () -> buffer.setFlushIntervalMillis(-5));
        assertThrows(IllegalArgumentException.class, () -> BufferSettings.builder().capacity(-1));
        assertEquals(BufferSettings.DEFAULT_CAPACITY, BufferSettings.defaults().capacity());
    }

    @Test
    void shouldKeepTheStampsOfIdleFilesWhileTheTableIsSmallAgainstTheBound() throws IOException {
        Path f = existing("idle.json");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")));
        for (int pass = 0; pass < 3; pass++) buffer.flush();
        assertEquals(1, buffer.entriesHeld(), "its next write costs one lstat, not a read of the file");
        buffer.setCapacityBytes(SharedBuffer.ENTRY_BYTES); // one entry is more than half of it: no room
        assertTrue(buffer.putSnapshot(f, b("{\"v\":2}")));
        for (int pass = 0; pass < 3; pass++) buffer.flush();
        assertEquals(0, buffer.entriesHeld(), "without room an idle stamp leaves after two passes");
        assertEquals("{\"v\":2}", Files.readString(f));
    }

    @Test
    void shouldHoldCapturesEncodedOnceTheBufferIsOverHalfItsBound() throws IOException {
        buffer.setCapacityBytes(10_000);
        Path big = existing("big.json");
        CountDownLatch release = new CountDownLatch(1);
        SnapshotContent held = heldUntil(release, 6_000); // the flusher, woken over half, cannot write it yet
        assertTrue(buffer.putSnapshot(big, held)); // over half of the bound now, and stays so
        int[] encodes = new int[1];
        SnapshotContent capture = counted(encodes, "{\"captured\":true}"); // a capture holds more than its text
        Path f = existing("captured.json");
        assertTrue(buffer.putSnapshot(f, capture));
        assertEquals(1, encodes[0], "encoded at the call");
        // not metrics(): it takes each entry's monitor, and the flush holds big.json's until released
        assertEquals(6_000 + 17, buffer.dirtyBytesNow(), "held as its 17 bytes of text, not 3,000");
        release.countDown();
        buffer.flush();
        assertEquals("{\"captured\":true}", Files.readString(f));
        assertEquals(1, encodes[0], "not encoded again at the flush");
    }

    @Test
    void shouldNotEncodeACaptureOnTheCallersThreadWhileTheBufferIsDisabled() throws Exception {
        buffer.setCapacityBytes(10_000);
        CountDownLatch release = new CountDownLatch(1);
        SnapshotContent held = heldUntil(release, 6_000); // keeps the buffer over half its bound
        assertTrue(buffer.putSnapshot(existing("big.json"), held));
        Thread disabler = new Thread(() -> buffer.setEnabled(false)); // its flush waits for big.json
        disabler.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (buffer.isEnabled() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertFalse(buffer.isEnabled());
            int[] encodes = new int[1];
            SnapshotContent capture = counted(encodes, "{}");
            assertFalse(buffer.putSnapshot(existing("captured.json"), capture), "the host's own write runs");
            assertEquals(0, encodes[0], "switched off: the caller pays no encoding for a write Spool will not hold");
        } finally {
            release.countDown();
            disabler.join(60_000);
        }
    }

    @Test
    void shouldFollowTheMaxHeapWithTheDefaultMemoryBound() {
        long mib = 1L << 20;
        assertEquals(768 * mib, BufferSettings.defaultCapacityBytes(6144 * mib)); // the default heap on 24 GiB
        assertEquals(128 * mib, BufferSettings.defaultCapacityBytes(1024 * mib));
        assertEquals(64 * mib, BufferSettings.defaultCapacityBytes(512 * mib)); // the floor
        assertEquals(64 * mib, BufferSettings.defaultCapacityBytes(256 * mib));
        assertEquals(32 * mib, BufferSettings.defaultCapacityBytes(128 * mib)); // never over a quarter of the heap
        assertEquals(64 * mib, BufferSettings.defaultCapacityBytes(Long.MAX_VALUE)); // no heap limit known
        assertEquals(BufferSettings.defaultCapacityBytes(Runtime.getRuntime().maxMemory()),
                BufferSettings.defaults().capacityBytes());
    }

    /** A capture of {@code text} that holds 3,000 bytes of heap and counts its encodings in {@code encodes[0]}. */
    private static SnapshotContent counted(int[] encodes, String text) {
        return new SnapshotContent() {
            @Override
            public byte[] encode() {
                encodes[0]++;
                return b(text);
            }

            @Override
            public long heapBytes() {
                return 3_000;
            }
        };
    }

    /** Content of {@code size} bytes whose encoding (the flush's) waits until {@code release} opens. */
    private static SnapshotContent heldUntil(CountDownLatch release, int size) {
        return new SnapshotContent() {
            @Override
            public byte[] encode() throws IOException {
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return new byte[size];
            }

            @Override
            public long heapBytes() {
                return size;
            }
        };
    }

    /** How many of the files 0.json .. n-1.json hold what was put ({@code [i]}). */
    private long writtenCount(int n) throws IOException {
        long written = 0;
        for (int i = 0; i < n; i++) {
            if (Files.readString(dir.resolve(i + ".json")).equals("[" + i + "]")) written++;
        }
        return written;
    }

    private long writtenNow(int n) {
        try {
            return writtenCount(n);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long sizeNow(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
