package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;

/**
 * The host's Logback, seen through method handles (Logback is the host's, loaded by its class
 * loader): a converter's own {@code write(StringBuilder, event)} into a scratch builder, and the
 * {@code ILoggingEvent} getters a {@link CompiledPatternLayout} reads. A getter the host's Logback
 * lacks is null (the pieces that need it fall back to Logback's converter).
 *
 * <p>Not thread-safe (the scratch builder): one per compiled layout, used under the appender's lock.
 */
final class LogbackConverters {

    static final String EVENT = "ch:qos:logback:classic:spi:ILoggingEvent".replace(':', '.');
    private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);

    private final MethodHandle write; // (converter, StringBuilder, event) -> void
    private final StringBuilder scratch = new StringBuilder(256);
    final MethodHandle timeStamp;     // (event) -> long
    final MethodHandle level;
    final MethodHandle loggerName;
    final MethodHandle threadName;
    final MethodHandle message;
    final MethodHandle mdc;
    final MethodHandle markers;
    final MethodHandle throwable;

    private LogbackConverters(MethodHandle write, Class<?> event) {
        this.write = write;
        this.timeStamp = getter(event, "getTimeStamp", long.class, MethodType.methodType(long.class, Object.class));
        this.level = getter(event, "getLevel", null, GETTER);
        this.loggerName = getter(event, "getLoggerName", String.class, GETTER);
        this.threadName = getter(event, "getThreadName", String.class, GETTER);
        this.message = getter(event, "getFormattedMessage", String.class, GETTER);
        this.mdc = getter(event, "getMDCPropertyMap", Map.class, GETTER);
        this.markers = getter(event, "getMarkerList", List.class, GETTER);
        this.throwable = getter(event, "getThrowableProxy", null, GETTER);
    }

    /** Handles on the Logback that loaded {@code layout}; throws when its converters cannot be called. */
    static LogbackConverters of(Object layout) throws ReflectiveOperationException {
        ClassLoader loader = layout.getClass().getClassLoader();
        Class<?> converter = Class.forName(LogbackEncoders.CONVERTER, false, loader);
        Class<?> event = Class.forName(EVENT, false, loader);
        MethodHandle write = MethodHandles.publicLookup().findVirtual(converter, "write",
                        MethodType.methodType(void.class, StringBuilder.class, Object.class))
                .asType(MethodType.methodType(void.class, Object.class, StringBuilder.class, Object.class));
        return new LogbackConverters(write, event);
    }

    /** What {@code converter} appends for {@code event} (valid until the next call). */
    CharSequence write(Object converter, Object event) throws Throwable {
        StringBuilder sb = scratch;
        sb.setLength(0);
        write.invokeExact(converter, sb, event);
        return sb;
    }

    /** {@code event}'s getter {@code name}, or null when absent; {@code returns} null: any reference type. */
    private static MethodHandle getter(Class<?> event, String name, Class<?> returns, MethodType as) {
        try {
            for (java.lang.reflect.Method m : event.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == 0
                        && (returns == null ? !m.getReturnType().isPrimitive() : m.getReturnType() == returns)) {
                    return MethodHandles.publicLookup().unreflect(m).asType(as);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // absent here: the pieces that need it use Logback's converter
        }
        return null;
    }
}
