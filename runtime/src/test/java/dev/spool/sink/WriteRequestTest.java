package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bounded wait of a {@link WriteRequest} (issue 11, defect 4): its time arithmetic at every
 * origin {@link System#nanoTime()} may have (its contract allows any, negative too), and an
 * interrupted waiter that parks instead of spinning and gets its interrupt back.
 */
class WriteRequestTest {
    @Test
    void shouldKeepWaitingForEverWhatEverTheClocksOrigin() {
        long[] origins = {Long.MIN_VALUE + 5, -1_000, 0, 1_000, Long.MAX_VALUE - 5};
        for (long start : origins) {
            for (long elapsed : new long[] {0, 1, 10, TimeUnit.DAYS.toNanos(365)}) {
                long now = start + elapsed;                      // wraps like nanoTime may
                assertEquals(Long.MAX_VALUE - elapsed, WriteRequest.nanosLeft(Long.MAX_VALUE, start, now),
                        "start " + start + ", elapsed " + elapsed);
                assertTrue(WriteRequest.nanosLeft(Long.MAX_VALUE, start, now) > 0);
            }
            assertEquals(0, WriteRequest.nanosLeft(1_000, start, start + 1_000), "a finite bound still ends, start " + start);
            assertTrue(WriteRequest.nanosLeft(1_000, start, start + 1_001) < 0);
        }
    }

    @Test
    void shouldParkWhenInterruptedAndGiveTheInterruptBack() throws Exception {
        ByteSink sink = ByteSink.forStream(new ByteArrayOutputStream(), "interrupted", SinkSettings.defaults());
        try {
            WriteRequest never = new WriteRequest(null, Thread.currentThread()); // never queued: never completed
            long waitMillis = 300;
            Thread.currentThread().interrupt();
            boolean done = never.await(TimeUnit.MILLISECONDS.toNanos(waitMillis), sink, false);
            assertTrue(Thread.interrupted(), "the interrupt is given back to the caller");
            assertFalse(done);
            // Each round parks up to 1 ms, so a 300 ms wait takes at most ~300 rounds (fewer on a
            // loaded machine); a waiter spinning on its interrupt does millions.
            assertTrue(never.rounds <= 3 * waitMillis, "rounds of the wait loop: " + never.rounds);
        } finally {
            sink.close();
        }
    }
}
