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
 * <p><b>Bounds.</b> Every wait (a {@code BLOCK} producer, a direct write, {@link #flush},
 * {@link #close}, the writer waiting for a producer) is bounded by
 * {@link SinkSettings#waitMillis()}; past it the unit fails: {@code append} returns false and the
 * failure is counted as dropped and kept as the last error. An append racing {@link #close} is
 * either written or returns false; after the JVM's shutdown hook drained the sink, appends are
 * written through synchronously (see {@link SinkClosing}).
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
    /** {@link #offer} outcomes: accepted; dropped by policy {@code DROP}; failed (closed output, bounded wait ran out, write failed). */
    static final int OK = 0;
    static final int DROPPED = 1;
    static final int FAILED = 2;
    /** Current once the sink is closing: its buffer (capacity 0, never opened) refuses every reservation. */
    static final Slot CLOSED_SLOT = new Slot(new SinkBuffer(0, false));
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
    /** The owner closed the sink (not only the JVM's shutdown): the output is closed when drained. */
    volatile boolean closeRequested;
    /** Written under {@link #throughLock}: the back end is closed; nothing more can be written. */
    volatile boolean backendClosed;
    /** Serialises the back end between the ended writer and writes through after close. */
    final Object throughLock = new Object();
    final long waitMillis;
    final long waitNanos;
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
    final SinkClosing closing;
    final DirectWrites direct;
    private final Thread shutdownHook;
    private final SinkMetrics metrics;

    private ByteSink(SinkBackend backend, String name, SinkSettings s, boolean startWriter) {
        this.backend = backend;
        this.name = name;
        this.bufferBytes = s.bufferBytes();
        this.policy = s.policy();
        this.maxBytesPerSecond = s.maxBytesPerSecond();
        this.recordMax = s.recordMax();
        this.waitMillis = s.waitMillis();
        this.waitNanos = TimeUnit.MILLISECONDS.toNanos(s.waitMillis());
        this.directThreshold = s.directThreshold();
        this.directBacklogBytes = Math.max((long) s.buffers() * s.bufferBytes(), 2L * s.recordMax() + 4096);
        this.free = new MpmcAtomicArrayQueue<>(Math.max(4, s.buffers()));
        boolean directBuffers = backend.wantsDirectBuffers();
        SinkBuffer first = new SinkBuffer(s.bufferBytes(), directBuffers);
        first.open();
        CURRENT.setRelease(this, new Slot(first));
        for (int i = 1; i < s.buffers(); i++) {
            free.offer(new SinkBuffer(s.bufferBytes(), directBuffers));
        }
        this.metrics = new ByteSinkMetrics(this);
        this.writer = new SinkWriter(this);
        this.writerThread = new Thread(writer, "spool-sink-" + name);
        writerThread.setDaemon(true);
        writer.thread = writerThread;
        this.closing = new SinkClosing(this, writer, writerThread);
        this.direct = new DirectWrites(this);
        if (!startWriter) {
            this.shutdownHook = null;
            return;
        }
        writerThread.start();
        Thread hook = new Thread(this::shutdown, "spool-sink-shutdown-" + name);
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
        return new ByteSink(b, name, settings, true);
    }

    /** A sink writing the same bytes, unframed, to {@code delegate}; it owns the stream from now on. */
    static ByteSink forStream(OutputStream delegate, String name, SinkSettings settings) {
        return new ByteSink(new StreamBackend(Objects.requireNonNull(delegate, "delegate")), name, settings, true);
    }

    /**
     * For the JCStress tests only: a stream sink whose writer is not started and has no shutdown
     * hook; the test runs the writer loop itself on one of its actors with {@link #runWriter()}.
     */
    static ByteSink unstartedForStream(OutputStream delegate, SinkSettings settings) {
        return new ByteSink(new StreamBackend(delegate), "jcstress", settings, false);
    }

    /** For the JCStress tests only: runs the writer loop on the calling thread until the sink is closed and drained. */
    void runWriter() {
        writer.run();
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
     * unit. Returns false when the unit was not accepted: dropped under {@code DROP}, or failed
     * (closed and written through unsuccessfully, or a bounded wait ran out); both are counted.
     * A unit larger than a buffer is written directly (see {@link #appendDirect}).
     */
    public boolean append(ByteBuffer src) {
        return offer(src, null) == OK;
    }

    /**
     * Copies the remaining bytes of {@code first} and then of {@code second} (may be null) as
     * one contiguous unit, e.g. a frame header and its payload, without joining them first.
     */
    public boolean append(ByteBuffer first, ByteBuffer second) {
        return offer(first, second) == OK;
    }

    /** Copies {@code len} bytes of {@code b} from {@code off} as one unit; see {@link #append(ByteBuffer)}. */
    public boolean append(byte[] b, int off, int len) {
        return offer(ByteBuffer.wrap(b, off, len), null) == OK;
    }

    /** {@link #append(ByteBuffer, ByteBuffer)} telling {@link #OK}, {@link #DROPPED} (by policy) and {@link #FAILED}. */
    int offer(ByteBuffer first, ByteBuffer second) {
        int n1 = first.remaining();
        int n = n1 + (second == null ? 0 : second.remaining());
        if (n == 0) {
            return OK;
        }
        if (closed) {
            return writeThrough(first, second);
        }
        int idle = 0;
        long waitStart = 0;
        while (true) {
            Slot slot = currentSlot();
            SinkBuffer buf = slot.buf;
            if (n > buf.capacity) {
                return buf == CLOSED_SLOT.buf ? writeThrough(first, second)
                        : offerDirect(second == null ? new ByteBuffer[] {first} : new ByteBuffer[] {first, second});
            }
            long r = buf.reserve(n);
            if (r >= 0) {
                boolean copied = false;          // inline, no call between reserve and try: see package-info
                try {
                    buf.data.put((int) r, first, first.position(), n1);
                    if (second != null) {
                        buf.data.put((int) r + n1, second, second.position(), n - n1);
                    }
                    copied = true;
                } finally {
                    if (copied) {
                        buf.commit(n);           // if this throws, the writer's bounded wait writes the copied bytes
                    } else {
                        synchronized (buf.holes) {   // no call: this thread may be at its stack limit
                            int h = buf.holeCount;
                            if (h < SinkBuffer.MAX_HOLES) {
                                buf.holes[h] = (r << 32) | n;
                            }
                            buf.holeCount = h + 1;
                            buf.deferredBytes += n;
                            buf.deferredUnits++;
                        }
                    }
                }
                return OK;
            }
            if (r == SinkBuffer.SEALED_BY_ME) {
                handOff(buf);
            }
            if (buf == CLOSED_SLOT.buf) {
                return writeThrough(first, second);
            }
            boolean moving = buf.claimedAcquire() >= SinkBuffer.CLOSED || !buf.isEnqueued();
            if (!moving && tryReplace(slot)) {
                continue;
            }
            SinkPolicy p = policy;
            if (p == SinkPolicy.DROP && (!moving || idle >= Idle.SPINS)) {
                dropped.increment();             // DROP never waits beyond a moment's spin
                return DROPPED;
            }
            if (p == SinkPolicy.SYNC && !moving) {
                return offerDirect(second == null ? new ByteBuffer[] {first} : new ByteBuffer[] {first, second});
            }
            if (waitStart == 0) {
                waitStart = System.nanoTime() | 1;
            } else if (waitedTooLong(waitStart)) {
                return fail("a " + p + " producer waited " + waitMillis + " ms for a free buffer");
            }
            idle = Idle.step(idle);
        }
    }

    /** True when a wait that began at {@code start} is past the bound, or the writer is stuck failing that long. */
    private boolean waitedTooLong(long start) {
        return System.nanoTime() - start >= waitNanos || writerStalledLongerThan(waitNanos);
    }

    /** The writer's current write has been failing for at least {@code nanos} (e.g. a full disk). */
    boolean writerStalledLongerThan(long nanos) {
        return writer.stalled && System.nanoTime() - writer.stalledSince >= nanos;
    }

    /**
     * Writes the sources' remaining bytes as one unit without copying them into a buffer: what
     * was appended before (by any thread) is written first, then the sources in one gathering
     * write. Under {@code BLOCK} and {@code SYNC} returns once written (the caller may reuse the
     * sources afterwards), or after {@code spool.sink.wait.millis} with false (nothing of the unit
     * written then); under {@code DROP} the bytes are copied if the direct backlog has room and
     * dropped otherwise. Returns false when dropped or failed.
     */
    public boolean appendDirect(ByteBuffer... sources) {
        return offerDirect(sources) == OK;
    }

    int offerDirect(ByteBuffer[] sources) {
        return direct.offer(sources);
    }

    /** Counts a failed unit (as dropped, and as the last error) and returns {@link #FAILED}. */
    int fail(String why) {
        dropped.increment();
        recordError(name + ": " + why + (writer.stalled ? "; the writer is failing: " + writer.lastWriteError : ""));
        return FAILED;
    }

    /** A cheap request: the writer writes what is buffered soon, without the caller waiting. */
    public void requestFlush() {
        flushRequested = true;
        writer.wake();
    }

    /**
     * Returns once everything appended before the call has been handed to the OS, or false when
     * {@code timeoutMillis} passed first, a write attempt failed meanwhile (e.g. a full disk: the
     * writer keeps retrying, the caller is told at once), or the output is closed. On a sink
     * closed by the JVM's shutdown (writing through) it returns once the output is flushed.
     */
    public boolean flush(long timeoutMillis) {
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        if (closed) {
            return closing.flush(timeoutNanos);
        }
        if (writerEnded() || !sealCurrent()) {
            return false;
        }
        WriteRequest marker = new WriteRequest(null, Thread.currentThread());
        enqueue(marker);
        return marker.await(timeoutNanos, this, true) && marker.succeeded();
    }

    /**
     * Writes everything appended before, closes the output and stops the writer thread, waiting
     * at most {@code spool.sink.wait.millis} (past it the writer finishes and closes in the
     * background, and the overrun is recorded as an error). Idempotent. Appends after it
     * fail (the output is closed), as writes to a closed stream do. See {@link SinkClosing}.
     */
    @Override
    public void close() {
        closing.close();
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down; the hook is running or done.
            }
        }
    }

    /**
     * The JVM's shutdown hook: drains (waiting at most {@link #SHUTDOWN_WAIT_MILLIS}) but keeps
     * the output open; bytes written later are written through. See {@link SinkClosing}.
     */
    void shutdown() {
        closing.shutdown();
    }

    private int writeThrough(ByteBuffer first, ByteBuffer second) {
        return closing.writeThrough(second == null ? new ByteBuffer[] {first} : new ByteBuffer[] {first, second});
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
        if (!buf.claimHandOff()) {
            return;                              // the writer rescued it already
        }
        try {
            pendingQueued.addAndGet(buf.limit);
            toWriter.offer(buf);
        } finally {
            buf.markEnqueued();                  // even if this thread dies here: producers move on
        }
        writer.wake();
    }

    void wakeWriter() {
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
     * it holds data, or waits the moment until its sealer has enqueued it. False when that
     * moment lasted {@code spool.sink.wait.millis} (its sealer died or is stuck).
     */
    boolean sealCurrent() {
        int idle = 0;
        long start = 0;
        while (true) {
            Slot slot = currentSlot();
            SinkBuffer buf = slot.buf;
            long c = buf.claimedAcquire();
            if (c == 0 || c >= SinkBuffer.CLOSED) {
                return true;                     // empty: every earlier buffer is already enqueued
            }
            if (c > buf.capacity) {
                if (buf.isEnqueued()) {
                    return true;
                }
                if (start == 0) {
                    start = System.nanoTime() | 1;
                } else if (System.nanoTime() - start >= waitNanos) {
                    recordError(name + ": a sealed buffer was not handed to the writer within " + waitMillis + " ms");
                    return false;
                }
                idle = Idle.step(idle);
                continue;
            }
            if (buf.seal()) {
                handOff(buf);
                tryReplace(slot);
                return true;
            }
        }
    }

    /**
     * Writer only: hands off a current buffer that has stayed sealed but not enqueued for
     * {@code spool.sink.wait.millis} (its sealer died between seal and hand-off), so producers
     * and flushes move on. {@code since} is when the writer first saw it so.
     */
    void rescueSealed(SinkBuffer buf) {
        if (currentSlot().buf == buf && buf.claimedAcquire() > buf.capacity && buf.claimedAcquire() < SinkBuffer.CLOSED
                && !buf.isEnqueued() && buf.claimHandOff()) {
            recordError(name + ": a sealed buffer was not handed off within " + waitMillis
                    + " ms (its producer died?); the writer took it");
            try {
                pendingQueued.addAndGet(buf.limit);
                toWriter.offer(buf);
            } finally {
                buf.markEnqueued();
            }
        }
    }

    /**
     * Writer only, closing: seals the current buffer and replaces it with {@link #CLOSED_SLOT},
     * whose buffer refuses every reservation, so no producer can reserve space the writer will
     * not write; appends then write through. True once the closed slot is current.
     */
    boolean closeCurrent() {
        Slot slot = currentSlot();
        if (slot == CLOSED_SLOT) {
            return true;
        }
        SinkBuffer buf = slot.buf;
        long c = buf.claimedAcquire();
        if (c >= SinkBuffer.CLOSED) {
            return false;                        // being installed: opened in a moment
        }
        if (c <= buf.capacity) {
            if (buf.seal()) {
                handOff(buf);
                return CURRENT.compareAndSet(this, slot, CLOSED_SLOT);
            }
            return false;
        }
        return buf.isEnqueued() && CURRENT.compareAndSet(this, slot, CLOSED_SLOT);
    }

    void recordError(String description) {
        lastError = java.time.Instant.now() + " " + description; // first: a reader seeing Errors > 0 sees it
        errors.incrementAndGet();
    }

    long pendingBytes() {
        return pendingQueued.get() + current().reservedBytes();
    }

    /** A write is failing and being retried right now (e.g. a full disk). */
    boolean writerStalled() {
        return writer.stalled;
    }

    /** The writer has finished for good (its last actions happen-before a true result). */
    boolean writerEnded() {
        return writer.ended;
    }

}
