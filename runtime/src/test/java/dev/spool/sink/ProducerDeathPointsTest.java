package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A producer that dies at each point of {@code append} after its reservation (issue 11, defect 2),
 * reproduced deterministically by driving the claim/seal/hand-off steps by hand and stopping where
 * a {@code StackOverflowError} can strike. {@link ProducerDeathTest} finds these points by chance;
 * one death it found is not reproducible by hand: inside the writer queue's offer (see
 * {@code ProducerDeathTest}). Before the fix {@link #shouldWriteABufferWhoseSealerDiedAfterClaimingItsHandOff}
 * failed: the writer's rescue needed the hand-off claim the dead sealer held, so every later flush
 * and {@code BLOCK} append timed out for good.
 * After each death: a flush completes (every wait bounded by {@code spool.sink.wait.millis}),
 * every acknowledged unit is written once, later appends are written, the death is counted, and
 * a {@code DROP} producer meeting the dead buffer returns at once.
 */
class ProducerDeathPointsTest {
    private static final long WAIT_MILLIS = 300;
    private static final long FLUSH_MILLIS = 60_000;   // generous: the bound is structural, not timed here

    private final ByteArrayOutputStream target = new ByteArrayOutputStream();
    private final ByteSink sink = ByteSink.forStream(target, "death-points",
            SinkSettings.builder().bufferBytes(256).buffers(2).waitMillis(WAIT_MILLIS).build());

    @Test
    void shouldWriteABufferWhoseSealerDiedBeforeClaimingItsHandOff() {
        appendLines("a", 3);
        SinkBuffer buf = sink.current();
        assertEquals(SinkBuffer.SEALED_BY_ME, buf.reserve(1000));      // sealed; dies before handOff
        assertRecovers("a", 3);
    }

    @Test
    void shouldWriteABufferWhoseSealerDiedAfterClaimingItsHandOff() {
        appendLines("a", 3);
        BufferHandOff.Slot slot = sink.slots.currentSlot();
        assertEquals(SinkBuffer.SEALED_BY_ME, slot.buf.reserve(1000));
        assertTrue(slot.buf.claimHandOff());                                  // dies before the offer
        assertRecovers("a", 3);
    }

    @Test
    void shouldWriteABufferWhoseSealerDiedBeforeMarkingItEnqueued() {
        appendLines("a", 3);
        BufferHandOff.Slot slot = sink.slots.currentSlot();
        assertEquals(SinkBuffer.SEALED_BY_ME, slot.buf.reserve(1000));
        assertTrue(slot.buf.claimHandOff());
        sink.toWriter.offer(slot.buf);                                        // dies before markEnqueued
        assertRecovers("a", 3);
    }

    @Test
    void shouldWriteOnCloseABufferWhoseSealerDiedBeforeItsHandOff() {
        appendLines("a", 3);
        assertEquals(SinkBuffer.SEALED_BY_ME, sink.current().reserve(1000));   // sealed; dies before handOff
        sink.close();                                                         // before the writer's rescue
        assertEquals(lines("a", 3), text(), "the acknowledged lines are written at close");
        assertTrue(sink.metrics().errors() > 0, "the death is counted");
    }

    @Test
    void shouldWriteAroundAReservationThatWasNeverCommitted() {
        appendLines("a", 2);
        assertTrue(sink.current().reserve(8) >= 0);                       // dies before the try: no commit, no hole
        appendLines("b", 2);
        assertTrue(sink.flush(FLUSH_MILLIS), "flush after a stuck reservation; " + sink.metrics());
        assertTrue(sink.metrics().errors() > 0, "the stuck reservation is counted");
        String text = text();
        assertTrue(text.startsWith(lines("a", 2)) && text.endsWith(lines("b", 2)), text);
        appendLines("c", 2);
        assertTrue(sink.flush(FLUSH_MILLIS), "a later flush; " + sink.metrics());
        assertTrue(text().endsWith(lines("c", 2)), text());
        sink.close();
    }

    private void assertRecovers(String prefix, int n) {
        sink.policy = SinkPolicy.DROP;
        assertFalse(sink.append(line("dropped")), "a DROP producer meeting the dead sealer's buffer returns, refused");
        sink.policy = SinkPolicy.BLOCK;
        assertTrue(sink.flush(FLUSH_MILLIS), "flush after the sealer died; " + sink.metrics() + " " + sink.metrics().lastError());
        assertEquals(lines(prefix, n), text(), "the acknowledged lines, once");
        assertTrue(sink.metrics().errors() > 0, "the death is counted");
        appendLines("z", 9);                                              // crosses buffers: the pool is whole
        assertTrue(sink.flush(FLUSH_MILLIS), "a later flush; " + sink.metrics());
        assertTrue(text().endsWith(lines("z", 9)), text());
        sink.close();
    }

    private void appendLines(String prefix, int n) {
        for (int i = 0; i < n; i++) {
            assertTrue(sink.append(line(prefix + i)));
        }
    }

    /** 40 bytes: a few fill a 256-byte buffer. */
    private static String padded(String s) {
        return String.format("%-39s\n", s);
    }

    private static String lines(String prefix, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(padded(prefix + i));
        }
        return b.toString();
    }

    private static ByteBuffer line(String s) {
        return ByteBuffer.wrap(padded(s).getBytes(StandardCharsets.US_ASCII));
    }

    private String text() {
        return target.toString(StandardCharsets.US_ASCII);
    }
}
