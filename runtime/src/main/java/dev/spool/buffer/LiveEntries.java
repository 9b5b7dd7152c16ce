package dev.spool.buffer;

import java.io.UncheckedIOException;
import java.util.function.BiFunction;

/**
 * The live side of {@link SharedBuffer}: the one shared tree of plain JSON values per file that
 * {@code SyncedMap} and {@code SyncedList} read and change in place ({@link SharedBuffer#liveRead},
 * {@link SharedBuffer#liveWrite}), reached through each opened file's {@link LiveSlot} (no map
 * lookup while the file stays buffered). With a scope open a change only marks the file dirty; with none,
 * the entry is transient and a change is written through before the call returns.
 *
 * <p><b>Threading.</b> Thread-safe: a call holds only its file's entry monitor while the caller's
 * function runs on the tree (and while a write-through writes the file); the memory-bound wait
 * ({@link CapacityGate#afterBufferedWrite()}) happens after the monitor is released. Package-private;
 * one instance per buffer.
 */
final class LiveEntries {
    private final SharedBuffer buffer;
    private final EntryTable table;
    private final EntryWriter writer;
    private final Listeners listeners;
    private final CapacityGate gate;

    LiveEntries(SharedBuffer buffer, EntryTable table, EntryWriter writer, Listeners listeners, CapacityGate gate) {
        this.buffer = buffer;
        this.table = table;
        this.writer = writer;
        this.listeners = listeners;
        this.gate = gate;
    }

    /**
     * The slot's memo if set, else the map's entry (created if missing), remembered in the slot.
     * The caller checks {@code removed} under the entry's monitor and comes back on a removed one,
     * which is then never returned again ({@link LiveSlot}).
     */
    private Entry entryFor(LiveSlot slot, Entry removed) {
        Entry e = slot.entry;
        if (e == null || e == removed) {
            e = table.entryFor(slot.real);
            slot.entry = e;
        }
        return e;
    }

    /** {@link SharedBuffer#liveRead(LiveSlot, JsonKind, Object, BiFunction)}. */
    <A, T> T read(LiveSlot slot, JsonKind kind, A arg, BiFunction<Object, A, T> read) {
        Entry stale = null;
        for (;;) {
            Entry e = entryFor(slot, stale);
            synchronized (e) {
                if (e.removed) {
                    stale = e;
                    continue;
                }
                boolean buffering = buffer.isBuffering();
                try {
                    T result = read.apply(table.ensureLive(e, kind), arg);
                    if (buffering) e.reads++;
                    return result;
                } finally {
                    if (!buffering) table.evictIfIdle(e, false);
                }
            }
        }
    }

    /** {@link SharedBuffer#liveWrite(LiveSlot, JsonKind, LiveChange)}. */
    <T> T write(LiveSlot slot, JsonKind kind, LiveChange<T> write) {
        Entry stale = null;
        for (;;) {
            Entry e = entryFor(slot, stale);
            T result;
            EntryWriter.Outcome written = null;
            UncheckedIOException failed = null;
            synchronized (e) {
                if (e.removed) {
                    stale = e;
                    continue;
                }
                boolean buffering = buffer.isBuffering();
                try {
                    Object root = table.ensureLive(e, kind);
                    boolean wasDirty = e.dirty;
                    e.pendingGrowth = 0;
                    result = write.apply(root, e);
                    writer.markDirty(e, e.pendingGrowth);
                    if (buffering) {
                        e.writes++;
                    } else {
                        written = writer.write(e, buffer.isFsync());
                        failed = discardFailedWriteThrough(e, wasDirty, written);
                    }
                } finally {
                    if (!buffering) table.evictIfIdle(e, false);
                }
            }
            if (written == null) {
                gate.afterBufferedWrite();
                return result;
            }
            listeners.outcome(written);
            if (failed != null) throw failed;
            return result;
        }
    }

    /**
     * Caller holds {@code e}'s monitor. A failed write-through of nothing but this call's change
     * discards it (the caller is told); earlier buffered changes stay for retry.
     */
    private UncheckedIOException discardFailedWriteThrough(Entry e, boolean wasDirty, EntryWriter.Outcome o) {
        if (o.result() != EntryWriter.Result.FAILED) return null;
        UncheckedIOException io = new UncheckedIOException(e.failureAsIOException());
        if (!wasDirty) {
            writer.markClean(e, 0);
            e.failure = null;
            table.remove(e);
        }
        return io;
    }
}
