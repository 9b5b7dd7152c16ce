package dev.spool.agent.internal;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.events.EventLog;
import dev.spool.sink.SinkSettings;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * The runtime's back ends as the agent uses them, created on first use (nothing is started by
 * premain): the process-wide {@link SharedBuffer}, one sink per routed logical log, and the
 * {@link EventLog} of {@code spool.events.file}. An event file that cannot be opened (a missing
 * folder, no permission) is reported once; emitter calls then run their original bodies.
 *
 * <p>Thread-safe.
 */
final class Backends {

    private final AgentControl control;
    private final BufferSettings bufferSettings;
    private final SinkSettings sinkSettings;
    private final Path eventsFile;
    private final LogSinks logs;
    private volatile SharedBuffer buffer;
    private volatile EventLog events;
    private volatile boolean eventsFailed;

    /** How long a host thread waits at most for a sink ({@code spool.sink.wait.millis}). */
    long sinkWaitMillis() {
        return sinkSettings.waitMillis();
    }

    Backends(AgentControl control, BufferSettings bufferSettings, SinkSettings sinkSettings, Path eventsFile) {
        this.control = control;
        this.bufferSettings = bufferSettings;
        this.sinkSettings = sinkSettings;
        this.eventsFile = eventsFile;
        this.logs = new LogSinks(control, sinkSettings);
    }

    SharedBuffer buffer() {
        SharedBuffer b = buffer;
        if (b == null) {
            synchronized (this) {
                b = buffer;
                if (b == null) {
                    SharedBuffer.configureGlobal(bufferSettings);
                    b = SharedBuffer.global();
                    b.addListener(new BufferProblems(control));
                    buffer = b;
                }
            }
        }
        return b;
    }

    /** The buffer if something already created it, else null (flushing must not create it). */
    SharedBuffer bufferIfStarted() {
        return buffer;
    }

    /** A routed log file's stream: through the sink of its logical log ({@link LogSinks}). */
    OutputStream logStream(String kind, Object owner, OutputStream file, String name) {
        return logs.open(kind, owner, file, name);
    }

    /** Records one event; false when the event file is unavailable (the caller runs the original body). */
    boolean emit(Object event) {
        EventLog log = events();
        if (log == null) {
            return false;
        }
        log.emit(event);
        return true;
    }

    private EventLog events() {
        EventLog log = events;
        if (log != null || eventsFailed) {
            return log;
        }
        synchronized (this) {
            if (events == null && !eventsFailed) {
                try {
                    // No close at exit: the sink's own shutdown hook drains it and keeps the file open, so
                    // events the host emits from its shutdown hooks (run at the same time) are written through
                    events = EventLog.open(eventsFile, sinkSettings);
                    control.sinkOpened(events.metrics());
                } catch (Exception e) {
                    eventsFailed = true;
                    control.error("events-open", "cannot open the event file " + eventsFile.toAbsolutePath() + " (" + e
                            + "): emitter methods run as without the agent");
                }
            }
            return events;
        }
    }

    /** Blocks until every event emitted so far is on disk. */
    void flushEvents() {
        EventLog log = events;
        if (log != null) {
            log.flush();
        }
    }
}
