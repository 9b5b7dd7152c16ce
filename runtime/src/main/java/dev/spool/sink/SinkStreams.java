package dev.spool.sink;

import dev.spool.internal.Internal;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Text streams through the sink: {@link #wrap} returns an {@link OutputStream} whose bytes are
 * written to the delegate by the sink's writer (a thread of the shared writer pool), the same bytes in the same order with no
 * framing (the delegate's output is byte-identical to writing it directly). {@code write} copies
 * and returns; {@code flush()} is a cheap request; {@code close()} drains, flushes and closes the
 * delegate. Thread-safe; bytes of one {@code write} call are never interleaved with another's.
 *
 * <pre>{@code
 * OutputStream out = SinkStreams.wrap(new FileOutputStream("app.log", true), "app.log", SinkSettings.defaults());
 * handler = new StreamHandler(out, new SimpleFormatter());
 * }</pre>
 */
@Internal
public final class SinkStreams {
    private SinkStreams() {
    }

    public static OutputStream wrap(OutputStream delegate, String name, SinkSettings settings) {
        return new SinkOutputStream(ByteSink.forStream(delegate, name, settings));
    }

    /**
     * Blocks until every byte written to {@code stream} (returned by {@link #wrap}) is in its
     * delegate, at most {@code spool.sink.wait.millis}; throws an {@link IOException} on time-out,
     * when the stream is closed, or when a write failed meanwhile (e.g. a full disk). For any
     * other stream: {@code stream.flush()}.
     */
    public static void drain(OutputStream stream) throws IOException {
        if (stream instanceof SinkOutputStream) {
            ((SinkOutputStream) stream).drain();
        } else {
            stream.flush();
        }
    }

    /**
     * The sink's own flush of {@code stream} (returned by {@link #wrap}): waits at most
     * {@code spool.sink.wait.millis} until every byte written so far is in its delegate, and says
     * whether it was (false: the time ran out, a write failed meanwhile, the stream is closed).
     * Unlike {@link #drain} it reports no error: one the sink recorded stays for the stream's own
     * next {@code flush} or {@code drain} to throw. For any other stream: false.
     */
    public static boolean flushed(OutputStream stream) {
        if (stream instanceof SinkOutputStream s) {
            return s.sink.flush(s.sink.waitMillis);
        }
        return false;
    }

    /** The metrics of a stream returned by {@link #wrap}, or null for any other stream. */
    public static SinkMetrics metricsOf(OutputStream stream) {
        return stream instanceof SinkOutputStream ? ((SinkOutputStream) stream).sink.metrics() : null;
    }
}
