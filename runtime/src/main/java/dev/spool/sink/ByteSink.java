package dev.spool.sink;

import dev.spool.internal.Internal;
import dev.spool.internal.jfr.SpoolJfr;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A many-producer, one-writer byte sink: producers copy each unit of bytes (one framed record
 * or one stream write) into a shared buffer with claim/write/commit and return; the sink's writer
 * writes filled buffers to the back end in large sequential writes, run in turns by the process's
 * shared writer pool ({@code spool-sink-writer-<i>}, see {@link #configureWriterThreads}; one
 * thread at a time per sink), or by a thread of its own ({@code spool-sink-<name>}) when the pool
 * is configured to 0 threads. Units are never split or interleaved.
 *
 * <p><b>Guarantees.</b> Units of one producer thread reach the output in the order it appended
 * them; for one sink, units appear in the order their space was claimed. A direct append is
 * written after everything appended before it by any thread has been written. Lock-free for
 * producers while a buffer has room; when none has, {@link SinkPolicy} decides: {@code BLOCK}
 * waits, {@code DROP} refuses (counted), {@code SYNC} writes through. No exception is thrown into
 * the caller; I/O errors are counted, kept as the last error and retried with backoff by the writer.
 * A JVM {@code Error} raised on the caller's own thread while it copies its bytes (out of memory, a
 * stack overflow) leaves a counted hole in the buffer and then propagates: the dying producer of
 * {@code package-info}.
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
@Internal
public final class ByteSink implements AutoCloseable {
    /** How long the JVM shutdown hook waits for the writer to drain, so a host's exit never hangs. */
    static final long SHUTDOWN_WAIT_MILLIS = 10_000;
    /** {@link #offer} outcomes: accepted; dropped by policy {@code DROP}; failed (closed output, bounded wait ran out, write failed). */
    static final int OK = 0;
    static final int DROPPED = 1;
    static final int FAILED = 2;
    final String name;
    final SinkBackend backend;
    /**
     * Sealed slots and write requests, in order. A linked queue whose offer is one compare-and-set
     * of a complete node: a producer dying inside it has either offered or not, never half (see
     * the package documentation).
     */
    final ConcurrentLinkedQueue<Object> toWriter = new ConcurrentLinkedQueue<>();
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
    final AtomicLong errors = new AtomicLong();
    volatile String lastError;
    final RecentRate written = new RecentRate();

    final BufferHandOff slots;
    private final SinkWriter writer;
    final SinkClosing closing;
    final DirectWrites direct;
    final BufferedAppends appends;
    private final Thread shutdownHook;
    private final SinkMetrics metrics;

    /** The journal backing the buffers (issue 33), or null: buffers of memory of their own. */
    final SinkJournal journal;
    /** Frames and bytes the open of this sink's file replayed from a killed writer's journal. */
    volatile long recoveredFrames;
    volatile long recoveredBytes;

    private ByteSink(SinkBackend backend, String name, SinkSettings s, boolean startWriter, SinkWriterPool pool) {
        this(backend, name, s, startWriter, pool, null);
    }

    private ByteSink(SinkBackend backend, String name, SinkSettings s, boolean startWriter, SinkWriterPool pool,
                     SinkJournal journal) {
        this.backend = backend;
        this.name = name;
        this.journal = journal;
        if (journal != null) {
            journal.sink = this;
        }
        this.bufferBytes = s.bufferBytes();
        this.policy = s.policy();
        this.maxBytesPerSecond = s.maxBytesPerSecond();
        this.recordMax = s.recordMax();
        this.waitMillis = s.waitMillis();
        this.waitNanos = TimeUnit.MILLISECONDS.toNanos(s.waitMillis());
        this.directThreshold = s.directThreshold();
        this.directBacklogBytes = Math.max((long) s.buffers() * s.bufferBytes(), 2L * s.recordMax() + 4096);
        this.slots = new BufferHandOff(this, s.buffers(), s.bufferBytes(), backend.wantsDirectBuffers());
        this.metrics = new ByteSinkMetrics(this);
        SpoolJfr.track(metrics);
        this.writer = new SinkWriter(this);
        this.closing = new SinkClosing(this, writer);
        this.direct = new DirectWrites(this);
        this.appends = new BufferedAppends(this);
        this.shutdownHook = startWriter ? SinkStart.start(this, writer, pool) : null;   // last: see SinkStart
    }

    /**
     * A sink writing to {@code channel} from the position {@code start} returns, with the back end
     * named by the settings' type. {@code start} runs once, on the writer thread, before the first
     * write (or at the first settle or at close when nothing was written), so the opening thread
     * does not wait for it; a failure of it fails that write, retried as any failed write is. The
     * sink owns the channel from now on.
     *
     * @param channel the file, open for writing
     * @param start finds the position to write from (it may change the file, e.g. cut padding)
     * @param name the sink's name (its metrics' path)
     * @param settings the sink's settings
     * @return the sink, started
     */
    public static ByteSink forChannel(FileChannel channel, Callable<Long> start, String name, SinkSettings settings) {
        return forChannel(channel, start, name, settings, null);
    }

    /**
     * {@link #forChannel(FileChannel, Callable, String, SinkSettings)} whose buffers are the regions
     * of {@code journal} (null: none), so what producers copied survives a kill of the process.
     * The journal is the sink's from now on: removed when the sink ended with everything written.
     */
    public static ByteSink forChannel(FileChannel channel, Callable<Long> start, String name, SinkSettings settings,
                                     SinkJournal journal) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(start, "start");
        SinkBackend b = DeferredStartBackend.calling(settings.type(), channel, start);
        return new ByteSink(b, name, settings, true, SinkWriterPool.shared(), journal);
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
        return new ByteSink(b, name, settings, true, SinkWriterPool.shared());
    }

    /** A sink writing the same bytes, unframed, to {@code delegate}; it owns the stream from now on. */
    static ByteSink forStream(OutputStream delegate, String name, SinkSettings settings) {
        return forStream(delegate, name, settings, SinkWriterPool.shared());
    }

    /** A stream sink written by {@code pool}'s threads, or by a thread of its own when {@code pool} is null. */
    static ByteSink forStream(OutputStream delegate, String name, SinkSettings settings, SinkWriterPool pool) {
        return new ByteSink(new StreamBackend(Objects.requireNonNull(delegate, "delegate")), name, settings, true, pool);
    }

    /**
     * For the JCStress tests only: a stream sink whose writer is not started and has no shutdown
     * hook; the test runs the writer loop itself on one of its actors with {@link #runWriter()}.
     */
    static ByteSink unstartedForStream(OutputStream delegate, SinkSettings settings) {
        return new ByteSink(new StreamBackend(delegate), "jcstress", settings, false, null);
    }

    /** The writer's place in the pool, or null when it runs on a thread of its own (tests). */
    SinkWriterPool.Member writerMember() {
        return writer.member;
    }

    /** For the JCStress tests only: runs the writer loop on the calling thread until the sink is closed and drained. */
    void runWriter() {
        writer.run();
    }

    /** For the JCStress tests only: the writer processes one queued item on the calling thread; false when none. */
    boolean runWriterOnce() {
        return writer.processNext();
    }

    /**
     * Sets how many threads write every sink of this process ({@code spool.sink.threads}): a
     * shared pool of {@code threads} writer threads plus one timer thread, or with {@code 0} a
     * writer thread per sink (as before the pool). Effective only before the first sink is created.
     *
     * @return false when the pool exists already (its size is kept)
     * @throws IllegalArgumentException outside 0 to 64
     */
    public static boolean configureWriterThreads(int threads) {
        return SinkWriterPool.configureShared(threads);
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

    /** For the opener: what it replayed from a killed writer's journal before this sink was made. */
    public void recordRecovery(long frames, long bytes) {
        recoveredFrames = frames;
        recoveredBytes = bytes;
    }

    /** Bytes producers copied into journal regions not yet written to the file (0 without a journal). */
    long journalPendingBytes() {
        SinkJournal j = journal;
        return j == null || j.disabled ? 0 : slots.pendingJournaledBytes();
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
        return appends.offer(first, second);
    }

    /** The writer's current write has been failing for at least {@code nanos} (e.g. a full disk). */
    boolean writerStalledLongerThan(long nanos) {
        return writer.output.stalled && System.nanoTime() - writer.output.stalledSince >= nanos;
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
        recordError(name + ": " + why + (writer.output.stalled ? "; the writer is failing: " + writer.output.lastWriteError : ""));
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
        long start = System.nanoTime();
        if (writerEnded() || !slots.sealCurrent(timeoutNanos)) {
            return false;
        }
        WriteRequest marker = new WriteRequest(null, Thread.currentThread());
        direct.enqueue(marker, Long.MAX_VALUE);
        long left = Math.max(0, timeoutNanos - (System.nanoTime() - start));
        return marker.await(left, this, true) && marker.succeeded();
    }

    /**
     * Writes everything appended before, closes the output and ends the writer, waiting
     * at most {@code spool.sink.wait.millis} (past it the writer finishes and closes in the
     * background, and the overrun is recorded as an error). Idempotent. Appends after it
     * fail (the output is closed), as writes to a closed stream do. See {@link SinkClosing}.
     */
    @Override
    public void close() {
        SpoolJfr.untrack(metrics);
        closing.close();
        SinkStart.removeHook(shutdownHook);
    }

    /**
     * The JVM's shutdown hook: drains (waiting at most {@link #SHUTDOWN_WAIT_MILLIS}) but keeps
     * the output open; bytes written later are written through. See {@link SinkClosing}.
     */
    void shutdown() {
        closing.shutdown();
    }

    public boolean isClosed() {
        return closed;
    }

    // ----- internals shared with SinkWriter -----

    SinkBuffer current() {
        return slots.current();
    }

    void wakeWriter() {
        writer.wake();
    }

    void recordError(String description) {
        lastError = java.time.Instant.now() + " " + description; // first: a reader seeing Errors > 0 sees it
        errors.incrementAndGet();
        SpoolJfr.writeError("sink", name, description);
    }

    long pendingBytes() {
        return direct.queuedBytes() + slots.pendingBufferBytes();
    }

    /** A write is failing and being retried right now (e.g. a full disk). */
    boolean writerStalled() {
        return writer.output.stalled;
    }

    /** The writer has finished for good (its last actions happen-before a true result). */
    boolean writerEnded() {
        return writer.ended;
    }

}
