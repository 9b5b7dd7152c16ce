package dev.spool.buffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The one place a writing thread can wait inside the buffer: when the estimated dirty bytes are
 * over {@code capacityBytes} (the hard memory bound), the writer waits until the background
 * flush brings them back under it, and no longer than the first of: back under the bound, one
 * whole flush pass that began after the wait did (a pass that cannot get under it, e.g. because
 * writes fail, ends the wait: waiting longer would gain nothing), or {@link #MAX_WAIT_MILLIS}.
 * Each wait is counted (the buffer's {@code backpressureWaits} and {@code backpressureMillis}).
 *
 * <p>Flushing threads call {@link #passStarted()}, {@link #progress()} and {@link #passEnded()};
 * {@link #progress()} costs one volatile read when no one waits. Thread-safe; blocking only in
 * {@link #await}, bounded.
 * <pre>{@code
 * if (dirtyBytes() > capacityBytes) {
 *     flusher.wake();
 *     long waited = backpressure.await(() -> dirtyBytes() <= capacityBytes);
 * }
 * }</pre>
 */
final class Backpressure {
    /** The longest a writer waits for the flusher at the memory bound; then it goes on. */
    static final long MAX_WAIT_MILLIS = 2000;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition moved = lock.newCondition();
    private final Counters counters;
    private volatile int waiters;
    private volatile long passesStarted;
    private volatile long passesEnded;

    Backpressure(Counters counters) {
        this.counters = counters;
    }

    /**
     * Waits (bounded, see the class comment) until {@code below} holds.
     * @return the nanoseconds waited (0 when {@code below} held at once)
     */
    long await(BooleanSupplier below) {
        if (below.getAsBoolean()) return 0;
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MILLIS);
        lock.lock();
        try {
            waiters++;
            long passTarget = passesStarted + 1;
            long now = start;
            while (!below.getAsBoolean() && passesEnded < passTarget && now < deadline) {
                try {
                    moved.awaitNanos(deadline - now);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // keep the flag for the host; stop waiting
                    break;
                }
                now = System.nanoTime();
            }
        } finally {
            waiters--;
            lock.unlock();
        }
        long waited = System.nanoTime() - start;
        counters.backpressureWaits.incrementAndGet();
        counters.backpressureNanos.addAndGet(waited);
        return waited;
    }

    void passStarted() {
        lock.lock();
        try {
            passesStarted++;
        } finally {
            lock.unlock();
        }
    }

    void passEnded() {
        lock.lock();
        try {
            passesEnded++;
            moved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Some dirty bytes were written: let waiters look again. */
    void progress() {
        if (waiters == 0) return;
        lock.lock();
        try {
            moved.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
