package dev.spool.agent.jul;

import dev.spool.agent.internal.AgentLog;
import dev.spool.agent.journal.JournalFiles;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.logging.FileHandler;

/**
 * The {@link JulHostBytesJournal}s of routed {@code FileHandler}s whose records take the host's path,
 * by handler identity (issue 33): made at the handler's first record Spool leaves to it (a handler whose
 * journal could not be made keeps an entry without one: tried again only when a file of it is routed,
 * {@link #routed}), followed to each next file its rotation routes, retired by its close.
 *
 * <p>Thread-safe: a copy-on-write array (few handlers; a lookup is a scan by identity, no lock);
 * changes under this object's lock, which a journal's creation holds (its file made once, never twice
 * for one handler) and nothing else of a journal's work does. A close or a rotation racing the
 * creation (on Java 17 the hook runs before {@code publish} takes the handler's lock) is caught by a
 * second look at the handler's stream once the entry is in place.
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

    /** {@code handler}'s records take the host's path from now on: its bytes are journaled (tried once per handler). */
    void open(FileHandler handler) {
        if (entry(handler) != null) {
            return; // lock-free: every host-path record of the handler comes here
        }
        JulHostBytesJournal j;
        synchronized (this) {
            if (entry(handler) != null) {
                return;
            }
            j = JulHostBytesJournal.open(writes.underMeter(handler), files, errors);
            Entry[] e = Arrays.copyOf(entries, entries.length + 1);
            e[e.length - 1] = new Entry(handler, j);
            entries = e;
        }
        if (j != null) {
            j.follows(writes.underMeter(handler)); // closed or rotated while the journal was made: caught up here
        }
    }

    /**
     * {@code handler} routed a new stream (a rotation's next file, or its open file taken over by an attached
     * agent): its journal follows it. A handler that has none because its file was not routed at its first
     * record (opened while the kill switch held routing off, or before the attach) gets it now, with the first
     * file routed (before 5 Dec it stayed unjournaled for its life).
     */
    void routed(Object handler, Object stream) {
        Entry e = entry(handler);
        if (e == null) {
            return;
        }
        if (e.journal != null) {
            e.journal.routed(stream);
            return;
        }
        JulHostBytesJournal j;
        synchronized (this) {
            Entry now = entry(handler);
            if (now == null || now.journal != null) {
                return; // closed meanwhile, or made by another thread (which follows the handler's stream itself)
            }
            j = JulHostBytesJournal.open(stream, files, errors);
            if (j == null) {
                return;
            }
            entries = Arrays.stream(entries).map(x -> x == now ? new Entry(handler, j) : x).toArray(Entry[]::new);
        }
        AgentLog.debug("JUL journal of host-formatted bytes: made at the routing of a file after the handler's first record");
    }

    /** {@code handler}'s close begins: its stream's close retires the journal, which is forgotten here. */
    void closing(Object handler) {
        if (entry(handler) == null) {
            return;
        }
        JulHostBytesJournal j = journal(handler);
        if (j != null) {
            j.closing();
        }
        synchronized (this) {
            entries = Arrays.stream(entries).filter(x -> x.handler != handler).toArray(Entry[]::new);
        }
    }

    private Entry entry(Object handler) {
        for (Entry e : entries) {
            if (e.handler == handler) {
                return e;
            }
        }
        return null;
    }

    private JulHostBytesJournal journal(Object handler) {
        Entry e = entry(handler);
        return e == null ? null : e.journal;
    }
}
