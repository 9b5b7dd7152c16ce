package dev.spool.buffer;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The buffer's counters. Hot-path counters are {@link LongAdder}s; the rest atomics. */
final class Counters {
    final AtomicInteger dirtyEntries = new AtomicInteger();
    final AtomicLong dirtyBytes = new AtomicLong();
    /** Counts of entries that left the buffer (live entries keep their own). */
    final LongAdder writesAbsorbed = new LongAdder();
    final LongAdder readsServed = new LongAdder();
    final AtomicLong flushes = new AtomicLong();
    final AtomicLong filesWritten = new AtomicLong();
    final AtomicLong conflicts = new AtomicLong();
    /** Writers that waited at the memory bound, and for how long in total. */
    final AtomicLong backpressureWaits = new AtomicLong();
    final AtomicLong backpressureNanos = new AtomicLong();
    volatile long lastFlushMillis;
    volatile String lastError = "";

    /** {@code liveReads}/{@code liveWrites}: the counts still held by entries in the buffer. */
    BufferMetrics snapshot(int entries, long liveReads, long liveWrites) {
        return new BufferMetrics(entries, dirtyEntries.get(), Math.max(0, dirtyBytes.get()), flushes.get(),
                filesWritten.get(), writesAbsorbed.sum() + liveWrites, readsServed.sum() + liveReads, conflicts.get(),
                lastFlushMillis, lastError, backpressureWaits.get(), backpressureNanos.get() / 1_000_000);
    }
}
