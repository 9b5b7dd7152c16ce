package dev.spool.agent.host;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.LongConsumer;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.helpers.BasicMarkerFactory;

/**
 * One thread's events of a Logback fuzz case ({@code LogbackFuzzHost}): a pure function of its {@code Random}.
 * Each event is built here with a fixed time stamp and sequence number, and passed to
 * {@code Logger.callAppenders} from {@link Emit#emit} (the event's logger class, so the caller data is the
 * line in {@link #log} in every run): levels, loggers of several depths, messages with {@code {}} anchors,
 * escapes, non-ASCII, surrogates, line ends, null; parameters (immutable, mutable and changed after the call,
 * collections, an {@code Instant} (not a {@code Date}: its zone's short name comes from a JDK cache that
 * differs from run to run), null, a trailing throwable Logback takes as the event's); a throwable with a cause
 * chain, suppressed ones and null messages; MDC maps; markers with references; key-value pairs (values null,
 * numbers, mutable and changed after the call); the thread renamed between events now and then.
 */
final class LogbackFuzzEvents {

    private static final String[] LOGGERS = {"com.example.orders.OrderService", "com.example.web.RequestLog", "io.netty.Channel",
        "ROOT", "a.b.c.d.e.f.g.h.i.j.Deep", "x", "com.example.ünïcödé.Klasse", "org.example.$Inner"};
    private static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};
    private static final String[] MESSAGES = {"plain message", "user {} did {}", "{} and {} and {}", "escaped \\{} and {}",
        "brace at end {", "{x} not an anchor", null, "", "ünïcödé ✓ {}", "emoji \ud83d\ude00 {}", "ends high \ud83d",
        "\ude00 starts low", "<xml> & \"markup\"", "tab\tand\r\nCRLF", "line\nbreak {}", "{}{}{}{}", "percent %s %d %n"};
    private static final BasicMarkerFactory MARKERS = new BasicMarkerFactory();
    private static final Marker AUDIT = MARKERS.getMarker("AUDIT");
    /** A marker with a reference (made once: {@code Marker.add} is not for racing threads). */
    private static final Marker SECURITY = MARKERS.getMarker("SECURITY");

    static {
        SECURITY.add(AUDIT);
    }

    /** The class whose name is every event's logger FQCN: the caller data is the frame below {@link #emit}. */
    static final class Emit {
        private Emit() {}

        static void emit(Logger logger, LoggingEvent event) {
            logger.callAppenders(event);
        }
    }

    private LogbackFuzzEvents() {}

    /**
     * Logs {@code 10 + r.nextInt(60)} events of thread {@code thread} ({@code alone}: the case's only one); {@code clock} hears each event's time stamp
     * just before it is logged (a time-based rolling policy's clock, one thread only), or is null; {@code midway}
     * runs before the middle event (one thread only: the host gives the running appender a new encoder), or is null.
     */
    static void log(LoggerContext context, Random r, int thread, boolean alone, long base, LongConsumer clock, Runnable midway) {
        int n = 10 + r.nextInt(60);
        long at = base;
        boolean rename = r.nextInt(4) == 0;
        for (int i = 0; i < n; i++) {
            if (i == n / 2 && midway != null) {
                midway.run();
            }
            at += r.nextInt(4) == 0 ? r.nextInt(3_600_000) : r.nextInt(1500);
            Logger logger = context.getLogger(LOGGERS[r.nextInt(LOGGERS.length)]);
            StringBuilder mutable = new StringBuilder("mutable-" + i);
            Object[] args = switch (r.nextInt(7)) {
                case 0 -> null;
                case 1 -> new Object[0];
                case 2 -> new Object[] {"alice", r.nextInt(), (long) r.nextInt(2000) - 1000, r.nextDouble()};
                case 3 -> new Object[] {mutable, null, java.time.Instant.ofEpochMilli(at), 'c'};
                case 4 -> new Object[] {java.util.List.of(1, 2), java.util.Map.of("x", "é"), true, (short) 7};
                case 5 -> new Object[] {"one", new IllegalArgumentException("trailing " + i)};
                default -> new Object[] {"é", 3.14159f, null};
            };
            Throwable thrown = r.nextInt(6) == 0 ? failure(r, i) : null;
            String message = MESSAGES[r.nextInt(MESSAGES.length)];
            LoggingEvent event = new LoggingEvent(Emit.class.getName(), logger, LEVELS[r.nextInt(LEVELS.length)], message, thrown, args);
            // −1 ms: Logback prints null while its date cache is unset, i.e. for a first event; whose is first only one thread decides
            event.setTimeStamp(r.nextInt(200) == 0 && (alone || i > 0) ? -1 : at);
            event.setSequenceNumber(thread * 1000L + i);
            Map<String, String> mdc = new LinkedHashMap<>();
            if (r.nextInt(3) != 0) {
                mdc.put("user", "u" + r.nextInt(13));
                if (r.nextBoolean()) {
                    mdc.put("request", "r-" + i + "/é");
                }
                if (r.nextInt(5) == 0) {
                    mdc.put("é", null);
                }
            }
            event.setMDCPropertyMap(mdc);
            if (r.nextInt(5) == 0) {
                event.addMarker(r.nextBoolean() ? AUDIT : SECURITY);
                if (r.nextInt(3) == 0) {
                    event.addMarker(MARKERS.getMarker("M" + r.nextInt(3)));
                }
            }
            StringBuilder kvpValue = new StringBuilder("v" + i);
            if (r.nextInt(4) == 0) {
                event.addKeyValuePair(new KeyValuePair("k1", r.nextBoolean() ? kvpValue : null));
                if (r.nextBoolean()) {
                    event.addKeyValuePair(new KeyValuePair("k2", r.nextInt(100)));
                }
            }
            if (clock != null) {
                clock.accept(at);
            }
            Emit.emit(logger, event);
            mutable.append(" changed after the call");
            kvpValue.append(" changed after the call");
            if (!mdc.isEmpty() && r.nextInt(3) == 0) {
                mdc.put("user", "changed after the call"); // the event was given this map itself (setMDCPropertyMap)
            }
            if (rename && r.nextInt(5) == 0) {
                Thread.currentThread().setName("fuzz-" + thread + "-renamed-" + i + (r.nextBoolean() ? " ✓" : ""));
            }
        }
    }

    /** An exception with a cause chain and suppressed ones, now and then without messages. */
    private static Throwable failure(Random r, int i) {
        Throwable cause = r.nextBoolean() ? new IOException("disk " + r.nextInt(100)) : new UncheckedIOException(new IOException());
        if (r.nextBoolean()) {
            cause = new IllegalStateException(r.nextBoolean() ? null : "middle é", cause);
        }
        IllegalStateException e = new IllegalStateException(r.nextInt(4) == 0 ? null : "failed #" + i + " \ud83d\ude00", cause);
        if (r.nextBoolean()) {
            RuntimeException suppressed = new RuntimeException("suppressed <&>", new ArithmeticException("inner"));
            e.addSuppressed(suppressed);
        }
        return e;
    }
}
