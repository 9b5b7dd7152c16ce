package dev.spool.buffer;

/**
 * When a buffer's writes wake the flusher, and when a writer waits for it: over {@code capacity}
 * dirty files or half of {@code capacityBytes} a buffered write wakes the {@link BackgroundFlusher}
 * and goes on; over all of {@code capacityBytes} (the hard memory bound: the flusher could not keep
 * up) it waits, bounded by {@link Backpressure}, counted, and announced to the listeners. A thread
 * that runs flushes never waits here.
 *
 * <p><b>Threading.</b> Thread-safe, lock-free: reads the buffer's counters and volatile settings
 * (each decision is momentary: other writers change the counts meanwhile). Only
 * {@link #afterBufferedWrite()} may block, and only as long as {@link Backpressure} allows.
 * Callers hold no entry monitor. Package-private; one instance per buffer.
 */
final class CapacityGate {
    private final SharedBuffer buffer;
    private final Counters counters;
    private final Backpressure backpressure;
    private final Listeners listeners;
    private final BackgroundFlusher flusher;
    private final FlushPasses passes;

    CapacityGate(SharedBuffer buffer, Counters counters, Backpressure backpressure, Listeners listeners,
                 BackgroundFlusher flusher, FlushPasses passes) {
        this.buffer = buffer;
        this.counters = counters;
        this.backpressure = backpressure;
        this.listeners = listeners;
        this.flusher = flusher;
        this.passes = passes;
    }

    /** After a buffered write, outside every entry monitor: wake the flusher; wait at the memory bound. */
    void afterBufferedWrite() {
        if (!overCapacity()) return;
        flusher.wake();
        long bound = buffer.getCapacityBytes();
        if (heldBytes() <= bound || buffer.isClosed() || isFlushingThread()) return;
        long waited = backpressure.await(() -> heldBytes() <= buffer.getCapacityBytes() || buffer.isClosed());
        if (waited > 0) listeners.backpressure(waited / 1_000_000, counters.dirtyBytes.get(), buffer.getCapacityBytes());
    }

    /** A setting changed: over the new capacity, the flusher starts at once. */
    void settingsChanged() {
        if (overCapacity()) flusher.wake();
    }

    /** Over the point where the flusher starts: {@code capacity} dirty files or half of {@code capacityBytes}. */
    boolean overCapacity() {
        return counters.dirtyEntries.get() > buffer.getCapacity() || overHalfBound();
    }

    /**
     * Over half of {@code capacityBytes}, where the flusher already runs: content handed in from
     * now on is held encoded (a captured Jackson document holds ~2.5x its text), so more of the
     * working set fits under the bound and coalesces instead of waiting for the disk.
     */
    boolean overHalfBound() {
        return heldBytes() > buffer.getCapacityBytes() / 2;
    }

    /**
     * Whether stamps of files not written for a whole pass may stay: while every entry of the
     * table ({@code entries}, stamps and dirty ones, {@link SharedBuffer#ENTRY_BYTES} each) and the
     * dirty content together take at most half of {@code capacityBytes}. A stamp that stays makes
     * the file's next write one {@code lstat} instead of a read of the whole file and the refusal
     * checks; above that, stamps leave after two passes (their memory is not in the bound).
     */
    boolean roomForIdleStamps(long entries) {
        return counters.dirtyBytes.get() + entries * SharedBuffer.ENTRY_BYTES <= buffer.getCapacityBytes() / 2;
    }

    /**
     * What {@code capacityBytes} bounds: the estimated unwritten content plus
     * {@link SharedBuffer#ENTRY_BYTES} for each dirty file (its entry, stamp, map node and key).
     */
    private long heldBytes() {
        return counters.dirtyBytes.get() + counters.dirtyEntries.get() * SharedBuffer.ENTRY_BYTES;
    }

    /** A thread that runs flushes (a listener called back on it) must never wait for a flush. */
    private boolean isFlushingThread() {
        return flusher.isFlusherThread() || FlushWorkers.isHelperThread() || passes.isHeldByCurrentThread();
    }
}
