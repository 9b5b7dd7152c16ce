package dev.spool.agent.logback;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Which journal (issue 33) one {@link DeferredAppender}'s captured events go into now: the
 * {@link LogbackJournalWriter} of the file its routed stream writes, made at routing, following the
 * file across rolls that keep its name, retired when the appender leaves the file or Spool exits.
 *
 * <p>Threads: {@link #now} on any thread (one volatile read: a caller journaling an event, a drainer
 * settling); {@link #stream} on the host's thread that routes the appender's stream, under the
 * appender's lock; {@link #settle} on whoever drains, under it; {@link #retire} on Spool's exit or
 * sweep, with the lock tried only (held elsewhere, the journal stays for the next start).
 */
final class AppenderJournal {

    private final Object appender;
    private final ReentrantLock lock;
    /** The appender's journal (issue 33), or null: not journaled. Set and replaced under the lock (routing). */
    private volatile LogbackJournalWriter journal;

    AppenderJournal(Object appender, ReentrantLock lock) {
        this.appender = appender;
        this.lock = lock;
    }

    /** The journal now, or null: not journaled. */
    LogbackJournalWriter now() {
        return journal;
    }

    /**
     * Routing gave the appender {@code stream} (its start, a roll): under the appender's lock. The
     * journal follows a roll that keeps the file's name; another name retires it and journals the
     * new file with {@code encoder} (null {@code files}: journals are off).
     */
    void stream(Object stream, Object encoder, dev.spool.agent.journal.JournalFiles files,
                java.util.function.BiConsumer<String, String> errors, LogbackJournalWriter handed) {
        LogbackJournalWriter j = journal;
        java.nio.file.Path file = files == null ? null : files.file(stream);
        if (handed != null && j == null && handed.file().equals(file)) {
            journal = j = handed; // the journal of its bytes while Logback encoded them goes on: one file, one journal
        } else if (handed != null) {
            handed.retire();
        }
        if (j != null && j.file().equals(file)) {
            j.stream(stream);
            return;
        }
        if (j != null) {
            journal = null;
            j.retire();
        }
        if (file != null) {
            journal = LogbackJournalWriter.open(appender, encoder, stream, files, errors);
        }
    }

    /** Whether this appender journals {@code file} now. */
    boolean journals(java.nio.file.Path file) {
        LogbackJournalWriter j = journal;
        return j != null && j.file().equals(file);
    }

    /** Spool's exit, after the last drain: the journal goes once the sink wrote every line (bounded wait). */
    void retire() {
        LogbackJournalWriter j = journal;
        if (j == null || !lock.tryLock()) {
            return; // its lock is held (a host thread still logging): left for the next start, which replays only what is missing
        }
        try {
            if (journal != j) {
                return; // retired (and maybe replaced) by a thread that held the lock meanwhile
            }
            journal = null;
            j.retire();
        } finally {
            lock.unlock();
        }
    }

    /** After a drain, under the appender's lock: the journal marks done what reached the file, and trims. */
    void settle() {
        LogbackJournalWriter j = journal;
        if (j != null) {
            j.settle();
        }
    }
}
