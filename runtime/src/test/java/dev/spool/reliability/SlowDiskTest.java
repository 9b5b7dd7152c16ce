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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slow disk: the sink throttled ({@code maxBytesPerSecond}) far below what four producers offer.
 * {@code block}: back-pressure, no deadlock: a bounded run completes with every event, in order
 * per producer. {@code drop}: a producer call never waits for the disk, shown by behaviour, not by
 * timing: the throttle would need about 20 minutes to write what the producers offer, yet they all
 * return (within the generous bound of {@link #run}) having had most of it dropped; losses are
 * counted exactly. Both: heap in use
 * after the run (after GC) stays within a generous bound of before. Extends sink's PolicyTest
 * (one producer, no memory or call-time check).
 */
class SlowDiskTest {
    private static final int PRODUCERS = 4;
    private static final long RATE = 256 * 1024;        // bytes per second
    private static final int BUFFER = 16 * 1024;        // one buffer takes 62 ms at RATE
    private static final long DROP_RATE = 16 * 1024;    // one buffer per second: ~20 MB offered would take ~21 min

    @TempDir
    Path dir;

    @Test
    void shouldApplyBackPressureWithoutDeadlockUnderBlock() throws Exception {
        Path f = dir.resolve("block.spool");
        long before = usedHeapAfterGc();
        int perProducer = 1500; // ~100 bytes each: ~600 KB, ~2.3 s at RATE
        try (EventLog log = EventLog.open(f, settings(SinkPolicy.BLOCK, RATE))) {
            run(log, perProducer);
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
        int perProducer = 50_000; // ~20 MB offered: ~21 minutes of writing at DROP_RATE
        long dropped;
        try (EventLog log = EventLog.open(f, settings(SinkPolicy.DROP, DROP_RATE))) {
            run(log, perProducer);
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
        // The producers returned (run() bounds them at 120 s, ~10 times less than the throttle needs for
        // what they offered): had they waited for the disk they would still be running. Most was dropped.
        assertTrue(dropped > written, "dropped " + dropped + " <= written " + written + ": the producers waited for the disk");
        assertHeapBounded(before);
    }

    private static SinkSettings settings(SinkPolicy p, long rate) {
        return SinkSettings.builder().policy(p).bufferBytes(BUFFER).buffers(4).maxBytesPerSecond(rate).build();
    }

    /** Four producers, each {@code perProducer} events; fails if one is still running after 120 s. */
    private static void run(EventLog log, int perProducer) throws Exception {
        List<Thread> threads = new ArrayList<>();
        String pad = "x".repeat(40);
        for (int p = 0; p < PRODUCERS; p++) {
            int me = p;
            Thread t = new Thread(() -> {
                for (long i = 0; i < perProducer; i++) {
                    log.emit(java.util.Map.of("p", me, "i", i, "pad", pad));
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
