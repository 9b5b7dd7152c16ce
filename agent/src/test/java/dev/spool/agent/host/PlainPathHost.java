package dev.spool.agent.host;

import java.lang.reflect.Method;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host whose logs Spool cannot prove exact on its own path: a JUL {@code FileHandler} with a
 * formatter of its own ({@code custom.log}), one with a filter ({@code filtered.log}), one plain
 * {@code SimpleFormatter} handler ({@code simple.log}, captured), and Logback appenders from
 * {@code -Dlogback.configurationFile} (SLF4J called reflectively; {@code ch.qos.logback} added to the context's
 * {@code frameworkPackages}). Logs {@code <records>} records to each, then {@code <records>} Logback events
 * given an MDC map of the host's own ({@code setMDCPropertyMap}), prints {@code done}, then waits for its standard input to close (a test reads its status).
 * Usage: {@code PlainPathHost <dir> <records>}.
 */
public final class PlainPathHost {

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        int records = Integer.parseInt(args[1]);
        Logger jul = Logger.getLogger("host.plain");
        jul.setUseParentHandlers(false);
        FileHandler custom = new FileHandler(dir + "/custom.log");
        custom.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return "custom " + r.getMessage() + "\n";
            }
        });
        FileHandler filtered = new FileHandler(dir + "/filtered.log");
        filtered.setFormatter(new SimpleFormatter());
        filtered.setFilter(r -> !r.getMessage().endsWith("7"));
        FileHandler simple = new FileHandler(dir + "/simple.log");
        simple.setFormatter(new SimpleFormatter());
        jul.addHandler(custom);
        jul.addHandler(filtered);
        jul.addHandler(simple);
        Object logback = Class.forName("org.slf4j.LoggerFactory").getMethod("getLogger", String.class).invoke(null, "host.logback");
        Method info = logback.getClass().getMethod("info", String.class, Object.class);
        // Logback's own classes count as framework frames: an appender printing the caller data leaves each event to Logback
        ((ch.qos.logback.classic.Logger) logback).getLoggerContext().getFrameworkPackages().add("ch.qos.logback");
        for (int i = 0; i < records; i++) {
            jul.info("jul record " + i);
            info.invoke(logback, "logback record {}", i);
        }
        mdcEvents((ch.qos.logback.classic.Logger) logback, records);
        System.out.println("done");
        System.in.read(); // until the test closes it
        custom.close();
        filtered.close();
        simple.close();
    }

    /** Events given an MDC map of the host's own ({@code setMDCPropertyMap}: it could change after the call). */
    private static void mdcEvents(ch.qos.logback.classic.Logger logger, int records) {
        for (int i = 0; i < records; i++) {
            ch.qos.logback.classic.spi.LoggingEvent e = new ch.qos.logback.classic.spi.LoggingEvent(
                    ch.qos.logback.classic.Logger.class.getName(), logger, ch.qos.logback.classic.Level.INFO,
                    "mdc record {}", null, new Object[] {i});
            e.setMDCPropertyMap(new java.util.HashMap<>(java.util.Map.of("user", "u" + i)));
            logger.callAppenders(e);
        }
    }
}
