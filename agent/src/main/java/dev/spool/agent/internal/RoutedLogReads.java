package dev.spool.agent.internal;

import dev.spool.agent.files.HostFileHooks;
import dev.spool.bridge.Hooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A host's read of its own routed log file finds everything it logged before the read, as without
 * the agent: the JDK's file operations are woven ({@code dev.spool.agent.files}), and opening a
 * routed file to read it, copying it or starting a child process first writes what the file's
 * JUL handler or Logback appender captured ({@link AgentControl#drainCapturedLogsOf}; for a stream
 * whose handler is not known, what every log captured) and what its sink holds
 * ({@link RoutedStream#drainForReader()}).
 *
 * <p>The drain runs on a thread of its own ({@code spool-log-read-drain}, a host thread as far as
 * the hooks go, so a rotation it causes routes the next file) and the reader waits for it at most
 * {@code spool.sink.wait.millis}: the drain takes the handler's monitor or the appender's lock,
 * which the thread that formats captured records holds while it runs the application's code
 * (an exception's {@code getMessage()}), and that code may wait for a lock the reader holds. Past
 * the bound (counted, reported) the read goes on with what is on disk, and the drain finishes on
 * its own. A reader that holds the handler's monitor itself (reading inside the JUL handler's
 * {@code publish}) drains on its own thread, as the monitor is re-entrant. The streams are listed again after the captured records are written: writing
 * them may roll or rotate the file into a new stream. A sink error is kept for the host's next
 * write, which throws it as a plain write would have.
 *
 * <p>Not drained: reads of the file's length or attributes (Logback's size policy reads the length
 * per event; {@link RoutedStream}'s length limit keeps that answer exact where it matters), a
 * path through another symlink or hard link, native code, other processes (they see the bytes
 * within {@code spool.events.visibility.max.ms}). The JDK's file classes are woven before the host's
 * first routed log open returns (it waits for that once, at most {@code FileWeaveGate.MAX_WAIT_MILLIS}).
 *
 * <p>Thread-safe; called on the host's thread that reads. Example (what a woven
 * {@code FileInputStream.open} of {@code app.log} leads to):
 * <pre>{@code
 * if (reads.any()) reads.beforeRead(Path.of("app.log")); // then the host's own open
 * }</pre>
 */
final class RoutedLogReads implements HostFileHooks.RoutedLogFiles {

    private final AgentControl control;
    private final long waitMillis;

    RoutedLogReads(AgentControl control, long waitMillis) {
        this.control = control;
        this.waitMillis = Math.max(1, waitMillis);
    }

    /**
     * Whether a host's file operation may concern a routed log: a stream is routed now, or a log was
     * ever routed. Not only the streams: a roll on Spool's writer thread closes the old stream (no
     * stream is routed then) before it renames the file and opens the new one, and a host's look in
     * that window (its listing, its check whether the archive exists) must still find the appender
     * and wait for the roll (LogReadArchiveIT under load: a roll taking 17 ms left 40 events' looks
     * answered from the disk before the roll).
     */
    @Override
    public boolean any() {
        return control.anyRoutedStream() || control.anyLogOwner();
    }

    @Override
    public void beforeRead(Path file) {
        look(file, true);
    }

    @Override
    public void beforeLook(Path fileOrFolder) {
        look(fileOrFolder, false);
    }

    @Override
    public void beforeFolderChange(Path fileOrFolder, boolean delete) {
        Path target = LogFilePaths.absolute(fileOrFolder);
        if (target == null) {
            return;
        }
        if (delete && logOrItsFolder(target)) {
            look(target, false); // its lines first: its journal is then idle and goes (a compression's delete of its temp file waits for nothing)
        }
        control.putAwayIdleJournals(target);
    }

    /** Whether {@code target} is a routed log file or the folder one is in. */
    private boolean logOrItsFolder(Path target) {
        for (RoutedStream s : control.openStreams()) {
            Path f = s.file();
            if (f != null && (target.equals(f) || target.equals(f.getParent()))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void beforeChildProcess() {
        List<RoutedStream> open = control.openStreams();
        List<Object> owners = new ArrayList<>();
        for (RoutedStream s : open) {
            if (s.owner() != null) {
                owners.add(s.owner());
            }
        }
        drain(owners, open, control::openStreams);
    }

    private void look(Path file, boolean read) {
        Path target = LogFilePaths.absolute(file);
        if (target == null) {
            return;
        }
        List<Object> owners = control.logOwnersConcerning(target);
        owners.removeIf(o -> writer(o, read));
        boolean idle = true;
        for (Object o : owners) {
            idle &= control.logIdle(o); // asked before the streams are listed: a write finishing meanwhile shows in them
        }
        Supplier<List<RoutedStream>> streams = () -> concerning(target, read);
        List<RoutedStream> first = streams.get();
        if (idle && settled(first)) {
            return; // nothing captured waits and every byte is on disk already: no drain, no thread
        }
        drain(owners, first, streams);
    }

    /** Whether every stream has an owner (whose captures were asked) and nothing routed since a reader's last drain. */
    private static boolean settled(List<RoutedStream> streams) {
        for (RoutedStream s : streams) {
            if (s.owner() == null || s.readerPending()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether this thread writes {@code owner}'s log now: a Logback appender whose lock it holds or
     * whose queue it drains (its roll listing the folder, its compression reading an archive) and,
     * for a look, a JUL handler whose monitor it holds (its rotation checking its files). What that
     * thread sees is what plain Logback's or JUL's own thread sees, and waiting for itself would only
     * spend the bound.
     */
    private boolean writer(Object owner, boolean read) {
        return control.writesLogHere(owner) || (!read && Thread.holdsLock(owner));
    }

    /** The routed streams writing {@code target} or whose folders hold it ({@link LogFolders}), less those this thread writes. */
    private List<RoutedStream> concerning(Path target, boolean read) {
        List<RoutedStream> hits = new ArrayList<>(1);
        for (RoutedStream s : control.openStreams()) {
            if (!target.equals(s.file()) && !s.folders().concerns(target)) {
                continue;
            }
            Object owner = s.owner();
            if (owner != null && writer(owner, read)) {
                continue;
            }
            hits.add(s);
        }
        return hits;
    }

    /** {@link #drain}'s work, on whichever thread runs it. */
    private void drainFor(List<Object> owners, List<RoutedStream> first, Supplier<List<RoutedStream>> streams) {
        for (Object o : owners) {
            control.drainCapturedLogsOf(o);
        }
        for (RoutedStream s : first) {
            if (s.owner() == null) { // a stream whose handler is not known (a MeteredStream made by other code): every log's
                control.drainCapturedLogs();
                break;
            }
        }
        for (RoutedStream s : streams.get()) { // again: the captured records may have rolled the file
            s.drainForReader();
        }
    }

    /**
     * Writes what {@code owners} captured (each under its lock: a batch being written, a roll, is
     * waited for), then drains the sinks of the streams concerned (listed again: the writes may have
     * rolled the file). {@code first}: the streams concerned now; one with no known owner drains every log's captures.
     */
    private void drain(List<Object> owners, List<RoutedStream> first, Supplier<List<RoutedStream>> streams) {
        if (owners.isEmpty() && first.isEmpty()) {
            return;
        }
        Runnable drain = () -> {
            boolean behalf = Hooks.markOnSpoolsBehalf(true); // its rolls' looks wait for no other log
            try {
                drainFor(owners, first, streams);
            } finally {
                Hooks.markOnSpoolsBehalf(behalf);
            }
        };
        if (holdsAnOwner(owners)) {
            boolean mark = Hooks.markSpoolThread(false); // as a host thread: a rotation routes the next file
            try {
                drain.run();
            } finally {
                Hooks.markSpoolThread(mark);
            }
            return;
        }
        Thread drainer = new Thread(null, drain, "spool-log-read-drain", 0, false); // no inherited thread locals
        drainer.setDaemon(true);
        drainer.start();
        try {
            drainer.join(waitMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (drainer.isAlive()) {
            control.error("log-read-wait", "a read of a routed log waited " + waitMillis + " ms for its records (a handler's"
                    + " or appender's lock was held): it finds what is on disk, the rest follows");
        }
    }

    private static boolean holdsAnOwner(List<Object> owners) {
        for (Object owner : owners) {
            if (Thread.holdsLock(owner)) {
                return true;
            }
        }
        return false;
    }
}
