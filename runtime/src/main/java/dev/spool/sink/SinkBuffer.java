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

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIMED = l.findVarHandle(SinkBuffer.class, "claimed", long.class);
            COMMITTED = l.findVarHandle(SinkBuffer.class, "committed", long.class);
            ENQUEUED = l.findVarHandle(SinkBuffer.class, "enqueued", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ByteBuffer data;
    final int capacity;
    @SuppressWarnings("unused") private long claimed;
    @SuppressWarnings("unused") private long committed;
    @SuppressWarnings("unused") private boolean enqueued;
    /** Bytes the writer writes; set by the sealer before the buffer is offered to the writer. */
    int limit;

    SinkBuffer(int capacity, boolean direct) {
        this.capacity = capacity;
        this.data = (direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity))
                .order(ByteOrder.LITTLE_ENDIAN);
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

    long claimedAcquire() {
        return (long) CLAIMED.getAcquire(this);
    }

    /** True when every reservation below {@link #limit} is committed. */
    boolean fullyCommitted() {
        return (((long) COMMITTED.getAcquire(this)) & BYTES_MASK) == limit;
    }

    /** Events committed; valid once {@link #fullyCommitted()}. */
    long committedEvents() {
        return ((long) COMMITTED.getAcquire(this)) >>> 40;
    }

    /** Bytes reserved so far, at most the capacity (for pending-bytes metrics). */
    long reservedBytes() {
        long c = claimedAcquire();
        return c >= CLOSED ? 0 : Math.min(c, capacity);
    }

    void markEnqueued() {
        ENQUEUED.setRelease(this, true);
    }

    boolean isEnqueued() {
        return (boolean) ENQUEUED.getAcquire(this);
    }

    /** Writer only, after the buffer was written: makes it free (every reservation fails). */
    void recycle() {
        COMMITTED.setRelease(this, 0L);
        ENQUEUED.setRelease(this, false);
        limit = 0;
        CLAIMED.setVolatile(this, CLOSED);
    }

    @Override
    public String toString() {
        return "SinkBuffer@" + Integer.toHexString(System.identityHashCode(this)) + "{claimed=" + claimedAcquire() + ", limit=" + limit + ", enq=" + isEnqueued() + ", committed=" + (long) COMMITTED.getAcquire(this) + "}";
    }

    /** Installer only, after it made this buffer current. */
    void open() {
        CLAIMED.setRelease(this, 0L);
    }
}
