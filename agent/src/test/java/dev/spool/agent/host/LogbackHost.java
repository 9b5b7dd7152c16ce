package dev.spool.agent.host;

import java.lang.reflect.Method;

/**
 * Test host logging through SLF4J to a Logback {@code FileAppender} configured by the file named
 * in {@code -Dlogback.configurationFile}; SLF4J is called reflectively so the test sources need no
 * Logback dependency. Usage: {@code LogbackHost <records>}; prints {@code written}.
 */
public final class LogbackHost {

    public static void main(String[] args) throws Exception {
        int records = Integer.parseInt(args[0]);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "host");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        for (int i = 0; i < records; i++) {
            info.invoke(logger, "logback record {}", i);
        }
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context); // closes the appenders, as a normal shutdown would
        System.out.println("written");
    }
}
