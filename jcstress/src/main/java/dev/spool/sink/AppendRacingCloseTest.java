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
 * {@code append} racing the owner's {@code close()} (issue 11, defect 1): the closer marks the
 * sink closed and runs the writer loop to its end (drain, closed slot, close the output). The
 * append either lands in the output and returns true, or returns false and writes nothing.
 * Result: (append's return value, bytes in the output).
 */
@JCStressTest
@Outcome(id = "true, 8", expect = ACCEPTABLE, desc = "appended before the close: written")
@Outcome(id = "false, 0", expect = ACCEPTABLE, desc = "found the sink closed: refused, as a write to a closed stream")
@Outcome(expect = FORBIDDEN, desc = "acknowledged but lost (the defect), or refused but written")
@State
public class AppendRacingCloseTest {
    private static final SinkSettings SETTINGS = SinkSettings.builder().bufferBytes(SinkSettings.MIN_BUFFER_BYTES)
            .buffers(SinkSettings.MIN_BUFFERS).build();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteSink sink = ByteSink.unstartedForStream(out, SETTINGS);

    @Actor
    public void producer(ZI_Result r) {
        r.r1 = sink.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    }

    @Actor
    public void closer() {
        sink.closeRequested = true;
        sink.closed = true;
        sink.runWriter();
    }

    @Arbiter
    public void arbiter(ZI_Result r) {
        r.r2 = out.size();
    }
}
