package dev.spool.agent.internal;

import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkStreams;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A log handler's stream under the agent: while routing is on, bytes go to the sink's stream
 * ({@code routed}, which writes them to {@code direct} on the sink thread, same bytes, same
 * order); when the kill switch turns routing off, the sink is drained first and later bytes go
 * straight to {@code direct} on the caller's thread, so the order on disk is kept either way.
 *
 * <p>Not thread-safe by itself: callers (JUL handlers, Logback appenders) already serialise
 * their writes, as for any OutputStream they own.
 */
final class RoutedStream extends OutputStream {

    private final OutputStream direct;
    private final OutputStream routed;
    private final AgentControl control;
    private final String name;
    private volatile boolean routing = true;
    /** Bytes were written since the last flush: the next flush is the handler's per-record one. */
    private volatile boolean wroteSinceFlush;

    RoutedStream(OutputStream direct, OutputStream routed, AgentControl control, String name) {
        this.direct = direct;
        this.routed = routed;
        this.control = control;
        this.name = name;
    }

    String name() {
        return name;
    }

    /** The sink's live metrics (for its Sink MBean), or null. */
    SinkMetrics metrics() {
        return SinkStreams.metricsOf(routed);
    }

    private OutputStream target() throws IOException {
        boolean on = control.routingEnabled();
        if (on != routing) {
            if (!on) {
                Sinks.drain(routed); // everything routed so far reaches the file before direct bytes
            } else {
                direct.flush();
            }
            routing = on;
        }
        return on ? routed : direct;
    }

    @Override
    public void write(int b) throws IOException {
        target().write(b);
        wroteSinceFlush = true;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        target().write(b, off, len);
        wroteSinceFlush = true;
    }

    /**
     * Tells the handler's own flush after each record from a flush the application asked for.
     *
     * <p>JUL's {@code FileHandler.publish} (and Logback's {@code immediateFlush}) writes a
     * record's bytes and then flushes, under the handler's lock: a flush that follows a write is
     * that per-record flush, and is not forwarded while routing (forwarding it would wake the
     * sink's writer for every record and write one record per system call, which is what routing
     * exists to avoid; the sink writes a partly filled buffer by itself after its linger time).
     * A flush with nothing written since the last one is the application's own
     * ({@code handler.flush()} after logging: the record's own flush came first): it drains the
     * sink, so everything logged before it is in the file when it returns, as without the agent.
     */
    @Override
    public void flush() throws IOException {
        OutputStream out = target();
        if (out == direct) {
            out.flush();
            return;
        }
        if (wroteSinceFlush) {
            wroteSinceFlush = false;
            return;
        }
        drain();
    }

    /** Blocks until everything written so far is in the file's stream. */
    void drain() throws IOException {
        if (routing) {
            Sinks.drain(routed);
        }
        direct.flush();
    }

    @Override
    public void close() throws IOException {
        control.forget(this);
        routed.close();
    }
}
