package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;

/**
 * What a deferred appender's caller takes from a Logback event before it is queued
 * ({@link DeferredAppender.StackTraceGetter}): Logback's {@code prepareForDeferredProcessing()}, the
 * caller data when the pattern prints it (where plain Logback would compute the same frames,
 * {@link CallerFrames}), and a look at the event's MDC map; an event of another class, or whose
 * caller data or MDC map cannot be taken exactly here, is left to Logback's own path, counted by reason
 * ({@link #plainEvent}).
 *
 * <p>Threads: called on the logging thread, inside the appender's woven {@code writeOut} or
 * {@code subAppend}, with none of Spool's locks held. Thread-safe: the method handles are looked up
 * once per event class and published through volatile fields (a race looks them up twice).
 */
final class LogbackEventCapture implements DeferredAppender.StackTraceGetter {

    private static final String LOGGING_EVENT = "ch:qos:logback:classic:spi:LoggingEvent".replace(':', '.');
    private static final String EVENT_VO = "ch:qos:logback:classic:spi:LoggingEventVO".replace(':', '.');
    /** Plain-path reasons counted per event ({@code PlainPaths.plainEvent}): the caller data, the MDC map. */
    static final String CALLER_FRAMES = "logback-event-caller-frames";
    static final String MDC_MAP = "logback-event-mdc-map";
    private static final String CALLER_SENTENCE = "the logging context's frameworkPackages could match Logback's, Spool's"
            + " or the JDK's classes: an event whose pattern prints the caller data is encoded on the caller's thread by"
            + " Logback (its caller data would otherwise start at Spool's frame)";
    private static final String MDC_SENTENCE = "an event carries an MDC map of the host's own ({}, given by setMDCPropertyMap;"
            + " it may change after the call): such an event is encoded on the caller's thread by Logback";

    private final dev.spool.agent.internal.PlainPaths plainPaths;
    private volatile Class<?> eventClass;
    private volatile MethodHandle callerData;
    private volatile MethodHandle prepare; // LoggingEvent.prepareForDeferredProcessing(), for eventClass
    private final CallerFrames frames = new CallerFrames();
    private volatile MethodHandle mdcMap; // LoggingEvent.getMDCPropertyMap(), for mdcClass
    private volatile Class<?> mdcClass;

    /** @param plainPaths counts and names the events left to Logback's own path (null: not counted) */
    LogbackEventCapture(dev.spool.agent.internal.PlainPaths plainPaths) {
        this.plainPaths = plainPaths;
    }

    @Override
    public boolean capture(Object appender, Object event, boolean needed) {
        return callerData(appender, event, needed) && mdcFixed(appender, event);
    }

    @Override
    public boolean prepare(Object event) {
        return prepared(event);
    }

    private boolean callerData(Object appender, Object event, boolean needed) {
        Class<?> type = event.getClass();
        MethodHandle h = callerData;
        if (type != eventClass || h == null) {
            if (!type.getName().equals(LOGGING_EVENT) && !type.getName().equals(EVENT_VO)) {
                return false;
            }
            try {
                h = MethodHandles.publicLookup().findVirtual(type, "getCallerData",
                        MethodType.methodType(StackTraceElement[].class)).asType(MethodType.methodType(Object.class, Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
            callerData = h;
            eventClass = type;
        }
        if (!needed) {
            return true;
        }
        if (type.getName().equals(LOGGING_EVENT) && !frames.sameAsPlain(event)) {
            plainEvent(appender, CALLER_FRAMES, CALLER_SENTENCE, null);
            return false; // Logback's own path computes it inside the encoder, as plain
        }
        try {
            Object ignored = h.invokeExact(event);
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * Counts one event left to Logback's own path (the Agent bean's {@code PlainPathByReason}), named once per
     * appender and reason in Spool's log at debug: the OpenTelemetry agent gives every event an MDC map of its
     * own, and at the default level Spool adds nothing to the host's stderr ({@code AgentCoexistenceIT}).
     */
    void plainEvent(Object appender, String reason, String sentence, String detail) {
        if (plainPaths != null) {
            plainPaths.plainEvent(appender, reason, sentence, detail);
        }
    }

    /**
     * Whether the (prepared) event's MDC map is one nobody can change after the call: Logback's own copy of the
     * thread's MDC ({@code Collections.unmodifiableMap} of a fresh map, or the empty map) or an immutable JDK map.
     * A map the host gave the event itself ({@code setMDCPropertyMap}) may change after the call, where plain
     * Logback has already encoded the old values: such an event takes Logback's own path (counted, named once).
     * Not caught: an unmodifiable view the host keeps the backing map of.
     */
    private boolean mdcFixed(Object appender, Object event) {
        Class<?> type = event.getClass();
        if (!type.getName().equals(LOGGING_EVENT)) {
            return true; // a LoggingEventVO holds its own copy
        }
        MethodHandle h = mdcMap;
        if (type != mdcClass || h == null) {
            try {
                h = MethodHandles.publicLookup().findVirtual(type, "getMDCPropertyMap", MethodType.methodType(Map.class))
                        .asType(MethodType.methodType(Object.class, Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
            mdcMap = h;
            mdcClass = type;
        }
        Object map;
        try {
            map = h.invokeExact(event);
        } catch (Throwable t) {
            return false;
        }
        String name = map == null ? "" : map.getClass().getName();
        if (map == null || name.equals("java.util.Collections$UnmodifiableMap") || name.equals("java.util.Collections$EmptyMap")
                || name.startsWith("java.util.ImmutableCollections$")) {
            return true;
        }
        plainEvent(appender, MDC_MAP, MDC_SENTENCE, name);
        return false;
    }

    private boolean prepared(Object event) {
        if (!callerData(null, event, false)) {
            return false; // not a LoggingEvent or LoggingEventVO
        }
        MethodHandle h = prepare;
        Class<?> type = event.getClass();
        if (h == null || h.type().parameterType(0) != type) {
            if (!type.getName().equals(LOGGING_EVENT)) {
                return true; // a LoggingEventVO is not DeferredProcessingAware: plain Logback prepares nothing
            }
            try {
                h = MethodHandles.publicLookup().findVirtual(type, "prepareForDeferredProcessing", MethodType.methodType(void.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
            prepare = h;
        }
        try {
            h.invoke(event);
            return true;
        } catch (Throwable t) {
            return false;
        }
    }
}
