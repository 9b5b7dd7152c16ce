package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Param;

/** The realistic-layout contenders that need no JVM option: Logback plain and async, Log4j2 synchronous. */
public class LayoutAnchorBench extends LayoutAnchorBase {
    @Param({"logbackFile", "logbackAsync", "log4j2Sync"})
    public String contender;

    @Override
    protected String contender() {
        return contender;
    }
}
