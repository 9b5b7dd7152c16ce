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
 * The one writer of a {@link ByteSink}: takes sealed buffers and direct requests from the queue in
 * order, waits (bounded) for each buffer's reservations to be committed, writes, recycles the
 * buffer. When idle for {@link #LINGER_NANOS} (or asked to flush) it seals the partly filled
 * current buffer, so data never waits long in memory. Never dies: every failure is recorded,
 * every request completed.
 *
 * <p><b>Who runs it.</b> The writer is a sequence of {@link #step()}s run by one thread at a time:
 * a {@link SinkWriterPool} thread in turns ({@link #member} set; {@link #wake()} schedules a turn),
 * or a thread of its own looping in {@link #run()} ({@code spool.sink.threads=0}, the JCStress
 * tests; {@link #wake()} unparks it). {@link #runner} is the thread running it now. Its plain
 * fields are touched only inside steps, ordered across turns by the pool (see the package
 * documentation). After the writer ended, the write-through path of a closed sink uses the same
 * methods under {@link ByteSink#throughLock}.
 */
final class SinkWriter implements Runnable {
    /** How long a partly filled buffer may wait for more data before it is written anyway. */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Attempts per write once the sink is closing (before that: retried until it succeeds). */
    static final int CLOSE_ATTEMPTS = 5;
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** {@link #step} outcomes. */
    static final int WORKED = 0;
    static final int IDLE = 1;
    static final int ENDED = 2;

    private final ByteSink sink;
    private final SinkRecycler recycler;
    /** The writer's own thread ({@link #run}), or null on the pool. */
    private volatile Thread thread;
    /** The thread running the writer now: its own, or the pool thread of the current turn (else null). */
    volatile Thread runner;
    /** The pool turn this writer runs in, or null when it runs on a thread of its own. */
    volatile SinkWriterPool.Member member;
    /** When the writer last processed an item (its own field: written and read only in turns, see package-info). */
    private long idleSince = System.nanoTime();
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

    /** A producer queued something or set a flag: the writer runs soon (its pool turn, or its own thread unparked). */
    void wake() {
        SinkWriterPool.Member m = member;
        if (m != null) {
            m.signal();
        } else if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** The calling thread is the one running this writer now (its own thread, or a pool thread in its turn). */
    boolean runningHere() {
        return runner == Thread.currentThread();
    }

    /**
     * The writer on a thread of its own ({@code spool.sink.threads=0}, and the JCStress tests):
     * steps until the sink is closed and drained, parking up to {@link #LINGER_NANOS} when idle.
     */
    @Override
    public void run() {
        thread = Thread.currentThread();
        runner = thread;
        while (step() != ENDED) {
            parked = true;
            if (sink.toWriter.isEmpty() && !sink.closed && !sink.flushRequested) {
                LockSupport.parkNanos(this, LINGER_NANOS);
            }
            parked = false;
        }
    }

    /**
     * One step of the writer loop, on whichever thread runs the writer now (one at a time):
     * processes one queued item, or a flush request, or (idle) flushes the output, watches for a
     * dead sealer's buffer, reconciles the direct count and seals a buffer that lingered
     * {@link #LINGER_NANOS}. Once the sink is closed it runs the closing to its end ({@link #finish}).
     * Never throws: every failure is recorded.
     *
     * @return {@link #WORKED} (call again), {@link #IDLE} (nothing to do until woken or ticked), {@link #ENDED}
     */
    int step() {
        try {
            Object item = sink.toWriter.poll();
            if (item != null) {
                process(item);
                idleSince = System.nanoTime();
                return WORKED;
            }
            if (sink.closed) {
                finish();
                return ENDED;
            }
            if (sink.flushRequested) {
                sink.flushRequested = false;
                sink.slots.sealCurrent(sink.waitNanos);
                return WORKED;
            }
            if (dirty) {
                flushBackend();
            }
            long now = System.nanoTime();
            watchSealed(now, sink.waitNanos);
            sink.direct.reconcile();             // idle: the count must be what the queue holds
            if (now - idleSince >= LINGER_NANOS && sink.current().reservedBytes() > 0) {
                sink.slots.sealCurrent(sink.waitNanos);
                idleSince = now;
                return WORKED;
            }
            return IDLE;
        } catch (Throwable t) {
            sink.recordError("writer: " + t);
            return WORKED;
        }
    }

    /** Something queued or flagged for the writer (read after a pool turn set the sink idle). */
    boolean hasInput() {
        return !sink.toWriter.isEmpty() || sink.closed || sink.flushRequested;
    }

    /** For the pool's timer: a partly filled or sealed current buffer, a skewed count, or input. */
    boolean wantsTick() {
        if (ended) {
            return false;
        }
        if (hasInput()) {
            return true;
        }
        SinkBuffer cur = sink.current();
        return cur.reservedBytes() > 0 || cur.sealedNotEnqueued() || sink.direct.queuedBytes() != 0;
    }

    /**
     * The sink is closed: processes what is queued, seals the current buffer and installs the
     * closed slot (rescuing a dead sealer's buffer after half of {@code spool.sink.wait.millis}),
     * then settles or closes the output and ends. Bounded by {@code spool.sink.wait.millis}.
     */
    private void finish() {
        long closingSince = System.nanoTime() | 1;
        int idle = 0;
        while (true) {
            try {
                Object item = sink.toWriter.poll();
                if (item != null) {
                    process(item);
                    continue;
                }
                watchSealed(System.nanoTime(), sink.waitNanos / 2); // a dead sealer's buffer: written within close's bound
                boolean sealed = sink.slots.closeCurrent();
                if (!sealed && System.nanoTime() - closingSince >= sink.waitNanos) {
                    sink.recordError("close " + sink.name + ": the current buffer could not be sealed within "
                            + sink.waitMillis + " ms (a producer died while installing it?)");
                    sealed = true;
                }
                if (sealed && drain()) {
                    break;                       // closed slot current, nothing queued: no append can land here
                }
                idle = Idle.step(idle);
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
                    if (runningHere()) {
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
