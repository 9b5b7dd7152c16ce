package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory bound: a writer that finds the buffer over {@code capacityBytes} waits for the
 * background flush, only as long as the flusher needs (or {@link Backpressure#MAX_WAIT_MILLIS}),
 * and the wait is counted and announced. The flusher is held inside a listener callback (it holds
 * the flush lock there), so the buffer stays over its bound as long as the test wants.
 */
class BackpressureTest {
    @TempDir
    Path dir;
    /** Content plus {@link SharedBuffer#ENTRY_BYTES} per dirty file is bounded: room for two small files, not three. */
    static final long CAPACITY = 2 * SharedBuffer.ENTRY_BYTES + 200;
    final SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).capacityBytes(CAPACITY).build());
    final CountDownLatch flusherHeld = new CountDownLatch(1);
    final CountDownLatch releaseFlusher = new CountDownLatch(1);
    final List<Long> announced = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws FlushException {
        releaseFlusher.countDown();
        buffer.close();
    }

    /** Holds the flusher in its first flush's completion callback until {@link #releaseFlusher}. */
    void holdTheFlusherAfterItsFirstPass() throws IOException, InterruptedException {
        AtomicBoolean first = new AtomicBoolean(true);
        buffer.addListener(new BufferListener() {
            @Override
            public void flushCompleted(int files, long millis) {
                if (!first.getAndSet(false)) return;
                flusherHeld.countDown();
                try {
                    releaseFlusher.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void backpressure(long millis, long dirtyBytes, long capacityBytes) {
                announced.add(millis);
            }
        });
        for (String name : new String[] {"a.json", "b.json", "c.json"}) {
            Files.writeString(dir.resolve(name), "{}"); // existing files: a new one is written at the call
        }
        buffer.putSnapshot(dir.resolve("a.json"), new byte[150]); // 150 + one entry, over half: wakes the flusher
        assertTrue(flusherHeld.await(30, java.util.concurrent.TimeUnit.SECONDS), "the flusher ran its first pass");
    }

    /** Starts a writer that takes the buffer over its bound; returns once it waits. */
    Thread writerOverTheBound(AtomicReference<Throwable> failed) {
        return writer(failed, () -> {
            buffer.putSnapshot(dir.resolve("b.json"), new byte[100]); // a is written: 100 + one entry, under the bound
            buffer.putSnapshot(dir.resolve("c.json"), new byte[150]); // 250 + two entries: over it, waits here
        });
    }

    interface Puts {
        void run() throws Exception;
    }

    /** Starts a writer running {@code puts}; returns once it waits (or ended). */
    Thread writer(AtomicReference<Throwable> failed, Puts puts) {
        Thread w = new Thread(() -> {
            try {
                puts.run();
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "test-writer");
        w.start();
        Await.until("the writer waits at the memory bound", Duration.ofSeconds(30),
                () -> w.getState() == Thread.State.TIMED_WAITING || !w.isAlive());
        return w;
    }

    @Test
    void shouldMakeAWriterWaitAtTheMemoryBoundOnlyUntilTheFlusherCatchesUp() throws Exception {
        holdTheFlusherAfterItsFirstPass();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread w = writerOverTheBound(failed);
        assertTrue(w.isAlive(), "over capacityBytes the writer waits for the flusher");
        assertEquals(250, buffer.metrics().estimatedBytes(), "content only; the entries are counted beside it");
        releaseFlusher.countDown();
        w.join(30_000);
        assertFalse(w.isAlive());
        assertNull(failed.get());
        Await.until("both files written", Duration.ofSeconds(30), () -> buffer.metrics().dirtyEntries() == 0);
        assertEquals(150, Files.size(dir.resolve("c.json")));
        assertEquals(1, buffer.metrics().backpressureWaits());
        assertEquals(1, announced.size(), "the wait is announced to listeners (the MBean's notification)");
    }

    @Test
    void shouldBoundTheWaitWhenTheFlusherCannotCatchUp() throws Exception {
        holdTheFlusherAfterItsFirstPass();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread w = writerOverTheBound(failed);
        // the flusher stays held: the writer must go on by itself, after at most MAX_WAIT_MILLIS
        w.join(30_000);
        assertFalse(w.isAlive(), "the wait is bounded");
        assertEquals(1, releaseFlusher.getCount(), "the flusher was still held when the writer went on");
        assertNull(failed.get());
        assertEquals(1, buffer.metrics().backpressureWaits());
        assertTrue(buffer.metrics().backpressureMillis() >= Backpressure.MAX_WAIT_MILLIS - 1,
                "waited the whole bound: " + buffer.metrics().backpressureMillis());
        assertEquals(2, buffer.metrics().dirtyEntries(), "nothing dropped: b and c wait for the next flush");
    }

    @Test
    void shouldCountEveryDirtyFilesEntryNotOnlyItsContent() throws Exception {
        holdTheFlusherAfterItsFirstPass();
        int files = (int) (CAPACITY / SharedBuffer.ENTRY_BYTES) + 1;
        for (int i = 0; i < files; i++) Files.writeString(dir.resolve("t" + i + ".json"), "{}");
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread w = writer(failed, () -> {
            for (int i = 0; i < files; i++) buffer.putSnapshot(dir.resolve("t" + i + ".json"), new byte[1]);
        });
        assertTrue(w.isAlive(), "one-byte files: their entries, not their content, take the buffer over the bound");
        assertTrue(buffer.metrics().estimatedBytes() < CAPACITY / 2, "content alone is far under: " + buffer.metrics());
        releaseFlusher.countDown();
        w.join(30_000);
        assertFalse(w.isAlive());
        assertNull(failed.get());
    }

    @Test
    void shouldNeverMakeAWriterWaitUnderTheBound() throws IOException {
        for (int i = 0; i < 2; i++) Files.writeString(dir.resolve(i + ".json"), "{}");
        for (int i = 0; i < 200; i++) buffer.putSnapshot(dir.resolve(i % 2 + ".json"), new byte[10]);
        assertEquals(0, buffer.metrics().backpressureWaits(),
                "at most 2 × (10 bytes + an entry) are ever held: " + buffer.metrics());
    }
}
