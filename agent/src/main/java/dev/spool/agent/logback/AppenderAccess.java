package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One Logback {@code OutputStreamAppender} as a {@link DeferredAppender} drives it: by reflection
 * (the agent reads the host's Logback, never links against it), each member looked up once. Its
 * {@code streamWriteLock}, its own {@code writeBytes} (its lock, its started check, its
 * {@code immediateFlush}, its byte count), its {@code encoder} field read now, its {@code started}
 * flag, its name and its {@code addError} status messages.
 *
 * <p>Holds no state of its own: what each call does (and its thread-safety) is the appender's.
 */
final class AppenderAccess {

    private final Object appender;
    private final ReentrantLock lock;
    private final MethodHandle writeBytes;  // (appender, byte[]) throws IOException
    private final MethodHandle encoderOf;   // (appender) -> its encoder field now
    private final Field started;
    private final Field outputStream;

    private AppenderAccess(Object appender, ReentrantLock lock, MethodHandle encoderOf, MethodHandle writeBytes,
                           Field started, Field outputStream) {
        this.appender = appender;
        this.lock = lock;
        this.encoderOf = encoderOf;
        this.writeBytes = writeBytes;
        this.started = started;
        this.outputStream = outputStream;
    }

    /** {@code appender}'s members; throws when it is no {@code OutputStreamAppender} Spool knows. */
    static AppenderAccess of(Object appender) throws ReflectiveOperationException {
        Class<?> base = owner(appender.getClass(), "ch:qos:logback:core:OutputStreamAppender".replace(':', '.'));
        Field lockField = base.getDeclaredField("streamWriteLock");
        lockField.setAccessible(true);
        Method write = base.getDeclaredMethod("writeBytes", byte[].class);
        write.setAccessible(true);
        Field started = owner(base, "ch:qos:logback:core:UnsynchronizedAppenderBase".replace(':', '.'))
                .getDeclaredField("started");
        started.setAccessible(true);
        Field encoderField = base.getDeclaredField("encoder");
        encoderField.setAccessible(true);
        Field outputStream = base.getDeclaredField("outputStream");
        outputStream.setAccessible(true);
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandle writeBytes = lookup.unreflect(write).asType(MethodType.methodType(void.class, Object.class, Object.class));
        MethodHandle encoderOf = lookup.unreflectGetter(encoderField).asType(MethodType.methodType(Object.class, Object.class));
        return new AppenderAccess(appender, (ReentrantLock) lockField.get(appender), encoderOf, writeBytes, started,
                outputStream);
    }

    /** The appender's {@code streamWriteLock}. */
    ReentrantLock lock() {
        return lock;
    }

    /** The appender's {@code encoder} field now (one field read); throws what the read throws. */
    Object encoder() throws Throwable {
        return (Object) encoderOf.invokeExact(appender);
    }

    /** The appender's own {@code writeBytes(bytes)}; throws what it throws (an {@code IOException} on an I/O failure). */
    void writeBytes(byte[] bytes) throws Throwable {
        writeBytes.invokeExact(appender, (Object) bytes);
    }

    /**
     * Whether the appender has a stream now (under its lock: a roll sets it to null between closing the
     * old file and opening the next; an event written then would be lost to a NullPointerException).
     */
    boolean hasStream() {
        try {
            return outputStream.get(appender) != null;
        } catch (IllegalAccessException e) {
            return true; // cannot happen: made accessible
        }
    }

    boolean isStarted() {
        try {
            return started.getBoolean(appender);
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    /** Clears the appender's {@code started}, as {@code subAppend} does on an I/O failure. */
    void stopOnIoFailure() {
        try {
            started.setBoolean(appender, false);
        } catch (IllegalAccessException ignored) {
            // cannot happen: made accessible
        }
    }

    /** The appender's {@code addError(message, t)} (its status manager), if it is still there. */
    void status(String message, Throwable t) {
        try {
            appender.getClass().getMethod("addError", String.class, Throwable.class).invoke(appender, message, t);
        } catch (InvocationTargetException | NoSuchMethodException | IllegalAccessException | RuntimeException ignored) {
            // the appender's status manager is gone: nothing else to tell
        }
    }

    /** The appender's {@code getName()} now, or {@code "?"}. */
    String name() {
        return name(appender);
    }

    static String name(Object appender) {
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
}
