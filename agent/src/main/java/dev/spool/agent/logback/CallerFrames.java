package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.List;

/**
 * Whether a Logback event's caller data, computed by Spool on the caller's thread
 * ({@link LogbackEventCapture}, inside the appender's woven {@code writeOut}), is what plain Logback
 * computes there inside the encoder: the same frames from {@code writeOut} down, but above it
 * Spool's frames instead of Logback's encoder, layout and converters.
 *
 * <p>Logback's {@code CallerData.extract} walks the stack from {@code getCallerData} down and
 * returns the frames after the first run of "framework" frames: the logger's class, and every
 * class whose name starts with one of the context's {@code frameworkPackages}. The frames above
 * {@code writeOut} are all non-framework in both stacks (and the answer the same) unless a
 * framework package could match a class of Logback ({@code ch.qos.logback.}), of Spool
 * ({@code dev.spool.}) or of the JDK (method handles); then Logback's own path computes it
 * (e.g. {@code ch.qos.logback} listed: plain skips the encoder's frames, a walk from Spool's
 * frame would stop at Spool). An event whose caller data is already taken (a filter, another
 * appender) is always the same. When the event's context cannot be read, the answer is no.
 *
 * <p>Thread-safe: handles looked up once per event class, published through volatile fields.
 */
final class CallerFrames {

    /** The beginnings of the class names found between {@code getCallerData} and {@code writeOut}, plain or under Spool. */
    private static final List<String> ABOVE_WRITE_OUT = List.of("ch.qos.logback.", "dev.spool.", "java.", "jdk.", "sun.");

    private volatile Handles handles;

    private record Handles(Class<?> event, MethodHandle taken, MethodHandle context, MethodHandle packages) {}

    /** True when Spool's {@code getCallerData()} on {@code event} (a {@code LoggingEvent}) returns plain Logback's frames. */
    boolean sameAsPlain(Object event) {
        try {
            Handles h = handles(event.getClass());
            if ((boolean) h.taken.invokeExact(event)) {
                return true; // computed before: Spool only reads it
            }
            Object context = (Object) h.context.invokeExact(event);
            if (context == null) {
                return false;
            }
            List<?> packages = (List<?>) (Object) h.packages.invokeExact(context);
            for (Object p : packages.toArray()) { // the host may add to it at any time
                if (p == null || couldMatch(p.toString())) {
                    return false;
                }
            }
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Whether a class whose name starts with {@code pkg} could be one of the frames above {@code writeOut}. */
    static boolean couldMatch(String pkg) {
        for (String prefix : ABOVE_WRITE_OUT) {
            if (pkg.startsWith(prefix) || prefix.startsWith(pkg)) {
                return true;
            }
        }
        return false;
    }

    private Handles handles(Class<?> type) throws ReflectiveOperationException {
        Handles h = handles;
        if (h != null && h.event == type) {
            return h;
        }
        MethodHandles.Lookup pub = MethodHandles.publicLookup();
        Field context = type.getDeclaredField("loggerContext");
        context.setAccessible(true);
        MethodHandle taken = pub.findVirtual(type, "hasCallerData", MethodType.methodType(boolean.class))
                .asType(MethodType.methodType(boolean.class, Object.class));
        MethodHandle contextOf = MethodHandles.lookup().unreflectGetter(context).asType(MethodType.methodType(Object.class, Object.class));
        MethodHandle packages = pub.findVirtual(context.getType(), "getFrameworkPackages", MethodType.methodType(List.class))
                .asType(MethodType.methodType(Object.class, Object.class));
        h = new Handles(type, taken, contextOf, packages);
        handles = h;
        return h;
    }
}
