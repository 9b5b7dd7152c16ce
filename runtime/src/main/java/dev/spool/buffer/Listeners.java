package dev.spool.buffer;

import dev.spool.internal.jfr.SpoolJfr;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The buffer's listeners and the counters that go with each notification. Called only while no
 * entry monitor is held, so a listener may call back into the buffer; an exception thrown by a
 * listener is swallowed (a listener never breaks a flush or a write). Thread-safe
 * (copy-on-write list); notifications may arrive on several threads at once.
 * <pre>{@code
 * listeners.outcome(writer.write(entry, fsync));   // after leaving the entry's monitor
 * }</pre>
 */
final class Listeners {
    private final CopyOnWriteArrayList<BufferListener> list = new CopyOnWriteArrayList<>();
    private final Counters counters;

    Listeners(Counters counters) {
        this.counters = counters;
    }

    void add(BufferListener l) {
        list.add(l);
    }

    void remove(BufferListener l) {
        list.remove(l);
    }

    /** Counts and announces what happened to one entry. */
    void outcome(EntryWriter.Outcome o) {
        switch (o.result()) {
            case WRITTEN -> counters.filesWritten.incrementAndGet();
            case CONFLICT -> {
                counters.conflicts.incrementAndGet();
                SpoolJfr.conflict(o.path(), o.conflictFile());
                for (BufferListener l : list) {
                    try {
                        l.conflict(o.path(), o.conflictFile());
                    } catch (RuntimeException ignored) {
                        // a listener never breaks a flush
                    }
                }
            }
            case FAILED -> {
                counters.lastError = o.path() + ": " + o.failure();
                SpoolJfr.writeError("buffer", o.path(), o.failure());
                for (BufferListener l : list) {
                    try {
                        l.writeError(o.path(), o.failure());
                    } catch (RuntimeException ignored) {
                        // a listener never breaks a flush
                    }
                }
            }
            case CLEAN -> { }
        }
    }

    /** A writer waited {@code millis} at the memory bound (dirty bytes over {@code capacityBytes}). */
    void backpressure(long millis, long dirtyBytes, long capacityBytes) {
        for (BufferListener l : list) {
            try {
                l.backpressure(millis, dirtyBytes, capacityBytes);
            } catch (RuntimeException ignored) {
                // a listener never breaks a write
            }
        }
    }

    void flushCompleted(int written, long millis) {
        counters.flushes.incrementAndGet();
        counters.lastFlushMillis = millis;
        for (BufferListener l : list) {
            try {
                l.flushCompleted(written, millis);
            } catch (RuntimeException ignored) {
                // a listener never breaks a flush
            }
        }
    }
}
