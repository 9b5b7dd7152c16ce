package dev.spool.sink;

import java.nio.ByteBuffer;

/**
 * The direct path of a {@link ByteSink}: a unit too large to copy into a buffer goes to the
 * writer's queue as it is, after sealing the current buffer (so it is written after everything
 * appended before). Under {@code block}/{@code sync} the caller waits for it (bounded by
 * {@code spool.sink.wait.millis}; on time-out the request is withdrawn, or abandoned after the
 * writer's current attempt, so the caller may reuse its sources once this returns); under
 * {@code drop} it is copied if the direct backlog has room (checked and added atomically).
 */
final class DirectWrites {
    private final ByteSink sink;
    /**
     * Bytes of direct writes in the writer's queue or being written (what the {@code DROP} direct
     * backlog bounds), changed only under {@link #pendingLock}: a producer adds after its offer,
     * the writer subtracts for every direct write it takes off the queue (written, failed or
     * withdrawn) and {@link #reconcile}s it with the queue between items.
     */
    long pendingDirect;
    /** The highest {@link #pendingDirect} seen (under {@link #pendingLock}); for tests and diagnostics. */
    long peakPendingDirect;
    final Object pendingLock = new Object();

    DirectWrites(ByteSink sink) {
        this.sink = sink;
    }

    int offer(ByteBuffer[] sources) {
        if (sink.closed) {
            return sink.closing.writeThrough(sources);
        }
        long bytes = 0;
        for (ByteBuffer s : sources) {
            bytes += s.remaining();
        }
        if (sink.policy == SinkPolicy.DROP) {
            if (bytes > sink.directBacklogBytes || !sink.slots.sealCurrent(0)) {
                sink.dropped.increment();        // DROP never waits, not even for a hand-off
                return ByteSink.DROPPED;
            }
            if (!enqueue(new WriteRequest(new ByteBuffer[] {copy(sources, bytes)}, null), sink.directBacklogBytes)) {
                sink.dropped.increment();
                return ByteSink.DROPPED;
            }
            return ByteSink.OK;
        }
        if (!sink.slots.sealCurrent(sink.waitNanos)) {
            return sink.fail("a direct write waited " + sink.waitMillis + " ms for the current buffer's hand-off");
        }
        WriteRequest req = new WriteRequest(sources, Thread.currentThread());
        enqueue(req, Long.MAX_VALUE);
        return await(req);
    }

    /**
     * Queues a direct write or marker, counting its bytes; false (nothing queued or counted) when
     * that would take the queued direct bytes past {@code bound}. The check, the offer and the
     * count are one step under {@link #pendingLock}; a producer dying anywhere in it (even where
     * a {@code finally} would not run: HotSpot can throw {@code StackOverflowError} while
     * deoptimizing an exception handler) skews the count only until the writer's next
     * {@link #reconcile}.
     */
    boolean enqueue(WriteRequest req, long bound) {
        long n = req.bytes;
        synchronized (pendingLock) {
            if (n > 0 && pendingDirect + n > bound) {
                return false;
            }
            sink.toWriter.offer(req);
            pendingDirect += n;
            if (pendingDirect > peakPendingDirect) {
                peakPendingDirect = pendingDirect;
            }
        }
        sink.wakeWriter();
        return true;
    }

    /** Writer: a direct write left the queue (written, failed, or withdrawn by its waiter). */
    void uncount(long bytes) {
        synchronized (pendingLock) {
            pendingDirect -= bytes;
        }
    }

    /**
     * Writer only, between items: sets the count to what the queue really holds, the sum of its
     * direct writes. Exact: producers offer and count under the same lock, and the writer is not
     * inside an item. Repairs what a producer that died between its offer and its count left.
     */
    void reconcile() {
        long skew;
        synchronized (pendingLock) {
            long queued = 0;
            if (pendingDirect != 0) {
                for (Object o : sink.toWriter) {
                    if (o instanceof WriteRequest) {
                        queued += ((WriteRequest) o).bytes;
                    }
                }
            }
            skew = pendingDirect - queued;
            pendingDirect = queued;
        }
        if (skew != 0) {
            sink.recordError(sink.name + ": " + skew + " byte(s) of direct writes were counted as queued wrongly"
                    + " (a producer died while queueing?); count repaired");
        }
    }

    /** Bytes of direct writes in the writer's queue. */
    long queuedBytes() {
        synchronized (pendingLock) {
            return pendingDirect;
        }
    }

    private int await(WriteRequest req) {
        if (req.await(sink.waitNanos, sink, false)) {
            return req.succeeded() ? ByteSink.OK : sink.fail("a direct write of " + req.bytes + " bytes failed");
        }
        sink.closing.drainAfterWriter();         // the writer may have ended before it saw this request
        if (req.cancel()) {                      // the writer uncounts it when it meets it
            return sink.fail("a direct write of " + req.bytes + " bytes was not written within " + sink.waitMillis + " ms");
        }
        req.abandoned = true;                    // taken: the writer stops after its current attempt
        int idle = 0;
        while (!req.isDone() && !sink.writerEnded()) {
            idle = Idle.step(idle);
        }
        return req.succeeded() ? ByteSink.OK : sink.fail("a direct write of " + req.bytes + " bytes failed");
    }

    private static ByteBuffer copy(ByteBuffer[] sources, long bytes) {
        ByteBuffer c = ByteBuffer.allocate(Math.toIntExact(bytes));
        for (ByteBuffer s : sources) {
            c.put(s.duplicate());
        }
        return c.flip();
    }
}
