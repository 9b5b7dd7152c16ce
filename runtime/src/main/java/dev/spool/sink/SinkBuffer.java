package dev.spool.sink;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One fixed-size buffer of the claim/commit protocol (see the package documentation for the
 * ordering rules). Thread-safe for any number of producers and one writer.
 *
 * <p>Invariants: a reservation succeeds only while {@code claimed + n <= capacity}; exactly one
 * reservation (the sealer's) starts at or below capacity and ends beyond it; once sealed, every
 * reservation fails until the writer recycles the buffer; {@code committed} (low 40 bits) reaches
 * {@code limit} exactly when every successful reservation below it has been committed.
 */
final class SinkBuffer {
    /** A buffer that is free or not yet opened: every reservation fails. */
    static final long CLOSED = 1L << 62;
    /** Returned by {@link #reserve} when the buffer is full and the caller sealed it. */
    static final long SEALED_BY_ME = -1;
    /** Returned by {@link #reserve} when the buffer is full and someone else sealed it. */
    static final long FULL = -2;

    private static final long BYTES_MASK = (1L << 40) - 1;
    private static final long ONE_EVENT = 1L << 40;
    private static final VarHandle CLAIMED;
    private static final VarHandle COMMITTED;
    private static final VarHandle ENQUEUED;
    private static final VarHandle HANDING;
    /** Failed copies remembered per buffer; more are written as they are (and counted as errors). */
    static final int MAX_HOLES = 16;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIMED = l.findVarHandle(SinkBuffer.class, "claimed", long.class);
            COMMITTED = l.findVarHandle(SinkBuffer.class, "committed", long.class);
            ENQUEUED = l.findVarHandle(SinkBuffer.class, "enqueued", boolean.class);
            HANDING = l.findVarHandle(SinkBuffer.class, "handing", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ByteBuffer data;
    final int capacity;
    @SuppressWarnings("unused") private long claimed;
    @SuppressWarnings("unused") private long committed;
    @SuppressWarnings("unused") private boolean enqueued;
    @SuppressWarnings("unused") private boolean handing;
    /** Bytes the writer writes; set by the sealer before the buffer is offered to the writer. */
    int limit;
    /**
     * Reservations whose copy failed ({@code offset << 32 | length}), written (under the array's
     * monitor, with no method call: a producer near its stack limit must get through) by the
     * failed producer before its commit, so visible to the writer once it sees the buffer fully
     * committed. {@code holeCount} may exceed {@link #MAX_HOLES}: those are not recorded.
     */
    final long[] holes = new long[MAX_HOLES];
    int holeCount;
    /**
     * Bytes and units of the holes: a producer whose copy failed does not call {@link #commit}
     * (the call could fail again, and a failure inside it would leave unknown whether the add
     * happened); it counts the reservation here, under the {@link #holes} monitor, with no call.
     */
    int deferredBytes;
    int deferredUnits;
    /**
     * Writer only (read racily for the pending-bytes metric): this use of the buffer was written.
     * A second offer of the same use (from the stalled sealer of a rescued buffer) is skipped by
     * it; a rescued buffer is retired, never recycled, so the flag stays set.
     */
    boolean written;
    /** Writer only: rescued from a sealer that may still be alive; retired after writing, never recycled. */
    boolean retire;

    /** The journal region backing {@link #data} ({@link SinkJournal}), or -1 for memory of its own. */
    final int region;
    /**
     * The use of {@link #region} this installation is (set by the installer before {@link #open},
     * whose release publishes it; read by the writer after taking the buffer from its queue).
     */
    long journalSeq;

    SinkBuffer(int capacity, boolean direct) {
        this.capacity = capacity;
        this.data = (direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity))
                .order(ByteOrder.LITTLE_ENDIAN);
        this.region = -1;
        this.claimed = CLOSED;
    }

    /** A buffer over {@code mapped}, region {@code region} of a {@link SinkJournal}. */
    SinkBuffer(ByteBuffer mapped, int region) {
        this.capacity = mapped.capacity();
        this.data = mapped.order(ByteOrder.LITTLE_ENDIAN);
        this.region = region;
        this.claimed = CLOSED;
    }

    /**
     * Reserves {@code n > 0} bytes: returns the offset, {@link #SEALED_BY_ME} (the caller must
     * hand the buffer to the writer) or {@link #FULL}.
     */
    long reserve(int n) {
        long old = (long) CLAIMED.getAndAdd(this, (long) n);
        if (old + n <= capacity) {
            return old;
        }
        if (old <= capacity) {
            limit = (int) old;
            return SEALED_BY_ME;
        }
        return FULL;
    }

    /** Seals the buffer regardless of free space; true when the caller sealed it. */
    boolean seal() {
        long old = (long) CLAIMED.getAndAdd(this, (long) capacity + 1);
        if (old <= capacity) {
            limit = (int) old;
            return true;
        }
        return false;
    }

    /** Completes a reservation of {@code n} bytes (one event). */
    void commit(int n) {
        COMMITTED.getAndAdd(this, ONE_EVENT + n);
    }

    /** Writer only, once fully committed: the failed ranges, sorted by offset. */
    long[] holes() {
        long[] h;
        synchronized (holes) {
            h = java.util.Arrays.copyOf(holes, Math.min(MAX_HOLES, holeCount));
        }
        java.util.Arrays.sort(h);
        return h;
    }

    /** Writer only: holes marked beyond {@link #MAX_HOLES}, written as they are. */
    int holesOverflowed() {
        synchronized (holes) {
            return Math.max(0, holeCount - MAX_HOLES);
        }
    }

    long claimedAcquire() {
        return (long) CLAIMED.getAcquire(this);
    }

    /** True when every reservation below {@link #limit} is committed. */
    boolean fullyCommitted() {
        long c = ((long) COMMITTED.getAcquire(this)) & BYTES_MASK;
        if (c == limit) {
            return true;
        }
        synchronized (holes) {
            return c + deferredBytes == limit;
        }
    }

    /** Events committed (and deferred); valid once {@link #fullyCommitted()}. */
    long committedEvents() {
        synchronized (holes) {
            return (((long) COMMITTED.getAcquire(this)) >>> 40) + deferredUnits;
        }
    }

    /** Bytes reserved so far, at most the capacity (for pending-bytes metrics). */
    long reservedBytes() {
        long c = claimedAcquire();
        return c >= CLOSED ? 0 : Math.min(c, capacity);
    }

    /** Bytes reserved and not yet written (a metric: racy reads of the writer's fields). */
    long pendingBytes() {
        long c = claimedAcquire();
        if (c >= CLOSED) {
            return 0;
        }
        if (c <= capacity) {
            return c;
        }
        int l = limit;
        return written ? 0 : l > 0 ? l : capacity;
    }

    /**
     * Claims the hand-off of a sealed buffer: normally its sealer, or the writer rescuing a buffer
     * whose sealer died before handing it off. Exactly one caller gets true per use of the buffer.
     */
    boolean claimHandOff() {
        return HANDING.compareAndSet(this, false, true);
    }

    void markEnqueued() {
        ENQUEUED.setRelease(this, true);
    }

    boolean isEnqueued() {
        return (boolean) ENQUEUED.getAcquire(this);
    }

    /** Sealed (by a reservation or a seal) and not yet marked enqueued. */
    boolean sealedNotEnqueued() {
        long c = claimedAcquire();
        return c > capacity && c < CLOSED && !isEnqueued();
    }

    /** Writer only, after the buffer was written: makes it free (every reservation fails). */
    void recycle() {
        COMMITTED.setRelease(this, 0L);
        ENQUEUED.setRelease(this, false);
        synchronized (holes) {
            holeCount = 0;
            deferredBytes = 0;
            deferredUnits = 0;
        }
        HANDING.setRelease(this, false);
        limit = 0;
        written = false;
        retire = false;
        CLAIMED.setVolatile(this, CLOSED);
    }

    @Override
    public String toString() {
        return "SinkBuffer{claimed=" + claimedAcquire() + ", limit=" + limit + ", enqueued=" + isEnqueued()
                + ", committed=" + (long) COMMITTED.getAcquire(this) + "}";
    }

    /** Installer only, after it made this buffer current. */
    void open() {
        CLAIMED.setRelease(this, 0L);
    }
}
