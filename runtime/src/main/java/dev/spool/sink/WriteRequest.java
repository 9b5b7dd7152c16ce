package dev.spool.sink;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * An item of the writer's queue other than a buffer: a direct write (sources written as they
 * are, after everything queued before), or a flush marker ({@code sources == null}). The
 * requesting thread may wait for it, always with a bound.
 *
 * <p>States: {@code PENDING} until the writer {@link #take()}s it or the waiter
 * {@link #cancel()}s it (one compare-and-set decides); a taken request ends {@code DONE_OK} or
 * {@code DONE_FAILED}. A waiter that gives up on a taken request sets {@link #abandoned}: the
 * writer stops retrying it after its current attempt, so the caller may reuse its sources once
 * {@link #await} returned.
 */
final class WriteRequest extends AtomicInteger {
    static final int PENDING = 0;
    static final int TAKEN = 1;
    static final int DONE_OK = 2;
    static final int DONE_FAILED = 3;
    static final int CANCELLED = 4;

    final ByteBuffer[] sources;
    final long bytes;
    final Thread waiter;
    volatile boolean abandoned;
    /** Rounds of {@link #await}'s loop (each parks up to 1 ms); for tests and diagnostics. */
    int rounds;

    WriteRequest(ByteBuffer[] sources, Thread waiter) {
        this.sources = sources;
        long n = 0;
        if (sources != null) {
            for (ByteBuffer b : sources) {
                n += b.remaining();
            }
        }
        this.bytes = n;
        this.waiter = waiter;
    }

    boolean isMarker() {
        return sources == null;
    }

    /** Writer thread: claims the request; false when its waiter cancelled it first. */
    boolean take() {
        return compareAndSet(PENDING, TAKEN);
    }

    /** Waiter: withdraws a request the writer has not taken; false when it already did. */
    boolean cancel() {
        return compareAndSet(PENDING, CANCELLED);
    }

    boolean isDone() {
        int s = get();
        return s == DONE_OK || s == DONE_FAILED;
    }

    /** Writer thread (or the write-through path): the request is finished. */
    void complete(boolean ok) {
        set(ok ? DONE_OK : DONE_FAILED);
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Waits at most {@code timeoutNanos} until done, or until {@code sink}'s writer ended, or
     * (with {@code failFast}) until a write attempt of the writer failed after the wait began
     * (a flush fails as plain I/O would, not waiting out a full disk), or once the writer has been
     * failing for {@code timeoutNanos} (later waiters do not each wait out the bound). True when done. An interrupt does not end
     * the wait (plain stream I/O ignores it too) but is kept for the caller.
     */
    boolean await(long timeoutNanos, ByteSink sink, boolean failFast) {
        long start = System.nanoTime();
        long errorsAtStart = sink.errors.get();
        boolean interrupted = false;
        try {
            while (!isDone()) {
                rounds++;
                long left = nanosLeft(timeoutNanos, start, System.nanoTime());
                if (left <= 0 || sink.writerEnded()
                        || (failFast && sink.writerStalled() && sink.errors.get() > errorsAtStart)
                        || sink.writerStalledLongerThan(timeoutNanos)) {
                    return isDone();
                }
                if (Thread.interrupted()) {
                    interrupted = true;        // parkNanos would return at once: no busy loop
                }
                LockSupport.parkNanos(this, Math.min(left, 1_000_000L));
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * What is left of a wait of {@code timeoutNanos} that began at {@code startNanos}: measured as
     * elapsed time, so it stays right at any {@link System#nanoTime()} origin (negative, or
     * wrapping) and for {@code Long.MAX_VALUE}, where a deadline {@code start + timeout} overflows.
     */
    static long nanosLeft(long timeoutNanos, long startNanos, long nowNanos) {
        return timeoutNanos - (nowNanos - startNanos);
    }

    boolean succeeded() {
        return get() == DONE_OK;
    }
}
