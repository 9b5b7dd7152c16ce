package dev.spool.agent.journal;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * How a caller stores into a log journal's ring that is full ({@link MappedLogJournal#FULL}: the
 * sink is more than a ring behind): it makes room the way a synchronous handler would wait for its
 * own write (writes what was captured before and waits for the sink, bounded by the sink's wait),
 * then stores again, a few times. A try that frees nothing (the sink failed or is stuck, or a frame
 * never done holds the trim) stops the room-making of every caller of the journal for
 * {@link #BACKOFF_NANOS}: meanwhile they store once each and, still full, go without the journal
 * (counted by the caller), so a stuck sink costs no wait per record.
 *
 * <p>Thread-safe: the back-off instant is a racy hint (a volatile, no lock). Example:
 * <pre>{@code
 * long at = journal.append(bytes, n); // the common case: no lambda made, nothing allocated
 * if (at == MappedLogJournal.FULL) {
 *     at = room.afterFull(() -> journal.append(bytes, n), () -> drainAndAwaitSink(), journal, RingRoom.ATTEMPTS);
 * }
 * }</pre>
 */
public final class RingRoom {
    /** How often a caller that finds the ring full makes room before it gives up on the journal. */
    public static final int ATTEMPTS = 3;
    /** After a try that freed nothing, how long callers store without making room. */
    public static final long BACKOFF_NANOS = 1_000_000_000L;

    /** {@link System#nanoTime} before which a full ring is not made room in again. */
    private volatile long againAt = Long.MIN_VALUE;

    /**
     * After a store found the ring {@link MappedLogJournal#FULL}: at most {@code attempts} times, {@code makeRoom}
     * (false: the sink did not finish in time), then {@code store} again; its last result (a frame's offset, or a
     * negative refusal). Called only when full, so the caller's common path makes no lambda.
     */
    public long afterFull(LongSupplier store, BooleanSupplier makeRoom, MappedLogJournal journal, int attempts) {
        long at = MappedLogJournal.FULL;
        for (int attempt = 0; at == MappedLogJournal.FULL && attempt < attempts && System.nanoTime() >= againAt; attempt++) {
            long trimmedBefore = journal.trimmed();
            if (!makeRoom.getAsBoolean() || journal.trimmed() == trimmedBefore) {
                againAt = System.nanoTime() + BACKOFF_NANOS; // nothing left the ring: no more waits for a while
                attempt = attempts;
            }
            at = store.getAsLong(); // encoded again where the store encodes: making room may have used the caller's scratch
        }
        return at;
    }
}
