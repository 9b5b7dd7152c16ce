package dev.spool.sink;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a {@link ByteSink} ends, and what it does with bytes offered after that.
 *
 * <ul>
 *   <li>{@link #close()} (the owner): the writer drains everything accepted, then the output is
 *       closed; later units fail ({@link ByteSink#FAILED}, an {@code IOException} through the
 *       stream), as writes to a closed stream do.</li>
 *   <li>{@link #shutdown()} (the sink's JVM shutdown hook): the writer drains, the output is
 *       settled but stays open, and later units are <em>written through</em>: synchronously, on
 *       the caller's thread, after everything accepted before. So bytes written by other
 *       shutdown hooks (JUL's {@code LogManager} cleanup, Logback's) are not lost.</li>
 * </ul>
 * A unit racing either lands in the output or fails visibly: the writer ends only once the
 * closed slot is current (no reservation can be made any more) and the queue is empty; a unit
 * that finds the sink closed waits (bounded) for the writer to end before it writes through.
 * Every wait here is bounded by {@code spool.sink.wait.millis}.
 */
final class SinkClosing {
    private final ByteSink sink;
    private final SinkWriter writer;

    SinkClosing(ByteSink sink, SinkWriter writer) {
        this.sink = sink;
        this.writer = writer;
    }

    void close() {
        sink.closeRequested = true;
        begin();
        if (writer.runningHere()) {
            return;
        }
        awaitWriterEnd(sink.waitNanos);
        synchronized (sink.throughLock) {
            if (writer.ended) {
                writer.closeBackend();
            } else {
                sink.recordError("close " + sink.name + ": the writer is still busy after " + sink.waitMillis
                        + " ms; it closes the output when done");
            }
        }
    }

    void shutdown() {
        begin();
        awaitWriterEnd(TimeUnit.MILLISECONDS.toNanos(ByteSink.SHUTDOWN_WAIT_MILLIS));
    }

    private void begin() {
        synchronized (this) {
            if (!sink.closed) {
                sink.closed = true;
                writer.wake();
            }
        }
    }

    /** Waits (bounded) for the writer to end; true when it has. Interrupts do not end the wait. */
    boolean awaitWriterEnd(long timeoutNanos) {
        if (writer.runningHere()) {
            return false;
        }
        boolean interrupted = false;
        long start = System.nanoTime();
        while (!writer.ended) {
            long left = timeoutNanos - (System.nanoTime() - start);
            if (left <= 0) {
                break;
            }
            if (Thread.interrupted()) {
                interrupted = true;
            }
            LockSupport.parkNanos(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(1)));
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return writer.ended;
    }

    /** Flush of a closed sink: the output settled (flushed) once the writer ended; false when closed by its owner. */
    boolean flush(long timeoutNanos) {
        if (!awaitWriterEnd(timeoutNanos)) {
            return false;
        }
        synchronized (sink.throughLock) {
            return !sink.backendClosed && writer.drainLeftovers() && writer.output.settle();
        }
    }

    /**
     * A unit offered after close: written synchronously after everything accepted before;
     * {@link ByteSink#FAILED} when the owner closed the output or the write failed.
     */
    int writeThrough(ByteBuffer[] sources) {
        if (!awaitWriterEnd(sink.waitNanos)) {
            return sink.fail("closing: the writer did not finish within " + sink.waitMillis + " ms");
        }
        ByteBuffer[] own = new ByteBuffer[sources.length];
        long bytes = 0;
        for (int i = 0; i < sources.length; i++) {
            own[i] = sources[i].duplicate();     // the caller's positions stay as they are
            bytes += own[i].remaining();
        }
        synchronized (sink.throughLock) {
            if (sink.backendClosed) {
                sink.dropped.increment();
                return ByteSink.FAILED;          // like a write to a closed stream
            }
            if (!writer.drainLeftovers() || !writer.output.writeThrough(own, bytes) || !writer.output.settle()) {
                return sink.fail("a write after close failed");
            }
            sink.directWrites.increment();
            return ByteSink.OK;
        }
    }

    /** A direct write that found the writer ended: what it left in the queue is written now. */
    void drainAfterWriter() {
        if (writer.ended) {
            synchronized (sink.throughLock) {
                if (!sink.backendClosed) {
                    writer.drainLeftovers();
                }
            }
        }
    }
}
