package dev.spool.agent.internal;

import dev.spool.sink.SinkStreams;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Draining a sink stream: blocks (at most the sink's bound, {@code spool.sink.wait.millis}) until
 * every byte written to it is in its delegate; an {@code IOException} when that bound runs out or a
 * write failed meanwhile (a full disk), as a plain flush would have reported it.
 */
final class Sinks {

    private Sinks() {}

    static void drain(OutputStream routed) throws IOException {
        if (routed instanceof LogSink.FileStream) {
            ((LogSink.FileStream) routed).drain();
            return;
        }
        SinkStreams.drain(routed);
    }
}
