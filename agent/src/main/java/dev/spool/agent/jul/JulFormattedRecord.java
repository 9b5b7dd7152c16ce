package dev.spool.agent.jul;

import java.util.logging.LogRecord;

/**
 * A record Spool's writer thread publishes through the host's own handler, carrying the text
 * {@link CompiledSimpleFormatter} made of a captured record: the handler's {@code SimpleFormatter}
 * (woven) returns {@link #text} instead of formatting, and the handler writes, counts, flushes and
 * rotates exactly as for the original record. Level and logger name are the original's (the
 * handler checks the level again). Immutable after construction.
 */
final class JulFormattedRecord extends LogRecord {

    private static final long serialVersionUID = 1L;

    final transient String text;

    JulFormattedRecord(JulCapture captured, String text) {
        super(captured.level, null);
        setLoggerName(captured.loggerName);
        this.text = text;
    }
}
