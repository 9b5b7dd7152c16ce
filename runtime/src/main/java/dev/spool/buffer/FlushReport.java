package dev.spool.buffer;

import java.nio.file.Path;
import java.util.List;

/**
 * What one flush did: files written, conflicts (each file and where its buffered content went
 * instead), and how long it took. Returned by {@link SharedBuffer#flushWithReport()} when every
 * dirty file was either written or diverted by a conflict; a flush in which some file failed
 * throws {@link FlushException} instead. Immutable.
 *
 * @param filesWritten files written to their own path by the flush (conflicts not counted)
 * @param conflicts the files that had been changed on disk by someone else and were left as they
 *        were, each with the file its buffered content went to; empty when none
 * @param millis wall-clock duration of the flush, in milliseconds
 */
public record FlushReport(int filesWritten, List<Conflict> conflicts, long millis) {
    /**
     * A file changed on disk by someone else; the buffered content went to {@code conflictFile}.
     *
     * @param file the real path of the file that was left as it was
     * @param conflictFile where the buffered content went: {@code <name>.spool-conflict-<millis>} beside it
     */
    public record Conflict(Path file, Path conflictFile) {}

    /**
     * Takes an unmodifiable copy of {@code conflicts}.
     *
     * @param filesWritten files written to their own path
     * @param conflicts the conflicts (copied; no null element)
     * @param millis the flush's duration, in milliseconds
     * @throws NullPointerException if {@code conflicts} or one of its elements is null
     */
    public FlushReport {
        conflicts = List.copyOf(conflicts);
    }
}
