package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The shared in-memory write-behind buffer: at most one entry per real path, written to disk at
 * flush with an atomic replace.
 *
 * <p><b>Entries.</b> A <em>live</em> entry holds the one tree of plain JSON types that every
 * {@code SyncedMap}/{@code SyncedList} bound to the file shares while a scope is open
 * ({@link #openScope()}). A <em>snapshot</em> entry holds already-encoded bytes handed in by
 * {@link #putSnapshot} (the agent's captured Jackson writes); a later snapshot replaces it. Both go
 * through the same flush, capacity and conflict rules.
 *
 * <p><b>Guarantees.</b> Thread-safe for any number of threads on the same and on different files.
 * A lookup of a buffered file is a {@link ConcurrentHashMap} read and then the entry's own monitor;
 * no global lock is taken by reads or writes. A file on disk is at every instant its previous or
 * its new complete content ({@link AtomicFiles}). A file changed on disk since it was loaded is
 * never overwritten: the content goes to {@code <name>.spool-conflict-<millis>}, is counted,
 * notified and reported, and the entry re-bases on the file's current content. A failed write
 * keeps the content buffered for the next flush; until one succeeds {@link #putSnapshot} and
 * {@link #readBuffered} for that file throw. Blocking: a write blocks while its file is being
 * flushed; a write that pushes the buffer over {@code capacity} dirty files or
 * {@code capacityBytes} estimated bytes runs a forced flush on its own thread (entries stay
 * buffered, they become clean). Nothing is ever dropped: a refused snapshot returns false and the
 * caller writes itself.
 *
 * <pre>{@code
 * SharedBuffer buffer = SharedBuffer.global();
 * if (!buffer.putSnapshot(file, mapper.writeValueAsBytes(state))) {
 *     mapper.writeValue(file.toFile(), state);           // refused: write it yourself
 * }
 * byte[] current = buffer.readBuffered(file);            // served from memory, or null
 * }</pre>
 */
public final class SharedBuffer implements AutoCloseable {
    private static volatile SharedBuffer global;

    private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final AtomicInteger scopeDepth = new AtomicInteger();
    private final CopyOnWriteArrayList<BufferListener> listeners = new CopyOnWriteArrayList<>();
    private final Counters counters = new Counters();
    private final EntryWriter writer = new EntryWriter(counters);
    private final FlushTimer timer;
    private volatile boolean enabled = true;
    private volatile boolean closed;
    private volatile int capacity;
    private volatile long capacityBytes;
    private volatile long flushIntervalMillis;
    private volatile boolean fsync;

    private SharedBuffer(BufferSettings s) {
        capacity = s.capacity();
        capacityBytes = s.capacityBytes();
        flushIntervalMillis = s.flushIntervalMillis();
        fsync = s.fsync();
        timer = new FlushTimer(this);
        timer.start();
    }

    /** A new, independent buffer (its own flusher thread; close it when done). */
    public static SharedBuffer create(BufferSettings settings) {
        return new SharedBuffer(Objects.requireNonNull(settings, "settings"));
    }

    /** The process-wide buffer, created with defaults at first use; flushed at JVM shutdown. */
    public static SharedBuffer global() {
        SharedBuffer g = global;
        if (g != null) return g;
        synchronized (SharedBuffer.class) {
            if (global == null) {
                SharedBuffer created = new SharedBuffer(BufferSettings.defaults());
                Runtime.getRuntime().addShutdownHook(new Thread(created::shutdown, "spool-buffer-shutdown"));
                global = created;
            }
            return global;
        }
    }

    /** Applies {@code s} to the global buffer, live. */
    public static void configureGlobal(BufferSettings s) {
        SharedBuffer g = global();
        g.setCapacity(s.capacity());
        g.setCapacityBytes(s.capacityBytes());
        g.setFsync(s.fsync());
        g.setFlushIntervalMillis(s.flushIntervalMillis());
    }

    // ---------------------------------------------------------------- snapshot entries

    /**
     * Takes {@code content} (copied) as the next content of {@code file}; a later put replaces it.
     * Returns false when the buffer refuses (disabled, closed, the content alone exceeds
     * {@code capacityBytes}, or the current file cannot be examined): the caller then writes the
     * file itself and meets the real error, if any.
     * @throws IOException when an earlier flush of this file failed (its data is kept for retry)
     */
    public boolean putSnapshot(Path file, byte[] content) throws IOException {
        Objects.requireNonNull(content, "content");
        if (!enabled || closed || content.length > capacityBytes) return false;
        Path p = RealPaths.of(file);
        byte[] copy = content.clone();
        for (;;) {
            Entry e = entryFor(p);
            synchronized (e) {
                if (e.removed) continue;
                if (e.failure != null) throw e.failureAsIOException();
                if (!e.loaded) {
                    try {
                        e.baseline = FileStamp.current(p);
                    } catch (IOException unreadable) {
                        dropIfClean(e); // not a file we can stamp (a folder, no access): caller writes itself
                        return false;
                    }
                    e.loaded = true;
                }
                e.snapshot = copy;
                e.root = null;
                writer.markReplaced(e, copy.length);
                counters.writesAbsorbed.increment();
            }
            break;
        }
        maybeForceFlush();
        return true;
    }

    /**
     * The buffered content of {@code file} (a copy, encoded), or null if it is not buffered.
     * @throws IOException when an earlier flush of this file failed
     */
    public byte[] readBuffered(Path file) throws IOException {
        Entry e = entries.get(RealPaths.of(file));
        if (e == null) return null;
        synchronized (e) {
            if (e.removed || !e.loaded) return null;
            if (e.failure != null) throw e.failureAsIOException();
            byte[] out = e.snapshot != null ? e.snapshot.clone() : e.root != null ? Json.encode(e.root) : null;
            if (out != null) counters.readsServed.increment();
            return out;
        }
    }

    // ---------------------------------------------------------------- live entries (dev.spool.collections)

    /**
     * Applies {@code read} to the live tree of {@code realFile} (a real path, see {@link RealPaths})
     * under the entry's monitor, loading the file if it is not buffered. With no scope open the
     * entry is transient: loaded for this call and dropped after it (unless it holds unwritten data).
     * @throws CorruptFileException if the file must be loaded and cannot be parsed
     * @throws IllegalStateException if the file's top level is not of {@code kind}
     */
    public <T> T liveRead(Path realFile, JsonKind kind, Function<Object, T> read) {
        for (;;) {
            Entry e = entryFor(realFile);
            synchronized (e) {
                if (e.removed) continue;
                boolean buffering = isBuffering();
                try {
                    T result = read.apply(ensureLive(e, kind));
                    if (buffering) counters.readsServed.increment();
                    return result;
                } finally {
                    if (!buffering) evictIfIdle(e, false);
                }
            }
        }
    }

    /**
     * Applies {@code write} to the live tree of {@code realFile} under the entry's monitor and marks
     * the file dirty, {@code bytesAdded} being the estimated growth of its encoded size. While a
     * scope is open that is all (no I/O). With no scope open the file is written at once
     * (write-through) before this returns.
     * @throws UncheckedIOException when that write-through fails (a change that was only this
     *         call's is then discarded; earlier buffered changes stay for retry)
     */
    public <T> T liveWrite(Path realFile, JsonKind kind, long bytesAdded, Function<Object, T> write) {
        for (;;) {
            Entry e = entryFor(realFile);
            T result;
            synchronized (e) {
                if (e.removed) continue;
                boolean buffering = isBuffering();
                try {
                    Object root = ensureLive(e, kind);
                    boolean wasDirty = e.dirty;
                    result = write.apply(root);
                    writer.markDirty(e, bytesAdded);
                    if (!buffering) {
                        writeThrough(e, wasDirty);
                        return result;
                    }
                    counters.writesAbsorbed.increment();
                } finally {
                    if (!buffering) evictIfIdle(e, false);
                }
            }
            maybeForceFlush();
            return result;
        }
    }

    /** Caller holds {@code e}'s monitor. */
    private void writeThrough(Entry e, boolean wasDirty) {
        EntryWriter.Outcome o = writer.write(e, fsync);
        report(e.path, o);
        if (o.result() != EntryWriter.Result.FAILED) return;
        IOException io = e.failureAsIOException();
        if (!wasDirty) { // nothing but this call's change: discard it, the caller is told
            writer.markClean(e, 0);
            e.failure = null;
            e.removed = true;
            entries.remove(e.path, e);
        }
        throw new UncheckedIOException(io);
    }

    private Entry entryFor(Path p) {
        Entry e = entries.get(p);
        return e != null ? e : entries.computeIfAbsent(p, Entry::new);
    }

    /** Caller holds {@code e}'s monitor. Loads or decodes the tree; a bad file removes a clean entry. */
    private Object ensureLive(Entry e, JsonKind kind) {
        if (e.root != null) return kind.check(e.path, e.root);
        if (e.snapshot != null) {
            e.root = kind.check(e.path, Json.decode(e.path, e.snapshot));
            e.snapshot = null;
            return e.root;
        }
        try {
            FileStamp.Loaded l = FileStamp.load(e.path);
            Object tree = l.content() == null ? kind.empty() : kind.check(e.path, Json.decode(e.path, l.content()));
            e.baseline = l.stamp();
            e.loaded = true;
            e.estimate = l.content() == null ? 2 : l.content().length;
            e.root = tree;
            return tree;
        } catch (IOException io) {
            dropIfClean(e);
            throw new UncheckedIOException("cannot read " + e.path, io);
        } catch (RuntimeException bad) {
            dropIfClean(e);
            throw bad;
        }
    }

    private void dropIfClean(Entry e) {
        if (!e.dirty && e.failure == null) {
            e.removed = true;
            entries.remove(e.path, e);
        }
    }

    // ---------------------------------------------------------------- scopes

    /** Opens a buffering scope; scopes nest, and the outermost close flushes. */
    public BufferScope openScope() {
        scopeDepth.incrementAndGet();
        return new BufferScope(this);
    }

    void closeScope() {
        if (scopeDepth.decrementAndGet() == 0) flush();
    }

    /** Whether writes to collections are being buffered now (enabled, open, a scope is open). */
    public boolean isBuffering() {
        return scopeDepth.get() > 0 && enabled && !closed;
    }

    public int scopeDepth() {
        return scopeDepth.get();
    }

    // ---------------------------------------------------------------- flushing

    /**
     * Writes every dirty file. Conflicts are written beside their file and reported, not thrown.
     * @return the number of files written
     * @throws FlushException listing every file that could not be written, with its content
     */
    public int flush() throws FlushException {
        return flushWithReport().filesWritten();
    }

    /** Like {@link #flush()}, returning what was written and which files conflicted. */
    public FlushReport flushWithReport() throws FlushException {
        flushLock.lock();
        try {
            return runFlush(false);
        } finally {
            flushLock.unlock();
        }
    }

    void timedFlush() {
        if (counters.dirtyEntries.get() == 0) return;
        flushWithReport();
    }

    private void maybeForceFlush() {
        if (!overCapacity()) return;
        flushLock.lock();
        try {
            if (overCapacity()) runFlush(true);
        } catch (FlushException e) {
            // reported to listeners and LastError; the data stays buffered for the next flush
        } finally {
            flushLock.unlock();
        }
    }

    private boolean overCapacity() {
        return counters.dirtyEntries.get() > capacity || counters.dirtyBytes.get() > capacityBytes;
    }

    /** Caller holds the flush lock. {@code forced}: keep every entry buffered (clean). */
    private FlushReport runFlush(boolean forced) {
        long start = System.nanoTime();
        int written = 0;
        List<FlushReport.Conflict> conflicts = new ArrayList<>();
        List<FlushException.Failure> failures = new ArrayList<>();
        boolean fs = fsync;
        for (Entry e : entries.values()) {
            synchronized (e) {
                EntryWriter.Outcome o = writer.write(e, fs);
                switch (o.result()) {
                    case WRITTEN -> written++;
                    case CONFLICT -> conflicts.add(new FlushReport.Conflict(e.path, o.conflictFile()));
                    case FAILED -> failures.add(new FlushException.Failure(e.path, o.failure(), o.content()));
                    case CLEAN -> { }
                }
                report(e.path, o);
                if (!forced) evictIfIdle(e, true);
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        counters.flushes.incrementAndGet();
        counters.lastFlushMillis = millis;
        for (BufferListener l : listeners) {
            try {
                l.flushCompleted(written, millis);
            } catch (RuntimeException ignored) {
                // a listener never breaks a flush
            }
        }
        if (!failures.isEmpty()) throw new FlushException(written, failures);
        return new FlushReport(written, conflicts, millis);
    }

    /** Caller holds {@code e}'s monitor: counts and notifies one entry's outcome. */
    private void report(Path path, EntryWriter.Outcome o) {
        switch (o.result()) {
            case WRITTEN -> counters.filesWritten.incrementAndGet();
            case CONFLICT -> {
                counters.conflicts.incrementAndGet();
                for (BufferListener l : listeners) {
                    try {
                        l.conflict(path, o.conflictFile());
                    } catch (RuntimeException ignored) {
                        // a listener never breaks a flush
                    }
                }
            }
            case FAILED -> {
                counters.lastError = path + ": " + o.failure();
                for (BufferListener l : listeners) {
                    try {
                        l.writeError(path, o.failure());
                    } catch (RuntimeException ignored) {
                        // a listener never breaks a flush
                    }
                }
            }
            case CLEAN -> { }
        }
    }

    /**
     * Caller holds {@code e}'s monitor. A clean entry leaves the buffer when nothing needs it in
     * memory: a snapshot (disk has the same bytes) after a full flush, or any entry when no scope
     * is open.
     */
    private void evictIfIdle(Entry e, boolean snapshotsToo) {
        if (e.removed || e.dirty || e.failure != null) return;
        if (scopeDepth.get() == 0 || !e.loaded || (snapshotsToo && e.snapshot != null)) {
            e.removed = true;
            entries.remove(e.path, e);
        }
    }

    // ---------------------------------------------------------------- settings, metrics, lifecycle

    public BufferMetrics metrics() {
        return counters.snapshot(entries.size());
    }

    public void addListener(BufferListener l) { listeners.add(Objects.requireNonNull(l, "listener")); }
    public void removeListener(BufferListener l) { listeners.remove(l); }

    public boolean isEnabled() { return enabled; }
    public int getCapacity() { return capacity; }
    public long getCapacityBytes() { return capacityBytes; }
    public long getFlushIntervalMillis() { return flushIntervalMillis; }
    public boolean isFsync() { return fsync; }

    /** Off: flushes, then takes no new entries (collections write through, snapshots are refused). */
    public void setEnabled(boolean on) {
        enabled = on;
        if (!on) {
            try {
                flush();
            } catch (FlushException e) {
                // reported; the failed entries stay and are retried by the next flush
            }
        }
    }

    public void setCapacity(int v) {
        capacity = BufferSettings.checkCapacity(v);
        maybeForceFlush();
    }

    public void setCapacityBytes(long v) {
        capacityBytes = BufferSettings.checkCapacityBytes(v);
        maybeForceFlush();
    }

    public void setFlushIntervalMillis(long v) {
        flushIntervalMillis = BufferSettings.checkInterval(v);
        timer.intervalChanged();
    }

    public void setFsync(boolean v) { fsync = v; }

    /** Stops the flusher thread, flushes everything and refuses new entries from now on. */
    @Override
    public void close() throws FlushException {
        timer.stop();
        closed = true;
        flush();
    }

    private void shutdown() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("[spool] buffer flush at shutdown failed: " + e.getMessage());
        }
    }
}
