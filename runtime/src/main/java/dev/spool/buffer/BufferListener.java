package dev.spool.buffer;

import java.nio.file.Path;

/**
 * Receives buffer events. Called on the thread that runs the flush (the flusher thread, a thread
 * that closed a scope or called {@code flush()}, or a writer whose write forced a flush); an
 * exception thrown by a listener is caught and ignored. Keep callbacks short.
 */
public interface BufferListener {
    /** A flush finished: {@code files} written, taking {@code millis}. */
    default void flushCompleted(int files, long millis) {}

    /** {@code path} had changed on disk; the buffered content went to {@code conflictFile}. */
    default void conflict(Path path, Path conflictFile) {}

    /** Writing {@code path} failed; its content stays buffered for the next flush. */
    default void writeError(Path path, Throwable error) {}
}
