package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recovery half of {@link LogbackJournalCodec}: reads a payload (in the order its class comment
 * draws) and rebuilds the event with the host's Logback and slf4j, found in the loader of its
 * {@code ILoggingEvent}: a {@link Proxy} of {@code ILoggingEvent} (and of {@code IThrowableProxy}
 * for each throwable part) answering every getter with what was journaled, Logback's own
 * {@code StackTraceElementProxy}, {@code ClassPackagingData}, {@code LoggerContextVO} and
 * {@code Level}, slf4j's {@code KeyValuePair} and detached {@code BasicMarker}s.
 *
 * <p>Thread-safe (immutable handles); the rebuilt events are immutable.
 */
final class LogbackJournalEvents {
    private final ClassLoader loader;
    private final Class<?> event;
    private final Class<?> throwableProxy;
    private final Class<?> frameProxy;
    private final MethodHandle toLevel;      // (int) -> Level
    private final MethodHandle newFrame;     // (StackTraceElement) -> StackTraceElementProxy
    private final MethodHandle setPackaging; // (frame, packaging) -> void
    private final MethodHandle newPackaging; // (String, String, boolean) -> ClassPackagingData
    private final MethodHandle newContext;   // (String, Map, long) -> LoggerContextVO
    private final MethodHandle newMarker;    // (String) -> Marker, a detached one of a BasicMarkerFactory
    private final MethodHandle addMarker;    // (Marker, Marker) -> void
    private final MethodHandle newPair;      // (String, Object) -> KeyValuePair

    LogbackJournalEvents(Class<?> event, Class<?> throwableProxy, Class<?> level, Class<?> frameProxy, Class<?> packaging,
                         Class<?> contextVO, Class<?> marker, Class<?> keyValuePair) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        this.loader = event.getClassLoader();
        this.event = event;
        this.throwableProxy = throwableProxy;
        this.frameProxy = frameProxy;
        Class<?> o = Object.class;
        this.toLevel = lookup.findStatic(level, "toLevel", MethodType.methodType(level, int.class))
                .asType(MethodType.methodType(o, int.class));
        this.newFrame = lookup.findConstructor(frameProxy, MethodType.methodType(void.class, StackTraceElement.class))
                .asType(MethodType.methodType(o, StackTraceElement.class));
        this.setPackaging = lookup.findVirtual(frameProxy, "setClassPackagingData", MethodType.methodType(void.class, packaging))
                .asType(MethodType.methodType(void.class, o, o));
        this.newPackaging = lookup.findConstructor(packaging, MethodType.methodType(void.class, String.class, String.class, boolean.class))
                .asType(MethodType.methodType(o, String.class, String.class, boolean.class));
        this.newContext = lookup.findConstructor(contextVO, MethodType.methodType(void.class, String.class, Map.class, long.class))
                .asType(MethodType.methodType(o, String.class, Map.class, long.class));
        Class<?> factory = Class.forName("org:slf4j:helpers:BasicMarkerFactory".replace(':', '.'), false, loader);
        Object markers = factory.getConstructor().newInstance();
        this.newMarker = lookup.findVirtual(factory, "getDetachedMarker", MethodType.methodType(marker, String.class))
                .bindTo(markers).asType(MethodType.methodType(o, String.class));
        this.addMarker = lookup.findVirtual(marker, "add", MethodType.methodType(void.class, marker))
                .asType(MethodType.methodType(void.class, o, o));
        this.newPair = lookup.findConstructor(keyValuePair, MethodType.methodType(void.class, String.class, Object.class))
                .asType(MethodType.methodType(o, String.class, o));
    }

    /** The event a payload holds (the caller checks that nothing follows it). */
    Object read(LogbackJournalIn in) throws Throwable {
        int version = in.i8();
        if (version != LogbackJournalCodec.VERSION) {
            throw in.damaged("version " + version);
        }
        Event e = new Event();
        e.timeStamp = in.i64();
        e.nanoseconds = in.i32();
        e.sequenceNumber = in.i64();
        if (in.bool()) {
            long seconds = in.i64();
            int nano = in.i32();
            if (nano < 0 || nano > 999_999_999 || seconds < Instant.MIN.getEpochSecond() || seconds > Instant.MAX.getEpochSecond()) {
                throw in.damaged("an instant of " + seconds + " s " + nano + " ns");
            }
            e.instant = Instant.ofEpochSecond(seconds, nano);
        }
        e.level = in.bool() ? (Object) toLevel.invokeExact(in.i32()) : null;
        e.loggerName = in.str();
        e.threadName = in.str();
        e.message = in.str();
        e.formattedMessage = in.str();
        e.arguments = readArguments(in);
        e.mdc = readMap(in);
        int n = in.count(5, true, "markers");
        if (n >= 0) {
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(readMarker(in, 0));
            }
            e.markers = Collections.unmodifiableList(list);
        }
        n = in.count(5, true, "key-value pairs");
        if (n >= 0) {
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add((Object) newPair.invokeExact(in.str(), in.value()));
            }
            e.keyValuePairs = Collections.unmodifiableList(list);
        }
        e.throwable = in.bool() ? readThrowable(in, 0) : null;
        e.callerData = readFrames(in);
        if (in.bool()) {
            String name = in.str();
            long birth = in.i64();
            e.context = (Object) newContext.invokeExact(name, readMap(in), birth);
        }
        return Proxy.newProxyInstance(loader, new Class<?>[] {event}, e);
    }

    private static Object[] readArguments(LogbackJournalIn in) {
        int n = in.i32();
        if (n == -1 || n == -2) {
            return null; // none, or not carried
        }
        if (n < 0 || n > in.left()) {
            throw in.damaged("argument count " + n);
        }
        Object[] args = new Object[n];
        for (int i = 0; i < n; i++) {
            args[i] = in.value();
        }
        return args;
    }

    private static Map<String, String> readMap(LogbackJournalIn in) {
        int n = in.count(8, true, "map entries");
        if (n < 0) {
            return null;
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(in.str(), in.str());
        }
        if (m.size() != n) {
            throw in.damaged("a map repeats a key");
        }
        return Collections.unmodifiableMap(m);
    }

    private Object readMarker(LogbackJournalIn in, int depth) throws Throwable {
        if (depth > LogbackJournalCodec.MAX_DEPTH) {
            throw in.damaged("markers nest deeper than " + LogbackJournalCodec.MAX_DEPTH);
        }
        String name = in.str();
        if (name == null) {
            throw in.damaged("a marker without a name");
        }
        Object m = (Object) newMarker.invokeExact(name);
        int n = in.count(8, false, "marker references");
        for (int i = 0; i < n; i++) {
            addMarker.invokeExact(m, readMarker(in, depth + 1));
        }
        return m;
    }

    private Object readThrowable(LogbackJournalIn in, int depth) throws Throwable {
        if (depth > LogbackJournalCodec.MAX_DEPTH) {
            throw in.damaged("the throwable nests deeper than " + LogbackJournalCodec.MAX_DEPTH);
        }
        ThrowablePart t = new ThrowablePart();
        t.className = in.str();
        t.message = in.str();
        t.overridingMessage = in.str();
        t.cyclic = in.bool();
        t.commonFrames = in.i32();
        int n = in.count(29, false, "frames");
        Object[] frames = (Object[]) Array.newInstance(frameProxy, n);
        for (int i = 0; i < n; i++) {
            Object f = (Object) newFrame.invokeExact(readFrame(in));
            if (in.bool()) {
                setPackaging.invokeExact(f, (Object) newPackaging.invokeExact(in.str(), in.str(), in.bool()));
            }
            frames[i] = f;
        }
        t.frames = frames;
        t.cause = in.bool() ? readThrowable(in, depth + 1) : null;
        n = in.count(26, true, "suppressed throwables");
        if (n >= 0) {
            Object[] s = (Object[]) Array.newInstance(throwableProxy, n);
            for (int i = 0; i < n; i++) {
                s[i] = readThrowable(in, depth + 1);
            }
            t.suppressed = s;
        }
        return Proxy.newProxyInstance(loader, new Class<?>[] {throwableProxy}, t);
    }

    private static StackTraceElement[] readFrames(LogbackJournalIn in) {
        int n = in.count(28, true, "caller frames");
        if (n < 0) {
            return null;
        }
        StackTraceElement[] a = new StackTraceElement[n];
        for (int i = 0; i < n; i++) {
            a[i] = readFrame(in);
        }
        return a;
    }

    private static StackTraceElement readFrame(LogbackJournalIn in) {
        String loader = in.str();
        String module = in.str();
        String version = in.str();
        String declaring = in.str();
        String method = in.str();
        String file = in.str();
        int line = in.i32();
        if (declaring == null || method == null) {
            throw in.damaged("a stack frame without a class or method name");
        }
        return new StackTraceElement(loader, module, version, declaring, method, file, line);
    }

    /** The rebuilt event's answers. */
    private static final class Event implements InvocationHandler {
        private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];
        long timeStamp;
        int nanoseconds;
        long sequenceNumber;
        Instant instant;
        Object level;
        String loggerName;
        String threadName;
        String message;
        String formattedMessage;
        Object[] arguments;
        Map<String, String> mdc;
        List<Object> markers;
        List<Object> keyValuePairs;
        Object throwable;
        StackTraceElement[] callerData;
        Object context;

        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            if (args != null && args.length > 0) {
                if (m.getName().equals("equals") && args.length == 1) {
                    return proxy == args[0];
                }
                return unknown(proxy, m, args);
            }
            return switch (m.getName()) {
                case "getTimeStamp" -> timeStamp;
                case "getNanoseconds" -> nanoseconds;
                case "getInstant" -> instant;
                case "getSequenceNumber" -> sequenceNumber;
                case "getLevel" -> level;
                case "getLoggerName" -> loggerName;
                case "getThreadName" -> threadName;
                case "getMessage" -> message;
                case "getFormattedMessage" -> formattedMessage;
                case "getArgumentArray" -> arguments;
                case "getMDCPropertyMap", "getMdc" -> mdc;
                case "getMarkerList" -> markers;
                case "getMarker" -> markers == null || markers.isEmpty() ? null : markers.get(0);
                case "getKeyValuePairs" -> keyValuePairs;
                case "getThrowableProxy" -> throwable;
                case "hasCallerData" -> callerData != null;
                case "getCallerData" -> callerData == null ? NO_FRAMES : callerData;
                case "getLoggerContextVO" -> context;
                case "prepareForDeferredProcessing" -> null;
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> "[" + level + "] " + formattedMessage;
                default -> unknown(proxy, m, args);
            };
        }
    }

    /** A throwable part's answers. */
    private static final class ThrowablePart implements InvocationHandler {
        String className;
        String message;
        String overridingMessage;
        boolean cyclic;
        int commonFrames;
        Object[] frames;
        Object cause;
        Object[] suppressed;

        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            if (args != null && args.length > 0) {
                if (m.getName().equals("equals") && args.length == 1) {
                    return proxy == args[0];
                }
                return unknown(proxy, m, args);
            }
            return switch (m.getName()) {
                case "getClassName" -> className;
                case "getMessage" -> message;
                case "getOverridingMessage" -> overridingMessage;
                case "isCyclic" -> cyclic;
                case "getCommonFrames" -> commonFrames;
                case "getStackTraceElementProxyArray" -> frames;
                case "getCause" -> cause;
                case "getSuppressed" -> suppressed;
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> className + ": " + message;
                default -> unknown(proxy, m, args);
            };
        }
    }

    /** A method this Logback added since: its default, else unsupported. */
    private static Object unknown(Object proxy, Method m, Object[] args) throws Throwable {
        if (m.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, m, args);
        }
        throw new UnsupportedOperationException(m.getName() + " of a journaled Logback event");
    }
}
