package dev.spool.agent.logback;

import dev.spool.agent.journal.JournalFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The journals of routed Logback appenders whose events Logback encodes on the caller's thread
 * (issue 33): an encoder Spool does not defer, a size-based policy whose check cannot move. Such an
 * appender's bytes are routed, so without a journal a kill -9 loses what the sink had not written;
 * its {@link LogbackJournalWriter} stores them as the stream receives them
 * ({@link LogbackJournalWriter.Bytes}) and follows the file across rolls that keep its name. Opt-in
 * ({@code spool.sink.journal.hostBytes}): such a journal is a file beside a log that had none.
 *
 * <p>Thread-safe: the registry is guarded by this object's monitor, never held while a writer
 * works; a writer is used under its appender's stream lock only (a host thread routing the appender,
 * or Spool retiring it with the lock tried: a lock held elsewhere leaves the journal for the next
 * start, which replays only what is missing).
 */
final class CallerEncodedJournals {

    private record Entry(LogbackJournalWriter writer, ReentrantLock lock) {}

    private final Map<Object, Entry> byAppender = new IdentityHashMap<>();
    private final BiConsumer<String, String> errors;

    CallerEncodedJournals(BiConsumer<String, String> errors) {
        this.errors = errors;
    }

    /**
     * {@code appender}'s {@code stream} was routed and its events stay on the caller's thread: its
     * journal follows the stream, or a new one is made for the file. On the host's thread opening
     * the file, under the appender's lock.
     */
    void routed(Object appender, Object encoder, Object stream, JournalFiles files) {
        Path file = files.file(stream);
        Entry e;
        synchronized (this) {
            e = byAppender.get(appender);
        }
        if (e != null && e.writer.file().equals(file)) {
            e.writer.stream(stream);
            return;
        }
        if (e != null) {
            forget(appender);
            e.writer.retire();
        }
        if (file == null) {
            return;
        }
        ReentrantLock lock;
        try {
            lock = AppenderAccess.of(appender).lock();
        } catch (ReflectiveOperationException | RuntimeException x) {
            return; // no lock Spool can take: never retired safely, so not journaled (the routed bytes as before issue 33)
        }
        LogbackJournalWriter w = LogbackJournalWriter.open(appender, encoder, stream, files, errors);
        if (w != null) {
            synchronized (this) {
                byAppender.put(appender, new Entry(w, lock));
            }
        }
    }

    /** {@code appender} is deferred now (its {@link DeferredAppender} journals its file): this journal goes. Under its lock. */
    void deferred(Object appender) {
        Entry e = forget(appender);
        if (e != null) {
            e.writer.retire();
        }
    }

    /**
     * Another appender routes {@code file} (a reconfiguration): the journal of a stopped one goes (its
     * lines reached the file at its close), so the new one can create its own. Tried only.
     */
    void retireStopped(Object starting, Path file, Predicate<Object> started) {
        for (Map.Entry<Object, Entry> e : snapshot()) {
            if (e.getKey() != starting && e.getValue().writer.file().equals(file) && !started.test(e.getKey())) {
                retire(e.getKey(), e.getValue());
            }
        }
    }

    /** Spool's exit: each journal goes once the sink wrote its lines (its appender's lock tried only). */
    void retireAll() {
        for (Map.Entry<Object, Entry> e : snapshot()) {
            retire(e.getKey(), e.getValue());
        }
    }

    private void retire(Object appender, Entry e) {
        if (!e.lock.tryLock()) {
            return; // a host thread holds it (still logging): left for the next start
        }
        try {
            if (forget(appender, e)) {
                e.writer.retire();
            }
        } catch (RuntimeException x) {
            errors.accept("logback-journal", "retiring the journal of " + e.writer.file() + " failed (" + x + ")");
        } finally {
            e.lock.unlock();
        }
    }

    private synchronized Entry forget(Object appender) {
        return byAppender.remove(appender);
    }

    private synchronized boolean forget(Object appender, Entry e) {
        return byAppender.remove(appender, e);
    }

    private synchronized List<Map.Entry<Object, Entry>> snapshot() {
        return new ArrayList<>(byAppender.entrySet());
    }
}
