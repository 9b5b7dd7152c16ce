package dev.spool.sink;

import dev.spool.internal.jfr.SpoolJfr;
import dev.spool.internal.recovery.RecoveryFolder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one writer thread of a {@link ByteSink}: takes sealed buffers and direct requests from the
 * queue in order, waits (bounded) for each buffer's reservations to be committed, writes,
 * recycles the buffer. When idle for {@link #LINGER_NANOS} (or asked to flush) it seals the
 * partly filled current buffer, so data never waits long in memory. Never dies: every failure
 * is recorded, every request completed. After the thread ended, the write-through path of a
 * closed sink uses the same methods under {@link ByteSink#throughLock}.
 */
final class SinkWriter implements Runnable {
    /** How long a partly filled buffer may wait for more data before it is written anyway. */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Attempts per write once the sink is closing (before that: retried until it succeeds). */
    static final int CLOSE_ATTEMPTS = 5;
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ByteSink sink;
    private final SinkRecycler recycler;
    volatile Thread thread;
    /** Set last, in a finally, when {@link #run} returns: the writer's actions happen-before a reader that sees it. */
    volatile boolean ended;
    private volatile boolean parked;
    /** A write is failing and being retried (e.g. a full disk), since {@link #stalledSince}. */
    volatile boolean stalled;
    volatile long stalledSince;
    /** The last write failure (without the time), for the messages of failed producers. */
    volatile String lastWriteError;
    private boolean dirty;
    private long throttleNext;
    /** A current buffer seen sealed but not enqueued, and since when (see {@link BufferHandOff#rescueSealed}). */
    private SinkBuffer sealWatch;
    private long sealWatchSince;
    /** Bytes given up while closing (the target cannot take them); saved to the recovery folder at the end. */
    private final List<RecoveryFolder.Item> givenUp = new ArrayList<>();

    SinkWriter(ByteSink sink) {
        this.sink = sink;
        this.recycler = new SinkRecycler(sink);
    }

    void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        long idleSince = System.nanoTime();
        long closingSince = 0;
        int idle = 0;
        while (true) {
            try {
                Object item = sink.toWriter.poll();
                if (item != null) {
                    process(item);
                    idleSince = System.nanoTime();
                    continue;
                }
                if (sink.closed) {
                    if (closingSince == 0) {
                        closingSince = System.nanoTime() | 1;
                    }
                    watchSealed(System.nanoTime(), sink.waitNanos / 2); // a dead sealer's buffer: written within close's bound
                    boolean sealed = sink.slots.closeCurrent();
                    if (!sealed && System.nanoTime() - closingSince >= sink.waitNanos) {
                        sink.recordError("close " + sink.name + ": the current buffer could not be sealed within "
                                + sink.waitMillis + " ms (a producer died while installing it?)");
                        sealed = true;
                    }
                    if (sealed && drain()) {
                        break;                   // closed slot current, nothing queued: no append can land here
                    }
                    idle = Idle.step(idle);
                    continue;
                }
                if (sink.flushRequested) {
                    sink.flushRequested = false;
                    sink.slots.sealCurrent(sink.waitNanos);
                    continue;
                }
                if (dirty) {
                    flushBackend();
                }
                long now = System.nanoTime();
                watchSealed(now, sink.waitNanos);
                sink.direct.reconcile();         // idle: the count must be what the queue holds
                if (now - idleSince >= LINGER_NANOS && sink.current().reservedBytes() > 0) {
                    sink.slots.sealCurrent(sink.waitNanos);
                    idleSince = now;
                    continue;
                }
                parked = true;
                if (sink.toWriter.isEmpty() && !sink.closed && !sink.flushRequested) {
                    LockSupport.parkNanos(this, LINGER_NANOS);
                }
                parked = false;
            } catch (Throwable t) {
                sink.recordError("writer: " + t);
            }
        }
        synchronized (sink.throughLock) {
            try {
                drainLeftovers();
                if (!givenUp.isEmpty()) {
                    RecoveryFolder.saveAll(givenUp, "unwritten chunk(s) of " + sink.name);
                    givenUp.clear();
                }
                if (sink.closeRequested) {
                    closeBackend();
                } else {
                    settle();                    // the JVM's shutdown: later bytes are written through
                }
            } catch (Throwable t) {
                sink.recordError("writer end: " + t);
            } finally {
                ended = true;
            }
        }
    }

    /** Rescues the current buffer once it has stayed sealed and not enqueued for {@code afterNanos}. */
    private void watchSealed(long now, long afterNanos) {
        SinkBuffer cur = sink.current();
        if (!cur.sealedNotEnqueued()) {
            sealWatch = null;
        } else if (sealWatch != cur) {
            sealWatch = cur;
            sealWatchSince = now;
        } else if (now - sealWatchSince >= afterNanos) {
            sink.slots.rescueSealed(cur);
            sealWatch = null;
        }
    }

    /** Processes everything left; true when the queue is empty. */
    private boolean drain() {
        Object item;
        boolean any = false;
        while ((item = sink.toWriter.poll()) != null) {
            process(item);
            any = true;
        }
        return !any && sink.toWriter.isEmpty();
    }

    /** After the writer thread ended (caller holds the through-lock): what was queued too late. Always true. */
    boolean drainLeftovers() {
        Object item;
        while ((item = sink.toWriter.poll()) != null) {
            process(item);
        }
        return true;
    }

    /** Processes one queued item, if any (JCStress tests run the writer a step at a time). */
    boolean processNext() {
        Object item = sink.toWriter.poll();
        if (item == null) {
            return false;
        }
        process(item);
        return true;
    }

    private void process(Object item) {
        if (item instanceof SinkBuffer) {
            SinkBuffer buf = (SinkBuffer) item;
            if (!buf.written) {                  // else a second offer of a rescued (retired) buffer
                writeBuffer(buf);
            }
            return;
        }
        WriteRequest req = (WriteRequest) item;
        if (!req.take()) {
            sink.direct.uncount(req.bytes);      // withdrawn by its waiter (who may have died since)
            return;
        }
        boolean ok = false;
        try {
            if (req.isMarker()) {
                flushBackend();
                sink.direct.reconcile();         // a flush leaves no skewed count behind
                ok = true;
            } else {
                ok = write(req.sources, req.bytes, 1, req);
                if (ok) {
                    sink.directWrites.increment();
                }
            }
        } catch (Throwable t) {
            sink.recordError("writer: " + t);
        } finally {
            if (!req.isMarker()) {
                sink.direct.uncount(req.bytes);
            }
            req.complete(ok);
        }
    }

    private void writeBuffer(SinkBuffer buf) {
        boolean whole = recycler.awaitCommitted(buf) && !buf.retire;
        int limit = buf.limit;
        try {
            if (limit > 0) {
                long[] holes = buf.holes();
                if (holes.length > 0 || buf.holesOverflowed() > 0) {
                    sink.recordError("write " + sink.name + ": " + (holes.length + buf.holesOverflowed())
                            + " unit(s) whose copy failed in their producer (left out: " + holes.length + ")");
                }
                write(slices(buf.data, limit, holes), limit, buf.committedEvents() - holes.length, null);
            }
        } finally {
            buf.written = true;
            recycler.release(buf, whole);
        }
    }

    /** {@code [0, limit)} of {@code data} without the holes (sorted {@code offset << 32 | length}). */
    private static ByteBuffer[] slices(ByteBuffer data, int limit, long[] holes) {
        List<ByteBuffer> parts = new ArrayList<>(holes.length + 1);
        int at = 0;
        for (long h : holes) {
            int off = (int) (h >>> 32);
            int len = (int) h;
            if (off > at) {
                parts.add(data.duplicate().position(at).limit(off));
            }
            at = Math.max(at, off + len);
        }
        if (limit > at) {
            parts.add(data.duplicate().limit(limit).position(at));
        }
        return parts.toArray(new ByteBuffer[0]);
    }

    /** A write after close on the caller's thread (through-lock held): a few attempts, no retry for ever. */
    boolean writeThrough(ByteBuffer[] sources, long bytes) {
        return write(sources, bytes, 1, null);
    }

    /**
     * Writes with retry and backoff; false when the bytes were given up: while closing after
     * {@link #CLOSE_ATTEMPTS}, or when the waiter of {@code req} abandoned it.
     */
    private boolean write(ByteBuffer[] sources, long bytes, long events, WriteRequest req) {
        int[] positions = new int[sources.length];
        for (int i = 0; i < sources.length; i++) {
            positions[i] = sources[i].position();
        }
        long start = sink.backend.position();
        long backoff = TimeUnit.MILLISECONDS.toNanos(10);
        int attempts = 0;
        while (true) {
            throttle(bytes);
            try {
                Object jfr = SpoolJfr.beginSinkWrite();
                sink.backend.write(sources);
                dirty = true;
                stalled = false;
                sink.written.add(events, bytes, System.nanoTime());
                SpoolJfr.sinkWritten(jfr, sink.name, events, bytes);
                return true;
            } catch (Exception | InternalError e) {
                attempts++;
                lastWriteError = e.toString();
                sink.recordError("write " + sink.name + " at " + start + ": " + e);
                if (!stalled) {
                    stalledSince = System.nanoTime();
                    stalled = true;
                }
                for (int i = 0; i < sources.length; i++) {
                    sources[i].position(positions[i]);
                }
                try {
                    sink.backend.rewind(start);
                } catch (Exception re) {
                    sink.recordError("rewind " + sink.name + ": " + re);
                }
                if (req != null && req.abandoned) {
                    return false;
                }
                if (sink.closed && attempts >= CLOSE_ATTEMPTS) {
                    if (Thread.currentThread() == thread) {
                        keepForRecovery(sources, start, bytes);
                    }
                    return false;
                }
                LockSupport.parkNanos(backoff);
                backoff = Math.min(MAX_BACKOFF_NANOS, backoff * 2);
            }
        }
    }

    /** Copies bytes that are given up, to be saved in the recovery folder when the writer ends. */
    private void keepForRecovery(ByteBuffer[] sources, long start, long bytes) {
        try {
            ByteBuffer copy = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, bytes));
            for (ByteBuffer b : sources) {
                ByteBuffer d = b.duplicate();
                if (d.remaining() > copy.remaining()) d.limit(d.position() + copy.remaining());
                copy.put(d);
            }
            copy.flip();
            givenUp.add(new RecoveryFolder.Item(Path.of(sink.name),
                    bytes + " bytes that belong at offset " + start + " (after the file header/data already there) of", copy));
        } catch (OutOfMemoryError | RuntimeException e) {
            sink.recordError("lost " + bytes + " bytes of " + sink.name + " at " + start + ": " + e);
        }
    }

    private void throttle(long bytes) {
        long rate = sink.maxBytesPerSecond;
        if (rate <= 0) {
            throttleNext = 0;
            return;
        }
        long now = System.nanoTime();
        if (throttleNext == 0 || throttleNext < now) {
            throttleNext = now;
        }
        long wait = throttleNext - now;
        while (wait > 0 && sink.maxBytesPerSecond > 0) {
            LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(100)));
            wait = throttleNext - System.nanoTime();
        }
        throttleNext += (long) (bytes * 1e9 / rate);
    }

    private void flushBackend() {
        try {
            sink.backend.flush();
            dirty = false;
        } catch (Exception e) {
            sink.recordError("flush " + sink.name + ": " + e);
        }
    }

    /** The output complete as it is now and still writable (through-lock held); false on failure. */
    boolean settle() {
        try {
            sink.backend.settle();
            dirty = false;
            return true;
        } catch (Exception | InternalError e) {
            sink.recordError("flush " + sink.name + ": " + e);
            return false;
        }
    }

    /** Closes the back end once (through-lock held, writer thread ended or ending). */
    void closeBackend() {
        if (sink.backendClosed) {
            return;
        }
        drainLeftovers();
        sink.backendClosed = true;
        try {
            sink.backend.close();
        } catch (Throwable t) {
            sink.recordError("close " + sink.name + ": " + t);
        }
    }
}
