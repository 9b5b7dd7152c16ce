package dev.spool.buffer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The shared in-memory write-behind buffer: at most one entry per real path, written to disk at
 * flush with an atomic replace.
 *
 * <p><b>Entries.</b> A <em>live</em> entry holds the one tree of plain JSON types that every
 * {@code SyncedMap}/{@code SyncedList} bound to the file shares while a scope is open
 * ({@link #openScope()}). A <em>snapshot</em> entry holds the {@link SnapshotContent} handed in by
 * {@link #putSnapshot}: encoded bytes, or the agent's capture of a Jackson write that encodes itself
 * at the flush; a later snapshot replaces it. Both go through the same flush, capacity and
 * conflict rules.
 *
 * <p><b>Guarantees.</b> Thread-safe for any number of threads on the same and on different files.
 * A lookup of a buffered file is a {@link java.util.concurrent.ConcurrentHashMap} read and then the entry's own monitor;
 * no global lock is taken by reads or writes. A file on disk is at every instant its previous or
 * its new complete content ({@link AtomicFiles}). A snapshot ends like the host's own write of the
 * whole file: a new file is created at the call, a write the host's own code would fail or end
 * differently is refused ({@link ReplaceRefusal}), and the last write wins (each put re-bases on
 * the disk). A file whose content changed on disk since it was loaded (a live entry) or since the
 * last put (a snapshot) is never overwritten: the content goes to {@code <name>.spool-conflict-<millis>}, is counted,
 * notified and reported, and the entry re-bases on the file's current content. A failed write
 * keeps the content buffered for the next flush; until one succeeds {@link #putSnapshot} and
 * {@link #readBuffered} for that file throw. Nothing is ever dropped: a refused snapshot returns
 * false and the caller writes itself.
 *
 * <p><b>Flushing and blocking.</b> Flushes run off the writers' threads, on the
 * {@link BackgroundFlusher}: every {@code flushIntervalMillis}, and at once when a write takes the
 * buffer over {@code capacity} dirty files or over half of {@code capacityBytes} (estimated content
 * plus {@link #ENTRY_BYTES} per dirty file).
 * A flush writes the dirty files on {@code flushThreads} threads. A write blocks while its own file
 * is being written; and a write that finds the buffer over {@code capacityBytes} (the hard memory
 * bound: the flusher could not keep up) waits for the flusher to bring it back under, bounded
 * ({@link Backpressure}), counted in {@link BufferMetrics#backpressureWaits()} and announced to the
 * listeners. A flusher thread never waits there.
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
    /**
     * Heap a dirty file holds beside its content (entry, stamp, map node, path key), counted in
     * {@code capacityBytes}: measured 309-345 bytes on a 64-bit JVM with compressed pointers
     * ({@code EntryOverheadRun} in bench, docs/BENCHMARKS.md "Buffer grid"), rounded up.
     */
    static final long ENTRY_BYTES = 352;

    private final AtomicInteger scopeDepth = new AtomicInteger();
    private final Counters counters = new Counters();
    private final FolderSweeps sweeps = new FolderSweeps();
    private final EntryTable table = new EntryTable(counters, scopeDepth, sweeps);
    private final Listeners listeners = new Listeners(counters);
    private final Backpressure backpressure = new Backpressure(counters);
    private final FlushWorkers workers = new FlushWorkers();
    private final BackgroundFlusher flusher;
    private final FlushPasses passes;
    private final CapacityGate gate;
    private final SnapshotEntries snapshots;
    private final LiveEntries live;
    private final HostFileOps hostFiles;
    private volatile boolean enabled = true;
    private volatile boolean closed;
    private volatile int capacity;
    private volatile long capacityBytes;
    private volatile long flushIntervalMillis;
    private volatile boolean fsync;
    private volatile int flushThreads;
    private volatile boolean exclusive;
    private volatile boolean createAtFlush;

    private SharedBuffer(BufferSettings s) {
        capacity = s.capacity();
        capacityBytes = s.capacityBytes();
        flushIntervalMillis = s.flushIntervalMillis();
        fsync = s.fsync();
        flushThreads = s.flushThreads();
        exclusive = s.exclusive();
        createAtFlush = s.createAtFlush();
        EntryWriter writer = new EntryWriter(counters);
        flusher = new BackgroundFlusher(this);
        passes = new FlushPasses(this, counters, table, writer, listeners, backpressure, workers, sweeps);
        gate = new CapacityGate(this, counters, backpressure, listeners, flusher, passes);
        snapshots = new SnapshotEntries(this, table, writer, listeners, gate);
        live = new LiveEntries(this, table, writer, listeners, gate);
        hostFiles = new HostFileOps(this, table, writer, listeners, snapshots);
        snapshots.hostFiles(hostFiles);
        flusher.start();
    }

    /**
     * A new, independent buffer: its own entries, counters and flusher thread
     * ({@code spool-buffer-flusher}, a daemon, started before this returns). No shutdown hook is
     * registered for it: {@link #close()} it when done, which flushes it. Do not buffer one file in
     * two buffers: each would take the other's writes for changes made by someone else
     * (conflicts).
     * @param settings the values to start with; each can be changed live later by its setter
     * @return the new buffer, flushing on its interval
     * @throws NullPointerException if {@code settings} is null
     */
    public static SharedBuffer create(BufferSettings settings) {
        return new SharedBuffer(Objects.requireNonNull(settings, "settings"));
    }

    /**
     * The process-wide buffer that {@code SyncedMap}, {@code SyncedList}, {@code Spool.buffered()}
     * and the agent share. Created at the first call with {@link BufferSettings#defaults()} (the
     * agent then applies its configuration through {@link #configureGlobal}); a JVM shutdown hook
     * ({@code spool-buffer-shutdown}) closes it at exit, which flushes it and saves whatever still
     * cannot be written to the recovery folder. Any thread; the first call starts the flusher
     * thread under a class-wide lock, later calls are one volatile read. Closing it is final for
     * the process: buffering then stops and every write goes straight to disk.
     * @return the global buffer, never null
     */
    public static SharedBuffer global() {
        return GlobalBuffer.get();
    }

    /**
     * Applies every value of {@code s} to the global buffer (created if needed), live, through the
     * setters: capacity, memory bound, fsync, flush threads, then the interval; each takes effect
     * as its setter says; {@link BufferSettings#exclusive()} from the next put or read on. Not atomic as a whole: a flush running meanwhile may see some new values
     * and some old. Any thread; never waits for a flush.
     * @param s the settings to apply
     * @throws NullPointerException if {@code s} is null
     */
    public static void configureGlobal(BufferSettings s) {
        SharedBuffer g = global();
        g.setCapacity(s.capacity());
        g.setCapacityBytes(s.capacityBytes());
        g.setFsync(s.fsync());
        g.setFlushThreads(s.flushThreads());
        g.exclusive = s.exclusive();
        g.createAtFlush = s.createAtFlush();
        g.setFlushIntervalMillis(s.flushIntervalMillis());
    }

    // ---------------------------------------------------------------- snapshot entries

    /**
     * Takes {@code content} (copied) as the next content of {@code file}, the whole file: it
     * supersedes any older buffered content and whatever was on disk, as the host's own write would.
     * A file that does not exist yet is created at once, atomically, with this content, before this
     * returns (so every other read path sees it); an existing file is written at the next flush.
     * Once the buffer is closed the content is written at once too.
     *
     * <p>Returns false when the buffer refuses: disabled, the content alone exceeds
     * {@code capacityBytes}, the file cannot be examined, or the host's own write would end
     * differently or fail at the call ({@link ReplaceRefusal}). The caller then writes the file
     * itself and meets the real result and error; the refusal already dropped any older buffered
     * content of the file, so nothing older is served or flushed over the caller's write.
     * A new file that cannot be created is refused too (nothing is kept), so the host's own write
     * meets the real error.
     *
     * <p>Any thread. Holds only this file's entry monitor, so it waits while a flush is writing
     * this same file (one file write). On the caller's thread it may: create a new file (a temp
     * file and a rename, plus the syncs when {@code fsync} is on); write the file through once the
     * buffer is closed; and, when the buffer holds more than {@code capacityBytes}, wait for the
     * background flush to catch up, at most 2 seconds (counted and announced through
     * {@link BufferListener#backpressure}).
     * <p><b>Internal.</b> One of Spool's own entry points (used by the agent's Jackson hooks), not
     * meant for applications: use {@code SyncedMap}, {@code SyncedList} or {@code Spool.buffered()}.
     * @param file the file to write, by any path that names it (resolved to its real path)
     * @param content the whole new content; copied before this returns, so the caller may reuse the array
     * @return true when the buffer took the content (a new file is then already on disk); false
     *         when it refused, and the caller must write the file itself
     * @throws IOException when an earlier flush of this file failed (its data is kept for retry),
     *         or the write-through of a closed buffer failed
     * @throws NullPointerException if {@code file} or {@code content} is null
     */
    public boolean putSnapshot(Path file, byte[] content) throws IOException {
        Objects.requireNonNull(content, "content");
        return putSnapshot(file, SnapshotContent.ofBytes(content.clone()));
    }

    /**
     * As {@link #putSnapshot(Path, byte[])} with content that may encode itself later: a capture
     * is encoded at the flush, on the flushing thread (or at the call, on the caller's thread, once
     * the buffer holds more than half of {@code capacityBytes}: it then holds only its text), and only the last one put since the file's
     * last flush ever is (a new file's is encoded at once: it is written through). {@code capacityBytes}
     * counts its {@link SnapshotContent#heapBytes()} until then. A content whose {@code encode()}
     * fails makes that flush fail (the next call on the file throws, as for any failed flush).
     * Threading and blocking as {@link #putSnapshot(Path, byte[])}.
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by the agent's Jackson hooks), not
     * meant for applications: use {@code SyncedMap}, {@code SyncedList} or {@code Spool.buffered()}.
     * @param file the file to write, by any path that names it (resolved to its real path)
     * @param content the whole new content, held as given (not copied: immutable, see
     *        {@link SnapshotContent})
     * @return true when the buffer took the content (a new file is then already on disk); false
     *         when it refused, and the caller must write the file itself
     * @throws IOException when an earlier flush of this file failed (its data is kept for retry),
     *         or the write-through of a closed buffer failed
     * @throws NullPointerException if {@code file} or {@code content} is null
     */
    public boolean putSnapshot(Path file, SnapshotContent content) throws IOException {
        Objects.requireNonNull(content, "content");
        return snapshots.put(file, content);
    }

    /**
     * The caller writes {@code file} itself, now, outside the buffer (a refused or unrouted write):
     * drops any buffered content of it, so reads no longer see it and no flush writes it over the
     * caller's. Cheap when the file is not buffered (one map lookup after resolving the path).
     * Any thread; writes nothing; holds only this file's entry monitor, so it waits while a flush
     * is writing this same file. A failure kept for retry is dropped too: the caller's write
     * replaces that content.
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by the agent's Jackson hooks), not
     * meant for applications: use {@code SyncedMap}, {@code SyncedList} or {@code Spool.buffered()}.
     * @param file the file the caller is about to write, by any path that names it
     * @throws java.io.UncheckedIOException when the file's real path cannot be resolved (e.g. a
     *         folder on the path cannot be read)
     */
    public void supersede(Path file) {
        snapshots.supersede(RealPaths.of(file));
    }

    /**
     * The buffered content of {@code file} (a copy, encoded), or null if it is not buffered, or
     * if the file changed on disk since the last buffered write (that direct write is the later
     * one: the caller reads the disk, as it would without Spool). Any thread. Looks at the file's
     * attributes on disk for a snapshot entry; holds only this file's entry monitor (waits while a
     * flush is writing this file); a capture not encoded yet is encoded on the caller's thread.
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by the agent's Jackson hooks), not
     * meant for applications: use {@code SyncedMap}, {@code SyncedList} or {@code Spool.buffered()}.
     * @param file the file to read, by any path that names it
     * @return a new array the caller owns, or null when the caller should read the disk
     * @throws IOException when an earlier flush of this file failed (its data is kept for retry),
     *         the file's attributes cannot be read, or a captured content cannot be encoded
     * @throws java.io.UncheckedIOException when the file's real path cannot be resolved
     */
    public byte[] readBuffered(Path file) throws IOException {
        SnapshotContent c = readBufferedContent(file);
        return c == null ? null : c.encode().clone();
    }

    /**
     * The buffered content of {@code file} as it is held (a capture is not encoded by this call;
     * a live tree is encoded), or null if it is not buffered or changed on disk since the last
     * buffered write, as for {@link #readBuffered}. Counts one read. Any thread; blocking as
     * {@link #readBuffered}, except that a capture is not encoded here.
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by the agent's Jackson hooks), not
     * meant for applications: use {@code SyncedMap}, {@code SyncedList} or {@code Spool.buffered()}.
     * @param file the file to read, by any path that names it
     * @return the content as held (shared: the caller must not modify what it encodes to), or null
     *         when the caller should read the disk
     * @throws IOException when an earlier flush of this file failed (its data is kept for retry),
     *         or the file's attributes cannot be read
     * @throws java.io.UncheckedIOException when the file's real path cannot be resolved
     */
    public SnapshotContent readBufferedContent(Path file) throws IOException {
        return snapshots.read(file);
    }

    /**
     * Writes {@code file}'s buffered snapshot to disk now, on the caller's thread, if it has unwritten
     * content (a flush of this one file: the same conflict check and atomic write). Afterwards the
     * disk holds what a read of the file should see, so the caller may read the file itself: the
     * agent does so when a read served from the buffer fails, so that the host's own read meets the
     * error with the file as its source, exactly as without Spool. Any thread; holds only this
     * file's entry monitor (waits while a flush is writing the file; never takes the flush lock).
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by the agent's Jackson hooks), not
     * meant for applications: use {@code SyncedMap}, {@code SyncedList} or {@code Spool.buffered()}.
     * @param file the file, by any path that names it
     * @return false when the write failed (the content is kept for retry and the next read or write
     *         of the file throws, as after any failed flush), else true (written, nothing to write,
     *         or a conflict: the disk keeps someone else's later write)
     * @throws java.io.UncheckedIOException when the file's real path cannot be resolved
     */
    public boolean writeNow(Path file) {
        return snapshots.writeNow(file);
    }

    /**
     * Temp files of crashed Spool processes ({@code .<name>.spool-tmp-*}, see {@link StaleTemps})
     * this buffer removed since it started: each folder it holds a file of is swept once, before
     * its first flush in this process.
     * @return the count, monotonic
     */
    public long staleTempFilesRemoved() {
        return sweeps.removed();
    }

    /**
     * What the host's own file operations on buffered files (reads and writes by other paths,
     * deletions, moves, copies) do first, so each ends as without Spool ({@link HostFileOps}).
     *
     * <p><b>Internal.</b> Used by the agent's woven JDK file operations, not meant for applications.
     * @return this buffer's host-file hooks
     */
    public HostFileOps hostFiles() {
        return hostFiles;
    }

    // ---------------------------------------------------------------- live entries (dev.spool.collections)

    /**
     * Applies {@code read} to the live tree of the slot's file (a real path, see {@link RealPaths})
     * under the entry's monitor, loading the file if it is not buffered. With no scope open the
     * entry is transient: loaded for this call and dropped after it (unless it holds unwritten data).
     * Counts one read while a scope is open.
     *
     * <p>Any thread. {@code read} runs on the caller's thread while it holds the entry's monitor:
     * other reads and writes of the file, and a flush writing it, wait for it (and it for them).
     * Loading a file that is not buffered reads and parses the whole file on the caller's thread.
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by {@code SyncedMap} and
     * {@code SyncedList}), not meant for applications: use those collections.
     * @param <T> what {@code read} returns
     * @param slot the file's slot ({@link #liveSlot(Path)}) in this buffer
     * @param kind the top-level JSON type expected: {@link JsonKind#MAP} or {@link JsonKind#LIST}
     * @param read reads the tree (plain {@code Map}/{@code List}/{@code String}/{@code Number}/
     *        {@code Boolean}/null values); must not modify it nor keep a reference past the call
     * @return what {@code read} returned
     * @throws CorruptFileException if the file must be loaded and cannot be parsed
     * @throws java.io.UncheckedIOException if the file must be loaded and cannot be read
     * @throws IllegalStateException if the file's top level is not of {@code kind}
     */
    public <T> T liveRead(LiveSlot slot, JsonKind kind, Function<Object, T> read) {
        return liveRead(slot, kind, read, SharedBuffer::applyTo);
    }

    /**
     * As {@link #liveRead(LiveSlot, JsonKind, Function)}, passing {@code arg} to {@code read}: lets a
     * caller use one non-capturing function and so allocate nothing per read. Threading, blocking
     * and failures as there.
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by {@code SyncedMap} and
     * {@code SyncedList}), not meant for applications: use those collections.
     * @param <A> the type of {@code arg}
     * @param <T> what {@code read} returns
     * @param slot the file's slot ({@link #liveSlot(Path)}) in this buffer
     * @param kind the top-level JSON type expected: {@link JsonKind#MAP} or {@link JsonKind#LIST}
     * @param arg passed to {@code read} as its second argument
     * @param read reads the tree; must not modify it nor keep a reference past the call
     * @return what {@code read} returned
     * @throws CorruptFileException if the file must be loaded and cannot be parsed
     * @throws java.io.UncheckedIOException if the file must be loaded and cannot be read
     * @throws IllegalStateException if the file's top level is not of {@code kind}
     */
    public <A, T> T liveRead(LiveSlot slot, JsonKind kind, A arg, BiFunction<Object, A, T> read) {
        return live.read(own(slot), kind, arg, read);
    }

    private static <T> T applyTo(Object root, Function<Object, T> fn) {
        return fn.apply(root);
    }

    /**
     * Applies {@code write} to the live tree of the slot's file under the entry's monitor and marks
     * the file dirty, adding the growth it reports to the byte estimate. While a
     * scope is open that is all (no I/O). With no scope open the file is written at once
     * (write-through) before this returns.
     *
     * <p>Any thread. {@code write} runs on the caller's thread while it holds the entry's monitor,
     * as in {@link #liveRead(LiveSlot, JsonKind, Function)}; the write-through also happens under it.
     * After a buffered write, outside the monitor, a buffer over {@code capacityBytes} makes the
     * caller wait for the background flush, at most 2 seconds (see {@link BufferListener#backpressure}).
     *
     * <p><b>Internal.</b> One of Spool's own entry points (used by {@code SyncedMap} and
     * {@code SyncedList}), not meant for applications: use those collections.
     * @param <T> what {@code write} returns
     * @param slot the file's slot ({@link #liveSlot(Path)}) in this buffer
     * @param kind the top-level JSON type expected: {@link JsonKind#MAP} or {@link JsonKind#LIST}
     * @param write changes the tree in place (plain JSON values only) and reports its growth in
     *        bytes; must not keep a reference to the tree past the call
     * @return what {@code write} returned
     * @throws java.io.UncheckedIOException when that write-through fails (a change that was only this
     *         call's is then discarded; earlier buffered changes stay for retry), or the file must
     *         be loaded and cannot be read
     * @throws CorruptFileException if the file must be loaded and cannot be parsed
     * @throws IllegalStateException if the file's top level is not of {@code kind}
     */
    public <T> T liveWrite(LiveSlot slot, JsonKind kind, LiveChange<T> write) {
        return live.write(own(slot), kind, write);
    }

    /**
     * The way into this buffer's entry for {@code realFile} that {@link #liveRead} and
     * {@link #liveWrite} take: one per opened file, shared by all its views (it remembers the
     * entry, so a call on a buffered file needs no map lookup). Any thread; allocates one object.
     *
     * <p><b>Internal.</b> Used by {@code SyncedMap} and {@code SyncedList}, not meant for applications.
     * @param realFile the file's real path ({@link RealPaths#of(Path)}): used as the key as it is
     * @return a new slot bound to this buffer and {@code realFile}
     */
    public LiveSlot liveSlot(Path realFile) {
        return new LiveSlot(this, java.util.Objects.requireNonNull(realFile, "realFile"));
    }

    private LiveSlot own(LiveSlot slot) {
        if (slot.buffer != this) throw new IllegalArgumentException("the slot of " + slot.real + " belongs to another buffer");
        return slot;
    }

    // ---------------------------------------------------------------- scopes

    /**
     * Opens a buffering scope: until it is closed, writes through {@code SyncedMap} and
     * {@code SyncedList} stay in memory instead of writing their file each time. The count of open
     * scopes is per buffer, not per thread: a scope opened on one thread buffers every thread's
     * writes. Scopes nest; the close of the outermost one flushes on the closing thread. Any
     * thread; never blocks.
     * @return the scope; close it (try-with-resources)
     */
    public BufferScope openScope() {
        scopeDepth.incrementAndGet();
        return new BufferScope(this);
    }

    void closeScope() {
        if (scopeDepth.decrementAndGet() == 0) flush();
    }

    /**
     * Whether writes to collections are being buffered now: the buffer is enabled, not closed, and
     * a scope is open. A momentary answer: another thread may open or close a scope right after.
     * @return true while collection writes stay in memory; false while they write through
     */
    public boolean isBuffering() {
        return scopeDepth.get() > 0 && enabled && !closed;
    }

    /**
     * The number of scopes open now, across all threads.
     * @return 0 or more
     */
    public int scopeDepth() {
        return scopeDepth.get();
    }

    // ---------------------------------------------------------------- flushing

    /**
     * Writes every dirty file now. Conflicts are written beside their file and reported, not
     * thrown. Any thread; blocks until done, as {@link #flushWithReport()} describes (it waits for
     * a flush already running, then writes on this thread and the flush helpers).
     * @return the number of files written to their own path (conflicts not counted)
     * @throws FlushException listing every file that could not be written, with its content (kept
     *         buffered for the next flush)
     */
    public int flush() throws FlushException {
        return flushWithReport().filesWritten();
    }

    /**
     * Like {@link #flush()}, returning what was written and which files conflicted. Runs on the
     * calling thread (with up to {@code flushThreads - 1} helper threads) and returns when every
     * dirty file was handled; one flush at a time per buffer, so a call first waits for a flush
     * already running (the background one included) to end. How long that takes depends on the
     * disk and the amount of dirty content, not bounded by Spool: call it where the application
     * would write its files itself, not on a latency-critical thread.
     * @return the files written, the conflicts and the duration
     * @throws FlushException listing every file that could not be written, with its content (kept
     *         buffered for the next flush)
     */
    public FlushReport flushWithReport() throws FlushException {
        return passes.flushWithReport();
    }

    /** On the flusher thread: the interval elapsed. */
    void timedFlush() {
        passes.timed();
    }

    /** On the flusher thread: woken for new files ({@code createAtFlush}); creates the queued ones. */
    void createFlush() {
        passes.creates();
    }

    /** After a put buffered the new file of {@code e} to be created by the flush: the flusher creates it soon. */
    void createSoon(Entry e) {
        passes.queueCreate(e);
        flusher.wakeCreates();
    }

    /** On the flusher thread: woken over capacity; flushes until under it or a pass writes nothing. */
    void capacityFlush() {
        passes.untilUnder(gate::overCapacity);
    }

    /** Estimated dirty content now, read without taking any entry's monitor (tests). */
    long dirtyBytesNow() {
        return counters.dirtyBytes.get();
    }

    /** Entries held now, stamps of written files included (tests). */
    long entriesHeld() {
        return table.size();
    }

    /** {@link CapacityGate#roomForIdleStamps}. */
    boolean roomForIdleStamps(long entries) {
        return gate.roomForIdleStamps(entries);
    }

    /** Over the point where the flusher starts ({@link CapacityGate#overCapacity()}). */
    boolean overCapacity() {
        return gate.overCapacity();
    }

    /** Whether {@link #close()} has begun: snapshots are written through from then on. */
    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- settings, metrics, lifecycle

    /**
     * Point-in-time counters; sums per-entry counts, so it costs O(entries). Any thread. Takes each
     * entry's monitor in turn, so it waits while a flush is writing one of them; the sums are not
     * one atomic snapshot while writes go on.
     * @return the counters now
     */
    public BufferMetrics metrics() {
        return table.metrics();
    }

    private final CallEncodings callEncodings = new CallEncodings();

    /**
     * Counts a write its caller encoded at the call, because a capture (encoded at the flush) was not
     * proven to give the same bytes, by {@code reason}. Any thread; never blocks.
     * <p><b>Internal.</b> Used by the agent's Jackson hooks.
     * @param reason why the write was not captured (a short constant)
     */
    public void countEncodedAtCall(String reason) {
        callEncodings.count(reason);
    }

    /**
     * Writes encoded at the call since start, by reason ({@link #countEncodedAtCall}).
     * @return a new map, sorted by reason
     */
    public java.util.Map<String, Long> encodedAtCallByReason() {
        return callEncodings.snapshot();
    }

    /**
     * Adds a listener. Listeners are called on the flushing thread (see {@link BufferListener} for
     * which threads), never while an entry is locked; an exception one throws is ignored. Any
     * thread; takes effect for the next notification. Adding one twice calls it twice.
     * @param l the listener
     * @throws NullPointerException if {@code l} is null
     */
    public void addListener(BufferListener l) { listeners.add(Objects.requireNonNull(l, "listener")); }

    /**
     * Removes one registration of {@code l}; nothing happens if it was not added. A notification
     * already under way may still reach it. Any thread.
     * @param l the listener to remove
     */
    public void removeListener(BufferListener l) { listeners.remove(l); }

    /**
     * Whether the buffer takes new content (see {@link #setEnabled}).
     * @return true when enabled (the default)
     */
    public boolean isEnabled() { return enabled; }

    /**
     * The dirty-file count above which a write wakes the background flush ({@link BufferSettings#capacity()}).
     * @return at least 1
     */
    public int getCapacity() { return capacity; }

    /**
     * The memory bound in estimated dirty bytes ({@link BufferSettings#capacityBytes()}).
     * @return at least 1
     */
    public long getCapacityBytes() { return capacityBytes; }

    /**
     * Milliseconds between timed flushes ({@link BufferSettings#flushIntervalMillis()}).
     * @return 0 (none) or positive
     */
    public long getFlushIntervalMillis() { return flushIntervalMillis; }

    /**
     * Whether flushed files and their folders are fsync'd ({@link BufferSettings#fsync()}).
     * @return true to fsync
     */
    public boolean isFsync() { return fsync; }

    /**
     * Threads that write the files of one flush ({@link BufferSettings#flushThreads()}).
     * @return 1 to {@link BufferSettings#MAX_FLUSH_THREADS}
     */
    public int getFlushThreads() { return flushThreads; }

    /**
     * Whether this process is the only writer of the files it buffers ({@link BufferSettings#exclusive()}):
     * then a put of a stamped file and a served read make no system call. Set at start (or by
     * {@link #configureGlobal}), not live: it is a promise about the process's surroundings.
     * @return true when exclusive
     */
    public boolean isExclusive() { return exclusive; }

    /**
     * Whether a new file is created by the flush instead of at the call ({@link BufferSettings#createAtFlush()}).
     * Set at start (or by {@link #configureGlobal}), not live.
     * @return true when new files are created by the flush
     */
    public boolean isCreateAtFlush() { return createAtFlush; }

    /**
     * Turns buffering on or off, live (the kill switch). Off: takes no new entries from now on
     * (collections write through, snapshots are refused so their callers write themselves), then
     * flushes what is buffered on the calling thread, which blocks as {@link #flush()} does; a
     * file that fails stays buffered for the next flush (reported to the listeners, not thrown).
     * On: takes effect for the next write, never blocks. Any thread.
     * @param on true to buffer, false to stop buffering and flush
     */
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

    /**
     * Sets the dirty-file count above which a write wakes the background flush. Takes effect for
     * the next decision; over the new value the flusher starts at once. Any thread; never waits
     * for a flush.
     * @param v dirty files; at least 1
     * @throws IllegalArgumentException if {@code v} is below 1 (the value in force is kept)
     */
    public void setCapacity(int v) {
        capacity = BufferSettings.checkCapacity(v);
        gate.settingsChanged();
    }

    /**
     * Sets the memory bound: estimated dirty bytes above half of which a write wakes the
     * background flush, and above all of which a write waits for it (bounded). Takes effect for
     * the next decision; over half the new value the flusher starts at once. Any thread; never
     * waits for a flush.
     * @param v bytes; at least 1
     * @throws IllegalArgumentException if {@code v} is below 1 (the value in force is kept)
     */
    public void setCapacityBytes(long v) {
        capacityBytes = BufferSettings.checkCapacityBytes(v);
        gate.settingsChanged();
    }

    /**
     * Threads that write the files of one flush (the flushing thread plus helpers); from the next
     * flush on. Any thread; never blocks.
     * @param v threads; 1 to {@link BufferSettings#MAX_FLUSH_THREADS}
     * @throws IllegalArgumentException if {@code v} is out of range (the value in force is kept)
     */
    public void setFlushThreads(int v) {
        flushThreads = BufferSettings.checkFlushThreads(v);
    }

    /**
     * Sets the time between timed flushes. The flusher's current wait restarts with the new value
     * (a flush already running finishes first). Any thread; never waits for a flush.
     * @param v milliseconds; 0 for no timed flushes (only capacity, scope close and explicit
     *        flushes write)
     * @throws IllegalArgumentException if {@code v} is negative (the value in force is kept)
     */
    public void setFlushIntervalMillis(long v) {
        flushIntervalMillis = BufferSettings.checkInterval(v);
        flusher.intervalChanged();
    }

    /**
     * Whether each flushed file, and then its folder, is forced to the storage device before its
     * write counts as done. From the next flush or write-through on. Any thread; never blocks.
     * @param v true to fsync
     */
    public void setFsync(boolean v) { fsync = v; }

    /**
     * Stops the flusher thread and flushes everything, on the calling thread (blocking as
     * {@link #flush()} does). Final: from then on nothing is buffered any more, snapshots are
     * written at once on their caller's thread and collections write through; a writer waiting at
     * the memory bound goes on at once. Calling it again only flushes again.
     * @throws FlushException listing every file that could not be written, with its content (kept
     *         in memory; the global buffer's shutdown hook saves it to the recovery folder)
     */
    @Override
    public void close() throws FlushException {
        flusher.stop();
        closed = true;
        backpressure.passEnded(); // a writer waiting at the memory bound goes on (it writes through now)
        try {
            flush();
        } finally {
            workers.shutdown();
        }
    }
}
