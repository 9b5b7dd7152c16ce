package dev.spool.agent.files;

import dev.spool.bridge.Hooks;
import dev.spool.buffer.HostFileOps;
import dev.spool.buffer.SharedBuffer;
import java.io.File;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The agent's side of {@code Hooks.fileOp}: turns a woven JDK file operation's arguments into
 * paths and tells the buffer's {@link HostFileOps} what is about to happen (see there for what each
 * operation does to a buffered file). Any failure is caught, counted ({@link HostFileOps#failures()}, the
 * Buffer bean's {@code HostFileOpFailures}) and reported once; the host's operation then runs as it
 * would without Spool.
 *
 * <p>Thread-safe; cost while nothing is buffered: the buffer lookup and one map-size read
 * ({@link #active()}).
 */
public final class HostFileHooks {

    private static final int O_RDWR = 2; // java.io.RandomAccessFile's mode bit for "rw", "rws", "rwd"

    private final Supplier<SharedBuffer> buffer;
    private final RoutedLogFiles logs;
    private final Failures failures;

    /** Reports a failure once per kind ({@code key}, message). */
    public interface Failures {
        void failed(String key, String message);
    }

    /**
     * The log files whose bytes go through a sink now: a host's read of one must find everything
     * logged before it, as plain (implemented by the agent's log routing).
     */
    public interface RoutedLogFiles {
        /** Whether any log file is routed now (one volatile read). */
        boolean any();

        /** Writes everything logged to {@code file} so far, bounded by the sink's wait; never throws. */
        void beforeRead(Path file);

        /** Writes everything logged to every routed file so far (a child process may read any); never throws. */
        void beforeChildProcess();

        /**
         * Before a listing of {@code fileOrFolder} or a check of whether it exists: writes what the
         * logs whose folder (or rolling archives' folder) holds it captured, so rolls happen first,
         * bounded by the sink's wait; never throws.
         */
        void beforeLook(Path fileOrFolder);

        /**
         * Before a listing or a deletion ({@code delete}) of {@code fileOrFolder}: Spool's log journals in
         * that folder that hold nothing to replay go first, so the host finds the folder as without the
         * agent (issue 33); a deletion of a routed log or of its folder writes what was logged to it first
         * (a listing did that in {@link #beforeLook}). Never throws.
         */
        default void beforeFolderChange(Path fileOrFolder, boolean delete) {
        }
    }

    /**
     * @param buffer the running buffer, or null while none was started (nothing is buffered then)
     * @param logs the routed log files
     * @param failures where a failure is reported
     */
    public HostFileHooks(Supplier<SharedBuffer> buffer, RoutedLogFiles logs, Failures failures) {
        this.buffer = buffer;
        this.logs = logs;
        this.failures = failures;
    }

    /** Whether any file is buffered or any log file routed (on a thread whose file operations may concern one). */
    public boolean active() {
        if (logs.any()) {
            return true;
        }
        SharedBuffer b = buffer.get();
        return b != null && b.hostFiles().watching();
    }

    /** One operation ({@code Hooks.FILE_*}); never throws. */
    public void before(int op, Object a, Object b) {
        try {
            if (logs.any()) {
                beforeOnLogs(op, a, b);
            }
            SharedBuffer buf = buffer.get();
            if (buf == null) {
                return;
            }
            HostFileOps ops = buf.hostFiles();
            if (!ops.watching()) {
                return; // nothing buffered (or a flush thread's own operation): as before any log was routed
            }
            switch (op) {
                case Hooks.FILE_READ, Hooks.FILE_READ_ATTRIBUTES -> ops.beforeRead(path(a));
                case Hooks.FILE_WRITE -> ops.beforeWrite(path(a));
                case Hooks.FILE_OPEN_MODE, Hooks.FILE_OPEN_OPTIONS -> {
                    if (opensToWrite(op, b)) {
                        ops.beforeWrite(path(a));
                    } else {
                        ops.beforeRead(path(a));
                    }
                }
                case Hooks.FILE_DELETE -> ops.beforeDelete(path(a));
                case Hooks.FILE_MOVE -> ops.beforeMove(path(a), path(b));
                case Hooks.FILE_COPY -> ops.beforeCopy(path(a), path(b));
                case Hooks.FILE_STAT -> ops.beforeStat(path(a));
                case Hooks.FILE_LIST -> ops.beforeList(path(a));
                case Hooks.FILE_SPAWN -> ops.beforeChildProcess();
                default -> { }
            }
        } catch (RuntimeException | LinkageError e) {
            SharedBuffer buf = buffer.get();
            if (buf != null) {
                buf.hostFiles().failed();
            }
            failures.failed("host-file-op", "cannot prepare a file operation on " + a + (b == null ? "" : ", " + b)
                    + " (" + e + "): it runs on what is on disk");
        }
    }

    /**
     * A read of a routed log file's content (opening it to read, copying it, a child process) finds
     * what was logged before it; so do a listing of a log's folder and a check of whether a file in it
     * exists (an archive a roll on Spool's thread is about to make). Not the length or attributes:
     * Logback's size policy reads those per event, and draining there would write one record per
     * system call again.
     */
    private void beforeOnLogs(int op, Object a, Object b) {
        if (Hooks.onSpoolsBehalf() || HostFileOps.onFlushThread()) {
            // A roll or drain of captured records (Hooks.markOnSpoolsBehalf): it holds its own log's locks, and a
            // wait for another log's batch could wait for a thread rolling that one the same way (LogbackRollingIT:
            // 10 s waits per roll); plain wrote other logs at their calls, so the wait adds nothing. The buffer's
            // flush threads: Spool's own I/O. Marks, not thread names: a host thread may be called "spool-..." too.
            return;
        }
        switch (op) {
            case Hooks.FILE_READ, Hooks.FILE_COPY -> logs.beforeRead(path(a));
            case Hooks.FILE_OPEN_MODE, Hooks.FILE_OPEN_OPTIONS -> {
                if (!opensToWrite(op, b)) {
                    logs.beforeRead(path(a));
                }
            }
            case Hooks.FILE_SPAWN -> logs.beforeChildProcess();
            case Hooks.FILE_STAT -> logs.beforeLook(path(a));
            case Hooks.FILE_LIST -> {
                logs.beforeLook(path(a));
                logs.beforeFolderChange(path(a), false);
            }
            case Hooks.FILE_DELETE -> logs.beforeFolderChange(path(a), true); // not any file's: the log's or its folder's
            default -> { }
        }
    }

    /**
     * Whether an open ({@code FILE_OPEN_MODE}: {@code RandomAccessFile} mode bits; {@code FILE_OPEN_OPTIONS}:
     * the {@code Set} of {@code OpenOption}s) writes: "rw"/"rws"/"rwd", or {@code WRITE}/{@code APPEND}.
     */
    private static boolean opensToWrite(int op, Object b) {
        if (op == Hooks.FILE_OPEN_MODE) {
            return b instanceof Integer mode && (mode & O_RDWR) != 0;
        }
        return b instanceof Set<?> options && (options.contains(StandardOpenOption.WRITE)
                || options.contains(StandardOpenOption.APPEND));
    }

    private static Path path(Object o) {
        if (o instanceof Path p) {
            return p;
        }
        if (o instanceof File f) {
            return f.toPath();
        }
        return FileSystems.getDefault().getPath((String) o);
    }
}
