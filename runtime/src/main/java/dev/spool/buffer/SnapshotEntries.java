package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The snapshot side of {@link SharedBuffer}: whole-file contents handed in by the agent's Jackson
 * hooks ({@link SharedBuffer#putSnapshot}), superseded by the host's own writes, and served back to
 * its reads. The rules (a new file created at the call, the last write wins, a change on disk
 * never overwritten, a refusal leaves the caller to write itself) are stated once, on the
 * {@link SharedBuffer} methods that delegate here.
 *
 * <p><b>Threading.</b> Thread-safe: every method takes only the one entry's monitor it works on
 * (and waits while a flush is writing that file); the buffer's settings are read through its
 * volatile getters, once per call. Package-private; one instance per buffer.
 */
final class SnapshotEntries {
    private final SharedBuffer buffer;
    private final EntryTable table;
    private final EntryWriter writer;
    private final Listeners listeners;
    private final CapacityGate gate;
    private volatile HostFileOps hostFiles;

    SnapshotEntries(SharedBuffer buffer, EntryTable table, EntryWriter writer, Listeners listeners,
                    CapacityGate gate) {
        this.buffer = buffer;
        this.table = table;
        this.writer = writer;
        this.listeners = listeners;
        this.gate = gate;
    }

    /** The host-file hooks told the path each put names (set once, by the buffer's constructor). */
    void hostFiles(HostFileOps ops) {
        hostFiles = ops;
    }

    /** {@link SharedBuffer#putSnapshot(Path, SnapshotContent)}. */
    boolean put(Path file, SnapshotContent content) throws IOException {
        Path p;
        boolean[] seenMissing = new boolean[2]; // [1]: p is file's own lexical form (RealPaths.of)
        try {
            p = RealPaths.of(file, seenMissing);
        } catch (UncheckedIOException unresolvable) {
            return false; // e.g. a file where a folder should be: the caller's own write fails as it should
        }
        HostFileOps ops = hostFiles;
        // a path that resolved to itself is the key's lexical form: no alias to remember (decided by the same
        // lookup that gave p, so no other thread's cache update in between can change the answer)
        if (ops != null && !seenMissing[1]) ops.named(file, p);
        if (!buffer.isEnabled()) {               // before any encoding: the kill switch costs the caller nothing
            supersede(p);
            return false;
        }
        if (!(content instanceof SnapshotContent.Bytes) && gate.overHalfBound()) {
            content = encodedNow(content);
        }
        long size = content.heapBytes();
        if (size > buffer.getCapacityBytes()) {
            supersede(p);
            return false;
        }
        boolean fsync = buffer.isFsync();
        EntryWriter.Outcome written = null;
        Entry created = null;
        boolean examined = false;
        for (;;) {
            Entry e = table.entryFor(p);
            synchronized (e) {
                if (e.removed) continue;
                if (e.failure != null) throw e.failureAsIOException();
                if (!accept(e, p, seenMissing[0])) return false;
                e.snapshot = content;
                e.root = null;
                e.touched = true;
                writer.markReplaced(e, size);
                e.writes++;
                if (!e.baseline.exists() && (!buffer.isCreateAtFlush() || buffer.isClosed())) {
                    // A new file: created at once, atomically, so the file exists when the call returns
                    // (with createAtFlush it is buffered instead, and the flush creates it: EntryWriter.write).
                    // A failure to create it (no folder, no access) refuses: the host's own write then
                    // meets the real result and error, exactly as without Spool. A failure to write it once
                    // created (a full disk, a quota) is thrown: the host's own write would create the name
                    // and leave it torn (issue 31); the temp file is gone, no name is left behind.
                    written = writer.writeNew(e, fsync);
                    if (written == null || written.result() == EntryWriter.Result.FAILED) {
                        drop(e);
                        if (written != null && failedWriting(written.failure())) throw (IOException) written.failure();
                        if (written != null || examined) return false;
                        // The name was taken after all (a dangling symlink, or someone's file made just
                        // now): look at it properly once; a second miss leaves the write to the host.
                        examined = true;
                        seenMissing[0] = false;
                        try {
                            p = RealPaths.examined(file);
                        } catch (UncheckedIOException unresolvable) {
                            return false;
                        }
                        continue;
                    }
                    // the content stays for reads until the next flush pass, which keeps only the stamp
                } else if (!e.baseline.exists()) {
                    created = e; // buffered for the flush to create: the flusher does it soon
                } else if (buffer.isClosed()) {
                    // JVM shutdown: the host's threads still run while hooks flush: write through
                    written = writer.write(e, fsync);
                    if (written.result() == EntryWriter.Result.FAILED) drop(e);
                }
            }
            break;
        }
        if (written != null) {
            listeners.outcome(written);
            if (written.result() == EntryWriter.Result.FAILED) throw new IOException(written.failure());
            return true;
        }
        if (created != null) buffer.createSoon(created);
        gate.afterBufferedWrite();
        return true;
    }

    /**
     * Whether a create failed writing its content (the temp file was opened: an I/O error such as
     * ENOSPC from write, force or close), not opening it (a {@code FileSystemException}: no folder,
     * no access, which the host's own open meets as well).
     */
    private static boolean failedWriting(Throwable failure) {
        return failure instanceof IOException && !(failure instanceof java.nio.file.FileSystemException);
    }

    /**
     * Over half the memory bound, content that would encode itself at the flush (a capture) is
     * encoded now, on the caller's thread, holding its text only; one that cannot be encoded is kept
     * as it is (its flush then fails and reports, as before).
     */
    private static SnapshotContent encodedNow(SnapshotContent content) {
        try {
            return SnapshotContent.ofBytes(content.encode());
        } catch (IOException | RuntimeException notEncodable) {
            return content;
        }
    }

    /**
     * Caller holds {@code e}'s monitor. Re-bases the entry on the file as it is now (a write made
     * directly to the file since the last put is older than this put, which replaces it: the last
     * write wins) and says whether a snapshot may be buffered; a refusal drops the entry.
     */
    private boolean accept(Entry e, Path p, boolean seenMissing) {
        if (!e.loaded && !seenMissing && ReplaceRefusal.stillRefused(p)) {
            drop(e); // refused a moment ago and unchanged: one lstat instead of a read of the file and every check
            return false;
        }
        FileStamp disk;
        try {
            // seenMissing: resolving the path found no file there a moment ago (one lstat); not asked again.
            // Exclusive: nobody else writes the file, so a stamped one is taken as stamped (no lstat); a
            // change by anyone still meets the flush's conflict check against this baseline.
            disk = !e.loaded ? (seenMissing ? FileStamp.MISSING : FileStamp.load(p).stamp())
                    : e.baseline.exists() && buffer.isExclusive() ? e.baseline : e.baseline.refreshed(p);
        } catch (IOException unreadable) {
            drop(e); // not a file we can stamp (a folder, no access): the caller writes itself
            return false;
        }
        // A new file needs no examination: it is created at the call, and a create that fails is refused then.
        // Held for the flush instead (createAtFlush), its folder must take it now: a missing folder or
        // one the process may not write is refused, so the caller's own write meets the error as without
        // Spool (one access(W_OK)); a full disk still fails at the flush, as a rewrite's would.
        if (!disk.exists() && !e.dirty && buffer.isCreateAtFlush() && !buffer.isClosed() && !folderTakesFiles(p)) {
            drop(e);
            return false;
        }
        boolean restamped = !e.loaded || (disk != e.baseline && !disk.learnedFrom(e.baseline));
        if (disk.exists() && restamped && ReplaceRefusal.reason(p, disk) != null) {
            drop(e); // remembered by ReplaceRefusal for its next puts
            return false;
        }
        e.baseline = disk;
        e.loaded = true;
        return true;
    }

    /** {@link SharedBuffer#supersede(Path)}: {@code p} is already a real path. */
    void supersede(Path p) {
        Entry e = table.get(p);
        if (e == null) return;
        synchronized (e) {
            if (!e.removed) drop(e);
        }
    }

    /** {@link SharedBuffer#writeNow(Path)}. */
    boolean writeNow(Path file) {
        Entry e = table.get(RealPaths.of(file));
        if (e == null) return true;
        EntryWriter.Outcome written;
        synchronized (e) {
            written = writer.write(e, buffer.isFsync()); // CLEAN when removed or nothing unwritten
        }
        listeners.outcome(written);
        return written.result() != EntryWriter.Result.FAILED;
    }

    /**
     * Whether {@code file}'s folder exists and this process may create files in it, asked afresh
     * ({@code access(W_OK)}): not {@link ReplaceRefusal}'s folder record, which may be up to a second
     * old, so a folder the host deleted just before would still look present.
     */
    private static boolean folderTakesFiles(Path file) {
        Path folder = file.getParent();
        return folder != null && Files.isWritable(folder);
    }

    /** Caller holds {@code e}'s monitor: forget the entry, buffered content and failure included. */
    void drop(Entry e) {
        writer.markClean(e, 0);
        e.failure = null;
        e.snapshot = null;
        e.root = null;
        table.remove(e);
    }

    /**
     * {@link SharedBuffer#readBufferedContent(Path)}. Exclusive: served without looking at the disk
     * (no direct write by anyone is expected; one made anyway is found at the flush, as a conflict).
     */
    SnapshotContent read(Path file) throws IOException {
        Entry e = table.get(RealPaths.of(file));
        if (e == null) return null;
        synchronized (e) {
            if (e.removed || !e.loaded) return null;
            if (e.failure != null) throw e.failureAsIOException();
            if (e.snapshot != null && !buffer.isExclusive()) {
                FileStamp same = e.baseline.verified(e.path); // a stamp that needed the content comes back full
                if (same == null) {
                    if (!e.dirty) drop(e); // nothing of ours is pending: the disk is all there is
                    return null;
                }
                e.baseline = same;
            }
            SnapshotContent out = e.snapshot != null ? e.snapshot
                    : e.root != null ? SnapshotContent.ofBytes(Json.encode(e.root)) : null;
            if (out != null) e.reads++;
            return out;
        }
    }
}
