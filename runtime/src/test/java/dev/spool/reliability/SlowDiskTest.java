package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import dev.spool.sink.SinkPolicy;
import dev.spool.sink.SinkSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slow disk: the sink throttled ({@code maxBytesPerSecond}) far below what four producers offer.
 * {@code block}: back-pressure, no deadlock: a bounded run completes with every event, in order
 * per producer. {@code drop}: a producer call never waits for the disk (its longest call stays far
 * below the time the throttle needs for one buffer), losses are counted exactly. Both: heap in use
 * after the run (after GC) stays within a generous bound of before. Extends sink's PolicyTest
 * (one producer, no memory or call-time check).
 */
class SlowDiskTest {
    private static final int PRODUCERS = 4;
    private static final long RATE = 256 * 1024;        // bytes per second
    private static final int BUFFER = 16 * 1024;        // one buffer takes 62 ms at RATE

    @TempDir
    Path dir;

    @Test
    void shouldApplyBackPressureWithoutDeadlockUnderBlock() throws Exception {
        Path f = dir.resolve("block.spool");
        long before = usedHeapAfterGc();
        int perProducer = 1500; // ~100 bytes each: ~600 KB, ~2.3 s at RATE
        try (EventLog log = EventLog.open(f, settings(SinkPolicy.BLOCK))) {
            run(log, perProducer, new AtomicLong());
            log.flush();
            assertEquals(0, log.metrics().dropped());
        }
        long[] next = new long[PRODUCERS];
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) {
                int p = rec.value().get("p").intValue();
                assertEquals(next[p]++, rec.value().get("i").longValue(), "order of producer " + p);
            }
            assertTrue(r.sound());
        }
        for (int p = 0; p < PRODUCERS; p++) assertEquals(perProducer, next[p]);
        assertHeapBounded(before);
    }

    @Test
    void shouldNeverBlockAProducerUnderDropAndCountEveryLoss() throws Exception {
        Path f = dir.resolve("drop.spool");
        long before = usedHeapAfterGc();
        int perProducer = 50_000; // ~20 MB offered, ~100 times what the throttle lets through in the run
        AtomicLong maxCallNanos = new AtomicLong();
        long dropped;
        try (EventLog log = EventLog.open(f, settings(SinkPolicy.DROP))) {
            run(log, perProducer, maxCallNanos);
            dropped = log.metrics().dropped();
            log.metrics().setMaxBytesPerSecond(0); // let the close drain quickly
        }
        long written = 0;
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) written++;
            assertTrue(r.sound());
        }
        assertTrue(dropped > 0, "nothing was dropped: the throttle did not bite");
        assertEquals((long) PRODUCERS * perProducer, written + dropped, "written + dropped must be every event");
        // One buffer takes ~62 ms at the throttle; a producer that waited for the disk would wait that long.
        // Generous: 1 s allows for GC pauses on a shared, noisy machine.
        assertTrue(maxCallNanos.get() < 1_000_000_000L, "longest emit " + maxCallNanos.get() / 1_000_000 + " ms");
        assertHeapBounded(before);
    }

    private static SinkSettings settings(SinkPolicy p) {
        return SinkSettings.builder().policy(p).bufferBytes(BUFFER).buffers(4).maxBytesPerSecond(RATE).build();
    }

    private static void run(EventLog log, int perProducer, AtomicLong maxCallNanos) throws Exception {
        List<Thread> threads = new ArrayList<>();
        String pad = "x".repeat(40);
        for (int p = 0; p < PRODUCERS; p++) {
            int me = p;
            Thread t = new Thread(() -> {
                for (long i = 0; i < perProducer; i++) {
                    long t0 = System.nanoTime();
                    log.emit(java.util.Map.of("p", me, "i", i, "pad", pad));
                    long d = System.nanoTime() - t0;
                    if (d > maxCallNanos.get()) maxCallNanos.accumulateAndGet(d, Math::max);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(120_000);
            assertTrue(!t.isAlive(), "producer still running after 120 s: deadlock?");
        }
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        m.gc();
        return m.getHeapMemoryUsage().getUsed();
    }

    private static void assertHeapBounded(long before) {
        long after = usedHeapAfterGc();
        assertTrue(after - before < 64L << 20, "heap grew by " + ((after - before) >> 20) + " MiB");
    }
}
