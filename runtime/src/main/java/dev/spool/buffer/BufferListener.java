package dev.spool.buffer;

import java.nio.file.Path;

/**
 * Receives buffer events. Called on the thread that runs the flush (the flusher thread or one of
 * its helpers, or a thread that closed a scope or called {@code flush()}), and for
 * {@link #backpressure} on the writer that waited; an exception thrown by a listener is caught and
 * ignored. Keep callbacks short.
 */
public interface BufferListener {
    /** A flush finished: {@code files} written, taking {@code millis}. */
    default void flushCompleted(int files, long millis) {}

    /** {@code path} had changed on disk; the buffered content went to {@code conflictFile}. */
    default void conflict(Path path, Path conflictFile) {}

    /**
     * A write waited {@code millis} for the background flush because the buffer held more than
     * {@code capacityBytes} estimated dirty bytes ({@code dirtyBytes} when the wait ended): the
     * disk did not keep up with the application.
     */
    default void backpressure(long millis, long dirtyBytes, long capacityBytes) {}

    /** Writing {@code path} failed; its content stays buffered for the next flush. */
    default void writeError(Path path, Throwable error) {}
}
