package dev.spool.sink;

/** What a producer does when every sink buffer is full (`spool.sink.policy`). */
public enum SinkPolicy {
    /** Wait until the sink's writer frees a buffer (default). Nothing is lost. */
    BLOCK,
    /** Never wait for space: the record is dropped and counted in {@link SinkMetrics#dropped()}. */
    DROP,
    /** The caller's record is written through, after everything already queued, before it returns. */
    SYNC
}
