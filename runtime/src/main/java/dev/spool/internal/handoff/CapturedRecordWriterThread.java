package dev.spool.internal.handoff;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * One daemon thread that runs a log's drain task (which calls
 * {@link MpscCapturedRecordQueue#drainTo}, under any lock of the log's own) whenever a producer
 * of the queue wakes it, and at least every {@link #IDLE_MILLIS} otherwise.
 *
 * <p>Threading: {@link #wakeIfParked()} is called by producers (lock-free: one volatile read, and
 * an unpark only when the thread is parked); {@link #stop()} by the log's owner. The drain task
 * runs on this thread only (and, for flushes, on the flushing thread through the queue, never
 * here). The task's exceptions are swallowed after being counted by the queue; the thread ends
 * only on {@link #stop()}, after a last drain. The task should drain a bounded number of records
 * per call so a lock it holds is released between batches.
 *
 * <p>Example:
 * <pre>{@code
 * CapturedRecordWriterThread w = CapturedRecordWriterThread.start("spool-capture-app.log",
 *         () -> { synchronized (handler) { return queue.drainTo(encoder, 64); } }, queue);
 * }</pre>
 */
public final class CapturedRecordWriterThread {

    /** The longest the thread sleeps with nothing to do. */
    public static final long IDLE_MILLIS = 50;

    private final IntSupplier drainTask;
    private final MpscCapturedRecordQueue<?> queue;
    private final AtomicBoolean parked = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean running = true;

    private CapturedRecordWriterThread(String threadName, IntSupplier drainTask, MpscCapturedRecordQueue<?> queue,
                                       Runnable onStart) {
        this.drainTask = Objects.requireNonNull(drainTask, "drainTask");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.thread = new Thread(() -> run(onStart), threadName);
        this.thread.setDaemon(true);
    }

    /** Starts a writer for {@code queue}; producers of the queue wake it from now on. */
    public static CapturedRecordWriterThread start(String threadName, IntSupplier drainTask, MpscCapturedRecordQueue<?> queue) {
        return start(threadName, drainTask, queue, () -> { });
    }

    /**
     * As {@link #start(String, IntSupplier, MpscCapturedRecordQueue)}, running {@code onStart}
     * first on the new thread (e.g. to mark it as the library's own, so hooks never capture its calls).
     */
    public static CapturedRecordWriterThread start(String threadName, IntSupplier drainTask, MpscCapturedRecordQueue<?> queue,
                                                   Runnable onStart) {
        CapturedRecordWriterThread w = new CapturedRecordWriterThread(threadName, drainTask, queue, onStart);
        queue.attach(w);
        w.thread.start();
        return w;
    }

    private void run(Runnable onStart) {
        onStart.run();
        long idle = TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS);
        while (running) {
            int n = drainOnce();
            if (n == 0) {
                parked.set(true); // volatile store, then the queue's volatile index read: see package-info
                if (queue.isEmpty() && running) {
                    LockSupport.parkNanos(this, idle);
                }
                parked.set(false);
            }
        }
        drainOnce();
    }

    private int drainOnce() {
        try {
            return drainTask.getAsInt();
        } catch (RuntimeException e) {
            return 0; // the queue counted the encoder's failures; a failing lock or task waits for the next wake
        }
    }

    /** Producer side: unparks the thread if it is parked (cheap otherwise). */
    void wakeIfParked() {
        if (parked.get() && parked.compareAndSet(true, false)) {
            LockSupport.unpark(thread);
        }
    }

    /** Asks the thread to drain once more and end; does not wait. */
    public void stop() {
        running = false;
        LockSupport.unpark(thread);
    }

    /** Waits at most {@code millis} for the thread to end; true when it has. */
    public boolean awaitStopped(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return !thread.isAlive();
    }

    public String threadName() {
        return thread.getName();
    }

    public boolean isAlive() {
        return thread.isAlive();
    }
}
