package dev.spool.internal.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.sink.SinkPolicy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Producers that die inside {@link MpscCapturedRecordQueue#offer} (a host logging from
 * {@code catch (StackOverflowError e)}, where the offer itself overflows the stack) never stop the
 * drain: every drain returns, and the queue goes on carrying records afterwards. With an array
 * queue (claim a slot, then store) a death between the two steps left the drainer spinning on the
 * claimed slot for ever, under the lock every flush and close takes (found by the sink's
 * {@code ProducerDeathTest}; the reproduction needs interpreted frames and luck, so this test is a
 * regression guard run over many rounds: with the old array queue and {@code -Xint} it hung in
 * the first run, 60 s bound; with this queue it passes in 3 s under {@code -Xint}).
 */
class MpscCapturedRecordQueueDeathTest {

    private static final int ROUNDS = 400;

    @Test
    void shouldKeepDrainingWhenProducersDieInsideOffer() throws Exception {
        MpscCapturedRecordQueue<long[]> q = new MpscCapturedRecordQueue<>("t", 1 << 16, SinkPolicy.DROP, 0);
        AtomicLong encoded = new AtomicLong();
        CapturedRecordEncoder<long[]> enc = r -> encoded.incrementAndGet();
        AtomicLong accepted = new AtomicLong();
        for (int round = 0; round < ROUNDS; round++) {
            Thread[] producers = new Thread[2];
            for (int p = 0; p < producers.length; p++) {
                producers[p] = new Thread(null, () -> recurse(q, accepted, 0), "dying-producer", 256 * 1024);
                producers[p].start();
            }
            Thread drainer = new Thread(() -> {
                while (producers[0].isAlive() || producers[1].isAlive()) {
                    q.drainTo(enc, 1024);
                }
            });
            drainer.start();
            for (Thread t : producers) {
                t.join();
            }
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> drainer.join(), "a drain hung after producers died in offer");
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> q.drainTo(enc, Integer.MAX_VALUE), "the final drain hung");
        }
        assertTrue(encoded.get() >= accepted.get(), encoded + " encoded < " + accepted + " accepted");
        assertTrue(q.isEmpty());
        long before = encoded.get();
        assertTrue(q.offer(new long[] {1}));
        q.drainTo(enc, Integer.MAX_VALUE);
        assertEquals(before + 1, encoded.get(), "the queue carries records after the deaths");
    }

    private static void recurse(MpscCapturedRecordQueue<long[]> q, AtomicLong accepted, int depth) {
        try {
            recurse(q, accepted, depth + 1);
        } catch (StackOverflowError e) {
            if (q.offer(new long[] {depth})) { // may itself overflow: a death inside offer
                accepted.incrementAndGet();
            }
            if (depth % 64 != 0) {
                throw e; // unwind, offering from many frames near the limit
            }
        }
    }
}
