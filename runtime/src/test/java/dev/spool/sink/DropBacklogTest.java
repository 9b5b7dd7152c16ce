package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The {@code DROP} direct backlog under contention (issue 11, defect 4): a throttled writer frees
 * room for about one unit at a time while eight producers offer direct writes as fast as they
 * can, so they race at the bound hundreds of times. The bytes queued may reach the bound but
 * never pass it (the check and the add are one step under one monitor), every offer returns
 * accepted or dropped (counted), and everything accepted is written.
 */
class DropBacklogTest {
    private static final int THREADS = 8;
    private static final int UNIT = 3_000;
    private static final long WANTED_UNITS = 1_500;
    private static final long MAX_OFFERS_PER_THREAD = 5_000_000;

    @Test
    void shouldNeverQueueMoreDirectBytesThanTheBacklogBound() throws Exception {
        AtomicLong written = new AtomicLong();
        OutputStream counting = new OutputStream() {
            @Override
            public void write(int b) {
                written.incrementAndGet();
            }

            @Override
            public void write(byte[] b, int off, int len) {
                written.addAndGet(len);
            }
        };
        SinkSettings s = SinkSettings.builder().bufferBytes(4096).buffers(2).recordMax(4096).directThreshold(2048)
                .maxBytesPerSecond(10_000_000).policy(SinkPolicy.DROP).build();
        ByteSink sink = ByteSink.forStream(counting, "backlog", s);
        long bound = sink.directBacklogBytes;
        assertTrue(bound < 8L * UNIT, "a bound of a few units, so producers meet it constantly: " + bound);
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong accepted = new AtomicLong();
        AtomicLong offers = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread th = new Thread(() -> {
                ByteBuffer unit = ByteBuffer.wrap(new byte[UNIT]);
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (long i = 0; i < MAX_OFFERS_PER_THREAD && accepted.get() < WANTED_UNITS; i++) {
                    offers.incrementAndGet();
                    if (sink.appendDirect(unit.duplicate())) {
                        accepted.incrementAndGet();
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        go.countDown();
        for (Thread th : threads) {
            th.join();
        }
        long peak;
        synchronized (sink.direct.pendingLock) {
            peak = sink.direct.peakPendingDirect;
        }
        assertTrue(peak <= bound, "queued direct bytes peaked at " + peak + ", over the bound " + bound);
        assertEquals(offers.get(), accepted.get() + sink.metrics().dropped(), "every offer accepted or counted as dropped");
        assertTrue(sink.flush(60_000));
        assertEquals(accepted.get() * UNIT, written.get(), "everything accepted is written");
        sink.close();
    }
}
