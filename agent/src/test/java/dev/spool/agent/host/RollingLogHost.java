package dev.spool.agent.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Test host for logs that roll, driven from stdin: {@code log N} logs N more lines and answers
 * {@code logged <total>}; {@code close} closes the log and answers {@code closed, holding} (the
 * JVM stays); end of input closes the log if still open (JUL: the handler; Logback: the context,
 * which waits for compressions) and prints {@code closed}. Usage:
 * {@code RollingLogHost jul <pattern> <limit> <count>} or {@code RollingLogHost logback} (the
 * configuration named by {@code -Dlogback.configurationFile}; SLF4J called reflectively). Prints
 * {@code ready} first.
 */
public final class RollingLogHost {

    public static void main(String[] args) throws Exception {
        Line log;
        Runnable close;
        if (args[0].equals("jul")) {
            Logger logger = Logger.getLogger("rolling");
            logger.setUseParentHandlers(false);
            FileHandler handler = new FileHandler(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), false);
            handler.setFormatter(new Formatter() {
                @Override
                public String format(LogRecord r) {
                    return r.getSequenceNumber() + " " + formatMessage(r) + "\n";
                }
            });
            logger.addHandler(handler);
            log = i -> logger.log(Level.INFO, "line {0} with a little text: {1}", new Object[] {i, "y".repeat(i % 30)});
            close = handler::close;
        } else {
            Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
            Object logger = factory.getMethod("getLogger", String.class).invoke(null, "rolling");
            Method info = logger.getClass().getMethod("info", String.class, Object.class);
            log = i -> info.invoke(logger, "line {} with a little text", i);
            Object context = factory.getMethod("getILoggerFactory").invoke(null);
            close = () -> {
                try {
                    context.getClass().getMethod("stop").invoke(context);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            };
        }
        System.out.println("ready");
        System.out.flush();
        int total = 0;
        boolean closed = false;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("log ")) {
                int n = Integer.parseInt(line.substring(4).trim());
                for (int i = 0; i < n; i++) {
                    log.line(total++);
                }
                System.out.println("logged " + total);
                System.out.flush();
            } else if (line.equals("close") && !closed) {
                close.run();
                closed = true;
                System.out.println("closed, holding");
                System.out.flush();
            }
        }
        if (!closed) {
            close.run();
        }
        System.out.println("closed");
    }

    private interface Line {
        void line(int i) throws Exception;
    }
}
