package dev.spool.agent.host;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.ErrorManager;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.XMLFormatter;

/**
 * Test host probing what a JUL {@code FileHandler} looks like from the host's side. Usage:
 * {@code JulProbeHost <scenario> <file>}, scenarios:
 * <ul>
 *   <li>{@code visibility}: the file's length after each of two records and after
 *       {@code handler.flush()}; then one more record and {@code visible <ms>} once the file has
 *       all its bytes (waiting at most 30 s, without flushing);
 *   <li>{@code tail}: an {@code XMLFormatter} handler the host never closes; the host's own
 *       shutdown hook logs 200 more records (JUL's cleanup at exit writes {@code </log>});
 *   <li>{@code other}: the handler's records and another writer's appends to the same file,
 *       interleaved {@code A1 RAW1 A2 RAW2};
 *   <li>{@code fulldisk}: 3,000 records ({@code -Dprobe.records}) into a file on a small file system; prints how often the
 *       handler's {@code ErrorManager} was called, then {@code flushed} and {@code closed}.
 * </ul>
 */
public final class JulProbeHost {

    private static final Formatter LINE = new Formatter() {
        @Override
        public String format(LogRecord r) {
            return r.getMessage() + "\n";
        }
    };

    /**
     * The line formatter; with {@code -Dprobe.simple=true} the JDK's {@code SimpleFormatter} instead
     * (run with {@code -Djava.util.logging.SimpleFormatter.format=%5$s%n}: the same text), which
     * the agent captures at the call.
     */
    private static Formatter line() {
        return Boolean.getBoolean("probe.simple") ? new java.util.logging.SimpleFormatter() : LINE;
    }

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        File file = new File(args[1]);
        Logger logger = Logger.getLogger("probe");
        logger.setUseParentHandlers(false);
        FileHandler handler = new FileHandler(file.getPath(), true);
        logger.addHandler(handler);
        switch (scenario) {
            case "visibility" -> {
                handler.setFormatter(line());
                logger.info("first");
                System.out.println("after 1: " + file.length());
                logger.info("second one");
                System.out.println("after 2: " + file.length());
                handler.flush();
                System.out.println("after flush: " + file.length());
                logger.info("third, never flushed by the host");
                long expected = "first\nsecond one\nthird, never flushed by the host\n".length();
                long start = System.nanoTime();
                long deadline = start + 30_000_000_000L;
                while (file.length() < expected && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                System.out.println(file.length() == expected ? "visible " + (System.nanoTime() - start) / 1_000_000 : "not visible");
            }
            case "tail" -> {
                handler.setFormatter(new XMLFormatter());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    for (int i = 0; i < 200; i++) {
                        logger.info("from the host's shutdown hook " + i);
                    }
                }));
                for (int i = 0; i < 10; i++) {
                    logger.info("record " + i);
                }
            }
            case "other" -> {
                handler.setFormatter(line());
                try (OutputStream raw = new FileOutputStream(file, true)) {
                    logger.info("A1");
                    raw.write("RAW1\n".getBytes(StandardCharsets.UTF_8));
                    logger.info("A2");
                    raw.write("RAW2\n".getBytes(StandardCharsets.UTF_8));
                }
                handler.close();
            }
            case "fulldisk" -> {
                handler.setFormatter(line());
                AtomicInteger errors = new AtomicInteger();
                handler.setErrorManager(new ErrorManager() {
                    @Override
                    public synchronized void error(String msg, Exception ex, int code) {
                        errors.incrementAndGet();
                    }
                });
                String text = "x".repeat(100);
                long start = System.nanoTime();
                for (int i = 0, n = Integer.getInteger("probe.records", 3000); i < n; i++) {
                    logger.log(Level.INFO, text);
                }
                System.err.printf("logged in %d ms%n", (System.nanoTime() - start) / 1_000_000);
                handler.flush();
                System.out.println("flushed");
                handler.close();
                System.out.println("closed; ErrorManager called " + (errors.get() > 0));
            }
            default -> throw new IllegalArgumentException(scenario);
        }
        System.out.println("done");
    }
}
