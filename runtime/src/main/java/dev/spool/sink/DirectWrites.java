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
     * Bytes of direct writes queued for the writer (what the {@code DROP} direct backlog bounds),
     * changed only under {@link #pendingLock} with plain arithmetic and no call: a producer at its
     * stack limit cannot die halfway and leave it skewed.
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
     * that would take the queued direct bytes past {@code bound}. A death inside the offer
     * uncounts in the {@code finally}, with no call.
     */
    boolean enqueue(WriteRequest req, long bound) {
        long n = req.bytes;
        synchronized (pendingLock) {
            if (n > 0 && pendingDirect + n > bound) {
                return false;
            }
            pendingDirect += n;
            if (pendingDirect > peakPendingDirect) {
                peakPendingDirect = pendingDirect;
            }
        }
        boolean offered = false;
        try {
            sink.toWriter.offer(req);
            offered = true;
        } finally {
            if (!offered) {
                synchronized (pendingLock) {
                    pendingDirect -= n;
                }
            }
        }
        sink.wakeWriter();
        return true;
    }

    /** A queued direct write left the queue (written, failed or withdrawn). */
    void uncount(long bytes) {
        synchronized (pendingLock) {
            pendingDirect -= bytes;
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
        if (req.cancel()) {
            uncount(req.bytes);
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
