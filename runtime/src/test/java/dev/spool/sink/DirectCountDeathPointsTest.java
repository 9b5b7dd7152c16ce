package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The queued direct bytes (what a {@code DROP} sink's direct backlog bounds, and
 * {@code PendingBytes}) stay right whatever point a producer dies at (issue 11's residual). Each
 * test leaves the state a death leaves, by hand, and then checks the count after the writer's
 * next flush. Before the fix the count was skewed for good: a producer that died after counting
 * and before queueing (HotSpot can throw {@code StackOverflowError} while deoptimizing an
 * exception handler, so even a {@code finally} may not run) left its bytes counted; a waiter that
 * cancelled a timed-out request and died before uncounting it left them counted too; a death
 * inside the offer after the node was linked let the {@code finally} and then the writer both
 * uncount. {@link ProducerDeathTest} finds such deaths by chance.
 */
class DirectCountDeathPointsTest {
    /** Fits the backlog (4,128 bytes) once, but not beside a unit left counted. */
    private static final int UNIT = 3_000;
    private static final long FLUSH_MILLIS = 60_000;   // generous: the bound is structural, not timed here

    private final ByteArrayOutputStream target = new ByteArrayOutputStream();

    @Test
    void shouldForgetTheCountOfADirectWriteThatNeverReachedTheQueue() {
        ByteSink sink = dropSink();
        synchronized (sink.direct.pendingLock) {       // counted; the producer died before its offer
            sink.direct.pendingDirect += UNIT;
        }
        assertTrue(sink.flush(FLUSH_MILLIS), "flush; " + sink.metrics());
        assertEquals(0, sink.pendingBytes(), "nothing queued after a flush");
        assertTrue(sink.metrics().errors() > 0, "the repair is counted as an error");
        assertBacklogWhole(sink);
    }

    @Test
    void shouldNotUncountADirectWriteQueuedByAProducerThatDiedBeforeCountingIt() {
        ByteSink sink = dropSink();
        sink.toWriter.offer(new WriteRequest(new ByteBuffer[] {ByteBuffer.wrap(new byte[UNIT])}, null));
        sink.wakeWriter();                               // queued; the producer died before its count
        assertTrue(sink.flush(FLUSH_MILLIS), "flush; " + sink.metrics());
        assertEquals(UNIT, target.size(), "the queued write is written");
        assertEquals(0, sink.pendingBytes(), "nothing queued after a flush (not negative)");
        assertBacklogWhole(sink);
    }

    @Test
    void shouldUncountADirectWriteWhoseWaiterCancelledItAndDied() {
        ByteSink sink = ByteSink.unstartedForStream(target, SinkSettings.builder().bufferBytes(256).waitMillis(300).build());
        WriteRequest req = new WriteRequest(new ByteBuffer[] {ByteBuffer.wrap(new byte[UNIT])}, Thread.currentThread());
        assertTrue(sink.direct.enqueue(req, Long.MAX_VALUE));
        assertEquals(UNIT, sink.pendingBytes());
        assertTrue(req.cancel(), "the waiter timed out and withdrew it");   // and died before uncounting
        assertTrue(sink.runWriterOnce(), "the writer takes the withdrawn request off its queue");
        assertEquals(0, target.size(), "a withdrawn write is not written");
        assertEquals(0, sink.pendingBytes(), "nothing queued once the writer has seen it");
        assertFalse(sink.runWriterOnce());
    }

    private ByteSink dropSink() {
        SinkSettings s = SinkSettings.builder().bufferBytes(256).buffers(2).recordMax(16).waitMillis(300)
                .policy(SinkPolicy.DROP).build();
        ByteSink sink = ByteSink.forStream(target, "direct-count", s);
        assertEquals(4128, sink.directBacklogBytes, "the smallest backlog: twice the record max and 4 KiB");
        return sink;
    }

    /** The backlog takes a unit again, and it is written. */
    private void assertBacklogWhole(ByteSink sink) {
        int before = target.size();
        assertTrue(sink.appendDirect(ByteBuffer.wrap(new byte[UNIT])), "the direct backlog has room; " + sink.metrics());
        assertTrue(sink.flush(FLUSH_MILLIS));
        assertEquals(before + UNIT, target.size());
        assertEquals(0, sink.pendingBytes());
        sink.close();
    }
}
