package dev.spool.agent.internal;

import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkStreams;
import java.io.IOException;
import java.io.OutputStream;

/** Draining a sink stream: blocks (bounded by the sink) until every byte written to it is in its delegate. */
final class Sinks {

    private Sinks() {}

    static void drain(OutputStream routed) throws IOException {
        if (routed instanceof LogSink.FileStream) {
            ((LogSink.FileStream) routed).drain();
            return;
        }
        SinkMetrics metrics = SinkStreams.metricsOf(routed);
        if (metrics != null) {
            metrics.flush();
        } else {
            routed.flush();
        }
    }
}
