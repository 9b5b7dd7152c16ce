package dev.spool.sink;

/**
 * The writer's side of a buffer's life after it was taken from the queue: the bounded wait for
 * its reservations to be committed, and its return to the free pool (recycled, or replaced by a
 * buffer of the live {@code BufferBytes}). Writer thread only.
 *
 * <p>Every wait here is bounded by {@code spool.sink.wait.millis}: a producer that died or
 * stalls inside {@code append} costs at most that long once, is recorded as an error, and its
 * buffer is retired (a fresh one takes its place) instead of recycled under it. A buffer that
 * cannot be allocated (e.g. {@code MaxDirectMemorySize}) never costs the pool a buffer: the old
 * one is kept and the failure recorded once per size.
 */
final class SinkRecycler {
    private final ByteSink sink;
    /** The last buffer size that could not be allocated: not tried again until the setting changes. */
    private int unallocatable;

    SinkRecycler(ByteSink sink) {
        this.sink = sink;
    }

    /** Waits until every reservation below the limit is committed; false when the bound ran out. */
    boolean awaitCommitted(SinkBuffer buf) {
        int idle = 0;
        long start = System.nanoTime();
        while (!buf.fullyCommitted()) {
            if (System.nanoTime() - start >= sink.waitNanos) {
                sink.recordError("write " + sink.name + ": a reservation was not committed within " + sink.waitMillis
                        + " ms (its producer died or stalls); the buffer is written as it is and retired");
                return false;
            }
            idle = Idle.step(idle);
        }
        return true;
    }

    /**
     * Returns a written buffer to the free pool once no producer can reach it: its sealer marked
     * it enqueued and it is no longer current. {@code reusable} false retires it.
     */
    void release(SinkBuffer buf, boolean reusable) {
        long start = System.nanoTime();
        int idle = 0;
        while (!buf.isEnqueued() && System.nanoTime() - start < sink.waitNanos) {
            idle = Idle.step(idle);              // the sealer marks it right after its offer
        }
        if (!buf.isEnqueued()) {
            buf.markEnqueued();                  // producers may move on; retired: its sealer may still mark it
            reusable = false;
            sink.recordError("write " + sink.name + ": a written buffer was not marked enqueued within " + sink.waitMillis
                    + " ms (its sealer died after its offer?); the buffer is retired");
        }
        idle = 0;
        BufferHandOff slots = sink.slots;
        BufferHandOff.Slot slot;
        while ((slot = slots.currentSlot()).buf == buf && !slots.tryReplace(slot)) {
            if (idle > Idle.SPINS) {
                SinkBuffer extra = allocate(buf.capacity);
                if (extra != null) {
                    slots.free.offer(extra);      // no free buffer to install: one more rather than wait
                }
            }
            idle = Idle.step(idle);              // a current buffer is never recycled under the producers
        }
        int wanted = sink.bufferBytes;
        SinkBuffer next = null;
        if (!reusable || buf.capacity != wanted) {
            next = allocate(wanted);
            if (next == null && !reusable) {
                next = allocate(buf.capacity);
            }
        }
        if (next == null) {
            buf.recycle();                       // keep the old buffer rather than lose one (even a retired one)
            next = buf;
        } else {
            slots.unregister(buf);
            if (reusable && sink.journal != null) {
                sink.journal.returnRegion(buf); // zeroed and empty: the writer wrote it whole
            }
        }
        slots.free.offer(next);
        BufferHandOff.Slot cur = slots.currentSlot();
        if (cur.buf.isEnqueued()) {
            slots.tryReplace(cur);                // nobody may be waiting to install (policy DROP)
        }
    }

    private SinkBuffer allocate(int capacity) {
        if (capacity == unallocatable) {
            return null;
        }
        try {
            return sink.slots.register(sink.slots.newBuffer(capacity));
        } catch (OutOfMemoryError | RuntimeException e) {
            unallocatable = capacity;
            sink.recordError("buffer of " + capacity + " bytes for " + sink.name
                    + " cannot be allocated; keeping the current buffers: " + e);
            return null;
        }
    }
}
