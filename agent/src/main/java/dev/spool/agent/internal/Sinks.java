package dev.spool.agent.internal;

import java.io.IOException;
import java.io.OutputStream;

/** Draining a sink stream: blocks until every byte written to it is in its delegate. */
final class Sinks {

    private Sinks() {}

    static void drain(OutputStream routed) throws IOException {
        routed.flush();
    }
}
