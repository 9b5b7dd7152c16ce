package dev.spool.internal.handoff;

import dev.spool.sink.SinkPolicy;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded multi-producer queue of captured records with one drainer at a time: the hand-off
 * from the application's threads (which capture what must be taken at the call) to the thread
 * that formats and writes (see the package javadoc for the memory-ordering rules).
 *
 * <p><b>Producers</b> ({@link #offer}, any number of threads): lock-free; never encode. When the
 * queue is full, {@link SinkPolicy#DROP} returns {@code false} at once (counted in
 * {@link #dropped()}); {@link SinkPolicy#BLOCK} (and {@code SYNC}, which this queue treats as
 * {@code BLOCK}) waits for room — spin, yield, then 50 µs parks, waking the writer — at most
 * {@code waitMillis}, then returns {@code false} (counted). A producer that is itself inside a
 * drain of this queue (an encoder that logs to its own log) never waits: its record is dropped
 * and counted, never deadlocked.
 *
 * <p><b>Room</b>: a drainer gives the room of the records it polled back in steps of
 * {@link #RELEASE_EVERY} (and the rest when its drain returns), one atomic add per step instead of
 * one contended decrement per record, on the counter every producer increments. A producer that is
 * the drainer itself (an encoder that logs to its own log) gets the polled records' room back at
 * once when it finds the queue full.
 *
 * <p><b>Drainers</b> ({@link #drainTo}): serialised by the queue's lock, so exactly one thread
 * encodes at a time and records are encoded in offer order (the order producers passed their
 * offer's linearisation point). Any thread may drain: a {@link CapturedLogWriterPool} thread
 * normally, and a thread that must see every record captured before it (a handler's
 * {@code flush()} or {@code close()}) drains the rest itself: when {@code drainTo} returns, every
 * record whose {@code offer} returned before the call is encoded. A drainer that needs a lock of
 * its own around encoding (a log handler's monitor) must take it <em>before</em> calling
 * {@code drainTo}, on every thread, so locks are always taken in one order.
 *
 * <p><b>A producer that dies inside {@link #offer}</b> (a {@code StackOverflowError} thrown in a
 * host's {@code catch (StackOverflowError e)} that logs, an {@code OutOfMemoryError}) never stops
 * the drain: the record is linked in one compare-and-set or not at all (a
 * {@link ConcurrentLinkedQueue}), so a drainer never waits for a half-made offer. An array queue
 * (claim a slot, then store into it) would leave the drainer spinning on the claimed slot for ever,
 * under the lock every flush and close takes. The worst a death can do here is leave the
 * count one record high: the queue's room shrinks by one.
 *
 * <p>Example:
 * <pre>{@code
 * MpscCapturedRecordQueue<Line> q = new MpscCapturedRecordQueue<>("app.log", 8192, SinkPolicy.BLOCK, 10_000);
 * CapturedLogWriterPool.Registration w = CapturedLogWriterPool.shared().register("app.log", () -> q.drainTo(encoder, 256), q);
 * q.offer(new Line(...));        // on any thread: capture only
 * q.drainTo(encoder, Integer.MAX_VALUE); // flush: everything offered so far is encoded when it returns
 * w.stop();
 * }</pre>
 *
 * @param <R> the captured record type
 */
public final class MpscCapturedRecordQueue<R> {

    /** Default capacity in records. */
    public static final int DEFAULT_CAPACITY = 8192;
    private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final int SPINS = 64;
    /** Polled records whose room a drainer gives back in one step. */
    static final int RELEASE_EVERY = 64;

    private final String name;
    private final ConcurrentLinkedQueue<R> queue = new ConcurrentLinkedQueue<>();
    /** Records offered and not yet polled (reserved before the link, released after the poll). */
    private final AtomicInteger count = new AtomicInteger();
    private final int capacity;
    private final ReentrantLock drainLock = new ReentrantLock();
    private final long waitNanos;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong encodeErrors = new AtomicLong();
    private volatile SinkPolicy policy;
    private volatile long encoded; // written by the drainer only, under drainLock
    /** Records the drainer polled whose room is not given back yet (the drainer's only, under drainLock). */
    private int polledUnreleased;
    private volatile String lastError;
    private volatile CapturedLogWriterPool.Registration writer;

    /**
     * @param capacity   records the queue holds (at least 2)
     * @param policy     what {@link #offer} does when full
     * @param waitMillis the bound on a {@code BLOCK} producer's wait
     */
    public MpscCapturedRecordQueue(String name, int capacity, SinkPolicy policy, long waitMillis) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be at least 2: " + capacity);
        }
        if (waitMillis < 0) {
            throw new IllegalArgumentException("waitMillis must not be negative: " + waitMillis);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.capacity = capacity;
        this.policy = Objects.requireNonNull(policy, "policy");
        this.waitNanos = TimeUnit.MILLISECONDS.toNanos(waitMillis);
    }

    public String name() {
        return name;
    }

    /** The pool registration producers wake after an offer (set once by {@link CapturedLogWriterPool#register}). */
    void attach(CapturedLogWriterPool.Registration registration) {
        this.writer = registration;
    }

    public void setPolicy(SinkPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    public SinkPolicy policy() {
        return policy;
    }

    /**
     * Hands {@code record} to the drainer (producer side; lock-free unless the queue is full).
     *
     * @return false when the record was dropped (full under {@code DROP}, the bounded wait ran
     *     out under {@code BLOCK}, or the caller is this queue's drainer); counted in {@link #dropped()}
     */
    public boolean offer(R record) {
        Objects.requireNonNull(record, "record");
        if (link(record) || (releaseOwnPolled() && link(record))) {
            wakeWriter();
            return true;
        }
        if (policy == SinkPolicy.DROP) {
            dropped.incrementAndGet();
            return false;
        }
        if (drainLock.isHeldByCurrentThread()) {
            dropped.incrementAndGet();
            lastError = "the encoder of " + name + " offered to its own full queue: a record was dropped (waiting would wait for itself)";
            return false;
        }
        long deadline = System.nanoTime() + waitNanos;
        for (int i = 0; ; i++) {
            wakeWriter();
            if (i < SPINS) {
                Thread.onSpinWait();
            } else if (i < 2 * SPINS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, PARK_NANOS);
            }
            if (link(record)) {
                wakeWriter();
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                dropped.incrementAndGet();
                lastError = "the queue of " + name + " stayed full for " + TimeUnit.NANOSECONDS.toMillis(waitNanos)
                        + " ms: a record was dropped";
                return false;
            }
        }
    }

    /**
     * Offers {@code record} without waiting and without counting a refusal (producer side): for a
     * producer that can make room itself (it may drain: it holds the lock its drain task needs)
     * before falling back to {@link #offer}.
     *
     * @return false when the queue is full
     */
    public boolean tryOffer(R record) {
        Objects.requireNonNull(record, "record");
        if (link(record) || (releaseOwnPolled() && link(record))) {
            wakeWriter();
            return true;
        }
        return false;
    }

    /** Reserves room in the count, then links the record (one CAS); false when full. */
    private boolean link(R record) {
        if (count.getAndIncrement() >= capacity) {
            count.getAndDecrement();
            return false;
        }
        queue.offer(record);
        return true;
    }

    /** On a full queue: the drainer offering to its own queue gives its polled records' room back first; true if it did. */
    private boolean releaseOwnPolled() {
        if (!drainLock.isHeldByCurrentThread() || polledUnreleased == 0) {
            return false;
        }
        release();
        return true;
    }

    /** Gives the polled records' room back (the drainer, under drainLock). */
    private void release() {
        count.getAndAdd(-polledUnreleased);
        polledUnreleased = 0;
    }

    private void wakeWriter() {
        CapturedLogWriterPool.Registration w = writer;
        if (w != null) {
            w.signal();
        }
    }

    /**
     * Encodes up to {@code max} queued records, in offer order, on the calling thread (one
     * drainer at a time: waits for a drain in progress on another thread). An encoder's exception
     * is counted and the next record goes on.
     *
     * @return the records taken
     */
    public int drainTo(CapturedRecordEncoder<? super R> encoder, int max) {
        drainLock.lock();
        int n = 0;
        try {
            R r;
            while (n < max && (r = queue.poll()) != null) { // lock-free: never waits for a producer
                n++;
                if (++polledUnreleased == RELEASE_EVERY) {
                    release();
                }
                try {
                    encoder.encode(r);
                } catch (Throwable t) {
                    failed(t);
                }
            }
            return n;
        } finally {
            if (polledUnreleased != 0) {
                release();
            }
            encoded += n;
            drainLock.unlock();
        }
    }

    private void failed(Throwable t) {
        encodeErrors.incrementAndGet();
        lastError = "encoding a record of " + name + " failed: " + t;
        if (t instanceof VirtualMachineError) {
            throw (VirtualMachineError) t; // counted; an OutOfMemoryError is not swallowed
        }
    }

    /** Whether the current thread is draining this queue (an encoder calling back into its own log). */
    public boolean isDrainingThread() {
        return drainLock.isHeldByCurrentThread();
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /**
     * Nothing queued and no thread draining (a drain holds its lock while it takes, encodes and
     * writes records): everything offered before this call is written, as far as this queue goes.
     */
    public boolean idle() {
        return queue.isEmpty() && !drainLock.isLocked();
    }

    /** Records queued now (approximate while producers offer). */
    public int size() {
        return Math.max(0, Math.min(capacity, count.get()));
    }

    public int capacity() {
        return capacity;
    }

    public long dropped() {
        return dropped.get();
    }

    public long encoded() {
        return encoded;
    }

    public long encodeErrors() {
        return encodeErrors.get();
    }

    /** The last drop or encoding failure, or null. */
    public String lastError() {
        return lastError;
    }

    @Override
    public String toString() {
        return "MpscCapturedRecordQueue[" + name + ", " + size() + "/" + capacity() + " queued, " + policy + "]";
    }
}
