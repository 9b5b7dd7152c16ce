package dev.spool.agent.internal;

import dev.spool.bridge.Hooks;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Dynamic attach: routes the Logback file appenders that were already open before the agent came.
 * An appender is routed when it opens its file (the woven {@code setOutputStream}); one opened
 * earlier holds its plain stream. So this finds the started appenders of the host's
 * {@code LoggerContext} (the one SLF4J's {@code LoggerFactory} answers, walking its loggers and
 * any appender that holds appenders, such as {@code AsyncAppender}) and, under each appender's
 * {@code streamWriteLock} (the lock its writes take; waited for at most {@link #LOCK_WAIT_MILLIS}),
 * flushes its stream and routes it exactly as the woven {@code setOutputStream} would
 * ({@link Hooks#wrapLogStream}: the same plan, the same checks, the same fall-backs), without the
 * header a new stream writes. Reflection only: Logback is the host's.
 *
 * <p>Only in a JVM where Logback's {@code LoggerContext} class is loaded already (asking SLF4J
 * earlier could initialise it). Everything is caught: an appender that cannot be taken over keeps
 * its own stream, counted.
 */
final class LogbackOpenAppenders {

    static final long LOCK_WAIT_MILLIS = 5_000;
    private static final String CONTEXT = "ch:qos:logback:classic:LoggerContext".replace(':', '.');
    private static final String FACTORY = "org:slf4j:LoggerFactory".replace(':', '.');
    private static final String OUTPUT_STREAM_APPENDER = "ch:qos:logback:core:OutputStreamAppender".replace(':', '.');

    private LogbackOpenAppenders() {}

    /** @return how many appenders are routed now */
    static int takeOver(Instrumentation inst, AgentControl control) {
        Object context = context(inst);
        if (context == null) {
            return 0;
        }
        int routed = 0;
        for (Object appender : appenders(context, control)) {
            try {
                if (takeOver(appender, control)) {
                    routed++;
                }
            } catch (ReflectiveOperationException | java.io.IOException | RuntimeException e) {
                control.error("logback-open-appender", "cannot route a Logback appender opened before attach (" + e
                        + "): it keeps writing directly");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return routed;
            }
        }
        return routed;
    }

    /** The LoggerContext SLF4J hands out, when Logback's context class is loaded in some loader. */
    private static Object context(Instrumentation inst) {
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!CONTEXT.equals(c.getName())) {
                continue;
            }
            try {
                Class<?> factory = Class.forName(FACTORY, false, c.getClassLoader());
                Object answer = factory.getMethod("getILoggerFactory").invoke(null);
                if (answer != null && c.isInstance(answer)) {
                    return answer;
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // no SLF4J beside this Logback: nothing reachable from here
            }
        }
        return null;
    }

    /** Every distinct appender attached to the context's loggers, nested ones included. */
    private static List<Object> appenders(Object context, AgentControl control) {
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        List<Object> found = new ArrayList<>();
        try {
            for (Object logger : (List<?>) context.getClass().getMethod("getLoggerList").invoke(context)) {
                collect(logger, seen, found);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            control.error("logback-open-appenders", "cannot list the Logback appenders opened before attach (" + e
                    + "): they keep writing directly");
        }
        return found;
    }

    private static void collect(Object attachable, Map<Object, Boolean> seen, List<Object> found)
            throws ReflectiveOperationException {
        Method iterator = publicMethod(attachable.getClass(), "iteratorForAppenders");
        if (iterator == null) {
            return;
        }
        for (Iterator<?> it = (Iterator<?>) iterator.invoke(attachable); it.hasNext(); ) {
            Object appender = it.next();
            if (appender != null && seen.put(appender, Boolean.TRUE) == null) {
                found.add(appender);
                collect(appender, seen, found); // an AsyncAppender holds the file appender
            }
        }
    }

    private static boolean takeOver(Object appender, AgentControl control)
            throws ReflectiveOperationException, InterruptedException, java.io.IOException {
        Class<?> base = superclassNamed(appender.getClass(), OUTPUT_STREAM_APPENDER);
        if (base == null || !Boolean.TRUE.equals(appender.getClass().getMethod("isStarted").invoke(appender))) {
            return false;
        }
        Field lockField = base.getDeclaredField("streamWriteLock");
        lockField.setAccessible(true);
        Lock lock = (Lock) lockField.get(appender);
        if (!lock.tryLock(LOCK_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
            control.error("logback-open-appender", "a Logback appender opened before attach held its lock for "
                    + LOCK_WAIT_MILLIS + " ms: it keeps writing directly");
            return false;
        }
        try {
            OutputStream out = (OutputStream) base.getMethod("getOutputStream").invoke(appender);
            if (out == null) {
                return false;
            }
            Method file = publicMethod(out.getClass(), "getFile");
            Object name = file == null ? null : file.invoke(out);
            if (name != null && control.routedStreams().contains(((java.io.File) name).getPath())) {
                return false; // opened after the agent came: routed already
            }
            int before = control.routedStreams().size();
            out.flush(); // what its buffer holds goes to the file first, on the plain path
            Hooks.wrapLogStream("logback", appender, out); // routes beneath the appender's own stream object
            return control.routedStreams().size() > before;
        } finally {
            lock.unlock();
        }
    }

    private static Class<?> superclassNamed(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (name.equals(c.getName())) {
                return c;
            }
        }
        return null;
    }

    private static Method publicMethod(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
