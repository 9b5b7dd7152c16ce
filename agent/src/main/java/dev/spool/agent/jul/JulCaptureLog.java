package dev.spool.agent.jul;

import dev.spool.agent.internal.AgentLog;
import dev.spool.bridge.Hooks;
import dev.spool.internal.handoff.CapturedRecordEncoder;
import dev.spool.internal.handoff.CapturedLogWriterPool;
import dev.spool.internal.handoff.MpscCapturedRecordQueue;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;

/**
 * One routed JUL {@code FileHandler} whose formatter Spool reproduces: a queue of
 * {@link JulCapture}s drained by the shared {@link CapturedLogWriterPool}, whose thread formats each with the
 * handler's {@link JulFormat} ({@link CompiledSimpleFormatter}, {@link JulXmlFormat}) as of its call and writes the
 * text into the handler as its {@code publish} would after {@code isLoggable} and the format ({@link JulHandlerWrite}):
 * the handler's stream, encoding, byte count, rotation and error manager work as without capture, and nothing
 * changed after the call (the handler's level, filter or formatter, the record) is applied to a queued record.
 *
 * <p>Threading: {@link #offer} on application threads (lock-free unless the queue is full);
 * {@link #drainHere} on any thread: it takes the handler's monitor and then the queue's lock, the
 * one order every drain uses (the writer thread's too), so a caller that already holds the monitor
 * (Java 17's {@code synchronized flush()}/{@code close()}) can drain without deadlock.
 */
final class JulCaptureLog implements CapturedRecordEncoder<JulCapture> {

    private static final int BATCH = 64;

    final FileHandler handler;
    /** The handler's formatter when this log was made; a record is captured only while it is still the handler's. */
    final Formatter formatter;
    final JulFormat format;
    private final MpscCapturedRecordQueue<JulCapture> queue;
    private final CapturedLogWriterPool.Registration writer;
    /** Deferred messages' patterns, parsed once (used by the drainer only: under the queue's drain lock). */
    private final JulMessageFormats messageFormats = new JulMessageFormats();
    private volatile boolean retired;
    private final JulHandlerWrite writes;
    private final BiConsumer<String, String> errors;

    /** The line's bytes written into the handler's meter instead of through its Writer, where provably the same. */
    final JulDirectWrite direct;
    /**
     * The handler's mapped journal (issue 33), or null: not journaled ({@link JulJournalWriter}). Made with
     * the log, or later, once ({@link #journalNow}), when its file was not routed yet at its first record:
     * an agent attached to a running host captures the open handler's records a moment before it takes
     * its file over.
     */
    private volatile JulJournalWriter journal;
    /** Its file was not routed at the first record: the next records try again, until it is. */
    private volatile boolean journalLater;
    private final JulCaptureSettings settings;
    /** {@link #makeJournalRoom} made once (no allocation per call). */
    final BooleanSupplier journalRoom = this::makeJournalRoom;

    JulCaptureLog(FileHandler handler, Formatter formatter, JulFormat format, String name, JulCaptureSettings settings,
                  JulHandlerWrite writes) {
        this.handler = handler;
        this.writes = writes;
        this.errors = settings.errors();
        this.direct = new JulDirectWrite(writes, settings.routesCleanly());
        this.formatter = formatter;
        this.format = format;
        this.queue = new MpscCapturedRecordQueue<>(name, settings.capacity(), settings.policy(), settings.waitMillis());
        // drained by the shared pool, whose threads are not Spool's own: a rotation it runs must route the next file (JUL_METER)
        this.settings = settings;
        this.journal = JulJournalWriter.open(handler, formatter, format, writes, settings.journalFiles(), errors);
        this.journalLater = journal == null && JulJournalWriter.notRoutedYet(handler, format, writes, settings.journalFiles());
        this.writer = CapturedLogWriterPool.shared().register("jul " + name, this::drainBatch, queue);
    }

    /**
     * The journal a caller appends its record to, or null: made now, once, if the log's first record
     * came before its file was routed and the file is routed now (any caller thread).
     */
    JulJournalWriter journalNow() {
        JulJournalWriter j = journal;
        if (j != null || !journalLater) {
            return j;
        }
        synchronized (this) {
            if (journal == null && journalLater
                    && !JulJournalWriter.notRoutedYet(handler, format, writes, settings.journalFiles())) {
                journalLater = false;
                journal = JulJournalWriter.open(handler, formatter, format, writes, settings.journalFiles(), errors);
                AgentLog.debug("JUL journal of " + queue.name() + (journal == null ? ": still none" : ": made now, its file"
                        + " routed after its first record"));
            }
            return journal;
        }
    }

    /** Whether this thread is writing this log's records now (its publish and flush come back here). */
    boolean drainingHere() {
        return queue.isDrainingThread();
    }

    boolean retired() {
        return retired;
    }

    /**
     * Hands a captured record to the writer. A caller holding the handler's monitor (a handler
     * whose {@code publish} could not be unlocked) makes room by draining itself rather than
     * waiting for a writer that needs that monitor.
     *
     * @return false when the record was dropped (the queue's policy; counted by the queue)
     */
    boolean offer(JulCapture record) {
        if (queue.tryOffer(record)) {
            return true;
        }
        if (Thread.holdsLock(handler)) {
            drainHere();
            if (queue.tryOffer(record)) {
                return true;
            }
        }
        return queue.offer(record);
    }

    /**
     * The pool's step. Unlike Logback's appender lock, a handler's monitor cannot be tried (Java has no
     * try-enter for a monitor), and it must be taken before the queue's lock on every thread (a host's
     * {@code flush()}/{@code close()} holds it when it drains): so a pool thread waits while a host
     * holds it. It never waits for nothing: an empty queue (a host's flush just drained it) is left alone.
     */
    private int drainBatch() {
        if (queue.isEmpty()) {
            return 0;
        }
        synchronized (handler) {
            return drainMarked(BATCH);
        }
    }

    /**
     * Writes at most {@code max} captured records (the handler's monitor held) on Spool's behalf
     * ({@code Hooks.markOnSpoolsBehalf}: a rotation's look at the folder waits for no other log),
     * then settles the journal (what the sink has written leaves it).
     */
    private int drainMarked(int max) {
        boolean was = Hooks.markOnSpoolsBehalf(true);
        try {
            int n = queue.drainTo(this, max);
            settleJournal();
            return n;
        } finally {
            Hooks.markOnSpoolsBehalf(was);
        }
    }

    /** Writes every record captured before this call through the handler, on this thread. */
    void drainHere() {
        synchronized (handler) {
            // under the monitor no other drain runs, so every record offered before is among size()
            drainMarked(Math.max(1, queue.size()));
        }
    }

    /**
     * A caller whose record found the journal's ring full (the sink is behind): under the handler's
     * monitor, writes every record captured before, then waits (bounded by the sink's wait) until the
     * sink wrote them, so their frames leave the ring: the caller waits for the sink's backlog of this
     * log, as a synchronous handler waits for its own write.
     *
     * @return false when the sink did not write them within its wait
     */
    boolean makeJournalRoom() {
        synchronized (handler) {
            drainMarked(Math.max(1, queue.size()));
            JulJournalWriter j = journal;
            return j != null && j.awaitSink();
        }
    }

    /**
     * A record whose capture failed as the JDK's format would have (its host code threw,
     * {@link JulCapture.HostCodeFailed}): under the handler's monitor, what was captured before is written, then
     * {@code failure} goes to the handler's {@code reportError(null, failure, FORMAT_FAILURE)} and, on Java 17,
     * the flush and limit check that follow ({@link JulHandlerWrite#formatFailed}), on the caller's thread, as
     * plain JUL's {@code publish} does under its lock.
     */
    void formatFailedAtCall(Exception failure) {
        synchronized (handler) {
            drainMarked(Math.max(1, queue.size()));
            writes.formatFailed(handler, failure);
        }
    }

    /** Drains, then ends the writer thread; later records of the handler take the host's path. */
    void retire() {
        retired = true;
        journalLater = false;
        drainHere();
        JulJournalWriter j;
        synchronized (this) {
            j = journal; // made by a caller meanwhile or not: no later one
        }
        if (j != null) {
            synchronized (handler) {
                j.retire(); // after the sink wrote every line: the journal goes
            }
        }
        writer.stop();
        AgentLog.debug("JUL capture of " + queue.name() + " ended: records " + direct.counts());
    }

    /**
     * Formats and writes one captured record (the drainer, holding the handler's monitor). Never the
     * handler's {@code publish}: that would ask {@code isLoggable} again and format with the handler's
     * formatter of now. A text Spool fails to make (a fault of Spool's, counted) is the JDK formatter's
     * of the record as it is now (the host's own formatter, best effort); failing too, it goes to the
     * handler's {@code ErrorManager} as the JDK's format failure would.
     */
    @Override
    public void encode(JulCapture record) {
        JulJournalWriter j = journal;
        if (j == null || record.journalAt < 0) {
            write(record);
            return;
        }
        j.beforeWrite(record, handler, writes);
        try {
            write(record);
        } finally {
            j.afterWrite(record);
        }
    }

    /** The drainer (the handler's monitor held): journaled lines that reached the file are trimmed. */
    private void settleJournal() {
        JulJournalWriter j = journal;
        if (j != null) {
            try {
                j.settle();
            } catch (RuntimeException e) {
                errors.accept("jul-journal", "the journal of " + queue.name() + " could not be trimmed (" + e + ")");
            }
        }
    }

    private void write(JulCapture record) {
        String text;
        try {
            text = format.format(record, messageFormats); // a deferred message with the log's parsed patterns
        } catch (RuntimeException e) {
            errors.accept("jul-format", "Spool could not format a captured JUL record (" + e + "): the JDK formats it");
            try {
                text = formatter.format(record.original);
            } catch (RuntimeException again) {
                writes.formatFailed(handler, again);
                return;
            }
        }
        writes.write(handler, formatter, text, direct);
    }

    MpscCapturedRecordQueue<JulCapture> queue() {
        return queue;
    }
}
