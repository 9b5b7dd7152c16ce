package dev.spool.agent.host;

import java.lang.reflect.Method;

/**
 * Test host for attach to a running application: logs through SLF4J to the Logback configuration
 * named by {@code -Dlogback.configurationFile} (its appenders open at the first logger), then serves
 * {@link LogCommands} ({@code log N} logs the next N numbered records). End of input stops the
 * context and exits. SLF4J is called reflectively so the test sources need no Logback dependency.
 */
public final class OpenLogbackHost {

    public static void main(String[] args) throws Exception {
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "open.logback.host");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        LogCommands.serve(n -> info.invoke(logger, "record {} of the run, é ü 漢", n));
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context);
    }
}
