package dev.spool.buffer;

/**
 * Immutable settings of a {@link SharedBuffer}, built by a validating {@link Builder}.
 *
 * <pre>{@code
 * BufferSettings s = BufferSettings.builder().capacity(500).flushIntervalMillis(250).build();
 * }</pre>
 */
public final class BufferSettings {
    /** Dirty files held before the background flush starts ({@code spool.buffer.capacity}). */
    public static final int DEFAULT_CAPACITY = 10_000;
    /** The default memory bound is this fraction (1/8) of the JVM's maximum heap ({@link #defaultCapacityBytes}). */
    public static final int CAPACITY_BYTES_HEAP_DIVISOR = 8;
    /** The default memory bound is at least this (64 MiB), but never more than a quarter of the heap. */
    public static final long MIN_DEFAULT_CAPACITY_BYTES = 64L << 20;
    /**
     * The memory bound: estimated dirty bytes held at most ({@code spool.buffer.capacity.bytes}); the
     * background flush starts at half of it, and a writer waits (bounded) above it. Follows this
     * JVM's maximum heap: {@code defaultCapacityBytes(Runtime.getRuntime().maxMemory())}, e.g.
     * 768 MiB for a 6 GiB heap (the JVM's default heap on a 24 GiB machine), 64 MiB for
     * {@code -Xmx256m} or {@code -Xmx512m}, 32 MiB for {@code -Xmx128m}.
     */
    public static final long DEFAULT_CAPACITY_BYTES = defaultCapacityBytes(Runtime.getRuntime().maxMemory());
    /** Milliseconds between timed flushes; 0 = none ({@code spool.buffer.flush.interval}). */
    public static final long DEFAULT_FLUSH_INTERVAL_MILLIS = 1000;
    /** Whether each written file and its folder are fsync'd ({@code spool.buffer.fsync}). */
    public static final boolean DEFAULT_FSYNC = false;
    /** Threads writing the files of one flush ({@code spool.buffer.flush.threads}). */
    public static final int DEFAULT_FLUSH_THREADS = 2;
    /**
     * Whether this process promises to be the only writer of the files it buffers while it runs
     * ({@code spool.buffer.exclusive}): off by default.
     */
    public static final boolean DEFAULT_EXCLUSIVE = false;
    /**
     * Whether a new file is created by the flush rather than at the call
     * ({@code spool.buffer.create=flush}): off by default, so a new file exists when the call returns.
     */
    public static final boolean DEFAULT_CREATE_AT_FLUSH = false;
    /** The most flush threads a buffer takes. */
    public static final int MAX_FLUSH_THREADS = 64;

    private final int capacity;
    private final long capacityBytes;
    private final long flushIntervalMillis;
    private final boolean fsync;
    private final int flushThreads;
    private final boolean exclusive;
    private final boolean createAtFlush;

    private BufferSettings(Builder b) {
        this.capacity = b.capacity;
        this.capacityBytes = b.capacityBytes;
        this.flushIntervalMillis = b.flushIntervalMillis;
        this.fsync = b.fsync;
        this.flushThreads = b.flushThreads;
        this.exclusive = b.exclusive;
        this.createAtFlush = b.createAtFlush;
    }

    /**
     * Starts a builder whose values are the {@code DEFAULT_*} constants; each setter validates its
     * value at once.
     * @return a new builder (not thread-safe: use it on one thread)
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The settings every value of which is its {@code DEFAULT_*} constant: what
     * {@link SharedBuffer#global()} starts with.
     * @return the default settings
     */
    public static BufferSettings defaults() {
        return builder().build();
    }

    /**
     * The number of dirty files above which a write wakes the background flush at once.
     * @return at least 1
     */
    public int capacity() { return capacity; }

    /**
     * The memory bound, in estimated bytes of dirty content: above half of it a write wakes the
     * background flush, above all of it a write waits (bounded) for the flush to catch up.
     * @return at least 1
     */
    public long capacityBytes() { return capacityBytes; }

    /**
     * Milliseconds between timed flushes of the background flusher.
     * @return 0 (no timed flushes: only capacity, scope close and explicit flushes write) or positive
     */
    public long flushIntervalMillis() { return flushIntervalMillis; }

    /**
     * Whether each flushed file, and then its folder, is forced to the storage device
     * ({@code fsync}) before the write counts as done: survives a power loss, at the cost of one or
     * more device syncs per file.
     * @return true to fsync
     */
    public boolean fsync() { return fsync; }

    /**
     * Threads that write the files of one flush: the thread running the flush plus
     * {@code flushThreads - 1} helpers.
     * @return 1 to {@link #MAX_FLUSH_THREADS}
     */
    public int flushThreads() { return flushThreads; }

    /**
     * Whether this process is the only writer of the files it buffers while it runs. On: a put of
     * a file the buffer already stamped, and a served read, make no system call (no {@code lstat});
     * a change made to such a file by anyone else, or by the host's own direct write, is still
     * found by the flush's conflict check and kept (the disk keeps it, the buffered content goes to a
     * {@code .spool-conflict-*} file), but a read may serve the buffered content after it, and a
     * direct write followed by a buffered write ends as such a conflict instead of "the last write
     * wins". Off (the default): one {@code lstat} per put and per served read keeps both.
     * @return true when the process is the only writer
     */
    public boolean exclusive() { return exclusive; }

    /**
     * Whether a file that does not exist yet is created by the flush instead of at the call. Off
     * (the default): {@code putSnapshot} of a new file creates it before it returns (temp file, hard
     * link), so every read path and every process sees it at once. On: it is buffered like a
     * rewrite and created by the background flush (the same atomic, never-replacing create, on a
     * flush thread), so the caller only hands it in: for write-once workloads (result files
     * nobody reads back by another path before the flush). Until then other processes see no
     * file, as they see an existing file's previous content (under the agent this process's own
     * JDK reads, existence checks, listings and deletions create it first); a name someone else
     * takes meanwhile keeps its file and the buffered content goes beside it (a conflict); a
     * missing or unwritable folder is refused at the call (the caller's own write meets the
     * error); a create the disk refuses later (a full disk) fails at the flush, like a rewrite's.
     * @return true when new files are created by the flush
     */
    public boolean createAtFlush() { return createAtFlush; }

    /**
     * The default memory bound for a JVM whose maximum heap is {@code maxHeapBytes}: an eighth of
     * it, at least {@link #MIN_DEFAULT_CAPACITY_BYTES} but never more than a quarter of it. The
     * buffer's dirty content is live heap the host's collector must keep; an eighth of the heap stays
     * well below G1's default marking threshold (45 % occupancy) with the host's own data beside
     * it, while a working set of up to an eighth of the heap coalesces instead of waiting for the
     * disk (docs/BENCHMARKS.md, "Buffer grid": the curve).
     * @param maxHeapBytes the JVM's maximum heap ({@link Runtime#maxMemory()}); {@link Long#MAX_VALUE} when unbounded
     * @return the default {@code capacityBytes}, at least 1
     */
    public static long defaultCapacityBytes(long maxHeapBytes) {
        if (maxHeapBytes <= 0 || maxHeapBytes == Long.MAX_VALUE) return MIN_DEFAULT_CAPACITY_BYTES;
        long floor = Math.min(MIN_DEFAULT_CAPACITY_BYTES, maxHeapBytes / 4);
        return Math.max(1, Math.max(maxHeapBytes / CAPACITY_BYTES_HEAP_DIVISOR, floor));
    }

    static int checkCapacity(int v) {
        if (v < 1) throw new IllegalArgumentException("capacity must be at least 1, was " + v);
        return v;
    }

    static long checkCapacityBytes(long v) {
        if (v < 1) throw new IllegalArgumentException("capacityBytes must be at least 1, was " + v);
        return v;
    }

    static int checkFlushThreads(int v) {
        if (v < 1 || v > MAX_FLUSH_THREADS) {
            throw new IllegalArgumentException("flushThreads must be 1 to " + MAX_FLUSH_THREADS + ", was " + v);
        }
        return v;
    }

    static long checkInterval(long v) {
        if (v < 0) throw new IllegalArgumentException("flushIntervalMillis must be 0 (none) or positive, was " + v);
        return v;
    }

    @Override
    public String toString() {
        return "BufferSettings[capacity=" + capacity + ", capacityBytes=" + capacityBytes
                + ", flushIntervalMillis=" + flushIntervalMillis + ", fsync=" + fsync + ", flushThreads=" + flushThreads + ", exclusive=" + exclusive + ", createAtFlush=" + createAtFlush + "]";
    }

    /** Validating builder; every value starts at its {@code DEFAULT_*} constant. */
    public static final class Builder {
        private int capacity = DEFAULT_CAPACITY;
        private long capacityBytes = DEFAULT_CAPACITY_BYTES;
        private long flushIntervalMillis = DEFAULT_FLUSH_INTERVAL_MILLIS;
        private boolean fsync = DEFAULT_FSYNC;
        private int flushThreads = DEFAULT_FLUSH_THREADS;
        private boolean exclusive = DEFAULT_EXCLUSIVE;
        private boolean createAtFlush = DEFAULT_CREATE_AT_FLUSH;

        private Builder() {}

        /**
         * Sets {@link BufferSettings#capacity()}.
         * @param v dirty files held before the background flush starts; at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code v} is below 1
         */
        public Builder capacity(int v) { capacity = checkCapacity(v); return this; }

        /**
         * Sets {@link BufferSettings#capacityBytes()}.
         * @param v the memory bound in estimated bytes of dirty content; at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code v} is below 1
         */
        public Builder capacityBytes(long v) { capacityBytes = checkCapacityBytes(v); return this; }

        /**
         * Sets {@link BufferSettings#flushIntervalMillis()}.
         * @param v milliseconds between timed flushes; 0 for none
         * @return this builder
         * @throws IllegalArgumentException if {@code v} is negative
         */
        public Builder flushIntervalMillis(long v) { flushIntervalMillis = checkInterval(v); return this; }

        /**
         * Sets {@link BufferSettings#fsync()}.
         * @param v true to fsync each flushed file and its folder
         * @return this builder
         */
        public Builder fsync(boolean v) { fsync = v; return this; }

        /**
         * Sets {@link BufferSettings#flushThreads()}.
         * @param v threads writing one flush's files; 1 to {@link BufferSettings#MAX_FLUSH_THREADS}
         * @return this builder
         * @throws IllegalArgumentException if {@code v} is outside 1 to {@link BufferSettings#MAX_FLUSH_THREADS}
         */
        public Builder flushThreads(int v) { flushThreads = checkFlushThreads(v); return this; }

        /**
         * Sets {@link BufferSettings#exclusive()}.
         * @param v true when this process is the only writer of the files it buffers
         * @return this builder
         */
        public Builder exclusive(boolean v) { exclusive = v; return this; }

        /**
         * Sets {@link BufferSettings#createAtFlush()}.
         * @param v true to create new files at the flush instead of at the call
         * @return this builder
         */
        public Builder createAtFlush(boolean v) { createAtFlush = v; return this; }

        /**
         * Builds the settings; the builder may be used again afterwards.
         * @return immutable settings holding this builder's current values (all already validated)
         */
        public BufferSettings build() { return new BufferSettings(this); }
    }
}
