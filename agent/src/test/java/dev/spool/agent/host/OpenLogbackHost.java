package dev.spool.agent.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * Test host for attach to a running application: logs through SLF4J to the Logback configuration
 * named by {@code -Dlogback.configurationFile} (its appenders open at the first logger), prints
 * {@code ready}, then reads commands from stdin: {@code log N} logs the next N numbered records and
 * answers {@code logged <total>}. End of input stops the context and exits. SLF4J is called
 * reflectively so the test sources need no Logback dependency.
 */
public final class OpenLogbackHost {

    public static void main(String[] args) throws Exception {
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "open.logback.host");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        System.out.println("ready");
        System.out.flush();
        int total = 0;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("log ")) {
                int n = Integer.parseInt(line.substring(4).trim());
                for (int i = 0; i < n; i++) {
                    total++;
                    info.invoke(logger, "record {} of the run, é ü 漢", total);
                }
                System.out.println("logged " + total);
                System.out.flush();
            }
        }
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context);
    }
}
