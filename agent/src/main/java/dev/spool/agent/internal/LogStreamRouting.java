package dev.spool.agent.internal;

import dev.spool.agent.journal.JournalFiles;
import dev.spool.agent.jul.JulCaptures;
import dev.spool.agent.logback.LogbackDeferral;
import dev.spool.agent.logback.LogbackStreams;
import java.io.OutputStream;

/**
 * The routing of log files for {@link HooksImpl#wrapLogStream}: the stream a JUL {@code FileHandler} or a
 * Logback file appender opens becomes a {@link RoutedStream} over the sink's stream of its file, once the
 * journal a killed process left beside the file was replayed (issue 33), and is tracked on
 * {@link AgentControl}; a stream Spool cannot route exactly is left to the host, named once
 * ({@link PlainPaths}). A failure leaves the host's own stream, counted ({@code sink-wrap}).
 *
 * <p>Runs on the host's thread that opens the file (under the handler's or appender's lock); thread-safe:
 * immutable configuration, the Logback journals set once before the hooks are installed (volatile).
 */
final class LogStreamRouting {
    private final AgentControl control;
    private final Backends backends;
    private final boolean jul;
    private final boolean logback;
    private final LogbackDeferral deferral;
    /** JUL capture at the call, or null (off, or under {@code exact} visibility). */
    private final JulCaptures julCaptures;
    /** Deferred Logback appenders' journals' view of routed streams, or null: not journaled ({@code spool.sink.journal=false}). */
    private volatile JournalFiles logbackJournals;

    LogStreamRouting(AgentControl control, Backends backends, boolean jul, boolean logback, LogbackDeferral deferral,
            JulCaptures julCaptures) {
        this.control = control;
        this.backends = backends;
        this.jul = jul;
        this.logback = logback;
        this.deferral = deferral;
        this.julCaptures = julCaptures;
    }

    /** Journals deferred Logback appenders through {@code files} (see {@link HooksImpl#journalLogback}). Set once. */
    void journalLogback(JournalFiles files) {
        logbackJournals = files;
    }

    /**
     * {@code out}, the stream a JUL handler or Logback file appender ({@code kind} {@code jul} or {@code logback})
     * opened on its file, routed through the sink where Spool takes it; else {@code out} itself. Never fails the open.
     */
    OutputStream wrap(String kind, Object owner, String name, OutputStream out) {
        if (!control.routingEnabled() || out instanceof RoutedStream) {
            return out;
        }
        if ("logback".equals(kind)) {
            return logback && owner != null && LogbackStreams.isFileAppender(owner.getClass()) ? routeLogback(owner, out) : out;
        }
        if (!"jul".equals(kind) || !jul) {
            return out;
        }
        String streamName = name;
        if (streamName == null) {
            streamName = kind + "-" + Integer.toHexString(System.identityHashCode(out));
        }
        try {
            // before the sink attaches the file and reads its size
            long recovered = RoutedJournalFiles.recoverAtStart(control, streamName, julCaptures, owner);
            OutputStream routed = backends.logStream(kind, null, out, streamName); // a JUL log's sink is found by name
            RoutedStream stream = new RoutedStream(out, routed, control, streamName).owner(owner); // the FileHandler
            stream.showJournal(null, recovered);
            followJournal(owner, stream);
            control.track(stream);
            AgentLog.debug("routing " + streamName + " through the sink");
            return stream;
        } catch (RuntimeException e) {
            control.error("sink-wrap", "cannot route " + streamName + " through the sink (" + e + "): written directly");
            return out;
        }
    }

    /** A JUL handler's journal of the bytes it formats itself follows its new stream (issue 33); never fails the open. */
    private void followJournal(Object handler, RoutedStream stream) {
        if (julCaptures == null) {
            return;
        }
        try {
            julCaptures.routed(handler, stream);
        } catch (RuntimeException | LinkageError e) {
            control.error("jul-journal", "the journal of " + stream + " does not follow its new file (" + e + ")");
        }
    }

    /**
     * Routes a Logback file appender's stream beneath the appender's own stream object
     * ({@link LogbackStreams}): the appender keeps {@code out}, whose inner stream now writes
     * through the sink; a stream that must stay exact is left alone.
     */
    private OutputStream routeLogback(Object appender, OutputStream out) {
        LogbackStreams.Plan plan = LogbackStreams.plan(appender, out);
        if (!plan.routable()) {
            AgentLog.debug("not routing a " + appender.getClass().getName() + ": " + plan.reason());
            control.plainPaths().plain(appender, plan.key(), "not routed: " + plan.reason());
            deferral.unrouted(appender);
            return out;
        }
        String streamName = plan.fileName();
        try {
            JournalFiles journals = logbackJournals;
            long recovered = journals == null ? 0 // else before the sink attaches the file and its length is read
                    : RoutedJournalFiles.recoverLogbackAtStart(control, appender, streamName);
            long length = plan.currentLength();
            if (length == 0) {
                FreshLogStamp.stampIfJustCreated(LogFilePaths.absolute(streamName)); // what plain's first write would stamp
            }
            OutputStream routed = backends.logStream("logback", appender, plan.file(), streamName);
            RoutedStream stream = new RoutedStream(plan.file(), routed, control, streamName, plan.lengthLimit(),
                    length).owner(appender);
            plan.install(stream);
            stream.showJournal(null, recovered);
            control.track(stream);
            LogbackDeferral.NotDeferred notDeferred = deferral.routed(appender, plan.rollsByBytes(), stream, journals);
            AgentLog.debug("routing " + streamName + " through the sink"
                    + (notDeferred == null ? ", encoded on Spool's thread" + deferral.encoding(appender)
                    + (deferral.checksRolling(appender) ? ", rolling checked there" : "")
                    : ", encoded on the caller's thread: " + notDeferred.sentence()));
            if (notDeferred != null) {
                control.plainPaths().plain(appender, notDeferred.key(), "encoded on the caller's thread (bytes routed): "
                        + notDeferred.sentence());
            }
        } catch (IllegalAccessException | RuntimeException e) {
            deferral.unrouted(appender);
            control.error("sink-wrap", "cannot route " + streamName + " through the sink (" + e + "): written directly");
        }
        return out;
    }
}
