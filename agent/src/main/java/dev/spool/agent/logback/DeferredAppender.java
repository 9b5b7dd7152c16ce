package dev.spool.agent.logback;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import dev.spool.bridge.Hooks;
import dev.spool.internal.handoff.CapturedRecordEncoder;
import dev.spool.internal.handoff.CapturedLogWriterPool;
import dev.spool.internal.handoff.MpscCapturedRecordQueue;
import dev.spool.sink.SinkPolicy;

/**
 * One Logback file appender's captured events, waiting in a {@link MpscCapturedRecordQueue} to be
 * encoded and written by whoever holds the appender's own {@code streamWriteLock} (taken before
 * the queue's drain lock, on every thread): a thread of the shared
 * {@link CapturedLogWriterPool} ({@code spool-capture-writer-<i>}), or the thread that closes the appender's stream (a
 * roll, {@code stop()}), Spool's flush, or exit.
 *
 * <p>Assumptions: called only for an appender whose stream Spool routes and whose encoder
 * {@link LogbackEncoders#shape} accepted; the event reaching {@link #capture} has been through
 * Logback's {@code prepareForDeferredProcessing()} (the appender's {@code subAppend} does it).
 *
 * <p>Guarantees: every captured event is encoded with the appender's encoder and written with the
 * appender's own {@code writeBytes} (its lock, its started check, its {@code immediateFlush}, its
 * byte count), in capture order, exactly once. {@link #capture} is lock-free while the queue has
 * room; full, it waits (bounded by the sink's {@code spool.sink.wait.millis}) and past the bound
 * leaves the event to Logback's own path (encoded on the caller's thread: never lost, counted).
 *
 * <p>Example: {@code if (deferred.capture(event, caller)) return; // else Logback's writeOut runs}
 */
final class DeferredAppender implements CapturedRecordEncoder<Object> {

    /** Events held per appender. */
    static final int CAPACITY = 4096;
    /** Events written per lock hold by a pool thread (bounds how long a closing thread waits for the lock). */
    static final int BATCH = 256;
    private static final int ALLOWED_REPEATS = 3;

    private final Object appender;
    private final String name;
    private final ReentrantLock lock;
    private final MethodHandle encode;      // (encoder, event) -> byte[]
    private final MethodHandle writeBytes;  // (appender, byte[]) throws IOException
    private final Object encoder;
    private final boolean callerData;
    private final Field started;
    private final MpscCapturedRecordQueue<Object> queue;
    private volatile CapturedLogWriterPool.Registration writer;
    private volatile boolean active;
    private volatile boolean captured;
    private int failures;
    private CompiledPatternLayout compiled; // null: the encoder's own encode (guarded by the lock)

    private DeferredAppender(Object appender, Object encoder, boolean callerData, ReentrantLock lock,
                             MethodHandle encode, MethodHandle writeBytes, Field started, long waitMillis) {
        this.appender = appender;
        this.name = appenderName(appender) + '@' + Integer.toHexString(System.identityHashCode(appender));
        this.encoder = encoder;
        this.callerData = callerData;
        this.lock = lock;
        this.encode = encode;
        this.writeBytes = writeBytes;
        this.started = started;
        this.queue = new MpscCapturedRecordQueue<>("logback " + name, CAPACITY, SinkPolicy.BLOCK, waitMillis);
    }

    /**
     * A conduit for {@code appender}, its encoder inspected as {@code shape}, registered with the
     * shared pool, encoding with a {@link CompiledPatternLayout} of the encoder's layout when
     * {@code compiledReport} is not null (it receives the sentence if the compiled layout is ever given up).
     */
    static DeferredAppender of(Object appender, Object encoder, LogbackEncoders.Shape shape, long waitMillis,
                               java.util.function.Consumer<String> compiledReport) throws ReflectiveOperationException {
        Class<?> base = owner(appender.getClass(), "ch:qos:logback:core:OutputStreamAppender".replace(':', '.'));
        Field lockField = base.getDeclaredField("streamWriteLock");
        lockField.setAccessible(true);
        Method write = base.getDeclaredMethod("writeBytes", byte[].class);
        write.setAccessible(true);
        Field started = owner(base, "ch:qos:logback:core:UnsynchronizedAppenderBase".replace(':', '.'))
                .getDeclaredField("started");
        started.setAccessible(true);
        Method enc = encoder.getClass().getMethod("encode", Object.class);
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandle encode = lookup.unreflect(enc).asType(MethodType.methodType(Object.class, Object.class, Object.class));
        MethodHandle writeBytes = lookup.unreflect(write).asType(MethodType.methodType(void.class, Object.class, Object.class));
        DeferredAppender d = new DeferredAppender(appender, encoder, shape.callerData(), (ReentrantLock) lockField.get(appender),
                encode, writeBytes, started, waitMillis);
        if (compiledReport != null) {
            d.compiled = CompiledPatternLayout.compile(encoder, encode, compiledReport);
        }
        d.writer = CapturedLogWriterPool.shared().register("logback " + d.name, d::drainBatch, d.queue);
        return d;
    }

    String name() {
        return name;
    }

    Object appender() {
        return appender;
    }

    /** Whether events are captured (false: the appender's stream is not routed now, or another encoder). */
    boolean active() {
        return active;
    }

    void active(boolean on) {
        active = on;
    }

    Object encoder() {
        return encoder;
    }

    /** The compiled layout encoding this appender's events, or null (tests, status). */
    CompiledPatternLayout compiled() {
        return compiled;
    }

    /** Whether an event was ever captured (a conduit created before its appender started is not swept). */
    boolean everCaptured() {
        return captured;
    }

    boolean pending() {
        return !queue.isEmpty();
    }

    /**
     * On the caller's thread, inside the appender's {@code writeOut}: takes what cannot wait
     * (the caller data when the pattern prints it) and queues the event. False leaves the event to
     * Logback (after writing what is queued, so the caller's order holds).
     */
    boolean capture(Object event, StackTraceGetter caller) {
        if (!active || lock.isHeldByCurrentThread() || !caller.capture(event, callerData)) {
            drainHere(); // not captured (or a Logback that encodes under its lock): what is queued goes first
            return false;
        }
        captured = true;
        return queue.offer(event); // false: full for the whole bound; Logback's own path writes it
    }

    /** Writes everything queued now on this thread, under the appender's lock (re-entrant: a closing thread holds it). */
    void drainHere() {
        if (queue.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            queue.drainTo(this, Integer.MAX_VALUE);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The pool's step: at most {@link #BATCH} events under one hold of the lock; how many were
     * written, or {@link CapturedLogWriterPool#BUSY} when another thread holds the appender's lock
     * (a closing or flushing thread, which drains itself; a pool thread never waits for a host's lock).
     */
    int drainBatch() {
        if (queue.isEmpty()) {
            return 0;
        }
        if (!lock.tryLock()) {
            return CapturedLogWriterPool.BUSY;
        }
        boolean was = Hooks.markSpoolThread(true); // no hook captures what the encoder does
        try {
            return queue.drainTo(this, BATCH);
        } finally {
            Hooks.markSpoolThread(was);
            lock.unlock();
        }
    }

    /** Like {@link #drainHere} but gives up after {@code millis} waiting for the lock; false if it did. */
    boolean drainWithin(long millis) throws InterruptedException {
        if (queue.isEmpty()) {
            return true;
        }
        if (!lock.tryLock(millis, TimeUnit.MILLISECONDS)) {
            return false;
        }
        try {
            queue.drainTo(this, Integer.MAX_VALUE);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Leaves the pool after a last drain (the appender is stopped and forgotten). */
    void stop() {
        CapturedLogWriterPool.Registration w = writer;
        if (w != null) {
            w.stop();
        }
    }

    /** Events that stayed on Logback's path because the queue stayed full for the bound. */
    long overflowed() {
        return queue.dropped();
    }

    @Override
    public void encode(Object event) {
        writeOne(event);
    }

    /** What Logback's {@code subAppend}/{@code writeOut}/{@code doAppend} do with one event, failures included. */
    private void writeOne(Object event) {
        byte[] bytes;
        try {
            CompiledPatternLayout c = compiled;
            bytes = c == null ? null : c.encode(event); // null: Logback's encoder, below
            if (bytes == null && c != null && c.stale()) {
                compiled = c.recompiled(); // the encoder was given another layout or pattern
            }
            if (bytes == null) {
                Object encoded = encode.invokeExact(encoder, event);
                bytes = (byte[]) encoded;
            }
        } catch (Throwable t) {
            failed("Appender [" + appenderName() + "] failed to append.", t);
            return;
        }
        try {
            writeBytes.invokeExact(appender, (Object) bytes);
        } catch (IOException e) {
            try {
                started.setBoolean(appender, false); // as subAppend: the appender stops on an I/O failure
            } catch (IllegalAccessException ignored) {
                // cannot happen: made accessible
            }
            status("IO failure in appender", e);
        } catch (Throwable t) {
            failed("Appender [" + appenderName() + "] failed to append.", t);
        }
    }

    private void failed(String message, Throwable t) {
        if (failures++ < ALLOWED_REPEATS) {
            status(message, t);
        }
    }

    private void status(String message, Throwable t) {
        try {
            appender.getClass().getMethod("addError", String.class, Throwable.class).invoke(appender, message, t);
        } catch (InvocationTargetException | NoSuchMethodException | IllegalAccessException | RuntimeException ignored) {
            // the appender's status manager is gone: nothing else to tell
        }
    }

    private String appenderName() {
        return appenderName(appender);
    }

    private static String appenderName(Object appender) {
        try {
            return String.valueOf(appender.getClass().getMethod("getName").invoke(appender));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "?";
        }
    }

    private static Class<?> owner(Class<?> type, String name) throws ClassNotFoundException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(name)) {
                return c;
            }
        }
        throw new ClassNotFoundException(name);
    }

    /** Accepts an event of a known class and computes its caller data on the caller's thread when asked. */
    interface StackTraceGetter {
        /** False when the event's class is unknown or its caller data could not be taken (it is left to Logback). */
        boolean capture(Object event, boolean callerData);
    }
}
