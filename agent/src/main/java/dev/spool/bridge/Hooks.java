package dev.spool.bridge;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.util.function.Function;

/**
 * The one point where advice woven into host classes meets Spool. This class is defined in the
 * boot loader before any class is transformed; it uses JDK types only.
 *
 * <p>Guarantees: each entry answers "not handled" (false, null, the unchanged stream) while no
 * implementation is installed, and on a thread that is already inside a Spool hook (the shared
 * re-entrancy guard: a JUL to SLF4J to Logback chain, or Spool's own threads, are never captured
 * twice). Jackson hooks differ: a read is always looked up in the buffer (inside a serializer or
 * deserializer, on Spool's own threads), so a buffered write is never missed; a Jackson call nested
 * in a Jackson hook is handled like a first one; and a write that is not handled (on Spool's own
 * thread, inside a log hook) is reported through {@link SpoolHooks#writeJsonBypassed} so no older
 * buffered content outlives it. Only the {@code IOException}s of {@link SpoolHooks} reach the caller.
 *
 * <p>Example (what a woven {@code ObjectMapper.writeValue(File, Object)} does first):
 * <pre>{@code if (Hooks.writeJson(this, file, value)) return; // else the original body}</pre>
 */
public final class Hooks {

    /** Marker a read hook returns for a JSON {@code null} value (a real null means "not handled"). */
    public static final Object NULL = new Object();

    /** {@link #fileOp} kinds: a read of {@code a} (a {@code String}, {@code File} or {@code Path}) by a path Spool does not serve. */
    public static final int FILE_READ = 1;
    /** A direct write or append to {@code a}. */
    public static final int FILE_WRITE = 2;
    /** An open of {@code a} with the {@code Set} of {@code OpenOption}s {@code b} (a write with WRITE or APPEND, else a read). */
    public static final int FILE_OPEN_OPTIONS = 3;
    /** A {@code RandomAccessFile} open of {@code a} with the {@code Integer} mode bits {@code b} (O_RDWR = 2: a write). */
    public static final int FILE_OPEN_MODE = 4;
    /** A deletion of {@code a}. */
    public static final int FILE_DELETE = 5;
    /** A move or rename of {@code a} (a file or a folder) to {@code b}. */
    public static final int FILE_MOVE = 6;
    /** A copy of {@code a} to {@code b}. */
    public static final int FILE_COPY = 7;
    /** A check of whether {@code a} exists or what it is ({@code File.exists}, {@code Files.exists}, {@code isRegularFile}, {@code checkAccess}). */
    public static final int FILE_STAT = 8;
    /** A listing of folder {@code a} ({@code File.list}/{@code listFiles}, {@code Files.newDirectoryStream}/{@code list}/{@code walk}). */
    public static final int FILE_LIST = 9;
    /** A child process is about to start ({@code ProcessBuilder.start}, {@code Runtime.exec}): it may read any buffered file. */
    public static final int FILE_SPAWN = 10;
    /**
     * A read of {@code a}'s attributes, not its content ({@code File.length}/{@code lastModified},
     * {@code Files.size}, {@code readAttributes}): as {@link #FILE_READ} for a buffered file, while a
     * routed log file is not drained for it (Logback's size policy reads its file's length per event).
     */
    public static final int FILE_READ_ATTRIBUTES = 11;

    private static volatile SpoolHooks hooks;
    private static volatile Function<String, String> commands;
    /** [0]: inside a hook or on Spool's own thread; [1]: the hook is a Jackson one (nested Jackson calls go on). */
    private static final ThreadLocal<boolean[]> INSIDE = ThreadLocal.withInitial(() -> new boolean[2]);
    private static final ThreadLocal<String> NEXT_STREAM_NAME = new ThreadLocal<>();
    /** The JUL {@code FileHandler} opening the log stream about to be created on this thread. */
    private static final ThreadLocal<WeakReference<Object>> NEXT_STREAM_OWNER = new ThreadLocal<>();
    /** [0]: this thread writes captured log records (rolls included) on Spool's behalf now; see {@link #markOnSpoolsBehalf}. */
    private static final ThreadLocal<boolean[]> ON_SPOOLS_BEHALF = ThreadLocal.withInitial(() -> new boolean[1]);
    /** [0]: the clock a Logback time-based policy reads on this thread, or {@link Long#MIN_VALUE} (its own). */
    private static final ThreadLocal<long[]> LOG_CLOCK = ThreadLocal.withInitial(() -> new long[] {Long.MIN_VALUE});

    private Hooks() {}

    /** Publishes the implementation (null uninstalls: every hook answers "not handled"). */
    public static void install(SpoolHooks implementation, Function<String, String> commandHandler) {
        hooks = implementation;
        commands = commandHandler;
    }

    public static boolean installed() {
        return hooks != null;
    }

    /** The installed agent's command handler (status, flush, routing), or null when none. */
    public static Function<String, String> commands() {
        return commands;
    }

    /** Marks the current thread as Spool's own for good: no hook ever captures its calls. */
    public static void markSpoolThread() {
        INSIDE.get()[0] = true;
    }

    /**
     * Marks the current thread as Spool's own (no hook captures its calls) or not, for a while:
     * a shared pool thread running one log's task. Returns the previous mark, to restore after.
     */
    public static boolean markSpoolThread(boolean mine) {
        boolean[] inside = INSIDE.get();
        boolean was = inside[0];
        inside[0] = mine;
        return was;
    }

    /**
     * Marks the current thread as writing captured log records on Spool's behalf (or not), for a while: a
     * pool thread draining a log, a roll checked for a captured event, a drain before a host's read. Unlike
     * {@link #markSpoolThread(boolean)} its calls stay hooked like a host thread's (a rotation's new file is
     * routed), but a look at a log folder ({@link #FILE_LIST}, {@link #FILE_STAT}) or a read there does not
     * first write other logs' captured records: plain wrote those at their own calls, and a wait for them
     * here could wait for a thread rolling another log the same way. Returns the previous mark, to restore.
     */
    public static boolean markOnSpoolsBehalf(boolean onBehalf) {
        boolean[] mark = ON_SPOOLS_BEHALF.get();
        boolean was = mark[0];
        mark[0] = onBehalf;
        return was;
    }

    /** Whether this thread writes captured log records on Spool's behalf now ({@link #markOnSpoolsBehalf}). */
    public static boolean onSpoolsBehalf() {
        return ON_SPOOLS_BEHALF.get()[0];
    }

    public static boolean writeJson(Object writer, File file, Object value) throws IOException {
        SpoolHooks h = hooks;
        if (h == null || file == null) {
            return false;
        }
        boolean[] inside = INSIDE.get();
        boolean wasInside = inside[0];
        boolean wasJson = inside[1];
        if (wasInside && !wasJson) {
            h.writeJsonBypassed(file); // Spool's own thread or a log hook: the original write runs
            return false;
        }
        inside[0] = true;
        inside[1] = true;
        try {
            return h.writeJson(writer, file, value);
        } finally {
            inside[0] = wasInside;
            inside[1] = wasJson;
        }
    }

    public static Object readJson(Object reader, String method, File file, Object type) throws IOException {
        SpoolHooks h = hooks;
        if (h == null || file == null) {
            return null;
        }
        boolean[] inside = INSIDE.get();
        boolean wasInside = inside[0];
        boolean wasJson = inside[1];
        inside[0] = true;
        inside[1] = !wasInside || wasJson;
        try {
            return h.readJson(reader, method, file, type);
        } finally {
            inside[0] = wasInside;
            inside[1] = wasJson;
        }
    }

    /**
     * A JDK file operation of the host ({@code op}: one of the {@code FILE_*} kinds) is about to run
     * on {@code a} (and {@code b}): a buffered file it concerns is written (or dropped) first, so the
     * operation ends as without Spool. Never throws. Costs one volatile read while no implementation
     * is installed and a map-size read while nothing is buffered; does nothing inside a hook or on
     * Spool's own threads (Spool's own file I/O never acts on itself).
     */
    public static void fileOp(int op, Object a, Object b) {
        SpoolHooks h = hooks;
        if (h == null || !h.filesBuffered()) {
            return;
        }
        boolean[] inside = INSIDE.get();
        if (inside[0]) {
            return;
        }
        inside[0] = true;
        try {
            h.fileOp(op, a, b);
        } catch (Throwable t) {
            // the implementation counts its own failures; the host's operation runs regardless
        } finally {
            inside[0] = false;
        }
    }

    /** Remembers the file name of the log stream about to be created on this thread. */
    public static void nextStreamName(String name) {
        NEXT_STREAM_NAME.set(name);
    }

    /**
     * Remembers the handler opening the log stream about to be created on this thread (JUL's
     * {@code FileHandler.open}). Weakly: an open that fails before its stream is made leaves this
     * set until the thread's next stream, which must not keep a discarded handler alive.
     */
    public static void nextStreamOwner(Object handler) {
        NEXT_STREAM_OWNER.set(handler == null ? null : new WeakReference<>(handler));
    }

    public static OutputStream wrapLogStream(String kind, Object owner, OutputStream out) {
        String name = NEXT_STREAM_NAME.get();
        NEXT_STREAM_NAME.remove();
        WeakReference<Object> openerRef = NEXT_STREAM_OWNER.get();
        NEXT_STREAM_OWNER.remove();
        Object opener = openerRef == null ? null : openerRef.get();
        if (owner == null) {
            owner = opener; // JUL: the meter's stream names no handler; the FileHandler that opened it
        }
        SpoolHooks h = hooks;
        if (h == null || out == null) {
            return out;
        }
        boolean[] inside = INSIDE.get();
        if (inside[0]) {
            return out;
        }
        inside[0] = true;
        try {
            return h.wrapLogStream(kind, owner, name, out);
        } finally {
            inside[0] = false;
        }
    }

    /**
     * One record a log handler of {@code kind} ("logback") is about to format and write on the
     * caller's thread: true when Spool took it (captured for formatting on the sink's thread; the
     * original body must be skipped). Answers false inside another hook, like every log hook.
     */
    public static boolean logRecord(String kind, Object owner, Object record) {
        SpoolHooks h = hooks;
        if (h == null || record == null) {
            return false;
        }
        boolean[] inside = INSIDE.get();
        if (inside[0]) {
            return false;
        }
        inside[0] = true;
        try {
            return h.logRecord(kind, owner, record);
        } finally {
            inside[0] = false;
        }
    }

    /**
     * A log handler of {@code kind} is about to close its stream (footer, roll, stop): every record
     * Spool captured for it before is written first. Runs on every thread, inside other hooks too.
     */
    public static void logClosing(String kind, Object owner) {
        SpoolHooks h = hooks;
        if (h != null && owner != null) {
            h.logClosing(kind, owner);
        }
    }

    /**
     * What a woven Logback {@code TimeBasedFileNamingAndTriggeringPolicyBase.getCurrentTime()} returns on
     * this thread: the caller's clock reading that Spool's encoding thread checks an event with, or
     * {@link Long#MIN_VALUE} (the policy's own clock: every thread but that one, during that check).
     */
    public static long logClock() {
        return LOG_CLOCK.get()[0];
    }

    /** Sets this thread's {@link #logClock()} ({@link Long#MIN_VALUE}: none); returns the previous value, to restore. */
    public static long useLogClock(long millis) {
        long[] clock = LOG_CLOCK.get();
        long was = clock[0];
        clock[0] = millis;
        return was;
    }

    public static boolean emit(String method, Object[] args) {
        SpoolHooks h = hooks;
        if (h == null) {
            return false;
        }
        boolean[] inside = INSIDE.get();
        if (inside[0]) {
            return false;
        }
        inside[0] = true;
        try {
            return h.emit(method, args);
        } finally {
            inside[0] = false;
        }
    }

    /**
     * Not marked as inside a hook while it runs: a record logged while the caller's parameters are
     * formatted is captured like any (before the outer one, as JUL orders it), and a rotation on a
     * thread that writes captured records routes the next file; the JUL side guards its own
     * re-entrancy (a thread draining a handler's queue never captures into it).
     */
    public static boolean julPublish(Object handler, Object record) {
        SpoolHooks h = hooks;
        if (h == null || INSIDE.get()[0]) {
            return false;
        }
        return h.julPublish(handler, record);
    }

    /** Not marked as inside a hook while it runs, as {@link #julPublish}. */
    public static void julDrain(Object handler, String method) {
        SpoolHooks h = hooks;
        if (h == null || INSIDE.get()[0]) {
            return;
        }
        h.julDrain(handler, method);
    }
}
