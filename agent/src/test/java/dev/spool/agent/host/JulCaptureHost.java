package dev.spool.agent.host;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host for JUL capture at the call: a {@code FileHandler} with the JDK's {@code SimpleFormatter}
 * (format from {@code logging.properties}) or its default {@code XMLFormatter} ({@code xml}, {@code xml-old}:
 * {@code useInstant=false}), rotation by size ({@code %g}, {@code %u}), records with
 * parameters (a mutable one changed right after the call, {@code null}), an exception with a cause
 * and a suppressed one every 7th record (an exception that notes the thread printing it: the
 * formatter's), a custom level, and a deterministic instant per record. Usage:
 * {@code JulCaptureHost <dir> <threads> <records per thread> <limit> <count> <format, "default", "xml" or "xml-old">};
 * {@code -Dhost.encoding} sets the handler's encoding (default UTF-8; the messages carry characters ISO-8859-1 cannot
 * map, a surrogate pair and lone surrogates).
 * Prints the lines in the generation-0 file right after {@code handler.flush()}, and the threads the
 * exceptions were printed on.
 */
public final class JulCaptureHost {

    static final Set<String> PRINTED_ON = ConcurrentHashMap.newKeySet();

    static final Level NOTICE = new Level("NOTICE", 850) { };

    /** Notes the thread that prints it (the formatter does, in the stack trace's first line). */
    static final class NotingException extends IllegalStateException {
        NotingException(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public String getLocalizedMessage() {
            PRINTED_ON.add(Thread.currentThread().getName().replaceAll("[0-9]+$", "N"));
            return super.getLocalizedMessage();
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        int records = Integer.parseInt(args[2]);
        int limit = Integer.parseInt(args[3]);
        int count = Integer.parseInt(args[4]);
        String format = args[5];
        boolean xml = format.startsWith("xml");
        String config = "java.util.logging.FileHandler.encoding = " + System.getProperty("host.encoding", "UTF-8") + "\n"
                + (format.equals("xml-old") ? "java.util.logging.XMLFormatter.useInstant = false\n" : "")
                + (format.equals("default") || xml ? "" : "java.util.logging.SimpleFormatter.format = " + format + "\n");
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(config.getBytes(StandardCharsets.ISO_8859_1)));
        Logger logger = Logger.getLogger("host.capture");
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.ALL);
        FileHandler handler = new FileHandler(dir.resolve("app%u-%g.log").toString(), limit, count, false);
        if (!xml) {
            handler.setFormatter(new SimpleFormatter());
        } // else FileHandler's default: the JDK's XMLFormatter (head, tail, sequence numbers, thread ids)
        handler.setLevel(Level.FINE);
        logger.addHandler(handler);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> log(logger, id, records), "worker-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        handler.flush();
        System.out.println("after flush " + lines(dir.resolve("app0-0.log")));
        handler.close();
        System.out.println("printed on " + new TreeSet<>(PRINTED_ON));
        // Java 17's FileHandler.publish is synchronized; the agent removes that at class load so callers capture
        // without the handler's lock (a FileHandler loaded before the weaver keeps it)
        System.out.println("publish synchronized " + java.lang.reflect.Modifier.isSynchronized(
                FileHandler.class.getMethod("publish", LogRecord.class).getModifiers()));
        System.out.println("done");
    }

    private static void log(Logger logger, int thread, int records) {
        Level[] levels = {Level.INFO, Level.WARNING, NOTICE, Level.FINE, Level.FINEST, Level.SEVERE};
        StringBuilder mutable = new StringBuilder();
        for (int i = 0; i < records; i++) {
            mutable.setLength(0);
            mutable.append("state-").append(i);
            LogRecord r = new LogRecord(levels[i % levels.length], "thread {0} record {1}: {2} {3} \u00e9\u00e8 \u2713 \ud83d\ude00 \ud800x \udc00");
            r.setParameters(new Object[] {thread, i, mutable, i % 3 == 0 ? null : "p" + i});
            r.setLoggerName(logger.getName());
            r.setLongThreadID(100 + thread); // the agent's threads shift the JVM's thread ids, not the record's
            r.setInstant(Instant.ofEpochSecond(1_767_225_599L + i / 4, (i % 4) * 250_000_000L + thread)); // across new year 2026
            if (i % 7 == 0) {
                IllegalStateException e = new NotingException("failure " + i, new IOException("cause " + i));
                e.addSuppressed(new RuntimeException("suppressed " + i));
                r.setThrown(e);
            }
            if (i % 5 == 0) {
                r.setSourceClassName("com.example.Explicit");
                r.setSourceMethodName("call" + i);
            } // else the caller is inferred: this method, past the wrappers below
            if (i % 5 == 1) {
                WrapLog.log(logger, r); // skipped by the inference when listed in jdk.logger.packages
            } else if (i % 5 == 2) {
                new WrapSystemLogger().publish(logger, r); // skipped: a System.Logger
            } else {
                logger.log(r);
            }
            mutable.append(" changed after the call");
        }
    }

    /** A wrapper the IT names in {@code -Djdk.logger.packages} (a prefix of this class's name). */
    static final class WrapLog {
        static void log(Logger logger, LogRecord r) {
            logger.log(r);
        }
    }

    /** A wrapper implementing {@code System.Logger}: JUL's inference skips its frames. */
    static final class WrapSystemLogger implements System.Logger {
        void publish(Logger logger, LogRecord r) {
            logger.log(r);
        }

        @Override
        public String getName() {
            return "wrap";
        }

        @Override
        public boolean isLoggable(System.Logger.Level level) {
            return true;
        }

        @Override
        public void log(System.Logger.Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) { }

        @Override
        public void log(System.Logger.Level level, java.util.ResourceBundle bundle, String format, Object... params) { }
    }

    private static long lines(Path file) throws IOException {
        long n = 0;
        for (byte b : Files.readAllBytes(file)) { // any encoding (host.encoding) ends a line with '\n'
            n += b == '\n' ? 1 : 0;
        }
        return n;
    }
}
