package dev.spool.agent.host;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Test host for the Logback differential test: the same events, byte for byte, in every run.
 * Usage: {@code LogbackDiffHost <dir> <events>}, Logback configured by
 * {@code -Dlogback.configurationFile} (the file appenders under test) plus one time-based
 * {@code RollingFileAppender} built here ({@code dir/roll-<minute>.log}) whose clock follows the
 * events' timestamps, so it rolls at the same event in every run.
 *
 * <p>Events are built here (reflectively: the test sources need no Logback) with fixed
 * timestamps that cross the 2030 DST change in Europe/Berlin and several minutes, the context's
 * birth time fixed (so {@code %relative} is too), levels, logger names, parameters (null among
 * them), MDC, markers, exceptions with causes and suppressed ones, and two named threads taking
 * turns (one at a time, so the order is fixed). Each is passed to {@code Logger.callAppenders}
 * from {@link Emit#emit}, whose class is the event's logger FQCN: the caller data is the line in
 * {@link #run} that logged it. Between the two threads' turns, three appenders are given a new encoder
 * ({@code setEncoder}). Ends with {@code LoggerContext.stop()} (footers) and prints {@code done}.
 */
public final class LogbackDiffHost {

    static final long BASE = Instant.parse("2030-03-31T00:58:20.125Z").toEpochMilli();
    static final String[] LOGGERS = {"com.example.orders.OrderService", "com.example.web.RequestLog", "io.netty.Channel", "root.x"};
    static final String[] LEVELS = {"INFO", "DEBUG", "WARN", "ERROR", "INFO", "TRACE"};

    /** Calls of {@link #emitEvent}: under the agent (tee mode) each is also an event in the event file. */
    static final int EMITTED = 50;
    private static Object context;
    private static java.io.OutputStream emitted;
    private static Object rollingClock;

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        int events = Integer.parseInt(args[1]);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        context = factory.getMethod("getILoggerFactory").invoke(null);
        Field birth = Class.forName("ch.qos.logback.core.ContextBase").getDeclaredField("birthTime");
        birth.setAccessible(true);
        birth.setLong(context, BASE - 61_000);
        call(context, "putProperty", "diff.run", "1"); // refreshes the context's view the events carry
        addRollingAppender(dir);
        java.util.List<java.util.logging.FileHandler> jul = julHandlers(dir, 3);
        int half = events / 2;
        runOn("worker-1", 0, half);
        // the host replaces encoders of running appenders: from the next event on, each writes with its new one
        setEncoder("F1", "NEW %-5level %logger{10} %msg%n"); // another pattern Spool runs elsewhere
        setEncoder("F2", "%property{diff.run} %level %msg%n"); // one Spool leaves on the caller's thread
        setEncoder("F3", "%level %method:%line %msg%n"); // one that needs the caller data (the old one did not)
        runOn("worker-2", half, events);
        emitted = new java.io.FileOutputStream(dir + "/emitted.jsonl");
        for (int i = 0; i < EMITTED; i++) {
            emitEvent(java.util.Map.of("seq", i));
        }
        emitted.close();
        printSpoolThreads();
        for (java.util.logging.FileHandler h : jul) {
            h.close();
        }
        call(context, "stop");
        System.out.println("done");
    }

    private static void runOn(String name, int from, int to) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                run(from, to);
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, name);
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new IllegalStateException("worker failed", failure[0]);
        }
    }

    private static void run(int from, int to) throws Exception {
        Class<?> mdc = Class.forName("org.slf4j.MDC");
        Method put = mdc.getMethod("put", String.class, String.class);
        Method remove = mdc.getMethod("remove", String.class);
        Method marker = Class.forName("org.slf4j.MarkerFactory").getMethod("getMarker", String.class);
        for (int i = from; i < to; i++) {
            put.invoke(null, "user", "u" + (i % 13));
            if (i % 5 == 0) {
                put.invoke(null, "request", "r-" + i + "/é");
            } else {
                remove.invoke(null, "request");
            }
            String level = LEVELS[i % LEVELS.length];
            String logger = LOGGERS[i % LOGGERS.length];
            Object[] params = {i, i % 9 == 0 ? null : "p" + (i * 31 % 1000), "ünïcödé €"};
            Throwable thrown = i % 17 == 3 ? failure(i) : null;
            long at = BASE + i * 713L;
            Object m = i % 7 == 0 ? marker.invoke(null, i % 14 == 0 ? "AUDIT" : "SECURITY") : null;
            Emit.emit(logger, level, "event {} with {} and {}", params, thrown, at, m);
        }
    }

    /** JUL {@code FileHandler}s beside the appenders (captured by the agent too), a few fixed records each. */
    private static java.util.List<java.util.logging.FileHandler> julHandlers(String dir, int n) throws IOException {
        java.util.List<java.util.logging.FileHandler> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            java.util.logging.FileHandler h = new java.util.logging.FileHandler(dir + "/jul-" + i + ".log", false);
            h.setFormatter(new java.util.logging.SimpleFormatter()); // format: -Djava.util.logging.SimpleFormatter.format
            java.util.logging.Logger logger = java.util.logging.Logger.getLogger("diff.jul." + i);
            logger.setUseParentHandlers(false);
            logger.addHandler(h);
            for (int r = 0; r < 50; r++) {
                logger.log(java.util.logging.Level.INFO, "jul record {0} of handler " + i, r);
            }
            out.add(h);
        }
        return out;
    }

    /** An emitter method (the agent's {@code spool.events.methods}): one line per call into {@code emitted.jsonl}. */
    public static void emitEvent(java.util.Map<String, Object> event) throws IOException {
        emitted.write(("{\"seq\":" + event.get("seq") + "}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** One line naming Spool's threads alive now (the agent run's IT counts the capture writers). */
    private static void printSpoolThreads() {
        java.util.List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("spool-")) {
                names.add(t.getName());
            }
        }
        java.util.Collections.sort(names);
        System.out.println("spool threads: " + names);
    }

    /** An exception with a cause and a suppressed one, thrown from a fixed stack. */
    static Throwable failure(int i) {
        IllegalStateException e = new IllegalStateException("failed #" + i, new IOException("disk " + i));
        e.addSuppressed(new IllegalArgumentException("also " + i));
        return e;
    }

    /** {@code appender.setEncoder(encoder(pattern))} on the root logger's appender {@code name}. */
    private static void setEncoder(String name, String pattern) throws Exception {
        call(call(call(context, "getLogger", "ROOT"), "getAppender", name), "setEncoder", encoder(pattern));
    }

    /** A started {@code PatternLayoutEncoder} of {@code pattern} in the default context. */
    static Object encoder(String pattern) throws Exception {
        Object encoder = create("ch.qos.logback.classic.encoder.PatternLayoutEncoder");
        call(encoder, "setContext", Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null));
        call(encoder, "setPattern", pattern);
        call(encoder, "start");
        return encoder;
    }

    private static void addRollingAppender(String dir) throws Exception {
        Object appender = create("ch.qos.logback.core.rolling.RollingFileAppender");
        call(appender, "setContext", context);
        call(appender, "setName", "ROLL");
        Object encoder = create("ch.qos.logback.classic.encoder.PatternLayoutEncoder");
        call(encoder, "setContext", context);
        call(encoder, "setPattern", "%d{HH:mm:ss.SSS} [%thread] %-5level %logger{20} %X{user} - %msg%n");
        call(encoder, "start");
        call(appender, "setEncoder", encoder);
        Object policy = create("ch.qos.logback.core.rolling.TimeBasedRollingPolicy");
        call(policy, "setContext", context);
        call(policy, "setFileNamePattern", dir + "/roll-%d{yyyy-MM-dd_HH-mm, UTC}.log");
        call(policy, "setParent", appender);
        rollingClock = create("ch.qos.logback.core.rolling.DefaultTimeBasedFileNamingAndTriggeringPolicy");
        call(rollingClock, "setCurrentTime", BASE);
        call(policy, "setTimeBasedFileNamingAndTriggeringPolicy", rollingClock);
        call(policy, "start");
        call(appender, "setRollingPolicy", policy);
        call(appender, "start");
        Object root = call(context, "getLogger", "ROOT");
        call(root, "addAppender", appender);
    }

    /** The class whose name is every event's logger FQCN: the caller is the frame below {@link #emit}. */
    static final class Emit {
        static void emit(String loggerName, String level, String message, Object[] params, Throwable thrown, long at,
                         Object marker) throws Exception {
            Object logger = call(context, "getLogger", loggerName);
            Object lvl = Class.forName("ch.qos.logback.classic.Level").getMethod("toLevel", String.class).invoke(null, level);
            Class<?> eventType = Class.forName("ch.qos.logback.classic.spi.LoggingEvent");
            Object event = eventType.getConstructor(String.class, logger.getClass(), lvl.getClass(), String.class,
                    Throwable.class, Object[].class).newInstance(Emit.class.getName(), logger, lvl, message, thrown, params);
            call(event, "setTimeStamp", at);
            if (marker != null) {
                call(event, "addMarker", marker);
            }
            call(rollingClock, "setCurrentTime", at);
            call(logger, "callAppenders", event);
        }
    }

    static Object create(String type) throws Exception {
        return Class.forName(type).getConstructor().newInstance();
    }

    /** Calls the public method {@code name} of {@code target} that takes these arguments. */
    static Object call(Object target, String name, Object... args) throws Exception {
        List<Method> candidates = new ArrayList<>();
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                candidates.add(m);
            }
        }
        for (Method m : candidates) {
            Class<?>[] types = m.getParameterTypes();
            boolean fits = true;
            for (int i = 0; i < args.length && fits; i++) {
                fits = args[i] == null || wrap(types[i]).isInstance(args[i]);
            }
            if (fits) {
                return m.invoke(target, args);
            }
        }
        throw new NoSuchMethodException(target.getClass().getName() + "." + name + " for " + args.length + " arguments");
    }

    private static Class<?> wrap(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return type == long.class ? Long.class : type == int.class ? Integer.class : type == boolean.class ? Boolean.class : type;
    }
}
