package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Producers that die inside {@code append} (issue 11, defect 2): a host logging from a
 * {@code catch (StackOverflowError e)} near its stack limit overflows again inside the sink, at
 * every point of reserve/copy/commit as the stack unwinds. Before the fix a death between
 * reserve and commit left the buffer short of its limit for ever: the writer waited, flush timed
 * out, close hung. Now the commit is in a {@code finally} (a failed copy becomes a hole the
 * writer skips) and every wait is bounded.
 */
class ProducerDeathTest {
    private static final int ROUNDS = 40;

    @Test
    @Disabled("Known failing (issue 11 stays open): on the final CI run, on a quiet machine, flush after round 31"
            + " timed out with 508 bytes pending and 243 errors counted: a producer dying inside append can"
            + " still wedge a flush past the writer's bounded wait. docs/RELIABILITY.md 'Known failing'.")
    void shouldKeepFlushingAfterProducersOverflowTheirStackInsideAppend() throws Exception {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        SinkSettings s = SinkSettings.builder().bufferBytes(256).buffers(2).waitMillis(2_000).build();
        OutputStream out = SinkStreams.wrap(target, "death", s);
        ByteSink sink = ((SinkOutputStream) out).sink;
        for (int round = 0; round < ROUNDS; round++) {
            Thread t = new Thread(null, () -> new Deep(sink).recurse(0), "deep-" + round, 256 << 10);
            t.start();
            t.join();
            assertTrue(sink.flush(10_000), "flush after round " + round + " timed out: a reservation was never committed; "
                    + sink.metrics());
        }
        sink.close();
        String text = target.toString(StandardCharsets.US_ASCII);
        int filler = 0;
        for (String line : text.split("\n")) {
            String kept = line.replace("\0", "");
            filler += line.length() - kept.length();
            assertTrue(kept.isEmpty() || kept.equals("near the stack limit"), "torn line: [" + line + "]; " + sink.metrics()
                    + " " + sink.metrics().lastError());
        }
        // A thread that overflows while HotSpot deoptimizes the frame right after its reservation dies
        // with neither a commit nor a hole: the writer's bounded wait then writes the range as it is
        // (zeros of a fresh buffer, or stale bytes of a recycled one) and counts an error.
        assertTrue(filler == 0 || sink.metrics().errors() > 0, filler + " filler bytes written without an error");
        assertTrue(text.contains("near the stack limit"), "some appends succeeded");
    }

    /** Recurses until the stack overflows, then appends from every catch on the way back up. */
    private static final class Deep {
        private final ByteSink sink;
        private final ByteBuffer line = ByteBuffer.wrap("near the stack limit\n".getBytes(StandardCharsets.US_ASCII));
        private final ByteBuffer empty = ByteBuffer.allocate(0);

        Deep(ByteSink sink) {
            this.sink = sink;
        }

        void recurse(int depth) {
            try {
                recurse(depth + 1);
            } catch (StackOverflowError e) {
                sink.append(line.duplicate(), empty);
            }
        }
    }
}
