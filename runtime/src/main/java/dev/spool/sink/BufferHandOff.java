package dev.spool.sink;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Which buffer of a {@link ByteSink} is current, and how a sealed buffer reaches the writer: the
 * current {@link Slot} (replaced only by compare-and-set), the pool of free buffers, the hand-off
 * of a sealed buffer to the writer's queue and the writer's rescue of one whose sealer died.
 * Thread-safe; the methods marked "writer only" run by the sink's writer, on whichever thread
 * runs its turn (or, after it ended, under {@link ByteSink#throughLock}). Ordering rules: see the
 * package documentation.
 *
 * <p><b>Dying sealers.</b> A producer may die (e.g. {@code StackOverflowError}) at any point after
 * its reservation sealed the buffer: before it claims the hand-off, after the claim and before
 * its offer, inside the offer, or before it marks the buffer enqueued. The writer watches the
 * current buffer: sealed and not marked enqueued for {@code spool.sink.wait.millis} (half of it
 * while closing, so close writes it within its own bound), it enqueues
 * the buffer itself (its queue is empty then, so order is kept) and marks it, whether or not the
 * sealer had claimed the hand-off. The sealer may only have stalled, and could still offer or mark
 * the buffer later: so a rescued buffer is retired after writing, never reused, and the writer
 * skips a second offer of a buffer it has written ({@link SinkBuffer#written}). A buffer is marked
 * enqueued only after its offer returned, so a failed offer can never make producers move past a
 * buffer the writer will not see. The writer's queue and the free pool are linked queues whose
 * offer is one compare-and-set of a whole node: a producer dying inside one has offered or not.
 *
 * <pre>{@code
 * Slot s = handOff.currentSlot();   // producer: reserve in s.buf; on SEALED_BY_ME:
 * handOff.handOff(s.buf);           // offer to the writer, then mark enqueued
 * handOff.tryReplace(s);            // install a free buffer (any producer may)
 * }</pre>
 */
final class BufferHandOff {
    /** Current once the sink is closing: its buffer (capacity 0, never opened) refuses every reservation. */
    static final Slot CLOSED_SLOT = new Slot(new SinkBuffer(0, false));
    private static final VarHandle CURRENT;

    static {
        try {
            CURRENT = MethodHandles.lookup().findVarHandle(BufferHandOff.class, "current", Slot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * One installation of a buffer as current. A new slot per installation makes the
     * compare-and-set of {@link #tryReplace} immune to ABA: a buffer recycled and installed again
     * gets a new slot, so a producer holding the old one can never replace the new installation.
     */
    static final class Slot {
        final SinkBuffer buf;

        Slot(SinkBuffer buf) {
            this.buf = buf;
        }
    }

    private final ByteSink sink;
    /** Free buffers (see the package documentation for why a linked queue). */
    final ConcurrentLinkedQueue<SinkBuffer> free = new ConcurrentLinkedQueue<>();
    @SuppressWarnings("unused") private Slot current;
    /** Every buffer not retired (for the pending-bytes figure); replaced under this object's monitor. */
    private volatile SinkBuffer[] all = new SinkBuffer[0];

    BufferHandOff(ByteSink sink, int buffers, int bufferBytes, boolean direct) {
        this.sink = sink;
        SinkBuffer first = register(newBuffer(sink, bufferBytes));
        stamp(first);
        first.open();
        CURRENT.setRelease(this, new Slot(first));
        for (int i = 1; i < buffers; i++) {
            free.offer(register(newBuffer(sink, bufferBytes)));
        }
    }

    Slot currentSlot() {
        return (Slot) CURRENT.getAcquire(this);
    }

    SinkBuffer current() {
        return currentSlot().buf;
    }

    /** Hands a slot this thread sealed to the writer: offer, then (only once the offer returned) mark enqueued. */
    void handOff(SinkBuffer buf) {
        if (!buf.claimHandOff()) {
            return;                              // the writer rescued it already
        }
        sink.toWriter.offer(buf);                // a death from here on: the writer's rescue (see class doc)
        buf.markEnqueued();
        sink.wakeWriter();
    }

    /**
     * Installs a free buffer in place of slot {@code full}, whose buffer the caller saw sealed
     * and enqueued. Returns false only when {@code full} is still current and no buffer is free.
     */
    boolean tryReplace(Slot full) {
        if (currentSlot() != full) {
            return true;
        }
        SinkBuffer next = free.poll();
        if (next == null) {
            return false;
        }
        if (CURRENT.compareAndSet(this, full, new Slot(next))) {
            stamp(next);                         // before open: no producer copies into it unstamped
            next.open();
        } else {
            free.offer(next);
        }
        return true;
    }

    /**
     * Makes sure everything appended before is in the writer's queue: seals the current buffer if
     * it holds data, or waits until its sealer (or the writer's rescue) has enqueued it. False
     * when that took {@code boundNanos} (recorded as an error), or with {@code boundNanos == 0}
     * when it took more than a moment's spin (not recorded).
     */
    boolean sealCurrent(long boundNanos) {
        int idle = 0;
        long start = 0;
        while (true) {
            Slot slot = currentSlot();
            SinkBuffer buf = slot.buf;
            long c = buf.claimedAcquire();
            if (c == 0 || c >= SinkBuffer.CLOSED) {
                return true;                     // empty: every earlier buffer is already enqueued
            }
            if (c > buf.capacity) {
                if (buf.isEnqueued()) {
                    return true;
                }
                if (boundNanos == 0) {
                    if (idle >= Idle.SPINS) {
                        return false;            // a DROP caller: a moment's spin, no error
                    }
                } else if (start == 0) {
                    start = System.nanoTime() | 1;
                } else if (System.nanoTime() - start >= boundNanos) {
                    sink.recordError(sink.name + ": a sealed buffer was not handed to the writer within "
                            + boundNanos / 1_000_000 + " ms");
                    return false;
                }
                idle = Idle.step(idle);
                continue;
            }
            if (buf.seal()) {
                handOff(buf);
                tryReplace(slot);
                return true;
            }
        }
    }

    /**
     * Writer only, with its queue empty: enqueues the current buffer that has stayed sealed but
     * not enqueued for {@code spool.sink.wait.millis} (its sealer died or stalls after sealing),
     * so producers and flushes move on. The buffer is retired after writing (see the class doc).
     */
    void rescueSealed(SinkBuffer buf) {
        if (current() != buf || !buf.sealedNotEnqueued()) {
            return;
        }
        boolean unclaimed = buf.claimHandOff();
        sink.recordError(sink.name + ": a sealed buffer was not handed off within " + sink.waitMillis
                + " ms (its producer died " + (unclaimed ? "after sealing" : "during the hand-off")
                + "?); the writer took it and retires it");
        buf.retire = true;
        sink.toWriter.offer(buf);
        buf.markEnqueued();
    }

    /**
     * Writer only, closing: seals the current buffer and replaces it with {@link #CLOSED_SLOT},
     * whose buffer refuses every reservation, so no producer can reserve space the writer will
     * not write; appends then write through. True once the closed slot is current.
     */
    boolean closeCurrent() {
        Slot slot = currentSlot();
        if (slot == CLOSED_SLOT) {
            return true;
        }
        SinkBuffer buf = slot.buf;
        long c = buf.claimedAcquire();
        if (c >= SinkBuffer.CLOSED) {
            return false;                        // being installed: opened in a moment
        }
        if (c <= buf.capacity) {
            if (buf.seal()) {
                handOff(buf);
                return CURRENT.compareAndSet(this, slot, CLOSED_SLOT);
            }
            return false;
        }
        return buf.isEnqueued() && CURRENT.compareAndSet(this, slot, CLOSED_SLOT);
    }

    SinkBuffer newBuffer(int capacity) {
        return newBuffer(sink, capacity);
    }

    /**
     * A new buffer of {@code capacity} bytes for {@code sink}: a journal region when there is one
     * free of that size, else memory of its own (for a journaled sink recorded once: a kill may
     * lose what it holds).
     */
    static SinkBuffer newBuffer(ByteSink sink, int capacity) {
        SinkJournal j = sink.journal;
        if (j != null) {
            SinkBuffer b = j.newBuffer(capacity);
            if (b != null) {
                return b;
            }
            if (!j.disabled && !j.unjournaledReported) {
                j.unjournaledReported = true;
                sink.recordError(sink.name + ": a buffer of " + capacity + " bytes is not journaled (the journal's regions are "
                        + j.regionBytes + " bytes, or all in use): a kill of the process may lose what it holds");
            }
        }
        return new SinkBuffer(capacity, sink.backend.wantsDirectBuffers());
    }

    /** A new use of {@code buf}'s journal region, if it has one. */
    private void stamp(SinkBuffer buf) {
        SinkJournal j = sink.journal;
        if (j != null) {
            j.stamp(buf);
        }
    }

    /** Counts a new buffer in the pending-bytes figure; returns it. */
    synchronized SinkBuffer register(SinkBuffer buf) {
        SinkBuffer[] a = Arrays.copyOf(all, all.length + 1);
        a[a.length - 1] = buf;
        all = a;
        return buf;
    }

    /** Writer only: a buffer dropped for good (replaced by a fresh one). */
    synchronized void unregister(SinkBuffer buf) {
        SinkBuffer[] a = all;
        for (int i = 0; i < a.length; i++) {
            if (a[i] == buf) {
                SinkBuffer[] b = Arrays.copyOf(a, a.length - 1);
                System.arraycopy(a, i + 1, b, i, a.length - i - 1);
                all = b;
                return;
            }
        }
    }

    /** Bytes reserved in journaled buffers not yet written (a metric, racy as {@link #pendingBufferBytes}). */
    long pendingJournaledBytes() {
        long sum = 0;
        for (SinkBuffer b : all) {
            if (b.region >= 0) {
                sum += b.pendingBytes();
            }
        }
        return sum;
    }

    /** Bytes reserved in buffers not yet written (a metric: racy, never skewed by a dead producer). */
    long pendingBufferBytes() {
        long sum = 0;
        for (SinkBuffer b : all) {
            sum += b.pendingBytes();
        }
        return sum;
    }
}
