package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Param;

/**
 * The realistic-layout contenders that need no JVM option: Logback plain and async, Log4j2
 * synchronous, JUL plain ({@code julFile}: {@code scripts/layout-anchors.sh} picks them with {@code -p contender}).
 */
public class LayoutAnchorBench extends LayoutAnchorBase {
    @Param({"logbackFile", "logbackAsync", "log4j2Sync", "julFile"})
    public String contender;

    @Override
    protected String contender() {
        return contender;
    }
}
