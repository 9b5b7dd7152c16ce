package dev.spool.sink;

import java.util.Objects;

/**
 * Immutable settings of one sink; build with {@link #builder()}. Defaults are those of SPEC
 * ({@code spool.sink.*}). Every setter of the builder validates its value and throws
 * {@link IllegalArgumentException} naming the key, the value and what is accepted.
 *
 * <pre>{@code
 * SinkSettings s = SinkSettings.builder().type(SinkType.MMAP).bufferBytes(4 << 20).build();
 * }</pre>
 */
public final class SinkSettings {
    /** {@code spool.sink.type}: the back end, {@link SinkType#FILE} (a {@code FileChannel}). */
    public static final SinkType DEFAULT_TYPE = SinkType.FILE;
    /** {@code spool.sink.buffer.bytes}: the size of one sink buffer, 1 MiB. */
    public static final int DEFAULT_BUFFER_BYTES = 1 << 20;
    /** {@code spool.sink.buffers}: producers fill one buffer while the writer drains the others. */
    public static final int DEFAULT_BUFFERS = 4;
    /** {@code spool.sink.direct.threshold}: a payload at least this large (64 KiB) is written directly, not copied. */
    public static final int DEFAULT_DIRECT_THRESHOLD = 65536;
    /** {@code spool.sink.record.max}: a record larger than this (16 MiB) is split into numbered parts. */
    public static final int DEFAULT_RECORD_MAX = 16 << 20;
    /** {@code spool.sink.policy}: producers wait (bounded) for a free buffer. */
    public static final SinkPolicy DEFAULT_POLICY = SinkPolicy.BLOCK;
    /** {@code spool.sink.max.bytes.per.second}: {@code 0}, no throughput limit on the writer. */
    public static final long DEFAULT_MAX_BYTES_PER_SECOND = 0;
    /**
     * {@code spool.sink.wait.millis}: the longest any thread waits inside the sink: a
     * {@code block} producer for a free buffer, a direct write or flush for the writer, close for
     * the writer to drain, the writer for a reservation to be committed. Past it the caller gets a
     * counted failure (an {@code IOException} through the stream of {@link SinkStreams}).
     */
    public static final long DEFAULT_WAIT_MILLIS = 10_000;
    /** {@code spool.sink.journal}: acknowledged events survive a SIGKILL (issue 33). */
    public static final boolean DEFAULT_JOURNAL = true;
    /** The shortest accepted {@code spool.sink.wait.millis}. */
    public static final long MIN_WAIT_MILLIS = 1;
    /** The longest accepted {@code spool.sink.wait.millis}: one hour. */
    public static final long MAX_WAIT_MILLIS = 3_600_000;

    /** Smallest accepted buffer: small enough for tests to force many rotations. */
    public static final int MIN_BUFFER_BYTES = 256;
    /** Largest accepted buffer (one direct ByteBuffer). */
    public static final int MAX_BUFFER_BYTES = 1 << 30;
    /** The fewest accepted {@code spool.sink.buffers}: one to fill while the writer drains the other. */
    public static final int MIN_BUFFERS = 2;
    /** The most accepted {@code spool.sink.buffers}. */
    public static final int MAX_BUFFERS = 1024;
    /** Smallest part of a split record. */
    public static final int MIN_RECORD_MAX = 16;

    private static final SinkSettings DEFAULTS = builder().build();

    private final SinkType type;
    private final int bufferBytes;
    private final int buffers;
    private final int directThreshold;
    private final int recordMax;
    private final SinkPolicy policy;
    private final long maxBytesPerSecond;
    private final long waitMillis;
    private final boolean journal;

    private SinkSettings(Builder b) {
        this.type = b.type;
        this.bufferBytes = b.bufferBytes;
        this.buffers = b.buffers;
        this.directThreshold = b.directThreshold;
        this.recordMax = b.recordMax;
        this.policy = b.policy;
        this.maxBytesPerSecond = b.maxBytesPerSecond;
        this.waitMillis = b.waitMillis;
        this.journal = b.journal;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder; not thread-safe, use it on one thread
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The SPEC defaults (the {@code DEFAULT_*} constants).
     *
     * @return the shared default settings
     */
    public static SinkSettings defaults() {
        return DEFAULTS;
    }

    /**
     * A builder starting from these settings, to change some of them.
     *
     * @return a new builder holding these settings
     */
    public Builder toBuilder() {
        return new Builder().type(type).bufferBytes(bufferBytes).buffers(buffers)
                .directThreshold(directThreshold).recordMax(recordMax).policy(policy)
                .maxBytesPerSecond(maxBytesPerSecond).waitMillis(waitMillis).journal(journal);
    }

    /**
     * {@code spool.sink.type}.
     *
     * @return the back end: a {@code FileChannel} or a memory-mapped file
     */
    public SinkType type() { return type; }

    /**
     * {@code spool.sink.buffer.bytes}.
     *
     * @return the size of one sink buffer in bytes, {@link #MIN_BUFFER_BYTES} to {@link #MAX_BUFFER_BYTES}
     */
    public int bufferBytes() { return bufferBytes; }

    /**
     * {@code spool.sink.buffers}.
     *
     * @return how many buffers the sink allocates, {@link #MIN_BUFFERS} to {@link #MAX_BUFFERS}
     */
    public int buffers() { return buffers; }

    /**
     * {@code spool.sink.direct.threshold}.
     *
     * @return the payload size in bytes from which a record is written directly instead of copied
     */
    public int directThreshold() { return directThreshold; }

    /**
     * {@code spool.sink.record.max}.
     *
     * @return the largest record in bytes written as one frame; larger ones are split into parts
     */
    public int recordMax() { return recordMax; }

    /**
     * {@code spool.sink.policy}.
     *
     * @return what a producer does when no buffer has room
     */
    public SinkPolicy policy() { return policy; }

    /**
     * {@code spool.sink.max.bytes.per.second}.
     *
     * @return the writer's throughput limit in bytes per second; {@code 0} for none
     */
    public long maxBytesPerSecond() { return maxBytesPerSecond; }

    /**
     * {@code spool.sink.wait.millis}; see {@link #DEFAULT_WAIT_MILLIS}.
     *
     * @return the longest any thread waits inside the sink, in milliseconds
     */
    public long waitMillis() { return waitMillis; }

    /**
     * {@code spool.sink.journal}: an event file's sink keeps its buffers in a mapped journal beside
     * the file ({@link SinkJournal}), so acknowledged events survive a kill of the process.
     *
     * @return whether the sink of an event file ({@code file} or {@code mmap} back end) journals its buffers
     */
    public boolean journal() { return journal; }

    /**
     * All settings, for logs and diagnostics.
     *
     * @return {@code SinkSettings{type=..., bufferBytes=..., ...}}
     */
    @Override
    public String toString() {
        return "SinkSettings{type=" + type + ", bufferBytes=" + bufferBytes + ", buffers=" + buffers
                + ", directThreshold=" + directThreshold + ", recordMax=" + recordMax
                + ", policy=" + policy + ", maxBytesPerSecond=" + maxBytesPerSecond + ", waitMillis=" + waitMillis + ", journal=" + journal + '}';
    }

    /** Validating builder; unset values keep their defaults. */
    public static final class Builder {
        private SinkType type = DEFAULT_TYPE;
        private int bufferBytes = DEFAULT_BUFFER_BYTES;
        private int buffers = DEFAULT_BUFFERS;
        private int directThreshold = DEFAULT_DIRECT_THRESHOLD;
        private int recordMax = DEFAULT_RECORD_MAX;
        private SinkPolicy policy = DEFAULT_POLICY;
        private long maxBytesPerSecond = DEFAULT_MAX_BYTES_PER_SECOND;
        private long waitMillis = DEFAULT_WAIT_MILLIS;
        private boolean journal = DEFAULT_JOURNAL;

        private Builder() {
        }

        /**
         * Sets {@code spool.sink.type}.
         *
         * @param type the back end
         * @return this builder
         * @throws NullPointerException if {@code type} is null
         */
        public Builder type(SinkType type) {
            this.type = Objects.requireNonNull(type, "spool.sink.type");
            return this;
        }

        /**
         * Sets {@code spool.sink.buffer.bytes}.
         *
         * @param bufferBytes the size of one buffer in bytes, {@link SinkSettings#MIN_BUFFER_BYTES} to {@link SinkSettings#MAX_BUFFER_BYTES}
         * @return this builder
         * @throws IllegalArgumentException if out of range (the message names key, value and range)
         */
        public Builder bufferBytes(int bufferBytes) {
            this.bufferBytes = checkBufferBytes(bufferBytes);
            return this;
        }

        /**
         * Sets {@code spool.sink.buffers}.
         *
         * @param buffers how many buffers, {@link SinkSettings#MIN_BUFFERS} to {@link SinkSettings#MAX_BUFFERS}
         * @return this builder
         * @throws IllegalArgumentException if out of range (the message names key, value and range)
         */
        public Builder buffers(int buffers) {
            if (buffers < MIN_BUFFERS || buffers > MAX_BUFFERS) {
                throw bad("spool.sink.buffers", buffers, MIN_BUFFERS + ".." + MAX_BUFFERS);
            }
            this.buffers = buffers;
            return this;
        }

        /**
         * Sets {@code spool.sink.direct.threshold}.
         *
         * @param directThreshold the payload size in bytes from which a record skips the copy; at least 1
         * @return this builder
         * @throws IllegalArgumentException if not positive (the message names key, value and range)
         */
        public Builder directThreshold(int directThreshold) {
            if (directThreshold < 1) {
                throw bad("spool.sink.direct.threshold", directThreshold, "a positive number of bytes");
            }
            this.directThreshold = directThreshold;
            return this;
        }

        /**
         * Sets {@code spool.sink.record.max}.
         *
         * @param recordMax the largest record in bytes written as one frame; at least {@link SinkSettings#MIN_RECORD_MAX}
         * @return this builder
         * @throws IllegalArgumentException if smaller (the message names key, value and range)
         */
        public Builder recordMax(int recordMax) {
            if (recordMax < MIN_RECORD_MAX) {
                throw bad("spool.sink.record.max", recordMax, "at least " + MIN_RECORD_MAX + " bytes");
            }
            this.recordMax = recordMax;
            return this;
        }

        /**
         * Sets {@code spool.sink.policy}.
         *
         * @param policy what a producer does when no buffer has room
         * @return this builder
         * @throws NullPointerException if {@code policy} is null
         */
        public Builder policy(SinkPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "spool.sink.policy");
            return this;
        }

        /**
         * Sets {@code spool.sink.max.bytes.per.second}.
         *
         * @param maxBytesPerSecond the writer's limit in bytes per second; {@code 0} for none
         * @return this builder
         * @throws IllegalArgumentException if negative (the message names key, value and range)
         */
        public Builder maxBytesPerSecond(long maxBytesPerSecond) {
            this.maxBytesPerSecond = checkMaxBytesPerSecond(maxBytesPerSecond);
            return this;
        }

        /**
         * Sets {@code spool.sink.wait.millis}; see {@link SinkSettings#DEFAULT_WAIT_MILLIS}.
         *
         * @param waitMillis the longest wait inside the sink, {@link SinkSettings#MIN_WAIT_MILLIS} to {@link SinkSettings#MAX_WAIT_MILLIS}
         * @return this builder
         * @throws IllegalArgumentException if out of range (the message names key, value and range)
         */
        public Builder waitMillis(long waitMillis) {
            if (waitMillis < MIN_WAIT_MILLIS || waitMillis > MAX_WAIT_MILLIS) {
                throw bad("spool.sink.wait.millis", waitMillis, MIN_WAIT_MILLIS + ".." + MAX_WAIT_MILLIS);
            }
            this.waitMillis = waitMillis;
            return this;
        }

        /**
         * {@code spool.sink.journal}; see {@link SinkSettings#journal()}.
         *
         * @param journal whether an event file's sink journals its buffers (either back end)
         * @return this builder
         */
        public Builder journal(boolean journal) {
            this.journal = journal;
            return this;
        }

        /**
         * The settings as set (every value was validated when set).
         *
         * @return new immutable settings
         */
        public SinkSettings build() {
            return new SinkSettings(this);
        }
    }

    static int checkBufferBytes(int bufferBytes) {
        if (bufferBytes < MIN_BUFFER_BYTES || bufferBytes > MAX_BUFFER_BYTES) {
            throw bad("spool.sink.buffer.bytes", bufferBytes, MIN_BUFFER_BYTES + ".." + MAX_BUFFER_BYTES);
        }
        return bufferBytes;
    }

    static long checkMaxBytesPerSecond(long value) {
        if (value < 0) {
            throw bad("spool.sink.max.bytes.per.second", value, "0 (no limit) or a positive number");
        }
        return value;
    }

    private static IllegalArgumentException bad(String key, long value, String accepted) {
        return new IllegalArgumentException(key + "=" + value + " is not accepted; expected " + accepted);
    }
}
