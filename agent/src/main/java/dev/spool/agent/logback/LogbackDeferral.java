package dev.spool.agent.logback;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Logback's encoding off the application's thread: for each routed file appender whose encoder
 * {@link LogbackEncoders} accepts, the appender's {@code writeOut} hands the prepared event to a
 * {@link DeferredAppender} (a {@code dev.spool.internal.handoff} queue) and returns; a thread of the shared
 * {@code CapturedLogWriterPool} ({@code spool-capture-writer-<i>}) encodes and writes them under the appender's
 * own lock.
 *
 * <p>What runs where: the caller's thread keeps everything plain Logback does before
 * {@code writeOut} (filters, the rolling check and the roll itself, {@code prepareForDeferredProcessing}),
 * plus the caller data when the pattern prints it (as Logback's {@code AsyncAppender} does with
 * {@code includeCallerData}; where the context's {@code frameworkPackages} could let Logback's frame
 * filtering see Spool's frames, {@link CallerFrames}, such events take Logback's own path); the
 * encoding thread runs the appender's encoder and its private {@code writeBytes}. Closing the stream (a roll, {@code stop()}, a new stream) first writes every
 * event captured before, on the closing thread, so footers and rolls fall between the same events
 * as plain. Rolling appenders whose policy reads bytes written ({@code SizeBasedTriggeringPolicy},
 * {@code SizeAndTimeBasedRollingPolicy}) keep encoding on the caller's thread: their check before
 * each event must see the previous events' bytes.
 *
 * <p>Thread-safe. The registry is a copy-on-write identity map read without locking (appenders
 * are few, written at stream changes only); an appender that has captured and is stopped is
 * forgotten (its thread ended) when the next appender's stream is routed. Lock-free for producers
 * while an appender's queue has room; see {@link DeferredAppender} for the full case.
 */
public final class LogbackDeferral {

    /** System property: {@code false} makes deferred appenders encode with Logback's own encoder (measurement). */
    public static final String COMPILED_PROPERTY = "spool.logback.compiledLayout";
    /** Plain-path reason per event: the journal cannot hold the event exactly, so Logback encodes it (its bytes journaled). */
    static final String JOURNAL_REFUSED = "logback-event-journal";
    private static final String JOURNAL_SENTENCE = "an event the journal cannot hold exactly ({}; e.g. a key-value value or"
            + " marker of the application's own class) is encoded on the caller's thread by Logback and its bytes are"
            + " journaled as written";

    private final BiConsumer<String, String> errors;
    private final long waitMillis;
    private final dev.spool.agent.internal.PlainPaths plainPaths;
    /** Whether deferred appenders encode with a {@link CompiledPatternLayout} (diagnostic switch, default on). */
    private final boolean compiledLayouts = !"false".equals(System.getProperty(COMPILED_PROPERTY));
    /**
     * Whether appenders whose events Logback encodes on the caller's thread are journaled as well
     * ({@code spool.sink.journal.hostBytes}, issue 33, {@link CallerEncodedJournals}; on by default since 5 Dec:
     * their journal exists only while it may hold lines, so a host listing the folder finds none, as 25 of
     * Logback's own rolling tests require, {@code PeerSuiteIT}). Set once, before any routing.
     */
    private volatile boolean journalCallerEncoded;
    private boolean exitHook;
    /** The journals of routed appenders whose events Logback encodes on the caller's thread (issue 33). */
    private final CallerEncodedJournals callerEncoded;
    private volatile Map<Object, DeferredAppender> appenders = new IdentityHashMap<>();
    /** Takes what cannot wait from each event on the caller's thread, or leaves it to Logback (counted). */
    private final LogbackEventCapture caller;

    /**
     * @param errors     receives (key, message) for failures Spool counts
     * @param waitMillis the bound on every wait (a producer at a full queue, a drain waiting for an appender's lock)
     */
    public LogbackDeferral(BiConsumer<String, String> errors, long waitMillis) {
        this(errors, waitMillis, null);
    }

    /** @param plainPaths counts and names an appender whose encoder, set later, Spool cannot run (null: not counted) */
    public LogbackDeferral(BiConsumer<String, String> errors, long waitMillis, dev.spool.agent.internal.PlainPaths plainPaths) {
        this.errors = errors;
        this.waitMillis = waitMillis;
        this.plainPaths = plainPaths;
        this.caller = new LogbackEventCapture(plainPaths);
        this.callerEncoded = new CallerEncodedJournals(errors);
    }

    /**
     * The appender's stream was just routed: its events are captured from now on if its encoder
     * allows and its policy does not roll by bytes written; else they stay on the caller's thread.
     *
     * @return null when deferred, else why not
     */
    public NotDeferred routed(Object appender, boolean rollsByBytes) {
        return routed(appender, rollsByBytes, null, null);
    }

    /**
     * As {@link #routed(Object, boolean)}, and a deferred appender journals its events (issue 33) into
     * {@code <file>.spool-logback-journal} while it writes {@code stream} ({@code journals} null: no journal).
     * On the host's thread that opens the appender's file, under the appender's lock.
     */
    public NotDeferred routed(Object appender, boolean rollsByBytes, Object stream,
                              dev.spool.agent.journal.JournalFiles journals) {
        NotDeferred reason;
        try {
            Object encoder = appender.getClass().getMethod("getEncoder").invoke(appender);
            LogbackEncoders.Shape shape = LogbackEncoders.shape(encoder);
            RollingCheck check = rollsByBytes ? RollingCheck.of(appender) : null;
            reason = rollsByBytes && check == null ? new NotDeferred("logback-rolls-by-bytes",
                    "its triggering policy counts the bytes written before each event")
                    : shape.deferrable() ? null : new NotDeferred(shape.key(), shape.reason());
            if (reason == null) {
                sweep();
                DeferredAppender d = appenders.get(appender);
                // another encoder keeps the conduit: it notices the change at the next event (DeferredAppender.current);
                // a new one here could strand events queued on the old one by a caller switching encoders during a roll
                if (d == null || d.checksRolling() != (check != null)) {
                    if (d != null) {
                        d.active(false); // the old encoder's events are written at this stream's close
                    }
                    d = DeferredAppender.of(appender, encoder, shape, waitMillis, compiledLayouts ? this::compiledGivenUp : null,
                            check, this::uncheckedRoll, this::queueFull);
                    if (plainPaths != null) {
                        Object owner = appender;
                        d.plainReport = later -> plainPaths.plain(owner, later.key(),
                                "encoded on the caller's thread (bytes routed) since setEncoder: " + later.reason());
                        d.refusedReport = why -> caller.plainEvent(owner, JOURNAL_REFUSED, JOURNAL_SENTENCE, why);
                    }
                    put(appender, d);
                }
                d.active(true);
                if (journals != null) {
                    // the journals' files are Spool's own: unmarked, creating or removing one in the log's folder is
                    // taken for the host's look and drains this appender in the middle of its roll (events lost)
                    boolean was = dev.spool.bridge.Hooks.markSpoolThread(true);
                    try {
                        retireStoppedJournals(d, journals.file(stream));
                        d.journalStream(stream, journals, errors, callerEncoded.handOver(appender));
                    } finally {
                        dev.spool.bridge.Hooks.markSpoolThread(was);
                    }
                }
                return null;
            }
            if (journals != null && journalCallerEncoded) {
                journalCallerEncoded(appender, encoder, stream, journals);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            reason = new NotDeferred("logback-inaccessible", "Logback's appender is not accessible (" + e + ")");
        }
        unrouted(appender);
        return reason;
    }

    /**
     * The host lists or deletes {@code path} (a log's folder, or a file in it): the journals there that hold
     * nothing to replay go first, of appenders Spool defers ({@link DeferredAppender#putAwayIdle}: for the folder
     * or the log itself, never for another file in it, such as a compression's temp file) and of those it does
     * not ({@link CallerEncodedJournals#putAwayIdle}).
     */
    public void putAwayIdleJournals(java.nio.file.Path path) {
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // the removal is Spool's own file operation
        try {
            for (DeferredAppender d : appenders.values()) {
                try {
                    d.putAwayIdle(path);
                } catch (RuntimeException e) {
                    errors.accept("logback-journal", "removing an idle journal in " + path + " failed (" + e + ")");
                }
            }
            callerEncoded.putAwayIdle(path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
    }

    /** {@code spool.sink.journal.hostBytes}: journal appenders Spool does not defer too (before any routing). */
    public void journalHostBytes(boolean on) {
        journalCallerEncoded = on;
    }

    /**
     * An appender whose events Logback encodes on the caller's thread (issue 33): the bytes its
     * routed stream receives are journaled ({@link CallerEncodedJournals}), after a stopped appender's
     * journal of the same file and this one's deferred journal (an encoder Spool ran before) went.
     */
    private void journalCallerEncoded(Object appender, Object encoder, Object stream, dev.spool.agent.journal.JournalFiles journals) {
        java.nio.file.Path file = journals.file(stream);
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // Spool's own file operations, as above
        try {
            DeferredAppender d = appenders.get(appender);
            if (d != null && file != null && d.journals(file)) {
                // Deferred before (an encoder set since, the roll running on Spool's thread with events still queued):
                // its journal goes on, so those events keep their frames and Logback's own bytes become BYTES frames in
                // it. Retiring it here left it on disk with the queued events' frames, and the next start of routing
                // replayed lines already written (LogbackRollingIT, 4 of 6 runs with hostBytes on).
                d.journalStream(stream, journals, errors, null);
                exitHook();
                return;
            }
            retireStoppedJournals(appender, file);
            callerEncoded.routed(appender, encoder, stream, journals);
            exitHook();
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
    }

    /**
     * A reconfiguration (Spring Boot's, {@code scan}) stops an appender and starts another on the same
     * file: the stopped one's journal (its events reached the file at its close) goes, so the new one
     * can create its own. Tried only: a stopped appender's lock held by another thread keeps its journal.
     */
    private void retireStoppedJournals(Object starting, java.nio.file.Path file) {
        if (file == null) {
            return;
        }
        for (Map.Entry<Object, DeferredAppender> e : appenders.entrySet()) {
            DeferredAppender other = e.getValue();
            if (other != starting && e.getKey() != starting && other.journals(file) && !isStarted(e.getKey())) {
                other.retireJournal();
            }
        }
        callerEncoded.retireStopped(starting instanceof DeferredAppender d ? d.appender() : starting, file,
                LogbackDeferral::isStarted);
    }

    /** Why an appender's events are encoded on the caller's thread: the plain-path reason ({@code key}) and the sentence. */
    public record NotDeferred(String key, String sentence) {}

    /** The appender's new stream is not routed: its events stay on the caller's thread. */
    public void unrouted(Object appender) {
        DeferredAppender d = appenders.get(appender);
        if (d != null) {
            d.active(false);
        }
    }

    /** The woven {@code writeOut(event)}: true when the event was captured (Logback's body is skipped). */
    public boolean capture(Object appender, Object event) {
        DeferredAppender d = appenders.get(appender);
        return d != null && d.capture(event, caller);
    }

    /**
     * The woven {@code RollingFileAppender.subAppend(event)}: true when the event was captured with its
     * rolling check moved to the encoding thread (Logback's body, check included, is skipped).
     */
    public boolean captureChecked(Object appender, Object event) {
        DeferredAppender d = appenders.get(appender);
        return d != null && d.checksRolling() && d.captureChecked(event, caller);
    }

    /** Whether the appender's rolling check runs on the encoding thread (status, routing line). */
    public boolean checksRolling(Object appender) {
        DeferredAppender d = appenders.get(appender);
        return d != null && d.checksRolling();
    }

    /** The woven {@code closeOutputStream()}: the events captured before are written first, on this thread. */
    public void closing(Object appender) {
        DeferredAppender d = appenders.get(appender);
        if (d != null) {
            d.drainHere();
        }
    }

    /**
     * Before the host looks at the appender's files: what it captured is written, and a batch being
     * written now (a roll on Spool's thread) is waited for (under its locks, as {@link #closing}).
     */
    public void beforeHostLooks(Object appender) {
        DeferredAppender d = appenders.get(appender);
        if (d != null) {
            d.drainForReader();
        }
    }

    /** Whether nothing the appender captured waits or is being written now (true when it captures nothing). */
    public boolean idle(Object appender) {
        DeferredAppender d = appenders.get(appender);
        return d == null || d.idle();
    }

    /** Whether this thread holds the appender's lock (or its policy's) or drains its queue: it is the appender's writer now. */
    public boolean writesHere(Object appender) {
        DeferredAppender d = appenders.get(appender);
        return d != null && d.writesHere();
    }

    /** Writes what every appender has queued (Spool's flush, the kill switch, exit); each lock waited for at most {@code millis}. */
    public void drainAll() {
        long millis = waitMillis;
        for (DeferredAppender d : appenders.values()) {
            try {
                if (!d.drainWithin(millis)) {
                    errors.accept("logback-drain:" + d.name(), "the appender " + d.name() + " held its lock for "
                            + millis + " ms: its captured events are written when it lets go");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Spool's exit: what every appender queued is written, then each journal goes once the sink wrote its lines (issue 33). */
    private void drainAllAtExit() {
        dev.spool.bridge.Hooks.markSpoolThread();
        drainAll();
        for (DeferredAppender d : appenders.values()) {
            try {
                d.retireJournal();
            } catch (RuntimeException e) {
                errors.accept("logback-journal", "retiring the journal of " + d.name() + " at exit failed (" + e + ")");
            }
        }
        callerEncoded.retireAll();
    }

    /** How a deferred appender's events are encoded, for the routing log line: " (compiled layout, k of n converters by Logback)" or " (Logback's encoder)". */
    public String encoding(Object appender) {
        DeferredAppender d = appenders.get(appender);
        CompiledPatternLayout c = d == null ? null : d.compiled();
        return c == null ? " (Logback's encoder)" : " (compiled layout, " + c.delegated() + " of " + c.size() + " converters by Logback)";
    }

    /** How many appenders capture now (status, tests). */
    public int deferring() {
        int n = 0;
        for (DeferredAppender d : appenders.values()) {
            n += d.active() ? 1 : 0;
        }
        return n;
    }

    private void uncheckedRoll(String sentence) {
        errors.accept("logback-roll-unchecked", sentence);
    }

    private void queueFull(String sentence) {
        errors.accept("logback-full:" + sentence.substring(0, sentence.indexOf(" stayed full")), sentence); // one line per appender
    }

    private void compiledGivenUp(String sentence) {
        errors.accept("logback-compiled:" + sentence, sentence); // one line per pattern
    }

    private synchronized void put(Object appender, DeferredAppender d) {
        Map<Object, DeferredAppender> next = new IdentityHashMap<>(appenders);
        DeferredAppender old = next.put(appender, d);
        appenders = next;
        if (old != null) {
            old.stop(); // its writer drains once more and ends; closing the stream writes the rest
        }
        exitHook();
    }

    private synchronized void exitHook() {
        if (!exitHook) {
            exitHook = true;
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(this::drainAllAtExit, "spool-logback-exit"));
            } catch (IllegalStateException e) {
                // already exiting: closing the appenders writes what is queued
            }
        }
    }

    /** Forgets appenders that captured and are stopped now (they leave the pool). */
    private synchronized void sweep() {
        Map<Object, DeferredAppender> next = null;
        for (Map.Entry<Object, DeferredAppender> e : appenders.entrySet()) {
            if (e.getValue().everCaptured() && !isStarted(e.getKey())) {
                // No drain here: stop() drained at its close, and a restarting appender may hold its
                // lock while it waits for this monitor (routed() from its openFile). Its writer's
                // last drain takes the lock on the writer's own thread.
                e.getValue().active(false);
                boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // removing its journal is Spool's own file operation
                try {
                    e.getValue().retireJournal(); // tried only (never waits for its lock): its events reached the file at its close
                } finally {
                    dev.spool.bridge.Hooks.markSpoolThread(was);
                }
                e.getValue().stop();
                if (next == null) {
                    next = new IdentityHashMap<>(appenders);
                }
                next.remove(e.getKey());
            }
        }
        if (next != null) {
            appenders = next;
        }
    }

    private static boolean isStarted(Object appender) {
        try {
            return Boolean.TRUE.equals(appender.getClass().getMethod("isStarted").invoke(appender));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
