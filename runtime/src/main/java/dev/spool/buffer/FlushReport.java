package dev.spool.buffer;

import java.nio.file.Path;
import java.util.List;

/**
 * What one flush did: files written, conflicts (each file and where its buffered content went
 * instead), and how long it took.
 */
public record FlushReport(int filesWritten, List<Conflict> conflicts, long millis) {
    /** A file changed on disk by someone else; the buffered content went to {@code conflictFile}. */
    public record Conflict(Path file, Path conflictFile) {}

    public FlushReport {
        conflicts = List.copyOf(conflicts);
    }
}
