package dev.spool.agent.jul;

import dev.spool.agent.internal.AgentLog;
import dev.spool.agent.internal.PlainPaths;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;
import java.util.logging.XMLFormatter;

/**
 * JUL capture at the call (issue 13): decides per {@code FileHandler.publish} whether Spool takes
 * the record, and serves the handlers' flush and close.
 *
 * <p>A {@code FileHandler} is captured when routing is on (its file goes through the sink), its
 * formatter is exactly the JDK's {@code SimpleFormatter} or {@code XMLFormatter}, it has no
 * filter (asked at the call, a filter would run outside the handler's lock) and its class keeps
 * {@code StreamHandler}'s {@code isLoggable} (an override could not be asked as of the call). A
 * {@code SimpleFormatter}'s format string and an {@code XMLFormatter}'s {@code useInstant} are
 * read from the handler's own formatter ({@link JulPrivateAccess}); a format Spool does not reproduce, another formatter (a subclass, the application's)
 * or a filter keep today's path (formatting on the caller's thread, bytes routed). On the caller's
 * thread: the level check (see {@link #publish}), then {@link JulFormat#capture}, then the queue;
 * the writer never asks the handler's {@code isLoggable} or formatter again ({@link JulCaptureLog}).
 * A formatter or filter set later is noticed at the next call: everything captured before is
 * written first, as of its call, and that record and every later one take the host's path.
 *
 * <p>Thread-safe: the handlers' logs are a copy-on-write array (few handlers; a lookup is a scan
 * by identity, no lock, no allocation); creating and retiring a log takes this object's lock.
 * Made by {@link JulCaptures} at the first {@code publish} or {@code FileHandler} open (its append mode,
 * for a journal's recovery), never at the agent's start: verifying
 * this class loads {@code FileHandler}, which must first be loaded through the weaver.
 */
final class JulCaptureHandlers {

    private static final JulCaptureLog[] NONE = new JulCaptureLog[0];
    /** {@code Handler.isLoggable} refuses every record at a level of this value ({@code Level.OFF}'s), whatever the level object. */
    private static final int OFF_VALUE = Level.OFF.intValue();
    /** Refused handlers remembered by identity (strong references: a bound keeps closed ones from piling up). */
    static final int MAX_REFUSED = 64;

    private final JulCaptureSettings settings;
    private final BiConsumer<String, String> errors;
    private final JulPrivateAccess access;
    private final JulSources sources;
    /** The handlers' private fields and methods the writer writes through (null: nothing is captured). */
    private final JulHandlerWrite writes;
    /** Whether a handler class keeps {@code StreamHandler.isLoggable} (an override is refused: it is asked at the call only). */
    private static final ClassValue<Boolean> KEEPS_IS_LOGGABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("isLoggable", LogRecord.class).getDeclaringClass() == StreamHandler.class;
            } catch (NoSuchMethodException | RuntimeException e) {
                return false;
            }
        }
    };

    /** The journals of handlers left on the host's path (issue 33), or null: no journal. */
    private final JulHostBytesJournals hostBytes;
    private volatile JulCaptureLog[] logs = NONE;
    /** Handlers found not capturable (by identity), so the decision is made once. */
    private volatile Handler[] refused = new Handler[0];
    private int created;

    JulCaptureHandlers(JulCaptureSettings settings) {
        this.settings = settings;
        this.errors = settings.errors();
        StringBuilder why = new StringBuilder();
        JulPrivateAccess opened = JulPrivateAccess.open(settings.inst(), why);
        this.writes = opened == null ? null : JulHandlerWrite.open(why);
        this.access = writes == null ? null : opened;
        this.sources = JulSources.of(access, errors);
        this.hostBytes = writes == null || settings.journalFiles() == null ? null
                : new JulHostBytesJournals(writes, settings.journalFiles(), errors);
        if (access != null && !JulDefaultZone.open(settings.inst())) {
            AgentLog.debug("JUL capture: the default time zone is copied per record (java.util cannot be read)");
        }
        AgentLog.debug(access != null ? "JUL capture: sources of captured records inferred by Spool's caller finder"
                : "JUL capture off: java.util.logging cannot be read (" + why + ")");
        if (access != null && !JulDirectWrite.ENABLED) {
            AgentLog.debug("JUL capture: every line through the handler's Writer (" + JulDirectWrite.SWITCH + "=false)");
        }
    }

    /** The woven {@code FileHandler.publish}: true when the record was taken (or is not loggable). */
    boolean publish(Object handlerObject, Object recordObject) {
        if (!(handlerObject instanceof FileHandler) || !(recordObject instanceof LogRecord)) {
            return false;
        }
        FileHandler handler = (FileHandler) handlerObject;
        LogRecord record = (LogRecord) recordObject;
        JulCaptureLog log = find(handler);
        if (log == null) {
            log = open(handler);
            if (log == null) {
                if (hostBytes != null) {
                    hostBytes.open(handler); // formatted on the caller's thread: its bytes are journaled as written (once)
                }
                awaitRotation(handler);
                return false;
            }
        }
        if (log.drainingHere()) {
            log.direct.hostWrites(); // logged while this thread writes the handler's records (an exception's message that logs)
            return false; // that re-entrant record: the host's path
        }
        if (!settings.routing().getAsBoolean() || handler.getFormatter() != log.formatter || handler.getFilter() != null) {
            log.direct.hostWrites();
            log.drainHere(); // everything captured goes first; this record takes the host's path
            if (handler.getFormatter() != log.formatter || handler.getFilter() != null) {
                retire(log);
                plain(handler, "jul-changed", "its formatter or filter was changed after its first record");
                if (hostBytes != null) {
                    hostBytes.open(handler); // its captured journal retired above: the host's bytes are journaled now
                }
            }
            return false;
        }
        // Handler.isLoggable's level check, the only one the record gets (the writer never asks again): by value,
        // as the JDK's (a level of its own whose value is OFF's refuses every record too, issue 30). A rotation on
        // the writer thread sets the level to OFF for a moment, under the handler's monitor (plain JUL rotates on the
        // caller's thread, under the lock): OFF's value is believed only when it holds under the monitor.
        Level level = handler.getLevel();
        if (level.intValue() == OFF_VALUE) {
            synchronized (handler) {
                level = handler.getLevel();
            }
        }
        int levelValue = level.intValue();
        if (levelValue == OFF_VALUE || record.getLevel().intValue() < levelValue) {
            return true; // as the original: nothing written
        }
        JulCapture captured;
        try {
            if (log.format.readsSource()) {
                sources.infer(record); // here, not in capture: every frame between the logger and the walk costs (~0.25 µs)
            }
            if (runsHostCode(record)) {
                // plain JUL runs this code in the format, under the handler's monitor: one thread at a time. Run
                // concurrently it can answer otherwise (seed 124 of the JUL fuzz: a Date parameter's toString() gave
                // "GMT+12:45" for Pacific/Chatham on one of four threads, "CHAST" under plain)
                synchronized (handler) {
                    captured = log.format.capture(record, sources);
                }
            } else {
                captured = log.format.capture(record, sources);
            }
        } catch (JulCapture.HostCodeFailed e) {
            // the JDK's format would have failed here, after the same host code: reported as it reports it, in order,
            // and never formatted again (the host's path would run that code a second time, issue 30)
            log.formatFailedAtCall(e.failure());
            return true;
        } catch (RuntimeException e) {
            log.direct.hostWrites();
            log.drainHere(); // the original formats it again and reports to the handler's ErrorManager
            return false;
        }
        JulJournalWriter journal = log.journalNow();
        if (journal != null) {
            journal.append(captured, log.journalRoom); // the kernel's once stored: survives a kill -9 (issue 33)
        }
        if (!log.offer(captured)) {
            if (journal != null) {
                journal.notQueued(captured);
            }
            errors.accept("jul-drop", "a captured JUL record was dropped (" + log.queue().lastError() + "; "
                    + log.queue().dropped() + " so far)");
        } else if (log.retired()) {
            log.drainHere(); // retired while this record was captured: its last drain may have run before the offer
        }
        return true;
    }

    /**
     * Whether capturing {@code record} runs code of the host's or JDK code with shared state at the call (a
     * parameter that is not an immutable JDK value, a thrown, a resource bundle): the capture then holds the
     * handler's monitor, as plain JUL's format does.
     */
    private static boolean runsHostCode(LogRecord record) {
        Object[] parameters = record.getParameters();
        return record.getThrown() != null || record.getResourceBundle() != null
                || parameters != null && parameters.length > 0 && !JulMessages.allImmutable(parameters);
    }

    /**
     * Before a record takes the host's path: a rotation under way finishes first. Java 21+'s {@code publish}
     * asks {@code isLoggable} before it takes the handler's lock, and {@code rotate()} turns the level OFF
     * while it closes and reopens the file, so a record another thread publishes then is dropped. Plain, that
     * window is a file's close; routed, the close drains the sink (ms: 528 records of one thread were
     * dropped at a rotation on Java 25). Waiting for the handler's lock while its level is OFF keeps the
     * window plain's (Java 17's {@code publish} holds the lock throughout: nothing changes there).
     */
    private static void awaitRotation(FileHandler handler) {
        if (handler.getLevel() == Level.OFF) {
            synchronized (handler) {
                // nothing: the rotation holding the lock has restored the level once it is ours
            }
        }
    }

    /** The woven {@code StreamHandler.flush()} / {@code FileHandler.close()}: what was captured goes first. */
    void drain(Object handler, String method) {
        if (hostBytes != null && "close".equals(method)) {
            hostBytes.closing(handler);
        }
        JulCaptureLog log = handler instanceof Handler ? find((Handler) handler) : null;
        if (log == null || log.drainingHere()) {
            return; // the handler's own flush after each record this thread publishes
        }
        if ("close".equals(method)) {
            retire(log);
        } else {
            log.drainHere();
        }
    }

    /** {@code handler} routed {@code stream} (a rotation's next file): a journal of its host's bytes follows it. */
    void routed(Object handler, Object stream) {
        if (hostBytes != null) {
            hostBytes.routed(handler, stream);
        }
    }

    /** Whether {@code handler} is a {@code FileHandler} that opens its file to append; null when unknown. */
    Boolean appends(Object handler) {
        return writes != null && handler instanceof FileHandler f ? writes.appends(f) : null;
    }

    /** {@code handler}'s generation-1 file when it is a rotating {@code FileHandler}; null otherwise or when unknown. */
    java.nio.file.Path generationOne(Object handler) {
        return writes != null && handler instanceof FileHandler f ? writes.generationOne(f) : null;
    }

    /** Whether nothing the handler captured waits or is being written now. */
    boolean idle(Object handler) {
        JulCaptureLog log = handler instanceof Handler ? find((Handler) handler) : null;
        return log == null || log.queue().idle();
    }

    /**
     * The agent's flush (CLI {@code flush}, the Agent bean, the kill switch): every record captured
     * before the call is handed to its handler when this returns, on the calling thread (each
     * handler's monitor, then its queue's lock: the order every drain takes).
     */
    void drainAll() {
        for (JulCaptureLog log : logs) {
            log.drainHere();
        }
    }

    /**
     * At exit: a handler the application never closed, and that JUL's own cleanup does not close (a
     * handler of an anonymous logger), still gets every record it captured. Bounded by the sink's
     * wait: the drains run on a daemon thread, which a handler's stuck monitor cannot keep alive.
     */
    private void drainAtExit() {
        Thread drains = new Thread(this::drainAll, "spool-jul-exit-drain");
        drains.setDaemon(true);
        drains.start();
        try {
            drains.join(Math.max(1, settings.waitMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (drains.isAlive()) {
            errors.accept("jul-exit", "the captured JUL records were not all written within " + settings.waitMillis() + " ms at exit");
        }
    }

    private JulCaptureLog find(Handler handler) {
        for (JulCaptureLog log : logs) {
            if (log.handler == handler) {
                return log;
            }
        }
        return null;
    }

    private synchronized JulCaptureLog open(FileHandler handler) {
        JulCaptureLog log = find(handler);
        if (log != null) {
            return log;
        }
        for (Handler h : refused) {
            if (h == handler) {
                return null;
            }
        }
        Formatter formatter = handler.getFormatter();
        JulFormat compiled = compiledFor(handler, formatter);
        if (compiled == null) {
            refuse(handler);
            return null;
        }
        if (created == 0) {
            Runtime.getRuntime().addShutdownHook(new Thread(this::drainAtExit, "spool-jul-exit"));
        }
        log = new JulCaptureLog(handler, formatter, compiled, Integer.toString(++created), settings, writes);
        JulCaptureLog[] l = Arrays.copyOf(logs, logs.length + 1);
        l[l.length - 1] = log;
        logs = l;
        return log;
    }

    /** Remembers a refused handler (at most {@link #MAX_REFUSED}: beyond, the oldest are decided again). */
    private synchronized void refuse(Handler handler) {
        Handler[] old = refused.length < MAX_REFUSED ? refused : Arrays.copyOfRange(refused, 1, refused.length);
        Handler[] r = Arrays.copyOf(old, old.length + 1);
        r[r.length - 1] = handler;
        refused = r;
    }

    private void retire(JulCaptureLog log) {
        synchronized (this) {
            JulCaptureLog[] l = Arrays.stream(logs).filter(x -> x != log).toArray(JulCaptureLog[]::new);
            logs = l;
            if (log.retired()) {
                return;
            }
            refuse(log.handler); // a handler once retired keeps the host's path
        }
        log.retire();
    }

    /**
     * The compiled form of the handler's formatter, or null when Spool cannot reproduce it exactly:
     * the handler then keeps the host's path (formatted on the caller's thread, bytes routed), counted
     * and named once by reason ({@code PlainPaths}).
     */
    private JulFormat compiledFor(StreamHandler handler, Formatter formatter) {
        java.util.logging.Filter filter = handler.getFilter();
        String reason = access == null ? "jul-inaccessible" : formatter == null ? "jul-formatter"
                : filter != null ? "jul-filter" : !KEEPS_IS_LOGGABLE.get(handler.getClass()) ? "jul-is-loggable" : null;
        if (reason != null) {
            plain(handler, reason, switch (reason) {
                case "jul-inaccessible" -> "java.util.logging cannot be read by Spool";
                case "jul-formatter" -> "it has no formatter";
                case "jul-filter" -> "it has a filter (" + filter.getClass().getName() + "), asked at the call";
                default -> "its class overrides isLoggable";
            });
            return null;
        }
        if (writes != null && settings.journalFiles() != null && handler instanceof FileHandler f
                && JulJournalCharsets.of(writes.writer(f)) == null) {
            // its lines could not be journaled (issue 33): the host's path formats them and journals their bytes as written
            plain(handler, "jul-charset", "its encoding " + f.getEncoding() + " keeps state between lines, which a journal"
                    + " of records cannot replay (JulJournalCharsets): its bytes are journaled as written");
            return null;
        }
        try {
            if (formatter.getClass() == XMLFormatter.class) {
                return new JulXmlFormat(access.useInstant((XMLFormatter) formatter));
            }
            if (formatter.getClass() == SimpleFormatter.class) {
                // the format string this formatter resolved when it was made (a later configuration change does not apply)
                return CompiledSimpleFormatter.compile(access.simpleFormat((SimpleFormatter) formatter));
            }
            plain(handler, "jul-formatter", "its formatter " + formatter.getClass().getName()
                    + " is not the JDK's SimpleFormatter or XMLFormatter");
            return null;
        } catch (IllegalArgumentException e) {
            plain(handler, "jul-format", "its SimpleFormatter's format is not one Spool reproduces (" + e.getMessage() + ")");
            return null;
        } catch (RuntimeException e) {
            errors.accept("jul-format", "cannot reproduce the formatter of a FileHandler (" + e + "): formatted on the caller's thread");
            plain(handler, "jul-formatter-unreadable", "its formatter cannot be read (" + e + ")");
            return null;
        }
    }

    private void plain(Handler handler, String reason, String sentence) {
        PlainPaths p = settings.plainPaths();
        if (p != null) {
            p.plain(handler, reason, "formatted on the caller's thread (bytes routed): " + sentence);
        }
    }
}
