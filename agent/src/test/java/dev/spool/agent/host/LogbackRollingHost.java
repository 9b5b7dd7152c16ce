package dev.spool.agent.host;

import static dev.spool.agent.host.LogbackDiffHost.call;
import static dev.spool.agent.host.LogbackDiffHost.create;

import java.util.ArrayList;
import java.util.List;

/**
 * Test host for size-based rolling (issue 13 item 3): {@code LogbackRollingHost <dir> <events> <threads>}.
 * Builds three {@code RollingFileAppender}s in {@code dir} (reflectively: the test sources need no
 * Logback) that roll by bytes, gzip-compressing their archives:
 * <ul>
 *   <li>{@code size.log}: {@code SizeBasedTriggeringPolicy} (2 KB, {@code checkIncrement} 0 so every
 *       event is checked) with a {@code FixedWindowRollingPolicy} ({@code size.<i>.log.gz});
 *   <li>{@code sat.log}: {@code SizeAndTimeBasedRollingPolicy} (1,500 bytes, {@code sat-<year>.<i>.log.gz});
 *   <li>{@code clock.log}: a {@code TimeBasedRollingPolicy} with a {@code SizeAndTimeBasedFileNamingAndTriggeringPolicy}
 *       (1,200 bytes, {@code clock-<minute>.<i>.log.gz}) whose clock follows the events (20 s apart), so
 *       it rolls by time and by size, at the same events in every run.
 * </ul>
 * Then {@code threads} named threads ({@code w0}, {@code w1}, …) log {@code events} events each, taking
 * turns (one at a time: the order is fixed, the callers are several threads); then the same threads
 * log {@code events} each at once, unordered, into {@code dir/free/free.log} (2 KB, {@code free.<i>.log}).
 * Stops the context (every archive and the active files complete) and prints {@code done}.
 */
public final class LogbackRollingHost {

    private static Object context;
    private static Object clock;
    private static int turn;

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        int events = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        context = factory.getMethod("getILoggerFactory").invoke(null);
        appender("size", dir + "/size.log", dir + "/size.%i.log.gz", window(), everyEventOver2k());
        Object sat = create("ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy");
        call(sat, "setMaxFileSize", fileSize("1500"));
        appender("sat", dir + "/sat.log", dir + "/sat-%d{yyyy-MM}.%i.log.gz", sat, null);
        Object timed = create("ch.qos.logback.core.rolling.TimeBasedRollingPolicy");
        clock = create("ch.qos.logback.core.rolling.SizeAndTimeBasedFileNamingAndTriggeringPolicy");
        call(clock, "setMaxFileSize", fileSize("1200"));
        call(clock, "setCurrentTime", LogbackDiffHost.BASE);
        call(timed, "setTimeBasedFileNamingAndTriggeringPolicy", clock);
        appender("clock", dir + "/clock.log", dir + "/clock-%d{yyyy-MM-dd_HH-mm, UTC}.%i.log.gz", timed, null);
        appender("free", dir + "/free/free.log", dir + "/free/free.%i.log", window(), everyEventOver2k());

        Object ordered = call(context, "getLogger", "ordered");
        Object free = call(context, "getLogger", "free");
        run(threads, t -> {
            for (int k = t; k < events * threads; k += threads) {
                awaitTurn(k);
                call(clock, "setCurrentTime", LogbackDiffHost.BASE + 20_000L * k);
                call(ordered, "info", "ordered event {} from {}" + pad(k), k, Thread.currentThread().getName());
                passTurn();
            }
        });
        run(threads, t -> {
            for (int k = 0; k < events; k++) {
                call(free, "info", "free event {} from {}" + pad(k), k, Thread.currentThread().getName());
            }
        });
        call(context, "stop");
        System.out.println("done");
    }

    private static String pad(int k) {
        return " " + "x".repeat((k * 7) % 40);
    }

    private static synchronized void awaitTurn(int k) throws InterruptedException {
        while (turn != k) {
            LogbackRollingHost.class.wait();
        }
    }

    private static synchronized void passTurn() {
        turn++;
        LogbackRollingHost.class.notifyAll();
    }

    /** A {@code SizeBasedTriggeringPolicy} of 2 KB that checks every event ({@code checkIncrement} 0). */
    private static Object everyEventOver2k() throws Exception {
        Object size = create("ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy");
        call(size, "setMaxFileSize", fileSize("2KB"));
        call(size, "setCheckIncrement", Class.forName("ch.qos.logback.core.util.Duration")
                .getMethod("buildByMilliseconds", double.class).invoke(null, 0d));
        return size;
    }

    private static Object window() throws Exception {
        Object window = create("ch.qos.logback.core.rolling.FixedWindowRollingPolicy");
        call(window, "setMinIndex", 1);
        call(window, "setMaxIndex", 1000);
        return window;
    }

    private static Object fileSize(String text) throws Exception {
        return Class.forName("ch.qos.logback.core.util.FileSize").getMethod("valueOf", String.class).invoke(null, text);
    }

    /** A started appender of {@code file} for the logger {@code logger} (and nothing else), rolled by {@code rolling}. */
    private static void appender(String logger, String file, String pattern, Object rolling, Object triggering) throws Exception {
        Object appender = create("ch.qos.logback.core.rolling.RollingFileAppender");
        call(appender, "setContext", context);
        call(appender, "setName", logger.toUpperCase());
        call(appender, "setFile", file);
        Object encoder = create("ch.qos.logback.classic.encoder.PatternLayoutEncoder");
        call(encoder, "setContext", context);
        call(encoder, "setPattern", "%-5level %logger [%thread] %msg%n");
        call(encoder, "start");
        call(appender, "setEncoder", encoder);
        call(rolling, "setContext", context);
        call(rolling, "setFileNamePattern", pattern);
        call(rolling, "setParent", appender);
        call(rolling, "start");
        call(appender, "setRollingPolicy", rolling);
        if (triggering != null) {
            call(triggering, "setContext", context);
            call(triggering, "start");
            call(appender, "setTriggeringPolicy", triggering);
        }
        call(appender, "start");
        Object target = call(context, "getLogger", logger.equals("free") ? "free" : "ordered");
        call(target, "setAdditive", false);
        call(target, "addAppender", appender);
    }

    interface Body {
        void run(int thread) throws Exception;
    }

    private static void run(int threads, Body body) throws Exception {
        List<Thread> started = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    body.run(index);
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "w" + t);
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a logging thread failed", failures.get(0));
        }
    }
}
