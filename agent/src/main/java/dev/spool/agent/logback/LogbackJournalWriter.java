package dev.spool.agent.logback;

import dev.spool.agent.internal.AgentLog;
import dev.spool.agent.journal.JournalFiles;
import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.RingRoom;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * One deferred Logback appender's journal (issue 33): the caller journals a captured event
 * ({@link LogbackJournalCodec}) into {@code <file>.spool-logback-journal} before queueing it
 * ({@link #append}); whoever writes the appender's events (under its lock) records where each line
 * goes ({@link #beforeWrite}), keeps it until the routed stream says its bytes are in the file
 * ({@link #afterWrite}, {@link #settle}) and trims. The next start of routing for the file replays
 * what is left ({@link LogbackJournalRecovery}).
 *
 * <p>Journaled: an appender whose encoding Spool defers ({@link DeferredAppender}) and whose stream
 * is routed with known offsets; the journal follows its file across rolls that keep the file's
 * name ({@code file} set); a roll to another name retires it and the next file gets its own. What
 * Logback writes itself through the stream (an event it encoded on the caller's thread) is stored as
 * bytes ({@link Bytes}); so is everything of an appender Spool does not defer, when
 * {@link CallerEncodedJournals} journals it.
 *
 * <p>Threads: {@link #append} on callers (lock-free while the ring has room; full, the caller
 * writes what is queued under the appender's lock and waits for the sink, bounded: {@code makeRoom});
 * the rest under the appender's lock. Example:
 * <pre>{@code
 * long frame = journal.append(event, this::makeRoom);            // caller
 * queue.offer(frame < 0 ? event : new Journaled(event, frame));
 * journal.beforeWrite(frame); writeBytes(...); journal.afterWrite(frame); journal.settle(); // writer
 * }</pre>
 */
final class LogbackJournalWriter {
    /**
     * {@link #append}'s answer for an event whose content the journal cannot hold exactly (a key-value
     * value or marker of the application's own class, {@link LogbackJournalCodec}): it takes Logback's own
     * path on the caller's thread instead, and its bytes are journaled as they are ({@link Bytes}).
     */
    static final long REFUSED = -3;

    /** A queued event with its frame in {@code journal} (the appender's when it was captured). */
    record Journaled(Object item, long frame, LogbackJournalWriter journal) {}

    /** The journal now, put away while idle and made again ({@link ReopenableJournal}). */
    private final ReopenableJournal journal;
    private final LogbackJournalCodec codec;
    private final JournalFiles files;
    private final Path file;
    private final BiConsumer<String, String> errors;
    /** The routed stream the appender writes now (replaced at a roll, under the appender's lock). */
    private volatile Object stream;
    /** Lines written whose bytes may still be in the sink (writer only, under the lock). */
    private final ArrayDeque<Unreached> unreached = new ArrayDeque<>();
    /** A full ring's room-making, shared by the callers and the host's own writes. */
    private final RingRoom room = new RingRoom();
    /** Why the codec last refused an event ({@link #REFUSED}; racy by design: a report's detail). */
    private volatile String lastRefusal;
    private long beforeFrame = -1;
    private int beforeLength;
    private long before = -1;
    private Object beforeStream;

    private record Unreached(long frame, long after, Object stream) {}

    private LogbackJournalWriter(ReopenableJournal journal, LogbackJournalCodec codec, JournalFiles files,
                                 Path file, Object stream, BiConsumer<String, String> errors) {
        this.journal = journal;
        this.codec = codec;
        this.files = files;
        this.file = file;
        this.stream = stream;
        this.errors = errors;
    }

    /**
     * The journal of {@code appender} writing through {@code stream}, created now beside its file
     * (recovery ran before the stream was made); null when it cannot be journaled (named in the
     * agent's debug log, or counted when the journal could not be created).
     */
    static LogbackJournalWriter open(Object appender, Object encoder, Object stream, JournalFiles files,
                                     BiConsumer<String, String> errors) {
        Path file = files == null ? null : files.file(stream);
        if (file == null || files.position(stream) < 0 || files.reached(stream) < 0) {
            AgentLog.debug("Logback journal: " + (file == null ? "an appender whose file is not routed"
                    : file + ": its routed offsets are unknown") + ": not journaled");
            return null;
        }
        try {
            LogbackJournalCodec codec = LogbackJournalCodec.of(Class.forName(LogbackConverters.EVENT, false,
                    appender.getClass().getClassLoader()));
            ReopenableJournal journal = new ReopenableJournal(ReopenableJournal.create(file, encoder), encoder, file, errors);
            LogbackJournalWriter w = new LogbackJournalWriter(journal, codec, files, file, stream, errors);
            files.showJournal(stream, w::pendingBytes);
            files.onClosed(stream, w::settle);
            files.onHostWrites(stream, w.new Bytes(stream));
            return w;
        } catch (IOException e) {
            errors.accept("logback-journal", e.getMessage() + ": its events are captured without a journal (lost by a"
                    + " kill -9 within the visibility bound)");
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            errors.accept("logback-journal", "cannot journal the appender of " + file + " (" + e + "): its events are"
                    + " captured without a journal");
        }
        return null;
    }

    /**
     * The host lists or deletes in the log's folder: when every line the journal took is in the file,
     * it is sealed and its file removed, so the host finds the folder as without the agent; the next
     * record makes a new one ({@link ReopenableJournal#reopen}). True when it went. Under the appender's lock, on a
     * thread marked as Spool's.
     */
    boolean putAwayIfIdle() {
        settle();
        return journal.putAwayIfIdle(unreached.isEmpty());
    }

    /** The journal of the log file {@code file}. */
    static Path journalOf(Path file) {
        return file.resolveSibling(file.getFileName() + MappedLogJournal.LOGBACK_SUFFIX);
    }

    /** The encoder's pattern (a {@code PatternLayoutEncoder}'s), else its class name: recovery's check of the encoder. */
    static String patternOf(Object encoder) {
        try {
            Object p = encoder.getClass().getMethod("getPattern").invoke(encoder);
            if (p instanceof String s && s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MappedLogJournal.FORMAT_MAX) {
                return s;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // not a pattern encoder
        }
        return encoder.getClass().getName();
    }

    Path file() {
        return file;
    }

    /** At a roll that kept the file's name: the appender's new routed stream (under the appender's lock). */
    void stream(Object now) {
        stream = now;
        files.onClosed(now, this::settle); // the closing thread holds the appender's lock
        files.onHostWrites(now, new Bytes(now));
    }

    /**
     * The bytes Logback itself writes through one routed stream of the appender (issue 33): an event
     * that took Logback's own path (encoded on the caller's thread), an encoder Spool does not defer, a
     * header or footer. Stored as they are ({@link MappedLogJournal#appendBytes}) unless Spool's writer
     * is writing a journaled event now; under the appender's lock, as every write of its stream.
     */
    final class Bytes implements dev.spool.agent.journal.HostWrites {
        private final Object of;

        Bytes(Object stream) {
            this.of = stream;
        }

        @Override
        public long before(byte[] b, int off, int len, long pos) {
            if (pos < 0 || len == 0 || beforeFrame >= 0 && pos == before && len == beforeLength) {
                return -1; // a journaled event's own bytes, just them: its frame holds them
            }
            // the caller holds the appender's lock and writes this stream: it waits for the sink (bounded), once
            MappedLogJournal j = journal.now(); // under the appender's lock: only this thread puts it away, so one reopen serves
            long at = j.appendBytes(b, off, len, pos);
            if (at == MappedLogJournal.SEALED && journal.reopen(j)) {
                at = (j = journal.now()).appendBytes(b, off, len, pos);
            }
            if (at == MappedLogJournal.FULL) {
                MappedLogJournal full = j;
                at = room.afterFull(() -> full.appendBytes(b, off, len, pos), () -> awaitSinkHere(of), full, 1);
            }
            if (at < 0) {
                errors.accept("logback-journal-skipped", "journal " + journal.now().path + ": " + len + " bytes Logback wrote"
                        + " itself went without the journal (" + (at == MappedLogJournal.FULL ? "the ring stayed full: the"
                        + " sink is stuck or behind" : "the journal stopped, or the bytes are over half the ring")
                        + "); lost by a kill -9 within the visibility bound");
                return -1;
            }
            return at;
        }

        @Override
        public void after(long frame, long end) {
            if (end < 0) {
                journal.now().done(frame);
            } else {
                unreached.add(new Unreached(frame, end, of));
            }
            settle();
        }
    }

    /** A host write found the ring full: waits (bounded) until the sink wrote this stream, then settles; false when it did not. */
    private boolean awaitSinkHere(Object of) {
        boolean written = files.awaitWritten(of);
        settle();
        return written;
    }

    /**
     * A caller, before the offer: journals {@code event}; its frame, -1 when not journaled (counted,
     * named once), or {@link #REFUSED} when its content cannot be journaled exactly. A full ring means the sink is behind: {@code makeRoom} writes what is
     * queued on this thread and waits for the sink ({@link #awaitSink}, bounded), as Logback's own
     * synchronous path would have written it, and the event is journaled after all.
     */
    long append(Object event, BooleanSupplier makeRoom) {
        long at = -1;
        String why = "the journal stopped, or the event is over half the ring";
        try {
            at = store(event);
            if (at == MappedLogJournal.FULL) {
                at = room.afterFull(() -> store(event), makeRoom, journal.now(), RingRoom.ATTEMPTS);
            }
            if (at == MappedLogJournal.FULL) {
                why = "the ring stayed full after the caller wrote what was queued: the sink is stuck or behind";
            }
        } catch (IllegalArgumentException e) {
            lastRefusal = e.getMessage();
            return REFUSED;
        } catch (RuntimeException | LinkageError e) {
            why = "journaling it failed (" + e + ")";
        }
        if (at < 0) {
            errors.accept("logback-journal-skipped", "journal " + journal.now().path + ": an event was captured without the"
                    + " journal (" + why + "); lost by a kill -9 within the visibility bound");
            return -1;
        }
        return at;
    }

    /** Why the codec last refused an event, for the plain-path report. */
    String lastRefusal() {
        return lastRefusal;
    }

    private long store(Object event) {
        ByteBuffer b = codec.encode(event);
        long at;
        int tries = 0;
        MappedLogJournal j;
        do { // a journal put away meanwhile: the next one (put away again only once idle, between two tries)
            j = journal.now();
            at = j.append(b.array(), b.position());
        } while (at == MappedLogJournal.SEALED && ++tries < 3 && journal.reopen(j));
        return at;
    }

    /**
     * A caller whose event found the ring full, under the appender's lock after writing what was
     * queued: waits (bounded by the sink's wait) until the sink wrote it, and trims; false when not in time.
     */
    boolean awaitSink() {
        if (!files.awaitWritten(stream)) {
            return false;
        }
        settle();
        return true;
    }

    /** A journaled event that was not queued (it takes Logback's own path): never replayed. */
    void notQueued(long frame) {
        if (frame >= 0) {
            journal.now().done(frame);
        }
    }

    /** The writer, just before the event's bytes go to the appender's stream: the file offset its line starts at. */
    void beforeWrite(long frame, int length) {
        Object s = stream;
        before = files.position(s);
        beforeStream = s;
        beforeFrame = frame;
        beforeLength = length;
        if (before >= 0) {
            journal.now().filePos(frame, before);
        }
    }

    /** The writer, after the event was written (or was not: failed, dropped): done once its bytes are in the file. */
    void afterWrite(long frame) {
        boolean wrote = beforeFrame == frame && before >= 0;
        long after = wrote ? files.position(beforeStream) : -1;
        if (!wrote || after != before + beforeLength) {
            // nothing written into the journal's file (failed, stopped, not routed), or not just its bytes: Logback's
            // buffer above the stream (immediateFlush=false) held them back or let earlier bytes out; what went out
            // is a bytes frame, and its own bytes are one when they go out (until then they are in the heap, as plain)
            journal.now().done(frame);
        } else {
            unreached.add(new Unreached(frame, after, beforeStream));
        }
        beforeFrame = -1;
        before = -1;
        beforeStream = null;
    }

    /** The writer: marks done every written event whose bytes reached the file, and trims. */
    void settle() {
        long reachedNow = -1;
        for (Unreached u; (u = unreached.peek()) != null; ) {
            long reached = files.reached(u.stream);
            if (u.stream == stream) {
                reachedNow = reached;
            }
            if (u.after > reached) {
                break;
            }
            unreached.poll();
            journal.now().done(u.frame);
        }
        if (reachedNow > 0) {
            journal.now().reached(reachedNow);
        }
        journal.now().trim();
    }

    /**
     * The appender leaves this file (a roll to another name, Spool's exit): once the sink wrote every
     * line, the journal goes; else it stays for the next start's recovery. Under the appender's lock.
     */
    void retire() {
        journal.retire(); // before the last look at the journal: a caller's reopen after it makes none
        files.onHostWrites(stream, null); // later bytes of the stream (a footer at its close) go without the journal
        settle();
        if (!unreached.isEmpty() && files.drain(unreached.peekLast().stream)) {
            settle();
        }
        if (unreached.isEmpty() && journal.now().empty()) {
            try {
                journal.now().delete();
                return;
            } catch (IOException e) {
                errors.accept("logback-journal", "journal " + journal.now().path + " not removed (" + e + "): the next start"
                        + " replays nothing from it (its events are in the file)");
            }
        }
        journal.now().abandon();
    }

    long pendingBytes() {
        return journal.now().pendingBytes();
    }
}
