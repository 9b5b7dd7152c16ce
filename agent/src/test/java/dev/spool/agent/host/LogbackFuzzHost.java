package dev.spool.agent.host;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.rolling.DefaultTimeBasedFileNamingAndTriggeringPolicy;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.rolling.TimeBasedFileNamingAndTriggeringPolicyBase;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;
import ch.qos.logback.core.status.StatusUtil;
import java.lang.reflect.Field;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.function.LongConsumer;

/**
 * Test host of the Logback differential fuzz ({@code LogbackDifferentialFuzzIT}): from a seed, cases of a random
 * file appender set-up and random events ({@link LogbackFuzzEvents}), each in its own {@code LoggerContext} and
 * folder. Usage: {@code LogbackFuzzHost <seed> <first case> <end case> <dir>}. A case is a pure function of the
 * seed and its number (the context's birth time, every event's time stamp and sequence number fixed; each
 * thread its own {@code Random}), so a plain run and an agent run write the same bytes (one thread) or the same
 * lines (four threads interleave). Per case:
 * <ul>
 *   <li>the encoder: {@code PatternLayoutEncoder} (a real-world or a random pattern, {@link LogbackFuzzPatterns};
 *       {@code outputPatternAsHeader}, {@code immediateFlush}), {@code LayoutWrappingEncoder} around a
 *       {@code PatternLayout} (file and presentation header and footer), or one Spool leaves to Logback:
 *       {@code EchoLayout}, {@code JsonEncoder}; its charset;
 *   <li>the appender: {@code FileAppender} (append to an earlier line or not) or {@code RollingFileAppender} with
 *       {@code SizeBasedTriggeringPolicy} + {@code FixedWindowRollingPolicy}, a {@code TimeBasedRollingPolicy}
 *       whose clock follows the events (by minute or hour, gzip or not; one thread), or size and time
 *       ({@code SizeAndTimeBasedFileNamingAndTriggeringPolicy}, its clock following the events with one thread, fixed with four);
 *   <li>now and then a {@code ThresholdFilter} on the appender, or (one thread) a new encoder given to the running
 *       appender halfway;
 *   <li>the default locale and zone, the context's {@code frameworkPackages} (none, Logback's, the host's, a
 *       wrapper's) and packaging data; 1 or 4 threads.
 * </ul>
 * Prints one line per case: {@code case <n> threads <t> charset <c> file <active file> <description>}.
 */
public final class LogbackFuzzHost {

    static final String[] CHARSETS = {"UTF-8", "ISO-8859-1", "US-ASCII", "UTF-16", "windows-1252"};
    /** Patterns as people write them (Logback's manual, Spring Boot's console pattern without its own converters). */
    static final List<String> CORPUS = List.of("%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n",
            "%-4relative [%thread] %-5level %logger{35} -%kvp- %msg %n",
            "%date %level [%thread] %logger{10} [%file:%line] -%kvp- %msg%n",
            "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p --- [%15.15t] %-40.40logger{39} : %m%n",
            "%highlight(%-5level) %cyan(%logger{15}) - %msg %n", "%d{HH:mm:ss.SSS} %-5level %X{user} %marker %msg%n%ex{short}",
            "%msg%n", "%m", "%d %p %c{1} [%t] %m%n%xEx", "%date{ISO8601} %-5level [%thread] %C.%M:%L - %msg%n%rEx{5}",
            "[%X] %caller{2} %msg%nopex%n", "%replace(%msg){'\\r?\\n', '\\\\n'}%n", "%sn %r %cn %property{p} %micros %msg%n");
    private static final String[] FRAMEWORKS = {"", "", "ch.qos.logback", "dev.spool.agent.host", "com.example.wrapper"};

    private LogbackFuzzHost() {}

    public static void main(String[] args) throws Exception {
        FuzzCases.runAll(args, LogbackFuzzHost::runCase);
    }

    static void runCase(long seed, int c, Path dir) throws Exception {
        long caseSeed = FuzzCases.caseSeed(seed, c);
        Random r = new Random(caseSeed);
        Locale locale = JulFuzzHost.LOCALES[r.nextInt(JulFuzzHost.LOCALES.length)];
        String zone = JulFuzzHost.ZONES[r.nextInt(JulFuzzHost.ZONES.length)];
        String charset = CHARSETS[r.nextInt(CHARSETS.length)];
        int threads = r.nextInt(3) == 0 ? 4 : 1;
        int kind = r.nextInt(12); // 0-6 PatternLayoutEncoder, 7-9 LayoutWrappingEncoder, 10 EchoLayout, 11 JsonEncoder
        if (kind == 11) {
            charset = "UTF-8"; // JsonEncoder writes UTF-8 whatever is asked
        }
        String pattern = r.nextInt(4) == 0 ? CORPUS.get(r.nextInt(CORPUS.size())) : LogbackFuzzPatterns.pattern(r, threads);
        if (threads > 1) { // each event ends a line: the lines of several threads are compared as a multiset
            // (a raw line end: Logback prints a "%n" right after a composite's ')' as text)
            pattern = LogbackFuzzPatterns.withoutRacyConverters(pattern) + "\n";
        }
        int rolling = r.nextInt(6); // 0-2 FileAppender, 3 size + fixed window, 4 time (one thread), 5 size and time
        if (rolling == 4 && threads > 1) {
            rolling = 3;
        }
        boolean append = r.nextInt(3) == 0;
        boolean flush = r.nextInt(4) != 0;
        boolean header = r.nextInt(5) == 0;
        boolean gzip = r.nextBoolean();
        String framework = FRAMEWORKS[r.nextInt(FRAMEWORKS.length)];
        boolean packaging = r.nextInt(4) == 0;
        long base = 1_600_000_000_000L + r.nextInt(400_000_000) * 1000L + r.nextInt(1000);
        String file = dir.resolve("app.log").toString();
        Locale.setDefault(locale);
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        if (append) {
            Files.write(dir.resolve("app.log"), "an earlier line\n".getBytes(charset));
            // a time-based policy names the existing file's period by its modification time
            Files.setLastModifiedTime(dir.resolve("app.log"), java.nio.file.attribute.FileTime.fromMillis(base - 3_600_000));
        }
        LoggerContext context = new LoggerContext();
        context.setName("fuzz-" + c);
        Field birth = Class.forName("ch.qos.logback.core.ContextBase").getDeclaredField("birthTime");
        birth.setAccessible(true);
        birth.setLong(context, base - 61_000);
        context.putProperty("p", "value é");
        context.setPackagingDataEnabled(packaging);
        if (!framework.isEmpty()) {
            context.getFrameworkPackages().add(framework);
        }
        context.start();
        Encoder<ILoggingEvent> encoder;
        try {
            encoder = encoder(context, kind, pattern, Charset.forName(charset), flush, header);
        } catch (RuntimeException e) { // Logback's own start may throw (a date option it takes for a zone)
            encoder = null;
        }
        if (threads > 1 && new StatusUtil(context).getHighestLevel(0) >= Status.ERROR) {
            threads = 1; // Logback could not parse all of the pattern: its events may not end with the line end
        }
        System.out.println("case " + c + " threads " + threads + " charset " + charset + " file " + file + " encoder " + (encoder == null ? "failed" : kind)
                + " [" + pattern.replace("\n", "\\n") + "] rolling " + rolling + " gzip " + gzip + " append " + append + " flush " + flush
                + " header " + header + " framework [" + framework + "] packaging " + packaging + " locale " + locale
                + " zone " + zone);
        if (encoder == null) {
            context.stop();
            return;
        }
        FileAppender<ILoggingEvent> appender = rolling < 3 ? new FileAppender<>() : new RollingFileAppender<>();
        appender.setContext(context);
        appender.setName("FUZZ");
        appender.setFile(file);
        appender.setAppend(append);
        appender.setEncoder(encoder);
        LongConsumer clock = appender instanceof RollingFileAppender<ILoggingEvent> rfa
                ? rollingPolicy(context, rfa, rolling, dir, gzip, threads, base, r) : null;
        boolean filtered = r.nextInt(6) == 0;
        if (filtered) { // the appender's own filter: events below INFO never reach writeOut
            ch.qos.logback.classic.filter.ThresholdFilter threshold = new ch.qos.logback.classic.filter.ThresholdFilter();
            threshold.setLevel("INFO");
            threshold.start();
            appender.addFilter(threshold);
        }
        appender.start();
        // one thread: halfway, the host gives the running appender another encoder (from the next event on)
        String switchTo = threads == 1 && kind <= 9 && r.nextInt(6) == 0 ? LogbackFuzzPatterns.pattern(r, 1) : null;
        System.out.println("  filtered " + filtered + " switch [" + (switchTo == null ? "" : switchTo.replace("\n", "\\n")) + "]");
        int switchKind = r.nextInt(10); // PatternLayoutEncoder or LayoutWrappingEncoder
        Charset switchCharset = Charset.forName(charset);
        Runnable midway = switchTo == null ? null : () -> {
            try {
                appender.setEncoder(encoder(context, switchKind, switchTo, switchCharset, flush, false));
            } catch (RuntimeException e) {
                System.out.println("  switch failed " + e);
            }
        };
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.TRACE);
        root.addAppender(appender);
        boolean alone = threads == 1;
        Thread[] workers = new Thread[threads];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            Random own = new Random(caseSeed * 31 + t);
            int id = t;
            LongConsumer tick = clock;
            workers[t] = new Thread(() -> {
                try {
                    LogbackFuzzEvents.log(context, own, id, alone, base, tick, midway);
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, "fuzz-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        awaitCompressions(dir, gzip && rolling >= 3);
        context.stop();
        awaitCompressions(dir, false);
        if (failure[0] != null) {
            throw new IllegalStateException("case " + c + " failed", failure[0]);
        }
    }

    /**
     * Logback compresses each archive on a thread of its own (from a renamed {@code .tmp} file, or the archive's
     * own name), and {@code stop()} waits for the last compression only: an earlier one may still run, and the
     * JVM's exit ends it (plain left a {@code .tmp} file, or an archive beside its {@code .gz}, in long runs).
     * Waits, bounded, until no {@code .tmp} file is left and ({@code archives}) every archive is compressed.
     */
    private static void awaitCompressions(Path dir, boolean archives) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (java.util.stream.Stream<Path> files = Files.list(dir)) {
                // a routed appender's journal (app.log.spool-logback-journal, issue 33) is beside its file while it is
                // open: Spool's, not an archive (RELIABILITY: "a visible difference")
                if (files.map(f -> f.getFileName().toString()).noneMatch(n -> n.endsWith(".tmp")
                        || archives && !n.equals("app.log") && !n.endsWith(".gz") && !n.endsWith(".spool-logback-journal"))) {
                    return;
                }
            }
            Thread.sleep(10);
        }
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, int kind, String pattern, Charset charset, boolean flush,
                                                 boolean header) {
        if (kind == 11) {
            JsonEncoder json = new JsonEncoder();
            json.setContext(context);
            json.start();
            return json;
        }
        if (kind <= 6) {
            PatternLayoutEncoder e = new PatternLayoutEncoder();
            e.setContext(context);
            e.setPattern(pattern);
            e.setCharset(charset);
            e.setImmediateFlush(flush);
            e.setOutputPatternAsHeader(header);
            e.start();
            return e;
        }
        ch.qos.logback.core.LayoutBase<ILoggingEvent> layout;
        if (kind == 10) { // not HTMLLayout: its header prints the wall clock
            layout = new ch.qos.logback.core.layout.EchoLayout<>();
        } else {
            PatternLayout p = new PatternLayout();
            p.setPattern(pattern);
            if (header) {
                p.setFileHeader("file header é");
                p.setPresentationHeader("presentation header");
                p.setPresentationFooter("presentation footer");
                p.setFileFooter("file footer ✓");
            }
            layout = p;
        }
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> e = new LayoutWrappingEncoder<>();
        e.setContext(context);
        e.setLayout(layout);
        e.setCharset(charset);
        e.setImmediateFlush(flush);
        e.start();
        return e;
    }

    /** 1.5's {@code SizeAndTimeBasedFileNamingAndTriggeringPolicy} (its old name warns with the object's hash), or 1.4's {@code SizeAndTimeBasedFNATP}. */
    @SuppressWarnings("unchecked")
    private static TimeBasedFileNamingAndTriggeringPolicyBase<ILoggingEvent> sizeAndTime() throws Exception {
        Class<?> type;
        try {
            type = Class.forName("ch.qos.logback.core.rolling.SizeAndTimeBasedFileNamingAndTriggeringPolicy");
        } catch (ClassNotFoundException older) {
            type = Class.forName("ch.qos.logback.core.rolling.SizeAndTimeBasedFNATP");
        }
        return (TimeBasedFileNamingAndTriggeringPolicyBase<ILoggingEvent>) type.getConstructor().newInstance();
    }

    /** Sets the appender's policies; returns the clock that follows the events, or null. */
    private static LongConsumer rollingPolicy(LoggerContext context, RollingFileAppender<ILoggingEvent> rfa, int rolling, Path dir,
                                             boolean gzip, int threads, long base, Random r) throws Exception {
        String gz = gzip ? ".gz" : "";
        if (rolling == 3) {
            FixedWindowRollingPolicy window = new FixedWindowRollingPolicy();
            window.setContext(context);
            window.setFileNamePattern(dir.resolve("app.%i.log" + gz).toString());
            window.setMinIndex(1);
            window.setMaxIndex(threads > 1 ? 20 : 1 + r.nextInt(4)); // four threads: none deleted (which lines would differ)
            window.setParent(rfa);
            window.start();
            SizeBasedTriggeringPolicy<ILoggingEvent> size = new SizeBasedTriggeringPolicy<>();
            size.setContext(context);
            size.setMaxFileSize(new FileSize(threads > 1 ? 8192 + r.nextInt(8192) : 300 + r.nextInt(4000)));
            size.setCheckIncrement(ch.qos.logback.core.util.Duration.buildByMilliseconds(0)); // every event, not by wall clock
            size.start();
            rfa.setRollingPolicy(window);
            rfa.setTriggeringPolicy(size);
            return null;
        }
        TimeBasedRollingPolicy<ILoggingEvent> time = new TimeBasedRollingPolicy<>();
        time.setContext(context);
        TimeBasedFileNamingAndTriggeringPolicyBase<ILoggingEvent> fnatp;
        if (rolling == 4) {
            fnatp = new DefaultTimeBasedFileNamingAndTriggeringPolicy<>();
            fnatp.setContext(context);
            String period = r.nextBoolean() ? "yyyy-MM-dd_HH-mm" : "yyyy-MM-dd_HH";
            time.setFileNamePattern(dir.resolve("app-%d{" + period + (r.nextBoolean() ? ", UTC" : "") + "}.log" + gz).toString());
        } else {
            fnatp = sizeAndTime();
            fnatp.setContext(context); // before its setters: a status without a context is printed with the object's hash
            fnatp.getClass().getMethod("setMaxFileSize", FileSize.class)
                    .invoke(fnatp, new FileSize(threads > 1 ? 4096 + r.nextInt(8192) : 300 + r.nextInt(4000)));
            try { // Logback 1.4 checks sizes by wall clock unless told otherwise; 1.5 counts bytes
                fnatp.getClass().getMethod("setCheckIncrement", ch.qos.logback.core.util.Duration.class)
                        .invoke(fnatp, ch.qos.logback.core.util.Duration.buildByMilliseconds(0));
            } catch (NoSuchMethodException absent) {
                // 1.5 and later
            }
            time.setFileNamePattern(dir.resolve("app-%d{yyyy-MM-dd_HH, UTC}.%i.log" + gz).toString());
        }
        fnatp.setCurrentTime(base);
        time.setTimeBasedFileNamingAndTriggeringPolicy(fnatp);
        time.setParent(rfa);
        time.start();
        rfa.setRollingPolicy(time);
        rfa.setTriggeringPolicy(time);
        TimeBasedFileNamingAndTriggeringPolicyBase<ILoggingEvent> owner = fnatp;
        return threads > 1 ? null : owner::setCurrentTime;
    }
}
