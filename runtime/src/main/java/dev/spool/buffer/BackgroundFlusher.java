package dev.spool.buffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one daemon thread ({@code spool-buffer-flusher}) of a buffer that runs its flushes off the
 * writers' threads: every {@code flushIntervalMillis} (0: none), and at once when woken
 * ({@link #wake()}: a writer pushed the buffer over {@code capacity} files or half of
 * {@code capacityBytes}). After a woken pass it runs another at once while the buffer is still
 * over capacity and the pass wrote something. Woken for new files ({@link #wakeCreates()}:
 * {@code createAtFlush}) it writes just those, and keeps the interval's deadline (a stream of new
 * files never postpones the timed flush of rewrites). A change of the interval restarts the wait. Errors
 * of a flush go to the buffer's listeners and {@code LastError}; the thread carries on. Assumes one
 * instance per buffer; {@link #stop} is final. Blocking: only the flusher thread waits here;
 * {@link #wake()} and the setters never block on it (they take its lock only to signal).
 * <pre>{@code
 * BackgroundFlusher f = new BackgroundFlusher(buffer); f.start();
 * f.wake();               // over capacity: flush now, on the flusher thread
 * f.intervalChanged();    // after the buffer's interval field changed: wait restarts
 * f.stop();               // thread ends after its current flush
 * }</pre>
 */
final class BackgroundFlusher implements Runnable {
    static final String THREAD_NAME = "spool-buffer-flusher";

    private final SharedBuffer buffer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Thread thread;
    private long generation;
    private boolean stopped;
    /** A wake-up not yet served; read without the lock by {@link #wake()} to skip a redundant signal. */
    private volatile boolean woken;
    /** New files queued for creation not yet served; read without the lock as {@link #woken} is. */
    private volatile boolean createsWoken;

    BackgroundFlusher(SharedBuffer buffer) {
        this.buffer = buffer;
        this.thread = new FlushWorkers.FlushThread(this, THREAD_NAME);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks for a flush now. Cheap when a wake-up is already pending (one volatile read). */
    void wake() {
        if (!woken) signal(() -> woken = true);
    }

    /** Asks for the queued new files to be created now. Cheap when already asked (one volatile read). */
    void wakeCreates() {
        if (!createsWoken) signal(() -> createsWoken = true);
    }

    /** Makes {@code change} under the lock and wakes the flusher thread to look at it. */
    private void signal(Runnable change) {
        lock.lock();
        try {
            change.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    boolean isFlusherThread() {
        return Thread.currentThread() == thread;
    }

    /** The interval changed: restart the wait with the new value. */
    void intervalChanged() {
        signal(() -> generation++);
    }

    void stop() {
        signal(() -> stopped = true);
    }

    private static boolean due(long interval, long deadline) {
        return interval != 0 && System.nanoTime() - deadline >= 0;
    }

    @Override
    public void run() {
        lock.lock();
        try {
            long gen = generation - 1;
            long deadline = 0;
            while (!stopped) {
                long interval = buffer.getFlushIntervalMillis();
                if (gen != generation) { // started, or the interval changed: the wait restarts
                    gen = generation;
                    deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(interval);
                }
                while (!stopped && !woken && !createsWoken && gen == generation && !due(interval, deadline)) {
                    if (interval == 0) changed.await();
                    else changed.awaitNanos(deadline - System.nanoTime());
                }
                if (stopped) break;
                boolean wake = woken;
                boolean create = createsWoken;
                boolean timed = !wake && gen == generation && due(interval, deadline);
                if (!wake && !create && !timed) continue;
                woken = false;
                createsWoken = false;
                lock.unlock();
                try {
                    if (create) buffer.createFlush();
                    if (wake) buffer.capacityFlush();
                    else if (timed) buffer.timedFlush();
                } catch (RuntimeException e) {
                    // already reported to listeners and LastError by the flush
                } finally {
                    lock.lock();
                }
                if (wake || timed) deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(interval);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}
