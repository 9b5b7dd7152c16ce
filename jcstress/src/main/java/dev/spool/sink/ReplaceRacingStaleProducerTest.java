package dev.spool.sink;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@code tryReplace} racing a producer that holds a stale slot, at the {@link ByteSink} level.
 * The current buffer B0 (8 bytes of 0x11) is sealed and already in the writer's queue, but still
 * current; the pool holds B1. A producer appends 8 bytes of 0x22: it reads the slot of B0, finds
 * it full and installs a replacement itself ({@code tryReplace}), or finds the one the writer
 * installed. The writer meanwhile writes B0 and releases it: it installs B1 if B0 is still
 * current (its own {@code tryReplace}), then recycles B0 into the pool, where either actor's
 * {@code tryReplace} may take it. The arbiter closes the sink and drains it. Result: (append
 * returned true: 1 / false: 0, bytes in the output, output is B0's bytes then the producer's: 1 / 0).
 * The sink's waits are bounded by 100 ms here, so a defect that leaves the producer waiting for a
 * buffer nobody installs shows as a refused unit ({@code 0, 8, 0}) in a moment rather than after
 * the default 10 s; no acceptable interleaving waits at all. {@code jcstress/broken/} holds a
 * patch that makes this test fail (a buffer recycled while still current).
 */
@JCStressTest
@Outcome(id = "1, 16, 1", expect = ACCEPTABLE, desc = "both units written once, B0's first")
@Outcome(expect = FORBIDDEN, desc = "an acknowledged unit lost or written twice (a reservation in a recycled or "
        + "never-installed buffer), the order broken, or the unit refused (no buffer installed for it)")
@State
public class ReplaceRacingStaleProducerTest {
    private static final SinkSettings SETTINGS = SinkSettings.builder().bufferBytes(SinkSettings.MIN_BUFFER_BYTES)
            .buffers(2).waitMillis(100).build();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteSink sink = ByteSink.unstartedForStream(out, SETTINGS);

    public ReplaceRacingStaleProducerTest() {
        sink.append(unit((byte) 0x11));
        SinkBuffer b0 = sink.current();
        b0.seal();
        sink.slots.handOff(b0);               // queued and marked enqueued; still current
    }

    private static ByteBuffer unit(byte fill) {
        byte[] b = new byte[8];
        Arrays.fill(b, fill);
        return ByteBuffer.wrap(b);
    }

    @Actor
    public void producer(III_Result r) {
        r.r1 = sink.append(unit((byte) 0x22)) ? 1 : 0;
    }

    @Actor
    public void writer() {
        sink.runWriterOnce();                 // writes B0, installs B1 if B0 is still current, recycles B0
    }

    @Arbiter
    public void arbiter(III_Result r) {
        sink.closeRequested = true;
        sink.closed = true;
        sink.runWriter();
        byte[] b = out.toByteArray();
        r.r2 = b.length;
        boolean ordered = b.length == 16;
        for (int i = 0; i < b.length && ordered; i++) {
            ordered = b[i] == (i < 8 ? 0x11 : 0x22);
        }
        r.r3 = ordered ? 1 : 0;
    }
}
