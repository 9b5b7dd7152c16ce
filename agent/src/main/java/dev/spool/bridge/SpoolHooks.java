package dev.spool.bridge;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What advice woven into host classes may ask of Spool. Implemented inside the agent's isolated
 * class loader and published through {@link Hooks}; uses JDK types only, because it lives in the
 * boot loader where every class loader (the JDK's own for JUL, the host's for Jackson and
 * Logback) can see it.
 *
 * <p>Implementations never throw except the {@code IOException}s documented here; every other
 * problem answers "not handled" so the caller runs its original code.
 */
public interface SpoolHooks {

    /**
     * A Jackson {@code writeValue(File, Object)} on {@code writer} (an ObjectMapper or an
     * ObjectWriter of the host's own Jackson).
     *
     * @return true when Spool took the write (the original must be skipped)
     * @throws IOException when an earlier flush of this file failed; the data is kept for retry
     */
    boolean writeJson(Object writer, File file, Object value) throws IOException;

    /**
     * A Jackson {@code writeValue(File, Object)} that runs the original code (Spool does not take
     * it here: on Spool's own thread, inside a log hook): any older buffered content of
     * {@code file} is dropped, so it is neither served nor flushed over this write. Never throws.
     */
    void writeJsonBypassed(File file);

    /**
     * A Jackson read of {@code file} through {@code reader} (ObjectMapper or ObjectReader):
     * {@code method} is the name of the called method, {@code type} its second argument or null.
     *
     * Called on every thread and at any depth (inside a serializer, on Spool's own threads, after
     * the kill switch), so a buffered write is never missed by a read.
     *
     * @return the value read from buffered bytes ({@link Hooks#NULL} for a JSON null), or null
     *     when the file is not buffered (the original must run)
     */
    Object readJson(Object reader, String method, File file, Object type) throws IOException;

    /** The stream a log handler of {@code kind} ("jul", "logback") should write to instead of {@code out}. */
    OutputStream wrapLogStream(String kind, Object owner, String name, OutputStream out);

    /** One call of an emitter method {@code method} ("class.method"); true when the body must be skipped. */
    boolean emit(String method, Object[] args);

    /**
     * A record a log handler of {@code kind} would format and write now; true when Spool captured
     * it for formatting on the sink's thread (the handler's own body is skipped). Never throws.
     */
    default boolean logRecord(String kind, Object owner, Object record) {
        return false;
    }

    /** The handler {@code owner} of {@code kind} is closing its stream: write what was captured for it first. */
    default void logClosing(String kind, Object owner) {
    }

    /**
     * A JUL {@code FileHandler.publish(record)} on the caller's thread: true when Spool took the
     * record (captured it for the handler's writer thread, or found it not loggable); the original
     * body must then be skipped. Default: never.
     */
    default boolean julPublish(Object handler, Object record) {
        return false;
    }

    /**
     * A JUL handler's {@code flush()} or {@code close()} ({@code method}): every record Spool
     * captured for it before this call is written to the handler before the original body runs.
     * Default: nothing.
     */
    default void julDrain(Object handler, String method) {
    }

    /** Whether any file is buffered now (else {@link #fileOp} has nothing to do). Default: never. */
    default boolean filesBuffered() {
        return false;
    }

    /**
     * A host's JDK file operation ({@link Hooks#FILE_READ} ...) is about to run: what is buffered
     * for the files it concerns is written or dropped first. Never throws. Default: nothing.
     */
    default void fileOp(int op, Object a, Object b) {
    }
}
