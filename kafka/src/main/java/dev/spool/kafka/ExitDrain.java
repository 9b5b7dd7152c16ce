package dev.spool.kafka;

import dev.spool.events.EventTail;

/**
 * When a live shipper's exit drain ({@link FileShipper#drainBy}) stops before its deadline because
 * waiting longer cannot help. The host's threads may still append while it drains (the event file
 * is flushed, not closed), so the drain never treats the file as final: a frame cut by the current
 * end is a frame still being written, never damage. It stops early when
 * <ul>
 *   <li><b>quiet</b>: with a producer ready, nothing is in flight and neither the file's size, the
 *       read position nor the acknowledged ordinal moved for {@link #QUIET_NANOS} (longer than {@link EventTail#SETTLE_NANOS},
 *       so damage in the middle is skipped first): what is left is a frame no one completes (a torn
 *       end), left in the file for the next start or {@code ship} (never skipped, never shipped
 *       under a guessed ordinal);</li>
 *   <li><b>hopeless</b>: a producer exists, no record was acknowledged for {@link #NO_PROGRESS_NANOS}
 *       since the drain began (or the producer was created, or the last acknowledgement) and the producer
 *       has no connection to any broker: a
 *       broker that was never reachable, or is gone, does not hold the host's exit for the whole
 *       {@code spool.kafka.close.timeout}.</li>
 * </ul>
 *
 * <p>Threads: {@link #begin} by the thread that starts the drain, {@link #producerStarted} and
 * {@link #quiet} by the shipper thread, {@link #hopeless} by any thread (the exit hook's while the shipper thread is
 * blocked in the producer); the fields they share are volatile.
 */
final class ExitDrain {
    static final long QUIET_NANOS = EventTail.SETTLE_NANOS + 1_500_000_000L;
    static final long NO_PROGRESS_NANOS = 3_000_000_000L;

    private volatile long beganNanos;
    private volatile long firstProducerNanos;
    // shipper thread only
    private long size = -1;
    private long offset = -1;
    private long acked = -1;
    private long movedNanos;

    void begin() {
        long now = System.nanoTime();
        movedNanos = now;
        beganNanos = now;
    }

    /** Shipper thread: a producer was created (the first one counts: from then on a broker could have answered). */
    void producerStarted() {
        if (firstProducerNanos == 0) {
            firstProducerNanos = System.nanoTime();
        }
    }

    /**
     * Shipper thread: the state it sees now; true when the drain has been quiet for {@link #QUIET_NANOS}.
     * @param busy records in flight, or no producer yet: time that does not count as quiet
     */
    boolean quiet(long fileSize, long readOffset, long ackedOrdinal, boolean busy) {
        long now = System.nanoTime();
        if (movedNanos == 0) {
            movedNanos = now;
        }
        if (busy || fileSize != size || readOffset != offset || ackedOrdinal != acked) {
            size = fileSize;
            offset = readOffset;
            acked = ackedOrdinal;
            movedNanos = now;
            return false;
        }
        return now - movedNanos >= QUIET_NANOS;
    }

    /**
     * Any thread: true when, with a producer trying, records have not moved for
     * {@link #NO_PROGRESS_NANOS} and no broker is connected.
     */
    boolean hopeless(ShipperStatus status) {
        long began = beganNanos;
        long producer = firstProducerNanos;
        if (began == 0 || producer == 0) {
            return false; // not draining, or nothing has tried to reach a broker yet (the file is being opened)
        }
        long since = Math.max(Math.max(began, producer), status.lastAckNanos());
        return System.nanoTime() - since >= NO_PROGRESS_NANOS && !status.isConnected();
    }
}
