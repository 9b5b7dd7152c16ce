package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Param;

/**
 * The contenders that need no JVM option: JUL {@code FileHandler}, the Spool sink under a JUL
 * handler and under a Logback appender, Log4j2's synchronous RandomAccessFile appender, Logback's
 * AsyncAppender lossless and in its default (discarding) configuration; and two floors, the JUL
 * handler and the Logback appender on a stream that writes nothing (their lines are counted by
 * that stream). Each parameter
 * combination runs in a fork of its own (JMH's default).
 */
public class TextAnchorBench extends AnchorBench {
    @Param({"spoolJul", "spoolLogback", "julFileHandler", "log4j2Sync", "logbackAsync", "logbackAsyncDefault",
        "julNoIo", "logbackNoIo"})
    public String contender;

    @Override
    protected String contender() {
        return contender;
    }
}
