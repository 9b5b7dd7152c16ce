package dev.spool.agent.logback;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

/**
 * One Logback file appender's captured events, waiting to be encoded and written by whoever holds
 * the appender's own {@code streamWriteLock}: the encoding thread ({@link LogbackDeferral}), the
 * thread that closes the appender's stream (a roll, {@code stop()}), or a producer that found the
 * queue full.
 *
 * <p>Assumptions: called only for an appender whose stream Spool routes and whose encoder
 * {@link LogbackEncoders#shape} accepted; the event reaching {@link #capture} has been through
 * Logback's {@code prepareForDeferredProcessing()} (the appender's {@code subAppend} does it).
 *
 * <p>Guarantees: every captured event is encoded with the appender's encoder and written with the
 * appender's own {@code writeBytes} (its lock, its started check, its {@code immediateFlush}, its
 * byte count), in capture order, exactly once; only a holder of the appender's lock polls the
 * queue, so events are written in the order they were taken from it. {@link #capture} never waits
 * except for the appender's lock when the queue is full (then the producer encodes what is queued
 * itself: lossless back-pressure, bounded like plain Logback's own wait for that lock).
 *
 * <p>Example: {@code if (deferred.capture(event)) return; // else Logback's writeOut runs}
 */
final class DeferredAppender {

    /** Events held per appender before producers encode themselves. */
    static final int CAPACITY = 4096;
    /** Events written per lock hold by the encoding thread (bounds a producer's wait for the lock). */
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
    private final MpscAtomicArrayQueue<Object> queue = new MpscAtomicArrayQueue<>(CAPACITY);
    private final Runnable wake;
    private volatile boolean active;
    private volatile boolean captured;
    private int failures;

    private DeferredAppender(Object appender, Object encoder, boolean callerData, ReentrantLock lock,
                             MethodHandle encode, MethodHandle writeBytes, Field started, Runnable wake) {
        this.appender = appender;
        this.name = appender.getClass().getName() + '@' + Integer.toHexString(System.identityHashCode(appender));
        this.encoder = encoder;
        this.callerData = callerData;
        this.lock = lock;
        this.encode = encode;
        this.writeBytes = writeBytes;
        this.started = started;
        this.wake = wake;
    }

    /** A conduit for {@code appender}, its encoder inspected as {@code shape}; throws when Logback's members are out of reach. */
    static DeferredAppender of(Object appender, Object encoder, LogbackEncoders.Shape shape, Runnable wake)
            throws ReflectiveOperationException {
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
        return new DeferredAppender(appender, encoder, shape.callerData(), (ReentrantLock) lockField.get(appender), encode,
                writeBytes, started, wake);
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
        if (!active) {
            drainHere();
            return false;
        }
        if (!caller.capture(event, callerData)) {
            drainHere();
            return false;
        }
        captured = true;
        while (!queue.offer(event)) {
            drainHere(); // full: the producer writes what is queued itself, then retries
        }
        wake.run();
        return true;
    }

    /** Writes everything queued now on this thread, under the appender's lock (re-entrant: a closing thread holds it). */
    void drainHere() {
        if (queue.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            while (writeSome(Integer.MAX_VALUE) > 0) {
                // until empty
            }
        } finally {
            lock.unlock();
        }
    }

    /** The encoding thread's step: at most {@link #BATCH} events under one hold of the lock; how many were written. */
    int drainBatch() {
        if (queue.isEmpty()) {
            return 0;
        }
        lock.lock();
        try {
            return writeSome(BATCH);
        } finally {
            lock.unlock();
        }
    }

    /** Like {@link #drainHere} but gives up after {@code millis} waiting for the lock; false if it did. */
    boolean drainWithin(long millis) throws InterruptedException {
        if (queue.isEmpty()) {
            return true;
        }
        if (!lock.tryLock(millis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            return false;
        }
        try {
            while (writeSome(Integer.MAX_VALUE) > 0) {
                // until empty
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Polls and writes up to {@code max} events; the caller holds the lock. */
    private int writeSome(int max) {
        int n = 0;
        Object event;
        while (n < max && (event = queue.poll()) != null) {
            n++;
            writeOne(event);
        }
        return n;
    }

    /** What Logback's {@code subAppend}/{@code writeOut}/{@code doAppend} do with one event, failures included. */
    private void writeOne(Object event) {
        byte[] bytes;
        try {
            Object encoded = encode.invokeExact(encoder, event);
            bytes = (byte[]) encoded;
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
