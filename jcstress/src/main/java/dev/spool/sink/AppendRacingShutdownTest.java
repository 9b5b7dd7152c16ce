package dev.spool.sink;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZI_Result;

/**
 * {@code append} racing the sink's JVM shutdown hook (issue 10 item 4): the hook drains but keeps
 * the output open, so a unit written by another shutdown hook (JUL's {@code LogManager} cleanup)
 * is either buffered and drained, or written through: it always lands.
 * Result: (append's return value, bytes in the output).
 */
@JCStressTest
@Outcome(id = "true, 8", expect = ACCEPTABLE, desc = "drained, or written through after the drain")
@Outcome(expect = FORBIDDEN, desc = "a write during shutdown dropped or lost")
@State
public class AppendRacingShutdownTest {
    private static final SinkSettings SETTINGS = SinkSettings.builder().bufferBytes(SinkSettings.MIN_BUFFER_BYTES)
            .buffers(SinkSettings.MIN_BUFFERS).build();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteSink sink = ByteSink.unstartedForStream(out, SETTINGS);

    @Actor
    public void producer(ZI_Result r) {
        r.r1 = sink.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    }

    @Actor
    public void shutdownHook() {
        sink.closed = true;
        sink.runWriter();
    }

    @Arbiter
    public void arbiter(ZI_Result r) {
        r.r2 = out.size();
    }
}
