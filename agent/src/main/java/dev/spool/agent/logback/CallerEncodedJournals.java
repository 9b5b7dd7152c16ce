package dev.spool.agent.logback;

import dev.spool.agent.journal.HostWrites;
import dev.spool.agent.journal.JournalFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The journals of routed Logback appenders whose events Logback encodes on the caller's thread
 * (issue 33): an encoder Spool does not defer (a JSON encoder, Spring Boot's converters), a
 * size-based policy whose check cannot move. Such an appender's bytes are routed, so without a
 * journal a kill -9 loses what the sink had not written; its {@link LogbackJournalWriter} stores
 * them as the stream receives them ({@link LogbackJournalWriter.Bytes}) and follows the file across
 * rolls that keep its name.
 *
 * <p>The journal exists only while it may hold something: it is made at the first bytes the
 * appender writes, and {@linkplain #putAwayIdle put away} when the host lists or deletes in the log's
 * folder while every line it took is in the file (the next bytes make a new one). So a host that
 * looks at its log folder finds what it finds without the agent (Logback's own rolling tests read
 * every file there), and a stopped appender's folder can be removed.
 *
 * <p>Thread-safe: the registry is guarded by this object's monitor, never held while a journal
 * works; an appender's journal is used under its appender's stream lock only (a host thread writing
 * or routing the appender, or Spool retiring it with the lock tried: a lock held elsewhere leaves
 * the journal, for the next start, which replays only what is missing).
 */
final class CallerEncodedJournals {

    /** How long a host's look into a log folder waits for an appender's lock to put its idle journal away. */
    static final long PUT_AWAY_WAIT_MILLIS = 50;

    private final Map<Object, Entry> byAppender = new IdentityHashMap<>();
    private final BiConsumer<String, String> errors;

    CallerEncodedJournals(BiConsumer<String, String> errors) {
        this.errors = errors;
    }

    /**
     * {@code appender}'s {@code stream} was routed and its events stay on the caller's thread: its
     * journal follows the stream, or the file gets a new one (made at the first bytes). On the host's
     * thread opening the file, under the appender's lock.
     */
    void routed(Object appender, Object encoder, Object stream, JournalFiles files) {
        Path file = files.file(stream);
        Entry e;
        synchronized (this) {
            e = byAppender.get(appender);
        }
        if (e != null && e.file.equals(file)) {
            e.follow(stream);
            return;
        }
        if (e != null) {
            forget(appender);
            e.retire();
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
        Entry n = new Entry(appender, encoder, lock, files, file);
        synchronized (this) {
            byAppender.put(appender, n);
        }
        n.follow(stream);
    }

    /**
     * {@code appender} is deferred now: its journal (null: none made) goes on as its {@link DeferredAppender}'s,
     * which follows the new stream, so lines still pending keep their frames. Under its lock.
     */
    LogbackJournalWriter handOver(Object appender) {
        Entry e = forget(appender);
        if (e == null) {
            return null;
        }
        e.files.onHostWrites(e.stream, null);
        LogbackJournalWriter w = e.writer;
        e.writer = null; // a put-away that listed this entry before must not touch the deferred appender's journal now
        e.bytes = null;
        return w;
    }

    /**
     * Another appender routes {@code file} (a reconfiguration): the journal of a stopped one goes (its
     * lines reached the file at its close), so the new one can create its own. Tried only.
     */
    void retireStopped(Object starting, Path file, Predicate<Object> started) {
        for (Map.Entry<Object, Entry> e : snapshot()) {
            if (e.getKey() != starting && e.getValue().file.equals(file) && !started.test(e.getKey())) {
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

    /**
     * The host lists or deletes {@code path}, the folder of logs or a file in it: the journals there
     * whose lines are all in their files go now (each appender's lock waited for briefly; a thread
     * that writes the appender itself, as a roll does, leaves its journal). On a thread marked as
     * Spool's: the journal's removal is Spool's own file operation.
     */
    void putAwayIdle(Path path) {
        synchronized (this) {
            if (byAppender.isEmpty()) {
                return; // no appender journals its bytes: a host's delete or listing costs one monitor
            }
        }
        for (Map.Entry<Object, Entry> e : snapshot()) {
            Entry j = e.getValue();
            try {
                if (!lockToPutAway(path, j.file, j.lock)) {
                    continue;
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                j.putAwayIfIdle();
            } catch (RuntimeException x) {
                errors.accept("logback-journal", "removing the idle journal of " + j.file + " failed (" + x + ")");
            } finally {
                j.lock.unlock();
            }
        }
    }

    /**
     * Whether a put-away for the host's look at {@code path} may go on for the journal of {@code file}, and then
     * with its appender's {@code lock} held (the caller unlocks): {@code path} is the file or its folder, this
     * thread does not hold the lock (the appender's own code looks, as a roll: what it sees is what plain Logback's
     * thread sees), and the lock came within {@link #PUT_AWAY_WAIT_MILLIS} (else another thread writes the
     * appender now: its journal stays).
     */
    static boolean lockToPutAway(Path path, Path file, ReentrantLock lock) throws InterruptedException {
        return (path.equals(file) || path.equals(file.getParent())) && !lock.isHeldByCurrentThread()
                && lock.tryLock(PUT_AWAY_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void retire(Object appender, Entry e) {
        if (!e.lock.tryLock()) {
            return; // a host thread holds it (still logging): left for the next start
        }
        try {
            if (forget(appender, e)) {
                e.retire();
            }
        } catch (RuntimeException x) {
            errors.accept("logback-journal", "retiring the journal of " + e.file + " failed (" + x + ")");
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

    /**
     * One appender's journal of one file: the bytes of its routed stream go through here. Every
     * method under the appender's lock.
     */
    private final class Entry implements HostWrites {
        final Object appender;
        final Object encoder;
        final ReentrantLock lock;
        final JournalFiles files;
        final Path file;
        /** The routed stream the appender writes now. */
        Object stream;
        /** The journal, or null: none made yet (made at the first bytes). */
        LogbackJournalWriter writer;
        /** {@link #writer}'s store of {@link #stream}'s bytes. */
        LogbackJournalWriter.Bytes bytes;
        /** A stream whose journal could not be made: not tried again for it (named once by the writer). */
        Object failedFor;

        Entry(Object appender, Object encoder, ReentrantLock lock, JournalFiles files, Path file) {
            this.appender = appender;
            this.encoder = encoder;
            this.lock = lock;
            this.files = files;
            this.file = file;
        }

        /** The appender writes {@code now} (its first stream, or the next after a roll that kept the name). */
        void follow(Object now) {
            stream = now;
            if (writer != null) {
                writer.stream(now);
                bytes = writer.new Bytes(now);
            }
            files.onHostWrites(now, this);
            files.onClosed(now, this::settle); // the closing thread holds the appender's lock
        }

        @Override
        public long before(byte[] b, int off, int len, long pos) {
            if (writer == null && !make()) {
                return -1;
            }
            return bytes.before(b, off, len, pos);
        }

        @Override
        public void after(long frame, long end) {
            if (bytes != null) {
                bytes.after(frame, end);
            }
        }

        private boolean make() {
            if (failedFor == stream) {
                return false;
            }
            boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // Spool's own file, not the host's look
            try {
                writer = LogbackJournalWriter.open(appender, encoder, stream, files, errors);
            } finally {
                dev.spool.bridge.Hooks.markSpoolThread(was);
            }
            if (writer == null) {
                failedFor = stream;
                return false;
            }
            bytes = writer.new Bytes(stream);
            files.onHostWrites(stream, this); // open gave the stream the writer's own: this one makes the next journal
            files.onClosed(stream, this::settle);
            return true;
        }

        private void settle() {
            if (writer != null) {
                writer.settle();
            }
        }

        void putAwayIfIdle() {
            if (writer != null) {
                writer.putAwayIfIdle(); // the next bytes make a new journal (ReopenableJournal.reopen)
            }
        }

        void retire() {
            if (writer != null) {
                writer.retire();
            }
            files.onHostWrites(stream, null);
            writer = null;
            bytes = null;
        }
    }
}
