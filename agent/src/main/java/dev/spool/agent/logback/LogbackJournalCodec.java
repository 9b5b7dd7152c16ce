package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A prepared Logback event as a journal payload (issue 33) and, at recovery, back into an
 * {@code ILoggingEvent} that every converter of a {@code PatternLayout} reads as it read the
 * original, so the appender's own encoder writes the same bytes. The host's Logback is reached
 * through method handles only (the one that loaded the event class; 1.4.14, 1.5.x, 1.6.x).
 * Little-endian ({@link LogbackJournalOut}: a string is its exact chars, -1 for null):
 * <pre>
 * version (byte 2) timeStamp (long) nanoseconds (int) sequenceNumber (long)
 * instant: present (byte) [epochSecond (long) nano (int)]   level: present (byte) [toInt() (int)]
 * loggerName threadName message formattedMessage (strings)
 * arguments: count (int; -1 null, -2 not carried) values   mdc: count (-1 null) key value (strings)
 * markers: count (-1 null) trees; tree: name (string) references count (int) trees
 * keyValuePairs: count (-1 null) key (string) value          value: tag (byte) then its bytes
 * throwable: present (byte) [node]; node: className message overridingMessage (strings) cyclic (byte)
 *   commonFrames (int) frames count (int) frames; frame: stackTraceElement packaging present (byte)
 *   [codeLocation version (strings) exact (byte)]; cause present (byte) [node]; suppressed count (-1 null) nodes
 * callerData: count (int; -1 none computed) stackTraceElements
 * stackTraceElement: classLoaderName moduleName moduleVersion declaringClass methodName fileName (strings) line (int)
 * context: present (byte) [name (string) birthTime (long) properties count (-1 null) key value (strings)]
 * </pre>
 *
 * <p><b>Threads.</b> {@link #encode} runs on the caller's thread, on many at once, before the
 * event is queued. Assumption: the event went through {@code prepareForDeferredProcessing} (else
 * {@code getFormattedMessage} would format with the arguments' {@code toString} and the MDC getter
 * ask the adapter). It then reads the event through Logback's own getters only (an event of
 * Logback's own class), and JDK collections and values; it runs no host code and takes no lock.
 * Scratch: a per-thread {@code byte[]} (kept up to 64 KiB). The context's part is cached by the
 * identity of its {@code LoggerContextVO} and property map (Logback replaces the view when a
 * property is put; a host writing into the view's map in place would be missed). {@link #decode}
 * runs at recovery, in a later process with the same Logback; a damaged payload throws
 * {@link IllegalArgumentException} naming the offset, never anything else (the frame's CRC is what
 * catches a flip that still decodes).
 *
 * <p><b>Refused</b> ({@link IllegalArgumentException}, naming why; the caller captures the event
 * without the journal): an event, throwable proxy, frame proxy, packaging data or context view of a
 * class not Logback's own; a marker not slf4j's {@code BasicMarker}, or a marker tree that repeats
 * a name (slf4j's {@code add} would drop it when rebuilt) or nests deeper than {@value #MAX_DEPTH};
 * a key-value pair not slf4j's own class or whose value is not null, a String or a boxed primitive;
 * an MDC or context property map that is not a JDK map of strings with equals lookups (a sorted map
 * with a comparator, an identity or weak map, a host map; a JDK unmodifiable wrapper is taken as
 * is: its inner map cannot be seen); a throwable tree deeper than {@value #MAX_DEPTH}, of more than
 * {@value #MAX_NODES} parts, or with a null frame or part; a stack frame whose {@code toString} no
 * constructed frame reproduces.
 *
 * <p><b>Rebuilt differently</b> (invisible to Logback's own converters): arguments other than null,
 * Strings and boxed primitives (the rebuilt array is then null); a frame's class loader name and
 * module version where its {@code toString} does not print them (null); an event without computed
 * caller data answers {@code hasCallerData()} false and an empty array (Logback would compute it on
 * the asking thread: the capture computes it on the caller's when the pattern prints it); maps and
 * lists are unmodifiable copies in the original's iteration order; the event and throwable parts
 * are {@link java.lang.reflect.Proxy}s, so a converter of the host's own, an evaluator, or anything
 * that casts to {@code LoggingEvent} or {@code ThrowableProxy} (for the {@code Throwable}) sees the
 * same getters but not the same classes. Not from the event at all, so the same only in the same
 * conditions: {@code %lsn} (a per-converter counter) and {@code %property} of a key the context
 * lacks (the recovering process's system property).
 *
 * <p>Example: on the caller's thread {@code ByteBuffer b = codec.encode(event)} then the ring takes
 * {@code b.array()} from 0 to {@code b.position()} (an {@link IllegalArgumentException}: the event
 * is captured without the journal); at recovery {@code encoder.encode(codec.decode(payload, 0, n))}.
 */
final class LogbackJournalCodec {
    /** 2 since the level's presence byte (1: a level's int, MIN_VALUE for none, which was ALL's too). */
    static final int VERSION = 2;
    static final int MAX_DEPTH = 64;
    static final int MAX_NODES = 4096;
    private static final MethodType OBJ = MethodType.methodType(Object.class, Object.class);

    private record Context(Object vo, Object map, int size, byte[] bytes) {
    }

    private final Class<?> loggingEvent;
    private final Class<?> loggingEventVO;
    private final Class<?> contextVO;
    private final Class<?> basicMarker;
    private final Class<?> keyValuePair;
    private final MethodHandle timeStamp, nanoseconds, sequenceNumber, instant, level, levelInt, loggerName, threadName,
            message, formatted, arguments, mdc, markers, keyValuePairs, throwable, hasCallerData, callerData, context;
    private final LogbackJournalThrowables throwables;
    private final MethodHandle voName, voProperties, voBirthTime;
    private final MethodHandle markerName, markerIterator, kvpKey, kvpValue;
    private final LogbackJournalEvents events;
    private volatile Context cached = new Context(new Object(), null, 0, null);

    private LogbackJournalCodec(Class<?> eventClass) throws ReflectiveOperationException {
        ClassLoader l = eventClass.getClassLoader();
        Class<?> e = Class.forName(LogbackConverters.EVENT, false, l);
        String spi = "ch:qos:logback:classic:spi:".replace(':', '.');
        loggingEvent = Class.forName(spi + "LoggingEvent", false, l);
        loggingEventVO = optional(spi + "LoggingEventVO", l);
        contextVO = Class.forName(spi + "LoggerContextVO", false, l);
        Class<?> levelClass = Class.forName("ch:qos:logback:classic:Level".replace(':', '.'), false, l);
        Class<?> marker = Class.forName("org:slf4j:Marker".replace(':', '.'), false, l);
        basicMarker = Class.forName("org:slf4j:helpers:BasicMarker".replace(':', '.'), false, l);
        keyValuePair = Class.forName("org:slf4j:event:KeyValuePair".replace(':', '.'), false, l);
        Class<?> itp = Class.forName(spi + "IThrowableProxy", false, l);
        Class<?> frameProxy = Class.forName(spi + "StackTraceElementProxy", false, l);
        Class<?> packaging = Class.forName(spi + "ClassPackagingData", false, l);
        throwables = new LogbackJournalThrowables(itp, Class.forName(spi + "ThrowableProxy", false, l),
                optional(spi + "ThrowableProxyVO", l), frameProxy, packaging);
        timeStamp = getter(e, "getTimeStamp", long.class);
        nanoseconds = getter(e, "getNanoseconds", int.class);
        sequenceNumber = getter(e, "getSequenceNumber", long.class);
        instant = getter(e, "getInstant", Object.class);
        level = getter(e, "getLevel", Object.class);
        levelInt = getter(levelClass, "toInt", int.class);
        loggerName = getter(e, "getLoggerName", Object.class);
        threadName = getter(e, "getThreadName", Object.class);
        message = getter(e, "getMessage", Object.class);
        formatted = getter(e, "getFormattedMessage", Object.class);
        arguments = getter(e, "getArgumentArray", Object.class);
        mdc = getter(e, "getMDCPropertyMap", Object.class);
        markers = getter(e, "getMarkerList", Object.class);
        keyValuePairs = getter(e, "getKeyValuePairs", Object.class);
        throwable = getter(e, "getThrowableProxy", Object.class);
        hasCallerData = getter(e, "hasCallerData", boolean.class);
        callerData = getter(e, "getCallerData", Object.class);
        context = getter(e, "getLoggerContextVO", Object.class);
        voName = getter(contextVO, "getName", Object.class);
        voProperties = getter(contextVO, "getPropertyMap", Object.class);
        voBirthTime = getter(contextVO, "getBirthTime", long.class);
        markerName = getter(marker, "getName", Object.class);
        markerIterator = getter(marker, "iterator", Object.class);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        kvpKey = lookup.findGetter(keyValuePair, "key", String.class).asType(OBJ);
        kvpValue = lookup.findGetter(keyValuePair, "value", Object.class).asType(OBJ);
        events = new LogbackJournalEvents(e, itp, levelClass, frameProxy, packaging, contextVO, marker, keyValuePair);
    }

    /** Handles on the host's Logback that loaded {@code eventClass}; throws when a needed one is missing. */
    static LogbackJournalCodec of(Class<?> eventClass) throws ReflectiveOperationException {
        return new LogbackJournalCodec(eventClass);
    }

    /**
     * The payload of {@code event} (the buffer's array from 0 to its position: this thread's scratch,
     * valid until its next call). Throws {@link IllegalArgumentException} for an event it cannot
     * rebuild exactly (see the class comment).
     */
    ByteBuffer encode(Object event) {
        try {
            return write(event);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (VirtualMachineError e) {
            if (e instanceof StackOverflowError) {
                throw new IllegalArgumentException("the event nests too deeply", e);
            }
            throw e;
        } catch (Throwable t) {
            throw new IllegalArgumentException("reading the event failed: " + t, t);
        }
    }

    /** An {@code ILoggingEvent} of the host's Logback rebuilt from a payload; {@link IllegalArgumentException} on a damaged one. */
    Object decode(byte[] payload, int off, int len) {
        LogbackJournalIn in = new LogbackJournalIn(payload, off, len);
        try {
            Object event = events.read(in);
            in.finish();
            return event;
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith("damaged Logback") ? e
                    : in.damaged("rebuilding failed: " + e);
        } catch (VirtualMachineError e) {
            if (e instanceof StackOverflowError) {
                throw in.damaged("nesting too deep");
            }
            throw e;
        } catch (Throwable t) {
            throw in.damaged("rebuilding failed: " + t);
        }
    }

    private ByteBuffer write(Object event) throws Throwable {
        Class<?> c = event == null ? null : event.getClass();
        if (c == null || (c != loggingEvent && c != loggingEventVO)) {
            throw new IllegalArgumentException("an event of class " + (c == null ? null : c.getName()) + " is not Logback's own");
        }
        Object[] args = (Object[]) (Object) arguments.invokeExact(event);
        if (c == loggingEventVO && !allCarried(args)) {
            // a view formats its message when first asked, with the arguments' toString: host code for a host object
            throw new IllegalArgumentException("a LoggingEventVO with an argument of a class not carried");
        }
        LogbackJournalOut o = new LogbackJournalOut();
        o.i8(VERSION);
        o.i64((long) timeStamp.invokeExact(event));
        o.i32((int) nanoseconds.invokeExact(event));
        o.i64((long) sequenceNumber.invokeExact(event));
        java.time.Instant at = (java.time.Instant) (Object) instant.invokeExact(event);
        o.bool(at != null);
        if (at != null) {
            o.i64(at.getEpochSecond());
            o.i32(at.getNano());
        }
        Object lv = (Object) level.invokeExact(event);
        o.bool(lv != null);
        if (lv != null) {
            o.i32((int) levelInt.invokeExact(lv)); // ALL's int is MIN_VALUE: no int is free to stand for null
        }
        o.str((String) (Object) loggerName.invokeExact(event));
        o.str((String) (Object) threadName.invokeExact(event));
        o.str((String) (Object) message.invokeExact(event));
        o.str((String) (Object) formatted.invokeExact(event));
        writeArguments(o, args);
        writeMap(o, (Object) mdc.invokeExact(event), "the MDC map");
        writeMarkers(o, (Object) markers.invokeExact(event));
        writePairs(o, (Object) keyValuePairs.invokeExact(event));
        Object tp = (Object) throwable.invokeExact(event);
        o.bool(tp != null);
        if (tp != null) {
            throwables.write(o, tp);
        }
        LogbackJournalThrowables.writeFrames(o, (boolean) hasCallerData.invokeExact(event) ? (Object) callerData.invokeExact(event) : null);
        writeContext(o, (Object) context.invokeExact(event));
        return o.done();
    }

    private static boolean allCarried(Object[] args) {
        if (args != null) {
            for (Object a : args) {
                if (!LogbackJournalOut.carried(a)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void writeArguments(LogbackJournalOut o, Object[] args) {
        if (args == null) {
            o.i32(-1);
            return;
        }
        if (!allCarried(args)) {
            o.i32(-2); // not carried: rebuilt as null (Logback's converters read the formatted message)
            return;
        }
        o.i32(args.length);
        for (Object a : args) {
            o.value(a);
        }
    }

    /** A JDK map of strings whose lookups are equals-based (what a rebuilt {@code LinkedHashMap} answers). */
    private static void writeMap(LogbackJournalOut o, Object m, String what) {
        if (m == null) {
            o.i32(-1);
            return;
        }
        Class<?> c = m.getClass();
        if (c.getClassLoader() != null || m instanceof java.util.IdentityHashMap || m instanceof java.util.WeakHashMap
                || !(m instanceof Map<?, ?> map) || (m instanceof java.util.SortedMap<?, ?> s && s.comparator() != null)) {
            throw new IllegalArgumentException(what + " is a " + c.getName() + ", not a plain JDK map");
        }
        int size = map.size();
        o.i32(size);
        int n = 0;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getKey() == null || e.getKey() instanceof String) || !(e.getValue() == null || e.getValue() instanceof String)) {
                throw new IllegalArgumentException(what + " holds a key or value that is not a String");
            }
            o.str((String) e.getKey());
            o.str((String) e.getValue());
            n++;
        }
        if (n != size) {
            throw new IllegalArgumentException(what + " changed while it was read");
        }
    }

    private static List<?> jdkList(Object l, String what) {
        if (l.getClass().getClassLoader() != null || !(l instanceof List<?> list)) {
            throw new IllegalArgumentException(what + " is a " + l.getClass().getName() + ", not a JDK list");
        }
        return list;
    }

    private void writeMarkers(LogbackJournalOut o, Object l) throws Throwable {
        if (l == null) {
            o.i32(-1);
            return;
        }
        List<?> list = jdkList(l, "the marker list");
        int n = list.size();
        o.i32(n);
        for (int i = 0; i < n; i++) {
            writeMarker(o, list.get(i), new HashSet<>(), 0);
        }
    }

    private void writeMarker(LogbackJournalOut o, Object m, Set<String> names, int depth) throws Throwable {
        if (m == null || m.getClass() != basicMarker) {
            throw new IllegalArgumentException("a marker of class " + (m == null ? null : m.getClass().getName())
                    + " is not slf4j's BasicMarker");
        }
        String name = (String) (Object) markerName.invokeExact(m);
        if (name == null || !names.add(name) || depth > MAX_DEPTH) {
            throw new IllegalArgumentException("the marker tree repeats the name " + name + " or nests deeper than " + MAX_DEPTH);
        }
        o.str(name);
        Iterator<?> it = (Iterator<?>) (Object) markerIterator.invokeExact(m);
        if (it.getClass().getClassLoader() != null) {
            throw new IllegalArgumentException("a marker's references iterate with a " + it.getClass().getName());
        }
        List<Object> refs = new ArrayList<>();
        it.forEachRemaining(refs::add);
        o.i32(refs.size());
        for (Object r : refs) {
            writeMarker(o, r, names, depth + 1);
        }
    }

    private void writePairs(LogbackJournalOut o, Object l) throws Throwable {
        if (l == null) {
            o.i32(-1);
            return;
        }
        List<?> list = jdkList(l, "the key-value pair list");
        int n = list.size();
        o.i32(n);
        for (int i = 0; i < n; i++) {
            Object p = list.get(i);
            if (p == null || p.getClass() != keyValuePair) {
                throw new IllegalArgumentException("a key-value pair of class " + (p == null ? null : p.getClass().getName()));
            }
            Object v = (Object) kvpValue.invokeExact(p);
            if (!LogbackJournalOut.carried(v)) {
                throw new IllegalArgumentException("a key-value pair's value of class " + v.getClass().getName()
                        + " (its toString is host code)");
            }
            o.str((String) (Object) kvpKey.invokeExact(p));
            o.value(v);
        }
    }

    private void writeContext(LogbackJournalOut o, Object vo) throws Throwable {
        if (vo == null) {
            o.bool(false);
            return;
        }
        if (vo.getClass() != contextVO) {
            throw new IllegalArgumentException("a logger context view of class " + vo.getClass().getName());
        }
        Object map = (Object) voProperties.invokeExact(vo);
        int size = map instanceof Map<?, ?> m ? m.size() : -1;
        Context c = cached;
        if (c.vo != vo || c.map != map || c.size != size) {
            LogbackJournalOut part = new LogbackJournalOut(64);
            part.bool(true);
            part.str((String) (Object) voName.invokeExact(vo));
            part.i64((long) voBirthTime.invokeExact(vo));
            writeMap(part, map, "the logger context's property map");
            c = new Context(vo, map, size, part.copy());
            cached = c;
        }
        o.raw(c.bytes);
    }

    private static Class<?> optional(String name, ClassLoader l) {
        try {
            return Class.forName(name, false, l);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    static boolean has(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 0) {
                return true;
            }
        }
        return false;
    }

    /** {@code type}'s public no-argument method {@code name} as {@code (Object) -> returns}; throws when absent. */
    static MethodHandle getter(Class<?> type, String name, Class<?> returns) throws ReflectiveOperationException {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 0 && !java.lang.reflect.Modifier.isStatic(m.getModifiers())
                    && (returns == Object.class ? !m.getReturnType().isPrimitive() : m.getReturnType() == returns)) {
                return MethodHandles.publicLookup().unreflect(m).asType(MethodType.methodType(returns, Object.class));
            }
        }
        throw new NoSuchMethodException(type.getName() + "." + name + "()");
    }
}
