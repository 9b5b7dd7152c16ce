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
    private final Failures failures;

    /** Reports a failure once per kind ({@code key}, message). */
    public interface Failures {
        void failed(String key, String message);
    }

    /**
     * @param buffer the running buffer, or null while none was started (nothing is buffered then)
     * @param failures where a failure is reported
     */
    public HostFileHooks(Supplier<SharedBuffer> buffer, Failures failures) {
        this.buffer = buffer;
        this.failures = failures;
    }

    /** Whether any file is buffered (on a thread whose file operations may concern one). */
    public boolean active() {
        SharedBuffer b = buffer.get();
        return b != null && b.hostFiles().watching();
    }

    /** One operation ({@code Hooks.FILE_*}); never throws. */
    public void before(int op, Object a, Object b) {
        try {
            SharedBuffer buf = buffer.get();
            if (buf == null) {
                return;
            }
            HostFileOps ops = buf.hostFiles();
            switch (op) {
                case Hooks.FILE_READ -> ops.beforeRead(path(a));
                case Hooks.FILE_WRITE -> ops.beforeWrite(path(a));
                case Hooks.FILE_OPEN_MODE -> {
                    if (b instanceof Integer mode && (mode & O_RDWR) != 0) {
                        ops.beforeWrite(path(a));
                    } else {
                        ops.beforeRead(path(a));
                    }
                }
                case Hooks.FILE_OPEN_OPTIONS -> {
                    if (b instanceof Set<?> options && (options.contains(StandardOpenOption.WRITE)
                            || options.contains(StandardOpenOption.APPEND))) {
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
