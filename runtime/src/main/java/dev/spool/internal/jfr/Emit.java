package dev.spool.internal.jfr;

import dev.spool.sink.SinkMetrics;
import java.nio.file.Path;
import java.util.Map;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;

/** The JFR side of {@link SpoolJfr}: loaded only when the switch is on; catches everything. */
final class Emit {

    /** The buffer's flusher thread(s) ({@code dev.spool.buffer.FlushTimer}) are named so. */
    static final String FLUSHER_THREAD_PREFIX = "spool-buffer-flush";

    private static volatile boolean periodicRegistered;

    private Emit() {}

    /**
     * Registers the periodic sink events once JFR runs. Not before: registering initialises JFR's
     * metadata, which a JVM that never records should not pay for (called from the sink's writer
     * thread and when a sink opens, so a recording started later with {@code jcmd} is picked up).
     */
    static void registerPeriodicOnceRecording() {
        if (periodicRegistered) {
            return;
        }
        try {
            if (FlightRecorder.isInitialized()) {
                registerPeriodic();
            }
        } catch (RuntimeException | LinkageError e) {
            periodicRegistered = true; // no JFR after all: stop asking
        }
    }

    private static synchronized void registerPeriodic() {
        if (periodicRegistered) {
            return;
        }
        periodicRegistered = true;
        try {
            FlightRecorder.addPeriodicEvent(Events.SinkStatistics.class, Emit::sinkStatistics);
        } catch (RuntimeException | LinkageError e) {
            // no periodic events; the others still work
        }
    }

    /** Whether JFR has started in this JVM (reading a flag: starts nothing, registers nothing). */
    static boolean recorderInitialized() {
        try {
            return FlightRecorder.isInitialized();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static Event begin(Event e) {
        try {
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            return e;
        } catch (RuntimeException | LinkageError t) {
            return null;
        }
    }

    static Event beginSinkWrite() {
        return begin(new Events.SinkWrite());
    }

    static Event beginFlush(long dirtyBytes) {
        Events.BufferFlush e = new Events.BufferFlush();
        e.bytes = dirtyBytes;
        return begin(e);
    }

    static void bufferFlushed(Events.BufferFlush e, boolean forced, int files, int conflicts, int failures) {
        try {
            e.end();
            if (e.shouldCommit()) {
                e.trigger = forced ? SpoolJfr.CAPACITY : trigger(Thread.currentThread().getName());
                e.files = files;
                e.conflicts = conflicts;
                e.failures = failures;
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks a flush
        }
    }

    private static String trigger(String thread) {
        if (thread.startsWith(FLUSHER_THREAD_PREFIX)) {
            return SpoolJfr.TIMER;
        }
        return thread.contains("shutdown") ? SpoolJfr.EXIT : SpoolJfr.EXPLICIT;
    }

    static void journalRecovered(Path path, long records, long bytes) {
        try {
            Events.JournalRecovery e = new Events.JournalRecovery();
            if (e.shouldCommit()) {
                e.path = String.valueOf(path);
                e.records = records;
                e.bytes = bytes;
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks an open
        }
    }

    static void conflict(Path path, Path conflictFile) {
        try {
            Events.Conflict e = new Events.Conflict();
            if (e.shouldCommit()) {
                e.path = String.valueOf(path);
                e.conflictFile = String.valueOf(conflictFile);
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks the caller
        }
    }

    static void writeError(String component, Object path, Object message) {
        try {
            Events.WriteError e = new Events.WriteError();
            if (e.shouldCommit()) {
                e.component = component;
                e.path = String.valueOf(path);
                e.message = String.valueOf(message);
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks the caller
        }
    }

    static void sinkWritten(Events.SinkWrite e, String path, long records, long bytes) {
        try {
            e.end();
            if (e.shouldCommit()) {
                e.path = path;
                e.records = records;
                e.bytes = bytes;
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks the writer
        }
    }

    static void fallback(String message) {
        try {
            Events.Fallback e = new Events.Fallback();
            if (e.shouldCommit()) {
                e.message = message;
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks the caller
        }
    }

    static void kafkaShipping(String path, String topic, long lagRecords, long lagBytes, long shipped, boolean connected) {
        try {
            Events.KafkaShipping e = new Events.KafkaShipping();
            if (e.shouldCommit()) {
                e.path = path;
                e.topic = topic;
                e.lagRecords = lagRecords;
                e.lagBytes = lagBytes;
                e.shipped = shipped;
                e.connected = connected;
                e.commit();
            }
        } catch (RuntimeException | LinkageError t) {
            // never breaks the shipper
        }
    }

    /** The periodic hook: one statistics event per open sink, and a drop event where drops grew. */
    private static void sinkStatistics() {
        if (!SpoolJfr.enabled()) {
            return;
        }
        for (Map.Entry<SinkMetrics, long[]> s : SpoolJfr.SINKS.entrySet()) {
            try {
                SinkMetrics m = s.getKey();
                Events.SinkStatistics e = new Events.SinkStatistics();
                e.path = m.path();
                e.eventsWritten = m.eventsWritten();
                e.bytesWritten = m.bytesWritten();
                e.eventsPerSecond = m.eventsPerSecond();
                e.bytesPerSecond = m.bytesPerSecond();
                e.pendingBytes = m.pendingBytes();
                e.dropped = m.dropped();
                e.errors = m.errors();
                e.commit();
                long[] last = s.getValue();
                if (e.dropped > last[0]) {
                    Events.Drop d = new Events.Drop();
                    if (d.shouldCommit()) {
                        d.path = e.path;
                        d.dropped = e.dropped - last[0];
                        d.policy = String.valueOf(m.policy());
                        d.commit();
                    }
                }
                last[0] = e.dropped;
            } catch (RuntimeException | LinkageError t) {
                // a sink closing under us: skip it this period
            }
        }
    }
}
