package dev.spool.bench.anchors;

import dev.spool.sink.ByteSink;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The routed-stream anchor rows (a JUL handler and a Logback appender on the Spool sink,
 * {@link AnchorBench}: 1,000,000 lines to disk, every line counted) with the sink's writer on
 * the shared pool ({@code writers=2}, the default {@code spool.sink.threads}) and on a thread of
 * its own ({@code writers=0}, the way before the pool), side by side: the pool must cost no
 * throughput. Each combination runs in a fork of its own, so the process-wide setting is taken
 * before the fork's first sink.
 */
public class SinkPoolBench extends AnchorBench {
    @Param({"spoolJul", "spoolLogback"})
    public String contender;

    /** {@code spool.sink.threads}: 0 = a writer thread per sink, 2 = the shared pool (default). */
    @Param({"0", "2"})
    public int writers;

    @Setup(Level.Trial)
    public void writers() {
        if (!ByteSink.configureWriterThreads(writers)) {
            throw new IllegalStateException("the sink pool existed before the setting");
        }
    }

    @Override
    protected String contender() {
        return contender;
    }
}
