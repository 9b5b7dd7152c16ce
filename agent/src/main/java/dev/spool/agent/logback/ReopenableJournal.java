package dev.spool.agent.logback;

import dev.spool.agent.journal.MappedLogJournal;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * One {@link LogbackJournalWriter}'s journal as it is now ({@link #now}): made beside the log file
 * ({@link #create}), put away while idle when the host lists or deletes in the log's folder
 * ({@link #putAwayIfIdle}, a bounded number of times), made again at the same name by the next
 * caller that meets it sealed ({@link #reopen}), and never again once its writer is retired
 * ({@link #retire}).
 *
 * <p>Threads: {@link #now} on any thread (one volatile read); {@link #reopen} on a caller or a host
 * write that met the sealed journal, and {@link #retire}, under this object's monitor;
 * {@link #putAwayIfIdle} under the appender's lock, on a thread marked as Spool's.
 */
final class ReopenableJournal {
    /**
     * Put-aways made at once; after them one per {@link #PUT_AWAY_EVERY_NANOS} at most: each next line
     * makes a new 4 MiB journal (its blocks written), and a removed one's mapping lives until the GC
     * frees it, so a host listing its folder often while logging must not turn that into a stream of them.
     */
    static final int FREE_PUT_AWAYS = 4;
    static final long PUT_AWAY_EVERY_NANOS = 60_000_000_000L;

    /**
     * The journal now: replaced by a new one (same file, fresh ring) when a caller meets the one
     * {@linkplain #putAwayIfIdle put away} ({@link #reopen}).
     */
    private volatile MappedLogJournal journal;
    private final Object encoder;
    private final Path file;
    private final BiConsumer<String, String> errors;
    private int putAways;          // under the appender's lock
    private long lastPutAway;      // under the appender's lock
    /** Retired: a caller that meets the sealed journal makes no new one (guarded by this object's monitor). */
    private boolean retired;

    ReopenableJournal(MappedLogJournal journal, Object encoder, Path file, BiConsumer<String, String> errors) {
        this.journal = journal;
        this.encoder = encoder;
        this.file = file;
        this.errors = errors;
    }

    /** A new journal of the log file {@code file}, its header naming {@code encoder}'s pattern and charset. */
    static MappedLogJournal create(Path file, Object encoder) throws IOException {
        return MappedLogJournal.create(LogbackJournalWriter.journalOf(file), MappedLogJournal.LOGBACK_MAGIC,
                LogbackJournalWriter.patternOf(encoder), charsetOf(encoder));
    }

    private static Charset charsetOf(Object encoder) {
        try {
            Object c = encoder.getClass().getMethod("getCharset").invoke(encoder);
            if (c instanceof Charset cs) {
                return cs;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // none: Logback's default
        }
        return Charset.defaultCharset();
    }

    /** The journal now. */
    MappedLogJournal now() {
        return journal;
    }

    /**
     * A caller met {@code sealed}, the journal put away while idle: unless another caller did already,
     * a new one is made at the same name (Spool's own file operation). False when it could not be (named).
     */
    synchronized boolean reopen(MappedLogJournal sealed) {
        if (journal != sealed) {
            return true;
        }
        if (retired) {
            return false; // the appender left this file: nothing makes its journal again
        }
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true); // not the host's look at its folder
        try {
            journal = create(file, encoder);
            return true;
        } catch (IOException | RuntimeException e) {
            errors.accept("logback-journal", "the journal of " + file + " could not be made again after it was put away"
                    + " idle (" + e.getMessage() + "): its events go without it (lost by a kill -9 within the visibility bound)");
            return false;
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
    }

    /**
     * When {@code idle} (every line the journal took is in the file) and the put-aways allow it, the
     * journal is sealed and its file removed ({@link MappedLogJournal#putAway}); true when it went.
     * Under the appender's lock, on a thread marked as Spool's.
     */
    boolean putAwayIfIdle(boolean idle) {
        MappedLogJournal j = journal;
        long now = System.nanoTime();
        if (!idle || putAways >= FREE_PUT_AWAYS && now - lastPutAway < PUT_AWAY_EVERY_NANOS) {
            return false;
        }
        try {
            if (!j.putAway()) {
                return false;
            }
        } catch (IOException | RuntimeException e) {
            errors.accept("logback-journal", "journal " + j.path + " not removed while idle (" + e + "): it stays");
            return false; // still there: it goes on (a new one could not be made beside it)
        }
        putAways++;
        lastPutAway = now;
        return true;
    }

    /** The writer is retired (the appender left this file): a caller's reopen after this makes none. */
    synchronized void retire() {
        retired = true;
    }
}
