package dev.spool.agent.logback;

import java.util.concurrent.locks.ReentrantLock;
import dev.spool.internal.handoff.CapturedLogWriterPool;
import dev.spool.internal.handoff.MpscCapturedRecordQueue;
import dev.spool.sink.SinkPolicy;

/**
 * One Logback file appender's captured events, waiting in a {@link MpscCapturedRecordQueue} to be
 * encoded and written by whoever holds the appender's own {@code streamWriteLock} (taken before
 * the queue's drain lock, on every thread): a thread of the shared
 * {@link CapturedLogWriterPool} ({@code spool-capture-writer-<i>}), or the thread that closes the appender's stream (a
 * roll, {@code stop()}), Spool's flush, or exit.
 *
 * <p>Assumptions: called only for an appender whose stream Spool routes and whose encoder
 * {@link LogbackEncoders#shape} accepted; the event reaching {@link #capture} has been through
 * Logback's {@code prepareForDeferredProcessing()} (the appender's {@code subAppend} does it).
 *
 * <p>Guarantees: every captured event is encoded with the appender's encoder (or, for a
 * {@code PatternLayout}, its {@link CompiledPatternLayout}: the same bytes) and written with the
 * appender's own {@code writeBytes} (its lock, its started check, its {@code immediateFlush}, its
 * byte count), in capture order, exactly once. {@link #capture} is lock-free while the queue has
 * room; full, it waits (bounded by the sink's {@code spool.sink.wait.millis}) and past the bound
 * writes what is queued on the caller's thread (its lock waited for at most the same bound), then
 * leaves the event to Logback's own path (encoded on the caller's thread: never lost, in order, counted).
 *
 * <p>A rolling appender whose check can move ({@link RollingCheck}) captures at {@code subAppend}
 * instead ({@link #captureChecked}): every drainer then holds its {@code triggeringPolicyLock} as well
 * (a host thread takes it before the stream lock, Logback's order; a pool thread only tries both) and
 * checks each event's roll just before writing it.
 *
 *
 * <p>This class is the callers' side (capture, the queue, the encoder set since); the writing side,
 * under the appender's locks, is {@link DeferredWrites}; the journal the events go into, {@link AppenderJournal}.
 *
 * <p>Example: {@code if (deferred.capture(event, caller)) return; // else Logback's writeOut runs}
 */
final class DeferredAppender {

    /** Events held per appender. */
    static final int CAPACITY = 4096;

    private final Object appender;
    private final String name;
    private final ReentrantLock lock;
    private final AppenderAccess access;
    private final MpscCapturedRecordQueue<Object> queue;
    private final RollingCheck rolling; // null: no check here (none, or on the caller's thread)
    private final long waitMillis;
    private volatile CapturedLogWriterPool.Registration writer;
    private volatile boolean active;
    private volatile boolean captured;
    private java.util.function.Consumer<String> fullReport;
    /** Receives why the journal refused an event (it took Logback's own path, journaled as bytes); null: none. */
    java.util.function.Consumer<String> refusedReport;
    /** Receives the shape of an encoder set later that Spool cannot run (its events take Logback's path); null: none. */
    java.util.function.Consumer<LogbackEncoders.Shape> plainReport;
    /** The appender's journal (issue 33): which one its events go into now. */
    private final AppenderJournal journal;
    /** Writes what is queued, under the appender's locks; holds the encoding. */
    private final DeferredWrites writes;
    /** {@link DeferredWrites#makeRoom}, made once (no allocation per event). */
    private final java.util.function.BooleanSupplier room;

    private DeferredAppender(Object appender, AppenderAccess access, long waitMillis, RollingCheck rolling,
                             java.util.function.Consumer<String> compiledReport, java.util.function.Consumer<String> problems) {
        this.appender = appender;
        this.name = AppenderAccess.name(appender) + '@' + Integer.toHexString(System.identityHashCode(appender));
        this.lock = access.lock();
        this.access = access;
        this.rolling = rolling;
        this.waitMillis = waitMillis;
        this.queue = new MpscCapturedRecordQueue<>("logback " + name, CAPACITY, SinkPolicy.BLOCK, waitMillis);
        this.journal = new AppenderJournal(appender, lock);
        this.writes = new DeferredWrites(name, access, queue, rolling, waitMillis, journal, compiledReport, problems);
        this.room = writes::makeRoom;
    }

    /**
     * A conduit for {@code appender}, its encoder inspected as {@code shape}, registered with the
     * shared pool, encoding with a {@link CompiledPatternLayout} of the encoder's layout when
     * {@code compiledReport} is not null (it receives the sentence if the compiled layout is ever given up),
     * checking each event's roll before it is written when {@code rolling} is not null
     * ({@code problems} receives the sentence when a check had to be skipped; {@code full} when the
     * queue stayed full and the event went Logback's own path).
     */
    static DeferredAppender of(Object appender, Object encoder, LogbackEncoders.Shape shape, long waitMillis,
                               java.util.function.Consumer<String> compiledReport, RollingCheck rolling,
                               java.util.function.Consumer<String> problems, java.util.function.Consumer<String> full)
            throws ReflectiveOperationException {
        DeferredAppender d = new DeferredAppender(appender, AppenderAccess.of(appender), waitMillis, rolling, compiledReport, problems);
        d.fullReport = full;
        d.writes.encoding(AppenderEncoding.of(encoder, shape, compiledReport));
        if (!d.writes.encoding().deferrable()) {
            throw new NoSuchMethodException(encoder.getClass().getName() + ".encode"); // shape accepted it: cannot happen
        }
        d.writer = CapturedLogWriterPool.shared().register("logback " + d.name, d.writes::drainBatch, d.queue);
        return d;
    }

    String name() {
        return name;
    }

    Object appender() {
        return appender;
    }

    /** Whether events are captured (false: the appender's stream is not routed now, or another encoder). */
    boolean active() {
        return active;
    }

    void active(boolean on) {
        active = on;
    }

    /** The encoder the queued events are (or the next ones will be) encoded with. */
    Object encoder() {
        return writes.encoding().encoder();
    }

    /** The compiled layout encoding this appender's events, or null (tests, status). */
    CompiledPatternLayout compiled() {
        return writes.encoding().compiled();
    }

    /** Whether an event was ever captured (a conduit created before its appender started is not swept). */
    boolean everCaptured() {
        return captured;
    }

    /** Nothing captured is waiting or being written now (a reader need not drain it). */
    boolean idle() {
        return queue.idle() && !lock.isLocked();
    }

    /** Whether this thread holds the appender's stream lock or its policy lock, or drains its queue. */
    boolean writesHere() {
        return lock.isHeldByCurrentThread() || (rolling != null && rolling.held()) || queue.isDrainingThread();
    }

    /** Whether this appender's rolling check runs where its events are written (its events come through {@link #captureChecked}). */
    boolean checksRolling() {
        return rolling != null;
    }

    boolean pending() {
        return !queue.isEmpty();
    }

    /**
     * On the caller's thread, inside the appender's {@code writeOut}: takes what cannot wait
     * (the caller data when the pattern prints it) and queues the event. False leaves the event to
     * Logback (after writing what is queued, so the caller's order holds).
     */
    boolean capture(Object event, StackTraceGetter caller) {
        AppenderEncoding e;
        if (rolling != null || !active || lock.isHeldByCurrentThread() || !(e = current()).deferrable()
                || !caller.capture(appender, event, e.callerData())) {
            drainHere(); // not captured (or a Logback that encodes under its lock): what is queued goes first
            return false;
        }
        captured = true;
        return journalAndQueue(event, event);
    }

    /**
     * Journals {@code event} and queues {@code item} (with its frame when journaled); false leaves the event to
     * Logback's own path on this thread (a rolling appender's check included): the journal refused it
     * ({@link #leftToLogback}), or the queue stayed full for the whole bound (what is queued is written first,
     * {@link #writeQueuedBeforeLogback}; its frame is not replayed).
     */
    private boolean journalAndQueue(Object event, Object item) {
        LogbackJournalWriter j = journal.now();
        long frame = j == null ? -1 : j.append(event, room);
        if (frame == LogbackJournalWriter.REFUSED) {
            return leftToLogback(j);
        }
        if (queue.offer(frame < 0 ? item : new LogbackJournalWriter.Journaled(item, frame, j))) {
            return true;
        }
        if (j != null) {
            j.notQueued(frame);
        }
        writeQueuedBeforeLogback();
        return false;
    }

    /**
     * The journal cannot hold the event exactly (a key-value pair or marker of the application's own
     * class): rather than queue it unjournaled, what is queued is written and the event takes Logback's
     * own path on this thread, whose bytes the journal stores as they are ({@link LogbackJournalWriter.Bytes}).
     * Counted by reason on the plain paths.
     */
    private boolean leftToLogback(LogbackJournalWriter j) {
        drainHere();
        java.util.function.Consumer<String> report = refusedReport;
        if (report != null) {
            report.accept(j.lastRefusal());
        }
        return false;
    }

    /**
     * On the caller's thread, at the entry of a rolling appender's {@code subAppend} (before plain Logback's
     * check): the clock the check will read, {@code prepareForDeferredProcessing}, the caller data when
     * the pattern prints it, then the event is queued; its check, roll, encoding and write happen on the
     * drainer. False leaves the event to Logback's own {@code subAppend} (the check on this thread), after
     * what is queued is written (checked).
     */
    boolean captureChecked(Object event, StackTraceGetter caller) {
        long clock = rolling.callerClock();
        AppenderEncoding e;
        if (!active || lock.isHeldByCurrentThread() || rolling.held() || !access.isStarted() || !(e = current()).deferrable()
                || !caller.prepare(event) || !caller.capture(appender, event, e.callerData())) {
            drainHere();
            return false;
        }
        captured = true;
        return journalAndQueue(event, new RollingCheck.Checked(event, clock));
    }

    /**
     * The queue stayed full for {@code spool.sink.wait.millis} (the pool's threads are busy elsewhere, or
     * this appender's lock is held): what it holds is written here, on the caller's thread, before the
     * event goes Logback's own path, so the appender's lines keep their order; the lock is waited for
     * at most the same bound again (past it the event is written before the queued ones: never lost,
     * counted). Reported once per appender.
     */
    private void writeQueuedBeforeLogback() {
        String outcome;
        try {
            outcome = drainWithin(waitMillis) ? "they were written on the logging thread, then the event by Logback's own path"
                    : "its lock stayed held " + waitMillis + " ms more: the event was written by Logback's own path before them";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = "the logging thread was interrupted: the event was written by Logback's own path before them";
        } catch (Throwable t) {
            outcome = "writing them failed (" + t + "): the event was written by Logback's own path";
        }
        if (fullReport != null) {
            fullReport.accept("the capture queue of the appender " + name + " stayed full for " + waitMillis
                    + " ms (Spool's writer threads were busy or its lock held): " + outcome + "; " + queue.dropped() + " so far");
        }
    }

    /**
     * Writes everything queued now on this thread, under the appender's lock (re-entrant: a closing
     * thread holds it); a rolling appender's policy lock is taken first (bounded), as Logback's order is.
     * Nothing on a thread already draining this queue (a roll's close on the drainer).
     */
    void drainHere() {
        if (queue.isEmpty() || queue.isDrainingThread()) {
            return;
        }
        writes.drainHere(null);
    }

    /**
     * Before the host looks at the appender's files (a read, a listing, an existence check): writes
     * what is queued, and waits for a batch another thread is writing now (with its roll), by taking
     * the appender's locks even when the queue is empty. Nothing on a thread already draining it.
     */
    void drainForReader() {
        if (!queue.isDrainingThread()) {
            writes.drainHere(null);
        }
    }

    /**
     * The encoding of the appender's encoder now (one field read, on the caller's thread, where plain
     * Logback's {@code writeOut} reads it). When the host has called {@code setEncoder} since, everything
     * queued is written first with the encoder it was appended under, then the new one is taken (deferred
     * only if Spool can run it; else its events take Logback's own path until the encoder changes again).
     */
    private AppenderEncoding current() {
        AppenderEncoding e = writes.encoding();
        Object now;
        try {
            now = access.encoder();
        } catch (Throwable t) {
            return e;
        }
        if (now == e.encoder()) {
            return e;
        }
        AppenderEncoding next = writes.drainHere(now);
        java.util.function.Consumer<LogbackEncoders.Shape> report = plainReport;
        if (next != e && next.refused() != null && report != null) {
            report.accept(next.refused()); // after the locks are let go: the report reads the appender's name and file
        }
        return next;
    }

    /** Like {@link #drainHere} but gives up after {@code millis} waiting for the lock; false if it did ({@link DeferredWrites#drainWithin}). */
    boolean drainWithin(long millis) throws InterruptedException {
        return writes.drainWithin(millis);
    }

    /** Leaves the pool after a last drain (the appender is stopped and forgotten). */
    void stop() {
        CapturedLogWriterPool.Registration w = writer;
        if (w != null) {
            w.stop();
        }
    }

    /** Routing gave the appender {@code stream} (its start, a roll), under its lock: its journal follows ({@link AppenderJournal#stream}). */
    void journalStream(Object stream, dev.spool.agent.journal.JournalFiles files, java.util.function.BiConsumer<String, String> errors,
                       LogbackJournalWriter handed) {
        journal.stream(stream, writes.encoding().encoder(), files, errors, handed);
    }

    /** Whether this appender journals {@code file} now. */
    boolean journals(java.nio.file.Path file) {
        return journal.journals(file);
    }

    /**
     * The host lists or deletes {@code path}, the log's folder or the log (its captured events written and the
     * sink drained first, {@code RoutedLogReads}): when nothing is queued and every line the journal took is in
     * the file, the journal is sealed and removed, so the host finds the folder as without the agent; the next
     * event makes it again ({@link ReopenableJournal}). The appender's lock is waited for briefly
     * ({@link CallerEncodedJournals#PUT_AWAY_WAIT_MILLIS}); a thread writing the appender itself (a roll's own
     * look, its drainer) leaves it. On a thread marked as Spool's.
     */
    void putAwayIdle(java.nio.file.Path path) throws InterruptedException {
        LogbackJournalWriter j = journal.now();
        if (j == null || writesHere() || !CallerEncodedJournals.lockToPutAway(path, j.file(), lock)) {
            return;
        }
        try {
            if (queue.idle() && journal.now() == j) {
                j.putAwayIfIdle();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Spool's exit, after the last drain: the journal goes once the sink wrote every line ({@link AppenderJournal#retire}). */
    void retireJournal() {
        journal.retire();
    }

    /** Events that stayed on Logback's path because the queue stayed full for the bound. */
    long overflowed() {
        return queue.dropped();
    }

    /** Accepts an event of a known class and computes its caller data on the caller's thread when asked. */
    interface StackTraceGetter {
        /**
         * False when the event's class is unknown, or its caller data or MDC map cannot be taken exactly here
         * (counted by reason for {@code appender}): the event is left to Logback.
         */
        boolean capture(Object appender, Object event, boolean callerData);

        /** Logback's {@code prepareForDeferredProcessing()} where the event has it (a {@code LoggingEvent}); false when it failed. */
        boolean prepare(Object event);
    }
}
