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
 * {@code -Dlogback.configurationFile} (SLF4J called reflectively). Logs {@code <records>} records to
 * each, prints {@code done}, then waits for its standard input to close (a test reads its status).
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
        for (int i = 0; i < records; i++) {
            jul.info("jul record " + i);
            info.invoke(logback, "logback record {}", i);
        }
        System.out.println("done");
        System.in.read(); // until the test closes it
        custom.close();
        filtered.close();
        simple.close();
    }
}
