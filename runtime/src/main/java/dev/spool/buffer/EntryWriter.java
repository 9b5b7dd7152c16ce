package dev.spool.buffer;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Writes one dirty entry to disk: conflict check against the entry's baseline, atomic replace,
 * new baseline; or the conflict file and a re-base; or a failure kept on the entry. The caller
 * holds the entry's monitor for the whole call, so no write to the entry interleaves.
 *
 * <p>System calls per written file: one {@code lstat} (the conflict check, and the mode to keep),
 * create + write + close of the temp file (created with that mode; a {@code chmod} only while
 * creates are not yet known to keep it), one {@code utimensat} (our own modification time, which
 * makes the next conflict check trust metadata and never read the file back), the rename, and one
 * {@code lstat} (the new stamp, and proof the mode was kept). A file whose baseline says it is
 * missing is created instead, never replacing a name ({@link #create}: 5 calls). Stateless
 * apart from the shared counters (atomics), so any number of threads may use one instance.
 * <pre>{@code
 * Outcome o;
 * synchronized (entry) { o = writer.write(entry, fsync); }
 * listeners.outcome(o);
 * }</pre>
 */
final class EntryWriter {
    enum Result { CLEAN, WRITTEN, CONFLICT, FAILED }

    /** What happened to one entry; {@code conflictFile} for CONFLICT, {@code failure} and {@code content} for FAILED. */
    record Outcome(Result result, Path path, Path conflictFile, Throwable failure, byte[] content) {}

    static final Outcome CLEAN = new Outcome(Result.CLEAN, null, null, null, null);

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
            if (!e.baseline.exists()) return create(e, content, fsync);
            BasicFileAttributes before = FileStamp.attrs(e.path); // one lstat: conflict check and mode
            if (!e.baseline.unchangedOnDisk(e.path, before)) {
                Path conflictFile = AtomicFiles.writeConflict(e.path, content, fsync);
                rebaseAfterConflict(e);
                return new Outcome(Result.CONFLICT, e.path, conflictFile, null, null);
            }
            long mtime = FileStamp.ownMtimeNanos();
            Set<PosixFilePermission> mode = FileStamp.modeIn(before);
            if (before != null && mode == null && before.isSymbolicLink()) {
                AtomicFiles.write(e.path, content, fsync, mtime); // the mode of what the link names
            } else {
                AtomicFiles.writeKnownMode(e.path, content, fsync, mtime, mode);
            }
            BasicFileAttributes after = FileStamp.attrs(e.path);
            Set<PosixFilePermission> got = FileStamp.modeIn(after);
            if (mode != null && got != null && !got.equals(mode)) {
                AtomicFiles.modeNotKept(e.path, mode); // narrowed by a folder's default ACL: set it exactly
            }
            e.baseline = FileStamp.afterWrite(e.path, after, content, mtime);
            markClean(e, content.length);
            e.failure = null;
            return new Outcome(Result.WRITTEN, e.path, null, null, null);
        } catch (IOException | RuntimeException failure) {
            e.failure = failure;
            return new Outcome(Result.FAILED, e.path, null, failure, content);
        }
    }

    /**
     * Caller holds {@code e}'s monitor; the entry's baseline says no file was there (a new file
     * buffered with {@code createAtFlush}, a new live file, one re-based after a conflict): the file
     * is created as {@link #writeNew} does, never replacing a name. A name taken since (someone
     * else's file, or a symlink) wins, as any change made after the last buffered write does: the
     * buffered content goes beside it, a {@link Result#CONFLICT}. No {@code lstat} before: the link
     * itself is the check, and unlike a check before a rename it leaves no window.
     */
    private Outcome create(Entry e, byte[] content, boolean fsync) throws IOException {
        if (!AtomicFiles.createNew(e.path, content, fsync)) {
            Path conflictFile = AtomicFiles.writeConflict(e.path, content, fsync);
            rebaseAfterConflict(e);
            return new Outcome(Result.CONFLICT, e.path, conflictFile, null, null);
        }
        e.baseline = FileStamp.created(content);
        markClean(e, content.length);
        e.failure = null;
        return new Outcome(Result.WRITTEN, e.path, null, null, null);
    }

    /**
     * Caller holds {@code e}'s monitor and has just found no file at its path (under that monitor):
     * creates it with the entry's content, atomically and never replacing anything
     * ({@link AtomicFiles#createNew}: temp file, hard link, unlink). Null when the name turned out
     * to be taken (a dangling symlink, or someone else's file made since the caller looked):
     * nothing written, the entry untouched, the caller examines the path afresh. The fewest system
     * calls that keep "never a half file visible" and "never replace someone else's file": 5
     * (create, write, close, link, unlink) plus the caller's {@code access}. Nothing before (no
     * {@code lstat}: for a new name the JDK throws, ~10 us, docs/BENCHMARKS.md), nothing after (a new
     * file has the umask's mode, nothing to check), no own modification time (open, futimens,
     * close: a third of the create). Its stamp is size + the content's hash ({@link FileStamp#created}):
     * the file's first check reads it back once.
     */
    Outcome writeNew(Entry e, boolean fsync) {
        byte[] content = null;
        try {
            content = e.encoded();
            if (!AtomicFiles.createNew(e.path, content, fsync)) return null;
            e.baseline = FileStamp.created(content);
            markClean(e, content.length);
            e.failure = null;
            return new Outcome(Result.WRITTEN, e.path, null, null, null);
        } catch (IOException | RuntimeException failure) {
            e.failure = failure;
            return new Outcome(Result.FAILED, e.path, null, failure, content);
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
        long before = e.estimate;
        e.estimate = Math.max(2, before + bytesAdded);
        if (!e.dirty) {
            e.dirty = true;
            counters.dirtyEntries.incrementAndGet();
            counters.dirtyBytes.addAndGet(e.estimate);
        } else if (e.estimate != before) {
            counters.dirtyBytes.addAndGet(e.estimate - before);
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
