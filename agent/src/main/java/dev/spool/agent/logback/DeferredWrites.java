package dev.spool.agent.logback;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import dev.spool.bridge.Hooks;
import dev.spool.internal.handoff.CapturedRecordEncoder;
import dev.spool.internal.handoff.CapturedLogWriterPool;
import dev.spool.internal.handoff.MpscCapturedRecordQueue;

/**
 * The writing side of one {@link DeferredAppender}: what its callers queued is written by whoever
 * holds the appender's locks, each event as Logback's {@code subAppend}/{@code writeOut} would write
 * it ({@link #encode}: its rolling check, its encoder, its {@code writeBytes}, its failures), then the
 * appender's journal is settled ({@link AppenderJournal#settle}).
 *
 * <p>Threads and locks: {@link #drainBatch} runs on a thread of the shared {@link CapturedLogWriterPool},
 * which only tries the appender's {@code streamWriteLock} and then a rolling appender's
 * {@code triggeringPolicyLock} (never waits for a host's lock); {@link #drainHere}, {@link #drainWithin}
 * and {@link #makeRoom} run on a host thread (a caller, a closing or flushing thread, exit), which takes the
 * policy lock first (bounded) and then the stream lock, Logback's order; the queue's drain lock is taken
 * inside them, and {@link #encode} runs with them held. The encoding is read through a volatile field
 * and replaced only under the locks, after what was queued for the old one is written.
 */
final class DeferredWrites implements CapturedRecordEncoder<Object> {

    /** Events written per lock hold by a pool thread (bounds how long a closing thread waits for the lock). */
    static final int BATCH = 256;
    private static final int ALLOWED_REPEATS = 3;

    private final String name;
    private final ReentrantLock lock;
    private final AppenderAccess access;
    private final MpscCapturedRecordQueue<Object> queue;
    private final RollingCheck rolling; // null: no check here (none, or on the caller's thread)
    private final long waitMillis;
    private final AppenderJournal journal;
    private final java.util.function.Consumer<String> compiledReport;
    private final java.util.function.Consumer<String> uncheckedReport;
    private int failures;
    private volatile AppenderEncoding encoding; // replaced only under the lock, after what was queued for the old one is written

    DeferredWrites(String name, AppenderAccess access, MpscCapturedRecordQueue<Object> queue, RollingCheck rolling,
                   long waitMillis, AppenderJournal journal, java.util.function.Consumer<String> compiledReport,
                   java.util.function.Consumer<String> uncheckedReport) {
        this.name = name;
        this.lock = access.lock();
        this.access = access;
        this.queue = queue;
        this.rolling = rolling;
        this.waitMillis = waitMillis;
        this.journal = journal;
        this.compiledReport = compiledReport;
        this.uncheckedReport = uncheckedReport;
    }

    /** The encoding the queued events are (or the next ones will be) encoded with. */
    AppenderEncoding encoding() {
        return encoding;
    }

    /** The first encoding, set before the appender is registered with the pool. */
    void encoding(AppenderEncoding first) {
        encoding = first;
    }

    /**
     * A caller whose event found the journal's ring full: what is queued is written here, under the
     * appender's locks (as {@link #drainHere}), then the sink is waited for (bounded); false when not written in time.
     */
    boolean makeRoom() {
        return underLocks(() -> {
            if (!access.hasStream()) {
                return false; // a roll between two files (this thread's own): nothing can be written now
            }
            drainLocked(null);
            LogbackJournalWriter j = journal.now();
            return j != null && j.awaitSink();
        });
    }

    /** Writes what is queued on this thread under the appender's lock; then, if {@code next} is not null, encodes with it from now on. */
    AppenderEncoding drainHere(Object next) {
        return underLocks(() -> drainLocked(next));
    }

    /** Runs {@code body} under the appender's locks: a rolling appender's policy lock first (bounded), as Logback's order is. */
    private <T> T underLocks(java.util.function.Supplier<T> body) {
        boolean policy = lockPolicy(lock.isHeldByCurrentThread() ? 0 : waitMillis);
        try {
            lock.lock();
            try {
                return body.get();
            } finally {
                lock.unlock();
            }
        } finally {
            if (policy) {
                rolling.policyLock().unlock();
            }
        }
    }

    /** {@link #drainHere(Object)}'s body, the locks held. */
    private AppenderEncoding drainLocked(Object next) {
        if (!access.hasStream()) {
            // inside a roll, between the old file's close and the next one's open (setOutputStream's own
            // closeOutputStream, a look at the folder): the queued events wait for the next file, as plain
            // Logback's callers wait for the lock; written now they were lost (NullPointerException)
            return encoding;
        }
        if (!queue.isDrainingThread()) {
            queue.drainTo(this, Integer.MAX_VALUE);
            journal.settle();
        }
        AppenderEncoding e = encoding;
        if (next != null && e.encoder() != next) {
            e = AppenderEncoding.of(next, LogbackEncoders.shape(next), compiledReport);
            encoding = e;
        }
        return e;
    }

    /** Takes a rolling appender's policy lock within {@code millis} (0: only if free or already held); false if not taken or none. */
    private boolean lockPolicy(long millis) {
        if (rolling == null) {
            return false;
        }
        try {
            return rolling.policyLock().tryLock(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The pool's step: at most {@link #BATCH} events under one hold of the lock; how many were
     * written, or {@link CapturedLogWriterPool#BUSY} when another thread holds the appender's lock
     * (a closing or flushing thread, which drains itself; a pool thread never waits for a host's lock).
     */
    int drainBatch() {
        if (queue.isEmpty()) {
            return 0;
        }
        if (!lock.tryLock()) {
            return CapturedLogWriterPool.BUSY;
        }
        try {
            // Only tried, so either order is deadlock-free; the stream lock first means a host thread that holds
            // it (closing the stream) never finds the policy lock held by this thread
            if (rolling != null && !rolling.policyLock().tryLock()) {
                return CapturedLogWriterPool.BUSY;
            }
            boolean was = Hooks.markSpoolThread(true); // no hook captures what the encoder does
            try {
                int n = queue.drainTo(this, BATCH);
                journal.settle();
                return n;
            } finally {
                Hooks.markSpoolThread(was);
                if (rolling != null) {
                    rolling.policyLock().unlock();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Like {@link #drainHere} but gives up after {@code millis} waiting for the lock; false if it did. */
    boolean drainWithin(long millis) throws InterruptedException {
        if (queue.isEmpty()) {
            return true;
        }
        if (rolling != null && !rolling.policyLock().tryLock(millis, TimeUnit.MILLISECONDS)) {
            return false;
        }
        try {
            if (!lock.tryLock(millis, TimeUnit.MILLISECONDS)) {
                return false;
            }
            try {
                queue.drainTo(this, Integer.MAX_VALUE);
                journal.settle();
                return true;
            } finally {
                lock.unlock();
            }
        } finally {
            if (rolling != null) {
                rolling.policyLock().unlock();
            }
        }
    }

    @Override
    public void encode(Object event) {
        writeOne(event);
    }

    /** What Logback's {@code subAppend}/{@code writeOut}/{@code doAppend} do with one event, failures included. */
    private void writeOne(Object item) {
        if (item instanceof LogbackJournalWriter.Journaled j) {
            LogbackJournalWriter w = j.journal(); // the one it was appended to (a roll may have replaced it since)
            try {
                writeOne(j.item(), w, j.frame());
            } finally {
                w.afterWrite(j.frame()); // done, or kept until its bytes are in the file
            }
            return;
        }
        writeOne(item, null, -1);
    }

    private void writeOne(Object item, LogbackJournalWriter w, long frame) {
        Object event = item;
        if (item instanceof RollingCheck.Checked c) {
            event = c.event();
            if (rolling.held()) {
                try {
                    rolling.check(event, c.clock());
                } catch (Throwable t) {
                    failed("Appender [" + access.name() + "] failed to append.", t); // as doAppend: not written
                    return;
                }
            } else if (uncheckedReport != null) {
                uncheckedReport.accept("the appender " + name + " wrote a queued event without its rolling check: "
                        + "another thread held its triggering policy's lock while this one closed its stream");
            }
        }
        byte[] bytes;
        try {
            bytes = encoding.encode(event); // the lock is held: the encoder the queued events were appended under
        } catch (Throwable t) {
            failed("Appender [" + access.name() + "] failed to append.", t);
            return;
        }
        try {
            if (w != null) {
                w.beforeWrite(frame, bytes.length); // after the roll check: the offset in the file this line goes to
            }
            access.writeBytes(bytes);
        } catch (IOException e) {
            access.stopOnIoFailure(); // as subAppend: the appender stops on an I/O failure
            access.status("IO failure in appender", e);
        } catch (Throwable t) {
            failed("Appender [" + access.name() + "] failed to append.", t);
        }
    }

    private void failed(String message, Throwable t) {
        if (failures++ < ALLOWED_REPEATS) {
            access.status(message, t);
        }
    }
}
