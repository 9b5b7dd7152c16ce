package dev.spool.agent.internal;

import dev.spool.agent.journal.JournalFiles;
import dev.spool.agent.jul.JulJournalRecovery;
import dev.spool.agent.logback.LogbackJournalRecovery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * {@link JournalFiles} answered by {@link RoutedStream}: a JUL journal's view of the routed
 * stream under its handler's meter (issue 33). Stateless, thread-safe.
 */
final class RoutedJournalFiles implements JournalFiles {

    /**
     * The start of routing for a JUL log file: replays the journal a killed process left beside it
     * (issue 33, {@link JulJournalRecovery}), after the last line that reached the file, once.
     * Runs on the host's thread inside {@code FileHandler}'s open (its lock file keeps other
     * processes off the file). Never fails the open: a problem is counted and named.
     *
     * @return the lines recovered
     */
    static long recoverAtStart(AgentControl control, String name, dev.spool.agent.jul.JulCaptures captures, Object handler) {
        Path file = LogFilePaths.absolute(name);
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // Spool's own look, not the host's (no drain)
        try {
            if (file == null || !JulJournalRecovery.hasJournal(file)) {
                return 0;
            }
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
        try {
            boolean appending = appends(captures, handler);
            JulJournalRecovery.Result r = JulJournalRecovery.recoverAtRoutingStart(file, appending,
                    appending ? null : generationOne(captures, handler));
            if (r.problem() != null) {
                control.error("jul-journal-recovery:" + file, r.describe(file));
            } else if (r.lines() > 0 || r.note() != null) {
                AgentLog.info(r.describe(file)); // nothing to say at a rotation's reopen (this process's own journal)
            }
            return r.lines();
        } catch (IOException | RuntimeException e) {
            control.error("jul-journal-recovery:" + file, "journal of " + file + " not replayed (" + e + "): kept for"
                    + " `spool recover " + file + "`");
            return 0;
        }
    }

    /** Whether the JUL handler opening its file now appends to it (its journal's lines then go into an empty file). */
    private static boolean appends(dev.spool.agent.jul.JulCaptures captures, Object handler) {
        try {
            return captures != null && Boolean.TRUE.equals(captures.appends(handler));
        } catch (RuntimeException | LinkageError e) {
            return false; // unknown: an empty file's lines go beside it
        }
    }

    /** Where the rotating JUL handler opening its file now moved the old one (generation 1), or null. */
    private static Path generationOne(dev.spool.agent.jul.JulCaptures captures, Object handler) {
        try {
            return captures == null ? null : captures.generationOne(handler);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The start of routing for a deferred Logback appender's file: replays the journal a killed
     * process left beside it ({@link LogbackJournalRecovery}), encoded by the appender's encoder, once.
     * On the host's thread opening the file, under the appender's lock. Never fails the open.
     *
     * @return the lines recovered
     */
    static long recoverLogbackAtStart(AgentControl control, Object appender, String name) {
        Path file = LogFilePaths.absolute(name);
        if (file == null) {
            return 0;
        }
        // Spool's own looks, reads and writes in the log's folder: unmarked, the woven file classes take them for
        // the host's and drain the appender first, in the middle of its roll (its old stream closed: events lost)
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true);
        try {
            if (!LogbackJournalRecovery.hasJournal(file)) {
                return 0;
            }
            LogbackJournalRecovery.Result r = LogbackJournalRecovery.recoverAtRoutingStart(appender, file);
            if (r.problem() != null) {
                control.error("logback-journal-recovery:" + file, r.describe(file));
            } else if (r.lines() > 0 || r.note() != null) {
                AgentLog.info(r.describe(file));
            }
            return r.lines();
        } catch (IOException | RuntimeException e) {
            control.error("logback-journal-recovery:" + file, "journal of " + file + " not replayed (" + e + "): kept for"
                    + " the appender's next start");
            return 0;
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
    }

    @Override
    public Path file(Object stream) {
        return stream instanceof RoutedStream r ? r.file() : null;
    }

    @Override
    public long position(Object stream) {
        return stream instanceof RoutedStream r ? r.position() : -1;
    }

    @Override
    public long reached(Object stream) {
        return stream instanceof RoutedStream r ? r.reached() : -1;
    }

    @Override
    public boolean drain(Object stream) {
        if (!(stream instanceof RoutedStream r)) {
            return false;
        }
        try {
            r.drain();
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public boolean awaitWritten(Object stream) {
        return stream instanceof RoutedStream r && r.awaitWritten();
    }

    @Override
    public void onClosed(Object stream, Runnable settle) {
        if (stream instanceof RoutedStream r) {
            r.onClosed(settle);
        }
    }

    @Override
    public void onHostWrites(Object stream, dev.spool.agent.journal.HostWrites writes) {
        if (stream instanceof RoutedStream r) {
            r.hostWrites(writes);
        }
    }

    @Override
    public void showJournal(Object stream, LongSupplier pendingBytes) {
        if (stream instanceof RoutedStream r) {
            r.showJournal(pendingBytes, 0);
        }
    }
}
