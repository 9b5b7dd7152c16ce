package dev.spool.mbeans;

/**
 * {@code dev.spool:type=Sink,name="<file>"}: one background sink and its output.
 *
 * <p>Counters are monotonic until {@link #resetStatistics()}. The per-second rates are measured
 * over the sink's recent window (stated by the runtime's metrics: the last few seconds), not
 * since start. Writable attributes are validated: an invalid value throws
 * {@link IllegalArgumentException} and changes nothing.
 */
@Description("A Spool sink: events and log bytes written by a background thread in large batches")
public interface SinkMXBean {
    @Description("The file or stream this sink writes")
    String getPath();

    @Description("Events (records or stream writes) written to disk")
    long getEventsWritten();

    @Description("Bytes written to disk")
    long getBytesWritten();

    @Description("Events per second over the recent window")
    double getEventsPerSecond();

    @Description("Bytes per second over the recent window")
    double getBytesPerSecond();

    @Description("Events dropped because the buffers were full under policy drop")
    long getDropped();

    @Description("Payloads at or over the direct threshold written without a copy")
    long getDirectWrites();

    @Description("Records over the record limit split into parts")
    long getSplitRecords();

    @Description("Bytes accepted but not yet written")
    long getPendingBytes();

    @Description("Bytes emitted into the event file's journal not yet written to the file: what a kill now leaves for the next open to replay (0 without a journal)")
    long getJournalPendingBytes();

    @Description("Records (frames) the open of this file replayed from the journal a killed writer had left")
    long getRecoveredAtOpen();

    @Description("Write errors since start (the writer retries)")
    long getErrors();

    @Description("The last write error, or empty")
    String getLastError();

    @Description("Size of one sink buffer in bytes; applies to the next buffer allocated")
    int getBufferBytes();

    void setBufferBytes(int bytes);

    @Description("What producers do when every buffer is full: block, drop or sync; applies to the next full buffer")
    String getPolicy();

    void setPolicy(String policy);

    @Description("Throughput limit of the writer in bytes per second; 0 = none")
    long getMaxBytesPerSecond();

    void setMaxBytesPerSecond(long bytesPerSecond);

    @Description("Writes everything accepted so far to disk, waiting a bounded time; returns the bytes written by this call")
    long flush();

    @Description("Resets counters and rates to zero")
    void resetStatistics();
}
