package dev.spool.sink;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * An item of the writer's queue other than a buffer: a direct write (sources written as they
 * are, after everything queued before), or a flush marker ({@code sources == null}). The
 * requesting thread may wait for {@link #done}.
 */
final class WriteRequest {
    final ByteBuffer[] sources;
    final long bytes;
    final Thread waiter;
    private volatile boolean done;
    private volatile boolean ok;

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

    /** Writer thread: the request is finished ({@code ok} false when its bytes were lost). */
    void complete(boolean ok) {
        this.ok = ok;
        this.done = true;
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Waits until done, the deadline passes ({@code deadlineNanos} is a {@link System#nanoTime()}
     * value; {@code Long.MAX_VALUE} waits without limit) or {@code writer} has ended.
     */
    boolean await(long deadlineNanos, Thread writer) {
        while (!done) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0 || !writer.isAlive()) {
                return done && ok;
            }
            LockSupport.parkNanos(this, Math.min(left, 1_000_000L));
        }
        return ok;
    }
}
