package dev.spool.agent.host;

import dev.spool.agent.jul.SimpleFormatCorpus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.TimeZone;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.XMLFormatter;

/**
 * Test host of the JUL differential fuzz ({@code JulDifferentialFuzzIT}): from a seed, cases of a
 * random {@code FileHandler} set-up and random records, each into its own folder. Usage:
 * {@code JulFuzzHost <seed> <first case> <end case> <dir>}. A case is a pure function of the seed
 * and its number (every record's instant, thread id and sequence number fixed; each thread its own
 * {@code Random}), so a plain run and an agent run write the same bytes (one thread) or the same
 * lines (four threads interleave). Per case:
 * <ul>
 *   <li>the formatter: {@code SimpleFormatter} with a real-world or edge-case format
 *       ({@code SimpleFormatCorpus}) or a random one, set through the system property or
 *       {@code LogManager.readConfiguration} (a {@code logging.properties} that also configures the
 *       {@code FileHandler}, made by its no-argument constructor); or {@code XMLFormatter};
 *   <li>the default locale and time zone, the handler's encoding, its level, a size limit with
 *       rotation (one thread), append to an existing file;
 *   <li>1 or 4 threads (four only with a format that ends each record with a line end) logging 10–70 records each: levels (one of the host's own), messages with
 *       {@code MessageFormat} patterns, surrogates, markup, parameters (immutable, mutable and changed
 *       after the call, a {@code Date}, null), a resource bundle, an explicit or inferred source,
 *       an exception with a cause and a suppressed one; now and then the host's own {@code flush()}.
 * </ul>
 * Prints one line per case: {@code case <n> threads <t> encoding <e> <description>}.
 */
public final class JulFuzzHost {

    static final String FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";
    static final Level NOTICE = new Level("NOTICE", 850) { };
    static final Locale[] LOCALES = {Locale.US, Locale.GERMANY, Locale.FRANCE, Locale.JAPAN, new Locale("th", "TH", "TH"),
        Locale.forLanguageTag("ar-SA"), Locale.forLanguageTag("hi-IN"), Locale.forLanguageTag("tr-TR")};
    static final String[] ZONES = {"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
        "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu"};
    static final String[] ENCODINGS = {"UTF-8", "ISO-8859-1", "US-ASCII", "UTF-16", "windows-1252"};
    private static final String[] MESSAGES = {"plain message", "user {0} did {1}", "{0,number,#.##} and {1}", "'{0}' quoted",
        "brace at end {", "{x} not a digit", "greeting", null, "{2} beyond", "ünïcödé ✓ {0}", "emoji \ud83d\ude00 {0}",
        "ends high \ud83d", "\ude00 starts low", "<xml> & \"markup\"", "tab\tand\r\nCRLF", "", "{0,date,long} {0,time}"};
    private static final Level[] LEVELS = {Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE, Level.FINEST, NOTICE};

    /** A bundle of the host's own (a key the messages use). */
    public static final class Bundle extends ListResourceBundle {
        @Override
        protected Object[][] getContents() {
            return new Object[][] {{"greeting", "Hallo {0} \u00e9"}, {"plain", "aus dem Bündel"}};
        }
    }

    /** A handler level of the host's own with {@code OFF}'s value: {@code Handler.isLoggable} refuses every record. */
    static final Level MAXED = new Level("MAXED", Integer.MAX_VALUE) { };

    /** A parameter whose text logs a record first (to the same logger, at FINE: the handler's level decides). */
    static final class Nested {
        private final Logger logger;
        private final String name;

        Nested(Logger logger, String name) {
            this.logger = logger;
            this.name = name;
        }

        @Override
        public String toString() {
            nested(logger, Level.FINE, "logged from the toString() of " + name);
            return name;
        }
    }

    /** An exception whose message logs a record first. */
    static final class NestedException extends IllegalStateException {
        private final transient Logger logger;

        NestedException(Logger logger, String message) {
            super(message);
            this.logger = logger;
        }

        @Override
        public String getMessage() {
            nested(logger, Level.WARNING, "logged from the getMessage() of " + super.getMessage());
            return super.getMessage();
        }
    }

    /** A record logged from a record's own methods, with a fixed instant, thread id and sequence number. */
    static void nested(Logger logger, Level level, String message) {
        LogRecord record = new LogRecord(level, message);
        record.setInstant(Instant.ofEpochSecond(1_700_000_000L, 123_456_789));
        record.setLoggerName(logger.getName());
        record.setLongThreadID(99);
        record.setSequenceNumber(99_999);
        logger.log(record);
    }

    private JulFuzzHost() {}

    public static void main(String[] args) throws Exception {
        FuzzCases.runAll(args, JulFuzzHost::runCase);
    }

    static void runCase(long seed, int c, Path dir) throws Exception {
        long caseSeed = FuzzCases.caseSeed(seed, c);
        Random r = new Random(caseSeed);
        Locale locale = LOCALES[r.nextInt(LOCALES.length)];
        String zone = ZONES[r.nextInt(ZONES.length)];
        String encoding = ENCODINGS[r.nextInt(ENCODINGS.length)];
        boolean xml = r.nextInt(6) == 0;
        String format = r.nextBoolean() ? SimpleFormatCorpus.ALL.get(r.nextInt(SimpleFormatCorpus.ALL.size())) : randomFormat(r);
        // four threads only where each record ends a line: their lines are compared as a multiset
        int threads = r.nextInt(3) == 0 && (xml || format.endsWith("%n")) ? 4 : 1;
        boolean viaConfig = r.nextBoolean();
        int limit = threads == 1 && r.nextInt(3) == 0 ? 300 + r.nextInt(3000) : 0;
        boolean append = r.nextInt(4) == 0;
        Level handlerLevel = new Level[] {Level.ALL, Level.FINE, Level.INFO, MAXED}[r.nextInt(4)];
        boolean pairs = r.nextInt(5) == 0; // records alternately ending in a high surrogate and starting with its low one
        long base = 1_600_000_000L + r.nextInt(400_000_000);
        System.out.println("case " + c + " threads " + threads + " encoding " + encoding + " " + (xml ? "xml" : "format "
                + (viaConfig ? "config" : "property") + " [" + format + "]") + " locale " + locale + " zone " + zone
                + " limit " + limit + " append " + append + " level " + handlerLevel + " pairs " + pairs);
        Locale.setDefault(locale);
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        if (append) {
            Files.write(dir.resolve("app-0.log"), "an earlier line\n".getBytes(encoding));
        }
        String pattern = dir.resolve("app-%g.log").toString();
        int count = limit > 0 ? 40 : 1;
        FileHandler handler;
        if (viaConfig) { // a logging.properties: the format and the whole FileHandler, made by its no-argument constructor
            System.clearProperty(FORMAT_PROPERTY);
            Properties p = new Properties();
            p.setProperty(FORMAT_PROPERTY, format);
            p.setProperty("java.util.logging.FileHandler.pattern", pattern);
            p.setProperty("java.util.logging.FileHandler.limit", Integer.toString(limit));
            p.setProperty("java.util.logging.FileHandler.count", Integer.toString(count));
            p.setProperty("java.util.logging.FileHandler.append", Boolean.toString(append));
            p.setProperty("java.util.logging.FileHandler.encoding", encoding);
            p.setProperty("java.util.logging.FileHandler.formatter", (xml ? XMLFormatter.class : SimpleFormatter.class).getName());
            ByteArrayOutputStream config = new ByteArrayOutputStream();
            p.store(config, null);
            LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(config.toByteArray()));
            handler = new FileHandler();
        } else {
            System.setProperty(FORMAT_PROPERTY, format);
            handler = new FileHandler(pattern, limit, count, append);
            handler.setEncoding(encoding);
            handler.setFormatter(xml ? new XMLFormatter() : new SimpleFormatter());
        }
        handler.setLevel(handlerLevel);
        Logger logger = Logger.getLogger("fuzz." + c);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            Random own = new Random(caseSeed * 31 + t);
            int id = t;
            FileHandler h = handler;
            workers[t] = new Thread(() -> log(logger, h, own, id, base, pairs), "fuzz-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        handler.close();
        logger.removeHandler(handler);
    }

    private static void log(Logger logger, FileHandler handler, Random r, int thread, long base, boolean pairs) {
        int n = 10 + r.nextInt(60);
        long at = base * 1000 + r.nextInt(1000);
        for (int i = 0; i < n; i++) {
            at += r.nextInt(4) == 0 ? r.nextInt(3_600_000) : r.nextInt(1500);
            String message = pairs ? (i % 2 == 0 ? "x\ud83d" : "\ude00y") : MESSAGES[r.nextInt(MESSAGES.length)];
            LogRecord record = new LogRecord(LEVELS[r.nextInt(LEVELS.length)], message);
            record.setInstant(Instant.ofEpochMilli(at).plusNanos(r.nextInt(1_000_000)));
            record.setLoggerName(r.nextInt(8) == 0 ? null : logger.getName());
            record.setLongThreadID(100 + thread);
            record.setSequenceNumber(thread * 1000L + i);
            StringBuilder mutable = new StringBuilder("mutable-" + i);
            switch (r.nextInt(6)) {
                case 0 -> { }
                case 1 -> record.setParameters(new Object[0]);
                case 2 -> record.setParameters(new Object[] {"alice", r.nextInt(), (long) r.nextInt(2000) - 1000, r.nextDouble()});
                case 3 -> record.setParameters(new Object[] {mutable, null, new Date(at), 'c'});
                case 4 -> record.setParameters(new Object[] {new Date(at), 3.14159, true, (short) 7});
                default -> record.setParameters(new Object[] {new Nested(logger, "parameter " + i), i});
            }
            if (r.nextInt(6) == 0) {
                record.setResourceBundle(new Bundle());
            }
            if (r.nextBoolean()) {
                record.setSourceClassName("com.example.Caller" + thread);
                record.setSourceMethodName(r.nextBoolean() ? "run" : null);
            }
            if (r.nextInt(6) == 0) {
                IllegalStateException e = r.nextInt(4) == 0 ? new NestedException(logger, "failure " + i)
                        : new IllegalStateException("failure " + i + " \u00e9\ud83d\ude00", new IOException("cause " + r.nextInt(100)));
                e.addSuppressed(new RuntimeException("suppressed <&>"));
                record.setThrown(e);
            }
            if (r.nextInt(40) == 0) {
                record.setLevel(Level.OFF); // at OFF's value: only a handler level below it lets it through
            }
            logger.log(record);
            mutable.append(" changed after the call");
            if (r.nextInt(25) == 0) {
                handler.flush(); // the host's own flush between records
            }
        }
    }

    /** A format of random pieces the JDK accepts (an invalid one would make both sides use the default). */
    static String randomFormat(Random r) {
        if (r.nextInt(6) == 0) {
            return new String[] {"%5$s", "%4$s %5$s", "%5$s%6$s"}[r.nextInt(3)]; // records that do not end a line
        }
        String[] literals = {" ", " - ", "[", "]", ": ", "|", "\u00e9", "\u2713", "\ud83d\ude00", "%%", "%n", "\t", "x"};
        String dates = "HIklMSLNpzZsQBbhAaCYyjmdeRTrDFc";
        StringBuilder sb = new StringBuilder();
        int pieces = 1 + r.nextInt(9);
        for (int i = 0; i < pieces; i++) {
            switch (r.nextInt(4)) {
                case 0 -> sb.append(literals[r.nextInt(literals.length)]);
                case 1 -> {
                    int arg = 2 + r.nextInt(5);
                    sb.append('%').append(arg).append('$');
                    if (r.nextInt(4) == 0) {
                        sb.append('-').append(1 + r.nextInt(30));
                    } else if (r.nextInt(3) == 0) {
                        sb.append(1 + r.nextInt(30));
                    }
                    if (r.nextInt(4) == 0) {
                        sb.append('.').append(r.nextInt(12));
                    }
                    sb.append(r.nextInt(8) == 0 ? 'S' : 's');
                }
                default -> {
                    sb.append("%1$");
                    if (r.nextInt(8) == 0) {
                        sb.append(r.nextBoolean() ? "-" : "").append(1 + r.nextInt(20));
                    }
                    sb.append(r.nextInt(6) == 0 ? 'T' : 't').append(dates.charAt(r.nextInt(dates.length())));
                }
            }
        }
        if (r.nextBoolean()) {
            sb.append("%n");
        }
        return sb.toString();
    }
}
