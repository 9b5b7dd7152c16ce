package dev.spool.buffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one daemon thread ({@code spool-buffer-flusher}) of a buffer that flushes every
 * {@code flushIntervalMillis}. A change of the interval restarts the wait at once; 0 parks the
 * thread until the interval changes. Errors of a timed flush go to the buffer's listeners and
 * {@code LastError}; the thread carries on. Assumes one instance per buffer; {@link #stop} is
 * final. Blocking: only the flusher thread waits here; setters never block on it.
 * <pre>{@code
 * FlushTimer t = new FlushTimer(buffer); t.start();
 * t.intervalChanged();   // after the buffer's interval field changed: wait restarts
 * t.stop();              // thread ends after its current flush
 * }</pre>
 */
final class FlushTimer implements Runnable {
    static final String THREAD_NAME = "spool-buffer-flusher";

    private final SharedBuffer buffer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Thread thread;
    private long generation;
    private boolean stopped;

    FlushTimer(SharedBuffer buffer) {
        this.buffer = buffer;
        this.thread = new Thread(this, THREAD_NAME);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** The interval changed: restart the wait with the new value. */
    void intervalChanged() {
        lock.lock();
        try {
            generation++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void stop() {
        lock.lock();
        try {
            stopped = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        lock.lock();
        try {
            while (!stopped) {
                long interval = buffer.getFlushIntervalMillis();
                long gen = generation;
                if (interval == 0) {
                    changed.await();
                    continue;
                }
                long remaining = TimeUnit.MILLISECONDS.toNanos(interval);
                while (!stopped && gen == generation && remaining > 0) remaining = changed.awaitNanos(remaining);
                if (stopped || gen != generation) continue;
                lock.unlock();
                try {
                    buffer.timedFlush();
                } catch (RuntimeException e) {
                    // already reported to listeners and LastError by the flush
                } finally {
                    lock.lock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}
