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
    /**
     * The memory bound: estimated dirty bytes held at most ({@code spool.buffer.capacity.bytes}); the
     * background flush starts at half of it, and a writer waits (bounded) above it.
     */
    public static final long DEFAULT_CAPACITY_BYTES = 64L << 20;
    /** Milliseconds between timed flushes; 0 = none ({@code spool.buffer.flush.interval}). */
    public static final long DEFAULT_FLUSH_INTERVAL_MILLIS = 1000;
    /** Whether each written file and its folder are fsync'd ({@code spool.buffer.fsync}). */
    public static final boolean DEFAULT_FSYNC = false;
    /** Threads writing the files of one flush ({@code spool.buffer.flush.threads}). */
    public static final int DEFAULT_FLUSH_THREADS = 2;
    /** The most flush threads a buffer takes. */
    public static final int MAX_FLUSH_THREADS = 64;

    private final int capacity;
    private final long capacityBytes;
    private final long flushIntervalMillis;
    private final boolean fsync;
    private final int flushThreads;

    private BufferSettings(Builder b) {
        this.capacity = b.capacity;
        this.capacityBytes = b.capacityBytes;
        this.flushIntervalMillis = b.flushIntervalMillis;
        this.fsync = b.fsync;
        this.flushThreads = b.flushThreads;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static BufferSettings defaults() {
        return builder().build();
    }

    public int capacity() { return capacity; }
    public long capacityBytes() { return capacityBytes; }
    public long flushIntervalMillis() { return flushIntervalMillis; }
    public boolean fsync() { return fsync; }
    public int flushThreads() { return flushThreads; }

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
                + ", flushIntervalMillis=" + flushIntervalMillis + ", fsync=" + fsync + ", flushThreads=" + flushThreads + "]";
    }

    /** Validating builder; every value starts at its {@code DEFAULT_*} constant. */
    public static final class Builder {
        private int capacity = DEFAULT_CAPACITY;
        private long capacityBytes = DEFAULT_CAPACITY_BYTES;
        private long flushIntervalMillis = DEFAULT_FLUSH_INTERVAL_MILLIS;
        private boolean fsync = DEFAULT_FSYNC;
        private int flushThreads = DEFAULT_FLUSH_THREADS;

        private Builder() {}

        public Builder capacity(int v) { capacity = checkCapacity(v); return this; }
        public Builder capacityBytes(long v) { capacityBytes = checkCapacityBytes(v); return this; }
        public Builder flushIntervalMillis(long v) { flushIntervalMillis = checkInterval(v); return this; }
        public Builder fsync(boolean v) { fsync = v; return this; }
        public Builder flushThreads(int v) { flushThreads = checkFlushThreads(v); return this; }
        public BufferSettings build() { return new BufferSettings(this); }
    }
}
