package dev.spool.buffer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One buffered file. Either a <em>live</em> entry (a tree of plain JSON types shared by every
 * collection bound to the file) or a <em>snapshot</em> entry ({@link SnapshotContent}: bytes, or a capture encoded at the flush), or neither
 * yet (created, not loaded). Every field is guarded by the entry's monitor.
 */
final class Entry implements LiveChange.Growth {
    final Path path;
    /** The live tree, or null. */
    Object root;
    /** The content of a snapshot entry (bytes, or a capture encoded at the flush), or null. */
    SnapshotContent snapshot;
    /** Whether {@link #baseline} describes the file (loaded, or stamped at the first snapshot). */
    boolean loaded;
    FileStamp baseline = FileStamp.MISSING;
    /** Content differs from what is on disk. */
    boolean dirty;
    /** Estimated encoded bytes; counted in the buffer's dirty bytes while dirty. */
    long estimate;
    /** The cause of the last failed flush, cleared by a successful one. */
    Throwable failure;
    /** A snapshot was put since the last flush pass (a stamp-only entry not put again for a whole pass leaves). */
    boolean touched;
    /** Taken out of the buffer's map; a thread that finds this set looks the path up again. */
    boolean removed;
    /** Growth reported by the change running now. */
    long pendingGrowth;
    /** Reads served and writes absorbed by this entry (summed into the metrics; kept here, under the monitor, to spare the hot path a shared atomic). */
    long reads;
    long writes;

    @Override
    public void grew(long bytes) {
        pendingGrowth += bytes;
    }

    Entry(Path path) {
        this.path = path;
    }

    byte[] encoded() throws IOException {
        return snapshot != null ? snapshot.encode() : Json.encode(root);
    }

    IOException failureAsIOException() {
        return new IOException("an earlier flush of " + path + " failed (its content is kept for retry): " + failure, failure);
    }
}
