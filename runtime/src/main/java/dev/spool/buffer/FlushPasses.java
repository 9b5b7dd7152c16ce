package dev.spool.buffer;

import dev.spool.internal.jfr.SpoolJfr;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Runs a buffer's flush passes, one at a time: each pass writes every dirty entry (on the calling
 * thread and up to {@code flushThreads - 1} {@link FlushWorkers}), lets clean snapshots leave, and
 * reports the outcomes to the listeners and JFR.
 *
 * <p><b>Threading.</b> Thread-safe. {@link #flushWithReport()} blocks: it first waits for a pass
 * already running (one {@link ReentrantLock}, reentrant so a listener on the flushing thread may
 * flush again), then for as long as the disk takes. Each entry is written under its own monitor.
 * The flusher thread calls {@link #timed} and {@link #untilUnder}; applications reach
 * {@link #flushWithReport()} through {@link SharedBuffer#flush()}. Package-private; one instance
 * per buffer.
 */
final class FlushPasses {
    private final ReentrantLock flushLock = new ReentrantLock();
    private final SharedBuffer buffer;
    private final Counters counters;
    private final EntryTable table;
    private final EntryWriter writer;
    private final Listeners listeners;
    private final Backpressure backpressure;
    private final FlushWorkers workers;
    private final FolderSweeps sweeps;
    /** New files buffered to be created by the flush ({@code createAtFlush}), in the order put. */
    private final ConcurrentLinkedQueue<Entry> creates = new ConcurrentLinkedQueue<>();

    FlushPasses(SharedBuffer buffer, Counters counters, EntryTable table, EntryWriter writer,
                Listeners listeners, Backpressure backpressure, FlushWorkers workers, FolderSweeps sweeps) {
        this.buffer = buffer;
        this.counters = counters;
        this.table = table;
        this.writer = writer;
        this.listeners = listeners;
        this.backpressure = backpressure;
        this.workers = workers;
        this.sweeps = sweeps;
    }

    /** {@link SharedBuffer#flushWithReport()}. */
    FlushReport flushWithReport() throws FlushException {
        return flushWithReportOf(() -> table.entries().toArray(new Entry[0]));
    }

    /** A new file was buffered to be created by the flush: the flusher creates it soon ({@link #creates}). */
    void queueCreate(Entry e) {
        creates.add(e);
    }

    /**
     * On the flusher thread: writes the queued new files now, in batches, without a pass over the
     * whole table (rewrites keep coalescing until their interval): write-once content never
     * coalesces, and held for an interval it is what the host's collector copies (docs/BENCHMARKS.md,
     * session 6). A file written meanwhile by a full pass is clean here (nothing written twice).
     */
    void creates() {
        for (;;) {
            List<Entry> batch = new ArrayList<>();
            for (Entry e; batch.size() < CREATE_BATCH && (e = creates.poll()) != null; ) batch.add(e);
            if (batch.isEmpty()) return;
            try {
                flushWithReportOf(() -> batch.toArray(new Entry[0]));
            } catch (FlushException e) {
                // reported to listeners and LastError; the failed files stay dirty for the next pass
            }
        }
    }

    /** Queued new files written by one pass at most (each batch a report of its own). */
    static final int CREATE_BATCH = 4096;

    /** One pass over the entries {@code entries} gives once the flush lock is held. */
    private FlushReport flushWithReportOf(Supplier<Entry[]> entries) {
        flushLock.lock();
        try {
            return runFlush(entries.get());
        } finally {
            flushLock.unlock();
        }
    }

    boolean isHeldByCurrentThread() {
        return flushLock.isHeldByCurrentThread();
    }

    /** On the flusher thread: the interval elapsed. With nothing dirty, only idle stamps leave. */
    void timed() {
        sweeps.sweepPending(); // folders of files written at the call, never part of a pass
        if (counters.dirtyEntries.get() > 0) {
            flushWithReport();
            return;
        }
        boolean keep = keepIdleStamps();
        for (Entry e : table.entries()) {
            synchronized (e) {
                table.afterPass(e, keep);
            }
        }
    }

    /** On the flusher thread: woken over capacity; flushes until {@code over} is false or a pass writes nothing. */
    void untilUnder(BooleanSupplier over) {
        for (;;) {
            int written;
            try {
                written = flushWithReport().filesWritten();
            } catch (FlushException e) {
                written = e.filesWritten(); // reported to listeners and LastError; kept for the next flush
            }
            if (written == 0 || !over.getAsBoolean() || buffer.isClosed()) return;
        }
    }

    /** Caller holds the flush lock. Writes every dirty entry of {@code entries}; clean snapshots leave the buffer. */
    private FlushReport runFlush(Entry[] entries) {
        sweeps.sweepPending(); // a folder's first pass in this process finds the killed processes' temp files gone
        long start = System.nanoTime();
        boolean forced = buffer.overCapacity(); // for JFR's trigger: a flush that starts over capacity is "capacity"
        Object jfr = SpoolJfr.beginBufferFlush(counters.dirtyBytes.get());
        int written = 0;
        List<FlushReport.Conflict> conflicts = new ArrayList<>();
        List<FlushException.Failure> failures = new ArrayList<>();
        boolean fs = buffer.isFsync();
        boolean keep = keepIdleStamps();
        backpressure.passStarted();
        List<EntryWriter.Outcome> outcomes;
        try {
            outcomes = workers.run(entries, e -> writeOne(e, fs, keep), buffer.getFlushThreads());
        } finally {
            backpressure.passEnded();
        }
        for (EntryWriter.Outcome o : outcomes) {
            switch (o.result()) {
                case WRITTEN -> written++;
                case CONFLICT -> conflicts.add(new FlushReport.Conflict(o.path(), o.conflictFile()));
                case FAILED -> failures.add(new FlushException.Failure(o.path(), o.failure(), o.content()));
                case CLEAN -> { }
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        outcomes.forEach(listeners::outcome);
        listeners.flushCompleted(written, millis);
        SpoolJfr.bufferFlushed(jfr, forced, written, conflicts.size(), failures.size());
        if (!failures.isEmpty()) throw new FlushException(written, failures);
        return new FlushReport(written, conflicts, millis);
    }

    /** Decided once per pass: whether stamps not written for a whole pass stay ({@link CapacityGate#roomForIdleStamps}). */
    private boolean keepIdleStamps() {
        return buffer.roomForIdleStamps(table.size());
    }

    private EntryWriter.Outcome writeOne(Entry e, boolean fs, boolean keepIdleStamps) {
        EntryWriter.Outcome o;
        synchronized (e) {
            o = writer.write(e, fs);
            table.afterPass(e, keepIdleStamps);
        }
        if (o.result() == EntryWriter.Result.WRITTEN) backpressure.progress();
        return o;
    }
}
