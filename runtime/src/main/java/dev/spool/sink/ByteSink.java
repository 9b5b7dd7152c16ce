package dev.spool.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;

/**
 * A many-producer, one-writer byte sink: producers copy each unit of bytes (one framed record
 * or one stream write) into a shared buffer with claim/write/commit and return; one daemon writer
 * thread, {@code spool-sink-<name>}, writes filled buffers to the back end in large sequential
 * writes. Units are never split or interleaved.
 *
 * <p><b>Guarantees.</b> Units of one producer thread reach the output in the order it appended
 * them; for one sink, units appear in the order their space was claimed. A direct append is
 * written after everything appended before it by any thread has been written. Lock-free for
 * producers while a buffer has room; when none has, {@link SinkPolicy} decides: {@code BLOCK}
 * waits, {@code DROP} refuses (counted), {@code SYNC} writes through. No method throws into the
 * caller; I/O errors are counted, kept as the last error and retried with backoff by the writer.
 *
 * <pre>{@code
 * try (ByteSink sink = ByteSink.forChannel(channel, 0, "app.log", SinkSettings.defaults())) {
 *     sink.append(ByteBuffer.wrap(bytes));     // copied; returns at once
 *     sink.flush(TimeUnit.SECONDS.toMillis(5)); // everything above is with the OS
 * }
 * }</pre>
 */
public final class ByteSink implements AutoCloseable {
    /** How long the JVM shutdown hook waits for the writer to drain, so a host's exit never hangs. */
    static final long SHUTDOWN_WAIT_MILLIS = 10_000;
    private static final VarHandle CURRENT;

    static {
        try {
            CURRENT = MethodHandles.lookup().findVarHandle(ByteSink.class, "current", Slot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String name;
    final SinkBackend backend;
    final MpscUnboundedAtomicArrayQueue<Object> toWriter = new MpscUnboundedAtomicArrayQueue<>(64);
    final MpmcAtomicArrayQueue<SinkBuffer> free;
    final int recordMax;
    final int directThreshold;
    final long directBacklogBytes;
    volatile int bufferBytes;
    volatile SinkPolicy policy;
    volatile long maxBytesPerSecond;
    volatile boolean closed;
    volatile boolean flushRequested;

    final LongAdder dropped = new LongAdder();
    final LongAdder directWrites = new LongAdder();
    final LongAdder splitRecords = new LongAdder();
    final AtomicLong pendingQueued = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    volatile String lastError;
    final RecentRate written = new RecentRate();

    /**
     * One installation of a buffer as current. A new slot per installation makes the
     * compare-and-set of {@link #tryReplace} immune to ABA: a buffer recycled and installed again
     * gets a new slot, so a producer holding the old one can never replace the new installation.
     */
    static final class Slot {
        final SinkBuffer buf;

        Slot(SinkBuffer buf) {
            this.buf = buf;
        }
    }

    @SuppressWarnings("unused") private Slot current;
    private final SinkWriter writer;
    private final Thread writerThread;
    private final Thread shutdownHook;
    private final SinkMetrics metrics;

    private ByteSink(SinkBackend backend, String name, SinkSettings s) {
        this.backend = backend;
        this.name = name;
        this.bufferBytes = s.bufferBytes();
        this.policy = s.policy();
        this.maxBytesPerSecond = s.maxBytesPerSecond();
        this.recordMax = s.recordMax();
        this.directThreshold = s.directThreshold();
        this.directBacklogBytes = Math.max((long) s.buffers() * s.bufferBytes(), 2L * s.recordMax() + 4096);
        this.free = new MpmcAtomicArrayQueue<>(Math.max(4, s.buffers()));
        boolean direct = backend.wantsDirectBuffers();
        SinkBuffer first = new SinkBuffer(s.bufferBytes(), direct);
        first.open();
        CURRENT.setRelease(this, new Slot(first));
        for (int i = 1; i < s.buffers(); i++) {
            free.offer(new SinkBuffer(s.bufferBytes(), direct));
        }
        this.metrics = new ByteSinkMetrics(this);
        this.writer = new SinkWriter(this);
        this.writerThread = new Thread(writer, "spool-sink-" + name);
        writerThread.setDaemon(true);
        writer.thread = writerThread;
        writerThread.start();
        Thread hook = new Thread(() -> close(SHUTDOWN_WAIT_MILLIS), "spool-sink-shutdown-" + name);
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException | SecurityException e) {
            hook = null;
        }
        this.shutdownHook = hook;
    }

    /**
     * A sink writing to {@code channel} from byte {@code start} on, with the back end named by
     * the settings' type. The sink owns the channel from now on.
     */
    public static ByteSink forChannel(FileChannel channel, long start, String name, SinkSettings settings)
            throws IOException {
        Objects.requireNonNull(channel, "channel");
        SinkBackend b = settings.type() == SinkType.MMAP
                ? new MmapBackend(channel, start) : new FileBackend(channel, start);
        return new ByteSink(b, name, settings);
    }

    /** A sink writing the same bytes, unframed, to {@code delegate}; it owns the stream from now on. */
    static ByteSink forStream(OutputStream delegate, String name, SinkSettings settings) {
        return new ByteSink(new StreamBackend(Objects.requireNonNull(delegate, "delegate")), name, settings);
    }

    public SinkMetrics metrics() {
        return metrics;
    }

    /** The payload size from which a framing layer should use {@link #appendDirect}. */
    public int directThreshold() {
        return directThreshold;
    }

    /** The largest record before a framing layer splits it into parts. */
    public int recordMax() {
        return recordMax;
    }

    /** For framing layers: one record was written as parts. */
    public void countSplitRecord() {
        splitRecords.increment();
    }

    /** For framing layers: an error of the caller's data (nothing written), kept as last error. */
    public void countError(String description) {
        recordError(description);
    }

    /**
     * Copies {@code src}'s remaining bytes (its position is not changed) into the sink as one
     * unit. Returns false when the unit was dropped (policy {@code DROP}, or the sink is closed).
     * A unit larger than a buffer is written directly (see {@link #appendDirect}).
     */
    public boolean append(ByteBuffer src) {
        return append(src, null);
    }

    /**
     * Copies the remaining bytes of {@code first} and then of {@code second} (may be null) as
     * one contiguous unit, e.g. a frame header and its payload, without joining them first.
     */
    public boolean append(ByteBuffer first, ByteBuffer second) {
        int n1 = first.remaining();
        int n = n1 + (second == null ? 0 : second.remaining());
        if (n == 0) {
            return true;
        }
        if (closed) {
            dropped.increment();
            return false;
        }
        int idle = 0;
        while (true) {
            Slot slot = currentSlot();
            SinkBuffer buf = slot.buf;
            if (n > buf.capacity) {
                return second == null ? appendDirect(first) : appendDirect(first, second);
            }
            long r = buf.reserve(n);
            if (r >= 0) {
                buf.data.put((int) r, first, first.position(), n1);
                if (second != null) {
                    buf.data.put((int) r + n1, second, second.position(), n - n1);
                }
                buf.commit(n);
                return true;
            }
            if (r == SinkBuffer.SEALED_BY_ME) {
                handOff(buf);
            }
            if (buf.claimedAcquire() >= SinkBuffer.CLOSED || !buf.isEnqueued()) {
                idle = Idle.step(idle);         // being installed or sealed right now: a moment
                continue;
            }
            if (tryReplace(slot)) {
                continue;
            }
            SinkPolicy p = policy;
            if (p == SinkPolicy.DROP || closed) {
                dropped.increment();
                return false;
            }
            if (p == SinkPolicy.SYNC) {
                return second == null ? appendDirect(first) : appendDirect(first, second);
            }
            idle = Idle.step(idle);
        }
    }

    /** Copies {@code len} bytes of {@code b} from {@code off} as one unit; see {@link #append(ByteBuffer)}. */
    public boolean append(byte[] b, int off, int len) {
        return append(ByteBuffer.wrap(b, off, len));
    }

    /**
     * Writes the sources' remaining bytes as one unit without copying them into a buffer: what
     * was appended before (by any thread) is written first, then the sources in one gathering
     * write. Under {@code BLOCK} and {@code SYNC} returns once written (the caller may reuse the
     * sources afterwards); under {@code DROP} the bytes are copied if the direct backlog has room
     * and dropped otherwise. Returns false when dropped or lost.
     */
    public boolean appendDirect(ByteBuffer... sources) {
        if (closed) {
            dropped.increment();
            return false;
        }
        long bytes = 0;
        for (ByteBuffer s : sources) {
            bytes += s.remaining();
        }
        if (policy == SinkPolicy.DROP) {
            if (pendingQueued.get() + bytes > directBacklogBytes) {
                dropped.increment();
                return false;
            }
            sealCurrent();
            enqueue(new WriteRequest(new ByteBuffer[] {copy(sources, bytes)}, null));
            return true;
        }
        sealCurrent();
        WriteRequest req = new WriteRequest(sources, Thread.currentThread());
        enqueue(req);
        return req.await(Long.MAX_VALUE, writerThread);
    }

    /** A cheap request: the writer writes what is buffered soon, without the caller waiting. */
    public void requestFlush() {
        flushRequested = true;
        writer.wake();
    }

    /**
     * Returns once everything appended before the call has been handed to the OS, or false when
     * {@code timeoutMillis} passed first (or the sink is closed).
     */
    public boolean flush(long timeoutMillis) {
        if (closed || !writerThread.isAlive()) {
            return false;
        }
        sealCurrent();
        WriteRequest marker = new WriteRequest(null, Thread.currentThread());
        enqueue(marker);
        return marker.await(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis), writerThread);
    }

    /** Writes everything appended before, closes the back end and stops the writer thread. Idempotent. */
    @Override
    public void close() {
        close(0);
    }

    /** Closes, waiting at most {@code waitMillis} for the writer ({@code 0}: until it is done). */
    void close(long waitMillis) {
        synchronized (this) {
            if (!closed) {
                closed = true;
                writer.wake();
            }
        }
        if (Thread.currentThread() != writerThread) {
            try {
                writerThread.join(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down; the hook is running or done.
            }
        }
    }

    public boolean isClosed() {
        return closed;
    }

    // ----- internals shared with SinkWriter -----

    Slot currentSlot() {
        return (Slot) CURRENT.getAcquire(this);
    }

    SinkBuffer current() {
        return currentSlot().buf;
    }

    /** Hands a buffer this thread sealed to the writer; order: offer, then mark enqueued. */
    void handOff(SinkBuffer buf) {
        pendingQueued.addAndGet(buf.limit);
        toWriter.offer(buf);
        buf.markEnqueued();
        writer.wake();
    }

    void enqueue(WriteRequest req) {
        pendingQueued.addAndGet(req.bytes);
        toWriter.offer(req);
        writer.wake();
    }

    /**
     * Installs a free buffer in place of slot {@code full}, whose buffer the caller saw sealed
     * and enqueued. Returns false only when {@code full} is still current and no buffer is free.
     */
    boolean tryReplace(Slot full) {
        if (currentSlot() != full) {
            return true;
        }
        SinkBuffer next = free.poll();
        if (next == null) {
            return false;
        }
        if (CURRENT.compareAndSet(this, full, new Slot(next))) {
            next.open();
        } else {
            free.offer(next);
        }
        return true;
    }

    /**
     * Makes sure everything appended before is in the writer's queue: seals the current buffer if
     * it holds data, or waits the moment until its sealer has enqueued it.
     */
    void sealCurrent() {
        int idle = 0;
        while (true) {
            Slot slot = currentSlot();
            SinkBuffer buf = slot.buf;
            long c = buf.claimedAcquire();
            if (c == 0 || c >= SinkBuffer.CLOSED) {
                return;                          // empty: every earlier buffer is already enqueued
            }
            if (c > buf.capacity) {
                if (buf.isEnqueued()) {
                    return;
                }
                idle = Idle.step(idle);
                continue;
            }
            if (buf.seal()) {
                handOff(buf);
                tryReplace(slot);
                return;
            }
        }
    }

    void recordError(String description) {
        lastError = java.time.Instant.now() + " " + description; // first: a reader seeing Errors > 0 sees it
        errors.incrementAndGet();
    }

    long pendingBytes() {
        return pendingQueued.get() + current().reservedBytes();
    }

    Thread writerThread() {
        return writerThread;
    }

    private static ByteBuffer copy(ByteBuffer[] sources, long bytes) {
        ByteBuffer c = ByteBuffer.allocate(Math.toIntExact(bytes));
        for (ByteBuffer s : sources) {
            c.put(s.duplicate());
        }
        return c.flip();
    }
}
