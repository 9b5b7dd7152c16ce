package dev.spool.internal.handoff;

/**
 * How a log turns one captured record into its output (formats it and writes the bytes). Called
 * by one thread at a time (the queue's drainer: a pool thread, or a thread that flushes),
 * in the order the records were offered.
 *
 * @param <R> the captured record type (immutable once offered, or owned by the queue from then on)
 */
public interface CapturedRecordEncoder<R> {

    /**
     * Formats and writes one record. An exception is counted by the queue
     * ({@link MpscCapturedRecordQueue#encodeErrors()}) and the next record is encoded: one bad
     * record never stops the log.
     */
    void encode(R record) throws Exception;
}
