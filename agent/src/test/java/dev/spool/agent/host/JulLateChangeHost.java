package dev.spool.agent.host;

import java.io.File;
import java.util.TimeZone;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host for JUL's "at the call" semantics under capture (issue 13, probes L-A to L-H): a
 * {@code FileHandler} with the JDK's {@code SimpleFormatter} takes a burst of records, then
 * something the plain handler would only apply to later records changes, then ten more records
 * and {@code close()}. Plain JUL checks {@code isLoggable} and formats in {@code publish}, with
 * the formatter, zone and record state of that moment; the file must show exactly that. Usage:
 * {@code JulLateChangeHost <dir> <records>}; one file per probe in {@code dir}, all in this JVM:
 * <ul>
 *   <li>{@code formatter.log} (L-A): {@code setFormatter(custom)} after the burst;
 *   <li>{@code zone.log} (L-B): {@code TimeZone.setDefault} after the burst ({@code %1$tZ});
 *   <li>{@code level.log} (L-C): the handler's level raised to {@code WARNING};
 *   <li>{@code off.log}: the handler's level set to {@code OFF}, then back to {@code ALL};
 *   <li>{@code filter.log} (L-S): {@code setFilter(r -> false)};
 *   <li>{@code relevel.log} (L-F): a second handler after the file's lowers each record's level to {@code FINEST};
 *   <li>{@code redact.log} (L-H): a second handler replaces each record's message and drops its
 *       parameters; a mutable parameter changes right after each call;
 *   <li>{@code override.log}: a {@code FileHandler} subclass whose {@code isLoggable} rejects raw
 *       messages with a {@code 7} in them while it is strict, then is no longer strict.
 * </ul>
 * The burst and the change of the {@code zone}, {@code filter} and {@code level} probes run while
 * the host holds the handler's monitor (a writer that takes it cannot write any of the burst
 * before the change; the others race with the writer). Each handler's level is {@code INFO}. Run with {@code -Djava.util.logging.SimpleFormatter.format="%1$tZ %4$s %3$s %5$s%n"} (no clock
 * time: the files are deterministic). Starts in {@code America/New_York}.
 */
public final class JulLateChangeHost {

    /** Probes whose burst and change run under the handler's monitor (plain JUL's publish takes it too). */
    private static final java.util.Set<String> HELD = java.util.Set.of("zone", "filter", "level", "override");

    /** The {@code override} probe's handler: strict during the burst. */
    static volatile boolean strict = true;

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int records = Integer.parseInt(args[1]);
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
        probe(dir, "formatter", records, h -> h.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return "CUSTOM " + r.getLevel() + " " + r.getMessage() + "\n";
            }
        }), null);
        probe(dir, "level", records, h -> h.setLevel(Level.WARNING), null);
        probe(dir, "off", records, h -> h.setLevel(Level.OFF), null);
        probe(dir, "filter", records, h -> h.setFilter(r -> false), null);
        probe(dir, "relevel", records, h -> { }, r -> r.setLevel(Level.FINEST));
        probe(dir, "redact", records, h -> { }, r -> {
            r.setMessage("redacted");
            r.setParameters(null);
        });
        probe(dir, "override", records, h -> strict = false, null);
        probe(dir, "zone", records, h -> TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo")), null);
        System.out.println("done");
    }

    private static void probe(File dir, String name, int records, java.util.function.Consumer<FileHandler> change,
                              java.util.function.Consumer<LogRecord> second) throws Exception {
        String path = new File(dir, name + ".log").getPath();
        FileHandler handler = !name.equals("override") ? new FileHandler(path) : new FileHandler(path) {
            @Override
            public boolean isLoggable(LogRecord r) {
                return super.isLoggable(r) && !(strict && r.getMessage() != null && r.getMessage().contains("7"));
            }
        };
        handler.setFormatter(new SimpleFormatter());
        handler.setLevel(Level.INFO);
        Logger logger = Logger.getLogger("late." + name);
        logger.setUseParentHandlers(false);
        logger.addHandler(handler);
        if (second != null) {
            logger.addHandler(new Handler() {
                @Override
                public void publish(LogRecord r) {
                    second.accept(r);
                }

                @Override
                public void flush() { }

                @Override
                public void close() { }
            });
        }
        if (HELD.contains(name)) {
            synchronized (handler) { // no writer takes the handler's monitor now: the whole burst is queued at the change
                burst(logger, records);
                change.accept(handler);
            }
        } else {
            burst(logger, records);
            change.accept(handler);
        }
        if (name.equals("off")) {
            logger.info("while off");
            handler.setLevel(Level.ALL);
        }
        for (int i = 0; i < 10; i++) {
            logger.log(i % 2 == 0 ? Level.INFO : Level.WARNING, "after {0}", i);
        }
        handler.close();
    }

    private static void burst(Logger logger, int records) {
        for (int i = 0; i < records; i++) {
            StringBuilder mutable = new StringBuilder("sb").append(i);
            switch (i % 3) {
                case 0 -> logger.info("before " + i);
                case 1 -> logger.log(Level.INFO, "before {0} of {1}", new Object[] {i, records});
                default -> logger.log(Level.WARNING, "before {0} {1}", new Object[] {i, mutable});
            }
            mutable.append(" changed after the call");
        }
    }
}
