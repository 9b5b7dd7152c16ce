package dev.spool.agent.reliability;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An application's appender filter that takes the caller data of every second event (as a filter
 * that logs or checks it would): with the context's {@code frameworkPackages} naming {@code java.},
 * Spool defers only the events whose caller data is taken already; the others take Logback's own
 * path on the caller's thread, so one appender's journal holds both kinds of frames
 * ({@link LogbackJournalKillIT#shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhenSomeEventsTakeLogbacksOwnPath}).
 */
public final class LogbackKillCallerFilter extends Filter<ILoggingEvent> {
    private final AtomicLong seen = new AtomicLong();

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if ((seen.getAndIncrement() & 1) == 0) {
            event.getCallerData();
        }
        return FilterReply.NEUTRAL;
    }
}
