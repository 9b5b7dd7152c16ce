package dev.spool.sink;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The writer recycling a written buffer while a producer still holds a stale reference to it
 * (it read the old slot before the buffer was sealed). The stale producer must never reserve
 * space in the recycled buffer (it would be overwritten or written twice), and after recycling
 * the buffer must be closed with nothing committed. Result: (stale reserve: 1 succeeded / 0
 * refused, buffer after recycle: 1 closed and empty / 0 not).
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the stale reservation is refused; the buffer is free and empty")
@Outcome(expect = FORBIDDEN, desc = "a stale producer reserved space in a recycled buffer, or recycling left it open")
@State
public class RecycleRacingStaleProducerTest {
    private final SinkBuffer buf = new SinkBuffer(16, false);

    public RecycleRacingStaleProducerTest() {
        buf.open();
        buf.reserve(8);
        buf.commit(8);
        buf.seal();
        buf.markEnqueued();
    }

    @Actor
    public void staleProducer(II_Result r) {
        long at = buf.reserve(4);
        if (at >= 0) {
            buf.commit(4);
            r.r1 = 1;
        } else {
            r.r1 = 0;
        }
    }

    @Actor
    public void writer() {
        buf.recycle();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = buf.claimedAcquire() >= SinkBuffer.CLOSED && buf.reservedBytes() == 0 && !buf.isEnqueued() ? 1 : 0;
    }
}
