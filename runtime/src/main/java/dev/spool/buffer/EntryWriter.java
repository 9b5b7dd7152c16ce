package dev.spool.buffer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes one dirty entry to disk: conflict check against the entry's baseline, atomic replace,
 * new baseline; or the conflict file and a re-base; or a failure kept on the entry. The caller
 * holds the entry's monitor for the whole call, so no write to the entry interleaves.
 */
final class EntryWriter {
    enum Result { CLEAN, WRITTEN, CONFLICT, FAILED }

    /** What happened to one entry; {@code conflictFile} for CONFLICT, {@code failure} and {@code content} for FAILED. */
    record Outcome(Result result, Path conflictFile, Throwable failure, byte[] content) {}

    static final Outcome CLEAN = new Outcome(Result.CLEAN, null, null, null);
    static final Outcome WRITTEN = new Outcome(Result.WRITTEN, null, null, null);

    private final Counters counters;

    EntryWriter(Counters counters) {
        this.counters = counters;
    }

    /** Caller holds {@code e}'s monitor. */
    Outcome write(Entry e, boolean fsync) {
        if (e.removed || !e.dirty) return CLEAN;
        byte[] content = null;
        try {
            content = e.encoded();
            if (!e.baseline.unchangedOnDisk(e.path)) {
                Path conflictFile = AtomicFiles.writeConflict(e.path, content, fsync);
                rebaseAfterConflict(e);
                return new Outcome(Result.CONFLICT, conflictFile, null, null);
            }
            AtomicFiles.write(e.path, content, fsync);
            e.baseline = FileStamp.afterWrite(e.path, content);
            markClean(e, content.length);
            e.failure = null;
            return WRITTEN;
        } catch (IOException | RuntimeException failure) {
            e.failure = failure;
            return new Outcome(Result.FAILED, null, failure, content);
        }
    }

    /**
     * Policy after a conflict: the file on disk wins. The buffered content is safe in the conflict
     * file; the entry forgets it. A snapshot entry is dropped; a live entry reloads the file's
     * current content at its next access.
     */
    private void rebaseAfterConflict(Entry e) {
        markClean(e, 0);
        e.failure = null;
        e.root = null;
        e.snapshot = null;
        e.loaded = false;
        e.baseline = FileStamp.MISSING;
    }

    void markClean(Entry e, long exactBytes) {
        if (e.dirty) {
            e.dirty = false;
            counters.dirtyEntries.decrementAndGet();
            counters.dirtyBytes.addAndGet(-e.estimate);
        }
        e.estimate = exactBytes;
    }

    /** Caller holds {@code e}'s monitor: account one write of about {@code bytesAdded} bytes. */
    void markDirty(Entry e, long bytesAdded) {
        if (!e.dirty) {
            e.dirty = true;
            counters.dirtyEntries.incrementAndGet();
            e.estimate += bytesAdded;
            counters.dirtyBytes.addAndGet(e.estimate);
        } else {
            e.estimate += bytesAdded;
            counters.dirtyBytes.addAndGet(bytesAdded);
        }
    }

    /** Caller holds {@code e}'s monitor: the content is replaced by exactly {@code bytes} bytes. */
    void markReplaced(Entry e, long bytes) {
        if (!e.dirty) {
            e.dirty = true;
            counters.dirtyEntries.incrementAndGet();
            counters.dirtyBytes.addAndGet(bytes);
        } else {
            counters.dirtyBytes.addAndGet(bytes - e.estimate);
        }
        e.estimate = bytes;
    }
}
