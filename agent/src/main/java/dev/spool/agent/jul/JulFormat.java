package dev.spool.agent.jul;

import java.util.logging.LogRecord;

/**
 * A JDK formatter Spool reproduces exactly, split where capture at the call splits it: what must
 * be read on the application's thread ({@link #capture}), and the text made from it on the writer
 * ({@link #format}). Implementations: {@link CompiledSimpleFormatter} ({@code SimpleFormatter}, any
 * format string) and {@link JulXmlFormat} ({@code XMLFormatter}). Thread-safe: capture runs on any
 * application thread, format on one log's drainer at a time.
 */
interface JulFormat {

    /**
     * On the caller's thread: everything the formatter would read that depends on that thread or
     * may change after the call; throws where the JDK's formatter would fail on this record (the
     * record then takes the host's path, which reports the failure as the JDK does).
     *
     * @param sources infers a source still to infer (null: the JDK's inference)
     */
    JulCapture capture(LogRecord record, JulSources sources);

    /**
     * Whether {@link #capture} reads the record's source (so its caller is inferred). The caller of
     * {@code capture} infers it first, a few frames nearer the logger: the walk costs per frame.
     */
    default boolean readsSource() {
        return true;
    }

    /** On the writer: the text the JDK's formatter would have returned at the call. */
    String format(JulCapture captured);

    /**
     * As {@link #format(JulCapture)}, a deferred message formatted with {@code formats} (the log's
     * parsed patterns; its drainer only).
     */
    default String format(JulCapture captured, JulMessageFormats formats) {
        captured.message(formats);
        return format(captured);
    }
}
