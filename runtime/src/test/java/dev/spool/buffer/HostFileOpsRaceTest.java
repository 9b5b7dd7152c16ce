package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stress: with {@code createAtFlush}, host threads checking and listing a folder
 * ({@link HostFileOps#beforeStat}, {@link HostFileOps#beforeList}) race the background flusher that
 * creates the same new files, while a writer puts them and rewrites some. Whoever creates a file
 * first, it is created once: no conflict file, no temp name left, every file ends with its last
 * content, and nothing fails. No timing: the threads run a fixed number of rounds each.
 */
class HostFileOpsRaceTest {
    private static final int FILES = 2_000;
    private static final int CHECKERS = 2;

    @TempDir
    Path dir;

    private final SharedBuffer buffer = SharedBuffer.create(
            BufferSettings.builder().flushIntervalMillis(0).createAtFlush(true).build());

    @AfterEach
    void close() throws Exception {
        buffer.close();
    }

    @Test
    void shouldCreateEachNewFileOnceWhenChecksListingsAndTheFlusherRace() throws Exception {
        Path folder = Files.createDirectories(dir.toRealPath().resolve("results"));
        HostFileOps ops = buffer.hostFiles();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        Thread writer = new Thread(() -> run(failure, start, () -> {
            for (int i = 0; i < FILES; i++) {
                Path f = folder.resolve("job" + i + ".json");
                assertTrue(buffer.putSnapshot(f, bytes("{\"job\":" + i + "}")));
                if (i % 3 == 0) {
                    assertTrue(buffer.putSnapshot(f, bytes("{\"job\":" + i + ",\"again\":true}")));
                }
            }
        }), "writer");
        List<Thread> checkers = Stream.iterate(0, n -> n + 1).limit(CHECKERS).map(n -> new Thread(() -> run(failure, start, () -> {
            for (int i = 0; i < FILES; i++) {
                ops.beforeStat(folder.resolve("job" + (FILES - 1 - i) + ".json"));
                if (i % 50 == n) {
                    ops.beforeList(folder);
                }
            }
        }), "checker-" + n)).toList();
        writer.start();
        checkers.forEach(Thread::start);
        start.countDown();
        writer.join();
        for (Thread t : checkers) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a racing thread failed", failure.get());
        }
        buffer.flush();
        for (int i = 0; i < FILES; i++) {
            String expected = i % 3 == 0 ? "{\"job\":" + i + ",\"again\":true}" : "{\"job\":" + i + "}";
            assertEquals(expected, Files.readString(folder.resolve("job" + i + ".json")), "job" + i);
        }
        try (Stream<Path> names = Files.list(folder)) {
            assertEquals(FILES, names.count(), "no conflict or temp name left");
        }
        assertEquals(0, buffer.metrics().conflicts());
        assertEquals(0, ops.failures());
        assertEquals("", buffer.metrics().lastError() == null ? "" : buffer.metrics().lastError());
    }

    private interface Body {
        void run() throws Exception;
    }

    private static void run(AtomicReference<Throwable> failure, CountDownLatch start, Body body) {
        try {
            start.await();
            body.run();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
