package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the host's own file operations (woven by the agent: {@code FileInputStream},
 * {@code Files.*}, {@code File.delete}, {@code Files.move}, ...) do to a buffered file before they
 * run, so each ends as it would without Spool:
 * <ul>
 *   <li>a read by another path ({@link #beforeRead}): the buffered content is written first, so the
 *       read sees it; the entry stays (its stamp is the file just written);
 *   <li>a direct write or append ({@link #beforeWrite}): written first (an append appends after
 *       it), then the entry is forgotten, so the next buffered write or read stamps the file afresh
 *       from disk: the last write wins without a per-call {@code lstat};
 *   <li>a deletion ({@link #beforeDelete}): the buffered content is dropped and the delete runs;
 *       the file ends absent, no conflict file, no resurrection at the flush. (A new file the
 *       flusher has not created yet is written first, so the delete finds it, as without Spool; so
 *       are such files directly in a folder being deleted, which then is not empty, as without Spool.)
 *   <li>a check of existence or type ({@link #beforeStat}) or a listing of a folder
 *       ({@link #beforeList}): a new file the flusher has not created yet
 *       ({@code spool.buffer.create=flush}) is created first, so the check or the listing finds it;
 *       a file already on disk is left as it is (its buffered content waits for the flush);
 *   <li>a child process about to start ({@link #beforeChildProcess}): every buffered file is
 *       written first (a flush on the spawning thread), so the child reads what it would without Spool.
 *   <li>a move or rename ({@link #beforeMove}): a buffered source is written and forgotten; so is a
 *       buffered target, written first (a move that then fails, e.g. without
 *       {@code REPLACE_EXISTING}, leaves it with its latest content, as without Spool) and
 *       forgotten; a folder holding buffered files: each of them written and forgotten;
 *   <li>a copy ({@link #beforeCopy}): a buffered source is written (and stays); a buffered target
 *       is written and forgotten.
 * </ul>
 * Spool's own file operations never act on themselves: they run on the flush threads, under the
 * entry's monitor, or (the agent's bridge) inside a hook; {@link #watching()} and {@link #find}
 * leave all of those alone.
 *
 * <p><b>Cost.</b> With no entry in the buffer {@link #watching()} is false after one map size read;
 * otherwise each path costs one lexical normalisation ({@code toAbsolutePath().normalize()}, no
 * system call) and a map lookup (a second when the host wrote the file through a symlink). A path
 * that names a buffered file other than lexically or by the path the host's writes used (another
 * symlink, a hard link) is not recognised.
 *
 * <p><b>Blocking.</b> Takes only the one entry's monitor it works on, so it waits while a flush
 * writes that same file (one file's write); never takes the flush lock, so it cannot deadlock with
 * the flusher; writes on the caller's thread. Thread-safe.
 * <pre>{@code
 * HostFileOps ops = buffer.hostFiles();
 * if (ops.watching()) ops.beforeDelete(path); // then the host's Files.delete(path) runs
 * }</pre>
 */
@Internal
public final class HostFileOps {
    private final SharedBuffer buffer;
    private final EntryTable table;
    private final EntryWriter writer;
    private final Listeners listeners;
    private final SnapshotEntries snapshots;
    /** Lexical path the host's writes named -> the buffer's key, where the two differ (a symlink on the path). */
    private final ConcurrentHashMap<Path, Path> aliases = new ConcurrentHashMap<>();
    private final LongAdder failures = new LongAdder();

    HostFileOps(SharedBuffer buffer, EntryTable table, EntryWriter writer, Listeners listeners, SnapshotEntries snapshots) {
        this.buffer = buffer;
        this.table = table;
        this.writer = writer;
        this.listeners = listeners;
        this.snapshots = snapshots;
    }

    /**
     * Whether a host file operation on this thread may concern a buffered file: false while the
     * buffer holds no entry, and on the buffer's own flush threads.
     * @return false when the caller may skip the other methods
     */
    public boolean watching() {
        return !table.isEmpty() && !FlushWorkers.isFlushThread();
    }

    /** Whether the current thread is one of the buffer's flush threads: its file I/O is Spool's own, never the host's. */
    public static boolean onFlushThread() {
        return FlushWorkers.isFlushThread();
    }

    /**
     * Before the host reads {@code file} by a path Spool does not serve.
     * @param file the file, as the host named it
     */
    public void beforeRead(Path file) {
        Entry e = find(file);
        if (e != null && !Thread.holdsLock(e)) writeOut(e, false);
    }

    /**
     * Before the host writes or appends to {@code file} directly.
     * @param file the file, as the host named it
     */
    public void beforeWrite(Path file) {
        Entry e = find(file);
        if (e != null && !Thread.holdsLock(e)) writeOut(e, true);
    }

    /**
     * Before the host deletes {@code file}.
     * @param file the file, as the host named it
     */
    public void beforeDelete(Path file) {
        Path lexical = RealPaths.lexical(file);
        Entry e = findLexical(lexical);
        if (e == null) {
            createNotCreatedYetIn(lexical); // a folder: its new files not created yet are there, as without Spool
            return;
        }
        if (Thread.holdsLock(e)) return;
        synchronized (e) {
            if (e.removed) return;
            if (e.baseline.exists() || !e.dirty) {
                snapshots.drop(e);
                return;
            }
        }
        writeOut(e, true); // a new file not created yet: created, so the delete finds it
    }

    /**
     * Before the host checks whether {@code file} exists or what it is.
     * @param file the file, as the host named it
     */
    public void beforeStat(Path file) {
        Entry e = find(file);
        if (e != null && !Thread.holdsLock(e) && notCreatedYet(e)) writeOut(e, false);
    }

    /**
     * Before the host lists folder {@code dir} (or deletes it: {@link #beforeDelete}).
     * @param dir the folder, as the host named it
     */
    public void beforeList(Path dir) {
        createNotCreatedYetIn(RealPaths.lexical(dir));
    }

    /** Creates the new files directly in folder {@code lexicalDir} that the flusher has not created yet. */
    private void createNotCreatedYetIn(Path lexicalDir) {
        for (Entry e : table.in(lexicalDir)) {
            if (!Thread.holdsLock(e) && notCreatedYet(e)) writeOut(e, false);
        }
    }

    /**
     * Before the host starts a child process, which may read any buffered file: a flush, on this
     * thread. A file that cannot be written is counted ({@link #failures()}) and reported to the
     * buffer's listeners; the process starts on what is on disk.
     */
    public void beforeChildProcess() {
        try {
            buffer.flush();
        } catch (RuntimeException e) { // FlushException included: reported to the listeners already
            failures.increment();
        }
    }

    /** A new file buffered to be created by the flush ({@code createAtFlush}), not created yet. */
    private static boolean notCreatedYet(Entry e) {
        synchronized (e) {
            return !e.removed && e.dirty && !e.baseline.exists();
        }
    }

    /**
     * Before the host moves or renames {@code source} to {@code target} (either may be a folder).
     * @param source what is moved
     * @param target where to
     */
    public void beforeMove(Path source, Path target) {
        Entry t = find(target);
        if (t != null && Thread.holdsLock(t)) return; // Spool's own rename of a temp file onto its entry
        Path lexicalSource = RealPaths.lexical(source);
        Entry s = findLexical(lexicalSource);
        if (s != null) {
            if (Thread.holdsLock(s)) return;
            writeOut(s, true);
        } else {
            for (Entry inside : table.under(lexicalSource)) {
                if (!Thread.holdsLock(inside)) writeOut(inside, true);
            }
        }
        if (t != null) writeOut(t, true);
    }

    /**
     * Before the host copies {@code source} to {@code target}.
     * @param source what is copied
     * @param target the copy
     */
    public void beforeCopy(Path source, Path target) {
        Entry s = find(source);
        if (s != null && !Thread.holdsLock(s)) writeOut(s, false);
        Entry t = find(target);
        if (t != null && !Thread.holdsLock(t)) writeOut(t, true);
    }

    /** Counts one failure of a hook (the host's operation then ran on what was on disk). */
    public void failed() {
        failures.increment();
    }

    /**
     * Host file operations whose preparation failed since start (each then ran on what was on disk,
     * as without Spool); the Buffer bean's {@code HostFileOpFailures}.
     * @return the count
     */
    public long failures() {
        return failures.sum();
    }

    /** Remembers that writes of {@code given} go to the entry {@code key} (called at a buffered write). */
    void named(Path given, Path key) {
        Path lexical = RealPaths.lexical(given);
        if (!lexical.equals(key)) {
            if (aliases.size() >= RealPaths.CACHE_LIMIT) aliases.clear();
            aliases.put(lexical, key);
        }
    }

    /** The entry of the file the host names {@code file}, or null when none is buffered. */
    private Entry find(Path file) {
        return findLexical(RealPaths.lexical(file));
    }

    /** {@link #find} of a path already normalised lexically ({@link RealPaths#lexical}). */
    private Entry findLexical(Path lexical) {
        Entry e = table.get(lexical);
        if (e == null && !aliases.isEmpty()) {
            Path key = aliases.get(lexical);
            if (key != null) e = table.get(key);
        }
        return e;
    }

    /** Writes {@code e}'s unwritten content now; with {@code forget}, then drops the entry (unless the write failed: kept for retry). */
    private void writeOut(Entry e, boolean forget) {
        EntryWriter.Outcome written;
        synchronized (e) {
            if (e.removed) return;
            written = writer.write(e, buffer.isFsync()); // CLEAN when nothing is unwritten
            if (forget && written.result() != EntryWriter.Result.FAILED && !e.removed) snapshots.drop(e);
        }
        listeners.outcome(written);
    }

    /** Entries in {@code dir} or beneath it (tests). */
    List<Entry> under(Path dir) {
        return table.under(RealPaths.lexical(dir));
    }
}
