package dev.spool.sink;

/**
 * Live view of one sink, read by the {@code dev.spool:type=Sink} MBean. Counters are cumulative
 * since open or the last {@link #resetStatistics()}; rates are over the last
 * {@value RecentRate#WINDOW_SECONDS} seconds. All methods are thread-safe and never throw; the
 * getters are racy snapshots (each exact for its own moment, not one consistent set). The setters
 * apply live, to the running sink.
 */
public interface SinkMetrics {
    /**
     * The file (or stream name) this sink writes.
     *
     * @return the path as given when the sink was opened
     */
    String path();

    /**
     * Records (or stream writes) handed to the back end. A split record counts once per part.
     *
     * @return the count since open or the last reset
     */
    long eventsWritten();

    /**
     * Bytes handed to the back end.
     *
     * @return the count since open or the last reset
     */
    long bytesWritten();

    /**
     * Records (or stream writes) handed to the back end per second, recently.
     *
     * @return the rate over the last {@value RecentRate#WINDOW_SECONDS} seconds
     */
    double eventsPerSecond();

    /**
     * Bytes handed to the back end per second, recently.
     *
     * @return the rate over the last {@value RecentRate#WINDOW_SECONDS} seconds
     */
    double bytesPerSecond();

    /**
     * Records refused under {@link SinkPolicy#DROP}, after close, or when a bounded wait ran out.
     *
     * @return the count since open or the last reset
     */
    long dropped();

    /**
     * Payloads written directly, without a copy into a sink buffer.
     *
     * @return the count since open or the last reset
     */
    long directWrites();

    /**
     * Records written as numbered parts.
     *
     * @return the count since open or the last reset
     */
    long splitRecords();

    /**
     * Bytes accepted but not yet handed to the back end.
     *
     * @return the bytes in sink buffers and queued direct writes now
     */
    long pendingBytes();

    /**
     * Bytes producers copied into the sink's journal (issue 33) that the writer has not written to
     * the file yet: what a kill of the process now would leave for the next open to replay.
     *
     * @return the bytes now; 0 without a journal ({@code spool.sink.journal=false}, not an event file, the journal failed)
     */
    default long journalPendingBytes() {
        return 0;
    }

    /**
     * Records (frames; a split record counts once per part) that the open of this sink's file
     * replayed from the journal a killed writer had left.
     *
     * @return the count, fixed at open
     */
    default long recoveredAtOpen() {
        return 0;
    }

    /**
     * I/O and encoding errors; the last one is {@link #lastError()}.
     *
     * @return the count since open or the last reset
     */
    long errors();

    /**
     * The last error, with its time.
     *
     * @return an ISO-8601 instant and a description, or {@code null} when there was none
     */
    String lastError();

    /**
     * {@code spool.sink.buffer.bytes} as it is now (it can be changed live).
     *
     * @return the size in bytes of buffers allocated from now on
     */
    int bufferBytes();

    /**
     * Applies to buffers allocated from now on (each buffer is resized when it is next recycled);
     * a size that cannot be allocated keeps the current buffers and records an error.
     *
     * @param bufferBytes the new size, {@link SinkSettings#MIN_BUFFER_BYTES} to {@link SinkSettings#MAX_BUFFER_BYTES}
     * @throws IllegalArgumentException if out of range (the message names key, value and range)
     */
    void setBufferBytes(int bufferBytes);

    /**
     * {@code spool.sink.policy} as it is now (it can be changed live).
     *
     * @return what a producer does when no buffer has room
     */
    SinkPolicy policy();

    /**
     * Changes what producers do when no buffer has room, from their next append on.
     *
     * @param policy the new policy
     * @throws NullPointerException if {@code policy} is null
     */
    void setPolicy(SinkPolicy policy);

    /**
     * {@code spool.sink.max.bytes.per.second} as it is now (it can be changed live).
     *
     * @return the writer's limit in bytes per second; {@code 0} for none
     */
    long maxBytesPerSecond();

    /**
     * Throttles the sink's writer from its next write on; {@code 0} removes the limit.
     *
     * @param maxBytesPerSecond the new limit in bytes per second, or {@code 0}
     * @throws IllegalArgumentException if negative (the message names key, value and range)
     */
    void setMaxBytesPerSecond(long maxBytesPerSecond);

    /**
     * Writes everything accepted so far, waiting at most {@code spool.sink.wait.millis}. Never
     * throws and does not tell whether it completed in time; a failed write shows in
     * {@link #errors()} and {@link #lastError()}.
     */
    void flush();

    /** Zeroes the counters and rates (not the pending data). */
    void resetStatistics();
}
