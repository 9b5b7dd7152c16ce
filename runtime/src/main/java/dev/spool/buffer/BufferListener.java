package dev.spool.buffer;

import java.nio.file.Path;

/**
 * Receives buffer events. Called on the thread that runs the flush (the flusher thread or one of
 * its helpers, or a thread that closed a scope or called {@code flush()}), and for
 * {@link #backpressure} on the writer that waited; an exception thrown by a listener is caught and
 * ignored. Keep callbacks short.
 */
public interface BufferListener {
    /**
     * A flush pass finished (timed, capacity, scope close, {@code flush()} or close), on the thread
     * that ran it, after every file's own {@link #conflict}/{@link #writeError} call. Also called
     * when the pass failed for some files (before {@code flush()} throws its
     * {@link FlushException}).
     * @param files files written by the pass (conflicts and failures not counted); 0 when nothing was dirty
     * @param millis wall-clock duration of the pass, in milliseconds
     */
    default void flushCompleted(int files, long millis) {}

    /**
     * {@code path} had been changed on disk by someone else since the buffer loaded it (or since
     * the last put of a snapshot), so the buffer did not overwrite it: the buffered content went to
     * {@code conflictFile} instead, and the entry now follows the file's current content.
     * @param path the real path of the file that was left as it was
     * @param conflictFile where the buffered content was written: {@code <name>.spool-conflict-<millis>}
     *        beside {@code path}
     */
    default void conflict(Path path, Path conflictFile) {}

    /**
     * A write waited {@code millis} for the background flush because the buffer held more than
     * {@code capacityBytes} estimated dirty bytes ({@code dirtyBytes} when the wait ended): the
     * disk did not keep up with the application. Called on that writer's thread, after the wait.
     * @param millis how long the write waited, in milliseconds (at most about 2,000: the wait is bounded)
     * @param dirtyBytes the estimated dirty bytes held when the wait ended
     * @param capacityBytes the memory bound in force ({@link BufferSettings#capacityBytes()})
     */
    default void backpressure(long millis, long dirtyBytes, long capacityBytes) {}

    /**
     * Writing {@code path} failed; its content stays buffered and the next flush tries again. Until
     * a write of it succeeds, buffered calls on that file throw (see {@link SharedBuffer}).
     * @param path the real path of the file that could not be written
     * @param error why: usually an {@link java.io.IOException} from the file system (full disk, no
     *        access, a folder that vanished), or whatever encoding a captured content threw
     */
    default void writeError(Path path, Throwable error) {}
}
