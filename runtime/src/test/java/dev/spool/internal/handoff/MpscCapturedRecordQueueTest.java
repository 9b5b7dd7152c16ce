package dev.spool.internal.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.sink.SinkPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MpscCapturedRecordQueueTest {

    private static final long GENEROUS_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** Records of producer p, number i, in the order the encoder saw them. */
    private static final class Seen implements CapturedRecordEncoder<long[]> {
        final List<long[]> records = new ArrayList<>(); // written by the one drainer at a time
        volatile int count;

        @Override
        public void encode(long[] r) {
            records.add(r);
            count++;
        }
    }

    @Test
    void shouldEncodeEveryRecordOnceInEachProducersOrderThroughTheWriterThread() throws Exception {
        int producers = 4;
        int perProducer = 20_000;
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 256, SinkPolicy.BLOCK, 60_000);
        Seen seen = new Seen();
        CapturedLogWriterPool pool = new CapturedLogWriterPool("test-writer", 2);
        CapturedLogWriterPool.Registration w = pool.register("t", () -> q.drainTo(seen, 64), q);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long id = p;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perProducer; i++) {
                    assertTrue(q.offer(new long[] {id, i}));
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long deadline = System.nanoTime() + GENEROUS_NANOS;
        while (seen.count < producers * perProducer && System.nanoTime() < deadline) {
            Thread.yield(); // awaiting the writer thread's progress, no fixed sleep
        }
        w.stop();
        assertTrue(w.awaitStopped(60_000));
        pool.shutdown();
        assertTrue(pool.awaitShutdown(60_000));
        assertEquals(producers * perProducer, seen.records.size());
        long[] next = new long[producers];
        for (long[] r : seen.records) {
            assertEquals(next[(int) r[0]]++, r[1], "producer " + r[0] + " out of order");
        }
        assertEquals(0, q.dropped());
        assertEquals(producers * perProducer, q.encoded());
    }

    @Test
    void shouldHaveEncodedEveryRecordOfferedBeforeADrainWhenTheDrainReturns() {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 1024, SinkPolicy.BLOCK, 1_000);
        Seen seen = new Seen();
        for (int i = 0; i < 1000; i++) {
            assertTrue(q.offer(new long[] {0, i}));
        }
        assertEquals(1000, q.drainTo(seen, Integer.MAX_VALUE));
        assertEquals(1000, seen.count);
        assertTrue(q.isEmpty());
    }

    @Test
    void shouldDropAtOnceWhenFullUnderDrop() {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 4, SinkPolicy.DROP, 60_000);
        for (int i = 0; i < 4; i++) {
            assertTrue(q.offer(new long[] {0, i}));
        }
        assertFalse(q.offer(new long[] {0, 4}));
        assertEquals(1, q.dropped());
    }

    @Test
    void shouldGiveUpAfterTheBoundWhenFullUnderBlock() {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 2, SinkPolicy.BLOCK, 50);
        assertTrue(q.offer(new long[] {0, 0}));
        assertTrue(q.offer(new long[] {0, 1}));
        assertFalse(q.offer(new long[] {0, 2})); // returns: the wait is bounded (no drainer at all)
        assertEquals(1, q.dropped());
        assertTrue(q.lastError().contains("stayed full"));
    }

    @Test
    void shouldDropRatherThanWaitForItselfWhenTheEncoderOffersToItsOwnFullQueue() {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 2, SinkPolicy.BLOCK, 60_000);
        assertTrue(q.offer(new long[] {0, 0}));
        assertTrue(q.offer(new long[] {0, 1}));
        boolean[] accepted = new boolean[1];
        q.drainTo(new CapturedRecordEncoder<long[]>() {
            @Override
            public void encode(long[] r) {
                if (r[1] == 0) {
                    assertTrue(q.offer(new long[] {0, 2})); // room: one was polled
                    accepted[0] = q.offer(new long[] {0, 3}); // full, and this thread is the drainer
                }
            }
        }, 1);
        assertFalse(accepted[0]);
        assertEquals(1, q.dropped());
        assertTrue(q.lastError().contains("its own full queue"), q.lastError()); // not the bounded wait's drop
    }

    @Test
    void shouldCountAFailingRecordAndEncodeTheNext() {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 8, SinkPolicy.BLOCK, 1_000);
        q.offer(new long[] {0, 0});
        q.offer(new long[] {0, 1});
        Seen seen = new Seen();
        q.drainTo(r -> {
            if (r[1] == 0) {
                throw new IllegalStateException("bad record");
            }
            seen.encode(r);
        }, 10);
        assertEquals(1, seen.count);
        assertEquals(1, q.encodeErrors());
        assertTrue(q.lastError().contains("bad record"));
    }

    @Test
    void shouldGiveEveryPolledRecordsRoomBackWhenTheDrainReturns() {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 4, SinkPolicy.DROP, 0);
        for (int i = 0; i < 4; i++) {
            assertTrue(q.offer(new long[] {0, i}));
        }
        assertEquals(3, q.drainTo(r -> { }, 3)); // fewer than a release step
        for (int i = 4; i < 7; i++) {
            assertTrue(q.tryOffer(new long[] {0, i}), "room of polled record " + (i - 4));
        }
        assertFalse(q.tryOffer(new long[] {0, 7}), "full again: 1 left + 3 new");
        assertEquals(4, q.size());
    }

    @Test
    void shouldGiveRoomBackWhileALongDrainRunsNotOnlyAtItsEnd() throws Exception {
        int capacity = 4 * MpscCapturedRecordQueue.RELEASE_EVERY;
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", capacity, SinkPolicy.DROP, 0);
        for (int i = 0; i < capacity; i++) {
            assertTrue(q.offer(new long[] {0, i}));
        }
        boolean[] roomMidway = new boolean[1];
        q.drainTo(r -> {
            if (r[1] == 2 * MpscCapturedRecordQueue.RELEASE_EVERY) { // another producer, while this drain runs
                Thread producer = new Thread(() -> roomMidway[0] = q.tryOffer(new long[] {1, 0}));
                producer.start();
                try {
                    producer.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, capacity);
        assertTrue(roomMidway[0], "a producer finds room after a release step of a drain still running");
    }

    /** A reader may skip its drain only when nothing is queued and no drain is writing (issue 30, RoutedLogReads). */
    @Test
    void shouldBeIdleOnlyWhenNothingIsQueuedAndNoDrainIsWriting() throws Exception {
        MpscCapturedRecordQueue<String> q = new MpscCapturedRecordQueue<>("idle", 16, SinkPolicy.BLOCK, 60_000);
        assertTrue(q.idle(), "new");
        assertTrue(q.offer("a"));
        assertFalse(q.idle(), "a record queued");
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread drainer = new Thread(() -> q.drainTo(r -> {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, 16));
        drainer.start();
        assertTrue(writing.await(60, TimeUnit.SECONDS));
        assertTrue(q.isEmpty(), "the record was taken");
        assertFalse(q.idle(), "taken but still being written");
        release.countDown();
        drainer.join(60_000);
        assertTrue(q.idle(), "written");
    }
}
