package dev.spool.agent.logback;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import ch.qos.logback.classic.boolex.ExceptionMatchEvaluator;
import ch.qos.logback.classic.boolex.OnErrorEvaluator;
import ch.qos.logback.classic.boolex.OnMarkerEvaluator;
import ch.qos.logback.classic.spi.ClassPackagingData;
import ch.qos.logback.classic.spi.LoggerContextVO;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.boolex.EventEvaluatorBase;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.helpers.BasicMarkerFactory;

/**
 * {@link LogbackEvents} with what a journal must carry beyond them: nanoseconds, sequence numbers,
 * key-value pairs of every carried type, nested markers, throwables with causes, suppressed ones,
 * a cycle, common frames, JDK and named-loader frames, native frames, an overriding message and
 * packaging data, real caller data, MDC entries with null values, and logger context views with
 * properties and a set birth time.
 */
final class LogbackRichEvents {
    static final Object[] KVP_VALUES = {"v", "", "ü 😀", "\uD83D", 42, -7L, (short) 3, (byte) -1, 3.5, -0.0, Double.NaN, 1.5f,
        true, 'x', null};

    private final LogbackEvents plain;
    private final Random random;
    private final Marker[] markers;
    private final LoggerContextVO[] contexts;

    LogbackRichEvents(long seed, long startMillis) {
        this.plain = new LogbackEvents(seed, startMillis);
        this.random = new Random(seed * 31 + 7);
        BasicMarkerFactory f = new BasicMarkerFactory();
        Marker top = f.getDetachedMarker("TOP");
        Marker mid = f.getDetachedMarker("MID");
        mid.add(f.getDetachedMarker("LEAF-ü"));
        mid.add(f.getDetachedMarker("LEAF2"));
        top.add(mid);
        top.add(f.getDetachedMarker("SIDE"));
        this.markers = new Marker[] {top, mid, f.getDetachedMarker("CONFIDENTIAL"), f.getDetachedMarker("")};
        Map<String, String> props = new LinkedHashMap<>();
        props.put("app", "demo ü");
        props.put("HOSTNAME", "host-1");
        props.put("empty", "");
        this.contexts = new LoggerContextVO[] {new LoggerContextVO("ctx", props, startMillis - 12_345),
            new LoggerContextVO("other 😀", Map.of("app", "x"), 0), new LoggerContextVO(null, new LinkedHashMap<>(), -5),
            new LoggerContextVO("ctx", props, startMillis - 1)};
    }

    LogbackEvents plain() {
        return plain;
    }

    /**
     * Logback evaluators in the context's map, started: {@code MARK} (a marker named LEAF2, nested two
     * deep under TOP, or CONFIDENTIAL), {@code ERR} (level ERROR), {@code EXC} (a RuntimeException).
     */
    void registerEvaluators() {
        @SuppressWarnings("unchecked")
        Map<String, Object> evaluators = (Map<String, Object>) plain.context().getObject(CoreConstants.EVALUATOR_MAP);
        OnMarkerEvaluator mark = new OnMarkerEvaluator();
        mark.addMarker("LEAF2"); // contains(String) walks the references
        mark.addMarker("CONFIDENTIAL");
        ExceptionMatchEvaluator exc = new ExceptionMatchEvaluator();
        exc.setExceptionClass("java.lang.RuntimeException");
        for (Object[] named : new Object[][] {{"MARK", mark}, {"ERR", new OnErrorEvaluator()}, {"EXC", exc}}) {
            EventEvaluatorBase<?> ev = (EventEvaluatorBase<?>) named[1];
            ev.setContext(plain.context());
            ev.setName((String) named[0]);
            ev.start();
            evaluators.put((String) named[0], ev);
        }
    }

    /** The next event, enriched at random. */
    LoggingEvent next() {
        LoggingEvent e = plain.next();
        long ts = e.getTimeStamp();
        if (random.nextInt(3) == 0) {
            e.setInstant(Instant.ofEpochSecond(Math.floorDiv(ts, 1000), Math.floorMod(ts, 1000) * 1_000_000L + random.nextInt(1_000_000)));
        }
        e.setSequenceNumber(random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(1000));
        if (random.nextInt(4) == 0) {
            List<KeyValuePair> kvps = new ArrayList<>();
            for (int i = random.nextInt(4); i >= 0; i--) {
                kvps.add(new KeyValuePair(random.nextInt(10) == 0 ? null : "k" + i, KVP_VALUES[random.nextInt(KVP_VALUES.length)]));
            }
            e.setKeyValuePairs(kvps);
        }
        if (random.nextInt(5) == 0) {
            e.addMarker(markers[random.nextInt(markers.length)]);
        }
        if (random.nextInt(8) == 0) {
            Map<String, String> mdc = e.getMDCPropertyMap(); // LogbackEvents' own LinkedHashMap (set once per event)
            mdc.put("nullValue", null);
            mdc.put("user", "ü😀");
        }
        if (e.getThrowableProxy() == null && random.nextInt(6) == 0) {
            e.setThrowableProxy(proxy(random.nextInt(8)));
        }
        if (random.nextInt(5) == 0) {
            e.setCallerData(new Throwable().getStackTrace()); // real frames: JDK modules, the app loader
        }
        e.setLoggerContextRemoteView(contexts[random.nextInt(contexts.length)]);
        return e;
    }

    /** A throwable proxy of kind {@code kind} (0-7). */
    ThrowableProxy proxy(int kind) {
        Throwable t = switch (kind) {
            case 0 -> wrapped();
            case 1 -> withSuppressed();
            case 2 -> cyclic();
            case 3 -> jdk();
            case 4 -> overriding();
            case 5 -> constructedFrames();
            case 6 -> new Error((String) null, wrapped());
            default -> withSuppressed();
        };
        ThrowableProxy tp = new ThrowableProxy(t);
        if (kind == 3) {
            tp.calculatePackagingData(); // Logback's own: code locations of the JDK's and the test's classes
        } else if (kind == 7 || kind == 0) {
            packaging(tp, 0);
        }
        return tp;
    }

    private void packaging(ch.qos.logback.classic.spi.IThrowableProxy tp, int depth) {
        String[] locations = {"app.jar", "na", "ü-lib-1.0.jar", null};
        String[] versions = {"1.0", "na", null, "2.0-SNAPSHOT"};
        for (StackTraceElementProxy step : tp.getStackTraceElementProxyArray()) {
            if (random.nextInt(4) != 0) {
                step.setClassPackagingData(new ClassPackagingData(locations[random.nextInt(4)], versions[random.nextInt(4)],
                        random.nextBoolean()));
            }
        }
        if (tp.getCause() != null && depth < 5) {
            packaging(tp.getCause(), depth + 1);
        }
        for (ch.qos.logback.classic.spi.IThrowableProxy s : tp.getSuppressed()) {
            packaging(s, depth + 1);
        }
    }

    private static Throwable wrapped() {
        try {
            inner(3);
            return new AssertionError("not thrown");
        } catch (IllegalStateException e) {
            return new RuntimeException("wrapper ü", e); // shares the frames below this method with its cause
        }
    }

    private static void inner(int depth) {
        if (depth == 0) {
            throw new IllegalStateException("deep \uD83D cause\nsecond line");
        }
        inner(depth - 1);
    }

    private static Throwable withSuppressed() {
        Throwable t = wrapped();
        t.addSuppressed(new java.io.IOException("closing"));
        Throwable s = wrapped();
        s.addSuppressed(new UnsupportedOperationException());
        t.addSuppressed(s);
        return t;
    }

    private static Throwable cyclic() {
        Exception a = new Exception("a");
        Exception b = new Exception("b", a);
        a.initCause(b);
        b.addSuppressed(a);
        return b;
    }

    private static Throwable jdk() {
        try {
            Integer.parseInt("not a number");
            return new AssertionError("parsed");
        } catch (NumberFormatException e) {
            return new IllegalArgumentException(e); // frames of java.base, printed without its version
        }
    }

    private static Throwable overriding() {
        return new RuntimeException("nominal") {
            @Override
            public String toString() {
                return "overridden text";
            }
        };
    }

    private static Throwable constructedFrames() {
        Throwable t = new Exception("constructed frames");
        t.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("myloader", "my.module", "1.2", "com.example.A", "run", "A.java", 12),
            new StackTraceElement("myloader", null, null, "com.example.B", "call", null, -1),
            new StackTraceElement(null, "java.base", "17.0.1", "java.lang.Thread", "run", "Thread.java", 833),
            new StackTraceElement(null, null, null, "com.example.N", "nat", "N.java", -2),
            new StackTraceElement("app", "", "", "com.example.E", "e", "E.java", 0)});
        return t;
    }
}
