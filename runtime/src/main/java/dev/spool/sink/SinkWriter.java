package dev.spool.sink;

import dev.spool.jfr.SpoolJfr;
import dev.spool.recovery.RecoveryFolder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one writer thread of a {@link ByteSink}: takes sealed buffers and direct requests from the
 * queue in order, waits for each buffer's reservations to be committed, writes, recycles the
 * buffer. When idle for {@link #LINGER_NANOS} (or asked to flush) it seals the partly filled
 * current buffer, so data never waits long in memory. Never dies: every failure is recorded.
 */
final class SinkWriter implements Runnable {
    /** How long a partly filled buffer may wait for more data before it is written anyway. */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Attempts per write once the sink is closing (before that: retried until it succeeds). */
    static final int CLOSE_ATTEMPTS = 5;
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ByteSink sink;
    volatile Thread thread;
    private volatile boolean parked;
    private boolean dirty;
    private long throttleNext;
    /** Bytes given up while closing (the target cannot take them); saved to the recovery folder at the end. */
    private final List<RecoveryFolder.Item> givenUp = new ArrayList<>();

    SinkWriter(ByteSink sink) {
        this.sink = sink;
    }

    void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        long idleSince = System.nanoTime();
        while (true) {
            try {
                Object item = sink.toWriter.poll();
                if (item != null) {
                    process(item);
                    idleSince = System.nanoTime();
                    continue;
                }
                if (sink.closed) {
                    sink.sealCurrent();
                    if (drain() && sink.current().reservedBytes() == 0) {
                        break;                   // nothing queued, nothing claimed by a racing append
                    }
                    continue;
                }
                if (sink.flushRequested) {
                    sink.flushRequested = false;
                    sink.sealCurrent();
                    continue;
                }
                if (dirty) {
                    flushBackend();
                }
                long now = System.nanoTime();
                if (now - idleSince >= LINGER_NANOS && sink.current().reservedBytes() > 0) {
                    sink.sealCurrent();
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
        if (!givenUp.isEmpty()) {
            RecoveryFolder.saveAll(givenUp, "unwritten chunk(s) of " + sink.name);
        }
        try {
            sink.backend.close();
        } catch (Throwable t) {
            sink.recordError("close " + sink.name + ": " + t);
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

    private void process(Object item) {
        if (item instanceof SinkBuffer) {
            writeBuffer((SinkBuffer) item);
        } else {
            WriteRequest req = (WriteRequest) item;
            if (req.isMarker()) {
                flushBackend();
                req.complete(true);
            } else {
                boolean ok = write(req.sources, req.bytes, 1);
                sink.pendingQueued.addAndGet(-req.bytes);
                if (ok) {
                    sink.directWrites.increment();
                }
                req.complete(ok);
            }
        }
    }

    private void writeBuffer(SinkBuffer buf) {
        int idle = 0;
        while (!buf.fullyCommitted()) {
            idle = Idle.step(idle);
        }
        int limit = buf.limit;
        if (limit > 0) {
            ByteBuffer view = buf.data.duplicate();
            view.position(0).limit(limit);
            write(new ByteBuffer[] {view}, limit, buf.committedEvents());
        }
        sink.pendingQueued.addAndGet(-limit);
        idle = 0;
        while (!buf.isEnqueued()) {
            idle = Idle.step(idle);              // the sealer marks it right after its offer
        }
        idle = 0;
        ByteSink.Slot slot;
        while ((slot = sink.currentSlot()).buf == buf && !sink.tryReplace(slot)) {
            idle = Idle.step(idle);              // a current buffer is never recycled under the producers
        }
        SinkBuffer next = buf;
        int wanted = sink.bufferBytes;
        if (buf.capacity != wanted) {
            next = new SinkBuffer(wanted, sink.backend.wantsDirectBuffers());
        } else {
            buf.recycle();
        }
        sink.free.offer(next);
        ByteSink.Slot cur = sink.currentSlot();
        if (cur.buf.isEnqueued()) {
            sink.tryReplace(cur);                // nobody may be waiting to install (policy DROP)
        }
    }

    /** Writes with retry and backoff; false when the bytes were given up (only while closing). */
    private boolean write(ByteBuffer[] sources, long bytes, long events) {
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
                sink.written.add(events, bytes, System.nanoTime());
                SpoolJfr.sinkWritten(jfr, sink.name, events, bytes);
                return true;
            } catch (Exception | InternalError e) {
                attempts++;
                sink.recordError("write " + sink.name + " at " + start + ": " + e);
                for (int i = 0; i < sources.length; i++) {
                    sources[i].position(positions[i]);
                }
                try {
                    sink.backend.rewind(start);
                } catch (Exception re) {
                    sink.recordError("rewind " + sink.name + ": " + re);
                }
                if (sink.closed && attempts >= CLOSE_ATTEMPTS) {
                    keepForRecovery(sources, start, bytes);
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
}
