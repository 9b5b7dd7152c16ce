package dev.spool.sink;

/**
 * Live view of one sink, read by the {@code dev.spool:type=Sink} MBean. Counters are cumulative
 * since open or the last {@link #resetStatistics()}; rates are over the last
 * {@value RecentRate#WINDOW_SECONDS} seconds. All methods are thread-safe and never throw.
 */
public interface SinkMetrics {
    /** The file (or stream name) this sink writes. */
    String path();

    /** Records (or stream writes) handed to the back end. A split record counts once per part. */
    long eventsWritten();

    /** Bytes handed to the back end. */
    long bytesWritten();

    double eventsPerSecond();

    double bytesPerSecond();

    /** Records refused under {@link SinkPolicy#DROP} or after close. */
    long dropped();

    /** Payloads written directly, without a copy into a sink buffer. */
    long directWrites();

    /** Records written as numbered parts. */
    long splitRecords();

    /** Bytes accepted but not yet handed to the back end. */
    long pendingBytes();

    /** I/O and encoding errors; the last one is {@link #lastError()}. */
    long errors();

    /** The last error, with its time, or {@code null}. */
    String lastError();

    int bufferBytes();

    /** Applies to buffers allocated from now on (each buffer is resized when it is next recycled). */
    void setBufferBytes(int bufferBytes);

    SinkPolicy policy();

    void setPolicy(SinkPolicy policy);

    long maxBytesPerSecond();

    /** Throttles the writer thread from its next write on; {@code 0} removes the limit. */
    void setMaxBytesPerSecond(long maxBytesPerSecond);

    /** Writes everything accepted so far, waiting a bounded time. */
    void flush();

    /** Zeroes the counters and rates (not the pending data). */
    void resetStatistics();
}
