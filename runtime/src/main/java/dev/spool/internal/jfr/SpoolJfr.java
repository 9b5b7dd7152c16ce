package dev.spool.internal.jfr;

import dev.spool.sink.SinkMetrics;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one door from Spool's code to JFR: each method is one emission point's call and returns at
 * once when the switch is off or no recording wants the event. Never throws.
 *
 * <p>The switch: {@code spool.jfr.enabled} (system property, default {@code true}; the agent sets
 * it from its configuration with {@link #setEnabled}). Off, or on a JVM without the
 * {@code jdk.jfr} module, no event class is ever loaded. A timed event is two calls: a
 * {@code begin...} that returns a token (null when nobody records) and the matching commit.
 * <pre>{@code
 * Object flush = SpoolJfr.beginBufferFlush(dirtyBytes);
 * ... write the files ...
 * SpoolJfr.bufferFlushed(flush, forced, written, conflicts, failures);
 * }</pre>
 */
public final class SpoolJfr {

    /** The switch's system property. */
    public static final String ENABLED_PROPERTY = "spool.jfr.enabled";
    /** Flush triggers as {@code dev.spool.BufferFlush} names them. */
    public static final String TIMER = "timer", CAPACITY = "capacity", EXPLICIT = "explicit", EXIT = "exit";

    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();
    private static volatile boolean enabled = AVAILABLE
            && !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "true").trim());
    /** Open sinks and the dropped count last reported for each (for the periodic events). */
    static final Map<SinkMetrics, long[]> SINKS = new ConcurrentHashMap<>();

    private SpoolJfr() {}

    /** Turns emission on or off (on only where the JVM has JFR). */
    public static void setEnabled(boolean on) {
        enabled = on && AVAILABLE;
    }

    /**
     * Whether an event may be recorded now: the switch is on and JFR has started (a recording
     * exists or existed: {@code -XX:StartFlightRecording}, {@code jcmd JFR.start}, the JFR API).
     * Until then no event class is touched: creating the first one initialises JFR's event
     * machinery (about a hundred classes and generated handlers), which a JVM that never records
     * should not pay, least of all in its exit flush (issue 12 item 7).
     */
    private static boolean on() {
        if (!enabled) {
            return false;
        }
        if (recorderSeen) {
            return true;
        }
        if (recorderInitialized()) {
            recorderSeen = true;
            return true;
        }
        return false;
    }

    private static volatile boolean recorderSeen;

    /**
     * Here, not in {@link Emit}: loading (verifying) {@code Emit} loads event classes
     * ({@code NoRecordingTest}).
     */
    private static boolean recorderInitialized() {
        try {
            return jdk.jfr.FlightRecorder.isInitialized();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** @return whether events may be emitted (a recording still decides which are). */
    public static boolean enabled() {
        return enabled;
    }

    /**
     * Starts timing a buffer flush.
     * @param dirtyBytes estimated bytes of the dirty files now
     * @return a token for {@link #bufferFlushed}, or null when no recording wants the event
     */
    public static Object beginBufferFlush(long dirtyBytes) {
        return on() ? Emit.beginFlush(dirtyBytes) : null;
    }

    /**
     * Commits a buffer flush begun with {@link #beginBufferFlush}.
     * @param token the begin's token (null: nothing to do)
     * @param forced whether capacity forced the flush (else the thread tells timer, exit or explicit)
     * @param files files written
     * @param conflicts files that went to a conflict file
     * @param failures files that could not be written
     */
    public static void bufferFlushed(Object token, boolean forced, int files, int conflicts, int failures) {
        if (token != null) {
            Emit.bufferFlushed((Events.BufferFlush) token, forced, files, conflicts, failures);
        }
    }

    /**
     * A buffered file had changed on disk.
     * @param path the file
     * @param conflictFile where Spool's content went
     */
    public static void conflict(Path path, Path conflictFile) {
        if (on()) {
            Emit.conflict(path, conflictFile);
        }
    }

    /**
     * The open of an event file replayed the journal a killed writer left (issue 33).
     * @param path the event file
     * @param records frames replayed
     * @param bytes bytes replayed
     */
    public static void journalRecovered(Path path, long records, long bytes) {
        if (on()) {
            Emit.journalRecovered(path, records, bytes);
        }
    }

    /**
     * A write failed.
     * @param component {@code buffer} or {@code sink}
     * @param path the file or sink
     * @param message what failed
     */
    public static void writeError(String component, Object path, Object message) {
        if (on()) {
            Emit.writeError(component, path, message);
        }
    }

    /** @return a token for {@link #sinkWritten}, or null when no recording wants the event */
    public static Object beginSinkWrite() {
        if (!on()) {
            return null;
        }
        Emit.registerPeriodicOnceRecording();
        return Emit.beginSinkWrite();
    }

    /**
     * Commits a sink write begun with {@link #beginSinkWrite}.
     * @param token the begin's token (null: nothing to do)
     * @param path the sink's file
     * @param records records in the batch
     * @param bytes bytes in the batch
     */
    public static void sinkWritten(Object token, String path, long records, long bytes) {
        if (token != null) {
            Emit.sinkWritten((Events.SinkWrite) token, path, records, bytes);
        }
    }

    /**
     * A failure inside Spool sent a call down the application's own path.
     * @param message what failed
     */
    public static void fallback(String message) {
        if (on()) {
            Emit.fallback(message);
        }
    }

    /**
     * A Kafka shipper's state (its thread calls this once a second and when it stops; the kafka
     * module's {@code FileShipper}).
     * @param path the event file
     * @param topic its topic
     * @param lagRecords records in the file not yet acknowledged
     * @param lagBytes file bytes after the last acknowledged record
     * @param shipped records acknowledged since the shipper started
     * @param connected whether the producer has a broker connection
     */
    public static void kafkaShipping(String path, String topic, long lagRecords, long lagBytes, long shipped, boolean connected) {
        if (enabled) {
            Emit.kafkaShipping(path, topic, lagRecords, lagBytes, shipped, connected);
        }
    }

    /**
     * Includes an open sink in the periodic {@code dev.spool.SinkStatistics} and
     * {@code dev.spool.Drop} events until {@link #untrack}.
     * @param sink the sink's metrics
     */
    public static void track(SinkMetrics sink) {
        SINKS.put(sink, new long[] {sink.dropped()});
        if (enabled) {
            Emit.registerPeriodicOnceRecording();
        }
    }

    /**
     * Stops reporting a closed sink.
     * @param sink the sink's metrics
     */
    public static void untrack(SinkMetrics sink) {
        SINKS.remove(sink);
    }
}
