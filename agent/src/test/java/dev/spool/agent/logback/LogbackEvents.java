package dev.spool.agent.logback;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/** Random Logback events of many shapes, and encoders to compare, for the compiled layout's differential tests. */
final class LogbackEvents {

    static final String[] LOGGERS = {"a", "com", "com.example.Foo", "com.example.service.impl.VeryLongServiceImplementationName",
        "org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration$DispatcherServletRegistrationConfiguration",
        "a.b.c.d.e.f.g.h.i.j.k.l.m", "日本.サービス.Klass", "x..y", "trailing.", ".leading", "Ünïcödé.Lögger.Çlass",
        "io.netty.util.internal.logging.InternalLoggerFactory", "ROOT", "", "com.example.Foo$Bar$1", "UPPER.CASE.Name",
        "with space.in name", "a$b$c", "org.hibernate.SQL"};
    static final String[] THREADS = {"main", "pool-1-thread-3", "", "http-nio-8080-exec-10", "ForkJoinPool.commonPool-worker-1",
        "Ünïcödé thread", "a very long thread name that goes on and on beyond every width a pattern gives it", "t😀", "x"};
    static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};
    static final String[] TEMPLATES = {"plain message", "user {} logged in from {}", "{} + {} = {}", "", "ünïcödé {} façade",
        "日本語のメッセージ {}", "emoji 😀 {}", "tab\tand\nnewline {}", "trailing high \uD83D", "\uDE00 leading low",
        "lone \uD800 inside", "{}", "a fairly long message to exceed widths: lorem ipsum dolor sit amet, consectetur adipiscing elit {}",
        "percent %d %s {}", "escaped \\{} and {}"};
    static final Object[] ARGS = {42, "bob", null, "ü", 3.5, "😀", "\uD83D", new int[] {1, 2}, 'x', "", -7L, "a,b"};
    static final String[] MDC_KEYS = {"traceId", "spanId", "requestId", "user", "tenant_id", "request_id", "traceXId"};
    static final String[] MDC_VALUES = {"abc123", "", "ünï", "😀", "0af7651916cd43dd8448eb211c80319c", "x y"};

    private final Random random;
    private final LoggerContext context;
    private final ch.qos.logback.classic.Logger logger;
    private final Marker[] markers;
    private final Throwable[] throwables;
    private long time;

    LogbackEvents(long seed, long startMillis) {
        this.random = new Random(seed);
        this.context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.setName("ctx");
        context.start();
        this.logger = context.getLogger("base");
        Marker a = MarkerFactory.getDetachedMarker("AUDIT");
        Marker b = MarkerFactory.getDetachedMarker("SECURITY");
        b.add(MarkerFactory.getDetachedMarker("ALERT"));
        this.markers = new Marker[] {a, b, MarkerFactory.getDetachedMarker("ünï")};
        IllegalStateException cause = new IllegalStateException("root ü cause");
        RuntimeException withSuppressed = new RuntimeException("boom", cause);
        withSuppressed.addSuppressed(new java.io.IOException("suppressed"));
        this.throwables = new Throwable[] {new RuntimeException("plain"), withSuppressed, new Error((String) null)};
        this.time = startMillis;
    }

    LoggerContext context() {
        return context;
    }

    /** An encoder for {@code pattern} in {@code charset} (null: the platform's default), started. */
    PatternLayoutEncoder encoder(String pattern, Charset charset) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(context);
        enc.setPattern(pattern);
        if (charset != null) {
            enc.setCharset(charset);
        }
        enc.start();
        return enc;
    }

    /** The compiled layout of {@code encoder}, reporting into {@code reports}. */
    static CompiledPatternLayout compile(PatternLayoutEncoder encoder, Consumer<String> reports) throws ReflectiveOperationException {
        MethodHandle encode = MethodHandles.publicLookup().findVirtual(encoder.getClass(), "encode",
                MethodType.methodType(byte[].class, Object.class)).asType(MethodType.methodType(Object.class, Object.class, Object.class));
        return CompiledPatternLayout.compile(encoder, encode, reports);
    }

    /** The next event: time moves on by 0-300 ms (now and then by hours), fields random, prepared as the appender would. */
    LoggingEvent next() {
        int r = random.nextInt(100);
        time += r < 95 ? random.nextInt(300) : random.nextInt(5) * 3_600_000L + random.nextInt(1000);
        return at(time);
    }

    /** A random event at {@code millis}. */
    LoggingEvent at(long millis) {
        return at(millis, random.nextInt(50) == 0 ? null : TEMPLATES[random.nextInt(TEMPLATES.length)], random.nextInt(4));
    }

    /** A random event at {@code millis} with {@code template} and {@code argCount} random arguments. */
    LoggingEvent at(long millis, String template, int argCount) {
        Level level = LEVELS[random.nextInt(LEVELS.length)];
        Object[] args = new Object[argCount];
        for (int i = 0; i < args.length; i++) {
            args[i] = ARGS[random.nextInt(ARGS.length)];
        }
        Throwable thrown = random.nextInt(20) == 0 ? throwables[random.nextInt(throwables.length)] : null;
        LoggingEvent e = new LoggingEvent("fqcn", logger, level, template, thrown, args.length == 0 ? null : args);
        e.setLoggerName(random.nextInt(4) == 0 ? randomName() : LOGGERS[random.nextInt(LOGGERS.length)]);
        e.setThreadName(THREADS[random.nextInt(THREADS.length)]);
        e.setTimeStamp(millis);
        Map<String, String> mdc = new LinkedHashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            mdc.put(MDC_KEYS[random.nextInt(MDC_KEYS.length)], MDC_VALUES[random.nextInt(MDC_VALUES.length)]);
        }
        e.setMDCPropertyMap(mdc);
        for (int i = random.nextInt(10) < 7 ? 0 : 1 + random.nextInt(2); i > 0; i--) {
            e.addMarker(markers[random.nextInt(markers.length)]);
        }
        e.setCallerData(new StackTraceElement[] {new StackTraceElement("com.example.Caller", "doIt", "Caller.java", 42),
            new StackTraceElement("com.example.Main", "main", null, -1)});
        e.prepareForDeferredProcessing();
        return e;
    }

    private String randomName() {
        List<String> parts = new ArrayList<>();
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
            StringBuilder p = new StringBuilder();
            for (int j = random.nextInt(14); j >= 0; j--) {
                p.append("abcdefghijklmnopqrstuvwxyzABCDEFG_$éü".charAt(random.nextInt(37)));
            }
            parts.add(p.toString());
        }
        return String.join(".", parts);
    }
}
