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
    public static final SinkType DEFAULT_TYPE = SinkType.FILE;
    public static final int DEFAULT_BUFFER_BYTES = 1 << 20;
    public static final int DEFAULT_BUFFERS = 4;
    public static final int DEFAULT_DIRECT_THRESHOLD = 65536;
    public static final int DEFAULT_RECORD_MAX = 16 << 20;
    public static final SinkPolicy DEFAULT_POLICY = SinkPolicy.BLOCK;
    public static final long DEFAULT_MAX_BYTES_PER_SECOND = 0;
    /**
     * {@code spool.sink.wait.millis}: the longest any thread waits inside the sink: a
     * {@code block} producer for a free buffer, a direct write or flush for the writer, close for
     * the writer to drain, the writer for a reservation to be committed. Past it the caller gets a
     * counted failure (an {@code IOException} through the stream of {@link SinkStreams}).
     */
    public static final long DEFAULT_WAIT_MILLIS = 10_000;
    public static final long MIN_WAIT_MILLIS = 1;
    public static final long MAX_WAIT_MILLIS = 3_600_000;

    /** Smallest accepted buffer: small enough for tests to force many rotations. */
    public static final int MIN_BUFFER_BYTES = 256;
    /** Largest accepted buffer (one direct ByteBuffer). */
    public static final int MAX_BUFFER_BYTES = 1 << 30;
    public static final int MIN_BUFFERS = 2;
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

    private SinkSettings(Builder b) {
        this.type = b.type;
        this.bufferBytes = b.bufferBytes;
        this.buffers = b.buffers;
        this.directThreshold = b.directThreshold;
        this.recordMax = b.recordMax;
        this.policy = b.policy;
        this.maxBytesPerSecond = b.maxBytesPerSecond;
        this.waitMillis = b.waitMillis;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The SPEC defaults. */
    public static SinkSettings defaults() {
        return DEFAULTS;
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder().type(type).bufferBytes(bufferBytes).buffers(buffers)
                .directThreshold(directThreshold).recordMax(recordMax).policy(policy)
                .maxBytesPerSecond(maxBytesPerSecond).waitMillis(waitMillis);
    }

    public SinkType type() { return type; }
    public int bufferBytes() { return bufferBytes; }
    public int buffers() { return buffers; }
    public int directThreshold() { return directThreshold; }
    public int recordMax() { return recordMax; }
    public SinkPolicy policy() { return policy; }
    public long maxBytesPerSecond() { return maxBytesPerSecond; }
    /** See {@link #DEFAULT_WAIT_MILLIS}. */
    public long waitMillis() { return waitMillis; }

    @Override
    public String toString() {
        return "SinkSettings{type=" + type + ", bufferBytes=" + bufferBytes + ", buffers=" + buffers
                + ", directThreshold=" + directThreshold + ", recordMax=" + recordMax
                + ", policy=" + policy + ", maxBytesPerSecond=" + maxBytesPerSecond + ", waitMillis=" + waitMillis + '}';
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

        private Builder() {
        }

        public Builder type(SinkType type) {
            this.type = Objects.requireNonNull(type, "spool.sink.type");
            return this;
        }

        public Builder bufferBytes(int bufferBytes) {
            this.bufferBytes = checkBufferBytes(bufferBytes);
            return this;
        }

        public Builder buffers(int buffers) {
            if (buffers < MIN_BUFFERS || buffers > MAX_BUFFERS) {
                throw bad("spool.sink.buffers", buffers, MIN_BUFFERS + ".." + MAX_BUFFERS);
            }
            this.buffers = buffers;
            return this;
        }

        public Builder directThreshold(int directThreshold) {
            if (directThreshold < 1) {
                throw bad("spool.sink.direct.threshold", directThreshold, "a positive number of bytes");
            }
            this.directThreshold = directThreshold;
            return this;
        }

        public Builder recordMax(int recordMax) {
            if (recordMax < MIN_RECORD_MAX) {
                throw bad("spool.sink.record.max", recordMax, "at least " + MIN_RECORD_MAX + " bytes");
            }
            this.recordMax = recordMax;
            return this;
        }

        public Builder policy(SinkPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "spool.sink.policy");
            return this;
        }

        public Builder maxBytesPerSecond(long maxBytesPerSecond) {
            this.maxBytesPerSecond = checkMaxBytesPerSecond(maxBytesPerSecond);
            return this;
        }

        /** {@code spool.sink.wait.millis}; see {@link #DEFAULT_WAIT_MILLIS}. */
        public Builder waitMillis(long waitMillis) {
            if (waitMillis < MIN_WAIT_MILLIS || waitMillis > MAX_WAIT_MILLIS) {
                throw bad("spool.sink.wait.millis", waitMillis, MIN_WAIT_MILLIS + ".." + MAX_WAIT_MILLIS);
            }
            this.waitMillis = waitMillis;
            return this;
        }

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
