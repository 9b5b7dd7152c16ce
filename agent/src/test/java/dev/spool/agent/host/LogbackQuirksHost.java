package dev.spool.agent.host;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * Test host for corners of Logback that an encoding off the caller's thread must reproduce, the
 * same in every run; Logback configured by {@code -Dlogback.configurationFile}, called reflectively
 * (the test sources need no Logback). Prints {@code done} after {@code LoggerContext.stop()}.
 * <ul>
 *   <li>{@code caller <records> <package>...}: adds the packages to the context's
 *       {@code frameworkPackages}, then logs {@code records} events from {@link #logAt} through a
 *       method handle (its frames are hidden, so the caller data is {@code logAt}'s line in every run).</li>
 *   <li>{@code epoch}: events with fixed time stamps, −1 ms first (Logback's date formatter
 *       caches −1 as its "nothing yet" stamp), passed to {@code Logger.callAppenders}.</li>
 * </ul>
 */
public final class LogbackQuirksHost {

    static final long[] STAMPS = {-1, -1, 0, -1, -1001, 5_000, 5_123, -1};

    public static void main(String[] args) throws Throwable {
        Object context = Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
        if (args[0].equals("caller")) {
            caller(context, Integer.parseInt(args[1]), Arrays.asList(args).subList(2, args.length));
        } else {
            epoch(context);
        }
        context.getClass().getMethod("stop").invoke(context);
        System.out.println("done");
    }

    @SuppressWarnings("unchecked")
    private static void caller(Object context, int records, List<String> packages) throws Throwable {
        ((List<String>) context.getClass().getMethod("getFrameworkPackages").invoke(context)).addAll(packages);
        Object logger = context.getClass().getMethod("getLogger", String.class).invoke(context, "host.caller");
        MethodHandle info = MethodHandles.publicLookup().findVirtual(Class.forName("org.slf4j.Logger"), "info",
                MethodType.methodType(void.class, String.class, Object.class)).bindTo(logger);
        for (int i = 0; i < records; i++) {
            logAt(info, i);
        }
    }

    /** The caller data of every event in {@code caller} mode: this method's line. */
    private static void logAt(MethodHandle info, int i) throws Throwable {
        info.invoke("caller record {}", (Object) Integer.valueOf(i));
    }

    private static void epoch(Object context) throws Exception {
        Object logger = context.getClass().getMethod("getLogger", String.class).invoke(context, "host.epoch");
        Class<?> levelType = Class.forName("ch.qos.logback.classic.Level");
        Class<?> eventType = Class.forName("ch.qos.logback.classic.spi.LoggingEvent");
        Constructor<?> make = eventType.getConstructor(String.class, logger.getClass(), levelType, String.class,
                Throwable.class, Object[].class);
        Method stamp = eventType.getMethod("setTimeStamp", long.class);
        Method call = logger.getClass().getMethod("callAppenders", Class.forName("ch.qos.logback.classic.spi.ILoggingEvent"));
        Object info = levelType.getField("INFO").get(null);
        for (int i = 0; i < STAMPS.length; i++) {
            Object event = make.newInstance(logger.getClass().getName(), logger, info, "stamped " + STAMPS[i] + " #" + i, null, null);
            stamp.invoke(event, STAMPS[i]);
            call.invoke(logger, event);
        }
    }
}
