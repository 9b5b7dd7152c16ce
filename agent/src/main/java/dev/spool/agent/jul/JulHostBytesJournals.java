package dev.spool.agent.jul;

import dev.spool.agent.journal.JournalFiles;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.logging.FileHandler;

/**
 * The {@link JulHostBytesJournal}s of routed {@code FileHandler}s whose records take the host's path,
 * by handler identity (issue 33): made at the handler's first record Spool leaves to it, followed to
 * each next file its rotation routes, retired by its close.
 *
 * <p>Thread-safe: a copy-on-write array (few handlers; a lookup is a scan by identity, no lock);
 * changes under this object's lock, which a journal's creation holds (its file made once, never twice
 * for one handler) and nothing else of a journal's work does.
 */
final class JulHostBytesJournals {
    private record Entry(Object handler, JulHostBytesJournal journal) {
    }

    private final JulHandlerWrite writes;
    private final JournalFiles files;
    private final BiConsumer<String, String> errors;
    private volatile Entry[] entries = new Entry[0];

    JulHostBytesJournals(JulHandlerWrite writes, JournalFiles files, BiConsumer<String, String> errors) {
        this.writes = writes;
        this.files = files;
        this.errors = errors;
    }

    /** {@code handler}'s records take the host's path from now on: its bytes are journaled (once per handler). */
    synchronized void open(FileHandler handler) {
        if (find(handler) != null) {
            return;
        }
        JulHostBytesJournal j = JulHostBytesJournal.open(writes.underMeter(handler), files, errors);
        if (j != null) {
            Entry[] e = Arrays.copyOf(entries, entries.length + 1);
            e[e.length - 1] = new Entry(handler, j);
            entries = e;
        }
    }

    /** {@code handler} routed a new stream (a rotation's next file): its journal follows it. */
    void routed(Object handler, Object stream) {
        JulHostBytesJournal j = find(handler);
        if (j != null) {
            j.routed(stream);
        }
    }

    /** {@code handler}'s close begins: its stream's close retires the journal, which is forgotten here. */
    void closing(Object handler) {
        JulHostBytesJournal j = find(handler);
        if (j == null) {
            return;
        }
        j.closing();
        synchronized (this) {
            entries = Arrays.stream(entries).filter(x -> x.handler != handler).toArray(Entry[]::new);
        }
    }

    private JulHostBytesJournal find(Object handler) {
        for (Entry e : entries) {
            if (e.handler == handler) {
                return e.journal;
            }
        }
        return null;
    }
}
