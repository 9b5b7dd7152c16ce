package dev.spool.sink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one writer of a {@link ByteSink}: takes sealed buffers and direct requests from the queue in
 * order, waits (bounded) for each buffer's reservations to be committed, writes, recycles the
 * buffer. When idle for {@link #LINGER_NANOS} (or asked to flush) it seals the partly filled
 * current buffer, so data never waits long in memory. Never dies: every failure is recorded,
 * every request completed. The writes themselves (retry and backoff, throttle, the failing-write
 * state, bytes given up while closing) are its {@link BackendWrites}.
 *
 * <p><b>Who runs it.</b> The writer is a sequence of {@link #step()}s run by one thread at a time:
 * a {@link SinkWriterPool} thread in turns ({@link #member} set; {@link #wake()} schedules a turn),
 * or a thread of its own looping in {@link #run()} ({@code spool.sink.threads=0}, the JCStress
 * tests; {@link #wake()} unparks it). {@link #runner} is the thread running it now. Its plain
 * fields are touched only inside steps, ordered across turns by the pool (see the package
 * documentation). After the writer ended, the write-through path of a closed sink uses the same
 * methods (and its {@link BackendWrites}) under {@link ByteSink#throughLock}.
 */
final class SinkWriter implements Runnable {
    /** How long a partly filled buffer may wait for more data before it is written anyway. */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** {@link #step} outcomes. */
    static final int WORKED = 0;
    static final int IDLE = 1;
    static final int ENDED = 2;

    private final ByteSink sink;
    private final SinkRecycler recycler;
    /** The writes to the back end: retry, throttle, the failing-write state, bytes given up while closing. */
    final BackendWrites output;
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
    /** A current buffer seen sealed but not enqueued, and since when (see {@link BufferHandOff#rescueSealed}). */
    private SinkBuffer sealWatch;
    private long sealWatchSince;

    SinkWriter(ByteSink sink) {
        this.sink = sink;
        this.recycler = new SinkRecycler(sink);
        this.output = new BackendWrites(sink, this);
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
            if (output.dirty) {
                output.flushBackend();
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
                output.saveGivenUp();
                if (sink.journal != null) {
                    sink.journal.delete();       // every buffer is written (or given up to the recovery folder)
                }
                if (sink.closeRequested) {
                    closeBackend();
                } else {
                    output.settle();             // the JVM's shutdown: later bytes are written through
                }
                // closeBackend drains once more: a direct write queued after the drain above (its producer
                // read 'not closed' just before the close) and given up there is saved too
                output.saveGivenUp();
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
                output.flushBackend();
                sink.direct.reconcile();         // a flush leaves no skewed count behind
                ok = true;
            } else {
                ok = output.write(req.sources, req.bytes, 1, req);
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
                output.journalSeq = buf.region >= 0 ? buf.journalSeq : 0;
                ByteBuffer[] parts = slices(buf.data, limit, holes);
                output.write(parts, remaining(parts), buf.committedEvents() - holes.length, null);
            }
        } finally {
            output.journalSeq = 0;
            buf.written = true;
            if (sink.journal != null) {
                sink.journal.bufferWritten(buf, limit, whole);
            }
            recycler.release(buf, whole);
        }
    }

    private static long remaining(ByteBuffer[] parts) {
        long n = 0;
        for (ByteBuffer b : parts) {
            n += b.remaining();
        }
        return n;
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
